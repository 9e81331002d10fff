// Differential testing against tinygltf (Debian's libtinygltf 2.7), the library this
// project was specified with: what each loader sees of a file (nodes, hierarchy,
// animations, channels, key times and values), where the two may disagree, and the first
// disagreement. tinygltf gives accessor bytes; they are decoded here, independently of
// src/gltf/accessor.cpp, by the glTF 2.0 spec. Used by tests/differential/differential_test.cpp
// (files) and tests/fuzz/fuzz_differential.cpp (fuzzed bytes). Include after tiny_gltf.h.
#pragma once

#include "gltf/asset.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace rootbake::differential {


struct SeenChannel {
    int node = -1;  // glTF node index
    std::string path, interpolation;
    std::vector<float> times, values;
};

struct Seen {
    bool ok = false;
    std::string error;
    std::vector<std::string> names;                // per glTF node
    std::vector<int> parent;                       // per glTF node, -1 for a root
    std::vector<std::map<int, SeenChannel>> animations;  // per animation: its TRS channels by channel index
    bool normalized = false;                       // some key data is normalized integers
};

inline Seen refusal(std::string error) {
    Seen seen;
    seen.error = std::move(error);
    return seen;
}

// ---- tinygltf, with the accessors decoded here ------------------------------------

inline bool keepImage(tinygltf::Image* image, const int, std::string*, std::string*, int, int, const unsigned char*, int,
               void*) {
    image->as_is = true;  // no pixel decoding
    return true;
}

inline int components(int type) {
    switch (type) {
        case TINYGLTF_TYPE_SCALAR: return 1;
        case TINYGLTF_TYPE_VEC2: return 2;
        case TINYGLTF_TYPE_VEC3: return 3;
        case TINYGLTF_TYPE_VEC4: return 4;
        default: return 0;
    }
}

// glTF 2.0, 3.11: normalized integers to floats.
inline float component(const unsigned char* p, int componentType, bool normalized) {
    switch (componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
        case TINYGLTF_COMPONENT_TYPE_BYTE: {
            const double c = static_cast<std::int8_t>(*p);
            return normalized ? float(std::max(c / 127.0, -1.0)) : float(c);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? float(*p / 255.0) : float(*p);
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
            std::int16_t c;
            std::memcpy(&c, p, 2);
            return normalized ? float(std::max(c / 32767.0, -1.0)) : float(c);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
            std::uint16_t c;
            std::memcpy(&c, p, 2);
            return normalized ? float(c / 65535.0) : float(c);
        }
        default: return NAN;
    }
}

// The elements of an accessor as floats, sparse substitution applied; false when its
// bytes are not all there (tinygltf does not check that).
inline bool decode(const tinygltf::Model& m, int index, std::vector<float>& out) {
    if (index < 0 || index >= int(m.accessors.size())) return false;
    const tinygltf::Accessor& a = m.accessors[index];
    const int width = components(a.type);
    const int size = tinygltf::GetComponentSizeInBytes(a.componentType);
    if (width == 0 || size <= 0) return false;
    out.assign(a.count * width, 0.0f);
    auto viewBytes = [&](int view, std::size_t offset, std::size_t stride, std::size_t count,
                         std::size_t element) -> const unsigned char* {
        if (view < 0 || view >= int(m.bufferViews.size())) return nullptr;
        const tinygltf::BufferView& v = m.bufferViews[view];
        if (v.buffer < 0 || v.buffer >= int(m.buffers.size())) return nullptr;
        const std::vector<unsigned char>& data = m.buffers[v.buffer].data;
        const std::size_t start = v.byteOffset + offset;
        if (count > 0 && (start + (count - 1) * stride + element > v.byteOffset + v.byteLength ||
                          v.byteOffset + v.byteLength > data.size()))
            return nullptr;
        return data.data() + start;
    };
    if (a.bufferView >= 0) {
        const std::size_t stride = std::max<std::size_t>(
            a.ByteStride(m.bufferViews[std::min<std::size_t>(a.bufferView, m.bufferViews.size() - 1)]),
            std::size_t(size * width));
        const unsigned char* p = viewBytes(a.bufferView, a.byteOffset, stride, a.count, size_t(size * width));
        if (!p) return false;
        for (std::size_t i = 0; i < a.count; ++i)
            for (int k = 0; k < width; ++k)
                out[i * width + k] = component(p + i * stride + k * size, a.componentType, a.normalized);
    }
    if (a.sparse.isSparse) {
        const int n = a.sparse.count;
        const int indexSize = tinygltf::GetComponentSizeInBytes(a.sparse.indices.componentType);
        const unsigned char* indices = viewBytes(a.sparse.indices.bufferView, a.sparse.indices.byteOffset,
                                                 indexSize, n, indexSize);
        const unsigned char* values = viewBytes(a.sparse.values.bufferView, a.sparse.values.byteOffset,
                                                size * width, n, size * width);
        if (!indices || !values) return false;
        for (int s = 0; s < n; ++s) {
            std::uint32_t at = 0;
            std::memcpy(&at, indices + s * indexSize, indexSize);  // little-endian
            if (at >= a.count) return false;
            for (int k = 0; k < width; ++k)
                out[at * width + k] = component(values + (s * width + k) * size, a.componentType, a.normalized);
        }
    }
    return true;
}

