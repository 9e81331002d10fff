#include "write/sidecar.h"

namespace rootbake {

using Json = nlohmann::ordered_json;

namespace {

Json vec3(const glm::dvec3& v) {
    return Json::array({v.x, v.y, v.z});
}

}  // namespace

Json nodeRef(const Rig& rig, int node) {
    if (node < 0) return nullptr;
    return Json{{"name", nodeLabel(rig, node)}, {"index", rig.gltfIndex[node]}};
}

LoopSeam measureInPlaceLoop(const Rig& rig, const Clip& clip, const ClipAnalysis& analysis,
                            const std::vector<InPlaceChannel>& channels) {
    return measureLoopSeam(rig, applyInPlace(clip, channels), analysis);
}

Json clipToJson(const Rig& rig, const ClipAnalysis& a, const LoopSeam& loop, int animationIndex,
                const std::string& name) {
    Json out;
    out["name"] = name;
    out["animation"] = animationIndex;
    out["source"] = sourceName(a.source);
    out["rootNode"] = nodeRef(rig, a.root);
    out["characterNode"] = nodeRef(rig, a.character);
    out["contactNodes"] = Json::array();
    for (int node : a.contacts) out["contactNodes"].push_back(nodeRef(rig, node));
    out["from"] = a.from;
    out["to"] = a.to;
    out["duration"] = a.duration;
    out["characterHeight"] = a.characterHeight;
    out["travelDirection"] = vec3(a.travelDirection);
    out["stride"] = vec3(a.stride);
    out["strideLength"] = a.strideLength;
    out["turn"] = a.turn;
    out["extractsRotation"] = a.extractsRotation;
    out["averageSpeed"] = a.averageSpeed;
    out["averageAngularSpeed"] = a.averageAngularSpeed;

    Json track;
    // Samples per second of clip time; the track has duration * sampleRate + 1 entries.
    track["sampleRate"] = a.duration > 0.0 ? double(a.track.times.size() - 1) / a.duration : 0.0;
    track["times"] = a.track.times;
    track["translation"] = Json::array();
    for (const glm::dvec3& t : a.track.translation) track["translation"].push_back(vec3(t));
    track["yaw"] = a.track.yaw;
    out["track"] = std::move(track);

    out["contacts"] = Json::array();
    for (const ContactPlanting& c : a.planting) {
        Json planted = Json::array();
        for (const PlantedInterval& p : c.planted) planted.push_back(Json::array({p.start, p.end}));
        out["contacts"].push_back(Json{{"node", nodeRef(rig, c.node)}, {"planted", std::move(planted)}});
    }
    out["loop"] = Json{{"positionError", loop.position},
                       {"positionErrorFraction", loop.positionFraction},
                       {"rotationErrorDegrees", loop.rotationDegrees},
                       {"worstNode", nodeRef(rig, loop.worstNode)}};
    out["reason"] = a.reason;
    out["warnings"] = a.warnings;
    return out;
}

Json sidecarToJson(const SidecarHeader& h, Json clips) {
    Json out;
    out["schema"] = kSidecarSchema;
    out["generator"] = h.generator;
    out["input"] = h.input;
    out["inputSha256"] = h.inputSha256;
    out["output"] = h.output;
    out["upAxis"] = vec3(h.upAxis);
    out["units"] = "metres (glTF scene units)";
    out["clips"] = std::move(clips);
    return out;
}

}  // namespace rootbake
