// The loader: every corpus file loads, and the converted Rig and Clips match
// numbers read from the files independently (python3 corpus/inspect.py
// --json, which decodes accessors itself). In-memory fixtures cover what the
// corpus does not: quantized outputs, byteStride, sparse without a bufferView.
#include "gltf/asset.h"
#include "gltf/internal.h"
#include "support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

using namespace rootbake;
using Json = nlohmann::ordered_json;

using test::base64;

namespace {


template <class T>
void append(std::vector<std::uint8_t>& bytes, std::initializer_list<T> values) {
    // Grown, then copied into: GCC 12 at -O3 warns (-Wstringop-overflow, a false positive) on
    // inserting a small array's range at the end.
    for (T v : values) {
        const std::size_t at = bytes.size();
        bytes.resize(at + sizeof(T));
        std::memcpy(bytes.data() + at, &v, sizeof(T));
    }
}

Result<gltf::Asset> loadJson(Json document, const std::vector<std::uint8_t>& buffer,
                             const std::string& name = "test.gltf") {
    document["buffers"] = Json::array(
        {{{"byteLength", buffer.size()}, {"uri", "data:application/octet-stream;base64," + base64(buffer)}}});
    const std::string text = document.dump();
    return gltf::loadAssetFromMemory({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}, name,
                                     {});
}

std::filesystem::path corpus(const std::filesystem::path& shared, const char* file) {
    return shared / "corpus" / file;
}

// Invariants later code relies on, for any loaded asset.
void checkInvariants(const gltf::Asset& asset) {
    const Rig& rig = asset.rig;
    for (int i = 0; i < rig.size(); ++i) {
        REQUIRE(rig.parent[i] < i);
        REQUIRE(rig.rigIndexOfGltf[rig.gltfIndex[i]] == i);
    }
    for (const Clip& clip : asset.clips) {
        CHECK(clip.start <= clip.end);
        for (const Channel& c : clip.channels) {
            REQUIRE(c.node >= 0);
            REQUIRE(c.node < rig.size());
            REQUIRE(c.keyCount() >= 1);
            const std::size_t perKey = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
            REQUIRE(c.values.size() == c.times.size() * static_cast<std::size_t>(c.width()) * perKey);
            CHECK(std::adjacent_find(c.times.begin(), c.times.end(), std::greater_equal<float>()) ==
                  c.times.end());
            CHECK(c.times.front() >= clip.start);
            CHECK(c.times.back() <= clip.end);
        }
    }
}

}  // namespace

TEST_CASE("load: every corpus file outside bad/ loads") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(shared / "corpus")) {
        const auto relative = entry.path().lexically_relative(shared / "corpus");
        if (*relative.begin() == "bad" || !entry.is_regular_file()) continue;
        const auto ext = entry.path().extension();
        if (ext != ".glb" && ext != ".gltf") continue;
        ++files;
        auto asset = gltf::loadAsset(entry.path());
        CHECK_MESSAGE(asset.ok(), (asset.ok() ? std::string() : asset.error().message));
        if (asset) checkInvariants(*asset);
    }
    // The corpus grows: the count is reported, not pinned.
    CHECK(files > 0);
    MESSAGE(files << " corpus files loaded");
}