// An accessor whose bufferView is EXT_meshopt_compression's: tinygltf 2.7 does not decode it, and
// reads the bufferView's own buffer (a fallback placeholder, given the BIN chunk's bytes when it
// fits) as if it held the data.
inline bool meshoptCompressed(const tinygltf::Model& m, int accessor) {
    if (accessor < 0 || accessor >= int(m.accessors.size())) return false;
    const int view = m.accessors[accessor].bufferView;
    return view >= 0 && view < int(m.bufferViews.size()) &&
           m.bufferViews[view].extensions.count("EXT_meshopt_compression") > 0;
}

// What tinygltf's model holds, its accessors decoded here.
inline Seen seenOf(const tinygltf::Model& m) {
    Seen seen;
    seen.ok = true;
    seen.parent.assign(m.nodes.size(), -1);
    for (std::size_t n = 0; n < m.nodes.size(); ++n) {
        seen.names.push_back(m.nodes[n].name);
        for (int child : m.nodes[n].children)
            if (child >= 0 && child < int(m.nodes.size())) seen.parent[child] = int(n);
    }
    for (const tinygltf::Animation& a : m.animations) {
        std::map<int, SeenChannel>& channels = seen.animations.emplace_back();
        for (std::size_t c = 0; c < a.channels.size(); ++c) {
            const tinygltf::AnimationChannel& ch = a.channels[c];
            if (ch.target_node < 0 ||
                (ch.target_path != "translation" && ch.target_path != "rotation" && ch.target_path != "scale"))
                continue;
            if (ch.sampler < 0 || ch.sampler >= int(a.samplers.size())) continue;
            const tinygltf::AnimationSampler& s = a.samplers[ch.sampler];
            SeenChannel seenChannel{ch.target_node, ch.target_path, s.interpolation, {}, {}};
            if (meshoptCompressed(m, s.input) || meshoptCompressed(m, s.output)) {
                seen.ok = false;
                seen.error = "keys in EXT_meshopt_compression data (not decoded by tinygltf)";
                return seen;
            }
            if (!decode(m, s.input, seenChannel.times) || !decode(m, s.output, seenChannel.values)) {
                seen.ok = false;
                seen.error = "animation data outside its buffer (decoded here)";
                return seen;
            }
            if (s.output >= 0 && m.accessors[s.output].normalized) seen.normalized = true;
            channels[int(c)] = std::move(seenChannel);
        }
    }
    return seen;
}

// tinygltf on a file's bytes (external URIs against folder; no pixel decoding).
inline Seen viaTinygltf(const std::vector<std::uint8_t>& bytes, const std::string& folder) {
    tinygltf::TinyGLTF gltf;
    gltf.SetImageLoader(keepImage, nullptr);
    tinygltf::Model m;
    std::string error, warning;
    const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    bool ok = false;
    try {
        ok = binary ? gltf.LoadBinaryFromMemory(&m, &error, &warning, bytes.data(), unsigned(bytes.size()), folder)
                    : gltf.LoadASCIIFromString(&m, &error, &warning, reinterpret_cast<const char*>(bytes.data()),
                                               unsigned(bytes.size()), folder);
    } catch (const std::exception& e) {
        return refusal(std::string("tinygltf threw ") + e.what());
    }
    if (!ok) return refusal(error.substr(0, error.find('\n')));
    return seenOf(m);
}

// ---- rootbake -------------------------------------------------------------------

