// Issue 18, first use without a surprise: what a new user meets through the built
// executable. Truth is the procedural biped's (samples/README.md), the corpus and the
// glTF spec.
#include "biped.h"
#include "support.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <cstring>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <string>

using namespace rootbake;
using namespace rootbake::test;  // the executable's runners, temp folders, files
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// The biped with its document edited (names taken out, clips reordered, ...).
std::vector<std::uint8_t> editedBiped(const std::function<void(Json&)>& edit) {
    samples::Biped biped = samples::makeBiped();
    Json doc = Json::parse(biped.json);
    edit(doc);
    biped.json = doc.dump();
    return samples::toGlb(biped);
}

// dir/walker.glb: the biped as it is.
fs::path writeBiped(const TempDir& dir) {
    const fs::path file = dir.path / "walker.glb";
    writeBytes(file, editedBiped([](Json&) {}));
    return file;
}

void eraseNames(Json& doc) {
    for (Json& a : doc["animations"]) a.erase("name");
    for (Json& n : doc["nodes"]) n.erase("name");
}

// The files named by "rootbake: error: FILE: ..." lines.
std::set<std::string> filesWithErrors(const std::string& err, const std::string& folder) {
    std::set<std::string> out;
    std::istringstream lines(err);
    for (std::string line; std::getline(lines, line);) {
        const std::string prefix = "rootbake: error: " + folder;
        if (line.rfind(prefix, 0) != 0) continue;
        const std::size_t end = line.find(": ", prefix.size());
        out.insert(line.substr(prefix.size(), end - prefix.size()));
    }
    return out;
}

}  // namespace

TEST_CASE("first use: unnamed clips and nodes are animations[N] and nodes[N], and check matches them by index") {
    TempDir dir("unnamed");
    const fs::path in = dir.path / "walker.glb";
    writeBytes(in, editedBiped(eraseNames));
    const fs::path out = dir.path / "out";

    const SplitExit baked = runExeSplit("bake " + q(in) + " --out-dir " + q(out));
    REQUIRE_MESSAGE(baked.code == 0, baked.err);
    const Json sidecar = Json::parse(readText(out / "walker.rootmotion.json"));
    REQUIRE(sidecar["clips"].size() == 7);
    for (std::size_t i = 0; i < 7; ++i) {
        const Json& clip = sidecar["clips"][i];
        CHECK(clip["name"] == "animations[" + std::to_string(i) + "]");
        if (!clip["rootNode"].is_null())
            CHECK(clip["rootNode"]["name"] == "nodes[" + std::to_string(clip["rootNode"]["index"].get<int>()) + "]");
        for (const Json& c : clip["contacts"])
            CHECK(c["node"]["name"] == "nodes[" + std::to_string(c["node"]["index"].get<int>()) + "]");
    }

    const SplitExit same = runExeSplit("check " + q(in) + " --against " + q(out));
    CHECK_MESSAGE(same.code == 0, same.err);
    CHECK(contains(same.out, "7 clips as in"));

    const SplitExit table = runExeSplit("inspect " + q(in));
    CHECK(contains(table.out, "  animations[0] "));
    CHECK(contains(table.out, "  animations[6] "));

    // walk (animations[0], root travel) and run_inplace (animations[2], from the feet) swap
    // places: matched by index, both are reported as changed, neither as new or gone.
    writeBytes(in, editedBiped([](Json& doc) {
        eraseNames(doc);
        std::swap(doc["animations"][0], doc["animations"][2]);
    }));
    const SplitExit swapped = runExeSplit("check " + q(in) + " --against " + q(out));
    CHECK(swapped.code == 4);
    CHECK(contains(swapped.err, "walker.glb: animations[0]: source root -> footContact"));
    CHECK(contains(swapped.err, "walker.glb: animations[2]: source footContact -> root"));
    CHECK_FALSE(contains(swapped.err, "gone"));
    CHECK_FALSE(contains(swapped.err, "new clip"));
    CHECK_FALSE(contains(swapped.err, ": : "));

    // --keep-source: the in-place copies are "animations[N] (in place)", and check and verify find them.
    writeBytes(in, editedBiped(eraseNames));
    const fs::path kept = dir.path / "kept";
    REQUIRE(runExeSplit("bake " + q(in) + " --keep-source --out-dir " + q(kept)).code == 0);
    const Json keptSidecar = Json::parse(readText(kept / "walker.rootmotion.json"));
    CHECK(keptSidecar["clips"][0]["name"] == "animations[0] (in place)");
    CHECK(runExeSplit("check " + q(in) + " --against " + q(kept)).code == 0);
    const SplitExit verified =
        runExeSplit("verify " + q(kept / "walker.glb") + " --sidecar " + q(kept / "walker.rootmotion.json"));
    CHECK_MESSAGE(verified.code == 0, verified.err);
}

