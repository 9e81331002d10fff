// bake --root-bone: the root bone carries the motion, the hips their in-place keys, and the world
// pose of every node is the source's. Truth is the source asset's own poses (sampled by the pose
// evaluator from the source file) and the biped's closed-form rig; never the bake's own numbers.
#include "gltf/asset.h"
#include "gltf/internal.h"
#include "pipeline/bake.h"
#include "support.h"
#include "written_output.h"
#include "write/sidecar.h"

#include "biped.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

using namespace rootbake;
using namespace rootbake::write;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

gltf::Asset mustLoadBytes(std::span<const std::uint8_t> bytes, const std::string& name,
                    const fs::path& folder = {}) {
    auto asset = gltf::loadAssetFromMemory(bytes, name, folder);
    INFO(name << ": " << (asset ? "" : asset.error().message));
    REQUIRE(asset.ok());
    return std::move(*asset);
}

Result<pipeline::Baked> bakeWithRootBone(const gltf::Asset& input, const std::string& name = "root") {
    pipeline::BakeSettings settings;
    settings.rewrite.container = Container::Glb;
    settings.rootBone = name;
    settings.inputSha256 = std::string(64, '0');
    return pipeline::bakeAsset(input, {}, settings);
}

// Scene matrices of every node of `asset` playing `clip` at time t.
std::vector<glm::dmat4> worldPose(const gltf::Asset& asset, const Clip& clip, double t) {
    std::vector<ChannelCursor> cursors(clip.channels.size());
    std::vector<Transform> local(asset.rig.size());
    std::vector<glm::dmat4> scene(asset.rig.size());
    sampleLocalPose(asset.rig, clip, t, cursors, local);
    localToScene(asset.rig, local, scene);
    return scene;
}

// The largest distance, as a fraction of `height`, between where a source node and the same node
// of the output (same glTF index) put its origin and the points `height` along each of its axes
// (scaled back to length `height` in the scene), over every node of the source and every time;
// but for `bone` (glTF index), a root bone of the source that the bake gave the motion to.
double worstWorldMismatch(const gltf::Asset& source, const Clip& sourceClip, const gltf::Asset& output,
                          const Clip& outputClip, const std::vector<double>& times, double height,
                          int bone = -1) {
    double worst = 0.0;
    for (double t : times) {
        const std::vector<glm::dmat4> a = worldPose(source, sourceClip, t);
        const std::vector<glm::dmat4> b = worldPose(output, outputClip, t);
        for (int n = 0; n < source.rig.size(); ++n) {
            if (source.rig.gltfIndex[n] == bone) continue;
            // glTF ignores a skinned mesh's node transform (a reused bone may carry one along).
            if (source.document["nodes"][std::size_t(source.rig.gltfIndex[n])].contains("skin")) continue;
            const glm::dmat4& m = a[n];
            const glm::dmat4& o = b[output.rig.rigIndexOfGltf[source.rig.gltfIndex[n]]];
            worst = std::max(worst, glm::length(glm::dvec3(m[3] - o[3])) / height);
            for (int axis = 0; axis < 3; ++axis) {
                const double scale = glm::length(glm::dvec3(m[axis]));
                if (scale == 0.0) continue;
                const glm::dvec3 d(m[axis] - o[axis]);
                worst = std::max(worst, glm::length(d) / scale);  // height along the axis, over height
            }
        }
    }
    return worst;
}

// Every key time of the clip's channels.
std::vector<double> keyTimes(const Clip& clip) {
    std::set<double> times;
    for (const Channel& c : clip.channels)
        for (float t : c.times) times.insert(t);
    return {times.begin(), times.end()};
}

int findNodeNamed(const gltf::Asset& asset, const std::string& name) {
    for (int n = 0; n < asset.rig.size(); ++n)
        if (asset.rig.name[n] == name) return n;
    return -1;
}

// The biped with its Armature moved, turned 30 degrees about +Y and scaled by 2, and its Hips'
// rest moved off the axis, so the root bone sits off the origin under a parent that is no identity.
std::vector<std::uint8_t> movedBiped() {
    samples::Biped biped = samples::makeBiped();
    Json doc = Json::parse(biped.json);
    const double half = 3.14159265358979323846 / 12;  // 15 degrees: half of the turn
    doc["nodes"][0]["translation"] = {1.0, 0.0, 2.0};
    doc["nodes"][0]["rotation"] = {0.0, std::sin(half), 0.0, std::cos(half)};
    doc["nodes"][0]["scale"] = {2.0, 2.0, 2.0};
    doc["nodes"][1]["translation"] = {0.25, 1.03, -0.125};
    biped.json = doc.dump();
    return samples::toGlb(biped);
}

}  // namespace

