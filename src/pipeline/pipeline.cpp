#include "pipeline/pipeline.h"

#include "io/sha256.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

namespace rootbake::pipeline {

namespace {

// Commands run assets on worker threads.
std::atomic<std::uint64_t> loadCount{0};
std::atomic<std::uint64_t> analysisCount{0};

// The bytes read so far, handed from the reading thread to the hashing one.
struct ReadSoFar {
    std::mutex mutex;
    std::condition_variable changed;
    io::SharedBytes bytes;  // the leading bytes in place (sharing the file's storage)
    bool ended = false;  // no more will come: the read is done, or failed
};

// The SHA-256 of the bytes as they come in: it follows the read a chunk behind, so that
// once the last byte is read only the last chunk is left to hash (100 MB: ~0.1 s of hashing
// that no longer waits for the read).
std::string hashAsRead(const std::shared_ptr<ReadSoFar>& read) {
    io::Sha256 hash;
    std::size_t hashed = 0;
    for (;;) {
        io::SharedBytes bytes;
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
Result<io::SharedBytes> readAndHash(const std::filesystem::path& path, const gltf::LoadLimits& limits,
                                    std::shared_future<std::string>& sha256) {
    auto read = std::make_shared<ReadSoFar>();
    try {
        sha256 = std::async(std::launch::async, hashAsRead, read).share();
    } catch (const std::system_error&) {
        auto bytes = gltf::readAssetFile(path, limits);
        if (bytes)
            sha256 =
                std::async(std::launch::deferred, [file = *bytes] { return io::sha256Hex(file); }).share();
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
    return gltf::readAssetFile(path, limits, [&read](const io::SharedBytes& soFar) {
        std::lock_guard lock(read->mutex);
        read->bytes = soFar;
        read->changed.notify_one();
    });
}

}  // namespace

Counts counts() { return {loadCount.load(), analysisCount.load()}; }

Result<Loaded> loadAsset(const std::filesystem::path& path, const gltf::LoadLimits& limits, bool hash) {
    Loaded out;
    if (!hash) {
        ++loadCount;
        auto asset = rootbake::gltf::loadAsset(path, limits);
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

Result<gltf::Asset> loadAssetBytes(const io::SharedBytes& bytes, const std::filesystem::path& path,
                                   const gltf::LoadLimits& limits) {
    ++loadCount;
    return gltf::loadAssetFile(bytes, path, limits);
}

namespace {

// work(i) for i = 0, 1, ... < count, on up to `threads` threads (this one among them), until a
// call returns false: the calls it started before then finish, so the indices done are always
// the first ones. The first exception a call threw (out of memory, mostly) stops it the same
// way and is thrown here once every thread has stopped.
void forEachIndex(std::size_t count, std::size_t threads, const std::function<bool(std::size_t)>& work) {
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::exception_ptr thrown;  // under mutex
    auto worker = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) {
            try {
                if (!work(i)) next = count;
            } catch (...) {
                std::lock_guard lock(mutex);
                if (!thrown) thrown = std::current_exception();
                next = count;
            }
        }
    };
    std::vector<std::thread> others;
    for (std::size_t t = 1; t < std::min(threads, count); ++t) {
        try {
            others.emplace_back(worker);
        } catch (const std::system_error&) {  // no thread to be had: the ones running do it all
            break;
        }
    }
    worker();
    for (std::thread& t : others) t.join();
    if (thrown) std::rethrow_exception(thrown);
}

}  // namespace

Result<Analysed> analyseAsset(const gltf::Asset& asset, const std::vector<Options>& clipOptions,
                              const AnalysisLimits& limits) {
    ++analysisCount;
    if (Status budget = checkAnalysisBudget(asset, Options{}, limits.maxAssetNodeSamples, clipOptions,
                                            limits.maxAssetTrackSamples);
        !budget)
        return Error{asset.fileName + ": " + budget.error().message};
    // Each clip's analysis reads the asset and its options only, so they run side by side,
    // until the tracks made pass the limit; they are then counted in the asset's order, so the
    // message names the clip one after another would.
    std::vector<std::optional<Result<BakedClip>>> made(asset.clips.size());
    std::atomic<std::uint64_t> madeSamples{0};
    forEachIndex(made.size(), limits.threads, [&](std::size_t i) {
        made[i] = makeClipInPlace(asset.rig, asset.clips[i], clipOptions[i]);
        if (*made[i]) madeSamples += (*made[i])->analysis.track.times.size();
        return madeSamples <= limits.maxAssetTrackSamples;
    });
    Analysed out;
    std::uint64_t trackSamples = 0;
    for (std::size_t i = 0; i < made.size(); ++i) {
        Result<BakedClip>& baked = *made[i];
        if (baked) trackSamples += baked->analysis.track.times.size();
        if (baked && trackSamples > limits.maxAssetTrackSamples)
            return Error{asset.fileName + ": " + clipLabel(asset.clips[i]) + ": a motion track of " +
                         std::to_string(baked->analysis.track.times.size()) + " samples (following the root's keys), " +
                         std::to_string(trackSamples) + " with the clips before it, more than maxAssetTrackSamples (" +
                         std::to_string(limits.maxAssetTrackSamples) + ")"};
        out.clips.push_back(std::move(baked));
    }
    return out;
}

std::string firstClipError(const gltf::Asset& asset, const Analysed& analysed) {
    for (std::size_t i = 0; i < analysed.clips.size(); ++i)
        if (!analysed.clips[i]) return clipLabel(asset.clips[i]) + ": " + analysed.clips[i].error().message;
    return "";
}

}  // namespace rootbake::pipeline
