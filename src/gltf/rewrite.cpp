// The in-place rewrite, in four steps on a copy of the input's JSON and buffers:
//   1. (--keep-source) copy each baked animation to the end of animations[];
//   2. point the root channels at the new keys: an output accessor that only the
//      rewritten sampler uses keeps its index and gets FLOAT data, anything shared
//      gets a new accessor (and a sampler shared by two channels a new sampler);
//   3. cut the byte ranges of bufferViews that only held the old keys out of their
//      buffer, moving later bufferViews down by a multiple of 4;
//   4. append the new keys at the end of their buffer, then frame .glb or .gltf.
// No array is reindexed (an unknown extension may hold indices), except buffers
// when a .gltf's buffers are merged into a GLB's single BIN chunk.
#include "gltf/rewrite.h"
#include "gltf/internal.h"
#include "io/base64.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>

namespace rootbake {

namespace fs = std::filesystem;
using gltf::Json;
using gltf::member;

namespace {

constexpr int kFloat = 5126;
const char* const kMeshopt[] = {"EXT_meshopt_compression", "KHR_meshopt_compression"};

// Extensions that reference no accessor, bufferView or buffer, or whose
// references are counted below. Any other extension might reference anything,
// so with one present nothing is reused in place and no byte is moved.
bool knownExtension(const std::string& name) {
    static const char* const prefixes[] = {"KHR_materials_", "KHR_texture_", "EXT_texture_", "KHR_lights_",
                                           "EXT_lights_",    "KHR_xmp",      "KHR_node_"};
    static const char* const names[] = {"KHR_mesh_quantization",
                                        "KHR_animation_pointer",
                                        "KHR_draco_mesh_compression",
                                        "EXT_meshopt_compression",
                                        "KHR_meshopt_compression",
                                        "EXT_mesh_gpu_instancing",
                                        "MSFT_lod",
                                        "MSFT_texture_dds"};
    for (const char* p : prefixes)
        if (name.rfind(p, 0) == 0) return true;
    for (const char* n : names)
        if (name == n) return true;
    return false;
}

// Every name under an "extensions" object anywhere in the document. Numbers and strings, most
// of it, are passed over without a call.
void collectExtensions(const Json& value, std::set<std::string>& out) {
    if (value.is_object()) {
        for (const auto& [key, child] : value.get_ref<const Json::object_t&>()) {
            if (child.is_primitive()) continue;
            if (key == "extensions" && child.is_object())
                for (const auto& [name, ignored] : child.get_ref<const Json::object_t&>()) out.insert(name);
            collectExtensions(child, out);
        }
    } else if (value.is_array()) {
        for (const Json& child : value.get_ref<const Json::array_t&>())
            if (!child.is_primitive()) collectExtensions(child, out);
    }
}

std::size_t sizeOf(const Json& doc, const char* key) {
    const Json* array = member(doc, key);
    return array && array->is_array() ? array->size() : 0;
}

// A glTF index (1.0 written for 1 is accepted, as the loader does).
bool isIndex(const Json* value) {
    if (!value || !value->is_number()) return false;
    const double v = value->get<double>();
    return v >= 0.0 && v == double(value->get<std::uint64_t>());
}

std::uint64_t uintOf(const Json& object, const char* key, std::uint64_t otherwise = 0) {
    const Json* value = member(object, key);
    return value && value->is_number() ? value->get<std::uint64_t>() : otherwise;
}

// How many times each accessor and bufferView is referenced.
struct References {
    std::vector<int> accessor, view;
    bool opaque = false;  // an unknown extension is present: anything may be referenced
};

void countIndex(std::vector<int>& counts, const Json* index) {
    if (isIndex(index) && index->get<std::uint64_t>() < counts.size()) ++counts[index->get<std::size_t>()];
}

void countValues(std::vector<int>& counts, const Json* object) {
    if (!object || !object->is_object()) return;
    for (const auto& [key, index] : object->items()) countIndex(counts, &index);
}

const Json* extension(const Json& object, const char* name) {
    const Json* extensions = member(object, "extensions");
    return extensions && extensions->is_object() ? member(*extensions, name) : nullptr;
}

References countReferences(const Json& doc) {
    References refs;
    refs.accessor.assign(sizeOf(doc, "accessors"), 0);
    refs.view.assign(sizeOf(doc, "bufferViews"), 0);
    for (std::size_t a = 0; a < sizeOf(doc, "animations"); ++a)
        for (const Json& sampler : doc["animations"][a]["samplers"]) {
            countIndex(refs.accessor, member(sampler, "input"));
            countIndex(refs.accessor, member(sampler, "output"));
        }
    for (std::size_t m = 0; m < sizeOf(doc, "meshes"); ++m)
        for (const Json& primitive : doc["meshes"][m]["primitives"]) {
            countValues(refs.accessor, member(primitive, "attributes"));
            countIndex(refs.accessor, member(primitive, "indices"));
            if (const Json* targets = member(primitive, "targets"))
                for (const Json& target : *targets) countValues(refs.accessor, &target);
            if (const Json* draco = extension(primitive, "KHR_draco_mesh_compression"))
                countIndex(refs.view, member(*draco, "bufferView"));
        }
    for (std::size_t s = 0; s < sizeOf(doc, "skins"); ++s)
        countIndex(refs.accessor, member(doc["skins"][s], "inverseBindMatrices"));
    for (std::size_t n = 0; n < sizeOf(doc, "nodes"); ++n)
        if (const Json* instancing = extension(doc["nodes"][n], "EXT_mesh_gpu_instancing"))
            countValues(refs.accessor, member(*instancing, "attributes"));
    for (std::size_t a = 0; a < sizeOf(doc, "accessors"); ++a) {
        const Json& accessor = doc["accessors"][a];
        countIndex(refs.view, member(accessor, "bufferView"));
        if (const Json* sparse = member(accessor, "sparse")) {
            countIndex(refs.view, member((*sparse)["indices"], "bufferView"));
            countIndex(refs.view, member((*sparse)["values"], "bufferView"));
        }
    }
    for (std::size_t i = 0; i < sizeOf(doc, "images"); ++i)
        countIndex(refs.view, member(doc["images"][i], "bufferView"));

    std::set<std::string> extensions;
    collectExtensions(doc, extensions);
    if (const Json* used = member(doc, "extensionsUsed"))
        for (const Json& name : *used)
            if (name.is_string()) extensions.insert(name.get<std::string>());
    for (const std::string& name : extensions)
        if (!knownExtension(name)) refs.opaque = true;
    return refs;
}

std::vector<std::uint8_t> bytesOf(const std::vector<float>& values) {
    std::vector<std::uint8_t> out(values.size() * sizeof(float));
    if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
    return out;
}

// Per-component minimum or maximum over all elements, as glTF's accessor min/max.
Json bound(const std::vector<float>& values, int width, bool upper) {
    Json out = Json::array();
    for (int c = 0; c < width; ++c) {
        float v = values.empty() ? 0.0f : values[c];
        for (std::size_t i = c; i < values.size(); i += width)
            v = upper ? std::max(v, values[i]) : std::min(v, values[i]);
        out.push_back(double(v));
    }
    return out;
}

const char* interpolationName(Interpolation i) {
    return i == Interpolation::Step ? "STEP" : i == Interpolation::CubicSpline ? "CUBICSPLINE" : "LINEAR";
}
const char* pathName(Path p) {
    return p == Path::Rotation ? "rotation" : p == Path::Scale ? "scale" : "translation";
}

std::uint64_t align4(std::uint64_t n) {
    return (n + 3) / 4 * 4;
}

// The data: URI header kept when it was base64, else the generic one.
std::string dataUri(const std::string& old, std::span<const std::uint8_t> bytes) {
    const std::size_t comma = old.find(',');
    std::string header = old.substr(0, comma == std::string::npos ? 0 : comma + 1);
    if (header.size() < 8 || header.compare(header.size() - 8, 8, ";base64,") != 0)
        header = "data:application/octet-stream;base64,";
    return header + io::encodeBase64(bytes);
}

// Image media types by file extension, for embedding in a GLB.
const char* mimeTypeOf(const fs::path& file) {
    std::string ext = file.extension().string();
    for (char& c : ext) c = c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
    if (ext == ".png") return "image/png";
    if (ext == ".jpg" || ext == ".jpeg") return "image/jpeg";
    if (ext == ".webp") return "image/webp";
    if (ext == ".ktx2") return "image/ktx2";
    return nullptr;
}

// The size of a file to embed: what the writer then streams, and checks again.
Result<std::uint64_t> fileSize(const fs::path& file) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(file, ec);
    if (ec) return Error{file.string() + ": cannot read: " + ec.message()};
    return std::uint64_t(size);
}

// The output being assembled: OutputPieces, made bytes run together, and its size so far.
struct Pieces {
    std::vector<OutputPiece> list;
    std::uint64_t size = 0;

