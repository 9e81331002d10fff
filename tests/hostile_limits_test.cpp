// Hostile files cost what they weigh (issue 19, part B), through the built executable:
// amplification by shared samplers (the ../shared/hostile reproducers and a generated
// variant), image limits and the GLB's 4 GiB, temporaries left by killed bakes, and where
// the rootbake.json search stops. Memory and time bounds are checked by scripts/check-hostile
// (ulimit), not here; these tests assert on what is counted and written.
#include "biped.h"
#include "support.h"

#include <nlohmann/json.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

using namespace rootbake::test;
namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
}

// As ../shared/hostile/gen_amp.py: one node, `clips` animations naming one 2-key LINEAR
// sampler from 0 to `seconds` s (the node moves 1.2 x seconds along z).
std::vector<std::uint8_t> sharedSamplerGlb(int clips, float seconds) {
    const float keys[8] = {0.0f, seconds, 0, 0, 0, 0, 0, seconds * 1.2f};
    std::vector<std::uint8_t> bin(sizeof keys);
    std::memcpy(bin.data(), keys, sizeof keys);
    Json animations = Json::array();
    for (int i = 0; i < clips; ++i)
        animations.push_back({{"samplers", {{{"input", 0}, {"output", 1}}}},
                              {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}}}});
    const Json doc = {
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes", {{{"name", "Hips"}}}},
        {"buffers", {{{"byteLength", bin.size()}}}},
        {"bufferViews", {{{"buffer", 0}, {"byteLength", 8}}, {{"buffer", 0}, {"byteOffset", 8}, {"byteLength", 24}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", 5126}, {"count", 2}, {"type", "SCALAR"}, {"min", {0}}, {"max", {seconds}}},
          {{"bufferView", 1}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}}}},
        {"animations", animations}};
    std::string json = doc.dump();
    json.resize((json.size() + 3) / 4 * 4, ' ');
    std::vector<std::uint8_t> out;
    put32(out, 0x46546C67);
    put32(out, 2);
    put32(out, std::uint32_t(12 + 8 + json.size() + 8 + bin.size()));
    put32(out, std::uint32_t(json.size()));
    put32(out, 0x4E4F534A);
    out.insert(out.end(), json.begin(), json.end());
    put32(out, std::uint32_t(bin.size()));
    put32(out, 0x004E4942);
    out.insert(out.end(), bin.begin(), bin.end());
    return out;
}

// A tiny .gltf: one node walking 2 m in 1 s, and one image file beside it.
std::string walkWithImage(const std::string& image) {
    const float keys[8] = {0.0f, 1.0f, 0, 1, 0, 0, 1, 2};
    std::vector<std::uint8_t> bytes(sizeof keys);
    std::memcpy(bytes.data(), keys, sizeof keys);
    const Json doc = {
        {"asset", {{"version", "2.0"}}},
        {"nodes", {{{"name", "Hips"}}}},
        {"buffers", {{{"byteLength", bytes.size()}, {"uri", "data:application/octet-stream;base64," + base64(bytes)}}}},
        {"bufferViews", {{{"buffer", 0}, {"byteLength", 8}}, {{"buffer", 0}, {"byteOffset", 8}, {"byteLength", 24}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", 5126}, {"count", 2}, {"type", "SCALAR"}, {"min", {0}}, {"max", {1}}},
          {{"bufferView", 1}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}}}},
        {"animations",
         {{{"name", "walk"},
           {"samplers", {{{"input", 0}, {"output", 1}}}},
           {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}}}}}},
        {"images", {{{"uri", image}}}}};
    return doc.dump();
}

std::size_t entries(const fs::path& folder) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(folder)) ++n;
    return n;
}

}  // namespace

TEST_CASE("hostile: the shared reproducers of amplification cost what their keys say, or are refused by a named limit") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    const fs::path hostile = shared / "hostile";
    if (!fs::exists(hostile / "R1_amp_872B_7GB.glb")) {
        MESSAGE("skipped: " << hostile.string() << " has no R1_amp_872B_7GB.glb");
        return;
    }
    TempDir dir("hostile-amp");
    for (const char* command : {"bake", "inspect"}) {
        CAPTURE(command);
        const std::string out = std::string(command) == "bake" ? " -o " + q(dir.path / "out.glb") : "";
        // 16384 clips x 2000 keys of one sampler: each channel's copy counts, 524 MB of keys.
        const SplitExit r1b = runExeSplit(std::string(command) + " " + q(hostile / "R1b_shared_sampler_16k_clips.glb") + out);
        CHECK(r1b.code == 2);
        CHECK(contains(r1b.err, "more than maxKeyBytes ("));
        CHECK(contains(r1b.err, "; raise it with --limit maxKeyBytes=N\n"));
        CHECK(entries(dir.path) == 0);
    }
    // 4 clips x 69,900 s on one 2-key sampler: 2 x 64 analysis samples each (kSamplesPerKey), not 60 a second.
    const SplitExit r1 = runExeSplit("bake " + q(hostile / "R1_amp_872B_7GB.glb") + " -o " + q(dir.path / "out.glb"));
    REQUIRE_MESSAGE(r1.code == 0, r1.err);
    const Json sidecar = Json::parse(readText(dir.path / "out.rootmotion.json"));
    REQUIRE(sidecar["clips"].size() == 4);
    for (const Json& clip : sidecar["clips"]) CHECK(clip["track"]["times"].size() == 2 * 64 + 1);
}

