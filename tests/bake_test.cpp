// The bake end to end: a baked root clip plays in place, and its sidecar's
// motion track plus its in-place keys give back the source root's motion.
// Truth is the source clip itself, sampled by the pose evaluator; nothing is
// compared with the analysis that produced it. Then the real executable: its
// refusals, exit codes, and that a failed run leaves its folder as it was.
#include "pipeline/bake.h"
#include "write/sidecar.h"
#include "core/frames.h"
#include "gltf/asset.h"
#include "support.h"
#include "written_output.h"
#include "io/sha256.h"

#include "biped.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numbers>
#include <regex>
#include <set>

#include <sys/wait.h>
#include <unistd.h>

using namespace rootbake;
using namespace rootbake::write;
using namespace rootbake::pipeline;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

using test::Exit;
using test::q;
using test::runExe;
using test::listing;
using test::readBytes;
using test::TempDir;
using test::writeBytes;
using test::readText;
using test::writeText;

namespace {

// ---- helpers -----------------------------------------------------------------

gltf::Asset mustLoad(std::span<const std::uint8_t> bytes, const std::string& name) {
    auto asset = gltf::loadAssetFromMemory(bytes, name, {});
    INFO(name << ": " << (asset ? "" : asset.error().message));
    REQUIRE(asset.ok());
    return std::move(*asset);
}

struct Run {
    gltf::Asset input;
    Baked baked;
    gltf::Asset output;
};

// Bakes in memory; the output is loaded back from memory (GLB, or data: URIs).
Run bakeInMemory(std::span<const std::uint8_t> bytes, const std::string& name, const Options& options = {}) {
    Run run{mustLoad(bytes, name), {}, {}};
    BakeSettings settings;
    settings.analysis = options;
    settings.rewrite.container = run.input.binary ? Container::Glb : Container::Gltf;
    settings.rewrite.binName = "out.bin";
    settings.inputName = name;
    settings.outputName = run.input.binary ? "out.glb" : "out.gltf";
    auto baked = bakeAsset(run.input, bytes, settings);
    INFO(name << ": " << (baked ? "" : baked.error().message));
    REQUIRE(baked.ok());
    run.baked = std::move(*baked);
    REQUIRE(run.baked.asset.files.empty());  // nothing beside it: it loads from memory
    run.output = mustLoad(joinPieces(run.baked.asset.main), settings.outputName);
    return run;
}

// A node's position and rotation in character space at time t.
struct Placed {
    glm::dvec3 position;
    glm::dquat rotation;
};
Placed placeAt(const gltf::Asset& asset, const Clip& clip, int node, int character, double t) {
    std::vector<ChannelCursor> cursors(clip.channels.size());
    std::vector<Transform> local(asset.rig.size());
    std::vector<glm::dmat4> scene(asset.rig.size());
    sampleLocalPose(asset.rig, clip, t, cursors, local);
    localToScene(asset.rig, local, scene);
    const glm::dmat4 m = (character >= 0 ? glm::inverse(scene[character]) : glm::dmat4(1.0)) * scene[node];
    return {glm::dvec3(m[3]), core::rotationOf(m)};
}

int rigIndex(const gltf::Asset& asset, const Json& ref) {
    return ref.is_null() ? -1 : asset.rig.rigIndexOfGltf[ref["index"].get<int>()];
}

MotionTrack trackOf(const Json& clip) {
    MotionTrack track;
    track.times = clip["track"]["times"].get<std::vector<double>>();
    for (const Json& t : clip["track"]["translation"]) track.translation.emplace_back(t[0], t[1], t[2]);
    track.yaw = clip["track"]["yaw"].get<std::vector<double>>();
    return track;
}

struct Residuals {
    double travel = 0.0;     // horizontal net travel of the in-place root over the clip, scene units
    double turn = 0.0;       // its net turn about up, degrees
    double reproduce = 0.0;  // worst key: |track applied to the in-place root - source root| / height
    int keys = 0;
};

// Checks one baked clip against its source (input animation `a`).
Residuals checkBakedClip(const Run& run, int a) {
    const Json entry = toJson(run.baked.document)["clips"][a];
    const ClipAnalysis& analysis = run.baked.clips[a].analysis;
    REQUIRE(!run.baked.clips[a].channels.empty());
    const Clip& source = run.input.clips[a];
    const Clip& baked = run.output.clips[entry["animation"].get<int>()];
    const int root = rigIndex(run.output, entry["rootNode"]);
    const int character = rigIndex(run.output, entry["characterNode"]);
    REQUIRE(root >= 0);
    const glm::dvec3 up(toJson(run.baked.document)["upAxis"][0], toJson(run.baked.document)["upAxis"][1],
                        toJson(run.baked.document)["upAxis"][2]);
    const double from = entry["from"], to = entry["to"];
    // Fractions of the height, as the analysis takes them (a rig without height: of 1 unit).
    const double height =
        entry["characterHeight"].get<double>() > 0.0 ? entry["characterHeight"].get<double>() : 1.0;

    Residuals r;
    const Placed start = placeAt(run.output, baked, root, character, from);
    const Placed end = placeAt(run.output, baked, root, character, to);
    r.travel = glm::length(core::horizontal(end.position - start.position, up));
    // The turn left after an extracted one; a turn that was not extracted stays in the pose.
    if (analysis.extractsRotation)
        r.turn = std::abs(core::turnAbout(end.rotation * glm::conjugate(start.rotation), up)) * 180.0 /
                 std::numbers::pi;

    // Re-analysed with the same options, the root no longer carries the motion.
    auto again = analyzeClip(run.output.rig, baked, Options{});
    REQUIRE(again.ok());
    CHECK_FALSE(again->removesRootTravel);
    CHECK_FALSE(again->extractsRotation);

    const MotionTrack track = trackOf(entry);
    std::set<float> keys;
    for (const Channel& c : baked.channels)
        if (c.node == root) keys.insert(c.times.begin(), c.times.end());
    for (float key : keys) {
        const double t = key;
        const glm::dvec3 inPlace = placeAt(run.output, baked, root, character, t).position;
        const glm::dvec3 truth = placeAt(run.input, source, root, character, t).position;
        const glm::dvec3 composed = core::rotateAboutUp(inPlace, trackYawAt(track, t - from), up) +
                                    trackTranslationAt(track, t - from);
        r.reproduce = std::max(r.reproduce, glm::length(composed - truth) / height);
        ++r.keys;
    }
    CHECK(r.keys > 0);
    return r;
}

void requireInPlace(const Residuals& r, const std::string& what, double keyTolerance = 1e-4) {
    INFO(what << ": travel " << r.travel << " m, turn " << r.turn << " deg, worst key " << r.reproduce
              << " of the height over " << r.keys << " keys");
    CHECK(r.travel < 1e-3);
    CHECK(r.turn < 0.1);
    CHECK(r.reproduce < keyTolerance);
}

int findClip(const gltf::Asset& asset, const std::string& name) {
    for (const Clip& c : asset.clips)
        if (c.name == name) return c.gltfIndex;
    FAIL("no clip " << name);
    return -1;
}

// ---- the executable ------------------------------------------------------------


}  // namespace