inline const char* pathName(Path p) {
    return p == Path::Translation ? "translation" : p == Path::Rotation ? "rotation" : "scale";
}

inline const char* interpolationName(Interpolation i) {
    return i == Interpolation::Step ? "STEP" : i == Interpolation::Linear ? "LINEAR" : "CUBICSPLINE";
}

// What rootbake's loader sees, by glTF index.
inline Seen seenOf(const gltf::Asset& asset) {
    Seen seen;
    seen.ok = true;
    const Rig& rig = asset.rig;
    seen.names.resize(rig.size());
    seen.parent.assign(rig.size(), -1);
    for (int n = 0; n < rig.size(); ++n) {
        seen.names[rig.gltfIndex[n]] = rig.name[n];
        if (rig.parent[n] >= 0) seen.parent[rig.gltfIndex[n]] = rig.gltfIndex[rig.parent[n]];
    }
    for (const Clip& clip : asset.clips) {
        std::map<int, SeenChannel>& channels = seen.animations.emplace_back();
        for (const Channel& c : clip.channels)
            channels[c.gltfChannel] = {rig.gltfIndex[c.node], pathName(c.path), interpolationName(c.interpolation),
                                       c.times, c.values};
    }
    return seen;
}

inline Seen viaRootbake(const Result<gltf::Asset>& asset) {
    if (!asset) return refusal(asset.error().message);
    return seenOf(*asset);
}

// ---- where the two may disagree -----------------------------------------------------

// rootbake refuses, tinygltf loads: checks of ours that tinygltf 2.7 does not make. Each
// entry is a part of rootbake's message and why the file is wrong by the glTF 2.0 spec.
inline const std::pair<const char*, const char*> kOursOnly[] = {
    {"out of range (", "an index to an object that is not there (tinygltf keeps the dangling index)"},
    {") is negative", "a negative index"},
    {"negative (-", "a negative index"},
    {"'s child already (one parent at most)", "a node with two parents: the hierarchy must be a set of disjoint trees (3.5.2)"},
    {"cycle in the node hierarchy", "a node that is its own ancestor (3.5.2)"},
    {"is not a root (", "a scene lists a node that has a parent (3.5.2: scene nodes are roots)"},
    {"missing (required)", "a required property absent (tinygltf fills in a default)"},
    {"expected a string, got", "a property of the wrong JSON type (the schema)"},
    {"expected an array, got", "a property of the wrong JSON type (the schema)"},
    {"expected an object, got", "a property of the wrong JSON type (the schema)"},
    {"byte order mark", "JSON that starts with a BOM (3.2: glTF JSON must not)"},
    {"a unit quaternion expected", "a node rotation that is not a unit quaternion (3.5.3)"},
    {"not a TRS matrix", "a node matrix that is not decomposable to TRS (3.5.3)"},
    {"given with translation/rotation/scale", "a node with both a matrix and TRS properties (3.5.3)"},
    {"runs past buffers[", "a bufferView past the end of its buffer (3.6.1)"},
    {"is more than byteLength", "a byteStride longer than its bufferView"},
    {"given without a bufferView", "an accessor offset without a bufferView (the schema)"},
    {"only byte and short types are normalized", "normalized on a FLOAT or UNSIGNED_INT accessor (3.6.2.1)"},
    {"has no bufferView: time 0 repeats", "animation times from an accessor without data: all zero, so not increasing (3.11)"},
    {"is negative", "a negative key time (3.11: times are non-negative)"},
    // A sampler output's component type, before the input's "not FLOAT" below.
    {"not FLOAT, BYTE or SHORT", "a sampler output of a type its path does not allow (3.11)"},
    {"not FLOAT or normalized", "a sampler output of a type its path does not allow (3.11)"},
    {", not SCALAR", "sampler input that is not SCALAR FLOAT (3.11)"},
    {"_INT, not FLOAT", "sampler input that is not SCALAR FLOAT (3.11)"},
    {"BYTE, not FLOAT", "sampler input that is not SCALAR FLOAT (3.11)"},
    {"SHORT, not FLOAT", "sampler input that is not SCALAR FLOAT (3.11)"},
    {"CUBICSPLINE needs at least", "a CUBICSPLINE sampler with fewer than two keys (3.11)"},
    {"is already animated by", "two channels with the same target (3.11)"},
    {", not VEC", "a sampler output of a type its path does not allow (3.11)"},
    {" elements for ", "a sampler output whose count does not match its input's (3.11)"},
    {"GLB header: length", "a GLB whose header length is not the file's (4.4)"},
    {"GLB chunk", "a malformed GLB chunk (4.4: lengths are multiples of 4, one BIN chunk)"},
    {"both uri and bufferView", "an image with both a uri and a bufferView (the schema: exactly one of them)"},
    {"more than max", "an input over one of the documented limits (docs/limits.md), not a spec error"},
};

