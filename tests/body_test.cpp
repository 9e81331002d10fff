// The body's mesh in the analysis (docs/analysis.md, "The body's ground points" and "Root"):
// which joints move the mesh, contacts that are points of it, and roots that carry a
// skeleton. Rigs are the procedural biped (a box per bone, bound to the bone's parent
// joint) and small rigs built here, whose answers follow from how they are built.
#include "biped_asset.h"
#include "core/stages.h"
#include "gltf/asset.h"
#include "support.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <set>

using namespace rootbake;
using test::clipNamed;
using test::contactNames;
using test::loadBiped;
using test::nodeNamed;
using test::addJoint;
using test::contains;

namespace {

Channel translationChannel(int node, std::vector<float> times, std::vector<float> values) {
    Channel c;
    c.node = node;
    c.path = Path::Translation;
    c.times = std::move(times);
    c.values = std::move(values);
    return c;
}

}  // namespace

TEST_CASE("body: the loader reads which joints move the biped's mesh, and their points") {
    samples::Biped biped;
    const gltf::Asset asset = loadBiped(biped);
    const Rig& rig = asset.rig;
    REQUIRE(rig.hasSurface());
    REQUIRE(rig.skins.size() == 1);
    // Each bone's box is bound to its parent joint: a joint moves the mesh exactly when
    // some joint hangs from it. The tips (toes, head top, index fingers) move none.
    for (int n = 0; n < rig.size(); ++n) {
        if (rig.hasMesh[n]) continue;
        bool hasJointChild = false;
        for (int c = 0; c < rig.size(); ++c)
            hasJointChild = hasJointChild || (rig.parent[c] == n && !rig.hasMesh[c]);
        CAPTURE(rig.name[n]);
        CHECK(rig.movesMesh(n) == (hasJointChild && rig.name[n] != "Armature"));
    }
    // The foot's box runs from the ankle (0.08 m up) to the toe (on the ground, 0.14 m
    // ahead), 0.03 m wider on each side: its underside, in the foot's space (at the ankle, no
    // rotation), is y = -0.08 from z = -0.03 to 0.17, x = -0.03 to 0.03, centred at z = 0.07.
    const std::vector<glm::dvec3>& foot = rig.surface[nodeNamed(rig, "LeftFoot")];
    REQUIRE(foot.size() == 1);
    CHECK(foot[0].x == doctest::Approx(0.0).epsilon(1e-6));
    CHECK(foot[0].y == doctest::Approx(-0.08).epsilon(1e-6));
    CHECK(foot[0].z == doctest::Approx(0.07).epsilon(1e-6));
}

TEST_CASE("body: the biped's contacts are its feet's soles, and their travel is the closed form") {
    samples::Biped biped;
    const gltf::Asset asset = loadBiped(biped);
    for (const char* name : {"walk_inplace", "run_inplace"}) {
        CAPTURE(name);
        const Clip& clip = clipNamed(asset, name);
        auto a = analyzeClip(asset.rig, clip, Options{});
        REQUIRE(a.ok());
        CHECK(a->source == Source::FootContact);
        // The toe joints move no vertex: the feet carry the soles.
        CHECK(contactNames(asset.rig, *a) == std::set<std::string>{"LeftFoot", "RightFoot"});
        const double truth = biped.truth[clip.gltfIndex].strideLength;
        CHECK(std::abs(a->strideLength - truth) <= 0.005 * truth);
    }
}

