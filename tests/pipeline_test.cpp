// Every command goes through the pipeline once per asset: the pipeline's counters of loads
// and analyses, read before and after each command run in this process on the biped.
#include "biped.h"
#include "cli/bake.h"
#include "cli/check.h"
#include "cli/report.h"
#include "cli/verify.h"
#include "pipeline/pipeline.h"
#include "support.h"
#include "io/sha256.h"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <string>

using namespace rootbake;
namespace fs = std::filesystem;
using test::TempDir;
using test::writeBytes;

namespace {

struct Passes {
    std::uint64_t loads = 0;
    std::uint64_t analyses = 0;
    int code = -1;
};

// The pipeline's passes while `command` runs, its stdout and stderr kept off the test's.
Passes passesOf(const std::function<int()>& command) {
    std::fflush(stdout);
    std::fflush(stderr);
    const int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    const pipeline::Counts before = pipeline::counts();
    Passes passes;
    passes.code = command();
    const pipeline::Counts after = pipeline::counts();
    std::fflush(stdout);
    std::fflush(stderr);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    close(out);
    close(err);
    close(null);
    passes.loads = after.loads - before.loads;
    passes.analyses = after.analyses - before.analyses;
    return passes;
}

// A command that succeeded with one load and one analysis.
void checkOnePass(const Passes& passes) {
    CHECK(passes.code == cli::kOk);
    CHECK(passes.loads == 1);
    CHECK(passes.analyses == 1);
}

cli::CommonArgs common(const fs::path& input) {
    cli::CommonArgs args;
    args.inputs = {input.string()};
    args.jobs = 1;
    return args;
}

}  // namespace

TEST_CASE("pipeline: every command loads and analyses each asset once") {
    TempDir dir("pipeline");
    const fs::path input = dir.path / "walker.glb";
    writeBytes(input, samples::toGlb(samples::makeBiped()));

    cli::BakeArgs bake;
    bake.common = common(input);
    bake.output = (dir.path / "out" / "walker.glb").string();
    const Passes baked = passesOf([&] { return cli::bake(bake); });
    checkOnePass(baked);

    SUBCASE("inspect, check and report") {
        cli::InspectArgs inspect{common(input)};
        const Passes inspected = passesOf([&] { return cli::inspect(inspect); });
        checkOnePass(inspected);

        cli::CheckArgs check;
        check.common = common(input);
        check.against = (dir.path / "out" / "walker.rootmotion.json").string();
        const Passes checked = passesOf([&] { return cli::check(check); });
        checkOnePass(checked);

        cli::ReportArgs report;
        report.common = common(input);
        report.output = (dir.path / "report.html").string();
        const Passes reported = passesOf([&] { return cli::report(report); });
        checkOnePass(reported);
    }
    SUBCASE("verify loads the baked asset and the source, and analyses neither") {
        cli::VerifyArgs verify;
        verify.baked = bake.output;
        verify.source = input.string();
        const Passes verified = passesOf([&] { return cli::verify(verify); });
        CHECK(verified.code == cli::kOk);
        CHECK(verified.loads == 2);
        CHECK(verified.analyses == 0);
    }
    SUBCASE("bake --report --verify: the report and the replay come from the bake's one pass") {
        bake.output = (dir.path / "again" / "walker.glb").string();
        bake.report = (dir.path / "again" / "walker.html").string();
        bake.verify = true;
        const Passes again = passesOf([&] { return cli::bake(bake); });
        checkOnePass(again);
        CHECK(fs::exists(bake.report));
    }
    SUBCASE("a batch: once per asset") {
        fs::create_directories(dir.path / "in");
        writeBytes(dir.path / "in" / "a.glb", samples::toGlb(samples::makeBiped()));
        writeBytes(dir.path / "in" / "b.glb", samples::toGlb(samples::makeBiped()));
        cli::InspectArgs inspect{common(dir.path / "in")};
        inspect.common.jobs = 2;
        const Passes inspected = passesOf([&] { return cli::inspect(inspect); });
        CHECK(inspected.loads == 2);
        CHECK(inspected.analyses == 2);
    }
}

TEST_CASE("pipeline: the hash taken as the file is read is the file's, across the read's chunks") {
    TempDir dir("pipeline-hash");
    fs::create_directories(dir.path);
    // GLBs whose BIN chunk puts the file's end just short of, on and just past the 4 MiB
    // chunks the read reports after, and a small one read in one chunk.
    for (std::size_t binBytes : {std::size_t(64), (std::size_t(4) << 20) - 96, std::size_t(4) << 20,
                                 (std::size_t(9) << 20) + 12}) {
        const std::string json = R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":)" + std::to_string(binBytes) + "}]}";
        std::vector<std::uint8_t> glb;
        auto put32 = [&](std::uint32_t v) {
            for (int i = 0; i < 4; ++i) glb.push_back(std::uint8_t(v >> (8 * i)));
        };
        const std::size_t jsonPadded = (json.size() + 3) / 4 * 4;
        put32(0x46546C67), put32(2), put32(std::uint32_t(12 + 8 + jsonPadded + 8 + binBytes));
        put32(std::uint32_t(jsonPadded)), put32(0x4E4F534A);
        glb.insert(glb.end(), json.begin(), json.end());
        glb.resize(12 + 8 + jsonPadded, ' ');
        put32(std::uint32_t(binBytes)), put32(0x004E4942);
        for (std::size_t i = 0; i < binBytes; ++i) glb.push_back(std::uint8_t(i * 7 + (i >> 12)));
        const fs::path file = dir.path / ("bin-" + std::to_string(binBytes) + ".glb");
        writeBytes(file, glb);
        auto loaded = pipeline::loadAsset(file, gltf::LoadLimits{}, true);
        REQUIRE_MESSAGE(loaded.ok(), (loaded ? "" : loaded.error().message));
        CHECK_MESSAGE(loaded->sha256.get() == io::sha256Hex(glb), binBytes << " bytes of BIN");
    }
}

TEST_CASE("pipeline: clips analysed side by side give what one after another gives") {
    const std::vector<std::uint8_t> glb = samples::toGlb(samples::makeBiped());
    auto asset = gltf::loadAssetFromMemory(glb, "biped.glb", {});
    REQUIRE(asset.ok());
    const std::size_t clips = asset->clips.size();
    REQUIRE(clips >= 4);
    const std::vector<Options> options(clips);
    pipeline::AnalysisLimits limits;
    auto alone = pipeline::analyseAsset(*asset, options, limits);
    REQUIRE(alone.ok());
    for (const auto& clip : alone->clips) REQUIRE(clip.ok());
    for (std::size_t threads : {2, 3, 16}) {
        INFO(threads << " threads");
        limits.threads = threads;
        auto together = pipeline::analyseAsset(*asset, options, limits);
        REQUIRE(together.ok());
        REQUIRE(together->clips.size() == clips);
        for (std::size_t i = 0; i < clips; ++i) {
            const ClipAnalysis& a = alone->clips[i]->analysis;
            const ClipAnalysis& b = together->clips[i]->analysis;
            CHECK(a.source == b.source);
            CHECK(a.contacts == b.contacts);
            CHECK(a.stride == b.stride);
            CHECK(a.turn == b.turn);
            CHECK(a.track.times == b.track.times);
            CHECK(a.track.translation == b.track.translation);
            CHECK(a.track.yaw == b.track.yaw);
            CHECK(alone->clips[i]->channels.size() == together->clips[i]->channels.size());
        }
    }
}