    void input(std::span<const std::uint8_t> bytes) {  // written from the input's buffers
        if (bytes.empty()) return;
        list.push_back({{}, bytes});
        size += bytes.size();
    }
    void made(const void* data, std::size_t n) {
        if (n == 0) return;
        if (list.empty() || list.back().bytes.empty()) list.emplace_back();
        const auto* p = static_cast<const std::uint8_t*>(data);
        list.back().bytes.insert(list.back().bytes.end(), p, p + n);
        size += n;
    }
    void pad(std::uint64_t to, std::uint8_t byte = 0) {
        const std::vector<std::uint8_t> fill(to > size ? std::size_t(to - size) : 0, byte);
        made(fill.data(), fill.size());
    }
    void put32(std::uint32_t v) {
        std::uint8_t b[4];
        for (int i = 0; i < 4; ++i) b[i] = std::uint8_t(v >> (8 * i));
        made(b, 4);
    }
};

// A GLB of the JSON and, when hasBin, a BIN chunk of binSize bytes, of which appendBin
// appends the first binSize - streamedBytes (the mesh bytes as pieces of the input: never
// copied); the rest (embedded image files and padding) the writer streams.
// total: the whole GLB's size, at most 4 GiB - 1 (its lengths are 32-bit; the caller checks).
template <class AppendBin>
std::vector<OutputPiece> frameGlb(const std::string& json, bool hasBin, std::uint64_t binSize,
                                  std::uint64_t streamedBytes, AppendBin&& appendBin) {
    const std::uint32_t jsonLength = std::uint32_t(align4(json.size()));
    const std::uint32_t binLength = hasBin ? std::uint32_t(align4(binSize)) : 0;
    const std::uint32_t total = 12 + 8 + jsonLength + (hasBin ? 8 + binLength : 0);
    Pieces out;
    out.put32(0x46546C67);  // "glTF"
    out.put32(2);
    out.put32(total);
    out.put32(jsonLength);
    out.put32(0x4E4F534A);  // "JSON"
    out.made(json.data(), json.size());
    out.pad(20 + jsonLength, 0x20);  // padded with spaces (glTF 2.0 section 4.4.3.1)
    if (hasBin) {
        out.put32(binLength);
        out.put32(0x004E4942);  // "BIN\0"
        appendBin(out);
        if (!streamedBytes) out.pad(total);
    }
    return std::move(out.list);
}

// The size of a GLB of a JSON chunk of jsonSize bytes and a BIN chunk of binSize (none when 0).
std::uint64_t glbSize(std::uint64_t jsonSize, std::uint64_t binSize) {
    return 12 + 8 + align4(jsonSize) + (binSize ? 8 + align4(binSize) : 0);
}
constexpr std::uint64_t kMaxGlbBytes = 0xFFFFFFFFull;  // its header's 32-bit length

class Rewriter {
public:
    Rewriter(const gltf::Asset& asset, const RewriteOptions& options)
        : asset_(asset),
          options_(options),
          doc_(asset.document),
          edits_(asset.buffers.size()),
          touched_(asset.buffers.size(), 0) {}