TEST_CASE("body: an IK pole target parked at the floor and moved by the clip is never a contact") {
    samples::Biped biped;
    gltf::Asset asset = loadBiped(biped);
    Rig& rig = asset.rig;
    // Blender IK rigs hang pole targets and their `_end` tips from the hips or a root bone,
    // animate them with the legs, and export them as joints that move no vertex.
    const int hips = nodeNamed(rig, "Hips");
    const int left = addJoint(rig, hips, "PoleTarget.L", {0.09, -1.0, 0.3});
    const int right = addJoint(rig, hips, "PoleTarget.R", {-0.09, -1.0, 0.3});
    Clip walk = clipNamed(asset, "walk_inplace");
    // Swung back and forth at the floor, out of phase, as a leg's pole target follows its knee.
    walk.channels.push_back(translationChannel(
        left, {0.0f, 0.5f, 1.0f}, {0.09f, -1.0f, 0.3f, 0.09f, -1.0f, -0.2f, 0.09f, -1.0f, 0.3f}));
    walk.channels.push_back(translationChannel(
        right, {0.0f, 0.5f, 1.0f}, {-0.09f, -1.0f, -0.2f, -0.09f, -1.0f, 0.3f, -0.09f, -1.0f, -0.2f}));
    const double truth = biped.truth[walk.gltfIndex].strideLength;

    auto a = analyzeClip(rig, walk, Options{});
    REQUIRE(a.ok());
    CHECK(a->source == Source::FootContact);
    CHECK(contactNames(rig, *a) == std::set<std::string>{"LeftFoot", "RightFoot"});
    CHECK(std::abs(a->strideLength - truth) <= 0.005 * truth);

    // The same rig read as joints alone (no mesh) takes the pole targets for feet: the
    // mesh is what tells them apart.
    Rig joints = rig;
    joints.surface.clear();
    Options forced;
    forced.source = SourceChoice::FootContact;  // the contacts, whatever the travel
    auto blind = analyzeClip(joints, walk, forced);
    REQUIRE(blind.ok());
    const std::set<std::string> blindContacts = contactNames(joints, *blind);
    CHECK((blindContacts.count("PoleTarget.L") + blindContacts.count("PoleTarget.R")) > 0);
}

TEST_CASE("body: a foot modelled inside the shin's mesh is found at the sole") {
    samples::Biped biped;
    gltf::Asset asset = loadBiped(biped);
    Rig& rig = asset.rig;
    // A mech's legs end at the lower leg, whose mesh holds the foot: no joint below the shin
    // moves a vertex. Move the feet's and toes' points onto the shins (where a mech's are).
    for (const char* side : {"Left", "Right"}) {
        const int shin = nodeNamed(rig, std::string(side) + "Shin");
        const int foot = nodeNamed(rig, std::string(side) + "Foot");
        for (const glm::dvec3& p : rig.surface[foot])
            rig.surface[shin].push_back(p + rig.rest[foot].translation);
        rig.surface[foot].clear();
    }
    const Clip& walk = clipNamed(asset, "walk_inplace");
    auto a = analyzeClip(rig, walk, Options{});
    REQUIRE(a.ok());
    CHECK(a->source == Source::FootContact);
    CHECK(contactNames(rig, *a) == std::set<std::string>{"LeftShin", "RightShin"});
    // The sole rides on the shin only while the ankle is straight; the biped's bends, so the
    // travel is only near the truth (13% long here).
    const double truth = biped.truth[walk.gltfIndex].strideLength;
    CHECK(std::abs(a->strideLength - truth) <= 0.2 * truth);
}

TEST_CASE("root: a part inside a skeleton is no root (a tank's tread segments)") {
    // Hull > 12 tread segments, each skinned (moves the mesh); the clip slides the segments
    // along the tread and never moves the hull.
    Rig rig;
    const int hull = addJoint(rig, -1, "Hull", {0.0, 0.5, 0.0});
    rig.surface.assign(1, {glm::dvec3(0.0, -0.5, 0.0)});
    rig.skins.push_back({hull});
    Clip clip;
    clip.name = "Forward";
    for (int s = 0; s < 12; ++s) {
        const int segment = addJoint(rig, hull, "TankTrack" + std::to_string(s), {0.0, -0.45, 0.1 * s - 0.6});
        rig.surface[segment] = {glm::dvec3(0.0, -0.05, 0.0)};
        rig.skins[0].push_back(segment);
        const float z = 0.1f * float(s) - 0.6f;
        clip.channels.push_back(
            translationChannel(segment, {0.0f, 1.0f}, {0.0f, -0.45f, z, 0.0f, -0.45f, z + 0.1f}));
    }
    clip.end = 1.0;

    auto a = analyzeClip(rig, clip, Options{});
    REQUIRE(a.ok());
    CHECK(a->root == -1);
    CHECK(a->source == Source::None);
    CHECK(contains(a->reason, "part inside a skeleton"));
    CHECK(removeMotion(rig, clip, *a).empty());  // the bake leaves the treads' keys alone

    // Once the hull drives forward, the hull is the root and carries the travel.
    clip.channels.push_back(translationChannel(hull, {0.0f, 1.0f}, {0.0f, 0.5f, 0.0f, 0.0f, 0.5f, 2.0f}));
    auto driving = analyzeClip(rig, clip, Options{});
    REQUIRE(driving.ok());
    CHECK(driving->root == hull);
    CHECK(driving->source == Source::Root);
    CHECK(driving->strideLength == doctest::Approx(2.0));
}

