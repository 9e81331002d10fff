#include "pipeline/pipeline.h"

#include "write/sha256.h"

#include <atomic>
#include <system_error>

namespace rootbake::pipeline {

namespace {

// Commands run assets on worker threads.
std::atomic<std::uint64_t> loadCount{0};
std::atomic<std::uint64_t> analysisCount{0};

// The file's hash on a thread of its own; where the system gives no thread, taken when
// asked for.
std::shared_future<std::string> hashBeside(const SharedBytes& file) {
    auto hash = [file] { return sha256Hex(file); };
    try {
        return std::async(std::launch::async, hash).share();
    } catch (const std::system_error&) {
        return std::async(std::launch::deferred, hash).share();
    }
}

}  // namespace

Counts counts() { return {loadCount.load(), analysisCount.load()}; }

Result<Loaded> loadAsset(const std::filesystem::path& path, const LoadLimits& limits, bool hash) {
    Loaded out;
    if (!hash) {
        ++loadCount;
        auto asset = rootbake::loadAsset(path, limits);
        if (!asset) return asset.error();
        out.asset = std::move(*asset);
        return out;
    }
    auto bytes = readAssetFile(path, limits);
    if (!bytes) return bytes.error();
    out.sha256 = hashBeside(*bytes);
    auto asset = loadAssetBytes(*bytes, path, limits);
    if (!asset) return asset.error();
    out.asset = std::move(*asset);
    return out;
}

Result<Asset> loadAssetBytes(const SharedBytes& bytes, const std::filesystem::path& path, const LoadLimits& limits) {
    ++loadCount;
    return loadAssetFile(bytes, path, limits);
}

Result<Analysed> analyseAsset(const Asset& asset, const std::vector<Options>& clipOptions,
                              const AnalysisLimits& limits) {
    ++analysisCount;
    if (Status budget = checkAnalysisBudget(asset, Options{}, limits.maxAssetNodeSamples, clipOptions,
                                            limits.maxAssetTrackSamples);
        !budget)
        return Error{asset.fileName + ": " + budget.error().message};
    Analysed out;
    std::uint64_t trackSamples = 0;
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        const Clip& clip = asset.clips[i];
        Result<BakedClip> baked = makeClipInPlace(asset.rig, clip, clipOptions[i]);
        if (baked) trackSamples += baked->analysis.track.times.size();
        if (baked && trackSamples > limits.maxAssetTrackSamples)
            return Error{asset.fileName + ": " + clipLabel(clip) + ": a motion track of " +
                         std::to_string(baked->analysis.track.times.size()) + " samples (following the root's keys), " +
                         std::to_string(trackSamples) + " with the clips before it, more than maxAssetTrackSamples (" +
                         std::to_string(limits.maxAssetTrackSamples) + ")"};
        out.clips.push_back(std::move(baked));
    }
    return out;
}

std::string firstClipError(const Asset& asset, const Analysed& analysed) {
    for (std::size_t i = 0; i < analysed.clips.size(); ++i)
        if (!analysed.clips[i]) return clipLabel(asset.clips[i]) + ": " + analysed.clips[i].error().message;
    return "";
}

}  // namespace rootbake::pipeline