TEST_CASE("root bone: inserted between the hips and their parent, at the ground under the hips at rest") {
    const std::vector<std::uint8_t> glb = movedBiped();
    const gltf::Asset input = mustLoadBytes(glb, "moved-biped.glb");
    auto baked = bakeWithRootBone(input);
    REQUIRE_MESSAGE(baked.ok(), (baked ? "" : baked.error().message));
    const gltf::Asset output = mustLoadBytes(joinPieces(baked->asset.main), "out.glb");

    const int bone = findNodeNamed(output, "root");
    const int hips = findNodeNamed(output, "Hips");
    REQUIRE(bone >= 0);
    CHECK(output.rig.gltfIndex[bone] == input.rig.size());  // appended: no node is renumbered
    CHECK(output.rig.parent[hips] == bone);
    CHECK(output.rig.name[output.rig.parent[bone]] == "Armature");
    CHECK(toJson(baked->document)["rootBone"]["name"] == "root");
    CHECK(toJson(baked->document)["rootBone"]["index"] == input.rig.size());
    // In the Armature's space the hips rest at (0.25, 1.03, -0.125); the ground under them, at the
    // height of the Armature's origin (+Y is up there too), is (0.25, 0, -0.125).
    const Transform& rest = output.rig.rest[bone];
    CHECK(rest.translation.x == doctest::Approx(0.25));
    CHECK(rest.translation.y == doctest::Approx(0.0));
    CHECK(rest.translation.z == doctest::Approx(-0.125));
    CHECK(output.rig.rest[hips].translation.y == doctest::Approx(1.03));
    CHECK(output.rig.rest[hips].translation.x == doctest::Approx(0.0));

    // The skin takes it as a joint, bound where the skin binds the hips less the hips' rest under it:
    // the biped's inverse binds are those of its Armature before it was moved, turned and scaled, so
    // that is in the skin's bind space, not the scene's (as an FBX export's are in centimetres).
    const Json& doc = output.document;
    const Json& joints = doc["skins"][0]["joints"];
    REQUIRE(joints.back() == input.rig.size());
    auto matrices = gltf::decodeAccessor(output, doc["skins"][0]["inverseBindMatrices"].get<int>());
    REQUIRE(matrices.ok());
    REQUIRE(matrices->size() == 16 * joints.size());
    const auto bindOf = [&](std::size_t joint) {
        const float* m = matrices->data() + 16 * joint;
        return glm::inverse(glm::dmat4(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10],
                                       m[11], m[12], m[13], m[14], m[15]));
    };
    const auto hipsJoint =
        std::size_t(std::find(joints.begin(), joints.end(), output.rig.gltfIndex[hips]) - joints.begin());
    REQUIRE(hipsJoint < joints.size());
    const glm::dmat4 hipsBind = bindOf(hipsJoint), boneBind = bindOf(joints.size() - 1);
    const glm::dmat4 viaBone = boneBind * toMatrix(output.rig.rest[hips]);
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) CHECK(viaBone[c][r] == doctest::Approx(hipsBind[c][r]).epsilon(1e-6));
    // The biped was bound with its Armature unmoved and its hips at (0, 1.03, 0): the ground under
    // them is the origin, so the bone binds at the identity.
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            CHECK(boneBind[c][r] == doctest::Approx(c == r ? 1.0 : 0.0).epsilon(1e-6));
}

