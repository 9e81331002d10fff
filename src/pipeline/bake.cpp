#include "pipeline/bake.h"

#include "pipeline/pipeline.h"
#include "pipeline/sidecar.h"

#include "io/sha256.h"
#include "rootbake/num.h"
#include "edit/edit.h"

#include <algorithm>
#include <cmath>

namespace rootbake::pipeline {

namespace {

// A count as digits while a double holds it exactly (2^53), else to 3 digits.
std::string whole(double count) {
    return count < 0x1p53 ? std::to_string(std::uint64_t(count)) : num(count, 3);
}

}  // namespace

Status checkAnalysisBudget(const gltf::Asset& asset, const Options& defaults, std::uint64_t maxAssetNodeSamples,
                           std::span<const Options> clipOptions, std::uint64_t maxAssetTrackSamples) {
    // As analyzeClip counts them, plus one.
    const double nodes = asset.rig.size();
    double total = 0.0;
    double trackSamples = 0.0;
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        const Clip& clip = asset.clips[i];
        const Options& options = clipOptions.empty() ? defaults : clipOptions[i];
        const double wanted = analysisSampleCount(clip, options);
        if (!(wanted <= double(options.maxSamples))) continue;  // refused by analyzeClip itself
        const double samples = wanted + 1.0;
        trackSamples += samples;
        if (trackSamples > double(maxAssetTrackSamples))
            return Error{
                clipLabel(clip) + ": " + whole(samples) + " motion-track samples (" +
                (wanted < std::ceil(clip.end * options.samplesPerSecond)
                     ? num(kSamplesPerKey, 3) + " per key x its keys + 1), "
                     : num(clip.end, 3) + " s x " + num(options.samplesPerSecond, 3) + " per second + 1), ") +
                whole(trackSamples) + " with the clips before it, more than maxAssetTrackSamples (" +
                std::to_string(maxAssetTrackSamples) + ")"};
        total += samples * nodes;
        if (total > double(maxAssetNodeSamples))
            return Error{clipLabel(clip) + ": " +
                         (i == 0 ? std::string("the clip needs ")
                                 : "the " + std::to_string(i + 1) + " clips up to this one need ") +
                         num(total, 3) + " analysis node positions (samples x " +
                         std::to_string(asset.rig.size()) +
                         " nodes) in all, more than maxAssetNodeSamples (" +
                         std::to_string(maxAssetNodeSamples) + ")"};
    }
    return Ok{};
}

LoopSeam measureInPlaceLoop(const Rig& rig, const Clip& clip, const ClipAnalysis& analysis,
                            const std::vector<InPlaceChannel>& channels) {
    return measureLoopSeam(rig, applyInPlace(clip, channels), analysis);
}

Result<BakedClip> makeClipInPlace(const Rig& rig, const Clip& clip, const Options& options) {
    auto analysis = analyzeClip(rig, clip, options);
    if (!analysis) return analysis.error();
    BakedClip out;
    out.analysis = std::move(*analysis);
    out.channels = removeMotion(rig, clip, out.analysis);
    out.loop = measureInPlaceLoop(rig, clip, out.analysis, out.channels);
    return out;
}

Result<BakedClip> bakeClip(const Rig& rig, const Clip& clip, const Options& options) {
    auto baked = makeClipInPlace(rig, clip, options);
    if (!baked) return Error{clipLabel(clip) + ": " + baked.error().message};
    return baked;
}

namespace {

// bake --root-bone: the rewrites that put each clip's motion on the bone, none when the asset
// has it already (its keys carry the motion). `bone` is what the rewrite inserts, if anything
// (nothing when an idle bone of the asset is reused).
Status planBone(const gltf::Asset& asset, const BakeSettings& settings, Baked& out,
                std::vector<edit::ClipRewrite>& rewrites, edit::RootBonePlan& plan, const edit::NewRootBone*& bone) {
    if (settings.rewrite.keepSource)
        return Error{asset.fileName +
                     ": a root bone and the source clips kept beside the in-place ones "
                     "cannot go together: the source clips would move the root under it"};
    auto planned = edit::planRootBone(asset, out.clips, settings.rootBone);
    if (!planned) return planned.error();
    plan = std::move(*planned);
    out.rootBone = plan.node;
    out.rootBoneName = plan.name;
    out.rootBoneWasPresent = plan.use == edit::RootBoneUse::Kept;
    out.rootBoneUse = edit::rootBoneUseName(plan.use);
    out.rootBoneSummary = edit::describeRootBone(asset.rig, plan);
    rewrites = std::move(plan.rewrites);
    if (plan.use == edit::RootBoneUse::Kept) {  // its motion is on it already: write the asset as it is
        rewrites.clear();
        for (BakedClip& clip : out.clips) clip.channels.clear();
    } else if (plan.use == edit::RootBoneUse::Inserted) {
        bone = &plan.bone;
    }
    return Ok{};
}

// The markers of each clip that has footsteps, for its animation's extras. None when the asset
// had its root bone already: it is written as it is, byte for byte.
std::vector<edit::AnimationExtras> animationExtras(const gltf::Asset& asset, const Baked& out) {
    std::vector<edit::AnimationExtras> extras;
    if (out.rootBoneWasPresent) return extras;
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        const SidecarMarkers markers = sidecarMarkers(asset.rig, out.clips[i].analysis);
        if (!markers.events.empty()) extras.push_back({asset.clips[i].gltfIndex, write::toAnimationExtras(markers)});
    }
    return extras;
}

