#include "write/bake.h"

#include "write/rootbone.h"
#include "write/sha256.h"
#include "rootbake/num.h"

#include <algorithm>
#include <cmath>

namespace rootbake {

namespace {

// A count as digits while a double holds it exactly (2^53), else to 3 digits.
std::string whole(double count) { return count < 0x1p53 ? std::to_string(std::uint64_t(count)) : num(count, 3); }

}  // namespace

Status checkAnalysisBudget(const Asset& asset, const Options& defaults, std::uint64_t maxAssetNodeSamples,
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
            return Error{clipLabel(clip) + ": " + whole(samples) + " motion-track samples (" +
                         (wanted < std::ceil(clip.end * options.samplesPerSecond)
                              ? num(kSamplesPerKey, 3) + " per key x its keys + 1), "
                              : num(clip.end, 3) + " s x " + num(options.samplesPerSecond, 3) + " per second + 1), ") +
                         whole(trackSamples) +
                         " with the clips before it, more than maxAssetTrackSamples (" +
                         std::to_string(maxAssetTrackSamples) + ")"};
        total += samples * nodes;
        if (total > double(maxAssetNodeSamples))
            return Error{clipLabel(clip) + ": the " + std::to_string(i + 1) + " clips up to this one need " +
                         num(total, 3) + " analysis node positions (samples x " + std::to_string(asset.rig.size()) +
                         " nodes) in all, more than maxAssetNodeSamples (" + std::to_string(maxAssetNodeSamples) +
                         ")"};
    }
    return Ok{};
}

Result<BakedClip> bakeClip(const Rig& rig, const Clip& clip, const Options& options) {
    auto analysis = analyzeClip(rig, clip, options);
    if (!analysis)
        return Error{clipLabel(clip) + ": " + analysis.error().message};
    BakedClip out;
    out.analysis = std::move(*analysis);
    out.channels = removeMotion(rig, clip, out.analysis);
    out.loop = measureInPlaceLoop(rig, clip, out.analysis, out.channels);
    return out;
}

Result<Baked> bakeAsset(const Asset& asset, std::span<const std::uint8_t> inputBytes,
                        const BakeSettings& settings) {
    if (!settings.clipAnalysis.empty() && settings.clipAnalysis.size() != asset.clips.size())
        return Error{asset.fileName + ": " + std::to_string(settings.clipAnalysis.size()) + " clip settings for " +
                     std::to_string(asset.clips.size()) + " clips"};
    if (Status budget = checkAnalysisBudget(asset, settings.analysis, settings.maxAssetNodeSamples,
                                            settings.clipAnalysis, settings.maxAssetTrackSamples);
        !budget)
        return Error{asset.fileName + ": " + budget.error().message};
    Baked out;
    std::vector<ClipRewrite> rewrites;
    std::uint64_t trackSamples = 0;
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        const Clip& clip = asset.clips[i];
        auto baked = bakeClip(asset.rig, clip, settings.clipAnalysis.empty() ? settings.analysis : settings.clipAnalysis[i]);
        if (!baked) return Error{asset.fileName + ": " + baked.error().message};
        // A root track that follows its keys can be longer than the samples counted above.
        trackSamples += baked->analysis.track.times.size();
        if (trackSamples > settings.maxAssetTrackSamples)
            return Error{asset.fileName + ": " + clipLabel(clip) + ": a motion track of " +
                         std::to_string(baked->analysis.track.times.size()) + " samples (following the root's keys), " +
                         std::to_string(trackSamples) + " with the clips before it, more than maxAssetTrackSamples (" +
                         std::to_string(settings.maxAssetTrackSamples) + ")"};
        if (!baked->channels.empty()) rewrites.push_back({clip.gltfIndex, baked->channels, {}});
        out.clips.push_back(std::move(*baked));
    }
    nlohmann::ordered_json rootBone;  // null without one
    const NewRootBone* newRootBone = nullptr;
    RootBonePlan plan;
    if (!settings.rootBone.empty()) {
        if (settings.rewrite.keepSource)
            return Error{asset.fileName + ": a root bone and the source clips kept beside the in-place ones "
                                          "cannot go together: the source clips would move the root under it"};
        auto planned = planRootBone(asset, out.clips, settings.rootBone);
        if (!planned) return planned.error();
        plan = std::move(*planned);
        rootBone = {{"name", settings.rootBone}, {"index", plan.node}};
        rewrites = std::move(plan.rewrites);
        if (plan.present) {  // its motion is on it already: write the asset as it is
            rewrites.clear();
            for (BakedClip& clip : out.clips) clip.channels.clear();
        } else {
            newRootBone = &plan.bone;
        }
    }
    auto rewritten = rewriteAsset(asset, rewrites, settings.rewrite, newRootBone);
    if (!rewritten) return rewritten.error();
    out.asset = std::move(*rewritten);

    nlohmann::ordered_json clips = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        const int index = asset.clips[i].gltfIndex;
        clips.push_back(clipToJson(asset.rig, out.clips[i].analysis, out.clips[i].loop,
                                   out.asset.animationOf[index], out.asset.nameOf[index]));
    }
    SidecarHeader header;
    header.generator = settings.generator;
    header.input = settings.inputName;
    header.inputSha256 = settings.inputSha256.empty() ? sha256Hex(inputBytes) : settings.inputSha256;
    header.output = settings.outputName;
    header.upAxis = glm::normalize(settings.analysis.upAxis);  // analyzeClip refused a zero axis
    header.rootBone = std::move(rootBone);
    out.sidecar = sidecarToJson(header, std::move(clips));
    return out;
}

}  // namespace rootbake
