// rootbake info: what an asset holds, per clip: duration, channels, paths, interpolations.
#include "cli/cli.h"
#include "cli/run.h"
#include "gltf/asset.h"

#include <cstdio>
#include <map>

namespace rootbake::cli {
namespace {

using Json = nlohmann::ordered_json;

size_t arraySize(const Json& doc, const char* key) {
    auto it = doc.find(key);
    return it != doc.end() && it->is_array() ? it->size() : 0;
}

// Counts of target paths and of sampler interpolations, from the document
// itself so that weights and KHR_animation_pointer channels are listed too.
Json describeClip(const Asset& asset, const Clip& clip) {
    const Json& animation = asset.document["animations"][clip.gltfIndex];
    std::map<std::string, int> paths, interpolations;
    for (const Json& channel : animation["channels"]) {
        const Json& target = channel["target"];
        std::string path = target.value("path", std::string("?"));
        paths[path]++;
        const Json& sampler = animation["samplers"][channel["sampler"].get<size_t>()];
        interpolations[sampler.value("interpolation", std::string("LINEAR"))]++;
    }
    Json out;
    out["name"] = clipName(clip);
    out["animation"] = clip.gltfIndex;
    out["from"] = clip.start;
    out["to"] = clip.end;
    out["duration"] = clip.end - clip.start;
    out["channels"] = animation["channels"].size();
    out["paths"] = paths;
    out["interpolations"] = interpolations;
    return out;
}

Json describeAsset(const Asset& asset) {
    Json out;
    out["file"] = asset.fileName;
    out["container"] = asset.binary ? "glb" : "gltf";
    out["nodes"] = asset.rig.size();
    out["skins"] = arraySize(asset.document, "skins");
    out["meshes"] = arraySize(asset.document, "meshes");
    out["clips"] = Json::array();
    for (const Clip& clip : asset.clips) out["clips"].push_back(describeClip(asset, clip));
    return out;
}

std::string countsText(const Json& counts) {
    std::string text;
    for (const auto& [key, value] : counts.items()) {
        if (!text.empty()) text += ", ";
        text += key + ":" + std::to_string(value.get<int>());
    }
    return text.empty() ? "-" : text;
}

void printText(const Json& asset) {
    std::printf("%s: %s, %d nodes, %d skins, %d meshes, %zu clips\n", asset["file"].get<std::string>().c_str(),
                asset["container"].get<std::string>().c_str(), asset["nodes"].get<int>(),
                asset["skins"].get<int>(), asset["meshes"].get<int>(), asset["clips"].size());
    for (const Json& clip : asset["clips"]) {
        std::printf("  [%d] %-28s %7.3f s  %3d channels  %s  %s\n", clip["animation"].get<int>(),
                    clip["name"].get<std::string>().c_str(), clip["duration"].get<double>(),
                    clip["channels"].get<int>(), countsText(clip["paths"]).c_str(),
                    countsText(clip["interpolations"]).c_str());
    }
}

}  // namespace

int info(const InfoArgs& args) {
    RunContext run;
    if (int code = prepareRun(args.common, run); code != kOk) return code;
    Json assets = Json::array();
    int status = kOk;
    for (const InputFile& input : run.inputs) {
        auto asset = loadInput(run, input);
        if (!asset) {
            printError(asset.error().message);
            status = kBadInput;
            continue;
        }
        std::fputs(loadWarnings(run, *asset).c_str(), stderr);
        Json described = describeAsset(*asset);
        if (args.common.json)
            assets.push_back(std::move(described));
        else if (!args.common.quiet)
            printText(described);
    }
    if (args.common.json) std::printf("%s\n", assets.dump(2).c_str());
    return status;
}

void printError(const std::string& message) { std::fputs(errorLine(message).c_str(), stderr); }

}  // namespace rootbake::cli