TEST_CASE("root bone: root clips keep every node's world pose, footContact travels, none stays at rest") {
    const std::vector<std::uint8_t> glb = movedBiped();
    const gltf::Asset input = mustLoadBytes(glb, "moved-biped.glb");
    auto baked = bakeWithRootBone(input);
    REQUIRE(baked.ok());
    const gltf::Asset output = mustLoadBytes(joinPieces(baked->asset.main), "out.glb");
    const double height = 1.7 * 2;  // the Armature's scale
    const auto clipOf = [&](const std::string& name) {
        for (std::size_t i = 0; i < input.clips.size(); ++i)
            if (input.clips[i].name == name) return int(i);
        FAIL("no clip " << name);
        return -1;
    };
    for (const char* name :
         {"walk", "turn_walk", "turn_spot", "strafe", "idle", "walk_inplace", "run_inplace"}) {
        CAPTURE(name);
        const int i = clipOf(name);
        const Clip& source = input.clips[i];
        const Clip& played = output.clips[baked->asset.animationOf[i]];
        const std::vector<double> keys = keyTimes(source);
        if (std::string(name) == "walk_inplace") {
            // The in-place walk is the walk less M(t), v = 1.2 m/s: with the root bone carrying the
            // deduced travel it is the walk again, to the deduced stride's accuracy (0.5%: 6 mm a
            // cycle, here doubled by the Armature's scale), at every key.
            const Clip& walk = input.clips[clipOf("walk")];
            CHECK(worstWorldMismatch(input, walk, output, played, keys, height) < 0.01);
        } else if (std::string(name) == "run_inplace") {
            // Moves: the hips are 2 x 2.4 m further along the Armature's +Z after one cycle (0.8 s).
            const int hips = output.rig.rigIndexOfGltf[1];
            const glm::dvec3 start(worldPose(output, played, 0.0)[hips][3]);
            const glm::dvec3 end(worldPose(output, played, 0.8)[hips][3]);
            CHECK(glm::length(end - start) == doctest::Approx(4.8).epsilon(0.01));
        } else {
            // root clips, and the idle (none): exactly the source's world pose at every key.
            CHECK(worstWorldMismatch(input, source, output, played, keys, height) < 1e-5);
        }
    }
}

TEST_CASE("root bone: over hips that are a scene root, it takes their place among the scene's roots") {
    samples::Biped biped = samples::makeBiped();
    Json doc = Json::parse(biped.json);
    Json& armatureChildren = doc["nodes"][0]["children"];
    armatureChildren.erase(std::find(armatureChildren.begin(), armatureChildren.end(), Json(1)));
    if (armatureChildren.empty()) doc["nodes"][0].erase("children");
    doc["scenes"][0]["nodes"].push_back(1);
    doc["nodes"][1]["translation"] = {0.5, 1.03, 0.0};
    biped.json = doc.dump();
    const std::vector<std::uint8_t> glb = samples::toGlb(biped);
    const gltf::Asset input = mustLoadBytes(glb, "hips-at-the-top.glb");
    REQUIRE(input.rig.parent[input.rig.rigIndexOfGltf[1]] == -1);
    auto baked = bakeWithRootBone(input);
    REQUIRE_MESSAGE(baked.ok(), (baked ? "" : baked.error().message));
    const gltf::Asset output = mustLoadBytes(joinPieces(baked->asset.main), "out.glb");
    const Json& roots = output.document["scenes"][0]["nodes"];
    CHECK(std::find(roots.begin(), roots.end(), Json(1)) == roots.end());
    CHECK(std::find(roots.begin(), roots.end(), Json(input.rig.size())) != roots.end());
    const int bone = output.rig.rigIndexOfGltf[input.rig.size()];
    CHECK(output.rig.parent[bone] == -1);
    CHECK(output.rig.rest[bone].translation.x == doctest::Approx(0.5));  // under the hips, on the ground
    for (const Clip& clip : input.clips) {
        CAPTURE(clip.name);
        const Clip& played = output.clips[std::size_t(clip.gltfIndex)];
        if (clip.name == "walk" || clip.name == "idle" || clip.name == "turn_walk")
            CHECK(worstWorldMismatch(input, clip, output, played, keyTimes(clip), 1.7) < 1e-5);
    }
}

TEST_CASE("root bone: baking the output again changes nothing, the same input gives the same bytes") {
    const std::vector<std::uint8_t> glb = movedBiped();
    const gltf::Asset input = mustLoadBytes(glb, "moved-biped.glb");
    auto first = bakeWithRootBone(input);
    REQUIRE(first.ok());
    auto again = bakeWithRootBone(input);
    REQUIRE(again.ok());
    CHECK(joinPieces(first->asset.main) == joinPieces(again->asset.main));
    const gltf::Asset output = mustLoadBytes(joinPieces(first->asset.main), "out.glb");
    auto second = bakeWithRootBone(output);
    REQUIRE_MESSAGE(second.ok(), (second ? "" : second.error().message));
    CHECK(joinPieces(second->asset.main) == joinPieces(first->asset.main));
    CHECK(toJson(second->document)["rootBone"]["index"] == input.rig.size());
    // Its sidecar finds the motion in the root bone's keys: the same turn, and the same stride and
    // speed for a clip that does not turn. (A turn is about the character's origin, the bone sits
    // off it under these hips, so its own travel over a turning cycle is another chord.)
    for (std::size_t i = 0; i < input.clips.size(); ++i) {
        const Json a = toJson(first->document)["clips"][i];
        const Json b = toJson(second->document)["clips"][i];
        CAPTURE(a["name"]);
        CHECK(b["rootNode"]["name"] == "root");
        CHECK(b["turn"].get<double>() == doctest::Approx(a["turn"].get<double>()).epsilon(1e-5));
        if (a["turn"].get<double>() != 0.0) continue;
        for (const char* key : {"strideLength", "averageSpeed"})
            CHECK(b[key].get<double>() == doctest::Approx(a[key].get<double>()).epsilon(1e-5));
    }
}