TEST_CASE("first use: check passes right after bake on the whole corpus") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    TempDir dir("corpus-check");
    const fs::path corpus = shared / "corpus";
    const fs::path out = dir.path / "baked";
    // Every asset bake accepts passes; the ones it refuses (corpus/bad) fail check with the same error.
    const SplitExit baked = runExeSplit("bake " + q(corpus) + " -r -j 1 --out-dir " + q(out));
    CHECK(baked.code == 2);
    const SplitExit checked = runExeSplit("check " + q(corpus) + " -r -j 1 --against " + q(out));
    CHECK(checked.code == 2);
    CHECK_FALSE(contains(checked.err, "rootbake: changed:"));
    const std::set<std::string> refused = filesWithErrors(baked.err, corpus.string());
    CHECK(refused.size() > 10);
    // bake also refuses the second of two inputs that would write one sidecar (x.glb and
    // x.gltf in one folder), which check, writing nothing, takes.
    std::set<std::string> clashes;
    for (const std::string& file : refused)
        if (contains(baked.err, "rootbake: error: " + (corpus / file.substr(1)).string() + ": would write "))
            clashes.insert(file);
    std::set<std::string> checkRefused = filesWithErrors(checked.err, corpus.string());
    for (const std::string& file : clashes) checkRefused.insert(file);
    CHECK(checkRefused == refused);
    for (const std::string& file : refused) CHECK(file.rfind("/bad/", 0) == 0);

    // The good assets alone: exit 0.
    std::string good;
    for (const auto& entry : fs::directory_iterator(corpus))
        if (entry.is_directory() && entry.path().filename() != "bad") good += " " + q(entry.path());
    const fs::path goodOut = dir.path / "good";
    const SplitExit bakedGood = runExeSplit("bake" + good + " -r -j 1 --out-dir " + q(goodOut));
    REQUIRE_MESSAGE(bakedGood.code == 0, bakedGood.err);
    const SplitExit checkedGood = runExeSplit("check" + good + " -r -j 1 --against " + q(goodOut));
    CHECK_MESSAGE(checkedGood.code == 0, checkedGood.err);
    CHECK_FALSE(contains(checkedGood.out, ": : "));
}

TEST_CASE("first use: verify finds the sidecar beside the baked asset") {
    TempDir dir("verify-beside");
    const fs::path in = writeBiped(dir);
    REQUIRE(runExeSplit("bake " + q(in) + " -o " + q(dir.path / "out" / "w.glb")).code == 0);
    const SplitExit e = runExeSplit("verify " + q(dir.path / "out" / "w.glb"));
    CHECK_MESSAGE(e.code == 0, e.err);
    CHECK(contains(e.out, "ok: "));
    fs::remove(dir.path / "out" / "w.rootmotion.json");
    const SplitExit missing = runExeSplit("verify " + q(dir.path / "out" / "w.glb"));
    CHECK(missing.code == 2);
    CHECK(contains(missing.err, "w.rootmotion.json: file not found (give the sidecar with --sidecar)"));
}