TEST_CASE("load: Fox.glb nodes, key times and rotation values") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    auto asset = gltf::loadAsset(corpus(shared, "khronos-fox/Fox.glb"));
    REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
    CHECK(asset->binary);
    CHECK(asset->rig.size() == 26);
    CHECK(asset->scene == 0);
    REQUIRE(asset->clips.size() == 3);
    CHECK(asset->clips[0].name == "Survey");
    CHECK(asset->clips[2].name == "Run");
    const Clip& survey = asset->clips[0];
    CHECK(survey.channels.size() == 21);
    CHECK(survey.otherChannels == 0);
    CHECK(survey.start == 0.0);
    CHECK(survey.end == doctest::Approx(3.4166667461395264).epsilon(1e-9));
    CHECK(asset->clips[1].end == doctest::Approx(0.7083333134651184).epsilon(1e-9));

    // animations[0].channels[0]: sampler 0, rotation of nodes[8] "b_Head_05".
    const Channel& c = survey.channels[0];
    CHECK(c.gltfChannel == 0);
    CHECK(c.gltfSampler == 0);
    CHECK(c.path == Path::Rotation);
    CHECK(c.interpolation == Interpolation::Linear);
    CHECK(asset->rig.gltfIndex[c.node] == 8);
    CHECK(asset->rig.name[c.node] == "b_Head_05");
    REQUIRE(c.keyCount() == 83);
    CHECK(c.times[1] == 0.0416666679084301f);
    CHECK(c.times.back() == 3.4166667461395264f);
    // x, y, z, w as in the file.
    CHECK(c.values[0] == -0.10003644973039627f);
    CHECK(c.values[1] == -0.31369057297706604f);
    CHECK(c.values[2] == -0.4076024889945984f);
    CHECK(c.values[3] == 0.8517342209815979f);
    CHECK(c.values[4] == -0.10041914135217667f);
}

TEST_CASE("load: CUBICSPLINE keys hold in-tangent, value, out-tangent") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    auto asset =
        gltf::loadAsset(corpus(shared, "assimp-interpolation-tests/animation_interpolation_cubic.gltf"));
    REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
    REQUIRE(asset->clips.size() == 1);
    const Channel& c = asset->clips[0].channels.at(0);
    CHECK(c.interpolation == Interpolation::CubicSpline);
    CHECK(c.keyCount() == 2);
    REQUIRE(c.values.size() == 18);
    CHECK(c.values[3 * 4] == 1.0f);  // key 1's value, x
    CHECK(asset->clips[0].end == 1.0);
}

TEST_CASE("load: a node matrix is decomposed into TRS") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    // CesiumMan nodes[0]: matrix [1,0,0,0, 0,0,-1,0, 0,1,0,0, 0,0,0,1], a -90 degree turn about x.
    auto cesium = gltf::loadAsset(corpus(shared, "khronos-cesiumman/glTF-Binary/CesiumMan.glb"));
    REQUIRE_MESSAGE(cesium.ok(), (cesium.ok() ? "" : cesium.error().message));
    CHECK(cesium->clips.size() == 19);
    const Transform& root = cesium->rig.rest[cesium->rig.rigIndexOfGltf[0]];
    CHECK(root.rotation.w == doctest::Approx(std::sqrt(0.5)));
    CHECK(root.rotation.x == doctest::Approx(-std::sqrt(0.5)));
    CHECK(root.rotation.y == doctest::Approx(0.0));
    CHECK(root.scale.x == doctest::Approx(1.0));
    CHECK(root.scale.z == doctest::Approx(1.0));
    CHECK(root.translation.y == 0.0);

    // SimpleSkinning's matrix nodes (Lamp: a rotation and a translation) recompose to the file's matrix.
    auto skinning = gltf::loadAsset(corpus(shared, "threejs-simpleskinning/SimpleSkinning.gltf"));
    REQUIRE_MESSAGE(skinning.ok(), (skinning.ok() ? "" : skinning.error().message));
    int matrices = 0;
    for (std::size_t g = 0; g < skinning->document["nodes"].size(); ++g) {
        const Json& node = skinning->document["nodes"][g];
        if (!node.contains("matrix")) continue;
        ++matrices;
        const glm::dmat4 m = toMatrix(skinning->rig.rest[skinning->rig.rigIndexOfGltf[g]]);
        for (int k = 0; k < 16; ++k)
            CHECK(m[k / 4][k % 4] == doctest::Approx(node["matrix"][k].get<double>()).epsilon(1e-5));
    }
    CHECK(matrices == 3);
    CHECK(skinning->rig.name[skinning->rig.rigIndexOfGltf[3]] == "Lamp");
    CHECK(skinning->rig.rest[skinning->rig.rigIndexOfGltf[9]].translation.x == doctest::Approx(1.76028));
}