TEST_CASE("root bone: a name that exists, clips with different roots, a kept source are refused") {
    const samples::Biped biped = samples::makeBiped();
    const std::vector<std::uint8_t> glb = samples::toGlb(biped);
    const gltf::Asset input = mustLoadBytes(glb, "biped.glb");
    SUBCASE("a node of that name") {
        auto baked = bakeWithRootBone(input, "LeftFoot");
        REQUIRE_FALSE(baked.ok());
        CHECK(
            baked.error().message ==
            "biped.glb: nodes[19] \"LeftFoot\": a node of the root bone's name exists already, not above the "
            "root nodes[1] \"Hips\"; pass --root-bone with another name");
    }
    SUBCASE("clips with different roots") {
        pipeline::BakeSettings settings;
        settings.rootBone = "root";
        settings.clipAnalysis.assign(input.clips.size(), Options{});
        settings.clipAnalysis[1].rootNode = parseNodeRef("Spine");
        auto baked = pipeline::bakeAsset(input, {}, settings);
        REQUIRE_FALSE(baked.ok());
        CHECK(baked.error().message.find(
                  "biped.glb: animations[1] \"walk_inplace\": its root nodes[2] \"Spine\" is "
                  "not nodes[1] \"Hips\"") == 0);
    }
    SUBCASE("--keep-source") {
        pipeline::BakeSettings settings;
        settings.rootBone = "root";
        settings.rewrite.keepSource = true;
        auto baked = pipeline::bakeAsset(input, {}, settings);
        REQUIRE_FALSE(baked.ok());
        CHECK(baked.error().message.find("biped.glb: a root bone and the source clips kept") == 0);
    }
}

TEST_CASE(
    "root bone: every corpus root clip keeps every node's world pose at every key (1e-5 of the height)") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    int checked = 0, assets = 0;
    std::map<std::string, int> uses;  // inserted, reused, kept: how many assets
    double worst = 0.0;
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(shared / "corpus")) {
        const std::string ext = entry.path().extension().string();
        const std::string relative = entry.path().lexically_relative(shared / "corpus").string();
        if ((ext == ".glb" || ext == ".gltf") && relative.rfind("bad/", 0) != 0)
            files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
        CAPTURE(file);
        auto input = gltf::loadAsset(file);
        if (!input) continue;  // the corpus' refusals are other tests' business
        auto baked = bakeWithRootBone(*input);
        if (!baked) {
            // Refused as a whole: one line naming the file; a skinned character only when none of
            // its clips moves a root (a bone to carry nothing), never for a bone of its own (issue 31).
            CHECK(baked.error().message.rfind(input->fileName + ": ", 0) == 0);
            CHECK(baked.error().message.find('\n') == std::string::npos);
            CHECK_MESSAGE((!input->document.contains("skins") ||
                           test::contains(baked.error().message, ": no clip animates a root to put")),
                          baked.error().message);
            MESSAGE("no root bone for " << file.filename().string() << ": " << baked.error().message);
            continue;
        }
        const gltf::Asset output = mustLoadBytes(test::wholeOutput(baked->asset), "out.glb", file.parent_path());
        ++assets;
        ++uses[baked->rootBoneUse];
        MESSAGE(file.filename().string() << ": " << baked->rootBoneSummary);
        for (std::size_t i = 0; i < input->clips.size(); ++i) {
            const ClipAnalysis& a = baked->clips[i].analysis;
            if (a.source != Source::Root) continue;
            CAPTURE(input->clips[i].name);
            const double mismatch =
                worstWorldMismatch(*input, input->clips[i], output, output.clips[baked->asset.animationOf[i]],
                                   keyTimes(input->clips[i]), a.characterHeight,
                                   baked->rootBoneUse == "reused" ? baked->rootBone : -1);
            CHECK(mismatch < 1e-5);
            worst = std::max(worst, mismatch);
            ++checked;
        }
    }
    MESSAGE(checked << " corpus root clips of " << assets << " assets: worst world mismatch " << worst
                    << " of the height");
    CHECK(checked >= 14);
    // The corpus' own top bones named root: Fox's and the mannequin's idle ones are reused, the
    // greenman's, which carries the clips' motion, is kept (MANIFEST.md lists the assets).
    CHECK(uses["reused"] >= 2);
    CHECK(uses["kept"] >= 1);
}

