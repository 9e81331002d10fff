// Animation keys in meshopt-compressed bufferViews (EXT_meshopt_compression, as gltfpack -c
// writes them): the loader decodes them with libmeshoptimizer's own decoder, the analysis finds on
// them what it finds on the uncompressed keys within the quantisation's error (bounds derived
// below from the bits, not fitted), and bake replaces the root's keys while every other
// channel's accessor and bytes pass through. The fixtures are the procedural biped with its key
// views packed here with libmeshoptimizer's encoder, as gltfpack packs them;
// tests/cli/gltfpack_test.sh runs gltfpack itself.
#include "biped.h"
#include "biped_asset.h"
#include "gltf/asset.h"
#include "gltf/internal.h"
#include "write/container.h"
#include "pipeline/bake.h"
#include "support.h"

#include <doctest/doctest.h>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include <meshoptimizer.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <set>

using namespace rootbake;
using namespace rootbake::write;
using Json = nlohmann::ordered_json;

namespace {

// What the filters keep: gltfpack -cc's defaults (-ar 12, -at 16) are rotations as 12-bit
// QUATERNION-filtered shorts and translations with a 16-bit mantissa under the EXPONENTIAL filter.
struct Bits {
    int rotation = 12;
    int translation = 16;
};

struct Packed {
    Json doc;
    std::vector<std::uint8_t> bin;
};

// One view of an animation as gltfpack groups them: every accessor of one kind in it.
struct KeyView {
    std::vector<int> accessors;
    std::size_t stride;  // bytes per element in the stream
    const char* filter;  // nullptr: none
};

std::vector<float> floatsOf(const Packed& p, int accessor) {
    const Json& a = p.doc["accessors"][std::size_t(accessor)];
    const Json& view = p.doc["bufferViews"][a["bufferView"].get<std::size_t>()];
    const std::string type = a["type"];
    const std::size_t width = type == "SCALAR" ? 1 : type == "VEC3" ? 3 : type == "VEC4" ? 4 : 16;
    const std::size_t at = view.value("byteOffset", std::size_t(0)) + a.value("byteOffset", std::size_t(0));
    std::vector<float> out(a["count"].get<std::size_t>() * width);
    REQUIRE(a["componentType"] == 5126);
    std::memcpy(out.data(), p.bin.data() + at, out.size() * 4);
    return out;
}

// Packs the accessors of `group` into one new view: each encoded with the group's filter at its
// element offset, the whole view one ATTRIBUTES stream appended to buffers[0]; the view itself in
// the fallback buffer `fallback` (no data) at fallbackBytes. The old bytes are overwritten, so
// only the stream can give the keys.
void packView(Packed& p, const KeyView& group, const char* name, Bits bits, std::size_t fallback,
              std::size_t& fallbackBytes) {
    std::vector<std::uint8_t> raw;
    const std::size_t newView = p.doc["bufferViews"].size();
    for (int index : group.accessors) {
        const std::vector<float> values = floatsOf(p, index);
        Json& accessor = p.doc["accessors"][std::size_t(index)];
        const std::size_t count = accessor["count"], offset = raw.size();
        raw.resize(offset + count * group.stride);
        if (!group.filter)
            std::memcpy(raw.data() + offset, values.data(), values.size() * 4);
        else if (std::string(group.filter) == "QUATERNION")
            meshopt_encodeFilterQuat(raw.data() + offset, count, 8, bits.rotation, values.data());
        else
            meshopt_encodeFilterExp(raw.data() + offset, count, 12, bits.translation, values.data());
        const Json& old = p.doc["bufferViews"][accessor["bufferView"].get<std::size_t>()];
        const std::size_t from = old.value("byteOffset", std::size_t(0)), length = old["byteLength"];
        std::fill(p.bin.begin() + std::ptrdiff_t(from), p.bin.begin() + std::ptrdiff_t(from + length), 0xA5);
        accessor["bufferView"] = newView;
        accessor["byteOffset"] = offset;
        accessor.erase("min"), accessor.erase("max");  // an output's are optional
        if (group.filter && std::string(group.filter) == "QUATERNION")
            accessor["componentType"] = 5122, accessor["normalized"] = true;
        if (group.stride == 4)
            accessor["min"] = {values.front()}, accessor["max"] = {values.back()};  // times
    }
    const std::size_t count = raw.size() / group.stride;
    std::vector<std::uint8_t> stream(meshopt_encodeVertexBufferBound(count, group.stride));
    stream.resize(meshopt_encodeVertexBuffer(stream.data(), stream.size(), raw.data(), count, group.stride));
    REQUIRE(stream.size() > 0);
    p.bin.resize((p.bin.size() + 3) / 4 * 4, 0);
    Json extension{{"buffer", 0},
                   {"byteOffset", p.bin.size()},
                   {"byteLength", stream.size()},
                   {"byteStride", group.stride},
                   {"count", count},
                   {"mode", "ATTRIBUTES"}};
    if (group.filter) extension["filter"] = group.filter;
    p.bin.insert(p.bin.end(), stream.begin(), stream.end());
    p.doc["bufferViews"].push_back({{"buffer", fallback},
                                    {"byteOffset", fallbackBytes},
                                    {"byteLength", raw.size()},
                                    {"extensions", {{name, extension}}}});
    fallbackBytes += (raw.size() + 3) / 4 * 4;
}

// Every animation's keys as gltfpack -c writes them: times in one view, rotations in another,
// translations (and scales) in a third. CUBICSPLINE outputs (tangents, not unit quaternions)
// stay as they are. With skins, the skin's inverse bind matrices get a compressed view too.
Packed packKeys(const samples::Biped& biped, Bits bits, const char* name = "EXT_meshopt_compression",
                bool skins = false) {
    Packed p{Json::parse(biped.json), biped.bin};
    const std::size_t fallback = p.doc["buffers"].size();
    std::size_t fallbackBytes = 0;
    std::set<int> packed;
    for (const Json& animation : p.doc["animations"]) {
        KeyView times{{}, 4, nullptr}, rotations{{}, 8, "QUATERNION"}, vectors{{}, 12, "EXPONENTIAL"};
        auto add = [&](KeyView& group, int accessor) {
            if (packed.insert(accessor).second) group.accessors.push_back(accessor);
        };
        for (const Json& sampler : animation["samplers"]) add(times, sampler["input"]);
        for (const Json& channel : animation["channels"]) {
            const Json& sampler = animation["samplers"][channel["sampler"].get<std::size_t>()];
            if (sampler.value("interpolation", "LINEAR") == "CUBICSPLINE") continue;
            const std::string path = channel["target"]["path"];
            if (path == "rotation") add(rotations, sampler["output"]);
            if (path == "translation" || path == "scale") add(vectors, sampler["output"]);
        }
        for (const KeyView* group : {&times, &rotations, &vectors})
            if (!group->accessors.empty()) packView(p, *group, name, bits, fallback, fallbackBytes);
    }
    if (skins)
        for (const Json& skin : p.doc["skins"])
            packView(p, {{skin["inverseBindMatrices"].get<int>()}, 64, nullptr}, name, bits, fallback,
                     fallbackBytes);
    p.doc["buffers"].push_back(
        {{"byteLength", fallbackBytes}, {"extensions", {{name, {{"fallback", true}}}}}});
    for (const char* list : {"extensionsUsed", "extensionsRequired"}) p.doc[list].push_back(name);
    return p;
}

std::vector<std::uint8_t> glbOf(const Packed& p) {
    samples::Biped b;
    Json doc = p.doc;
    doc["buffers"][0]["byteLength"] = p.bin.size();
    b.json = doc.dump();
    b.bin = p.bin;
    return samples::toGlb(b);
}

gltf::Asset load(std::span<const std::uint8_t> bytes, const char* name) {
    auto asset = gltf::loadAssetFromMemory(bytes, name, {});
    REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
    return std::move(*asset);
}

// The EXPONENTIAL filter keeps a K-bit signed mantissa under the largest exponent of the vector
// (|v| < 2^e): each component is rounded to a multiple of 2^(e - K + 1), an error of at most
// 2^(e - K).
double exponentialError(const float* v, int width, Bits bits) {
    int largest = -100;
    for (int k = 0; k < width; ++k) {
        int e = 0;
        std::frexp(v[k], &e);
        largest = std::max(largest, e);
    }
    return std::ldexp(1.0, largest - bits.translation);
}

// The QUATERNION filter stores the three smallest components times sqrt(2) as (K-1)-bit snorms
// (s = 2^(K-1) - 1): each is off by at most eps = 0.5 / (s sqrt 2). The largest, w >= 1/2, is
// rebuilt as sqrt(1 - x^2 - y^2 - z^2): |w'^2 - w^2| <= eps (2 sum|x| + 3 eps) with
// sum|x| <= sqrt(3) sqrt(3/4) = 1.5, so |w' - w| <= 6 eps (1 + eps). The decoder rounds all four
// to 16-bit snorms (1/32767 in all). The decoded quaternion is off by at most d in 4D, so the
// rotation angle by at most 2 asin(d), and its length from 1 by at most 2d + d^2.
double quaternionDistance(Bits bits) {
    const double s = double((1 << (bits.rotation - 1)) - 1), eps = 0.5 / (s * std::sqrt(2.0));
    return std::sqrt(3.0 * eps * eps + std::pow(6.0 * eps * (1.0 + eps), 2.0)) + 1.0 / 32767.0 + 1e-6;
}
double rotationError(Bits bits) {
    return 2.0 * std::asin(quaternionDistance(bits));
}

// The rotation angle between two quaternions stored x, y, z, w (either sign).
double angleBetween(const float* a, const float* b) {
    const glm::dquat qa(a[3], a[0], a[1], a[2]), qb(b[3], b[0], b[1], b[2]);
    const double cosine = std::abs(glm::dot(glm::normalize(qa), glm::normalize(qb)));
    return 2.0 * std::acos(std::min(1.0, cosine));
}

// Every key of `packed` against the same key of `exact`: equal when lossless, else within the
// filters' error (times are never filtered). CUBICSPLINE channels compare exactly (the fixture
// leaves them; gltfpack resamples every clip to LINEAR).
void checkKeys(const gltf::Asset& exact, const gltf::Asset& packed, bool lossless, Bits bits = {}) {
    REQUIRE(packed.clips.size() == exact.clips.size());
    int rotations = 0, translations = 0;
    for (std::size_t c = 0; c < exact.clips.size(); ++c) {
        CAPTURE(exact.clips[c].name);
        REQUIRE(packed.clips[c].channels.size() == exact.clips[c].channels.size());
        for (std::size_t k = 0; k < exact.clips[c].channels.size(); ++k) {
            const Channel& a = exact.clips[c].channels[k];
            const Channel& b = packed.clips[c].channels[k];
            CAPTURE(k);
            CHECK(b.times == a.times);
            REQUIRE(b.values.size() == a.values.size());
            if (lossless || a.interpolation == Interpolation::CubicSpline) {
                CHECK(b.values == a.values);
            } else if (a.path == Path::Rotation) {
                for (std::size_t i = 0; i < a.values.size(); i += 4)
                    CHECK(angleBetween(&a.values[i], &b.values[i]) <= rotationError(bits));
                ++rotations;
            } else {
                for (std::size_t i = 0; i < a.values.size(); i += 3)
                    for (int j = 0; j < 3; ++j)
                        CHECK(std::abs(double(b.values[i + j]) - a.values[i + j]) <=
                              exponentialError(&a.values[i], 3, bits));
                ++translations;
            }
        }
    }
    if (!lossless) CHECK(rotations > 0);
    if (!lossless) CHECK(translations > 0);
}

// The largest scale a node's ancestors apply at rest (a Mixamo armature's 0.01).
double parentScale(const Rig& rig, int node) {
    double scale = 1.0;
    for (int p = rig.parent[std::size_t(node)]; p >= 0; p = rig.parent[std::size_t(p)]) {
        const glm::dvec3 s = glm::abs(rig.rest[std::size_t(p)].scale);
        scale *= std::max(s.x, std::max(s.y, s.z));
    }
    return scale;
}

// Every clip of `packed` analyses as in `exact`: the same source, root and contacts, and the
// stride and turn equal when lossless, else within what the filters' error allows:
// - root clips: the stride is the root's offset over the cycle (two keys, each off by at most
//   sqrt(3) times the per-component error, scaled by the root's parents) turned into the start's
//   heading (off by the rotation error); the turn is the difference of two headings;
// - contact clips: a contact is posed through every joint from the root down to it, each rotation
//   off by the rotation error and each quaternion's length by 2d + d^2, each joint within the
//   character's height of the sole; the stride is the difference of two footholds.
void checkAnalyses(const gltf::Asset& exact, const gltf::Asset& packed, bool lossless, Bits bits = {}) {
    const double d = quaternionDistance(bits), theta = rotationError(bits);
    for (std::size_t c = 0; c < exact.clips.size(); ++c) {
        const Clip& clip = exact.clips[c];
        CAPTURE(clip.name);
        auto a = analyzeClip(exact.rig, clip, Options{});
        auto b = analyzeClip(packed.rig, packed.clips[c], Options{});
        REQUIRE(a.ok() == b.ok());
        if (!a.ok()) continue;
        CHECK(b->source == a->source);
        CHECK(b->root == a->root);
        CHECK(b->contacts == a->contacts);
        if (lossless) {
            CHECK(b->strideLength == a->strideLength);
            CHECK(b->turn == a->turn);
            continue;
        }
        double translation = 0.0;  // the largest error of a root key component, scene units
        for (const Channel& channel : clip.channels)
            if (channel.path == Path::Translation && channel.node == a->root)
                for (std::size_t i = 0; i < channel.values.size(); i += 3)
                    translation = std::max(translation, exponentialError(&channel.values[i], 3, bits) *
                                                            parentScale(exact.rig, channel.node));
        double stride = 2.0 * std::sqrt(3.0) * translation + a->strideLength * theta;
        if (a->source == Source::FootContact) {
            int chain = 0;  // the joints between the root and the deepest contact, both included
            for (int contact : a->contacts) {
                int n = 1;
                for (int j = contact; j >= 0 && j != a->root; j = exact.rig.parent[std::size_t(j)]) ++n;
                chain = std::max(chain, n);
            }
            stride =
                2.0 * (std::sqrt(3.0) * translation + chain * (theta + 2.0 * d + d * d) * a->characterHeight);
        }
        CHECK(std::abs(b->strideLength - a->strideLength) <= stride);
        CHECK(std::abs(b->turn - a->turn) <= 2.0 * theta);
    }
}

// The bytes a view holds: its meshopt stream when compressed, else its own range.
std::vector<std::uint8_t> heldBytes(const gltf::Asset& asset, std::size_t v) {
    const Json& view = asset.document["bufferViews"][v];
    const Json* ext = nullptr;
    if (view.contains("extensions")) ext = &view["extensions"]["EXT_meshopt_compression"];
    const Json& range = ext ? *ext : view;
    const std::size_t offset = range.value("byteOffset", std::size_t(0)), length = range["byteLength"];
    const io::SharedBytes& buffer = asset.buffers[range["buffer"].get<std::size_t>()];
    REQUIRE(offset + length <= buffer.size());
    return {buffer.begin() + std::ptrdiff_t(offset), buffer.begin() + std::ptrdiff_t(offset + length)};
}

// Bakes `input` (loaded as `source`); the output reloads, each rewritten root output is FLOAT in
// a view of its own, and every other channel keeps its sampler's accessors, their objects and the
// bytes of their views (streams included), and so its decoded keys. The output is deterministic.
pipeline::Baked bakePassingThrough(const gltf::Asset& source, std::span<const std::uint8_t> input,
                                   const std::string& rootBone = {}) {
    pipeline::BakeSettings settings;
    settings.outputName = "out";
    settings.rootBone = rootBone;
    auto baked = pipeline::bakeAsset(source, input, settings);
    REQUIRE_MESSAGE(baked.ok(), (baked.ok() ? "" : baked.error().message));
    const std::vector<std::uint8_t> bytes = joinPieces(baked->asset.main);
    const gltf::Asset out = load(bytes, "out.glb");
    const Json& in = source.document;
    const Json& doc = out.document;
    int passed = 0;
    for (std::size_t a = 0; a < in["animations"].size(); ++a) {
        std::set<int> rewritten;
        for (const InPlaceChannel& ch : baked->clips[a].channels) rewritten.insert(ch.gltfChannel);
        const Json& channels = in["animations"][a]["channels"];
        const Json& outAnimation = doc["animations"][a];
        for (std::size_t c = 0; c < channels.size(); ++c) {
            const Json& before = in["animations"][a]["samplers"][channels[c]["sampler"].get<std::size_t>()];
            const Json& after =
                outAnimation["samplers"][outAnimation["channels"][c]["sampler"].get<std::size_t>()];
            if (rewritten.count(int(c))) {
                const Json& accessor = doc["accessors"][after["output"].get<std::size_t>()];
                CHECK(accessor["componentType"] == 5126);
                CHECK_FALSE(
                    doc["bufferViews"][accessor["bufferView"].get<std::size_t>()].contains("extensions"));
                continue;
            }
            for (const char* key : {"input", "output"}) {
                const std::size_t index = before[key];
                CHECK(after[key] == index);
                CHECK(doc["accessors"][index].dump() == in["accessors"][index].dump());
                const std::size_t view = in["accessors"][index]["bufferView"];
                CHECK(heldBytes(out, view) == heldBytes(source, view));
            }
            ++passed;
        }
        for (std::size_t k = 0; k < source.clips[a].channels.size(); ++k) {
            const Channel& before = source.clips[a].channels[k];
            if (rewritten.count(before.gltfChannel)) continue;
            CHECK(out.clips[a].channels[k].times == before.times);
            CHECK(out.clips[a].channels[k].values == before.values);
        }
    }
    CHECK(passed > 0);
    auto again = pipeline::bakeAsset(source, input, settings);
    REQUIRE(again.ok());
    CHECK(joinPieces(again->asset.main) == bytes);
    return std::move(*baked);
}

}  // namespace

