// The command line as pipelines and CI use it, through the built executable: each
// command, batches and -j, the config file and its errors, the --fail-on gates,
// check against committed sidecars, --json, --quiet, --depfile, --limit, help.
// Numbers come from the procedural biped's closed-form truth (samples/README.md).
#include "biped.h"
#include "support.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

using namespace rootbake;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using test::contains;
using test::listing;
using test::q;
using test::readText;
using test::runExeSplit;
using test::SplitExit;
using test::TempDir;
using test::writeBytes;
using test::writeText;
using test::unwrapped;

namespace {

std::size_t lines(const std::string& text) { return std::size_t(std::count(text.begin(), text.end(), '\n')); }

// Lines of stderr that report failed gates.
std::size_t gateLines(const std::string& err) {
    std::size_t n = 0;
    for (std::size_t at = err.find("rootbake: failed: "); at != std::string::npos; at = err.find("rootbake: failed: ", at + 1))
        ++n;
    return n;
}

// assets/walker.glb, assets/chars/runner.gltf (+ runner.bin), assets/chars/deep/slow.glb
// (every clip 1.25 times slower), and assets/notes.txt, which no walk picks up.
struct Assets {
    TempDir dir{"cli"};
    fs::path root = dir.path / "assets";
    Assets() {
        fs::create_directories(root / "chars" / "deep");
        const samples::Biped biped = samples::makeBiped();
        writeBytes(root / "walker.glb", samples::toGlb(biped));
        writeText(root / "chars" / "runner.gltf", samples::toGltfWithBin(biped, "runner.bin"));
        writeBytes(root / "chars" / "runner.bin", biped.bin);
        samples::BipedOptions slower;
        slower.durationScale = 1.25;
        writeBytes(root / "chars" / "deep" / "slow.glb", samples::toGlb(samples::makeBiped(slower)));
        writeText(root / "notes.txt", "not an asset");
    }
};

const Json& clipNamed(const Json& clips, const std::string& name) {
    for (const Json& c : clips)
        if (c["name"] == name) return c;
    FAIL("no clip " << name);
    static const Json none;
    return none;
}

}  // namespace

TEST_CASE("cli: --help of rootbake and of each command fits one screen and shows an example") {
    for (const char* command : {"", "bake ", "inspect ", "check ", "info ", "report ", "verify "}) {
        CAPTURE(command);
        const SplitExit e = runExeSplit(std::string(command) + "--help");
        CHECK(e.code == 0);
        CHECK(lines(e.out) <= 48);
        CHECK(contains(e.out, "Example:"));
    }
    const SplitExit version = runExeSplit("--version");
    CHECK(version.code == 0);
    CHECK(version.out.rfind("rootbake ", 0) == 0);
}

TEST_CASE("cli: usage errors are exit 1 with one line naming the option") {
    Assets a;
    const std::string walker = q(a.root / "walker.glb");
    const struct {
        std::string args, message;
        int code;
    } table[] = {
        {"bake " + walker, "give -o OUT (one input) or --out-dir DIR", 1},
        {"bake " + walker + " -o x.glb --out-dir out", "-o and --out-dir exclude each other", 1},
        {"bake " + walker + " --glb --gltf --out-dir " + q(a.dir.path / "o"), "--glb and --gltf exclude", 1},
        {"bake " + q(a.root) + " -r -o x.glb", "-o names one output, for 3 inputs: use --out-dir DIR", 1},
        {"inspect " + walker + " --fail-on no-motion,slow", "\"slow\" is not a gate", 1},
        {"inspect " + walker + " --fail-on loop-gap=x", "expected loop-gap=F", 1},
        {"inspect " + walker + " --limit maxFoo=3", "--limit maxFoo=3: no such limit (maxFileBytes,", 1},
        {"inspect " + walker + " --limit maxNodes=-2", "expected maxNodes=N", 1},
        {"inspect " + walker + " --source sideways", "expected auto, root, footContact or none", 1},
        {"inspect " + walker + " --min-travel -1", "must be between 0 and", 1},
        {"inspect " + walker + " --up-axis 0,0,0", "expected +X, -Y, +Z", 1},
        {"check " + walker + " " + walker + " --against " + q(a.root / "x.rootmotion.json"),
         "a sidecar file is for one input", 1},
        {"check " + walker + " --against " + q(a.root) + " --tolerance -1", "--tolerance: expected a fraction", 1},
        {"inspect " + q(a.root / "missing.glb"), "missing.glb: no such file or folder", 2},
        {"inspect " + q(a.root / "chars" / "deep" / "..") + " --json", "", 0},
    };
    for (const auto& row : table) {
        CAPTURE(row.args);
        const auto before = listing(a.dir.path);
        const SplitExit e = runExeSplit(row.args);
        CHECK(e.code == row.code);
        if (row.code != 0) {
            CHECK(contains(e.err, row.message));
            CHECK(e.err.find("rootbake: error: ") == 0);
        }
        CHECK(listing(a.dir.path) == before);  // nothing written
    }
}