// tinygltf refuses, rootbake loads: files the spec allows that tinygltf 2.7 does not read.
inline const std::pair<const char*, const char*> kTheirsOnly[] = {
    {"'uri' is missing from non binary glTF file buffer",
     "a .gltf buffer without uri: uri is optional (a placeholder no accessor reads)"},
    {"Must be equal or less than binary size",
     "a second buffer without uri in a GLB (a placeholder): tinygltf checks it against the BIN chunk"},
    {"data:application/gltf-buffer", "a data: URI of media type application/gltf-buffer, which the spec allows"},
    {"File not found : data:",
     "a data: URI tinygltf 2.7 does not recognise, so reads as a file name: it knows base64 URIs of a few media "
     "types spelt in lower case, but media types and the scheme are case-insensitive and base64 is optional (RFC 2397)"},
    {"invalid bufferView", "an accessor without a bufferView (its data in an extension, e.g. Draco), which the spec allows"},
    {"Invalid type for chunk1 data",
     "a GLB whose second chunk is of an unknown type: clients must ignore chunks of unknown types (GLB, Chunks)"},
    {"keys in EXT_meshopt_compression data",
     "keys in a meshopt-compressed bufferView, which rootbake decodes and tinygltf 2.7 does not (its fallback "
     "buffer is a placeholder: compared, tinygltf's keys would be the compressed bytes)"},
};

// The reason listed for a message, matched without regard to ASCII case (a URI's scheme
// and media type may be spelt in any case).
inline const char* reasonFor(const std::string& message, const std::pair<const char*, const char*>* table, std::size_t n) {
    auto lower = [](std::string text) {
        for (char& c : text) c = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
        return text;
    };
    const std::string text = lower(message);
    for (std::size_t i = 0; i < n; ++i)
        if (*table[i].first && text.find(lower(table[i].first)) != std::string::npos) return table[i].second;
    return nullptr;
}

// The first thing the two see differently ("" when they agree), for two loads that both
// succeeded. Floats are the file's bits; normalized integers divided in float or double.
inline std::string firstDifference(const Seen& ours, const Seen& theirs, int* channelsCompared = nullptr) {
    if (ours.names != theirs.names) return "node names (or node count) differ";
    if (ours.parent != theirs.parent) return "the node hierarchy differs";
    if (ours.animations.size() != theirs.animations.size()) return "animation counts differ";
    for (std::size_t a = 0; a < ours.animations.size(); ++a) {
        const auto& mine = ours.animations[a];
        const auto& their = theirs.animations[a];
        const std::string where = "animations[" + std::to_string(a) + "]";
        if (mine.size() != their.size()) return where + ": TRS channel counts differ";
        // Paired in order, not by index: tinygltf 2.7 drops a channel whose target has no
        // node (the spec allows one; an extension names the target), so the channels after
        // it have lower indices there. rootbake keeps it aside, out of the TRS channels.
        auto t = their.begin();
        for (auto m = mine.begin(); m != mine.end(); ++m, ++t) {
            const auto& [index, c] = *m;
            const std::string at = where + ".channels[" + std::to_string(index) + "]";
            if (c.node != t->second.node) return at + ": target nodes differ";
            if (c.path != t->second.path) return at + ": paths differ";
            if (c.interpolation != (t->second.interpolation.empty() ? "LINEAR" : t->second.interpolation))
                return at + ": interpolations differ";
            if (c.times != t->second.times) return at + ": key times differ";
            if (c.values.size() != t->second.values.size()) return at + ": value counts differ";
            float worst = 0.0f;
            for (std::size_t k = 0; k < c.values.size(); ++k)
                worst = std::max(worst, std::abs(c.values[k] - t->second.values[k]));
            if (!(worst <= (theirs.normalized ? 1e-6f : 0.0f))) return at + ": values differ by " + std::to_string(worst);
            if (channelsCompared) ++*channelsCompared;
        }
    }
    return "";
}

}  // namespace rootbake::differential