// ---- the biped, in memory --------------------------------------------------------

// An animation without the markers bake adds to its extras (and without an extras that only
// held them).
Json withoutMarkers(Json animation) {
    if (!animation.contains("extras")) return animation;
    animation["extras"].erase("rootbake");
    if (animation["extras"].empty()) animation.erase("extras");
    return animation;
}

TEST_CASE("bake: the biped's root clips play in place and the track gives their motion back") {
    const samples::Biped biped = samples::makeBiped();
    const std::vector<std::uint8_t> glb = samples::toGlb(biped);
    const Run run = bakeInMemory(glb, "biped.glb");
    for (const char* name : {"walk", "turn_walk", "strafe", "turn_spot"}) {
        const int a = findClip(run.input, name);
        CAPTURE(name);
        REQUIRE(!run.baked.clips[a].channels.empty());
        requireInPlace(checkBakedClip(run, a), name);
    }
    // Clips whose motion is not in their keys are written as they were, but for the markers of
    // the one that steps (tests/markers_bake_test.cpp).
    for (const char* name : {"walk_inplace", "idle"}) {
        const int a = findClip(run.input, name);
        CAPTURE(name);
        CHECK(run.baked.clips[a].channels.empty());
        CHECK(withoutMarkers(run.output.document["animations"][a]).dump() ==
              run.input.document["animations"][a].dump());
        CHECK(run.output.document["animations"][a].contains("extras") ==
              (std::string(name) == "walk_inplace"));
    }
}