TEST_CASE("meshopt keys: gltfpack-style compressed keys decode within the quantisation's error") {
    const samples::Biped biped = samples::makeBiped();
    const gltf::Asset plain = load(samples::toGlb(biped), "biped.glb");
    for (const Bits bits : {Bits{12, 16}, Bits{16, 24}, Bits{8, 10}})
        for (const char* name : {"EXT_meshopt_compression", "KHR_meshopt_compression"}) {
            CAPTURE(name);
            CAPTURE(bits.rotation);
            checkKeys(plain, load(glbOf(packKeys(biped, bits, name)), "biped-packed.glb"), false, bits);
        }
}

// At gltfpack -cc's default 12-bit rotations a planted foot 1 m below the hips jitters by up to
// 2 mm a key (60 mm/s at 30 keys/s), enough for the biped's turn on the spot to read its feet as
// stepping (footContact, not root): lossy keys are the file's, and the analysis takes them as
// they are. So the decisions are compared at 16-bit rotations (gltfpack -cc -ar 16), where the
// jitter is 0.14 mm; the 12-bit keys are held to their bounds above.
TEST_CASE("meshopt keys: the compressed biped analyses as its twin, within the error the bits allow") {
    const samples::Biped biped = samples::makeBiped();
    const Bits bits{16, 16};
    checkAnalyses(load(samples::toGlb(biped), "biped.glb"),
                  load(glbOf(packKeys(biped, bits)), "biped-packed.glb"), false, bits);
}