TEST_CASE("first use: doubtful clips are one line on stderr, listed with -v") {
    TempDir dir("doubts");
    const fs::path in = writeBiped(dir);
    const fs::path out = dir.path / "out";

    // Nothing doubtful in the biped as it is.
    const SplitExit plain = runExeSplit("bake " + q(in) + " --out-dir " + q(out));
    CHECK(plain.code == 0);
    CHECK(plain.err.empty());

    // Kept as it moves, the walk is named like locomotion but does not travel.
    test::writeText(dir.path / "rootbake.json", R"({"clips": {"walk": {"source": "none"}}})");
    const SplitExit still = runExeSplit("bake " + q(in) + " --force --out-dir " + q(out));
    CHECK(still.code == 0);  // a warning, not a gate
    CHECK(still.err == "rootbake: 1 clip with warnings: -v to see them\n");
    const SplitExit listed = runExeSplit("bake " + q(in) + " --force -v --out-dir " + q(out));
    CHECK(contains(unwrapped(listed.err), "rootbake: warning: " + in.string() +
                                   ": animations[0] \"walk\": named like locomotion, but no travel was found"));
    CHECK_FALSE(contains(listed.err, "-v to see them"));
    CHECK(runExeSplit("inspect " + q(in)).err == "rootbake: 1 clip with warnings: -v to see them\n");
    CHECK(runExeSplit("bake " + q(in) + " --force -q --out-dir " + q(out)).err.empty());
    fs::remove(dir.path / "rootbake.json");

    // The hips scaled by 1/4: the character is 1.7 / 4 m tall at rest (samples/README.md)
    // and still walks 1.2 m per cycle, more than 2.5 heights; at 1/2 it is 0.85 m tall and
    // 1.2 m is under 2.5 heights.
    for (const double scale : {0.25, 0.5}) {
        CAPTURE(scale);
        writeBytes(in, editedBiped([&](Json& doc) { doc["nodes"][1]["scale"] = {scale, scale, scale}; }));
        const SplitExit e = runExeSplit("inspect " + q(in) + " -v --json");
        REQUIRE(e.code == 0);
        const Json walk = Json::parse(e.out)[0]["clips"][0];
        CHECK(walk["characterHeight"].get<double>() == doctest::Approx(1.7 * scale).epsilon(1e-4));
        CHECK(walk["strideLength"].get<double>() == doctest::Approx(1.2).epsilon(1e-6));
        CHECK(contains(unwrapped(e.err), "\"walk\": a stride of 1.2 m per cycle, more than 2.5 times the character height") ==
              (scale == 0.25));
    }
}

TEST_CASE("first use: the robot's in-place locomotion without travel is not silent") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    TempDir dir("robot");
    // Robot_WalkJump is named like locomotion and its hips do not travel (corpus MANIFEST: in place).
    const SplitExit e = runExeSplit("bake " + q(shared / "corpus" / "raylib-robot" / "robot.glb") + " -v -o " +
                                    q(dir.path / "robot.glb"));
    CHECK(e.code == 0);
    CHECK(contains(unwrapped(e.err), "animations[11] \"Robot_WalkJump\": named like locomotion, but no travel was found"));
}

TEST_CASE("first use: -o takes only a .glb or .gltf name") {
    TempDir dir("output-name");
    const fs::path in = writeBiped(dir);
    // "-out" is "-o ut"; "z.fbx" would get a GLB under a name that says otherwise.
    for (const std::string& args : {std::string(" -out"), " -o " + q(dir.path / "z.fbx"), " -o " + q(dir.path / "walk")}) {
        CAPTURE(args);
        const SplitExit e = runExeSplit("bake " + q(in) + args);
        CHECK(e.code == 1);
        CHECK(contains(e.err, "the output must end in .glb or .gltf"));
        CHECK(std::count(e.err.begin(), e.err.end(), '\n') == 1);
    }
    CHECK_FALSE(fs::exists("ut"));
    CHECK_FALSE(fs::exists(dir.path / "z.fbx"));
    CHECK_FALSE(fs::exists(dir.path / "walk"));
    CHECK(runExeSplit("bake " + q(in) + " -o " + q(dir.path / "w.GLB")).code == 0);
}