TEST_CASE("bake: a .gltf with a data: URI buffer stays one and bakes the same keys") {
    const samples::Biped biped = samples::makeBiped();
    const std::string text = samples::toGltfWithDataUri(biped);
    const std::vector<std::uint8_t> bytes(text.begin(), text.end());
    const Run run = bakeInMemory(bytes, "biped.gltf");
    const std::string uri = run.output.document["buffers"][0]["uri"];
    CHECK(uri.rfind("data:", 0) == 0);
    requireInPlace(checkBakedClip(run, findClip(run.input, "walk")), "walk (.gltf)");
}

TEST_CASE("bake: --keep-source appends the in-place clips and leaves the sources alone") {
    const samples::Biped biped = samples::makeBiped();
    const std::vector<std::uint8_t> glb = samples::toGlb(biped);
    const gltf::Asset input = mustLoad(glb, "biped.glb");
    BakeSettings settings;
    settings.rewrite.keepSource = true;
    settings.outputName = "out.glb";
    auto baked = bakeAsset(input, glb, settings);
    REQUIRE(baked.ok());
    const gltf::Asset output = mustLoad(joinPieces(baked->asset.main), "out.glb");
    const std::size_t count = input.clips.size();
    int added = 0;
    for (std::size_t a = 0; a < count; ++a) {
        const Json entry = toJson(baked->document)["clips"][a];
        // The source animation is untouched, and so are the accessors it reads; a clip that is
        // not made in place is played from it, so its markers are there.
        CHECK(withoutMarkers(output.document["animations"][a]).dump() ==
              input.document["animations"][a].dump());
        for (const Json& sampler : input.document["animations"][a]["samplers"])
            for (const char* key : {"input", "output"}) {
                const int index = sampler[key];
                CHECK(output.document["accessors"][index].dump() ==
                      input.document["accessors"][index].dump());
            }
        if (baked->clips[a].channels.empty()) {
            CHECK(entry["animation"] == int(a));
            continue;
        }
        const int copy = entry["animation"];
        CHECK(copy == int(count) + added);
        ++added;
        CHECK(output.document["animations"][copy]["name"] == input.clips[a].name + " (in place)");
        CHECK(entry["name"] == input.clips[a].name + " (in place)");
    }
    CHECK(added >= 4);
    CHECK(output.clips.size() == count + added);
}

// ---- the corpus ----------------------------------------------------------------------

