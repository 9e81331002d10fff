#include "pipeline/sidecar.h"

namespace rootbake::pipeline {

namespace {

std::array<double, 3> array3(const glm::dvec3& v) {
    return {v.x, v.y, v.z};
}

// -1 is null in the sidecar.
bool optionalNode(const Rig& rig, int node, SidecarNode& out) {
    if (node < 0) return false;
    out = sidecarNode(rig, node);
    return true;
}

void describeTrack(const ClipAnalysis& a, SidecarClip& c) {
    // Samples per second of clip time; the track has duration * sampleRate + 1 entries.
    c.sampleRate = a.duration > 0.0 ? double(a.track.times.size() - 1) / a.duration : 0.0;
    c.times = a.track.times;
    for (const glm::dvec3& t : a.track.translation)
        c.translation.insert(c.translation.end(), {t.x, t.y, t.z});
    c.yaw = a.track.yaw;
    c.distance = a.markers.distance;
}

void describeContacts(const Rig& rig, const ClipAnalysis& a, SidecarClip& c) {
    for (const ContactPlanting& planting : a.planting) {
        SidecarContact contact;
        contact.node = sidecarNode(rig, planting.node);
        for (const PlantedInterval& p : planting.planted) contact.planted.push_back({p.start, p.end});
        c.contacts.push_back(std::move(contact));
    }
}

}  // namespace

SidecarNode sidecarNode(const Rig& rig, int node) {
    return {nodeLabel(rig, node), rig.gltfIndex[node]};
}

SidecarMarkers sidecarMarkers(const Rig& rig, const ClipAnalysis& a) {
    const ClipMarkers& m = a.markers;
    SidecarMarkers out;
    for (const FootEvent& e : m.events)
        out.events.push_back({e.time, footEventName(e.type), sideName(m.sides[std::size_t(e.contact)]),
                              sidecarNode(rig, a.planting[std::size_t(e.contact)].node)});
    out.hasPhaseContact = m.phaseContact >= 0;
    if (out.hasPhaseContact)
        out.phaseContact = sidecarNode(rig, a.planting[std::size_t(m.phaseContact)].node);
    out.phaseAnchors = m.phaseAnchors;
    out.hasStop = m.stop.has_value();
    out.stop = m.stop.value_or(0.0);
    return out;
}

SidecarClip sidecarClip(const Rig& rig, const ClipAnalysis& a, int animationIndex, const std::string& name,
                        const glm::dvec3& upAxis) {
    SidecarClip c;
    c.name = name;
    c.animation = animationIndex;
    c.source = sourceName(a.source);
    c.hasRootNode = optionalNode(rig, a.root, c.rootNode);
    c.hasCharacterNode = optionalNode(rig, a.character, c.characterNode);
    for (int node : a.contacts) c.contactNodes.push_back(sidecarNode(rig, node));
    c.from = a.from;
    c.to = a.to;
    c.duration = a.duration;
    c.characterHeight = a.characterHeight;
    c.upAxis = array3(upAxis);
    c.travelDirection = array3(a.travelDirection);
    c.stride = array3(a.stride);
    c.strideLength = a.strideLength;
    c.turn = a.turn;
    c.extractsRotation = a.extractsRotation;
    c.averageSpeed = a.averageSpeed;
    c.averageAngularSpeed = a.averageAngularSpeed;
    describeTrack(a, c);
    describeContacts(rig, a, c);
    c.markers = sidecarMarkers(rig, a);
    return c;
}

write::SidecarClipRecord sidecarClipRecord(const Rig& rig, const ClipAnalysis& a, const LoopSeam& loop) {
    write::SidecarClipRecord r;
    const ContactEvidence& e = a.evidence;
    for (std::size_t i = 0; i < a.planting.size(); ++i)
        r.stanceShare.push_back(i < e.stanceShare.size() ? std::optional<double>(e.stanceShare[i])
                                                         : std::nullopt);
    r.hasContactEvidence = a.source == Source::FootContact;
    r.flightShare = e.flightShare;
    r.speedSpread = e.speedSpread;
    r.touchDowns = e.touchDowns;
    r.stridePerCycle = e.stridePerCycle;
    r.loopPositionError = loop.position;
    r.loopPositionErrorFraction = loop.positionFraction;
    r.loopRotationErrorDegrees = loop.rotationDegrees;
    r.hasLoopWorstNode = optionalNode(rig, loop.worstNode, r.loopWorstNode);
    r.reason = a.reason;
    r.warnings = a.warnings;
    return r;
}

}  // namespace rootbake::pipeline