TEST_CASE("meshopt keys: bake replaces the root's keys, every other channel passes through byte for byte") {
    const std::vector<std::uint8_t> input = glbOf(packKeys(samples::makeBiped(), Bits{}));
    const pipeline::Baked baked = bakePassingThrough(load(input, "biped-packed.glb"), input);
    // The Hips' translations had views of their own: reused for the new keys, their streams cut.
    CHECK(baked.asset.bytesDropped > 0);
}

// Debian's gltfpack (0.18) itself, on the biped and two corpus characters: -c compresses the keys
// of its plain output losslessly (16-bit rotations, float translations); -cc filters them, as
// packKeys does, from the floats of its -noq output: at its defaults the keys are held to their
// bounds and baked, and at -ar 16 the analyses are compared too (see above).
TEST_CASE("meshopt keys: gltfpack's -c and -cc files read and bake as its uncompressed ones") {
    if (std::system("command -v gltfpack >/dev/null 2>&1") != 0) {
        MESSAGE("skipped: gltfpack is not installed (scripts/setup installs it)");
        return;
    }
    test::TempDir dir("gltfpack");
    const samples::Biped biped = samples::makeBiped();
    test::writeBytes(dir.path / "biped.glb", samples::toGlb(biped));
    std::vector<std::filesystem::path> inputs = {dir.path / "biped.glb"};
    if (const auto shared = test::sharedDir()) {
        inputs.push_back(*shared / "corpus" / "threejs-xbot" / "Xbot.glb");
        inputs.push_back(*shared / "corpus" / "khronos-cesiumman" / "glTF-Binary" / "CesiumMan.glb");
    } else {
        MESSAGE("corpus characters skipped: ../shared is not beside the checkout");
    }
    for (const auto& input : inputs) {
        CAPTURE(input);
        REQUIRE(std::filesystem::exists(input));
        auto pack = [&](const char* flags, const char* name) {
            const std::filesystem::path out = dir.path / name;
            const std::string command = "gltfpack " + std::string(flags) + " -i " + test::q(input) + " -o " +
                                        test::q(out) + " >/dev/null 2>&1";
            REQUIRE(std::system(command.c_str()) == 0);
            return test::readBytes(out);
        };
        const auto plainBytes = pack("", "plain.glb"), c = pack("-c", "c.glb"),
                   floats = pack("-noq", "noq.glb");
        const auto cc = pack("-cc", "cc.glb"), cc16 = pack("-cc -ar 16", "cc16.glb");
        const gltf::Asset plain = load(plainBytes, "plain.glb"), compressed = load(c, "c.glb");
        const gltf::Asset exact = load(floats, "noq.glb"), filtered = load(cc, "cc.glb"),
                    fine = load(cc16, "cc16.glb");
        checkKeys(plain, compressed, true);
        checkAnalyses(plain, compressed, true);
        checkKeys(exact, filtered, false, Bits{12, 16});
        checkKeys(exact, fine, false, Bits{16, 16});
        checkAnalyses(exact, fine, false, Bits{16, 16});
        bakePassingThrough(compressed, c);
        bakePassingThrough(filtered, cc);
    }
}

