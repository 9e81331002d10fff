// bench_phases: the time of each phase of `rootbake bake` on one asset, in process.
//
//   bench_phases IN OUT RUNS   -> one JSON document on stdout (times: medians over RUNS, s)
//
// The phases are those of src/cli/bake.cpp, in its order, through the same library calls:
//   load     gltf::readAssetFile, its SHA-256 (the sidecar's inputSha256), gltf::loadAssetFile of the bytes
//   analyse  pipeline::bakeAsset up to its OnAnalysed hook: the budget, then every clip analysed,
//            made in place and its loop seam measured
//   rewrite  the rest of bakeAsset: the root bone, the rewritten document and the sidecar document
//   write    io::writeFiles (temporary files, then renamed) of the asset and the sidecar's text
// bakeAsset is the sum of analyse and rewrite: one call, the command's. Each clip's analysis is
// also timed on its own (bakeClip), outside the phases.
#include "io/sha256.h"
#include "pipeline/bake.h"
#include "pipeline/pipeline.h"
#include "rootbake/version.h"
#include "io/write_files.h"
#include "write/sidecar.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace rootbake;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n == 0 ? 0.0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

[[noreturn]] void fail(const std::string& message) {
    std::fprintf(stderr, "bench_phases: error: %s\n", message.c_str());
    std::exit(2);
}

struct RunTimes {
    double load = 0.0, analyse = 0.0, rewrite = 0.0, write = 0.0, bakeAsset = 0.0;  // s
    std::vector<double> clips;  // s, bakeClip of each clip
};

// One bake of `input` to `output`, as src/cli/bake.cpp does it (GLB in, GLB out), timed by phase:
// pipeline::bakeAsset, the command's own call, is split at its OnAnalysed hook.
RunTimes bakeOnce(const fs::path& input, const fs::path& output) {
    RunTimes times;
    pipeline::BakeSettings settings;
    settings.rewrite.container = write::Container::Glb;
    settings.rewrite.binName = output.stem().string() + ".bin";
    settings.generator = "rootbake " ROOTBAKE_VERSION;
    settings.inputName = input.filename().string();
    settings.outputName = output.filename().string();

    auto start = Clock::now();
    auto bytes = gltf::readAssetFile(input);
    if (!bytes) fail(bytes.error().message);
    settings.inputSha256 = io::sha256Hex(*bytes);
    auto asset = gltf::loadAssetFile(std::move(*bytes), input);
    if (!asset) fail(asset.error().message);
    times.load = secondsSince(start);

    // Each clip on its own, outside the phases: what the analysis of each costs.
    for (const Clip& clip : asset->clips) {
        const auto clipStart = Clock::now();
        if (auto one = pipeline::bakeClip(asset->rig, clip, settings.analysis); !one)
            fail(one.error().message);
        times.clips.push_back(secondsSince(clipStart));
    }

    start = Clock::now();
    Clock::time_point analysed = start;
    auto baked = pipeline::bakeAsset(*asset, {}, settings,
                                     [&analysed](const pipeline::Analysed&) { analysed = Clock::now(); });
    if (!baked) fail(baked.error().message);
    times.analyse = std::chrono::duration<double>(analysed - start).count();
    times.rewrite = secondsSince(analysed);  // the rewrite and the sidecar document
    times.bakeAsset = secondsSince(start);

    start = Clock::now();
    std::vector<io::PlannedFile> files;
    files.push_back({output, {}, {}});
    for (const write::OutputPiece& p : baked->asset.main)  // written from where they are, as the CLI does
        files.back().gathered.push_back(p.bytes.empty() ? p.input : std::span<const std::uint8_t>(p.bytes));
    files.back().size = baked->asset.mainSize;
    files.push_back({output.parent_path() / (output.stem().string() + ".rootmotion.json"),
                     sidecarBytes(baked->document),
                     {}});
    if (auto failure = io::writeFiles(std::move(files), {input}, true)) fail(failure->message);
    times.write = secondsSince(start);
    return times;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: bench_phases IN.glb OUT.glb RUNS\n");
        return 1;
    }
    const fs::path input = argv[1];
    const fs::path output = argv[2];
    const int runs = std::max(1, std::atoi(argv[3]));

    auto asset = gltf::loadAsset(input);
    if (!asset) fail(asset.error().message);
    double clipSeconds = 0.0;  // s, all clips
    for (const Clip& clip : asset->clips) clipSeconds += clip.end - clip.start;
    const int nodes = asset->rig.size();

    std::vector<RunTimes> all;
    for (int run = 0; run < runs; ++run) all.push_back(bakeOnce(input, output));
    const auto phase = [&all](double RunTimes::*field) {
        std::vector<double> values;
        for (const RunTimes& r : all) values.push_back(r.*field);
        return median(values);
    };

    nlohmann::ordered_json clips = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < asset->clips.size(); ++i) {
        std::vector<double> values;
        for (const RunTimes& r : all) values.push_back(r.clips[i]);
        const Clip& clip = asset->clips[i];
        clips.push_back(
            {{"name", clip.name}, {"duration", clip.end - clip.start}, {"analyseSeconds", median(values)}});
    }
    const double analyse = phase(&RunTimes::analyse);
    nlohmann::ordered_json out{
        {"file", input.string()},
        {"runs", runs},
        {"nodes", nodes},
        {"clips", asset->clips.size()},
        {"clipSeconds", clipSeconds},
        {"loadSeconds", phase(&RunTimes::load)},
        {"analyseSeconds", analyse},
        {"rewriteSeconds", phase(&RunTimes::rewrite)},
        {"writeSeconds", phase(&RunTimes::write)},
        {"bakeAssetSeconds", phase(&RunTimes::bakeAsset)},
        // s of analysis per second of clip per rig node: the cost of one unit of work
        {"analyseSecondsPerNodeSecond", analyse / (clipSeconds * nodes)},
        {"perClip", std::move(clips)},
    };
    std::printf("%s\n", out.dump().c_str());
    return 0;
}
