#include "write/sidecar.h"

namespace rootbake {

using Json = nlohmann::ordered_json;

namespace {

// -0.0 prints as "-0.0": a direction of [-0.0, -0.0, -1.0] reads as a bug. Every number
// of the sidecar passes here.
double unsignedZero(double v) { return v == 0.0 ? 0.0 : v; }

Json numbers(const std::vector<double>& values) {
    Json out = Json::array();
    for (double v : values) out.push_back(unsignedZero(v));
    return out;
}

Json vec3(const glm::dvec3& v) {
    return Json::array({unsignedZero(v.x), unsignedZero(v.y), unsignedZero(v.z)});
}

}  // namespace

Json nodeRef(const Rig& rig, int node) {
    if (node < 0) return nullptr;
    return Json{{"name", nodeLabel(rig, node)}, {"index", rig.gltfIndex[node]}};
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
    out["from"] = unsignedZero(a.from);
    out["to"] = unsignedZero(a.to);
    out["duration"] = unsignedZero(a.duration);
    out["characterHeight"] = unsignedZero(a.characterHeight);
    out["travelDirection"] = vec3(a.travelDirection);
    out["stride"] = vec3(a.stride);
    out["strideLength"] = unsignedZero(a.strideLength);
    out["turn"] = unsignedZero(a.turn);
    out["extractsRotation"] = a.extractsRotation;
    out["averageSpeed"] = unsignedZero(a.averageSpeed);
    out["averageAngularSpeed"] = unsignedZero(a.averageAngularSpeed);

    Json track;
    // Samples per second of clip time; the track has duration * sampleRate + 1 entries.
    track["sampleRate"] = a.duration > 0.0 ? double(a.track.times.size() - 1) / a.duration : 0.0;
    track["times"] = numbers(a.track.times);
    track["translation"] = Json::array();
    for (const glm::dvec3& t : a.track.translation) track["translation"].push_back(vec3(t));
    track["yaw"] = numbers(a.track.yaw);
    out["track"] = std::move(track);

    out["contacts"] = Json::array();
    const ContactEvidence& e = a.evidence;
    for (size_t i = 0; i < a.planting.size(); ++i) {
        const ContactPlanting& c = a.planting[i];
        Json planted = Json::array();
        for (const PlantedInterval& p : c.planted)
            planted.push_back(Json::array({unsignedZero(p.start), unsignedZero(p.end)}));
        Json contact{{"node", nodeRef(rig, c.node)}, {"planted", std::move(planted)}};
        if (i < e.stanceShare.size()) contact["stanceShare"] = unsignedZero(e.stanceShare[i]);
        out["contacts"].push_back(std::move(contact));
    }
    if (a.source == Source::FootContact)
        out["contactEvidence"] = Json{{"flightShare", unsignedZero(e.flightShare)},
                                      {"speedSpread", unsignedZero(e.speedSpread)},
                                      {"touchDowns", e.touchDowns},
                                      {"stridePerCycle", unsignedZero(e.stridePerCycle)}};
    out["loop"] = Json{{"positionError", unsignedZero(loop.position)},
                       {"positionErrorFraction", unsignedZero(loop.positionFraction)},
                       {"rotationErrorDegrees", unsignedZero(loop.rotationDegrees)},
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
    if (!h.rootBone.is_null()) out["rootBone"] = h.rootBone;
    out["upAxis"] = vec3(h.upAxis);
    out["units"] = "metres (glTF scene units)";
    out["clips"] = std::move(clips);
    return out;
}

}  // namespace rootbake