TEST_CASE("root: an exporter's one-animation-per-node split gives no limb a root") {
    samples::Biped biped;
    const gltf::Asset asset = loadBiped(biped);
    const Rig& rig = asset.rig;
    const Clip& walk = clipNamed(asset, "walk");
    const int hips = nodeNamed(rig, "Hips");
    int limbs = 0;
    for (const Channel& channel : walk.channels) {
        // COLLADA2GLTF keeps one animation per node, each with all of that node's channels.
        Clip part;
        part.name = "part";
        part.end = walk.end;
        for (const Channel& c : walk.channels)
            if (c.node == channel.node) part.channels.push_back(c);
        // Every node moved in position, as COLLADA2GLTF writes translation for every joint.
        if (channel.path != Path::Rotation) continue;
        if (std::none_of(part.channels.begin(), part.channels.end(),
                         [](const Channel& c) { return c.path == Path::Translation; }))
            part.channels.push_back(translationChannel(
                channel.node, {0.0f, float(walk.end)},
                {float(rig.rest[channel.node].translation.x), float(rig.rest[channel.node].translation.y),
                 float(rig.rest[channel.node].translation.z), float(rig.rest[channel.node].translation.x),
                 float(rig.rest[channel.node].translation.y), float(rig.rest[channel.node].translation.z)}));
        auto a = analyzeClip(rig, part, Options{});
        REQUIRE(a.ok());
        CAPTURE(rig.name[channel.node]);
        if (channel.node == hips) {
            CHECK(a->root == hips);
        } else {
            CHECK(a->root == -1);
            CHECK(a->source == Source::None);
            ++limbs;
        }
    }
    CHECK(limbs > 10);
}

TEST_CASE("body: a Draco-compressed mesh is read as its uncompressed twin") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    // CesiumMan's glTF and glTF-Draco copies hold one mesh, the second compressed (with its
    // positions quantized): the same joints move it, their soles within 1% of the height.
    auto plain = gltf::loadAsset(shared / "corpus" / "khronos-cesiumman" / "glTF" / "CesiumMan.gltf");
    auto draco = gltf::loadAsset(shared / "corpus" / "khronos-cesiumman" / "glTF-Draco" / "CesiumMan.gltf");
    REQUIRE(plain.ok());
    REQUIRE(draco.ok());
    REQUIRE(plain->rig.hasSurface());
    REQUIRE_MESSAGE(draco->rig.hasSurface(), draco->rig.surfaceNote);
    REQUIRE(plain->rig.size() == draco->rig.size());
    int moving = 0;
    for (int n = 0; n < plain->rig.size(); ++n) {
        CAPTURE(nodeLabel(plain->rig, n));
        REQUIRE(plain->rig.gltfIndex[n] == draco->rig.gltfIndex[n]);
        CHECK(plain->rig.movesMesh(n) == draco->rig.movesMesh(n));
        if (!plain->rig.movesMesh(n) || !draco->rig.movesMesh(n)) continue;
        CHECK(glm::length(plain->rig.surface[n].front() - draco->rig.surface[n].front()) < 0.015);  // 1% of 1.5 m
        ++moving;
    }
    CHECK(moving >= 10);
}