TEST_CASE("first use: an unknown command or option names the nearest known one") {
    const struct {
        std::string args, message;
    } table[] = {
        {"bak x.glb", "rootbake: error: unknown command 'bak'; did you mean bake?"},
        {"inpsect x.glb", "rootbake: error: unknown command 'inpsect'; did you mean inspect?"},
        {"frobnicate", "rootbake: error: unknown command 'frobnicate' (rootbake --help lists the commands)"},
        {"bake x.glb --output-dir y", "rootbake: error: unknown option '--output-dir'; did you mean --out-dir?"},
        {"check x.glb --againts y", "rootbake: error: unknown option '--againts'; did you mean --against?"},
        {"inspect x.glb --verbos", "rootbake: error: unknown option '--verbos'; did you mean --verbose?"},
    };
    for (const auto& row : table) {
        CAPTURE(row.args);
        const SplitExit e = runExeSplit(row.args);
        CHECK(e.code == 1);
        CHECK(contains(e.err, row.message));
        CHECK(std::count(e.err.begin(), e.err.end(), '\n') == 1);
    }
}

TEST_CASE("first use: no signed zeros in the sidecar") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    TempDir dir("signed-zero");
    // The soldier's clips travel along -Z: their direction was printed [-0.0, -0.0, -1.0].
    REQUIRE(runExeSplit("bake " + q(shared / "corpus" / "threejs-soldier" / "Soldier.glb") + " -o " +
                        q(dir.path / "s.glb")).code == 0);
    const std::string text = readText(dir.path / "s.rootmotion.json");
    CHECK_FALSE(std::regex_search(text, std::regex(R"(-0\.0[^0-9])")));
    const Json sidecar = Json::parse(text);
    bool minusZ = false;
    for (const Json& c : sidecar["clips"]) minusZ |= c["travelDirection"][2] == -1.0;
    CHECK(minusZ);
}

namespace {

// A node walking along +Z with the given key times (x = 0, z = the key's index), as a .gltf
// with its buffer in a data: URI; `image`: an image file the asset names.
std::string tinyWalk(const std::vector<float>& times, const std::string& image = "") {
    std::vector<float> floats = times;
    for (std::size_t k = 0; k < times.size(); ++k) floats.insert(floats.end(), {0.0f, 1.0f, float(k)});
    std::vector<std::uint8_t> bytes(floats.size() * 4);
    std::memcpy(bytes.data(), floats.data(), bytes.size());
    const std::size_t n = times.size();
    Json doc = {{"asset", {{"version", "2.0"}}},
                {"scenes", {{{"nodes", {0}}}}},
                {"nodes", {{{"name", "root"}, {"children", {1}}}, {{"name", "hips"}, {"children", {2}}}, {{"name", "foot"}, {"translation", {0, -1, 0}}}}},
                {"buffers", {{{"byteLength", bytes.size()}, {"uri", "data:application/octet-stream;base64," + test::base64(bytes)}}}},
                {"bufferViews", {{{"buffer", 0}, {"byteLength", n * 4}}, {{"buffer", 0}, {"byteOffset", n * 4}, {"byteLength", n * 12}}}},
                {"accessors", {{{"bufferView", 0}, {"componentType", 5126}, {"count", n}, {"type", "SCALAR"}},
                               {{"bufferView", 1}, {"componentType", 5126}, {"count", n}, {"type", "VEC3"}}}},
                {"animations", {{{"name", "walk"},
                                 {"samplers", {{{"input", 0}, {"output", 1}}}},
                                 {"channels", {{{"sampler", 0}, {"target", {{"node", 1}, {"path", "translation"}}}}}}}}}};
    if (!image.empty()) doc["images"] = {{{"uri", image}}};
    return doc.dump();
}

}  // namespace