TEST_CASE("cli: bake of folders keeps the layout under --out-dir, -j 1 and -j 4 give the same bytes") {
    Assets a;
    const SplitExit one = runExeSplit("bake " + q(a.root) + " -r --out-dir " + q(a.dir.path / "j1") + " -j 1");
    REQUIRE_MESSAGE(one.code == 0, one.err);
    const SplitExit four = runExeSplit("bake " + q(a.root) + " -r --out-dir " + q(a.dir.path / "j4") + " -j 4");
    REQUIRE_MESSAGE(four.code == 0, four.err);

    const auto j1 = listing(a.dir.path / "j1");
    std::vector<std::string> names;
    for (const auto& [name, bytes] : j1) names.push_back(name);
    CHECK(names == std::vector<std::string>{"chars", "chars/deep", "chars/deep/slow.glb", "chars/deep/slow.rootmotion.json",
                                            "chars/runner.bin", "chars/runner.gltf", "chars/runner.rootmotion.json",
                                            "walker.glb", "walker.rootmotion.json"});
    CHECK(j1 == listing(a.dir.path / "j4"));
    // The same lines in the same (input) order, but for the output folder's name.
    std::string four1 = four.out;
    for (std::size_t at; (at = four1.find("/j4/")) != std::string::npos;) four1.replace(at, 4, "/j1/");
    CHECK(four1 == one.out);
    CHECK(lines(one.out) == 3);
    CHECK(one.err == "rootbake: 3 assets: 3 baked, 0 failed a gate, 0 not baked\n");  // the batch's summary

    // Without -r a folder gives its own files only.
    const SplitExit flat = runExeSplit("bake " + q(a.root) + " --out-dir " + q(a.dir.path / "flat"));
    CHECK(flat.code == 0);
    CHECK(listing(a.dir.path / "flat").size() == 2);

    // A second run over the out-dir is refused per file (no --force), nothing changes.
    const auto before = listing(a.dir.path / "j1");
    const SplitExit again = runExeSplit("bake " + q(a.root) + " -r --out-dir " + q(a.dir.path / "j1") + " -j 2");
    CHECK(again.code == 3);
    CHECK(lines(again.err) == 4);  // and the summary
    CHECK(contains(again.err, "exists (pass --force"));
    CHECK(contains(again.err, "rootbake: 3 assets: 0 baked, 0 failed a gate, 3 not baked\n"));
    CHECK(listing(a.dir.path / "j1") == before);
}

TEST_CASE("cli: of two inputs that would write one sidecar (walker.glb, walker.gltf), the second is not baked") {
    Assets a;
    const samples::Biped biped = samples::makeBiped();
    writeText(a.root / "walker.gltf", samples::toGltfWithBin(biped, "walker.bin"));
    writeBytes(a.root / "walker.bin", biped.bin);
    const fs::path out = a.dir.path / "out";
    for (const char* jobs : {"1", "2"}) {  // the same files whatever the timing
        fs::remove_all(out);
        const SplitExit e = runExeSplit("bake " + q(a.root) + " --out-dir " + q(out) + " -j " + jobs);
        CHECK(e.code == 2);  // bad input, the others baked
        CHECK(contains(e.err, "walker.gltf: would write " + (out / "walker.rootmotion.json").string() + ", which "));
        CHECK(contains(e.err, "walker.glb writes too; bake them into different --out-dir folders\n"));
        CHECK(contains(e.err, "rootbake: 2 assets: 1 baked, 0 failed a gate, 1 not baked\n"));
        CHECK(fs::exists(out / "walker.glb"));
        CHECK_FALSE(fs::exists(out / "walker.gltf"));
        const Json sidecar = Json::parse(readText(out / "walker.rootmotion.json"));
        CHECK(sidecar["input"] == "walker.glb");
    }
}