namespace {

// The bytes of the biped's accessor `name` of its skinned mesh (its view's, tightly packed).
std::pair<std::size_t, std::size_t> attributeBytes(const samples::Biped& biped, const char* name) {
    const nlohmann::json doc = nlohmann::json::parse(biped.json);
    for (const auto& mesh : doc["meshes"])
        for (const auto& primitive : mesh["primitives"])
            if (primitive["attributes"].contains(name)) {
                const auto& accessor = doc["accessors"][primitive["attributes"][name].get<std::size_t>()];
                const auto& view = doc["bufferViews"][accessor["bufferView"].get<std::size_t>()];
                return {
                    view.value("byteOffset", std::size_t(0)) + accessor.value("byteOffset", std::size_t(0)),
                    accessor["count"].get<std::size_t>()};
            }
    FAIL("no attribute " << name);
    return {0, 0};
}

using Json = nlohmann::ordered_json;

// A glTF document and the bytes of its buffers[0] (a GLB's BIN chunk).
struct Packed {
    Json doc;
    std::vector<std::uint8_t> bin;
};

Packed unpack(const samples::Biped& biped) {
    return {Json::parse(biped.json), biped.bin};
}

// Why a load failed ("" when it did not): a message -s may print on success too.
template <class T>
std::string errorOf(const Result<T>& r) {
    return r.ok() ? std::string() : r.error().message;
}

Result<gltf::Asset> loadPacked(const Packed& p, const char* name) {
    samples::Biped b;
    Json doc = p.doc;
    doc["buffers"][0]["byteLength"] = p.bin.size();
    b.json = doc.dump();
    b.bin = p.bin;
    return gltf::loadAssetFromMemory(samples::toGlb(b), name, {});
}

std::size_t elementBytes(const Json& accessor) {
    const int component = accessor["componentType"] == 5126 || accessor["componentType"] == 5125   ? 4
                          : accessor["componentType"] == 5122 || accessor["componentType"] == 5123 ? 2
                                                                                                    : 1;
    const std::string type = accessor["type"];
    const int width = type == "SCALAR" ? 1 : type == "VEC2" ? 2 : type == "VEC3" ? 3 : type == "VEC4" ? 4 : 16;
    return std::size_t(component * width + 3) / 4 * 4;  // vertex attributes are 4-byte aligned
}

// The views of `accessors` meshopt-compressed as gltfpack writes them: each view's stream (mode
// ATTRIBUTES, version 0) appended to buffers[0], the view itself moved into a fallback buffer
// that holds no data, its old bytes overwritten (so only the stream can give them), the
// extension required. `name` is EXT_ or KHR_meshopt_compression; `exponential` applies that
// filter to the views given (float data, one number per element).
void compressViews(Packed& p, const std::vector<int>& accessors, const char* name,
                   const std::set<int>& exponential = {}) {
    const std::size_t fallback = p.doc["buffers"].size();
    std::size_t fallbackBytes = 0;
    for (int a : accessors) {
        const Json& accessor = p.doc["accessors"][std::size_t(a)];
        const std::size_t v = accessor["bufferView"];
        Json& view = p.doc["bufferViews"][v];
        const std::size_t stride = exponential.count(a) ? 4 : view.value("byteStride", elementBytes(accessor));
        const std::size_t offset = view.value("byteOffset", std::size_t(0)), length = view["byteLength"];
        REQUIRE(length % stride == 0);
        const std::size_t count = length / stride;
        std::vector<std::uint8_t> raw(p.bin.begin() + std::ptrdiff_t(offset),
                                      p.bin.begin() + std::ptrdiff_t(offset + length));
        if (exponential.count(a)) {
            std::vector<float> values(count);
            std::memcpy(values.data(), raw.data(), length);
            meshopt_encodeFilterExp(raw.data(), count, stride, 24, values.data());
        }
        std::vector<std::uint8_t> stream(meshopt_encodeVertexBufferBound(count, stride));
        stream.resize(meshopt_encodeVertexBuffer(stream.data(), stream.size(), raw.data(), count, stride));
        REQUIRE(stream.size() > 0);
        std::fill(p.bin.begin() + std::ptrdiff_t(offset), p.bin.begin() + std::ptrdiff_t(offset + length), 0xA5);
        p.bin.resize((p.bin.size() + 3) / 4 * 4, 0);
        Json extension{{"buffer", 0},  {"byteOffset", p.bin.size()}, {"byteLength", stream.size()},
                       {"byteStride", stride}, {"count", count},       {"mode", "ATTRIBUTES"}};
        if (exponential.count(a)) extension["filter"] = "EXPONENTIAL";
        p.bin.insert(p.bin.end(), stream.begin(), stream.end());
        view["buffer"] = fallback;
        view["byteOffset"] = fallbackBytes;
        view["extensions"][name] = extension;
        fallbackBytes += (length + 3) / 4 * 4;
    }
    p.doc["buffers"].push_back({{"byteLength", fallbackBytes}, {"extensions", {{name, {{"fallback", true}}}}}});
    for (const char* list : {"extensionsUsed", "extensionsRequired"}) p.doc[list].push_back(name);
}

// The biped's body mesh (meshes[0]) accessors: POSITION, JOINTS_0, WEIGHTS_0.
std::vector<int> bodyAccessors(const Json& doc) {
    const Json& attributes = doc["meshes"][0]["primitives"][0]["attributes"];
    return {attributes["POSITION"], attributes["JOINTS_0"], attributes["WEIGHTS_0"]};
}

// The same joints move the mesh, their soles within `tolerance`, and every clip analyses alike.
void checkTwins(const gltf::Asset& plain, const gltf::Asset& packed, double tolerance) {
    REQUIRE(plain.rig.hasSurface());
    REQUIRE_MESSAGE(packed.rig.hasSurface(), packed.rig.surfaceNote);
    CHECK(packed.warnings == plain.warnings);
    REQUIRE(plain.rig.size() == packed.rig.size());
    int moving = 0;
    for (int n = 0; n < plain.rig.size(); ++n) {
        CAPTURE(nodeLabel(plain.rig, n));
        CHECK(plain.rig.movesMesh(n) == packed.rig.movesMesh(n));
        if (!plain.rig.movesMesh(n) || !packed.rig.movesMesh(n)) continue;
        CHECK(glm::length(plain.rig.surface[n].front() - packed.rig.surface[n].front()) <= tolerance);
        ++moving;
    }
    CHECK(moving >= 10);
    REQUIRE(plain.clips.size() == packed.clips.size());
    for (std::size_t c = 0; c < plain.clips.size(); ++c) {
        CAPTURE(plain.clips[c].name);
        auto a = analyzeClip(plain.rig, plain.clips[c], Options{});
        auto b = analyzeClip(packed.rig, packed.clips[c], Options{});
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        CHECK(a->source == b->source);
        CHECK(a->root == b->root);
        CHECK(a->contacts == b->contacts);
        CHECK(b->strideLength == doctest::Approx(a->strideLength).epsilon(1e-3));
        CHECK(b->turn == doctest::Approx(a->turn).epsilon(1e-3));
    }
}

}  // namespace

