// The in-place clip as played, and how cleanly it loops.
#include "frames.h"

#include <glm/gtc/matrix_inverse.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rootbake {

Clip applyInPlace(const Clip& clip, const std::vector<InPlaceChannel>& channels) {
    Clip out = clip;
    for (const InPlaceChannel& in : channels) {
        Channel c;
        c.node = in.node;
        c.path = in.path;
        c.interpolation = in.interpolation;
        c.times = in.times;
        c.values = in.values;
        c.gltfChannel = in.gltfChannel;
        auto same = std::find_if(out.channels.begin(), out.channels.end(), [&](const Channel& existing) {
            return in.gltfChannel >= 0 && existing.gltfChannel == in.gltfChannel;
        });
        if (same != out.channels.end()) {
            c.gltfSampler = same->gltfSampler;
            *same = std::move(c);
        } else {
            out.channels.push_back(std::move(c));
        }
    }
    return out;
}

LoopSeam measureLoopSeam(const Rig& rig, const Clip& clip, const ClipAnalysis& a) {
    LoopSeam seam;
    // The root and the joints under it; every joint when there is no root.
    std::vector<std::uint8_t> counted(rig.size(), a.root < 0 ? 1 : 0);
    if (a.root >= 0) counted[a.root] = 1;
    for (int n = 0; n < rig.size(); ++n)
        if (rig.parent[n] >= 0 && counted[rig.parent[n]]) counted[n] = 1;

    std::vector<ChannelCursor> cursors(clip.channels.size());
    std::vector<Transform> local(rig.size());
    std::vector<glm::dmat4> first(rig.size()), last(rig.size());
    sampleLocalPose(rig, clip, a.from, cursors, local);
    localToScene(rig, local, first);
    sampleLocalPose(rig, clip, a.to, cursors, local);
    localToScene(rig, local, last);
    const glm::dmat4 toFirst = a.character >= 0 ? core::invertTransform(first[a.character]) : glm::dmat4(1.0);
    const glm::dmat4 toLast = a.character >= 0 ? core::invertTransform(last[a.character]) : glm::dmat4(1.0);

    for (int n = 0; n < rig.size(); ++n) {
        if (!counted[n] || rig.hasMesh[n]) continue;
        const glm::dmat4 start = toFirst * first[n], end = toLast * last[n];
        const double gap = glm::length(glm::dvec3(start[3]) - glm::dvec3(end[3]));
        if (gap > seam.position) seam.position = gap, seam.worstNode = n;
        const glm::dquat q0 = core::rotationOf(start);
        const glm::dquat q1 = core::rotationOf(end);
        const double dot = std::min(1.0, std::abs(glm::dot(q0, q1)));
        seam.rotationDegrees = std::max(seam.rotationDegrees, 2.0 * std::acos(dot) * 180.0 / std::numbers::pi);
    }
    seam.positionFraction = a.characterHeight > 0.0 ? seam.position / a.characterHeight : 0.0;
    return seam;
}

}  // namespace rootbake