TEST_CASE("root bone: the command line: the default name, a refusal in one line that writes nothing") {
    test::TempDir dir("rootbone-cli");
    const samples::Biped biped = samples::makeBiped();
    test::writeBytes(dir.path / "biped.glb", samples::toGlb(biped));
    const fs::path out = dir.path / "out";
    fs::create_directories(out);

    test::Exit e = test::runExe("bake " + test::q(dir.path / "biped.glb") + " -o " +
                                test::q(out / "walk.glb") + " --root-bone");
    INFO(e.output);
    REQUIRE(e.code == 0);
    const std::string sidecarText = test::readText(out / "walk.rootmotion.json");
    const Json sidecar = Json::parse(sidecarText);
    CHECK(sidecar["rootBone"] == Json{{"name", "root"}, {"index", 26}});  // 26 nodes in the biped
    fs::remove_all(out);
    fs::create_directories(out);

    e = test::runExe("bake " + test::q(dir.path / "biped.glb") + " -o " + test::q(out / "walk.glb") +
                     " --root-bone=LeftFoot");
    CHECK(e.code == 2);
    CHECK(e.output ==
          "rootbake: error: " + (dir.path / "biped.glb").string() +
              ": nodes[19] \"LeftFoot\": a node of the root bone's name exists already, not above the "
              "root nodes[1] \"Hips\"; pass --root-bone with another name\n");
    CHECK(test::listing(out).empty());

    e = test::runExe("bake " + test::q(dir.path / "biped.glb") + " -o " + test::q(out / "walk.glb") +
                     " --keep-source --root-bone");
    CHECK(e.code == 1);
    CHECK(e.output.find("--root-bone and --keep-source exclude each other") != std::string::npos);
    CHECK(test::listing(out).empty());

    // A bare --root-bone takes the next word: a file name there is the user's output, not a bone.
    e = test::runExe("bake " + test::q(dir.path / "biped.glb") + " --root-bone " + test::q(out / "walk.glb"));
    CHECK(e.code == 1);
    CHECK(e.output.find("--root-bone " + (out / "walk.glb").string() + ": a file name, not a bone's") !=
          std::string::npos);
    CHECK(test::listing(out).empty());
}

TEST_CASE("root bone: verify holds the root bone at rest, so it measures what an engine plays") {
    // An engine that takes root motion from the bone plays it at rest and moves the character by
    // the motion; verify does the same. With the hips off the axis under a turned, scaled Armature,
    // each clip's foot skate must be the same with and without the root bone: the three columns
    // measure the same poses (the source's played on the baked rig, its keys under the bone).
    test::TempDir dir("rootbone-verify");
    test::writeBytes(dir.path / "moved.glb", movedBiped());
    const auto verifyJson = [&](const std::string& name, const std::string& option) {
        const test::Exit bake = test::runExe("bake " + test::q(dir.path / "moved.glb") + " -o " +
                                             test::q(dir.path / (name + ".glb")) + " -q" + option);
        INFO(bake.output);
        REQUIRE(bake.code == 0);
        const test::SplitExit verify =
            test::runExeSplit("verify " + test::q(dir.path / (name + ".glb")) + " --sidecar " +
                              test::q(dir.path / (name + ".rootmotion.json")) + " --source " +
                              test::q(dir.path / "moved.glb") + " --json");
        INFO(verify.err);
        REQUIRE((verify.code == 0 || verify.code == 4));  // 4: a clip skates; the same one with and without
        return Json::parse(verify.out);
    };
    const Json plain = verifyJson("plain", "");
    const Json withBone = verifyJson("bone", " --root-bone");
    REQUIRE(plain["clips"].size() == 7);
    CHECK(plain["passed"] == withBone["passed"]);
    for (std::size_t i = 0; i < plain["clips"].size(); ++i)
        for (const char* column : {"baked", "constant", "sourceClip"}) {
            CAPTURE(plain["clips"][i]["name"]);
            CAPTURE(column);
            const Json& a = plain["clips"][i][column];
            const Json& b = withBone["clips"][i][column];
            CHECK(a["samples"] == b["samples"]);
            CHECK(a["mean"].get<double>() == doctest::Approx(b["mean"].get<double>()).epsilon(1e-4));
            CHECK(a["p95"].get<double>() == doctest::Approx(b["p95"].get<double>()).epsilon(1e-4));
        }
}