TEST_CASE("cli: a bad asset in a batch fails alone, the exit status and the lines do not depend on -j") {
    Assets a;
    writeBytes(a.root / "chars" / "broken.glb", std::vector<std::uint8_t>{'g', 'l', 'T', 'F', 2, 0, 0, 0});
    SplitExit runs[2];
    int jobs[2] = {1, 4};
    for (int i = 0; i < 2; ++i)
        runs[i] = runExeSplit("bake " + q(a.root) + " -r --out-dir " + q(a.dir.path / "out") + " --force -j " +
                              std::to_string(jobs[i]));
    for (const SplitExit& e : runs) {
        CHECK(e.code == 2);
        CHECK(lines(e.err) == 2);
        CHECK(contains(e.err, "broken.glb"));
        CHECK(contains(e.err, "rootbake: 4 assets: 3 baked, 0 failed a gate, 1 not baked\n"));
        CHECK(lines(e.out) == 3);
    }
    CHECK(runs[0].out == runs[1].out);
    CHECK(runs[0].err == runs[1].err);
    CHECK_FALSE(fs::exists(a.dir.path / "out" / "chars" / "broken.glb"));
    CHECK(fs::exists(a.dir.path / "out" / "chars" / "runner.gltf"));
}

TEST_CASE("cli: rootbake.json beside the input or above it sets clips by glob, the command line wins") {
    Assets a;
    // The issue's example, plus a walk kept as it is.
    writeText(a.root / "rootbake.json", R"({"defaults": {"upAxis": "+Y"},
        "clips": {"strafe*": {"extractLateralMotion": true}, "turn_*": {"extractRotation": false},
                  "idle*": {"source": "none"}, "walk": {"source": "none"}}})");
    auto inspectJson = [](const std::string& args) {
        const SplitExit e = runExeSplit("inspect " + args + " --json");
        REQUIRE_MESSAGE(e.code == 0, e.err);
        return Json::parse(e.out);
    };
    // Found for a file two folders below.
    const Json found = inspectJson(q(a.root / "chars" / "deep" / "slow.glb"));
    const Json& clips = found[0]["clips"];
    CHECK(clipNamed(clips, "walk")["source"] == "none");
    CHECK(clipNamed(clips, "walk_inplace")["source"] == "footContact");  // "walk" is not a glob for it
    CHECK(clipNamed(clips, "turn_walk")["extractsRotation"] == false);
    CHECK(clipNamed(clips, "turn_spot")["source"] == "none");  // a turn on the spot without its turn is nothing
    CHECK(clipNamed(clips, "idle")["source"] == "none");
    CHECK(clipNamed(clips, "strafe")["strideLength"].get<double>() == doctest::Approx(0.5));

    // The command line overrides the file; --config replaces the search.
    const Json overridden = inspectJson(q(a.root / "walker.glb") + " --source auto --extract-rotation auto");
    CHECK(clipNamed(overridden[0]["clips"], "walk")["source"] == "root");
    CHECK(clipNamed(overridden[0]["clips"], "turn_walk")["extractsRotation"] == true);
    writeText(a.dir.path / "other.json", R"({"clips": {"*": {"minimumTravel": 100}}})");
    const Json other = inspectJson(q(a.root / "walker.glb") + " --config " + q(a.dir.path / "other.json"));
    CHECK(clipNamed(other[0]["clips"], "walk")["source"] == "none");          // 100 heights of travel needed
    CHECK(clipNamed(other[0]["clips"], "turn_walk")["source"] == "root");     // a turn: still extracted
}

