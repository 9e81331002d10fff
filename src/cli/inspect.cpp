// rootbake inspect: the analysis of every clip, as a table or as JSON; writes nothing.
#include "cli/cli.h"
#include "gltf/asset.h"
#include "write/bake.h"

#include <cstdio>
#include <numbers>

namespace rootbake::cli {

int inspect(const InspectArgs& args) {
    Options options;
    std::string optionError;
    if (!toOptions(args.analysis, options, optionError)) {
        printError(optionError);
        return kUsage;
    }
    nlohmann::ordered_json assets = nlohmann::ordered_json::array();
    int status = kOk;
    for (const std::string& input : args.inputs) {
        auto asset = loadAsset(input);
        if (!asset) {
            printError(asset.error().message);
            status = kBadInput;
            continue;
        }
        nlohmann::ordered_json clips = nlohmann::ordered_json::array();
        if (!args.json) std::printf("%s\n", input.c_str());
        for (const Clip& clip : asset->clips) {
            // The same analysis and clip objects as bake's sidecar.
            auto baked = bakeClip(asset->rig, clip, options);
            if (!baked) {
                printError(input + ": " + baked.error().message);
                status = kBadInput;
                continue;
            }
            const ClipAnalysis& a = baked->analysis;
            if (args.json) {
                clips.push_back(clipToJson(asset->rig, a, baked->loop, clip.gltfIndex, clip.name));
                continue;
            }
            std::printf("  %-28s %-11s %-22s %9.4f m %8.2f deg %8.4f m/s %7.3f s  %s\n", clip.name.c_str(),
                        sourceName(a.source), a.root >= 0 ? nodeLabel(asset->rig, a.root).c_str() : "-",
                        a.strideLength, a.turn * 180.0 / std::numbers::pi, a.averageSpeed, a.duration,
                        a.reason.c_str());
        }
        if (args.json) assets.push_back({{"file", input}, {"clips", std::move(clips)}});
    }
    if (args.json) std::printf("%s\n", assets.dump(2).c_str());
    return status;
}

}  // namespace rootbake::cli