TEST_CASE("meshopt keys: a root bone over compressed keys and compressed inverse bind matrices") {
    const samples::Biped biped = samples::makeBiped();
    const gltf::Asset plain = load(samples::toGlb(biped), "biped.glb");
    const std::vector<std::uint8_t> input = glbOf(packKeys(biped, Bits{}, "EXT_meshopt_compression", true));
    const gltf::Asset source = load(input, "biped-packed.glb");
    pipeline::BakeSettings settings;
    settings.outputName = "out";
    settings.rootBone = "Root";
    auto baked = pipeline::bakeAsset(source, input, settings);
    REQUIRE_MESSAGE(baked.ok(), (baked.ok() ? "" : baked.error().message));
    const gltf::Asset out = load(joinPieces(baked->asset.main), "out.glb");
    // The skin takes the bone: its matrices are the input's (read here from the uncompressed
    // biped), then the bone's.
    const int index = out.document["skins"][0]["inverseBindMatrices"];
    auto matrices = gltf::decodeAccessor(out, index);
    auto original = gltf::decodeAccessor(plain, plain.document["skins"][0]["inverseBindMatrices"].get<int>());
    REQUIRE(matrices.ok());
    REQUIRE(original.ok());
    REQUIRE(matrices->size() == original->size() + 16);
    CHECK(std::equal(original->begin(), original->end(), matrices->begin()));
    CHECK(out.document["skins"][0]["joints"].size() == plain.document["skins"][0]["joints"].size() + 1);
    CHECK(out.rig.name[std::size_t(out.rig.parent[std::size_t(test::nodeNamed(out.rig, "Hips"))])] == "Root");
}

