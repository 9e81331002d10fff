// rootbake info: what an asset holds, per clip: duration, channels, paths, interpolations.
#include "cli/cli.h"
#include "cli/run.h"
#include "gltf/asset.h"
#include "rootbake/num.h"

#include <cstdio>
#include <algorithm>
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
Json describeClip(const gltf::Asset& asset, const Clip& clip) {
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
    // A clip plays from 0 to its last key, as inspect and the sidecar measure it
    // (three.js and Babylon alike); a first key after 0 holds its value until then.
    out["from"] = 0.0;
    out["to"] = clip.end;
    out["duration"] = clip.end;
    out["firstKey"] = clip.start;
    out["channels"] = animation["channels"].size();
    out["paths"] = paths;
    out["interpolations"] = interpolations;
    return out;
}

// Every node in glTF order, with what --root, --character-node and --contacts need:
// its name, its parent, whether a skin uses it as a joint, whether it carries a mesh.
Json describeNodes(const gltf::Asset& asset) {
    const Rig& rig = asset.rig;
    std::vector<std::uint8_t> joint(rig.rigIndexOfGltf.size(), 0);
    if (const auto skins = asset.document.find("skins"); skins != asset.document.end() && skins->is_array())
        for (const Json& skin : *skins)
            for (const Json& j : skin.value("joints", Json::array())) joint[j.get<std::size_t>()] = 1;
    Json out = Json::array();
    for (std::size_t g = 0; g < rig.rigIndexOfGltf.size(); ++g) {
        const int n = rig.rigIndexOfGltf[g];
        const int parent = rig.parent[std::size_t(n)];
        out.push_back({{"index", g},
                       {"name", nodeLabel(rig, n)},
                       {"parent", parent >= 0 ? Json(rig.gltfIndex[std::size_t(parent)]) : Json(nullptr)},
                       {"joint", bool(joint[g])},
                       {"mesh", bool(rig.hasMesh[std::size_t(n)])}});
    }
    return out;
}

Json describeSkins(const gltf::Asset& asset) {
    Json out = Json::array();
    const auto skins = asset.document.find("skins");
    if (skins == asset.document.end() || !skins->is_array()) return out;
    for (std::size_t i = 0; i < skins->size(); ++i) {
        const Json& skin = (*skins)[i];
        const Json* name = skin.contains("name") && skin["name"].is_string() ? &skin["name"] : nullptr;
        out.push_back({{"index", i},
                       {"name", name && !name->get_ref<const std::string&>().empty() ? *name
                                                                                        : Json("skins[" + std::to_string(i) + "]")},
                       {"joints", skin.value("joints", Json::array())},
                       {"skeleton", skin.contains("skeleton") ? skin["skeleton"] : Json(nullptr)}});
    }
    return out;
}

Json describeAsset(const gltf::Asset& asset) {
    Json out;
    out["file"] = asset.fileName;
    out["container"] = asset.binary ? "glb" : "gltf";
    out["nodes"] = describeNodes(asset);
    out["skins"] = describeSkins(asset);
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
    std::string out =
        textLine(asset["file"].get<std::string>() + ": " + asset["container"].get<std::string>() + ", " +
                 counted(asset["nodes"].size(), "node", "nodes") + ", " +
                 counted(asset["skins"].size(), "skin", "skins") + ", " +
                 counted(asset["meshes"].get<std::size_t>(), "mesh", "meshes") + ", " +
                 counted(asset["clips"].size(), "clip", "clips"));
    std::vector<std::vector<std::string>> nodes{{"node", "name", "parent", "joint", "mesh"}};
    for (const Json& n : asset["nodes"])
        nodes.push_back({std::to_string(n["index"].get<int>()), n["name"].get<std::string>(),
                         n["parent"].is_null() ? "-" : std::to_string(n["parent"].get<int>()),
                         n["joint"].get<bool>() ? "joint" : "-", n["mesh"].get<bool>() ? "mesh" : "-"});
    out += tableText(nodes, "  ");
    if (!asset["skins"].empty()) {
        std::vector<std::vector<std::string>> skins{{"skin", "name", "joints", "skeleton"}};
        for (const Json& s : asset["skins"])
            skins.push_back({std::to_string(s["index"].get<int>()), s["name"].get<std::string>(),
                             std::to_string(s["joints"].size()),
                             s["skeleton"].is_null() ? "-" : std::to_string(s["skeleton"].get<int>())});
        out += tableText(skins, "  ");
    }
    if (!asset["clips"].empty()) {
        // The name last, whole: no column is padded to the longest name (a pack's clip names run
        // to 30 letters and more), and the name is there to copy into --config's clip rules.
        std::vector<std::vector<std::string>> clips{{"clip", "duration", "channels", "paths", "interpolations", "name"}};
        for (const Json& c : asset["clips"]) {
            clips.push_back({std::to_string(c["animation"].get<int>()), fixedPoint(c["duration"].get<double>(), 3) + " s",
                             std::to_string(c["channels"].get<int>()), countsText(c["paths"]),
                             countsText(c["interpolations"]), c["name"].get<std::string>()});
        }
        out += tableText(clips, "  ");
    }
    std::fputs(out.c_str(), stdout);
}

}  // namespace

int info(const InfoArgs& args) {
    RunContext run;
    if (int code = prepareRun(args.common, run); code != kOk) return code;
    Json assets = Json::array();
    int status = kOk;
    for (const InputFile& input : run.inputs) {
        std::optional<gltf::Asset> asset = loadPrinting(run, input, status);
        if (!asset) continue;
        Json described = describeAsset(*asset);
        if (args.common.json)
            assets.push_back(std::move(described));
        else if (!args.common.quiet)
            printText(described);
    }
    if (args.common.json) std::fputs(jsonText(assets).c_str(), stdout);
    return status;
}

void printError(const std::string& message) { std::fputs(errorLine(message).c_str(), stderr); }

}  // namespace rootbake::cli