namespace {

// Appends `values` to the biped's buffer as a float accessor of `type`; returns its index.
int appendFloats(samples::Biped& biped, Json& doc, const std::vector<float>& values, const char* type) {
    const std::size_t offset = biped.bin.size();
    biped.bin.resize(offset + 4 * values.size());
    std::memcpy(biped.bin.data() + offset, values.data(), 4 * values.size());
    doc["buffers"][0]["byteLength"] = biped.bin.size();
    doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", 4 * values.size()}});
    const std::size_t width = std::string(type) == "VEC4" ? 4 : 3;
    doc["accessors"].push_back({{"bufferView", doc["bufferViews"].size() - 1},
                                {"componentType", 5126},
                                {"count", values.size() / width},
                                {"type", type}});
    return int(doc["accessors"].size()) - 1;
}

// A channel of `node` in every animation, keyed at the times of the animation's first sampler:
// value(k, keys) gives key k's.
template <class Value>
void keyInEveryClip(samples::Biped& biped, Json& doc, int node, const char* path, Value value) {
    for (Json& anim : doc["animations"]) {
        const int times = anim["samplers"][0]["input"].get<int>();
        const std::size_t keys = doc["accessors"][std::size_t(times)]["count"].get<std::size_t>();
        std::vector<float> values;
        for (std::size_t k = 0; k < keys; ++k)
            for (float v : value(anim["name"].get<std::string>(), k, keys)) values.push_back(v);
        const int output =
            appendFloats(biped, doc, values, std::string(path) == "rotation" ? "VEC4" : "VEC3");
        anim["samplers"].push_back({{"input", times}, {"interpolation", "LINEAR"}, {"output", output}});
        anim["channels"].push_back(
            {{"sampler", anim["samplers"].size() - 1}, {"target", {{"node", node}, {"path", path}}}});
    }
}

// The biped with a top bone `name` between the Armature and the Hips, at (0.1, 0, 0.2) turned 10
// degrees about +Y (so the character is too), as a Blender game rig's `root`, keyed in every clip
// at its rest (translation and rotation). With turnInWalk, it has rotation keys only, turned
// turnInWalk radians by the end of "walk" (no translation keys: findRoot takes the Hips).
std::vector<std::uint8_t> bipedUnderTopBone(const std::string& name, double turnInWalk = 0.0) {
    samples::Biped biped = samples::makeBiped();
    Json doc = Json::parse(biped.json);
    const int bone = int(doc["nodes"].size());
    const double half = 3.14159265358979323846 / 36;  // 5 degrees: half of the rest turn
    doc["nodes"].push_back({{"name", name},
                            {"translation", {0.1, 0.0, 0.2}},
                            {"rotation", {0.0, std::sin(half), 0.0, std::cos(half)}},
                            {"children", {1}}});
    Json& armature = doc["nodes"][0]["children"];
    *std::find(armature.begin(), armature.end(), Json(1)) = bone;
    if (turnInWalk == 0.0)
        keyInEveryClip(biped, doc, bone, "translation", [](const std::string&, std::size_t, std::size_t) {
            return std::vector<float>{0.1f, 0.0f, 0.2f};
        });
    keyInEveryClip(biped, doc, bone, "rotation",
                   [&](const std::string& clip, std::size_t k, std::size_t keys) {
                       const double extra = clip == "walk" ? turnInWalk * double(k) / double(keys - 1) : 0.0;
                       const double h = half + extra / 2;
                       return std::vector<float>{0.0f, float(std::sin(h)), 0.0f, float(std::cos(h))};
                   });
    biped.json = doc.dump();
    return samples::toGlb(biped);
}

// The biped as a Mixamo pack prepared for an engine: "mixamorig:Root" above the Hips carries every
// clip's horizontal travel (the Hips' keys' x and z), the Hips keep only their height.
std::vector<std::uint8_t> bipedWithTravellingRoot() {
    samples::Biped biped = samples::makeBiped();
    const gltf::Asset source = mustLoadBytes(samples::toGlb(biped), "biped.glb");
    Json doc = Json::parse(biped.json);
    const int bone = int(doc["nodes"].size());
    doc["nodes"].push_back({{"name", "mixamorig:Root"}, {"children", {1}}});
    Json& armature = doc["nodes"][0]["children"];
    *std::find(armature.begin(), armature.end(), Json(1)) = bone;
    for (const Clip& clip : source.clips)
        for (const Channel& c : clip.channels) {
            if (source.rig.gltfIndex[c.node] != 1 || c.path != Path::Translation) continue;
            REQUIRE(c.interpolation == Interpolation::Linear);
            std::vector<float> travel = c.values, height = c.values;
            for (std::size_t k = 0; k < c.values.size(); k += 3)
                travel[k + 1] = 0, height[k] = height[k + 2] = 0;
            Json& anim = doc["animations"][std::size_t(clip.gltfIndex)];
            Json& sampler = anim["samplers"][std::size_t(c.gltfSampler)];
            const int times = sampler["input"].get<int>();
            sampler["output"] = appendFloats(biped, doc, height, "VEC3");
            anim["samplers"].push_back({{"input", times},
                                        {"interpolation", "LINEAR"},
                                        {"output", appendFloats(biped, doc, travel, "VEC3")}});
            anim["channels"].push_back({{"sampler", anim["samplers"].size() - 1},
                                        {"target", {{"node", bone}, {"path", "translation"}}}});
        }
    biped.json = doc.dump();
    return samples::toGlb(biped);
}

}  // namespace

