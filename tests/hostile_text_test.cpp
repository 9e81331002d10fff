// Hostile files (issue 19, ../shared/hostile/): JSON whose shape would make parsing
// quadratic, and names, URIs and file names holding terminal controls. Each case is
// generated here; the stored reproducers run too when ../shared is present.
#include "biped.h"
#include "cli/printable.h"
#include "gltf/asset.h"
#include "io/json_parse.h"
#include "support.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <string>

using namespace rootbake;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using test::contains;
using test::q;
using test::readText;
using test::runExeSplit;
using test::SplitExit;
using test::TempDir;
using test::writeBytes;
using test::writeText;
using test::unwrapped;

namespace {

// Every control a terminal acts on, and a forged message on a line of its own.
// (The literal is split after \x9b: a hex escape would take the 2 as a digit.)
const std::string kHostile =
    "\x1b[31mRED\x1b[0m\x1b]0;pwned-title\x07\rOVERWRITE\nrootbake: error: fake line\t\x7f\xc2\x9b"
    "2J";
// The same as printable must write it, spelled out by hand.
const std::string kHostileEscaped =
    "\\x1b[31mRED\\x1b[0m\\x1b]0;pwned-title\\x07\\rOVERWRITE\\nrootbake: error: fake line\\t\\x7f\\u009b2J";

// True when text has no byte a terminal acts on but the newlines ending its lines, and
// every line of stderr is a message of rootbake's own.
bool plainLines(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if ((byte < 0x20 && byte != '\n') || byte == 0x7f) return false;
        if (byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9f)
            return false;
    }
    return true;
}
bool eachLineStarts(const std::string& text, const std::string& prefix) {
    for (std::size_t at = 0; at < text.size();) {
        if (text.compare(at, prefix.size(), prefix) != 0) return false;
        const std::size_t end = text.find('\n', at);
        if (end == std::string::npos) return false;
        at = end + 1;
    }
    return true;
}

}  // namespace

TEST_CASE("json: a 200k-key object and a 1M-element array parse whole, keys in order") {
    constexpr int kKeys = 200000;
    std::string text = "{";
    for (int i = 0; i < kKeys; ++i)
        text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
    text += ",\"list\":[";
    constexpr int kElements = 1000000;
    for (int i = 0; i < kElements; ++i) text += (i ? "," : "") + std::to_string(i % 7);
    text += "]}";
    Result<Json> parsed = io::parseOrderedJson(text);
    REQUIRE_MESSAGE(parsed.ok(), (parsed ? "" : parsed.error().message));
    const Json& doc = *parsed;
    REQUIRE(doc.size() == kKeys + 1);
    int i = 0;
    bool inOrder = true;
    for (const auto& [key, value] : doc.items()) {
        if (i == kKeys) break;
        inOrder = inOrder && key == "k" + std::to_string(i) && value == i;
        ++i;
    }
    CHECK(inOrder);
    CHECK(doc.find("k123456") != doc.end());
    CHECK(doc["k123456"] == 123456);
    const Json& list = doc["list"];
    REQUIRE(list.size() == kElements);
    CHECK(list[999999] == 999999 % 7);
    // The document written back is the text: nothing reordered, nothing lost.
    CHECK(doc.dump() == text);
}