TEST_CASE("load: decomposeMatrix, closed form") {
    Transform t;
    // A mirror: diag(-2, 3, 4), translation (1, 2, 3): scale.x takes the sign.
    const double mirror[16] = {-2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1};
    REQUIRE(gltf::decomposeMatrix(mirror, t));
    CHECK(t.scale.x == doctest::Approx(-2));
    CHECK(t.scale.y == doctest::Approx(3));
    CHECK(t.scale.z == doctest::Approx(4));
    CHECK(std::abs(t.rotation.w) == doctest::Approx(1));
    CHECK(t.translation.z == 3);
    // 90 degrees about z, uniform scale 2.
    const double turn[16] = {0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1};
    REQUIRE(gltf::decomposeMatrix(turn, t));
    CHECK(t.scale.x == doctest::Approx(2));
    CHECK(t.rotation.w == doctest::Approx(std::sqrt(0.5)));
    CHECK(t.rotation.z == doctest::Approx(std::sqrt(0.5)));
    // A zero scale keeps a proper rotation.
    const double flat[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    REQUIRE(gltf::decomposeMatrix(flat, t));
    CHECK(t.scale.z == 0.0);
    CHECK(std::abs(t.rotation.w) == doctest::Approx(1));
    // Shear and projection are refused.
    const double shear[16] = {1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    CHECK_FALSE(gltf::decomposeMatrix(shear, t));
    const double projection[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1, 0, 0, 0, 1};
    CHECK_FALSE(gltf::decomposeMatrix(projection, t));
}

TEST_CASE("load: sparse accessors decode (SimpleSparseAccessor, SittingBox)") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    auto simple = gltf::loadAsset(corpus(shared, "khronos-simplesparseaccessor/SimpleSparseAccessor.gltf"));
    REQUIRE_MESSAGE(simple.ok(), (simple.ok() ? "" : simple.error().message));
    auto positions = gltf::decodeAccessor(*simple, 1);
    REQUIRE_MESSAGE(positions.ok(), (positions.ok() ? "" : positions.error().message));
    // inspect.py: 14 VEC3; sparse sets elements 8, 10, 12 to y = 2, 3, 4.
    const float expected[14][3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0},
                                   {5, 0, 0}, {6, 0, 0}, {0, 1, 0}, {1, 2, 0}, {2, 1, 0},
                                   {3, 3, 0}, {4, 1, 0}, {5, 4, 0}, {6, 1, 0}};
    REQUIRE(positions->size() == 42);
    for (int i = 0; i < 42; ++i) CHECK((*positions)[i] == expected[i / 3][i % 3]);

    auto box = gltf::loadAsset(corpus(shared, "threejs-sittingbox/SittingBox.glb"));
    REQUIRE_MESSAGE(box.ok(), (box.ok() ? "" : box.error().message));
    REQUIRE(box->clips.size() == 1);
    CHECK(box->clips[0].channels.empty());
    CHECK(box->clips[0].otherChannels == 1);  // a weights channel, kept aside
    CHECK(box->clips[0].end == doctest::Approx(3.0999999046325684).epsilon(1e-9));
    // accessors[34]: 992 weights, no bufferView; 32 sparse ones, at 0, 32, ..., 928, 960, 961.
    auto weights = gltf::decodeAccessor(*box, 34);
    REQUIRE_MESSAGE(weights.ok(), (weights.ok() ? "" : weights.error().message));
    REQUIRE(weights->size() == 992);
    int ones = 0;
    double sum = 0;
    for (float w : *weights) ones += w != 0.0f, sum += w;
    CHECK(ones == 32);
    CHECK(sum == 32.0);
    CHECK((*weights)[0] == 1.0f);
    CHECK((*weights)[1] == 0.0f);
    CHECK((*weights)[32] == 1.0f);
    CHECK((*weights)[960] == 1.0f);
    CHECK((*weights)[961] == 1.0f);
}