TEST_CASE("root bone: an idle top bone named root is reused: it takes the travel, nothing is inserted") {
    for (const char* name : {"root", "Root"}) {
        CAPTURE(name);
        const std::vector<std::uint8_t> glb = bipedUnderTopBone(name);
        const gltf::Asset input = mustLoadBytes(glb, "game-rig.glb");
        auto baked = bakeWithRootBone(input);
        REQUIRE_MESSAGE(baked.ok(), (baked ? "" : baked.error().message));
        const gltf::Asset output = mustLoadBytes(joinPieces(baked->asset.main), "out.glb");
        CHECK(output.rig.size() == input.rig.size());  // nothing inserted
        CHECK(baked->rootBoneUse == "reused");
        CHECK(baked->rootBoneSummary ==
              std::string("root bone: nodes[26] \"") + name +
                  "\" reused: idle above nodes[1] \"Hips\", it takes the motion keys");
        CHECK(toJson(baked->document)["rootBone"] == Json{{"name", name}, {"index", 26}});
        const samples::Biped truth = samples::makeBiped();
        for (std::size_t i = 0; i < input.clips.size(); ++i) {
            const Clip& source = input.clips[i];
            CAPTURE(source.name);
            // The analysis measured the Hips, not the idle bone that findRoot would take.
            CHECK(input.rig.name[std::size_t(baked->clips[i].analysis.root)] == "Hips");
            const Clip& played = output.clips[std::size_t(baked->asset.animationOf[i])];
            // One channel per node and path (glTF), the bone's own replaced.
            std::set<std::pair<int, int>> targets;
            for (const Channel& c : played.channels) CHECK(targets.insert({c.node, int(c.path)}).second);
            if (baked->clips[i].analysis.source != Source::Root) continue;
            CHECK(worstWorldMismatch(input, source, output, played, keyTimes(source), 1.7, 26) < 1e-5);
        }
        // The walk's travel is on the bone: its translation keys move by the walk's stride
        // (samples/README.md), turned 10 degrees with the character, in the Armature's space.
        const Clip& walk = output.clips[std::size_t(baked->asset.animationOf[0])];
        REQUIRE(input.clips[0].name == "walk");
        const auto boneKeys = std::find_if(walk.channels.begin(), walk.channels.end(), [&](const Channel& c) {
            return c.node == output.rig.rigIndexOfGltf[26] && c.path == Path::Translation;
        });
        REQUIRE(boneKeys != walk.channels.end());
        const std::vector<float>& v = boneKeys->values;
        const glm::dvec3 moved(v[v.size() - 3] - v[0], v[v.size() - 2] - v[1], v[v.size() - 1] - v[2]);
        const glm::dvec3 stride = truth.truth[0].stride;
        const double a = 3.14159265358979323846 / 18;
        const glm::dvec3 turned(stride.x * std::cos(a) + stride.z * std::sin(a), stride.y,
                                -stride.x * std::sin(a) + stride.z * std::cos(a));
        CHECK(glm::length(moved - turned) < 1e-5);
        // Baked again, the bone carries the travel: it is kept, and the bytes stay.
        auto again = bakeWithRootBone(output);
        REQUIRE(again.ok());
        CHECK(again->rootBoneUse == "kept");
        CHECK(joinPieces(again->asset.main) == joinPieces(baked->asset.main));
    }
}

