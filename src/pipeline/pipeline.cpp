#include "pipeline/pipeline.h"

#include "write/sha256.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <system_error>

namespace rootbake::pipeline {

namespace {

// Commands run assets on worker threads.
std::atomic<std::uint64_t> loadCount{0};
std::atomic<std::uint64_t> analysisCount{0};

// The bytes read so far, handed from the reading thread to the hashing one.
struct ReadSoFar {
    std::mutex mutex;
    std::condition_variable changed;
    SharedBytes bytes;   // the leading bytes in place (sharing the file's storage)
    bool ended = false;  // no more will come: the read is done, or failed
};

// The SHA-256 of the bytes as they come in: it follows the read a chunk behind, so that
// once the last byte is read only the last chunk is left to hash (100 MB: ~0.1 s of hashing
// that no longer waits for the read).
std::string hashAsRead(const std::shared_ptr<ReadSoFar>& read) {
    Sha256 hash;
    std::size_t hashed = 0;
    for (;;) {
        SharedBytes bytes;
        bool ended = false;
        {
            std::unique_lock lock(read->mutex);
            read->changed.wait(lock, [&] { return read->bytes.size() > hashed || read->ended; });
            bytes = read->bytes;
            ended = read->ended;
        }
        if (bytes.size() > hashed) {
            hash.update({bytes.data() + hashed, bytes.size() - hashed});
            hashed = bytes.size();
        } else if (ended) {
            return hash.hex();
        }
    }
}

// The file read, its hash taken on a thread of its own as it is read; where the system
// gives no thread, taken when asked for.
Result<SharedBytes> readAndHash(const std::filesystem::path& path, const LoadLimits& limits,
                                std::shared_future<std::string>& sha256) {
    auto read = std::make_shared<ReadSoFar>();
    try {
        sha256 = std::async(std::launch::async, hashAsRead, read).share();
    } catch (const std::system_error&) {
        auto bytes = readAssetFile(path, limits);
        if (bytes) sha256 = std::async(std::launch::deferred, [file = *bytes] { return sha256Hex(file); }).share();
        return bytes;
    }
    // On an error or an exception too: the hashing thread ends, and the future can be dropped.
    struct EndOfRead {
        ReadSoFar& read;
        ~EndOfRead() {
            std::lock_guard lock(read.mutex);
            read.ended = true;
            read.changed.notify_one();
        }
    } end{*read};
    return readAssetFile(path, limits, [&read](const SharedBytes& soFar) {
        std::lock_guard lock(read->mutex);
        read->bytes = soFar;
        read->changed.notify_one();
    });
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
    auto bytes = readAndHash(path, limits, out.sha256);
    if (!bytes) return bytes.error();
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