TEST_CASE("json: a key given twice in one object is an error naming the object and the key") {
    auto error = [](const std::string& text) {
        Result<Json> parsed = io::parseOrderedJson(text);
        return parsed ? std::string("(parsed)") : parsed.error().message;
    };
    CHECK(error(R"({"asset":{},"asset":{}})") ==
          R"((root): duplicate key "asset" (keys of a JSON object must be unique))");
    CHECK(error(R"({"nodes":[{"name":"a"},{"name":"a","children":[],"name":"b"}]})") ==
          R"(nodes[1]: duplicate key "name" (keys of a JSON object must be unique))");
    // Past the scan: the hash set finds the repeat in a wide object.
    std::string wide = R"({"x":{"extras":{)";
    for (int i = 0; i < 100; ++i) wide += "\"k" + std::to_string(i) + "\":0,";
    wide += R"("k42":1}}})";
    CHECK(error(wide) == R"(x.extras: duplicate key "k42" (keys of a JSON object must be unique))");
    // The same key in two objects, or as a value, is no repeat.
    CHECK(error(R"({"a":{"k":1},"b":{"k":"k"}})") == "(parsed)");
    CHECK(error(R"({"a":)").rfind("line 1, column 6: value: unexpected end of input", 0) == 0);

    // Through the loader and the config file: the file name first.
    const std::string gltf = R"({"asset":{"version":"2.0"},"nodes":[{"name":"a","name":"b"}]})";
    Result<gltf::Asset> loaded = gltf::loadAssetFromMemory(
        std::span(reinterpret_cast<const std::uint8_t*>(gltf.data()), gltf.size()), "dup.gltf", {}, {});
    REQUIRE_FALSE(loaded.ok());
    CHECK(loaded.error().message ==
          R"(dup.gltf: JSON: nodes[0]: duplicate key "name" (keys of a JSON object must be unique))");
}

TEST_CASE("json: rootbake.json: 200k clip rules apply in file order, a repeated glob is an error") {
    TempDir dir("hostile-config");
    writeBytes(dir.path / "walker.glb", samples::toGlb(samples::makeBiped()));
    // An early rule forces footContact on the walk, 200k rules match nothing, the last says none:
    // the last one read wins only if every rule was read, in order.
    std::string text = R"({"clips":{"wal*":{"source":"footContact"})";
    for (int i = 0; i < 200000; ++i) text += ",\"c" + std::to_string(i) + R"(":{"source":"root"})";
    text += R"(,"walk":{"source":"none"}}})";
    writeText(dir.path / "rootbake.json", text);
    const SplitExit e = runExeSplit("inspect -q --json " + q(dir.path / "walker.glb"));
    REQUIRE_MESSAGE(e.code == 0, e.err);
    bool found = false;
    const Json inspected = Json::parse(e.out);
    for (const Json& clip : inspected[0]["clips"])
        if (clip["name"] == "walk") {
            found = true;
            CHECK(clip["source"] == "none");
        }
    CHECK(found);

    writeText(dir.path / "rootbake.json",
              R"({"clips":{"walk*":{"source":"root"},"walk*":{"source":"none"}}})");
    const SplitExit repeated = runExeSplit("inspect " + q(dir.path / "walker.glb"));
    CHECK(repeated.code == 1);
    // (The config is named relative to the working folder, as found.)
    CHECK(repeated.err.rfind("rootbake: error: ", 0) == 0);
    CHECK(contains(
        repeated.err,
        R"(rootbake.json: not JSON: clips: duplicate key "walk*" (keys of a JSON object must be unique))"
        "\n"));
    CHECK(std::count(repeated.err.begin(), repeated.err.end(), '\n') == 1);
}

TEST_CASE("printable: controls escaped, UTF-8 kept, one line") {
    using cli::printable;
    CHECK(printable(kHostile) == kHostileEscaped);
    CHECK(printable("Hüfte 腰 🦶") == "Hüfte 腰 🦶");
    CHECK(printable("C:\\art\\walk.glb") == "C:\\art\\walk.glb");  // a backslash is kept
    CHECK(printable(std::string("a\0b", 3)) == "a\\x00b");
    CHECK(printable("\xff") == "\\xff");                    // not UTF-8
    CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");           // an overlong '/'
    CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // a surrogate
    CHECK(printable("\xe2\x82") == "\\xe2\\x82");           // cut short
    CHECK(printable("\xc2\xa0") == "\xc2\xa0");             // U+00A0, past the C1 controls
    CHECK(cli::isOneLine(printable(kHostile)));
    CHECK_FALSE(cli::isOneLine(kHostile));
}