TEST_CASE("bake: corpus root clips play in place and the track gives their motion back") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    const struct {
        const char* file;
        std::vector<const char*> clips;  // empty: every clip that is rewritten
    } cases[] = {
        {"mixamo-mixed-jsa4000/master-character.glb", {}},
        {"mixamo-zup-boyquotes/Slow_Run.glb", {}},
        {"gdquest-mannequiny/mannequiny-0.3.0.glb", {"dash"}},
        {"mixamo-7frank-gameserver/Walking_.glb", {}},
        {"playcanvas-cube-animation/cube.animation.glb", {}},
        {"assimp-interpolation-tests/animation_interpolation_cubic.gltf", {}},
        {"assimp-interpolation-tests/animation_interpolation_linear.gltf", {}},
        {"assimp-interpolation-tests/animation_interpolation_step.gltf", {}},
    };
    // The track is linear between its samples, so it reproduces a key exactly only
    // where the key is on a sample: a rewritten root's track is sampled on its keys
    // (24 fps keys at 72/s for 60 asked), also where a float duration lands a hair
    // above a whole frame (0.93333334 s). Checked at the default and at a finer rate.
    struct Pass {
        double samplesPerSecond, keyTolerance;
    };
    for (const Pass pass : {Pass{60.0, 1e-4}, Pass{120.0, 1e-4}}) {
        CAPTURE(pass.samplesPerSecond);
        Options options;
        options.samplesPerSecond = pass.samplesPerSecond;
        Residuals worst;
        int checked = 0;
        for (const auto& c : cases) {
            const fs::path file = shared / "corpus" / c.file;
            const std::vector<std::uint8_t> bytes = readBytes(file);
            const Run run = bakeInMemory(bytes, file.filename().string(), options);
            std::vector<int> clips;
            for (const char* name : c.clips) clips.push_back(findClip(run.input, name));
            if (clips.empty())
                for (std::size_t a = 0; a < run.baked.clips.size(); ++a)
                    if (!run.baked.clips[a].channels.empty()) clips.push_back(int(a));
            REQUIRE_FALSE(clips.empty());
            for (int a : clips) {
                const std::string what = std::string(c.file) + " " + run.input.clips[a].name;
                CAPTURE(what);
                const Residuals r = checkBakedClip(run, a);
                requireInPlace(r, what, pass.keyTolerance);
                worst.travel = std::max(worst.travel, r.travel);
                worst.turn = std::max(worst.turn, r.turn);
                worst.reproduce = std::max(worst.reproduce, r.reproduce);
                ++checked;
            }
        }
        MESSAGE(checked << " corpus root clips at " << pass.samplesPerSecond
                        << " samples/s: worst net travel " << worst.travel << " m, worst turn " << worst.turn
                        << " deg, worst key " << worst.reproduce << " of the height");
        CHECK(checked >= 12);  // RobotExpressive's Death, Sitting, Standing: a shift of weight, no travel
    }
}

TEST_CASE("bake: on every corpus asset, no channel but the reported root's changes") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    // The bake takes the travel and turn out of the root's keys and nothing else: every other
    // channel of every clip keeps its keys to the bit (a tread segment or a limb is no root,
    // docs/analysis.md "Root"). Every .glb/.gltf of the corpus, whatever its number.
    int assets = 0, rewritten = 0, kept = 0;
    for (const auto& entry : fs::recursive_directory_iterator(shared / "corpus")) {
        const fs::path file = entry.path();
        if (file.string().find("/bad/") != std::string::npos) continue;
        if (file.extension() != ".glb" && file.extension() != ".gltf") continue;
        CAPTURE(file.string());
        auto input = gltf::loadAsset(file);
        REQUIRE(input.ok());
        const std::vector<std::uint8_t> bytes = readBytes(file);
        BakeSettings settings;
        settings.rewrite.container = Container::Glb;  // self-contained: loads back from memory
        settings.inputName = file.filename().string();
        settings.outputName = "out.glb";
        auto baked = bakeAsset(*input, bytes, settings);
        REQUIRE(baked.ok());
        const gltf::Asset output = mustLoad(test::wholeOutput(baked->asset), "out.glb");
        REQUIRE(output.clips.size() == input->clips.size());
        for (std::size_t a = 0; a < input->clips.size(); ++a) {
            const int root = baked->clips[a].analysis.root;
            const int rootGltf = root >= 0 ? input->rig.gltfIndex[root] : -1;
            for (const Channel& before : input->clips[a].channels) {
                const auto after =
                    std::find_if(output.clips[a].channels.begin(), output.clips[a].channels.end(),
                                 [&](const Channel& c) { return c.gltfChannel == before.gltfChannel; });
                REQUIRE(after != output.clips[a].channels.end());
                const int node = input->rig.gltfIndex[before.node];
                CHECK(output.rig.gltfIndex[after->node] == node);
                CHECK(after->path == before.path);
                if (node == rootGltf && !baked->clips[a].channels.empty()) {
                    ++rewritten;
                    continue;
                }
                CAPTURE(input->clips[a].name);
                CAPTURE(node);
                CHECK(after->interpolation == before.interpolation);
                CHECK(after->times == before.times);
                CHECK(after->values == before.values);
                ++kept;
            }
        }
        ++assets;
    }
    MESSAGE(assets << " corpus assets: " << kept << " channels kept to the bit, " << rewritten
                   << " root channels rewritten");
    CHECK(assets > 0);
    CHECK(kept > 0);
}

