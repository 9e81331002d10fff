// The whole bake in memory: analyse every clip, take the motion out of the
// root's keys, rewrite the asset and build the sidecar. Nothing here touches a
// file except reading images that a GLB output embeds (src/io/write_files.h writes).
#pragma once

#include "gltf/asset.h"
#include "write/container.h"
#include "write/sidecar.h"

#include <cstdint>
#include <functional>
#include <future>
#include <span>
#include <string>
#include <vector>

namespace rootbake::pipeline {

// maxAssetNodeSamples' default: see BakeSettings.
inline constexpr std::uint64_t kMaxAssetNodeSamples = 1ull << 28;
// maxAssetTrackSamples' default: 73 minutes of clips at 60 samples per second, whatever
// the clips share (4 clips naming one 2-key sampler over 19 hours are 4 x 19 hours).
inline constexpr std::uint64_t kMaxAssetTrackSamples = 1ull << 18;

// How cleanly the in-place clip loops: measureLoopSeam on the clip with
// `channels` (removeMotion's) in place of its root's.
LoopSeam measureInPlaceLoop(const Rig& rig, const Clip& clip, const ClipAnalysis& analysis,
                            const std::vector<InPlaceChannel>& channels);

// analyzeClip, removeMotion and the loop seam; the error is analyzeClip's.
Result<BakedClip> makeClipInPlace(const Rig& rig, const Clip& clip, const Options& options);

// makeClipInPlace with an error that names the clip
// ("animations[2] \"walk\": root node \"Hips\" is not in the asset").
Result<BakedClip> bakeClip(const Rig& rig, const Clip& clip, const Options& options);

struct BakeSettings {
    Options analysis;                   // every clip's, unless clipAnalysis is given
    std::vector<Options> clipAnalysis;  // one per asset clip (a config's per-clip settings); same upAxis
    write::RewriteOptions rewrite;
    std::string generator = "rootbake";  // "rootbake <version>"
    std::string inputSha256;             // hex of the input file's bytes; empty: computed from inputBytes
    // The same, being hashed beside the load (pipeline::Loaded::sha256): taken once the clips are
    // analysed, so that the hash does not wait for the read. valid(): used over inputSha256.
    std::shared_future<std::string> inputSha256Pending;
    std::string inputName;  // file names only, for the sidecar
    std::string outputName;
    std::string
        rootBone;  // bake --root-bone: the name of the root bone to insert (edit/edit.h); empty: none
    // Analysis work of all clips together: node positions, (samples + 1) x nodes per clip
    // as analyzeClip samples them. A real asset stays far below (a thousand 10 s clips of a
    // 100-node rig at 60 per second are 2^26); a file of 10,000 clips each just under
    // Options::maxSamples does not.
    std::uint64_t maxAssetNodeSamples = kMaxAssetNodeSamples;
    // Motion-track samples of all clips together: what the sidecar (and inspect's and
    // report's results) keep and print, about 40 bytes in memory and 100 in the sidecar
    // each. Refused before the analysis on (samples + 1) per clip, and after each clip on
    // the track it got (a rewritten root's track can follow its keys, up to 4 x samples).
    std::uint64_t maxAssetTrackSamples = kMaxAssetTrackSamples;
    std::size_t clipThreads = 1;  // clips analysed at once (pipeline::AnalysisLimits::threads)
};

// Checks, before any clip is analysed, that the clips' node positions summed in
// clip order stay within maxAssetNodeSamples, and their samples + 1 within
// maxAssetTrackSamples. A clip that analyzeClip refuses on its own (more samples
// than Options::maxSamples) adds nothing. The error names the clip at which a sum
// passes its limit ("animations[9000] \"c\": ... more than maxAssetNodeSamples
// (268435456)").
// clipOptions, when not empty, gives each clip its own (one per clip).
Status checkAnalysisBudget(const gltf::Asset& asset, const Options& options, std::uint64_t maxAssetNodeSamples,
                           std::span<const Options> clipOptions = {},
                           std::uint64_t maxAssetTrackSamples = kMaxAssetTrackSamples);

struct Baked {
    write::RewrittenAsset asset;
    write::SidecarDocument document;      // the sidecar: what an engine reads, and the writer's records
    std::vector<BakedClip> clips;  // per input animation
    // bake --root-bone: the bone's glTF index (-1: none) and name, and whether the asset had it
    // as the clips' root already (then its keys carry the motion and every clip is written as it
    // is); the summary's line on what was done (edit/edit.h, edit::describeRootBone).
    int rootBone = -1;
    std::string rootBoneName;
    bool rootBoneWasPresent = false;
    std::string rootBoneUse;  // "inserted", "reused" or "kept"
    std::string rootBoneSummary;
};

struct Analysed;  // pipeline/pipeline.h

// What bakeAsset's caller may take between the analysis and the describe stage: the analyses
// as analyzeClip made them, every clip analysed (bake --report describes its page from them,
// before a root bone takes the motion off the clips).
using OnAnalysed = std::function<void(const Analysed&)>;

// The whole bake after the load, for one set of settings, the one `rootbake bake` runs: the
// root bone's pinned roots (edit::pinRootsBelowIdleBone), pipeline::analyseAsset, then the describe
// stage: the clips put into the rewritten document (the root bone's plan) and the sidecar.
// inputBytes: the input file as read, for inputSha256 (unused when settings give it). Errors
// name the file (checkAnalysisBudget's, the first clip analyzeClip refused, the root bone's,
// write::rewriteAsset's).
Result<Baked> bakeAsset(const gltf::Asset& asset, std::span<const std::uint8_t> inputBytes,
                        const BakeSettings& settings, const OnAnalysed& onAnalysed = {});

}  // namespace rootbake::pipeline