TEST_CASE("hostile names: info, inspect, bake -v, gates and check print each on its line, escaped") {
    TempDir dir("hostile-names");
    // Node 0's name, the walk's name and the file's name all hostile.
    Json doc = Json::parse(samples::makeBiped().json);
    const std::string hips = doc["nodes"][1]["name"];
    REQUIRE(hips == "Hips");
    doc["nodes"][1]["name"] = "Hips" + kHostile;
    doc["animations"][0]["name"] = "walk" + kHostile;
    samples::Biped biped = samples::makeBiped();
    biped.json = doc.dump();
    const fs::path in = dir.path / "in";
    fs::create_directories(in);
    const fs::path file = in / ("a" + kHostile + ".glb");
    writeBytes(file, samples::toGlb(biped));
    const fs::path out = dir.path / "out";

    const std::string nameShown = "Hips" + kHostileEscaped;
    const std::string clipShown = "walk" + kHostileEscaped;
    const std::string fileShown = (in / ("a" + kHostileEscaped + ".glb")).string();
    auto clean = [&](const SplitExit& e, const char* what) {
        INFO(what);
        CHECK(plainLines(e.out));
        CHECK(plainLines(e.err));
        CHECK(eachLineStarts(unwrapped(e.err), "rootbake: "));  // a long warning goes on under its place
        CHECK_FALSE(contains(e.out + e.err, "\nrootbake: error: fake line"));
    };

    const SplitExit info = runExeSplit("info " + q(file));
    CHECK(info.code == 0);
    clean(info, "info");
    CHECK(contains(info.out, fileShown + ": glb, "));
    CHECK(contains(info.out, nameShown));
    CHECK(contains(info.out, clipShown));

    const SplitExit inspect = runExeSplit("inspect -v --fail-on no-motion,warnings " + q(file));
    clean(inspect, "inspect");
    CHECK(contains(inspect.out, fileShown + "\n"));
    CHECK(contains(inspect.out, "      reason: root: " + nameShown));

    // A gate that fails (no travel, forced, in a clip named like a walk) names the clip.
    const SplitExit gate = runExeSplit("inspect --source none --fail-on no-motion " + q(file));
    CHECK(gate.code == 4);
    clean(gate, "gate");
    CHECK(contains(unwrapped(gate.err), "rootbake: failed: " + fileShown + ": animations[0] \"" + clipShown + "\": "));

    const SplitExit bake = runExeSplit("bake -v " + q(file) + " -o " + q(out / "walk.glb"));
    REQUIRE_MESSAGE(bake.code == 0, bake.err);
    clean(bake, "bake");
    CHECK(contains(bake.out, fileShown + ": "));
    CHECK(contains(bake.out, "  animations[0] \"" + clipShown + "\": root\n      reason: root: " + nameShown));

    // check: the same asset against its own sidecar, then against one that says another root.
    const SplitExit same =
        runExeSplit("check " + q(file) + " --against " + q(out / "walk.rootmotion.json"));
    CHECK(same.code == 0);
    clean(same, "check");
    CHECK(contains(same.out, fileShown + ": "));
    Json sidecar = Json::parse(readText(out / "walk.rootmotion.json"));
    sidecar["clips"][0]["rootNode"]["name"] = "Spine" + kHostile;
    writeText(out / "walk.rootmotion.json", sidecar.dump(2));
    const SplitExit changed =
        runExeSplit("check " + q(file) + " --against " + q(out / "walk.rootmotion.json"));
    CHECK(changed.code == 4);
    clean(changed, "check, changed");
    CHECK(contains(changed.err, "rootbake: changed: " + fileShown + ": " + clipShown + ": rootNode Spine" +
                                    kHostileEscaped + " -> " + nameShown + "\n"));

    // --json: the names whole, as JSON.
    const SplitExit json = runExeSplit("info --json " + q(file));
    CHECK(plainLines(json.out));
    const Json described = Json::parse(json.out);
    CHECK(described[0]["file"] == file.string());
    CHECK(described[0]["nodes"][1]["name"] == "Hips" + kHostile);
}