// ---- the executable -------------------------------------------------------------------

TEST_CASE("bake (executable): an asset rootbake baked is said to be, by its sidecar beside it") {
    TempDir dir("bake-again");
    writeBytes(dir.path / "biped.glb", samples::toGlb(samples::makeBiped()));
    REQUIRE(runExe("bake " + q(dir.path / "biped.glb") + " -o " + q(dir.path / "out" / "biped.glb")).code == 0);
    const test::SplitExit source = test::runExeSplit("inspect " + q(dir.path / "biped.glb"));
    CHECK(source.code == 0);
    CHECK_FALSE(test::contains(source.err, "baked by rootbake already"));
    const test::SplitExit baked = test::runExeSplit("inspect " + q(dir.path / "out" / "biped.glb"));
    CHECK(baked.code == 0);
    CHECK(test::contains(test::unwrapped(baked.err), "warning: " + (dir.path / "out" / "biped.glb").string() +
                                        ": baked by rootbake already (biped.rootmotion.json beside it says so): its "
                                        "clips are in place, and any travel is deduced from the feet"));
    // A sidecar of another tool beside it says nothing.
    writeText(dir.path / "out" / "biped.rootmotion.json", R"({"schema": "x", "generator": "other 1.0"})");
    CHECK_FALSE(test::contains(test::runExeSplit("inspect " + q(dir.path / "out" / "biped.glb")).err, "baked by"));
}

TEST_CASE("bake (executable): writes the asset and its sidecar, deterministically") {
    const samples::Biped biped = samples::makeBiped();
    TempDir dir("bake-exe");
    writeBytes(dir.path / "biped.glb", samples::toGlb(biped));
    fs::create_directories(dir.path / "a");
    fs::create_directories(dir.path / "b");
    for (const char* sub : {"a", "b"}) {
        const Exit e = runExe("bake " + q(dir.path / "biped.glb") + " -o " + q(dir.path / sub / "walk.glb"));
        INFO(e.output);
        REQUIRE(e.code == 0);
    }
    const auto a = listing(dir.path / "a");
    const auto b = listing(dir.path / "b");
    REQUIRE(a.size() == 2);  // walk.glb, walk.rootmotion.json
    CHECK(a[0].first == "walk.glb");
    CHECK(a[1].first == "walk.rootmotion.json");
    CHECK(a == b);  // byte-identical

    const Json sidecar = Json::parse(a[1].second.begin(), a[1].second.end());
    CHECK(sidecar["schema"] == "rootbake.sidecar/2");
    CHECK(sidecar["input"] == "biped.glb");
    CHECK(sidecar["output"] == "walk.glb");
    CHECK(sidecar["inputSha256"] ==
          io::sha256Hex(readBytes(dir.path / "biped.glb")));  // FIPS-checked in writer_test
    const Exit version = runExe("--version");
    CHECK(version.output.find(sidecar["generator"].get<std::string>()) != std::string::npos);

    // The same clip objects as inspect --json.
    const Exit inspect = runExe("inspect --json " + q(dir.path / "biped.glb"));
    REQUIRE(inspect.code == 0);
    const Json printed = Json::parse(inspect.output);
    CHECK(printed[0]["clips"].dump() == sidecar["clips"].dump());
}