TEST_CASE("load: external URIs and the default scene") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    auto asset = gltf::loadAsset(corpus(shared, "khronos-cesiumman/glTF/CesiumMan.gltf"));
    REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
    CHECK_FALSE(asset->binary);
    REQUIRE(asset->externalUris.size() == 2);
    CHECK(asset->externalUris[0] == "CesiumMan0.bin");
    CHECK(asset->externalUris[1] == "CesiumMan.jpg");
    CHECK(asset->buffers.size() == 1);
    CHECK(asset->buffers[0].size() == asset->document["buffers"][0]["byteLength"].get<std::size_t>());
    // The document keeps the file's key order ("asset" first; sorted keys would put "accessors" first).
    CHECK(asset->document.begin().key() == "asset");

    // Draco-compressed meshes load without being understood.
    auto draco = gltf::loadAsset(corpus(shared, "khronos-cesiumman/glTF-Draco/CesiumMan.gltf"));
    REQUIRE_MESSAGE(draco.ok(), (draco.ok() ? "" : draco.error().message));
    CHECK(draco->document["extensionsRequired"][0] == "KHR_draco_mesh_compression");
    CHECK(draco->clips.at(0).channels.size() == 57);
}

TEST_CASE("load: quantized outputs, byteStride and sparse without a bufferView (in memory)") {
    std::vector<std::uint8_t> bytes;
    append<float>(bytes, {0.0f, 0.5f, 1.0f});                                   // 0..12: times
    append<std::int16_t>(bytes, {0, 0, -32768, 16384, 0, 0, 32767, 0,           // 12..36: rotations,
                                 0, 0, 0, 32767});                              //   normalized SHORT
    append<std::int8_t>(bytes, {-5, 0, 7, 99, 1, 2, 3, 99, 127, -128, 0, 99});  // 36..48: BYTE VEC3, stride 4
    append<std::uint8_t>(bytes, {255, 51, 0, 0});  // 48..52: sparse values (UNSIGNED_BYTE)
    append<std::uint16_t>(bytes, {2, 0});          // 52..56: sparse index 2 (+pad)
    const Json document = {
        {"asset", {{"version", "2.0"}}},
        {"nodes", {{{"name", "root"}, {"children", {1}}}, {{"name", "hips"}}}},
        {"bufferViews",
         {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 12}},
          {{"buffer", 0}, {"byteOffset", 12}, {"byteLength", 24}},
          {{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 12}, {"byteStride", 4}},
          {{"buffer", 0}, {"byteOffset", 48}, {"byteLength", 4}},
          {{"buffer", 0}, {"byteOffset", 52}, {"byteLength", 4}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", 5126}, {"count", 3}, {"type", "SCALAR"}},
          {{"bufferView", 1}, {"componentType", 5122}, {"normalized", true}, {"count", 3}, {"type", "VEC4"}},
          {{"bufferView", 2}, {"componentType", 5120}, {"count", 3}, {"type", "VEC3"}},
          // Scale: zeros but for element 2, from a sparse UNSIGNED_BYTE normalized value.
          {{"componentType", 5121},
           {"normalized", true},
           {"count", 3},
           {"type", "VEC3"},
           {"sparse",
            {{"count", 1},
             {"indices", {{"bufferView", 4}, {"componentType", 5123}}},
             {"values", {{"bufferView", 3}}}}}}}},
        {"animations",
         {{{"samplers",
            {{{"input", 0}, {"output", 1}}, {{"input", 0}, {"output", 2}}, {{"input", 0}, {"output", 3}}}},
           {"channels",
            {{{"sampler", 0}, {"target", {{"node", 1}, {"path", "rotation"}}}},
             {{"sampler", 1}, {"target", {{"node", 1}, {"path", "translation"}}}},
             {{"sampler", 2}, {"target", {{"node", 1}, {"path", "scale"}}}}}}}}}};
    auto asset = loadJson(document, bytes);
    REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
    CHECK(asset->scene == -1);  // no scenes
    const Clip& clip = asset->clips.at(0);
    REQUIRE(clip.channels.size() == 3);
    const std::vector<float>& r = clip.channels[0].values;
    CHECK(r[2] == -1.0f);  // max(-32768 / 32767, -1)
    CHECK(r[3] == 16384.0f / 32767.0f);
    CHECK(r[6] == 1.0f);
    const std::vector<float>& t = clip.channels[1].values;
    CHECK(t ==
          std::vector<float>{-5, 0, 7, 1, 2, 3, 127, -128, 0});  // not normalized, stride 4 skips the 99s
    const std::vector<float>& s = clip.channels[2].values;
    CHECK(s == std::vector<float>{0, 0, 0, 0, 0, 0, 1.0f, 51.0f / 255.0f, 0});
    CHECK(clip.end == 1.0);
}