TEST_CASE("cli: config errors name the file and the JSON path, with a suggestion") {
    Assets a;
    const fs::path config = a.root / "rootbake.json";
    const struct {
        const char* text;
        const char* message;
    } table[] = {
        {R"({"clips": {"strafe*": {"lateral": true}}})",
         "rootbake.json: clips[\"strafe*\"].lateral: unknown key; did you mean extractLateralMotion?"},
        {R"({"default": {}})", "rootbake.json: default: unknown key; did you mean defaults?"},
        {R"({"defaults": {"minimumTravel": "far"}})", "rootbake.json: defaults.minimumTravel: expected a number"},
        {R"({"defaults": {"samplesPerSecond": 0}})", "defaults.samplesPerSecond: must be between 1 and 10000"},
        {R"({"clips": {"idle": {"source": "nowhere"}}})",
         "clips[\"idle\"].source: expected \"auto\", \"root\", \"footContact\" or \"none\""},
        {R"({"clips": {"idle": {"extractRotation": "yes"}}})",
         "clips[\"idle\"].extractRotation: expected true, false, \"auto\", \"on\" or \"off\""},
        {R"({"defaults": {"directionSnapAngle": 91}})", "defaults.directionSnapAngle: must be between 0 and 90"},
        {R"({"clips": {"x*": {"upAxis": "+Z"}}})", "clips[\"x*\"].upAxis: the up axis is the asset's"},
        {R"({"clips": {"x*": {"contactNodes": ["LeftToe", 3]}}})", "clips[\"x*\"].contactNodes[1]: expected a string"},
        {R"({"defaults": )", "rootbake.json: not JSON"},
    };
    for (const auto& row : table) {
        CAPTURE(row.text);
        writeText(config, row.text);
        const SplitExit e = runExeSplit("bake " + q(a.root / "walker.glb") + " --out-dir " + q(a.dir.path / "out"));
        CHECK(e.code == 1);
        CHECK(contains(e.err, row.message));
        CHECK(lines(e.err) == 1);
        CHECK_FALSE(fs::exists(a.dir.path / "out"));
    }
}

TEST_CASE("cli: --fail-on gates fail the run with one line per clip, and pass when nothing trips them") {
    Assets a;
    const std::string walker = q(a.root / "walker.glb");
    // Kept as it moves, the walk travels its whole stride of 1.2 m over the seam: 1.2 / 1.7 of
    // the biped's height at rest (samples/README.md).
    writeText(a.root / "rootbake.json", R"({"clips": {"walk": {"source": "none"}}})");
    SUBCASE("no-motion: a clip named walk with no travel; the idle is not locomotion") {
        const SplitExit e = runExeSplit("inspect " + walker + " --fail-on no-motion");
        CHECK(e.code == 4);
        CHECK(gateLines(e.err) == 1);
        CHECK(contains(e.err, "rootbake: 1 clip with warnings: -v to see them"));  // the walk without travel
        CHECK(contains(unwrapped(e.err), "animations[0] \"walk\": no-motion: named like locomotion, but no travel was found"));
        fs::remove(a.root / "rootbake.json");
        CHECK(runExeSplit("inspect " + walker + " --fail-on no-motion").code == 0);
    }
    SUBCASE("loop-gap: above the fraction fails, below passes") {
        const SplitExit e = runExeSplit("bake " + walker + " --out-dir " + q(a.dir.path / "out") + " --fail-on loop-gap=0.7");
        CHECK(e.code == 4);
        CHECK(gateLines(e.err) == 1);
        CHECK(contains(unwrapped(e.err),
                       "\"walk\": loop-gap: the loop seam is 0.706 of the height (1.2 units), above 0.7"));
        CHECK(fs::exists(a.dir.path / "out" / "walker.glb"));  // a gate does not hold the outputs back
        CHECK(runExeSplit("inspect " + walker + " --fail-on loop-gap=0.71").code == 0);
    }
    SUBCASE("loop-gap without a value: the default the report flags, 0.02 of the height") {
        const SplitExit e = runExeSplit("inspect " + walker + " --fail-on loop-gap");
        CHECK(e.code == 4);
        CHECK(contains(unwrapped(e.err),
                       "\"walk\": loop-gap: the loop seam is 0.706 of the height (1.2 units), above 0.02"));
        fs::remove(a.root / "rootbake.json");  // baked in place, every clip of the biped loops
        CHECK(runExeSplit("inspect " + walker + " --fail-on loop-gap").code == 0);
    }
    SUBCASE("no-root: a clip that animates no position") {
        const fs::path weights = fs::path(ROOTBAKE_SOURCE_DIR) / "tests" / "regressions" / "weights-only-clip.gltf";
        const SplitExit e = runExeSplit("inspect " + q(weights) + " --fail-on no-root");
        CHECK(e.code == 4);
        CHECK(contains(e.err, "no-root: the clip animates no node's position"));
        CHECK(runExeSplit("inspect " + walker + " --fail-on no-root").code == 0);
    }
    SUBCASE("warnings: a leaf given as the root has no height under it") {
        CHECK(runExeSplit("inspect " + walker + " --fail-on warnings").code == 0);
        const SplitExit e = runExeSplit("inspect " + walker + " --fail-on warnings --root LeftToe");
        CHECK(e.code == 4);
        CHECK(gateLines(e.err) == 7);  // every clip
        CHECK(contains(e.err, "rootbake: 7 clips with warnings: -v to see them"));
        CHECK(contains(unwrapped(e.err), "\"idle\": warnings: the joints under the root have no height"));
    }
}