TEST_CASE("hostile names: an error quoting a URI from the file is one line") {
    TempDir dir("hostile-uri");
    Json doc = Json::parse(samples::makeBiped().json);
    doc["buffers"][0]["uri"] = "missing" + kHostile + ".bin";
    writeText(dir.path / "uri.gltf", doc.dump());
    const SplitExit e = runExeSplit("info " + q(dir.path / "uri.gltf"));
    CHECK(e.code == 2);
    CHECK(e.out.empty());
    CHECK(plainLines(e.err));
    CHECK(std::count(e.err.begin(), e.err.end(), '\n') == 1);
    // (A long URI is cut short in the message.)
    CHECK(contains(
        e.err, "buffers[0].uri: file 'missing\\x1b[31mRED\\x1b[0m\\x1b]0;pwned-title\\x07\\rOVERWRITE\\n"));
}

TEST_CASE("hostile names: the stored R3 reproducers print plain lines") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    const fs::path hostile = shared / "hostile";
    if (!fs::exists(hostile / "R3_ansi_node_name.glb")) {
        MESSAGE("skipped: ../shared/hostile/ has no R3 reproducers");
        return;
    }
    TempDir dir("hostile-r3");
    for (const char* name : {"R3_ansi_node_name.glb", "R3_ansi_anim_name.glb", "R3_ansi_uri/uri_ansi.gltf"}) {
        INFO(name);
        const fs::path file = hostile / name;
        for (const std::string& command : {std::string("info "), std::string("inspect -v "),
                                           "bake -v --out-dir " + q(dir.path / "out") + " --force "}) {
            const SplitExit e = runExeSplit(command + q(file));
            CHECK(plainLines(e.out));
            CHECK(plainLines(e.err));
            CHECK(eachLineStarts(unwrapped(e.err), "rootbake: "));  // a long warning goes on under its place
        }
    }
}

TEST_CASE(
    "depfile: names make reads back are escaped, a name it cannot read is an error that writes nothing") {
    TempDir dir("hostile-depfile");
    const samples::Biped biped = samples::makeBiped();
    // Space, '#', '$' and ':' in the input's folder and name, and in the output's.
    const fs::path in = dir.path / "art $x #1" / "walk: v2.glb";
    fs::create_directories(in.parent_path());
    writeBytes(in, samples::toGlb(biped));
    const fs::path out = dir.path / "out $y #2" / "walk: v2.glb";
    const fs::path dep = dir.path / "bake.d";
    const SplitExit e = runExeSplit("bake " + q(in) + " -o " + q(out) + " --depfile " + q(dep));
    REQUIRE_MESSAGE(e.code == 0, e.err);

    std::string make;
    if (test::runShell("command -v make", make) != 0) {
        MESSAGE("skipped the make half: no make (scripts/setup installs it)");
    } else {
        // make itself is the truth: out is up to date, then older than its input. The pattern
        // rule gives the depfile's rule a recipe; a prerequisite make misread would be a file
        // that does not exist, which the pattern rule would remake: out would never be up to date.
        writeText(dir.path / "Makefile", "include bake.d\n%.glb:\n\t@echo remade $@\n");
        auto upToDate = [&] {
            std::string ignored;
            return test::runShell("cd " + q(dir.path) + " && make -q " + q(out.string()) + " 2>&1",
                                  ignored);
        };
        fs::last_write_time(in, fs::file_time_type::clock::now() - std::chrono::hours(2));
        fs::last_write_time(out, fs::file_time_type::clock::now() - std::chrono::hours(1));
        CHECK(upToDate() == 0);
        fs::last_write_time(in, fs::file_time_type::clock::now());
        CHECK(upToDate() == 1);
    }

    // An output not written (it exists, no --force) is not listed: the depfile lists what was made.
    const SplitExit again = runExeSplit("bake " + q(in) + " -o " + q(out) + " --depfile " + q(dep));
    CHECK(again.code == 3);
    CHECK(readText(dep).empty());

    // A newline in the input's name: make cannot read it back.
    const fs::path bad = dir.path / "in" / "walk\nrootbake: error: forged.glb";
    fs::create_directories(bad.parent_path());
    writeBytes(bad, samples::toGlb(biped));
    const fs::path badOut = dir.path / "bad-out";
    const SplitExit refused =
        runExeSplit("bake " + q(bad) + " --out-dir " + q(badOut) + " --depfile " + q(dir.path / "bad.d"));
    CHECK(refused.code == 3);
    CHECK(plainLines(refused.err));
    // The output is named first (the rule's target), and it has the input's name.
    CHECK(contains(refused.err, "rootbake: error: " + (dir.path / "bad.d").string() + ": " +
                                    (badOut / "walk\\nrootbake: error: forged.glb").string() +
                                    ": make cannot read this name back (it has a control byte)"));
    CHECK_FALSE(fs::exists(badOut / "walk\nrootbake: error: forged.glb"));
    CHECK_FALSE(fs::exists(badOut / "walk\nrootbake: error: forged.rootmotion.json"));
    // The depfile lists what a batch made: here nothing.
    CHECK(readText(dir.path / "bad.d").empty());
}