    Result<RewrittenAsset> run(const std::vector<ClipRewrite>& clips, const NewRootBone* rootBone,
                               const std::vector<AnimationExtras>& extras) {
        std::vector<const ClipRewrite*> sorted;
        for (const ClipRewrite& c : clips) sorted.push_back(&c);
        std::sort(sorted.begin(), sorted.end(),
                  [](const ClipRewrite* a, const ClipRewrite* b) { return a->animation < b->animation; });

        const std::size_t animations = sizeOf(doc_, "animations");
        out_.animationOf.resize(animations);
        out_.nameOf.resize(animations);
        for (std::size_t a = 0; a < animations; ++a) {
            out_.animationOf[a] = int(a);
            const Json* name = member(doc_["animations"][a], "name");
            const bool named = name && name->is_string() && !name->get<std::string>().empty();
            out_.nameOf[a] = named ? name->get<std::string>() : "animations[" + std::to_string(a) + "]";
        }
        std::vector<int> target;  // per sorted rewrite: the animation it edits
        for (const ClipRewrite* c : sorted) {
            if (c->animation < 0 || std::size_t(c->animation) >= animations ||
                (c->channels.empty() && c->rootBoneChannels.empty())) {
                target.push_back(-1);
                continue;
            }
            int index = c->animation;
            if (options_.keepSource) {
                Json copy = doc_["animations"][index];
                const std::string base = out_.nameOf[index];
                copy["name"] = base + " (in place)";
                doc_["animations"].push_back(std::move(copy));
                index = int(doc_["animations"].size()) - 1;
                out_.nameOf[c->animation] = base + " (in place)";
            }
            out_.animationOf[c->animation] = index;
            target.push_back(index);
        }

        // Collections that get new entries exist before any reference into the
        // document is held (adding a key to the root moves its members).
        if (rootBone || std::any_of(target.begin(), target.end(), [](int t) { return t >= 0; }))
            for (const char* key : {"buffers", "bufferViews", "accessors"})
                if (!member(doc_, key)) doc_[key] = Json::array();
        refs_ = countReferences(doc_);
        originalViews_ = sizeOf(doc_, "bufferViews");
        reused_.assign(originalViews_, 0);
        if (rootBone) ROOTBAKE_TRY(insertRootBone(*rootBone));
        for (std::size_t i = 0; i < sorted.size(); ++i)
            if (target[i] >= 0) ROOTBAKE_TRY(apply(target[i], *sorted[i]));
        addExtras(extras);
        dropDeadRanges();
        place();
        return frame();
    }

private:
    const gltf::Asset& asset_;
    const RewriteOptions& options_;
    Json doc_;
    // A buffer's edits, kept apart from its bytes (asset_.buffers, never copied here): the output's
    // bytes are the source's first byteLength less the cuts, then the tail. They are copied once,
    // into the output, by appendBuffer.
    struct BufferEdit {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> cuts;  // (offset, length) in the source
        std::uint64_t kept = 0;          // source bytes kept, byteLength less the cuts
        std::vector<std::uint8_t> tail;  // appended keys and their padding
    };
    std::vector<BufferEdit> edits_;
    std::vector<std::uint8_t> touched_;  // per buffer: bytes edited (edits_ says how)
    References refs_;
    std::size_t originalViews_ = 0;
    std::vector<std::uint8_t> reused_;  // per original bufferView: now holds rewritten data
    struct Stream {
        std::size_t buffer;
        std::uint64_t offset, length;
    };
    std::vector<Stream> deadStreams_;  // meshopt streams of reused views: read by nothing now

    struct Placement {
        int view, buffer;
        std::vector<std::uint8_t> bytes;
    };
    std::vector<Placement> placements_;
    RewrittenAsset out_;
    int rootBoneNode_ = -1;  // glTF index of the inserted root bone