TEST_CASE("meshopt keys: a broken key stream is exit 2, one line naming the view, nothing written") {
    const samples::Biped biped = samples::makeBiped();
    const Packed good = packKeys(biped, Bits{});
    // The extension of the view that the first clip's first sampler's output reads.
    auto extensionOf = [&](Packed& p) -> Json& {
        const int output = p.doc["animations"][0]["samplers"][0]["output"];
        const std::size_t view = p.doc["accessors"][std::size_t(output)]["bufferView"];
        return p.doc["bufferViews"][view]["extensions"]["EXT_meshopt_compression"];
    };
    struct Case {
        const char* what;
        std::function<void(Packed&)> edit;
        const char* message;
    } const cases[] = {
        {"truncated",
         [&](Packed& p) { extensionOf(p)["byteLength"] = extensionOf(p)["byteLength"].get<int>() - 8; },
         "does not decode"},
        {"wrong count", [&](Packed& p) { extensionOf(p)["count"] = extensionOf(p)["count"].get<int>() + 1; },
         "count x byteStride is not the bufferView's byteLength"},
        {"bad filter", [&](Packed& p) { extensionOf(p)["filter"] = "OCTAHEDRAL"; }, "filter is not NONE"},
    };
    test::TempDir dir("meshopt-keys-cli");
    for (const Case& c : cases) {
        CAPTURE(c.what);
        Packed p = good;
        c.edit(p);
        const std::filesystem::path input = dir.path / "broken.glb";
        test::writeBytes(input, glbOf(p));
        const auto before = test::listing(dir.path);
        const test::SplitExit e =
            test::runExeSplit("bake " + test::q(input) + " -o " + test::q(dir.path / "out.glb"));
        CHECK(e.code == 2);
        CAPTURE(e.err);
        CHECK(std::count(e.err.begin(), e.err.end(), '\n') == 1);
        CHECK(test::contains(e.err, "broken.glb: animations[0].samplers[0].output: accessors["));
        CHECK(test::contains(e.err, "].extensions.EXT_meshopt_compression "));
        CHECK(test::contains(e.err, c.message));
        CHECK(test::listing(dir.path) == before);  // nothing written
    }
}