TEST_CASE("root bone: a root bone that carries the travel already is kept, nothing is inserted") {
    const std::vector<std::uint8_t> glb = bipedWithTravellingRoot();
    const gltf::Asset input = mustLoadBytes(glb, "mixamo-pack.glb");
    auto baked = bakeWithRootBone(input);  // "root" names "mixamorig:Root" (a namespace, another case)
    REQUIRE_MESSAGE(baked.ok(), (baked ? "" : baked.error().message));
    CHECK(baked->rootBoneUse == "kept");
    CHECK(baked->rootBoneSummary ==
          "root bone: nodes[26] \"mixamorig:Root\" kept as it is: the clips' root, it carries their travel");
    CHECK(toJson(baked->document)["rootBone"] == Json{{"name", "mixamorig:Root"}, {"index", 26}});
    CHECK(joinPieces(baked->asset.main) == glb);  // the asset as it is: nothing inserted or rewritten
    for (const BakedClip& clip : baked->clips)
        if (clip.analysis.root >= 0)
            CHECK(input.rig.name[std::size_t(clip.analysis.root)] == "mixamorig:Root");
}

TEST_CASE("root bone: a top bone of that name that moves is refused, naming it and the clip") {
    SUBCASE("it turns in a clip (findRoot takes the Hips: the bone has no translation keys)") {
        const gltf::Asset input = mustLoadBytes(bipedUnderTopBone("root", 0.5), "turning-root.glb");
        auto baked = bakeWithRootBone(input);
        REQUIRE_FALSE(baked.ok());
        CHECK(baked.error().message ==
              "turning-root.glb: nodes[26] \"root\": animations[0] \"walk\" turns it 28.6 degrees, which the "
              "root "
              "bone's keys would overwrite; pass --root-bone with another name");
    }
    SUBCASE("it travels, and the clips' root is given as the Hips") {
        const gltf::Asset input = mustLoadBytes(bipedWithTravellingRoot(), "mixamo-pack.glb");
        pipeline::BakeSettings settings;
        settings.rootBone = "root";
        settings.analysis.rootNode = parseNodeRef("Hips");
        auto baked = pipeline::bakeAsset(input, {}, settings);
        REQUIRE_FALSE(baked.ok());
        // The walk moves 1.2 m/s for its cycle (samples/README.md); the skeleton under the bone is 1.7 m
        // tall.
        CHECK(baked.error().message.rfind(
                  "mixamo-pack.glb: nodes[26] \"mixamorig:Root\": animations[0] \"walk\" "
                  "moves it ",
                  0) == 0);
        CHECK(test::contains(baked.error().message, "which the root bone's keys would overwrite"));
    }
}

TEST_CASE("root bone: the command line says what it did with the rig, a moving bone writes nothing") {
    test::TempDir dir("rootbone-reuse-cli");
    test::writeBytes(dir.path / "rig.glb", bipedUnderTopBone("root"));
    test::writeBytes(dir.path / "turning.glb", bipedUnderTopBone("root", 0.5));
    const fs::path out = dir.path / "out";
    test::Exit e = test::runExe("bake " + test::q(dir.path / "rig.glb") + " -o " + test::q(out / "rig.glb") +
                                " --root-bone");
    INFO(e.output);
    REQUIRE(e.code == 0);
    CHECK(test::contains(e.output,
                         "\n  root bone: nodes[26] \"root\" reused: idle above nodes[1] \"Hips\", it takes "
                         "the motion keys\n"));
    const test::SplitExit json = test::runExeSplit("bake " + test::q(dir.path / "rig.glb") + " -o " +
                                                   test::q(out / "rig.glb") + " --root-bone --force --json");
    REQUIRE(json.code == 0);
    CHECK(Json::parse(json.out)["assets"][0]["rootBone"] ==
          Json{{"name", "root"}, {"index", 26}, {"use", "reused"}});
    fs::remove_all(out);
    e = test::runExe("bake " + test::q(dir.path / "turning.glb") + " -o " + test::q(out / "turning.glb") +
                     " --root-bone");
    CHECK(e.code == 2);
    CHECK(e.output ==
          "rootbake: error: " + (dir.path / "turning.glb").string() +
              ": nodes[26] \"root\": animations[0] \"walk\" turns it 28.6 degrees, which the root bone's "
              "keys would overwrite; pass --root-bone with another name\n");
    CHECK(!fs::exists(out));
}