    // Puts the root bone into the hierarchy and the child's skins (NewRootBone says how).
    Status insertRootBone(const NewRootBone& bone) {
        Json& nodes = doc_["nodes"];
        rootBoneNode_ = int(nodes.size());
        const int child = bone.child;
        bool placed = false;
        for (Json& node : nodes)
            if (member(node, "children"))
                for (Json& c : node["children"])
                    if (c.get<int>() == child) c = rootBoneNode_, placed = true;
        if (!placed)  // a scene root: the root bone takes its place in every scene
            for (std::size_t s = 0; s < sizeOf(doc_, "scenes"); ++s)
                if (member(doc_["scenes"][s], "nodes"))
                    for (Json& r : doc_["scenes"][s]["nodes"])
                        if (r.get<int>() == child) r = rootBoneNode_;

        Json& moved = nodes[child];
        if (bone.translation != glm::dvec3(0.0)) {
            if (member(moved, "matrix")) {
                Json& matrix = moved["matrix"];
                for (int i = 0; i < 3; ++i)
                    matrix[12 + i] = matrix[12 + i].get<double>() - bone.translation[i];
            } else {
                const Json* old = member(moved, "translation");
                Json shifted = Json::array();
                for (int i = 0; i < 3; ++i)
                    shifted.push_back((old ? (*old)[i].get<double>() : 0.0) - bone.translation[i]);
                moved["translation"] = std::move(shifted);
            }
        }
        Json node{{"name", bone.name}};
        if (bone.translation != glm::dvec3(0.0))
            node["translation"] = Json::array({bone.translation.x, bone.translation.y, bone.translation.z});
        node["children"] = Json::array({child});
        nodes.push_back(std::move(node));

        for (std::size_t s = 0; s < sizeOf(doc_, "skins"); ++s) {
            Json& skin = doc_["skins"][s];
            Json& joints = skin["joints"];
            if (std::none_of(joints.begin(), joints.end(),
                             [&](const Json& j) { return j.get<int>() == child; }))
                continue;
            if (const Json* skeleton = member(skin, "skeleton"); skeleton && skeleton->get<int>() == child)
                skin["skeleton"] = rootBoneNode_;
            joints.push_back(rootBoneNode_);
            const Json* bind = member(skin, "inverseBindMatrices");
            if (!bind) continue;  // every joint's is the identity, the root bone's too
            const int accessor = bind->get<int>();
            auto matrices = gltf::decodeAccessor(asset_, accessor);
            if (!matrices)
                return Error{asset_.fileName + ": skins[" + std::to_string(s) +
                             "]: cannot take the root bone as a joint: its inverseBindMatrices (accessors[" +
                             std::to_string(accessor) + "]) cannot be read: " + matrices.error().message};
            std::vector<float> values = std::move(*matrices);
            const auto at = std::find_if(joints.begin(), joints.end(),
                                         [&](const Json& j) { return j.get<int>() == child; });
            const std::size_t first = 16 * std::size_t(at - joints.begin());
            if (values.size() < first + 16)
                return Error{asset_.fileName + ": skins[" + std::to_string(s) +
                             "]: inverseBindMatrices (accessors[" + std::to_string(accessor) +
                             "]) has no matrix for joint nodes[" + std::to_string(child) + "]"};
            glm::dmat4 childBind, childRest;
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r) {
                    childBind[c][r] = values[first + std::size_t(4 * c + r)];
                    childRest[c][r] = bone.childRest[std::size_t(4 * c + r)];
                }
            const glm::dmat4 inverseBind = childRest * childBind;
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r) values.push_back(float(inverseBind[c][r]));
            int buffer = bufferOfAccessor(accessor);
            if (buffer < 0 || noData(buffer)) {
                auto any = anyDataBuffer();
                if (!any) return Error{asset_.fileName + ": " + any.error().message};
                buffer = *any;
            }
            // In place when only this skin reads it, as a rewritten sampler output is.
            doc_["skins"][s]["inverseBindMatrices"] = writeOutput(accessor, buffer, values, 16, "MAT4");
        }
        return Ok{};
    }

    // No bytes behind it (an extension's fallback buffer); a buffer created here has them.
    bool noData(std::size_t buffer) const {
        const Json& b = doc_["buffers"][buffer];
        return !member(b, "uri") && !(asset_.binary && buffer == 0) && !touched_[buffer];
    }

    int bufferOfAccessor(int accessor) const {
        const Json* view = member(doc_["accessors"][accessor], "bufferView");
        if (!isIndex(view)) return -1;
        return int(uintOf(doc_["bufferViews"][view->get<std::size_t>()], "buffer"));
    }

    // The buffer new data goes to when there is no old data to follow.
    Result<int> anyDataBuffer() {
        for (std::size_t b = 0; b < sizeOf(doc_, "buffers"); ++b)
            if (!noData(b)) return int(b);
        if (sizeOf(doc_, "buffers") == 0) {  // a new buffers[0]: the BIN chunk, or the new .bin
            doc_["buffers"].push_back(Json{{"byteLength", 0}});
            edits_.assign(1, {});
            touched_.assign(1, 1);
            return 0;
        }
        return Error{"buffers: none can take the rewritten keys (every buffer has no data)"};
    }

    int newView(int buffer, std::vector<std::uint8_t> bytes) {
        const std::uint64_t length = bytes.size();
        doc_["bufferViews"].push_back(Json{{"buffer", buffer}, {"byteOffset", 0}, {"byteLength", length}});
        const int view = int(doc_["bufferViews"].size()) - 1;
        placements_.push_back({view, buffer, std::move(bytes)});
        return view;
    }

    int newAccessor(int buffer, const std::vector<float>& values, int width, const char* type, bool minMax) {
        const int view = newView(buffer, bytesOf(values));
        Json accessor{{"bufferView", view},
                      {"componentType", kFloat},
                      {"count", values.size() / width},
                      {"type", type}};
        if (minMax) {
            accessor["min"] = bound(values, width, false);
            accessor["max"] = bound(values, width, true);
        }
        doc_["accessors"].push_back(std::move(accessor));
        refs_.accessor.push_back(1);
        return int(doc_["accessors"].size()) - 1;
    }

    // New data for a sampler's output accessor: in place when nothing else uses
    // it, else in a new accessor. Returns the accessor the sampler is to use.
    int writeOutput(int index, int buffer, const std::vector<float>& values, int width, const char* type) {
        if (refs_.opaque || refs_.accessor[index] != 1) {
            --refs_.accessor[index];
            return newAccessor(buffer, values, width, type, false);
        }
        Json& accessor = doc_["accessors"][index];
        const Json* oldView = member(accessor, "bufferView");
        const int view = isIndex(oldView) ? oldView->get<int>() : -1;
        const bool viewIsOurs = view >= 0 && refs_.view[view] == 1;
        int newViewIndex;
        if (viewIsOurs) {
            dropCompression(view);
            reused_[view] = 1;
            placements_.push_back({view, buffer, bytesOf(values)});
            newViewIndex = view;
        } else {
            if (view >= 0) --refs_.view[view];
            newViewIndex = newView(buffer, bytesOf(values));
        }
        if (const Json* sparse = member(accessor, "sparse")) {
            // Its index and value views stay, unreferenced (their bytes are not moved).
            for (const char* part : {"indices", "values"})
                if (const Json* v = member((*sparse)[part], "bufferView");
                    isIndex(v) && v->get<std::size_t>() < refs_.view.size())
                    --refs_.view[v->get<std::size_t>()];
            accessor.erase("sparse");
        }
        accessor["bufferView"] = newViewIndex;
        accessor.erase("byteOffset");
        accessor["componentType"] = kFloat;
        accessor.erase("normalized");
        accessor["count"] = values.size() / width;
        if (member(accessor, "min") || member(accessor, "max")) {
            accessor["min"] = bound(values, width, false);
            accessor["max"] = bound(values, width, true);
        }
        return index;
    }

    // A meshopt view that only the rewritten accessor reads is reused for its new floats as they
    // are: the extension goes, and its stream, which nothing reads now, is cut with the dead bytes.
    void dropCompression(int view) {
        Json& v = doc_["bufferViews"][view];
        for (const char* name : kMeshopt) {
            const Json* ext = extension(v, name);
            if (!ext) continue;
            if (const Json* b = member(*ext, "buffer"); isIndex(b))
                deadStreams_.push_back(
                    {b->get<std::size_t>(), uintOf(*ext, "byteOffset"), uintOf(*ext, "byteLength")});
            v["extensions"].erase(name);
            if (v["extensions"].empty()) v.erase("extensions");
        }
    }

    // extras.rootbake of each animation played, replacing one a bake wrote before; the
    // animation's other extras stay as they are.
    void addExtras(const std::vector<AnimationExtras>& extras) {
        for (const AnimationExtras& e : extras) {
            if (e.animation < 0 || std::size_t(e.animation) >= out_.animationOf.size()) continue;
            Json& anim = doc_["animations"][std::size_t(out_.animationOf[std::size_t(e.animation)])];
            if (!anim.contains("extras")) anim["extras"] = Json::object();
            if (anim["extras"].is_object()) anim["extras"]["rootbake"] = e.rootbake;
        }
    }

    // A new channel of `node` with its own sampler and accessors.
    void addChannel(Json& anim, int buffer, const InPlaceChannel& ch, int node) {
        const int width = ch.path == Path::Rotation ? 4 : 3;
        const int input = newAccessor(buffer, ch.times, 1, "SCALAR", true);
        const int output = newAccessor(buffer, ch.values, width, width == 4 ? "VEC4" : "VEC3", false);
        anim["samplers"].push_back(Json{
            {"input", input}, {"interpolation", interpolationName(ch.interpolation)}, {"output", output}});
        anim["channels"].push_back(Json{{"sampler", anim["samplers"].size() - 1},
                                        {"target", Json{{"node", node}, {"path", pathName(ch.path)}}}});
    }

    Status apply(int animation, const ClipRewrite& clip) {
        Json& anim = doc_["animations"][animation];
        Json& channels = anim["channels"];
        Json& samplers = anim["samplers"];

        // Keys follow the root's old keys into their buffer.
        int fallback = -1;
        for (const InPlaceChannel& ch : clip.channels) {
            if (ch.gltfChannel < 0 || fallback >= 0) continue;
            const int sampler = channels[ch.gltfChannel]["sampler"].get<int>();
            fallback = bufferOfAccessor(samplers[sampler]["output"].get<int>());
        }
        if (fallback < 0 || noData(fallback)) {
            auto any = anyDataBuffer();
            if (!any) return any.error();
            fallback = *any;
        }
        for (const InPlaceChannel& ch : clip.rootBoneChannels) {
            if (rootBoneNode_ >= 0)
                addChannel(anim, fallback, ch, rootBoneNode_);
            else if (ch.gltfChannel < 0)  // a reused bone's path it did not key
                addChannel(anim, fallback, ch, asset_.rig.gltfIndex[ch.node]);
            else  // a reused bone's own channel: new times and interpolation too
                replaceKeys(anim, fallback, ch, true);
        }
        for (const InPlaceChannel& ch : clip.channels) {
            if (ch.gltfChannel < 0)
                addChannel(anim, fallback, ch, asset_.rig.gltfIndex[ch.node]);
            else
                replaceKeys(anim, fallback, ch, false);
        }
        return Ok{};
    }

    // The channel's sampler gets ch's values (its own copy when another channel shares it), and
    // its times when they are new or their count changed.
    void replaceKeys(Json& anim, int fallback, const InPlaceChannel& ch, bool newTimes) {
        Json& channels = anim["channels"];
        Json& samplers = anim["samplers"];
        const int width = ch.path == Path::Rotation ? 4 : 3;
        const char* type = width == 4 ? "VEC4" : "VEC3";
        Json& channel = channels[ch.gltfChannel];
        int s = channel["sampler"].get<int>();
        int users = 0;
        for (const Json& c : channels) users += c["sampler"].get<int>() == s;
        if (users > 1) {  // the other channel keeps the old sampler
            Json copy = samplers[s];
            samplers.push_back(std::move(copy));
            s = int(samplers.size()) - 1;
            channel["sampler"] = s;
            ++refs_.accessor[samplers[s]["input"].get<std::size_t>()];
            ++refs_.accessor[samplers[s]["output"].get<std::size_t>()];
        }
        Json& sampler = samplers[s];
        const int output = sampler["output"].get<int>();
        const int input = sampler["input"].get<int>();
        int buffer = bufferOfAccessor(output);
        if (buffer < 0 || noData(buffer)) buffer = fallback;
        sampler["output"] = writeOutput(output, buffer, ch.values, width, type);
        if (newTimes || uintOf(doc_["accessors"][input], "count") != ch.times.size()) {
            --refs_.accessor[input];
            sampler["input"] = newAccessor(buffer, ch.times, 1, "SCALAR", true);
        }
        if (newTimes) sampler["interpolation"] = interpolationName(ch.interpolation);
    }

    void touch(int buffer) {
        if (touched_[buffer]) return;
        touched_[buffer] = 1;
        edits_[buffer].kept =
            uintOf(doc_["buffers"][buffer], "byteLength");  // the loader checked the bytes are there
    }

    // The source bytes of a buffer as read (empty for one made here).
    std::span<const std::uint8_t> sourceOf(std::size_t b) const {
        return b < asset_.buffers.size() ? std::span<const std::uint8_t>(asset_.buffers[b])
                                         : std::span<const std::uint8_t>();
    }

    // Bytes the buffer holds now: all of the source when untouched (a GLB's padding too).
    std::uint64_t heldBytes(std::size_t b) const {
        return touched_[b] ? edits_[b].kept + edits_[b].tail.size() : sourceOf(b).size();
    }

    // Appends the bytes the buffer holds in the output (exactly byteLength of them) to out:
    // the source's as pieces of the input, the new keys as made bytes.
    void appendBuffer(std::size_t b, Pieces& out) const {
        const std::span<const std::uint8_t> source = sourceOf(b);
        if (!touched_[b]) {
            const std::size_t length =
                std::min<std::size_t>(source.size(), uintOf(doc_["buffers"][b], "byteLength"));
            out.input(source.first(length));
            return;
        }
        const BufferEdit& edit = edits_[b];
        std::vector<std::pair<std::uint64_t, std::uint64_t>> cuts = edit.cuts;
        std::sort(cuts.begin(), cuts.end());
        std::uint64_t from = 0, left = edit.kept;
        for (const auto& [offset, length] : cuts) {
            out.input(source.subspan(std::size_t(from), std::size_t(offset - from)));
            left -= offset - from;
            from = offset + length;
        }
        out.input(source.subspan(std::size_t(from), std::size_t(left)));
        out.made(edit.tail.data(), edit.tail.size());
    }

    // A buffer in one piece, for a data: URI or a new .bin.
    std::vector<std::uint8_t> bufferBytes(std::size_t b) const {
        Pieces out;
        appendBuffer(b, out);
        return joinPieces(out.list);
    }

    // Cuts the old bytes of reused bufferViews out of their buffers.
    void dropDeadRanges() {
        struct Range {
            int buffer;
            std::uint64_t offset, length;
            std::size_t view;
            const char* ext;  // nullptr: the bufferView itself; else its meshopt extension
        };
        std::vector<Range> live, dead;
        const std::size_t buffers = sizeOf(doc_, "buffers");
        for (std::size_t v = 0; v < originalViews_; ++v) {
            const Json& view = doc_["bufferViews"][v];
            const Range range{int(uintOf(view, "buffer")), uintOf(view, "byteOffset"),
                              uintOf(view, "byteLength"), v, nullptr};
            (reused_[v] ? dead : live).push_back(range);
            for (const char* name : kMeshopt) {
                const Json* ext = extension(view, name);
                if (!ext) continue;
                const Json* b = member(*ext, "buffer");
                if (!isIndex(b) || b->get<std::size_t>() >= buffers) return;  // malformed: move nothing
                const Range r{b->get<int>(), uintOf(*ext, "byteOffset"), uintOf(*ext, "byteLength"), v, name};
                if (r.offset + r.length > uintOf(doc_["buffers"][r.buffer], "byteLength")) return;
                live.push_back(r);
            }
        }
        for (const Stream& d : deadStreams_)
            if (d.buffer < buffers && d.offset + d.length <= uintOf(doc_["buffers"][d.buffer], "byteLength"))
                dead.push_back({int(d.buffer), d.offset, d.length, 0, nullptr});
        if (dead.empty()) return;
        auto byStartOf = [](const Range& a, const Range& b) {
            return std::tie(a.buffer, a.offset) < std::tie(b.buffer, b.offset);
        };
        std::sort(dead.begin(), dead.end(), byStartOf);
        std::vector<Range> merged;
        for (const Range& d : dead) {
            if (!merged.empty() && merged.back().buffer == d.buffer &&
                d.offset <= merged.back().offset + merged.back().length) {
                Range& m = merged.back();
                m.length = std::max(m.offset + m.length, d.offset + d.length) - m.offset;
            } else {
                merged.push_back(d);
            }
        }
        // A dead range that a live one overlaps stays. The live ranges of a buffer that start before
        // a range's end, by start: the furthest any of them reaches says whether one overlaps it.
        std::vector<Range> byStart = live;
        std::sort(byStart.begin(), byStart.end(), byStartOf);
        std::vector<std::uint64_t> reach(byStart.size());
        for (std::size_t i = 0; i < byStart.size(); ++i)
            reach[i] = std::max(i > 0 && byStart[i - 1].buffer == byStart[i].buffer ? reach[i - 1] : 0,
                                byStart[i].offset + byStart[i].length);
        auto overlapsLive = [&](int buffer, std::uint64_t start, std::uint64_t end) {
            const auto after = std::lower_bound(byStart.begin(), byStart.end(),
                                                Range{buffer, end, 0, 0, nullptr}, byStartOf);
            if (after == byStart.begin() || std::prev(after)->buffer != buffer) return false;
            return reach[std::size_t(after - byStart.begin()) - 1] > start;
        };
        // From the end of each buffer down, so earlier ranges keep their offsets.
        struct Cut {
            int buffer;
            std::uint64_t end, length;  // in source offsets
        };
        std::vector<Cut> cuts;
        for (auto it = merged.rbegin(); it != merged.rend(); ++it) {
            const std::uint64_t start = it->offset, end = it->offset + it->length;
            const std::uint64_t cut = it->length / 4 * 4;  // keeps every later offset's alignment
            if (cut == 0 || overlapsLive(it->buffer, start, end) || noData(it->buffer)) continue;
            touch(it->buffer);
            // In source offsets: cuts are made from the end down, so nothing before them has moved.
            edits_[it->buffer].cuts.emplace_back(start, cut);
            edits_[it->buffer].kept -= cut;
            cuts.push_back({it->buffer, end, cut});
            out_.bytesDropped += cut;
        }
        // Each live range above cuts moves down by what they cut: one sum per range, found by
        // binary search among its buffer's cuts (ordered by end, with running totals).
        auto byEndOf = [](const Cut& a, const Cut& b) {
            return std::tie(a.buffer, a.end) < std::tie(b.buffer, b.end);
        };
        std::sort(cuts.begin(), cuts.end(), byEndOf);
        std::vector<std::uint64_t> cutBelow(cuts.size());  // cut by cuts[first of its buffer .. i]
        for (std::size_t i = 0; i < cuts.size(); ++i)
            cutBelow[i] =
                (i > 0 && cuts[i - 1].buffer == cuts[i].buffer ? cutBelow[i - 1] : 0) + cuts[i].length;
        for (const Range& r : live) {
            const auto above =
                std::upper_bound(cuts.begin(), cuts.end(), Cut{r.buffer, r.offset, 0}, byEndOf);
            if (above == cuts.begin() || std::prev(above)->buffer != r.buffer) continue;
            Json& view = doc_["bufferViews"][r.view];
            Json& holder = r.ext ? view["extensions"][r.ext] : view;
            holder["byteOffset"] = r.offset - cutBelow[std::size_t(above - cuts.begin()) - 1];
        }
    }

    // Appends the new keys at the end of their buffers, 4-byte aligned.
    void place() {
        for (Placement& p : placements_) {
            touch(p.buffer);
            BufferEdit& edit = edits_[p.buffer];
            edit.tail.resize(align4(edit.kept + edit.tail.size()) - edit.kept, 0);
            Json& view = doc_["bufferViews"][p.view];
            view["buffer"] = p.buffer;
            view["byteOffset"] = edit.kept + edit.tail.size();
            view["byteLength"] = p.bytes.size();
            view.erase("byteStride");
            view.erase("target");
            edit.tail.insert(edit.tail.end(), p.bytes.begin(), p.bytes.end());
            out_.bytesAppended += p.bytes.size();
        }
        for (std::size_t b = 0; b < touched_.size(); ++b)
            if (touched_[b]) doc_["buffers"][b]["byteLength"] = heldBytes(b);
    }

    Result<fs::path> resolve(const std::string& uri, const char* what, std::size_t index) const {
        const gltf::Where all(gltf::kRoot, what), at(all, index), uriAt(at, "uri");
        auto file = gltf::resolveUri(uri, asset_.folder, uriAt);
        if (!file) return Error{asset_.fileName + ": " + file.error().message};
        return *file;
    }

    void copyBeside(const fs::path& file) {
        const fs::path relative = file.lexically_relative(asset_.folder).lexically_normal();
        for (const SideFile& f : out_.files)
            if (f.relativePath == relative) return;
        out_.files.push_back({relative, {}, file});
    }

    std::string nextBinName() {
        if (binNames_++ == 0) return options_.binName;
        const fs::path stem = fs::path(options_.binName).stem();
        return stem.string() + "_" + std::to_string(binNames_ - 1) + ".bin";
    }
    int binNames_ = 0;
    // Image files a GLB output embeds, their offsets in the BIN chunk until frame() moves them
    // into the GLB; binEnd_: the BIN chunk's end after them (0: none).
    std::vector<StreamedFile> embedded_;
    std::uint64_t binEnd_ = 0;

    // A buffer written to a new .bin beside a .gltf.
    void writeBin(std::size_t b) {
        const std::string name = nextBinName();
        out_.files.push_back({fs::path(name), bufferBytes(b), {}});
        doc_["buffers"][b]["uri"] = fileNameToUri(name);
    }

    Status frameBuffersAsTheyAre(bool glb) {
        for (std::size_t b = 0; b < sizeOf(doc_, "buffers"); ++b) {
            Json& buffer = doc_["buffers"][b];
            const Json* uri = member(buffer, "uri");
            if (!uri) {
                // A GLB's BIN chunk: stays in a GLB, becomes a .bin beside a .gltf.
                const bool bin = b == 0 && (asset_.binary || touched_[0]) && heldBytes(0) > 0;
                if (bin && !glb) writeBin(b);
                continue;
            }
            const std::string text = uri->get<std::string>();
            if (gltf::isDataUri(text)) {
                if (touched_[b]) buffer["uri"] = dataUri(text, bufferBytes(b));
            } else if (touched_[b]) {
                writeBin(b);
            } else {
                auto file = resolve(text, "buffers", b);
                if (!file) return file.error();
                copyBeside(*file);
            }
        }
        return Ok{};
    }

    // Every buffer with bytes into one BIN chunk, buffers without bytes after it.
    Status mergeBuffers(Pieces& bin) {
        const std::size_t count = sizeOf(doc_, "buffers");
        std::vector<int> newIndex(count, 0);
        std::vector<std::uint64_t> base(count, 0);
        Json buffers = Json::array({Json{{"byteLength", 0}}});
        bool anyData = false;
        for (std::size_t b = 0; b < count; ++b) {
            if (noData(b)) {
                newIndex[b] = int(buffers.size());
                buffers.push_back(doc_["buffers"][b]);
                continue;
            }
            anyData = true;
            bin.pad(align4(bin.size));
            base[b] = bin.size;
            appendBuffer(b, bin);
        }
        if (count > 0 && !anyData)
            return Error{asset_.fileName + ": buffers: no buffer has data to put in a GLB"};
        auto rebase = [&](Json& holder) {
            const std::size_t b = uintOf(holder, "buffer");
            if (b >= count) return;
            holder["buffer"] = newIndex[b];
            if (base[b] != 0 || member(holder, "byteOffset"))
                holder["byteOffset"] = uintOf(holder, "byteOffset") + base[b];
        };
        for (std::size_t v = 0; v < sizeOf(doc_, "bufferViews"); ++v) {
            Json& view = doc_["bufferViews"][v];
            rebase(view);
            for (const char* name : kMeshopt)
                if (extension(view, name)) rebase(view["extensions"][name]);
        }

        // External images go into the BIN chunk too, when their type is known.
        for (std::size_t i = 0; i < sizeOf(doc_, "images"); ++i) {
            const Json* uri = member(doc_["images"][i], "uri");
            if (!uri || gltf::isDataUri(uri->get<std::string>())) continue;
            auto file = resolve(uri->get<std::string>(), "images", i);
            if (!file) return file.error();
            const char* mime = mimeTypeOf(*file);
            if (!mime) {
                copyBeside(*file);
                continue;
            }
            // Not read here: the writer streams it after the BIN chunk's other bytes.
            auto size = fileSize(*file);
            if (!size)
                return Error{asset_.fileName + ": images[" + std::to_string(i) +
                             "]: " + size.error().message};
            const std::uint64_t offset = align4(binEnd_ ? binEnd_ : bin.size);
            if (!member(doc_, "bufferViews")) doc_["bufferViews"] = Json::array();
            doc_["bufferViews"].push_back(Json{{"buffer", 0}, {"byteOffset", offset}, {"byteLength", *size}});
            embedded_.push_back({*file, offset, *size});
            binEnd_ = offset + *size;
            out_.bytesAppended += *size;
            Json& image = doc_["images"][i];  // fetched again: the root may have moved
            image.erase("uri");
            image["bufferView"] = doc_["bufferViews"].size() - 1;
            if (!member(image, "mimeType")) image["mimeType"] = mime;
            anyData = true;
        }
        if (!anyData) return Ok{};
        buffers[0]["byteLength"] = binEnd_ ? binEnd_ : bin.size;
        doc_["buffers"] = std::move(buffers);
        return Ok{};
    }

    // The output's JSON: the input's text spliced when the container stays, else printed whole
    // (RewriteOptions::reprint says why).
    std::string outputJson(bool glb) const {
        const bool splice = !options_.reprint && glb == asset_.binary && !asset_.jsonText.empty();
        if (splice) {
            const std::string_view text(reinterpret_cast<const char*>(asset_.jsonText.data()),
                                        asset_.jsonText.size());
            return gltf::spliceJson(text, /*keepTrailing=*/!glb, asset_.document,
                                    doc_);  // a GLB's: its padding
        }
        const int indent = glb ? -1 : options_.indent;
        std::string json = doc_.dump(indent, ' ', false, Json::error_handler_t::strict);
        if (indent >= 0) json += '\n';
        return json;
    }

    Result<RewrittenAsset> frame() {
        for (const std::string& uri : asset_.externalUris) {
            auto file = gltf::resolveUri(uri, asset_.folder, gltf::Where("uri"));
            if (file) out_.reads.push_back(*file);
        }
        const bool glb = options_.container == Container::Glb;
        Pieces bin;  // the merged buffers of a .gltf input
        bool hasBin = false, binIsBuffer0 = false;
        if (glb && !asset_.binary) {
            ROOTBAKE_TRY(mergeBuffers(bin));
            hasBin = bin.size > 0;
        } else {
            ROOTBAKE_TRY(frameBuffersAsTheyAre(glb));
            // buffers[0] as read (padding and all) when untouched, else byteLength bytes
            binIsBuffer0 = hasBin =
                glb && sizeOf(doc_, "buffers") > 0 && !member(doc_["buffers"][0], "uri") && heldBytes(0) > 0;
        }
        if (!glb || asset_.binary) {
            // Images that are files stay files, copied beside the output.
            for (std::size_t i = 0; i < sizeOf(doc_, "images"); ++i) {
                const Json* uri = member(doc_["images"][i], "uri");
                if (!uri || gltf::isDataUri(uri->get<std::string>())) continue;
                auto file = resolve(uri->get<std::string>(), "images", i);
                if (!file) return file.error();
                copyBeside(*file);
            }
        }

        std::string json = outputJson(glb);
        if (glb) {
            const std::uint64_t binSize = binIsBuffer0 ? (touched_[0] ? heldBytes(0) : sourceOf(0).size())
                                                       : std::max<std::uint64_t>(bin.size, binEnd_);
            const std::uint64_t total = glbSize(json.size(), hasBin || binEnd_ ? binSize : 0);
            if (total > kMaxGlbBytes)
                return Error{asset_.fileName + ": the GLB output would be " + std::to_string(total) +
                             " bytes, more than a GLB can hold (" + std::to_string(kMaxGlbBytes) +
                             ": its lengths are 32-bit); write a .gltf (--gltf)"};
            if (binIsBuffer0) {
                out_.main = frameGlb(json, true, binSize, 0, [&](Pieces& out) {
                    if (touched_[0]) return appendBuffer(0, out);
                    out.input(sourceOf(0));
                });
            } else {
                const std::uint64_t streamed = binEnd_ ? binSize - bin.size : 0;
                out_.main = frameGlb(json, hasBin || binEnd_, binSize, streamed, [&](Pieces& out) {
                    for (OutputPiece& p : bin.list) {
                        if (p.bytes.empty())
                            out.input(p.input);
                        else
                            out.made(p.bytes.data(), p.bytes.size());
                    }
                });
                // The embedded files' offsets in the GLB: after its header, JSON chunk and BIN header.
                const std::uint64_t binStart = 12 + 8 + align4(json.size()) + 8;
                for (StreamedFile& f : embedded_) f.offset += binStart;
                out_.streamed = std::move(embedded_);
            }
            out_.mainSize = total;
        } else {
            out_.mainSize = json.size();
            out_.main.push_back({std::vector<std::uint8_t>(json.begin(), json.end()), {}});
        }
        return std::move(out_);
    }
};

}  // namespace