TEST_CASE("first use: equal consecutive key times are a warning, decreasing ones an error") {
    TempDir dir("repeated-times");
    const fs::path repeated = dir.path / "repeated.gltf";
    test::writeText(repeated, tinyWalk({0.0f, 0.5f, 0.5f, 1.0f}));
    for (const std::string command : {"inspect", "info", "check"}) {
        CAPTURE(command);
        const SplitExit e = runExeSplit(command + " " + q(repeated) + (command == "check" ? " --against " + q(dir.path) : ""));
        CHECK(e.code == (command == "check" ? 2 : 0));  // check: nothing committed to compare with
        CHECK(contains(unwrapped(e.err), "rootbake: warning: " + repeated.string() +
                                  ": animations[0].samplers[0].input: accessors[0] key 2: time 0.5 repeats the "
                                  "previous key's: played as a step to the later key\n"));
    }
    const SplitExit baked = runExeSplit("bake " + q(repeated) + " -o " + q(dir.path / "out.gltf"));
    CHECK_MESSAGE(baked.code == 0, baked.err);
    CHECK(contains(baked.err, "repeats the previous key's"));
    CHECK(runExeSplit("bake " + q(repeated) + " -q -o " + q(dir.path / "q.gltf")).err.empty());

    const fs::path decreasing = dir.path / "decreasing.gltf";
    test::writeText(decreasing, tinyWalk({0.0f, 0.5f, 0.25f, 1.0f}));
    const SplitExit refused = runExeSplit("inspect " + q(decreasing));
    CHECK(refused.code == 2);
    CHECK(contains(refused.err, "decreasing.gltf: animations[0].samplers[0].input: accessors[0] key 2: time 0.25 is "
                                "not after the previous key's 0.5 (times must not decrease)"));
}

TEST_CASE("first use: a missing image blocks only bake, which says why it needs it") {
    TempDir dir("missing-image");
    const fs::path in = dir.path / "textured.gltf";
    test::writeText(in, tinyWalk({0.0f, 1.0f}, "skin.png"));
    const std::string warning = "rootbake: warning: " + in.string() +
                                ": images[0].uri: file 'skin.png' not found (only bake needs it, to copy or embed it)\n";
    for (const std::string command : {"inspect", "info"}) {
        CAPTURE(command);
        const SplitExit e = runExeSplit(command + " " + q(in));
        CHECK(e.code == 0);
        CHECK(unwrapped(e.err) == warning);
    }
    const SplitExit report = runExeSplit("report " + q(in) + " -o " + q(dir.path / "r.html"));
    CHECK(report.code == 0);
    CHECK(contains(unwrapped(report.err), warning));
    const fs::path out = dir.path / "out";
    const SplitExit committed = runExeSplit("bake " + q(in) + " --out-dir " + q(out));
    CHECK(committed.code == 2);
    CHECK(committed.err == "rootbake: error: " + in.string() +
                               ": images[0].uri: file 'skin.png' not found: bake copies or embeds every image the "
                               "asset uses, so it needs it\n");
    CHECK_FALSE(fs::exists(out));
    // check compares with a committed sidecar: it needs no image either.
    test::writeText(dir.path / "skin.png", "png");
    REQUIRE(runExeSplit("bake " + q(in) + " --out-dir " + q(out)).code == 0);
    fs::remove(dir.path / "skin.png");
    const SplitExit checked = runExeSplit("check " + q(in) + " --against " + q(out));
    CHECK_MESSAGE(checked.code == 0, checked.err);
    CHECK(contains(unwrapped(checked.err), warning));
}

TEST_CASE("first use: --limit maxAssetNodeSamples holds for inspect, check and report as for bake") {
    TempDir dir("budget");
    const fs::path in = writeBiped(dir);
    REQUIRE(runExeSplit("bake " + q(in) + " --out-dir " + q(dir.path / "out")).code == 0);
    // The walk alone, 1 s at 60 samples per second: (60 + 1) x 26 nodes = 1586 node positions.
    const std::string limit = " --limit maxAssetNodeSamples=1000";
    for (const std::string& command : {"bake " + q(in) + " -o " + q(dir.path / "b.glb"), "inspect " + q(in),
                                       "check " + q(in) + " --against " + q(dir.path / "out"),
                                       "report " + q(in) + " -o " + q(dir.path / "r.html")}) {
        CAPTURE(command);
        const SplitExit e = runExeSplit(command + limit);
        CHECK(e.code == 2);
        CHECK(contains(e.err, "animations[0] \"walk\": the clip needs 1.59e+03 analysis node positions"));
        CHECK(contains(e.err, "more than maxAssetNodeSamples (1000); raise it with --limit maxAssetNodeSamples=N"));
    }
    CHECK_FALSE(fs::exists(dir.path / "b.glb"));
    CHECK_FALSE(fs::exists(dir.path / "r.html"));
    CHECK(runExeSplit("inspect " + q(in) + " --limit maxAssetNodeSamples=100000").code == 0);
}