TEST_CASE("body: skin weights that do not sum to one change nothing, a joint not in the skin is left out") {
    samples::Biped plain;
    const gltf::Asset reference = loadBiped(plain);
    const std::string_view json = plain.json;
    REQUIRE(json.find("\"WEIGHTS_0\"") != std::string_view::npos);

    // Every weight halved (sums of 0.5): the heaviest joint of each vertex is the same one.
    samples::Biped halved = samples::makeBiped();
    const auto [weightsAt, vertices] = attributeBytes(halved, "WEIGHTS_0");
    for (std::size_t i = 0; i < vertices * 4; ++i) {
        float w;
        std::memcpy(&w, &halved.bin[weightsAt + 4 * i], 4);
        w *= 0.5f;
        std::memcpy(&halved.bin[weightsAt + 4 * i], &w, 4);
    }
    auto light = gltf::loadAssetFromMemory(samples::toGlb(halved), "halved.glb", {});
    REQUIRE(light.ok());
    CHECK(light->rig.surface == reference.rig.surface);

    // Every vertex's first joint index out of the skin (the biped's joints are unsigned
    // shorts): each is left out, with one warning; the analysis falls back to the joints.
    samples::Biped stray = samples::makeBiped();
    const auto [jointsAt, count] = attributeBytes(stray, "JOINTS_0");
    for (std::size_t v = 0; v < count; ++v) {
        const std::uint16_t outside = 999;
        std::memcpy(&stray.bin[jointsAt + 8 * v], &outside, 2);
    }
    auto strayed = gltf::loadAssetFromMemory(samples::toGlb(stray), "stray.glb", {});
    REQUIRE(strayed.ok());
    bool warned = false;
    for (const std::string& w : strayed->warnings)
        warned = warned || contains(w, "weigh most on a joint the skin does not have");
    CHECK(warned);
    auto walk = analyzeClip(strayed->rig, clipNamed(*strayed, "walk_inplace"), Options{});
    REQUIRE(walk.ok());
    CHECK(walk->source == Source::FootContact);
}