write::SidecarDocument sidecarOf(const gltf::Asset& asset, const Baked& out, std::span<const std::uint8_t> inputBytes,
                          const BakeSettings& settings) {
    write::SidecarDocument document;
    Sidecar& sidecar = document.sidecar;
    sidecar.schema = newestSidecarSchema();
    sidecar.generator = settings.generator;
    sidecar.input = settings.inputName;
    sidecar.inputSha256 = settings.inputSha256Pending.valid() ? settings.inputSha256Pending.get()
                          : settings.inputSha256.empty()      ? io::sha256Hex(inputBytes)
                                                              : settings.inputSha256;
    sidecar.output = settings.outputName;
    sidecar.hasRootBone = out.rootBone >= 0;
    sidecar.rootBone = {out.rootBoneName, out.rootBone};
    const glm::dvec3 up = glm::normalize(settings.analysis.upAxis);  // analyzeClip refused a zero axis
    sidecar.upAxis = {up.x, up.y, up.z};
    sidecar.units = "metres (glTF scene units)";
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        const int index = asset.clips[i].gltfIndex;
        const ClipAnalysis& analysis = out.clips[i].analysis;
        sidecar.clips.push_back(
            sidecarClip(asset.rig, analysis, out.asset.animationOf[index], out.asset.nameOf[index], up));
        document.records.push_back(sidecarClipRecord(asset.rig, analysis, out.clips[i].loop));
    }
    return document;
}

// The describe stage: the clips analysed and made in place put into the rewritten document and
// the sidecar.
Result<Baked> describeAsset(const gltf::Asset& asset, Analysed analysed, std::span<const std::uint8_t> inputBytes,
                            const BakeSettings& settings) {
    Baked out;
    std::vector<edit::ClipRewrite> rewrites;
    for (Result<BakedClip>& baked : analysed.clips) {
        const Clip& clip = asset.clips[out.clips.size()];
        if (!baked->channels.empty()) rewrites.push_back({clip.gltfIndex, baked->channels, {}});
        out.clips.push_back(std::move(*baked));
    }
    edit::RootBonePlan plan;  // outlives the rewrite, which reads its bone
    const edit::NewRootBone* newRootBone = nullptr;
    if (!settings.rootBone.empty())
        if (Status planned = planBone(asset, settings, out, rewrites, plan, newRootBone); !planned)
            return planned.error();
    auto rewritten =
        write::rewriteAsset(asset, rewrites, settings.rewrite, newRootBone, animationExtras(asset, out));
    if (!rewritten) return rewritten.error();
    out.asset = std::move(*rewritten);
    out.document = sidecarOf(asset, out, inputBytes, settings);
    return out;
}

}  // namespace

Result<Baked> bakeAsset(const gltf::Asset& asset, std::span<const std::uint8_t> inputBytes,
                        const BakeSettings& settings, const OnAnalysed& onAnalysed) {
    if (!settings.clipAnalysis.empty() && settings.clipAnalysis.size() != asset.clips.size())
        return Error{asset.fileName + ": " + std::to_string(settings.clipAnalysis.size()) +
                     " clip settings for " + std::to_string(asset.clips.size()) + " clips"};
    std::vector<Options> options = settings.clipAnalysis.empty()
                                       ? std::vector<Options>(asset.clips.size(), settings.analysis)
                                       : settings.clipAnalysis;
    if (!settings.rootBone.empty())
        options = edit::pinRootsBelowIdleBone(asset, std::move(options), settings.rootBone);
    auto analysed = analyseAsset(
        asset, options, {settings.maxAssetNodeSamples, settings.maxAssetTrackSamples, settings.clipThreads});
    if (!analysed) return analysed.error();
    if (std::string error = firstClipError(asset, *analysed); !error.empty())
        return Error{asset.fileName + ": " + error};
    if (onAnalysed) onAnalysed(*analysed);
    return describeAsset(asset, std::move(*analysed), inputBytes, settings);
}

}  // namespace rootbake::pipeline