TEST_CASE("bake (executable): --gltf writes a .bin under the output's name, --glb reads it back") {
    const samples::Biped biped = samples::makeBiped();
    TempDir dir("bake-containers");
    writeBytes(dir.path / "biped.glb", samples::toGlb(biped));
    Exit e = runExe("bake " + q(dir.path / "biped.glb") + " --gltf -o " + q(dir.path / "my walk.gltf"));
    INFO(e.output);
    REQUIRE(e.code == 0);
    CHECK(fs::is_regular_file(dir.path / "my walk.bin"));
    const std::vector<std::uint8_t> text = readBytes(dir.path / "my walk.gltf");
    const Json doc = Json::parse(text.begin(), text.end());
    CHECK(doc["buffers"][0]["uri"] == "my%20walk.bin");
    auto loaded = gltf::loadAsset(dir.path / "my walk.gltf");
    REQUIRE(loaded.ok());

    fs::create_directories(dir.path / "glb");
    e = runExe("bake " + q(dir.path / "my walk.gltf") + " --glb -o " + q(dir.path / "glb" / "again.glb"));
    INFO(e.output);
    REQUIRE(e.code == 0);
    auto again = gltf::loadAsset(dir.path / "glb" / "again.glb");
    REQUIRE(again.ok());
    CHECK(again->binary);
    CHECK(again->clips.size() == loaded->clips.size());
    CHECK(listing(dir.path / "glb").size() == 2);  // nothing beside the GLB but its sidecar
    // A flag that contradicts the output's extension is a usage error.
    e = runExe("bake " + q(dir.path / "biped.glb") + " --glb -o " + q(dir.path / "x.gltf"));
    CHECK(e.code == 1);
    CHECK_FALSE(fs::exists(dir.path / "x.gltf"));
}

TEST_CASE("bake (executable): refusals and failures leave the destination as it was") {
    const samples::Biped biped = samples::makeBiped();
    TempDir dir("bake-refusals");
    const fs::path input = dir.path / "biped.glb";
    writeBytes(input, samples::toGlb(biped));
    fs::create_directories(dir.path / "sub");
    fs::create_directories(dir.path / "sub.glb");
    fs::create_symlink(input, dir.path / "link.glb");
    writeBytes(dir.path / "plain.txt", std::vector<std::uint8_t>{'x'});
    writeBytes(dir.path / "exists.glb", std::vector<std::uint8_t>{'o', 'l', 'd'});

    const struct {
        std::string output, extra, message;
        int code;
    } table[] = {
        {input.string(), "", "is the input file", 1},
        {input.string(), "--force", "is the input file", 1},
        {(dir.path / "sub" / ".." / "biped.glb").string(), "--force", "is the input file", 1},
        {(dir.path / "link.glb").string(), "--force", "is the input file", 1},
        {(dir.path / "exists.glb").string(), "", "exists (pass --force", 3},
        {(dir.path / "plain.txt" / "out.glb").string(), "", "is not a folder", 3},
        {(dir.path / "sub").string(), "--force", "the output must end in .glb or .gltf", 1},
        {(dir.path / "sub.glb").string(), "--force", "is a folder", 3},
        {"/proc/rootbake-out.glb", "--force", "cannot write", 3},
    };
    for (const auto& row : table) {
        CAPTURE(row.output);
        const auto before = listing(dir.path);
        const Exit e = runExe("bake " + q(input) + " -o " + q(row.output) + " " + row.extra);
        CHECK(e.code == row.code);
        CHECK(e.output.find("rootbake: error: ") == 0);
        CHECK(e.output.find(row.message) != std::string::npos);
        CHECK(std::count(e.output.begin(), e.output.end(), '\n') == 1);  // one line
        CHECK(listing(dir.path) == before);
    }

    // A read-only folder (root writes anyway: then /proc above stands for it).
    if (::geteuid() != 0) {
        fs::permissions(dir.path / "sub", fs::perms::owner_read | fs::perms::owner_exec);
        const Exit e = runExe("bake " + q(input) + " -o " + q(dir.path / "sub" / "out.glb"));
        CHECK(e.code == 3);
        fs::permissions(dir.path / "sub", fs::perms::owner_all);
        CHECK(fs::is_empty(dir.path / "sub"));
    }

    // A bad input: exit 2, nothing written.
    writeBytes(dir.path / "bad.glb", std::vector<std::uint8_t>{'g', 'l', 'T', 'F', 2, 0, 0, 0});
    const auto before = listing(dir.path);
    const Exit bad = runExe("bake " + q(dir.path / "bad.glb") + " -o " + q(dir.path / "sub" / "out.glb"));
    CHECK(bad.code == 2);
    CHECK(listing(dir.path) == before);

    // Missing folders above -o are made, and removed again when the bake fails.
    const Exit failed = runExe("bake " + q(dir.path / "bad.glb") + " -o " + q(dir.path / "new" / "deeper" / "out.glb"));
    CHECK(failed.code == 2);
    CHECK_FALSE(fs::exists(dir.path / "new"));
    const Exit made = runExe("bake " + q(input) + " -o " + q(dir.path / "new" / "deeper" / "out.glb"));
    CHECK(made.code == 0);
    CHECK(gltf::loadAsset(dir.path / "new" / "deeper" / "out.glb").ok());

    // --force replaces an existing output.
    const Exit forced = runExe("bake " + q(input) + " -o " + q(dir.path / "exists.glb") + " --force");
    CHECK(forced.code == 0);
    CHECK(gltf::loadAsset(dir.path / "exists.glb").ok());
}