TEST_CASE("hostile: clips sharing one sampler count once each against maxAssetTrackSamples") {
    TempDir dir("hostile-shared-sampler");
    // 4 clips of 100 s on a 2-key sampler: min(100 x 60, 64 x 2) + 1 = 129 track samples each, 516 in all.
    const fs::path in = dir.path / "amp.glb";
    writeBytes(in, sharedSamplerGlb(4, 100.0f));
    const fs::path out = dir.path / "out" / "amp.glb";

    const SplitExit refused = runExeSplit("bake " + q(in) + " -o " + q(out) + " --limit maxAssetTrackSamples=515");
    CHECK(refused.code == 2);
    CHECK(contains(refused.err, "animations[3]: 129 motion-track samples (64 per key x its keys + 1), 516 with "
                                "the clips before it, more than maxAssetTrackSamples (515); raise it with --limit "
                                "maxAssetTrackSamples=N"));
    CHECK_FALSE(fs::exists(out.parent_path()));

    const SplitExit baked = runExeSplit("bake " + q(in) + " -o " + q(out) + " --limit maxAssetTrackSamples=516");
    REQUIRE_MESSAGE(baked.code == 0, baked.err);
    const Json sidecar = Json::parse(readText(dir.path / "out" / "amp.rootmotion.json"));
    std::size_t kept = 0;
    for (const Json& clip : sidecar["clips"]) kept += clip["track"]["times"].size();
    CHECK(kept == 4 * 129);

    // The same 4 clips over 69,900 s, as R1: as many samples, and the motion still exact (linear
    // keys: 1.2 units a second, so 83,880 units at the end).
    writeBytes(in, sharedSamplerGlb(4, 69900.0f));
    const SplitExit r1 = runExeSplit("inspect --json " + q(in));
    REQUIRE_MESSAGE(r1.code == 0, r1.err);
    const Json inspected = Json::parse(r1.out);
    REQUIRE(inspected.size() == 1);
    REQUIRE(inspected[0]["clips"].size() == 4);
    for (const Json& clip : inspected[0]["clips"])
        CHECK(clip["strideLength"].get<double>() == doctest::Approx(83880.0).epsilon(1e-6));
}

TEST_CASE("hostile: image files count against maxImageBytes, and a GLB over 4 GiB is refused, writing nothing") {
    TempDir dir("hostile-images");
    const fs::path in = dir.path / "walk.gltf";
    writeText(in, walkWithImage("skin.png"));
    writeBytes(dir.path / "skin.png", std::vector<std::uint8_t>(5000, 7));
    const fs::path out = dir.path / "out" / "walk.glb";

    const SplitExit over = runExeSplit("bake " + q(in) + " --glb -o " + q(out) + " --limit maxImageBytes=4999");
    CHECK(over.code == 2);
    CHECK(contains(over.err, "walk.gltf: images[0].uri: image files of 5000 bytes up to this one, more than "
                             "maxImageBytes (4999); raise it with --limit maxImageBytes=N"));
    CHECK_FALSE(fs::exists(out.parent_path()));

    const SplitExit within = runExeSplit("bake " + q(in) + " --glb -o " + q(out) + " --limit maxImageBytes=5000");
    REQUIRE_MESSAGE(within.code == 0, within.err);
    // The image is in the BIN chunk byte for byte: its 5000 bytes of 7 end the file but for padding.
    const std::vector<std::uint8_t> glb = readBytes(out);
    REQUIRE(glb.size() >= 5000);
    std::size_t sevens = 0;
    for (std::uint8_t b : glb) sevens += b == 7;
    CHECK(sevens >= 5000);
    CHECK(glb.size() % 4 == 0);

    // A sparse image just under 4 GiB: the GLB would pass 2^32 - 1 bytes. Refused before a byte is written.
    fs::resize_file(dir.path / "skin.png", 4294967000ull);
    fs::remove_all(out.parent_path());
    const SplitExit huge = runExeSplit("bake " + q(in) + " --glb -o " + q(out));
    CHECK(huge.code == 2);
    CHECK(contains(huge.err, "walk.gltf: the GLB output would be "));
    CHECK(contains(huge.err, "bytes, more than a GLB can hold (4294967295: its lengths are 32-bit); write a .gltf"));
    CHECK_FALSE(fs::exists(out.parent_path()));
}