TEST_CASE("limits: the bound of 8 x maxSamples node positions names the limit that raises it") {
    // A 20-node chain whose leaf is keyed once a second for 10 hours: 2,160,001 samples x 20
    // nodes (the keys allow 64 x 36,001).
    TempDir dir("ten-hours");
    std::vector<float> floats;
    for (int t = 0; t <= 36000; ++t) floats.push_back(float(t));
    for (int t = 0; t <= 36000; ++t) floats.insert(floats.end(), {0.0f, 0.0f, float(t) / 36.0f});
    std::vector<std::uint8_t> bytes(4 * floats.size());
    std::memcpy(bytes.data(), floats.data(), bytes.size());
    Json nodes = Json::array();
    for (int i = 0; i < 20; ++i) nodes.push_back(i + 1 < 20 ? Json{{"children", {i + 1}}} : Json::object());
    const Json doc = {
        {"asset", {{"version", "2.0"}}},
        {"nodes", nodes},
        {"buffers", {{{"byteLength", bytes.size()}, {"uri", "data:application/octet-stream;base64," + rootbake::test::base64(bytes)}}}},
        {"bufferViews",
         {{{"buffer", 0}, {"byteLength", 4 * 36001}}, {{"buffer", 0}, {"byteOffset", 4 * 36001}, {"byteLength", 12 * 36001}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", 5126}, {"count", 36001}, {"type", "SCALAR"}, {"min", {0}}, {"max", {36000}}},
          {{"bufferView", 1}, {"componentType", 5126}, {"count", 36001}, {"type", "VEC3"}}}},
        {"animations",
         {{{"samplers", {{{"input", 0}, {"output", 1}}}},
           {"channels", {{{"sampler", 0}, {"target", {{"node", 19}, {"path", "translation"}}}}}}}}}};
    const fs::path tenHours = dir.path / "ten-hours.gltf";
    writeText(tenHours, doc.dump());
    // The asset's track budget (maxAssetTrackSamples) would refuse it first: raised here.
    const SplitExit e = runExeSplit("inspect --limit maxAssetTrackSamples=100000000 " + q(tenHours));
    CHECK(e.code == 2);
    CHECK(contains(e.err, "2160001 analysis samples x 20 nodes = 4.32e+07 node positions, more than 8 x maxSamples "
                          "(3.35544e+07); raise it with --limit maxSamples=N\n"));
}