TEST_CASE("body: one height per character, standing, from its rest pose or its bind pose") {
    samples::Biped biped;
    const gltf::Asset asset = loadBiped(biped);
    // The biped rests standing, as it was bound: toes at 0, HeadTop at 1.7 m, in every clip
    // whatever its first frame (1.545 to 1.605 m: samples/README.md).
    REQUIRE(asset.rig.bind.size() == std::size_t(asset.rig.size()));
    for (const Clip& clip : asset.clips) {
        CAPTURE(clip.name);
        auto analysis = analyzeClip(asset.rig, clip, Options{});
        REQUIRE(analysis.ok());
        CHECK(analysis->characterHeight == doctest::Approx(biped.height).epsilon(1e-6));
    }
    // Crouched at rest (the hips 0.4 m down, the legs folded), the bind pose still stands.
    Rig crouched = asset.rig;
    crouched.rest[nodeNamed(crouched, "Hips")].translation.y -= 0.4;
    for (const char* knee : {"LeftShin", "RightShin"})
        crouched.rest[nodeNamed(crouched, knee)].rotation = glm::angleAxis(1.2, glm::dvec3(1, 0, 0));
    auto walk = analyzeClip(crouched, clipNamed(asset, "walk"), Options{});
    REQUIRE(walk.ok());
    CHECK(walk->characterHeight == doctest::Approx(biped.height).epsilon(1e-6));
    // A skeleton scaled at rest is that size: its bind pose, at another size, is not taken.
    Rig small = asset.rig;
    small.rest[nodeNamed(small, "Hips")].scale = glm::dvec3(0.5);
    auto smallWalk = analyzeClip(small, clipNamed(asset, "walk"), Options{});
    REQUIRE(smallWalk.ok());
    CHECK(smallWalk->characterHeight < 0.9 * biped.height);
    // Babylon's rule keeps Babylon's height: the clip's first frame.
    Options babylon;
    babylon.contactRule = ContactRule::Babylon;
    auto first = analyzeClip(asset.rig, clipNamed(asset, "walk"), babylon);
    REQUIRE(first.ok());
    CHECK(first->characterHeight == doctest::Approx(1.5779).epsilon(1e-4));
}

TEST_CASE("body: a meshopt-compressed mesh reads as its uncompressed twin") {
    samples::Biped biped;
    const gltf::Asset plain = loadBiped(biped);
    // Lossless: the same soles to the float, whichever of the two names the extension has.
    for (const char* name : {"EXT_meshopt_compression", "KHR_meshopt_compression"}) {
        CAPTURE(name);
        Packed packed = unpack(biped);
        compressViews(packed, bodyAccessors(packed.doc), name);
        auto asset = loadPacked(packed, "biped-meshopt.glb");
        REQUIRE_MESSAGE(asset.ok(), errorOf(asset));
        checkTwins(plain, *asset, 1e-9);
    }
}