TEST_CASE("first use: every loop.* key the README names is a key of the sidecar") {
    TempDir dir("readme-keys");
    const fs::path in = writeBiped(dir);
    REQUIRE(runExeSplit("bake " + q(in) + " -o " + q(dir.path / "w.glb")).code == 0);
    const Json loop = Json::parse(readText(dir.path / "w.rootmotion.json"))["clips"][0]["loop"];
    int named = 0;
    for (const char* doc : {"README.md", "docs/sidecar.md"}) {
        const std::string text = readText(fs::path(ROOTBAKE_SOURCE_DIR) / doc);
        const std::regex key(R"(`loop\.([A-Za-z]+)`)");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), key); it != std::sregex_iterator(); ++it, ++named) {
            CAPTURE(doc);
            CAPTURE((*it)[1].str());
            CHECK(loop.contains((*it)[1].str()));
        }
    }
    CHECK(named >= 5);
}

TEST_CASE("first use: cmake --install puts the executable, runtime.h and the CMake module under a prefix") {
    TempDir dir("install");
    const fs::path build = fs::path(ROOTBAKE_EXE).parent_path();
    std::string output;
    REQUIRE(test::runShell("cmake --install " + q(build) + " --prefix " + q(dir.path) + " 2>&1", output) == 0);
    const fs::path source = ROOTBAKE_SOURCE_DIR;
    CHECK(test::readBytes(dir.path / "include" / "rootbake" / "runtime.h") ==
          test::readBytes(source / "include" / "rootbake" / "runtime.h"));
    CHECK(test::readBytes(dir.path / "lib" / "cmake" / "rootbake" / "RootbakeBake.cmake") ==
          test::readBytes(source / "cmake" / "RootbakeBake.cmake"));
    std::string version;
    CHECK(test::runShell(q(dir.path / "bin" / "rootbake") + " --version", version) == 0);
    CHECK(version.rfind("rootbake ", 0) == 0);
}

TEST_CASE("first use: info lists every node, skin and clip, with the names --root and --contacts take") {
    TempDir dir("info");
    const fs::path in = writeBiped(dir);
    const Json doc = Json::parse(samples::makeBiped().json);
    const SplitExit e = runExeSplit("info " + q(in) + " --json");
    REQUIRE(e.code == 0);
    const Json info = Json::parse(e.out)[0];
    // Against the document itself: parents from the children arrays, joints from the skins.
    REQUIRE(info["nodes"].size() == doc["nodes"].size());
    std::vector<Json> parent(doc["nodes"].size(), nullptr);
    std::vector<bool> joint(doc["nodes"].size(), false);
    for (std::size_t i = 0; i < doc["nodes"].size(); ++i)
        for (const Json& child : doc["nodes"][i].value("children", Json::array())) parent[child.get<std::size_t>()] = i;
    for (const Json& skin : doc["skins"])
        for (const Json& j : skin["joints"]) joint[j.get<std::size_t>()] = true;
    for (std::size_t i = 0; i < doc["nodes"].size(); ++i) {
        CAPTURE(i);
        const Json& n = info["nodes"][i];
        CHECK(n["index"] == i);
        CHECK(n["name"] == doc["nodes"][i]["name"]);
        CHECK(n["parent"] == parent[i]);
        CHECK(n["joint"] == joint[i]);
        CHECK(n["mesh"] == doc["nodes"][i].contains("mesh"));
    }
    REQUIRE(info["skins"].size() == doc["skins"].size());
    CHECK(info["skins"][0]["joints"] == doc["skins"][0]["joints"]);
    CHECK(info["clips"].size() == doc["animations"].size());

    const SplitExit text = runExeSplit("info " + q(in));
    CHECK(contains(text.out, "  node  name "));  // a header row
    CHECK(contains(text.out, "  1     Hips "));
}

