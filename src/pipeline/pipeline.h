// The one pass every command makes over an asset, in memory:
//   load -> analyse (every clip, within the asset's limits) -> remove (in place) -> describe
// (the rewritten document and the sidecar: bakeAsset in pipeline/bake.h).
// inspect, check, report, verify and bake take what they print or write from these results;
// none loads or analyses an asset twice, and the counters below let the tests hold them to it.
#pragma once

#include "gltf/asset.h"
#include "pipeline/bake.h"

#include <cstdint>
#include <filesystem>
#include <future>
#include <string>
#include <vector>

namespace rootbake::pipeline {

// Passes through the stages since the program started, on every thread: what a test
// compares before and after one command.
struct Counts {
    std::uint64_t loads = 0;     // assets handed to the loader (loadAsset, loadAssetBytes)
    std::uint64_t analyses = 0;  // assets analysed (analyseAsset), every clip of one in one pass
};
Counts counts();

// An asset as loaded, with the hex SHA-256 of its file when asked for (bake's sidecar).
struct Loaded {
    gltf::Asset asset;
    // Hashed on a thread of its own as the file is read, then while the asset is loaded and
    // analysed (100 MB take 0.1 s, more than the rest of a bake): get() it when writing the sidecar.
    // Not valid() unless asked for.
    std::shared_future<std::string> sha256;
};

// Reads and loads the asset at `path` within `limits`; with `hash`, the bytes read are also
// hashed, so the file is read once for both. The error is the loader's.
Result<Loaded> loadAsset(const std::filesystem::path& path, const gltf::LoadLimits& limits, bool hash);

// Loads an asset from its file's bytes, already read (and checked: verify hashes its source first).
Result<gltf::Asset> loadAssetBytes(const io::SharedBytes& bytes, const std::filesystem::path& path,
                             const gltf::LoadLimits& limits);

// The analysis of all clips of an asset together (BakeSettings holds the same two).
struct AnalysisLimits {
    std::uint64_t maxAssetNodeSamples = kMaxAssetNodeSamples;
    std::uint64_t maxAssetTrackSamples = kMaxAssetTrackSamples;
    // Clips analysed at once: each on a thread of its own (this one among them), the results
    // the same for every count. 1: one after another on this thread.
    std::size_t threads = 1;
};

// Every clip analysed and made in place, in the asset's order. A clip analyzeClip refuses
// keeps its error (without the clip's label: callers say it their way) and the others go on.
struct Analysed {
    std::vector<Result<BakedClip>> clips;
};

// Checks the asset's budget (checkAnalysisBudget), then analyses every clip with its own
// options (one per clip; limits.threads at once), holding the motion tracks to
// maxAssetTrackSamples as they come (a root track follows its keys: longer than the samples
// the budget counted). The error names the file ("walk.glb: animations[9] \"c\": ... more
// than maxAssetNodeSamples (...)").
Result<Analysed> analyseAsset(const gltf::Asset& asset, const std::vector<Options>& clipOptions,
                              const AnalysisLimits& limits);

// The first clip analyzeClip refused, as bakeClip says it ("animations[2] \"walk\": ..."); empty: none.
std::string firstClipError(const gltf::Asset& asset, const Analysed& analysed);

}  // namespace rootbake::pipeline