TEST_CASE("body: meshopt with quantized positions and a filtered, compressed skin reads as its twin") {
    // As gltfpack writes a skinned mesh: positions as normalized shorts (KHR_mesh_quantization),
    // their scale folded into the inverse bind matrices, which are compressed too (EXPONENTIAL
    // filter, 24-bit mantissas). Quantization moves a point by at most half a step of 1/32767
    // of the largest coordinate: soles agree within 0.1 mm.
    samples::Biped biped;
    const gltf::Asset plain = loadBiped(biped);
    Packed packed = unpack(biped);
    Json& doc = packed.doc;
    const int position = bodyAccessors(doc)[0];
    const std::size_t positionView = doc["accessors"][std::size_t(position)]["bufferView"];
    const std::size_t count = doc["accessors"][std::size_t(position)]["count"];
    std::vector<float> xyz(count * 3);
    std::memcpy(xyz.data(), packed.bin.data() + std::size_t(doc["bufferViews"][positionView].value("byteOffset", 0)),
                xyz.size() * 4);
    float scale = 0.0f;
    for (float x : xyz) scale = std::max(scale, std::abs(x));
    std::vector<std::uint8_t> shorts(count * 8, 0);  // VEC3 of SHORT, padded to 8 bytes
    for (std::size_t i = 0; i < xyz.size(); ++i) {
        const auto q = std::int16_t(std::lround(xyz[i] / scale * 32767.0f));
        std::memcpy(&shorts[i / 3 * 8 + i % 3 * 2], &q, 2);
    }
    packed.bin.resize((packed.bin.size() + 3) / 4 * 4, 0);
    doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", packed.bin.size()}, {"byteLength", shorts.size()},
                                  {"byteStride", 8}});
    packed.bin.insert(packed.bin.end(), shorts.begin(), shorts.end());
    Json& accessor = doc["accessors"][std::size_t(position)];
    accessor["bufferView"] = doc["bufferViews"].size() - 1;
    accessor["componentType"] = 5122;
    accessor["normalized"] = true;
    accessor.erase("min");
    accessor.erase("max");
    for (const char* list : {"extensionsUsed", "extensionsRequired"}) doc[list].push_back("KHR_mesh_quantization");
    // inverseBind x scale(s): the quantized point x (1/s) lands where the float one did.
    const int ibm = doc["skins"][0]["inverseBindMatrices"];
    const Json& ibmView = doc["bufferViews"][std::size_t(doc["accessors"][std::size_t(ibm)]["bufferView"])];
    float* matrices = reinterpret_cast<float*>(packed.bin.data() + std::size_t(ibmView.value("byteOffset", 0)));
    const std::size_t joints = doc["accessors"][std::size_t(ibm)]["count"];
    for (std::size_t j = 0; j < joints; ++j)
        for (int k = 0; k < 12; ++k) matrices[j * 16 + std::size_t(k)] *= scale;

    std::vector<int> accessors = bodyAccessors(doc);
    accessors.push_back(ibm);
    compressViews(packed, accessors, "EXT_meshopt_compression", {ibm});
    auto asset = loadPacked(packed, "biped-quantized.glb");
    REQUIRE_MESSAGE(asset.ok(), errorOf(asset));
    checkTwins(plain, *asset, 1e-4);
}

TEST_CASE("body: CesiumMan meshopt-compressed reads as its uncompressed twin") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    // A real skin (19 joints, four weights a vertex) and its walk, packed in memory as a GLB.
    const std::filesystem::path folder = shared / "corpus" / "khronos-cesiumman" / "glTF";
    auto plain = gltf::loadAsset(folder / "CesiumMan.gltf");
    REQUIRE(plain.ok());
    Packed packed{plain->document, std::vector<std::uint8_t>(plain->buffers[0].begin(), plain->buffers[0].end())};
    packed.doc["buffers"][0].erase("uri");
    packed.doc.erase("images");  // beside the .gltf only; no texture is read
    packed.doc.erase("textures");
    packed.doc["materials"][0]["pbrMetallicRoughness"].erase("baseColorTexture");
    auto unpacked = loadPacked(packed, "CesiumMan.glb");
    REQUIRE_MESSAGE(unpacked.ok(), errorOf(unpacked));
    compressViews(packed, bodyAccessors(packed.doc), "EXT_meshopt_compression");
    auto asset = loadPacked(packed, "CesiumMan-meshopt.glb");
    REQUIRE_MESSAGE(asset.ok(), errorOf(asset));
    checkTwins(*unpacked, *asset, 1e-9);
}