TEST_CASE("hostile: a temporary of a bake whose process is gone is removed by the next bake into its folder") {
    TempDir dir("hostile-leftovers");
    const fs::path in = dir.path / "walk.glb";
    writeBytes(in, rootbake::samples::toGlb(rootbake::samples::makeBiped()));
    const fs::path out = dir.path / "out";
    fs::create_directories(out);
    // A process that has exited (and been waited for): its pid is gone.
    std::string printed;
    REQUIRE(runShell("sh -c 'echo $$'", printed) == 0);
    const std::string gone = std::to_string(std::stol(printed));
    const std::string alive = std::to_string(::getpid());  // this test: alive, and not the bake
    const std::vector<std::string> stale = {".walk.glb.rootbake-" + gone + "-0.tmp",
                                            ".other.gltf.rootbake-" + gone + "-17.tmp"};
    const std::vector<std::string> kept = {".walk.glb.rootbake-" + alive + "-0.tmp",  // a live process's
                                           ".walk.glb.rootbake-" + gone + "-0.bak",   // an old output moved aside
                                           "walk.rootbake-" + gone + "-0.tmp",        // not hidden: not ours
                                           ".walk.glb.rootbake-x-0.tmp", "notes.tmp"};
    for (const std::string& name : stale) writeText(out / name, "left by a killed bake");
    for (const std::string& name : kept) writeText(out / name, "not a leftover");

    const SplitExit e = runExeSplit("bake " + q(in) + " -o " + q(out / "walk.glb"));
    REQUIRE_MESSAGE(e.code == 0, e.err);
    for (const std::string& name : stale) CHECK_MESSAGE(!fs::exists(out / name), name);
    for (const std::string& name : kept) CHECK_MESSAGE(fs::exists(out / name), name);
    CHECK(entries(out) == kept.size() + 2);  // and the bake's own two files
}

TEST_CASE("hostile: the rootbake.json search stops at the top of a repository") {
    TempDir dir("hostile-config");
    // A config above the repository that would make every clip "none".
    writeText(dir.path / "rootbake.json", R"({"clips": {"*": {"source": "none"}}})");
    const fs::path repo = dir.path / "repo";
    fs::create_directories(repo / ".git");
    fs::create_directories(repo / "art");
    const fs::path in = repo / "art" / "walk.glb";
    writeBytes(in, rootbake::samples::toGlb(rootbake::samples::makeBiped()));
    auto sources = [&](const std::string& extra) {
        const SplitExit e = runExeSplit("inspect --json " + q(in) + extra);
        REQUIRE_MESSAGE(e.code == 0, e.err);
        const Json printed = Json::parse(e.out);  // kept: a range-for over a temporary's member dangles
        std::vector<std::string> out;
        for (const Json& clip : printed[0]["clips"]) out.push_back(clip["source"]);
        return out;
    };
    auto countNone = [](const std::vector<std::string>& s) { return std::count(s.begin(), s.end(), "none"); };

    const std::vector<std::string> inRepo = sources("");
    REQUIRE(inRepo.size() >= 2);
    CHECK(countNone(inRepo) < std::ptrdiff_t(inRepo.size()));  // the biped's clips travel: not read

    // Named, it applies; without the .git (a .git file, as a worktree has, counts too) it is found.
    CHECK(countNone(sources(" --config " + q(dir.path / "rootbake.json"))) == std::ptrdiff_t(inRepo.size()));
    fs::remove_all(repo / ".git");
    CHECK(countNone(sources("")) == std::ptrdiff_t(inRepo.size()));
    writeText(repo / ".git", "gitdir: elsewhere");
    CHECK(sources("") == inRepo);
    fs::remove(repo / ".git");

    // A folder anyone may write to (as /tmp) ends the search before its config is read.
    fs::permissions(dir.path, fs::perms::others_write, fs::perm_options::add);
    CHECK(sources("") == inRepo);
    fs::permissions(dir.path, fs::perms::others_write, fs::perm_options::remove);
    CHECK(countNone(sources("")) == std::ptrdiff_t(inRepo.size()));

    // A config that says it is the top: accepted, and it is the one that applies.
    writeText(repo / "art" / "rootbake.json", R"({"root": true, "defaults": {"minimumTravel": 0.1}})");
    CHECK(sources("") == inRepo);
    writeText(repo / "art" / "rootbake.json", R"({"root": "yes"})");
    const SplitExit bad = runExeSplit("inspect " + q(in));
    CHECK(bad.code == 1);
    CHECK(contains(bad.err, "rootbake.json: root: expected true or false"));
}