TEST_CASE("bake (executable): a .gltf with a .bin and images beside it") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    const fs::path source = shared / "corpus" / "threejs-botskinned-unlit";
    TempDir dir("bake-gltf-files");
    for (const auto& e : fs::directory_iterator(source))
        fs::copy_file(e.path(), dir.path / e.path().filename());
    fs::create_directories(dir.path / "out");

    Exit e = runExe("bake " + q(dir.path / "Bot_Skinned.gltf") + " -o " + q(dir.path / "out" / "bot.gltf"));
    INFO(e.output);
    REQUIRE(e.code == 0);
    // Nothing was rewritten here, so the .bin and images are copies under their own URIs.
    for (const char* name : {"buffer.bin", "AvatarBotA_Tex_Combined.png", "AvatarBotA_Head_Tex_Combined.png"})
        CHECK(readBytes(dir.path / "out" / name) == readBytes(source / name));
    CHECK(gltf::loadAsset(dir.path / "out" / "bot.gltf").ok());

    // Beside the input itself: the files it reads are already there, and are not touched; the
    // bake adds its .gltf and its sidecar, and nothing else.
    auto expected = listing(dir.path);
    e = runExe("bake " + q(dir.path / "Bot_Skinned.gltf") + " -o " + q(dir.path / "bot.gltf"));
    REQUIRE(e.code == 0);
    for (const char* added : {"bot.gltf", "bot.rootmotion.json"})
        expected.emplace_back(added, readBytes(dir.path / added));
    std::sort(expected.begin(), expected.end());
    CHECK(listing(dir.path) == expected);
    // An output named like a file the input reads is refused (the .bin by its name already),
    // and nothing is written.
    e = runExe("bake " + q(dir.path / "Bot_Skinned.gltf") + " --glb -o " + q(dir.path / "buffer.bin") +
               " --force");
    CHECK(e.code == 1);
    CHECK(e.output.find("the output must end in .glb or .gltf") != std::string::npos);
    CHECK(listing(dir.path) == expected);
    fs::copy_file(dir.path / "buffer.bin", dir.path / "buffer.glb");
    writeText(dir.path / "reads.gltf",
              std::regex_replace(readText(dir.path / "Bot_Skinned.gltf"), std::regex("buffer\\.bin"), "buffer.glb"));
    const auto beforeRefusal = listing(dir.path);
    e = runExe("bake " + q(dir.path / "reads.gltf") + " --glb -o " + q(dir.path / "buffer.glb") + " --force");
    CHECK(e.code == 1);
    CHECK(e.output.find("which the input reads") != std::string::npos);
    CHECK(listing(dir.path) == beforeRefusal);
    CHECK(readBytes(dir.path / "buffer.glb") == readBytes(source / "buffer.bin"));
}