TEST_CASE("first use: info and inspect agree on a clip's duration, 0 to its last key") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    // Xbot's sad_pose has keys from 1/30 s to 2/30 s: the clip lasts 0.067 s (corpus MANIFEST:
    // duration = max sampler input), not 0.033 s from first to last key.
    const fs::path xbot = shared / "corpus" / "threejs-xbot" / "Xbot.glb";
    const Json info = Json::parse(runExeSplit("info " + q(xbot) + " --json").out)[0]["clips"];
    const Json inspect = Json::parse(runExeSplit("inspect " + q(xbot) + " --json").out)[0]["clips"];
    REQUIRE(info.size() == inspect.size());
    for (std::size_t i = 0; i < info.size(); ++i) {
        CAPTURE(info[i]["name"]);
        CHECK(info[i]["duration"].get<double>() == doctest::Approx(inspect[i]["duration"].get<double>()).epsilon(1e-9));
    }
    CHECK(info[4]["name"] == "sad_pose");
    CHECK(info[4]["duration"].get<double>() == doctest::Approx(0.067).epsilon(0.01));
}

TEST_CASE(
    "first use: tables have a header row and sized columns, reasons with -v, verify within 100 columns") {
    TempDir dir("tables");
    const fs::path in = dir.path / "walker.glb";
    // A clip name of 60 characters: the columns follow it, verify cuts it.
    const std::string longName(60, 'w');
    writeBytes(in, editedBiped([&](Json& doc) { doc["animations"][6]["name"] = longName; }));
    const SplitExit inspect = runExeSplit("inspect " + q(in));
    REQUIRE(inspect.code == 0);
    std::istringstream lines(inspect.out);
    std::string line;
    std::getline(lines, line);  // the file
    std::getline(lines, line);
    CHECK(line.rfind("  clip" + std::string(longName.size() - 4 + 2, ' ') + "source", 0) == 0);
    std::getline(lines, line);
    CHECK(line.rfind("  walk" + std::string(longName.size() - 4 + 2, ' ') + "root ", 0) == 0);
    CHECK_FALSE(contains(inspect.out, "net travel"));  // the reasons
    CHECK(contains(runExeSplit("inspect " + q(in) + " -v").out, "      reason: root: Hips"));

    REQUIRE(runExeSplit("bake " + q(in) + " -o " + q(dir.path / "w.glb")).code == 0);
    const SplitExit verify = runExeSplit("verify " + q(dir.path / "w.glb") + " --source " + q(in));
    CHECK(verify.code == 0);
    std::istringstream table(verify.out);
    int rows = 0;
    for (; std::getline(table, line); ++rows) {
        CAPTURE(line);
        CHECK(line.size() <= 100);
    }
    CHECK(rows >= 10);
    CHECK(contains(verify.out, "  clip "));
    CHECK(contains(verify.out,
                   "  " + std::string(12, 'w') + "..." + std::string(13, 'w') + "  "));  // its middle cut
}

