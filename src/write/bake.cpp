#include "write/bake.h"

#include "write/sha256.h"

namespace rootbake {

Result<BakedClip> bakeClip(const Rig& rig, const Clip& clip, const Options& options) {
    auto analysis = analyzeClip(rig, clip, options);
    if (!analysis)
        return Error{"animations[" + std::to_string(clip.gltfIndex) + "] \"" + clip.name +
                     "\": " + analysis.error().message};
    BakedClip out;
    out.analysis = std::move(*analysis);
    out.channels = removeMotion(rig, clip, out.analysis);
    out.loop = measureInPlaceLoop(rig, clip, out.analysis, out.channels);
    return out;
}

Result<Baked> bakeAsset(const Asset& asset, std::span<const std::uint8_t> inputBytes,
                        const BakeSettings& settings) {
    Baked out;
    std::vector<ClipRewrite> rewrites;
    for (const Clip& clip : asset.clips) {
        auto baked = bakeClip(asset.rig, clip, settings.analysis);
        if (!baked) return Error{asset.fileName + ": " + baked.error().message};
        if (!baked->channels.empty()) rewrites.push_back({clip.gltfIndex, baked->channels});
        out.clips.push_back(std::move(*baked));
    }
    auto rewritten = rewriteAsset(asset, rewrites, settings.rewrite);
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
    header.inputSha256 = sha256Hex(inputBytes);
    header.output = settings.outputName;
    header.upAxis = glm::normalize(settings.analysis.upAxis);  // analyzeClip refused a zero axis
    out.sidecar = sidecarToJson(header, std::move(clips));
    return out;
}

}  // namespace rootbake