TEST_CASE("load: the rig is parent-first whatever the node order") {
    // nodes[0] is a child of nodes[2], nodes[1] of nodes[0]; nodes[3] is a second root.
    const Json document = {{"asset", {{"version", "2.0"}}},
                           {"scene", 1},
                           {"scenes", {{{"nodes", {2}}}, {{"nodes", {2, 3}}}}},
                           {"nodes",
                            {{{"name", "a"}, {"children", {1}}, {"mesh", 0}},
                             {{"name", "b"}, {"translation", {1, 2, 3}}},
                             {{"name", "top"}, {"children", {0}}},
                             {{"rotation", {0, 0, 0, 1.0000001}}}}},
                           {"meshes", {{{"primitives", {{{"attributes", Json::object()}}}}}}}};
    auto asset = loadJson(document, {0, 0, 0, 0});
    REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
    const Rig& rig = asset->rig;
    CHECK(rig.gltfIndex == std::vector<int>{2, 0, 1, 3});
    CHECK(rig.parent == std::vector<int>{-1, 0, 1, -1});
    CHECK(rig.rigIndexOfGltf == std::vector<int>{1, 2, 0, 3});
    CHECK(rig.hasMesh == std::vector<std::uint8_t>{0, 1, 0, 0});
    CHECK(rig.rest[2].translation.z == 3.0);
    CHECK(rig.rest[3].rotation.w == 1.0);  // normalized
    CHECK(nodeLabel(rig, 3) == "nodes[3]");
    CHECK(asset->scene == 1);
}

TEST_CASE("load: every error names the file") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    const auto file =
        corpus(shared, "bad/gltf-validator/base/data/animation/unresolved_channel_sampler.gltf");
    auto asset = gltf::loadAsset(file);
    REQUIRE_FALSE(asset.ok());
    CHECK(asset.error().message ==
          file.string() + ": animations[0].channels[0].sampler: index 1 out of range (1 samplers)");

    const std::string text = R"({"asset":{"version":"2.0"},"nodes":[{"children":[0]}]})";
    auto memory = gltf::loadAssetFromMemory({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()},
                                            "walk.glb", {});
    REQUIRE_FALSE(memory.ok());
    CHECK(memory.error().message.rfind("walk.glb: GLB header: ", 0) == 0);  // .glb without the magic

    auto missing = gltf::loadAsset("no/such/file.glb");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "no/such/file.glb: file not found");
}

TEST_CASE("base64: the RFC 4648 test vectors, both ways, and what strict decoding refuses") {
    const std::pair<const char*, const char*> vectors[] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                                           {"foo", "Zm9v"},  {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
                                                           {"foobar", "Zm9vYmFy"}};
    for (const auto& [plain, encoded] : vectors) {
        CAPTURE(plain);
        const std::string text = plain;
        const std::vector<std::uint8_t> bytes(text.begin(), text.end());
        CHECK(io::encodeBase64(bytes) == encoded);
        std::vector<std::uint8_t> decoded;
        CHECK_FALSE(io::decodeBase64(encoded, decoded));
        CHECK(decoded == bytes);
    }
    std::vector<std::uint8_t> out;
    CHECK(io::decodeBase64("Zm=v", out)->kind == io::Base64Error::Kind::Character);  // "=" only at the end
    CHECK(io::decodeBase64("Zm9vY", out)->kind == io::Base64Error::Kind::Length);
    CHECK(io::decodeBase64("Zm9vYg=", out)->kind == io::Base64Error::Kind::Padding);
    CHECK(io::decodeBase64("Zm*v", out)->at == 2);
}