TEST_CASE("cli: check passes against what bake wrote and catches a changed speed") {
    Assets a;
    const fs::path baked = a.dir.path / "baked";
    REQUIRE(runExeSplit("bake " + q(a.root) + " -r --out-dir " + q(baked)).code == 0);

    const SplitExit same = runExeSplit("check " + q(a.root) + " -r --against " + q(baked));
    CHECK_MESSAGE(same.code == 0, same.err);
    CHECK(contains(same.out, "walker.glb: 7 clips as in "));
    CHECK(same.err.empty());
    CHECK(runExeSplit("check " + q(a.root / "walker.glb") + " --against " + q(baked / "walker.rootmotion.json")).code == 0);

    // The art changes: every clip of walker.glb 1.25 times slower (same strides and turns).
    samples::BipedOptions slower;
    slower.durationScale = 1.25;
    writeBytes(a.root / "walker.glb", samples::toGlb(samples::makeBiped(slower)));
    const SplitExit changed = runExeSplit("check " + q(a.root) + " -r --against " + q(baked));
    CHECK(changed.code == 4);
    CHECK(contains(changed.err, "rootbake: changed: "));
    CHECK(contains(changed.err, "walker.glb: walk: averageSpeed 1.2 -> 0.96 m/s (-20.0%)"));
    CHECK(contains(changed.err, "walker.glb: turn_walk: averageSpeed"));
    CHECK_FALSE(contains(changed.err, "walker.glb: walk: strideLength"));  // the strides did not change
    CHECK_FALSE(contains(changed.err, "runner.gltf"));         // nor did the other assets
    // A tolerance above the change lets it through.
    CHECK(runExeSplit("check " + q(a.root) + " -r --against " + q(baked) + " --tolerance 0.25").code == 0);

    // --json: one document on stdout with every change.
    const SplitExit json = runExeSplit("check " + q(a.root / "walker.glb") + " --against " + q(baked) + " --json");
    CHECK(json.code == 4);
    const Json doc = Json::parse(json.out);
    CHECK(doc["exitCode"] == 4);
    bool speed = false;
    for (const Json& c : doc["assets"][0]["changes"])
        speed |= c["clip"] == "walk" && c["field"] == "averageSpeed" &&
                 c["after"].get<double>() == doctest::Approx(0.96).epsilon(1e-6);
    CHECK(speed);

    // No sidecar to compare with is an input error (2), named; 4 is for a clip that changed.
    const SplitExit missing = runExeSplit("check " + q(a.root / "walker.glb") + " --against " + q(a.dir.path));
    CHECK(missing.code == 2);
    CHECK(contains(missing.err, "nothing to check against"));
}

TEST_CASE("cli: check finds the sidecars of a folder below the one baked") {
    // bake assets -r --out-dir baked, then check assets/chars -r --against baked: the sidecars
    // are at baked/chars/..., not at baked/... as the folder given alone would say.
    Assets a;
    const fs::path baked = a.dir.path / "baked";
    REQUIRE(runExeSplit("bake " + q(a.root) + " -r --out-dir " + q(baked)).code == 0);
    const SplitExit sub = runExeSplit("check " + q(a.root / "chars") + " -r --against " + q(baked));
    INFO(sub.err);
    CHECK(sub.code == 0);
    const SplitExit deep = runExeSplit("check " + q(a.root / "chars" / "deep" / "slow.glb") + " --against " + q(baked));
    INFO(deep.err);
    CHECK(deep.code == 0);
    // Where none is, the error says where it looked.
    fs::create_directories(a.dir.path / "nothing");
    const SplitExit none = runExeSplit("check " + q(a.root / "chars") + " -r --against " + q(a.dir.path / "nothing"));
    CHECK(none.code == 2);
    CHECK(contains(none.err, "nor at the input's path from any folder above it"));
}