TEST_CASE("first use: a batch's summary in a pipe too, its progress line within the terminal, Ctrl-C said") {
    TempDir dir("batch");
    const fs::path art = dir.path / "a folder with a rather long name for the progress line";
    fs::create_directories(art);
    const std::vector<std::uint8_t> biped = editedBiped([](Json&) {});
    for (int i = 0; i < 40; ++i) writeBytes(art / ("walker" + std::to_string(100 + i) + ".glb"), biped);

    // In a pipe, with CI set: the summary still ends the run, on stderr.
    const SplitExit piped = runExeSplit("bake " + q(art) + " --out-dir " + q(dir.path / "piped"), "CI=1 ");
    CHECK(piped.code == 0);
    CHECK(contains(piped.err, "rootbake: 40 assets: 40 baked, 0 failed a gate, 0 not baked\n"));
    CHECK_FALSE(contains(piped.out, "40 assets"));

    // On a terminal 30 columns wide (script(1) gives it a pty): every progress line fits in 29.
    std::string ignored;
    if (test::runShell("command -v script >/dev/null", ignored) == 0) {
        std::string screen;
        test::writeText(dir.path / "tty.sh", "\"" + std::string(ROOTBAKE_EXE) + "\" bake " + q(art) + " -j 1 --out-dir " +
                                                 q(dir.path / "tty") + " >/dev/null\n");
        test::runShell("env -u CI COLUMNS=30 script -qec " + q("bash " + (dir.path / "tty.sh").string()) + " /dev/null",
                       screen);
        std::size_t progressLines = 0;
        for (std::size_t at = screen.find("\r\033[K["); at != std::string::npos; at = screen.find("\r\033[K[", at + 1)) {
            const std::size_t end = screen.find('\r', at + 1);
            const std::string line = screen.substr(at + 4, end - at - 4);
            CAPTURE(line);
            CHECK(line.size() <= 29);
            ++progressLines;
        }
        CHECK(progressLines > 10);
        CHECK(contains(screen, "rootbake: 40 assets: 40 baked"));
    }

    // SIGINT once the first output is written: "rootbake: interrupted", death by the signal, no litter.
    const fs::path out = dir.path / "interrupted";
    std::string said;
    // set -m: a background job of a script otherwise starts with SIGINT ignored.
    const std::string script = "set -m; \"" + std::string(ROOTBAKE_EXE) + "\" bake " + q(art) + " -j 1 --out-dir " + q(out) +
                               " >/dev/null 2>" + q(dir.path / "err") + " & pid=$!; " +
                               "for i in $(seq 1000); do [ -e " + q(out / "walker100.glb") + " ] && break; sleep 0.01; done; " +
                               "kill -INT $pid; wait $pid; echo $?";
    test::writeText(dir.path / "interrupt.sh", script);
    test::runShell("bash " + q(dir.path / "interrupt.sh"), said);
    CHECK(said == "130\n");  // 128 + SIGINT
    CHECK(readText(dir.path / "err").find("rootbake: interrupted\n") != std::string::npos);
    REQUIRE(fs::is_directory(out));
    for (const auto& entry : fs::recursive_directory_iterator(out)) {
        CAPTURE(entry.path());
        CHECK(entry.path().extension() != ".tmp");
        CHECK(entry.path().extension() != ".bak");
    }
}

TEST_CASE("first use: a rootbake.json glob that matches no clip is a warning naming it") {
    TempDir dir("glob");
    const fs::path art = dir.path / "art";
    fs::create_directories(art / "more");
    const std::vector<std::uint8_t> biped = editedBiped([](Json&) {});
    writeBytes(art / "a.glb", biped);
    writeBytes(art / "more" / "b.glb", biped);
    test::writeText(art / "rootbake.json", R"({"clips": {"strafe*": {"extractLateralMotion": true}, "wlak": {"source": "none"}}})");
    const std::string warning = "rootbake.json: clips[\"wlak\"]: the glob matches no clip of the 2 assets it applies to\n";
    for (const std::string& command : {"inspect " + q(art) + " -r", "check " + q(art) + " -r --against " + q(dir.path),
                                       "bake " + q(art) + " -r --out-dir " + q(dir.path / "out")}) {
        CAPTURE(command);
        const SplitExit e = runExeSplit(command);
        CHECK(contains(e.err, warning));
        CHECK_FALSE(contains(e.err, "strafe*"));  // the biped has a strafe
        CHECK(e.err.find("wlak") == e.err.rfind("wlak"));  // once for the run, not per asset
    }
    CHECK(runExeSplit("inspect " + q(art) + " -r -q").err.empty());
}