std::vector<std::uint8_t> joinPieces(const std::vector<OutputPiece>& pieces) {
    std::vector<std::uint8_t> out;
    for (const OutputPiece& p : pieces) {
        const std::span<const std::uint8_t> bytes =
            p.bytes.empty() ? p.input : std::span<const std::uint8_t>(p.bytes);
        out.insert(out.end(), bytes.begin(), bytes.end());
    }
    return out;
}

std::string fileNameToUri(const std::string& name) {
    static const char* digits = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : name) {
        const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                          c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (keep) {
            out += char(c);
        } else {
            out += '%';
            out += digits[c >> 4];
            out += digits[c & 15];
        }
    }
    return out;
}

Result<RewrittenAsset> rewriteAsset(const gltf::Asset& asset, const std::vector<ClipRewrite>& clips,
                                    const RewriteOptions& options, const NewRootBone* rootBone,
                                    const std::vector<AnimationExtras>& extras) {
    try {
        Rewriter rewriter(asset, options);
        return rewriter.run(clips, rootBone, extras);
    } catch (const std::bad_alloc&) {
        return Error{asset.fileName + ": out of memory"};
    } catch (const std::exception& e) {  // nlohmann: a document the loader accepted but we cannot edit
        return Error{asset.fileName + ": cannot rewrite: " + e.what()};
    }
}

}  // namespace rootbake