TEST_CASE("body: a meshopt stream that cannot be read leaves the joints with the reason, never a crash") {
    samples::Biped biped;
    const gltf::Asset plain = loadBiped(biped);
    Packed base = unpack(biped);
    compressViews(base, bodyAccessors(base.doc), "EXT_meshopt_compression");
    const std::size_t positionView =
        base.doc["accessors"][std::size_t(bodyAccessors(base.doc)[0])]["bufferView"];
    const auto extensionOf = [&](Packed& p) -> Json& {
        return p.doc["bufferViews"][positionView]["extensions"]["EXT_meshopt_compression"];
    };
    struct Case {
        const char* what;
        std::function<void(Packed&)> edit;
        const char* note;
    };
    const std::vector<Case> cases{
        {"bytes flipped", [&](Packed& p) {
             const std::size_t at = extensionOf(p)["byteOffset"];
             for (std::size_t i = 1; i < 40; ++i) p.bin[at + i] ^= 0x5A;
         }, "does not decode"},
        {"stream cut short", [&](Packed& p) { extensionOf(p)["byteLength"] = extensionOf(p)["byteLength"].get<int>() - 1; },
         "does not decode"},
        {"not a meshopt header", [&](Packed& p) { p.bin[std::size_t(extensionOf(p)["byteOffset"])] = 0; },
         "does not decode"},
        {"version 1", [&](Packed& p) { p.bin[std::size_t(extensionOf(p)["byteOffset"])] = 0xa1; },
         "version 1 stream"},
        {"count off", [&](Packed& p) { extensionOf(p)["count"] = 7; }, "count x byteStride is not"},
        {"stride", [&](Packed& p) { extensionOf(p)["byteStride"] = 6; }, "byteStride does not fit its mode"},
        {"mode", [&](Packed& p) { extensionOf(p)["mode"] = "TRIANGLE"; }, "mode is not"},
        {"filter", [&](Packed& p) { extensionOf(p)["filter"] = "QUATERNION"; }, "filter is not"},
        {"color", [&](Packed& p) { extensionOf(p)["filter"] = "COLOR"; }, "filter COLOR"},
        {"buffer", [&](Packed& p) { extensionOf(p)["buffer"] = 9; }, "buffer is not an index"},
        {"fallback buffer", [&](Packed& p) { extensionOf(p)["buffer"] = 1; }, "its buffer has no data"},
        {"past the buffer", [&](Packed& p) { extensionOf(p)["byteOffset"] = p.bin.size() - 8; },
         "runs past its buffer"},
        {"not an object", [&](Packed& p) { extensionOf(p) = 3; }, "is not an object"},
        // 2^20 + 16 elements of 4 bytes from the same few hundred bytes: refused before a byte is
        // allocated, as more than rootbake reads, or more than the stream could hold.
        {"absurd count", [&](Packed& p) {
             const std::size_t count = (1u << 20) + 16;
             p.doc["buffers"][1]["byteLength"] = count * 12;
             p.doc["bufferViews"][positionView]["byteLength"] = count * 12;
             extensionOf(p)["count"] = count;
             p.doc["accessors"][std::size_t(bodyAccessors(p.doc)[0])]["count"] = count;
         }, "more elements than rootbake reads"},
        {"absurd expansion", [&](Packed& p) {
             const std::size_t count = 1u << 20;
             p.doc["buffers"][1]["byteLength"] = count * 12;
             p.doc["bufferViews"][positionView]["byteLength"] = count * 12;
             extensionOf(p)["count"] = count;
             p.doc["accessors"][std::size_t(bodyAccessors(p.doc)[0])]["count"] = count;
         }, "more than 64 bytes per byte"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        Packed p = base;
        c.edit(p);
        auto asset = loadPacked(p, "broken.glb");
        REQUIRE_MESSAGE(asset.ok(), errorOf(asset));
        CHECK_FALSE(asset->rig.hasSurface());
        const std::string expected = "meshes[0].primitives[0].attributes.POSITION: bufferViews[" +
                                     std::to_string(positionView) + "].extensions.EXT_meshopt_compression ";
        CHECK(contains(asset->rig.surfaceNote, expected));
        CHECK(contains(asset->rig.surfaceNote, c.note));
        CHECK(contains(asset->rig.surfaceNote, "the joints stand for the body"));
        CHECK(std::count(asset->warnings.begin(), asset->warnings.end(), asset->rig.surfaceNote) == 1);
        // The analysis goes on with the joints, as for an asset without a mesh.
        auto a = analyzeClip(asset->rig, clipNamed(*asset, "walk_inplace"), Options{});
        REQUIRE(a.ok());
        CHECK(contains(a->reason, "the joints stand for the body"));
    }
}