TEST_CASE("cli: --json prints one document on stdout for every command, --quiet prints errors only") {
    Assets a;
    const std::string walker = q(a.root / "walker.glb");
    const fs::path out = a.dir.path / "out";
    fs::create_directories(out);
    const std::string commands[] = {
        "info " + walker,
        "inspect " + walker,
        "bake " + walker + " -o " + q(out / "w.glb"),
        "check " + walker + " --against " + q(out / "w.rootmotion.json"),
        "report " + walker + " -o " + q(out / "r.html"),
        "verify " + q(out / "w.glb") + " --sidecar " + q(out / "w.rootmotion.json"),
    };
    for (const std::string& command : commands) {
        CAPTURE(command);
        const SplitExit e = runExeSplit(command + " --json");
        CHECK_MESSAGE(e.code == 0, e.err);
        CHECK(Json::accept(e.out));
    }
    const SplitExit quiet = runExeSplit("bake " + walker + " -o " + q(out / "q.glb") + " --quiet");
    CHECK(quiet.code == 0);
    CHECK(quiet.out.empty());
    CHECK(quiet.err.empty());
    const SplitExit quietFail = runExeSplit("bake " + walker + " -o " + q(out / "q.glb") + " --quiet");
    CHECK(quietFail.code == 3);
    CHECK(lines(quietFail.err) == 1);

    // Not a terminal (and CI set): no progress line, no escape codes.
    const SplitExit plain = runExeSplit("bake " + q(a.root) + " -r --out-dir " + q(a.dir.path / "p"), "CI=1 ");
    CHECK(plain.code == 0);
    CHECK_FALSE(contains(plain.out + plain.err, "\033"));
}

TEST_CASE("cli: --verbose prints each decision's reason") {
    Assets a;
    const SplitExit e = runExeSplit("bake " + q(a.root / "walker.glb") + " --out-dir " + q(a.dir.path / "o") + " -v");
    CHECK(e.code == 0);
    CHECK(contains(e.out, "  animations[0] \"walk\": root\n      reason: root: Hips"));  // one fact a line
    CHECK(contains(e.out, "  animations[2] \"run_inplace\": footContact\n      reason: "));
    const SplitExit inspect = runExeSplit("inspect " + q(a.root / "walker.glb") + " -v");
    CHECK(contains(inspect.out, "      planted LeftFoot: 0.000-"));  // the contacts' planted intervals
    CHECK(contains(inspect.out, "      loop seam: "));
}

TEST_CASE("cli: --depfile lists every file each output was made from, as make and ninja read it") {
    Assets a;
    const fs::path out = a.dir.path / "my out";
    const fs::path dep = a.dir.path / "bake.d";
    const SplitExit e = runExeSplit("bake " + q(a.root) + " -r --out-dir " + q(out) + " --depfile " + q(dep));
    REQUIRE_MESSAGE(e.code == 0, e.err);
    auto escaped = [](const fs::path& p) {
        std::string s;
        for (char c : p.string()) s += c == ' ' ? std::string("\\ ") : std::string(1, c);
        return s;
    };
    const std::string expected =
        escaped(out / "chars" / "deep" / "slow.glb") + ": " + escaped(a.root / "chars" / "deep" / "slow.glb") + "\n" +
        escaped(out / "chars" / "runner.gltf") + ": " + escaped(a.root / "chars" / "runner.gltf") + " " +
        escaped(a.root / "chars" / "runner.bin") + "\n" + escaped(out / "walker.glb") + ": " +
        escaped(a.root / "walker.glb") + "\n";
    CHECK(readText(dep) == expected);
}

TEST_CASE("cli: a limit an asset passes is an error naming how to raise it") {
    Assets a;
    const std::string walker = q(a.root / "walker.glb");
    const SplitExit e = runExeSplit("inspect " + walker + " --limit maxNodes=5");
    CHECK(e.code == 2);
    CHECK(contains(e.err, "more than maxNodes (5); raise it with --limit maxNodes=N"));
    CHECK(runExeSplit("inspect " + walker + " --limit maxNodes=100").code == 0);
    const SplitExit budget = runExeSplit("bake " + walker + " --out-dir " + q(a.dir.path / "o") +
                                         " --limit maxAssetNodeSamples=1000");
    CHECK(budget.code == 2);
    CHECK(contains(budget.err, "more than maxAssetNodeSamples (1000); raise it with --limit maxAssetNodeSamples=N"));
}
