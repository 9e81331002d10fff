// describeClip: what the pictures draw of a clip the pipeline analysed, from core calls
// only (posing the source and the baked clip); no text, no I/O.
#include "core/contacts.h"
#include "report/report.h"

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>

namespace rootbake::report {

namespace {

// Every track sample: the root in the source and the baked clip (out's paths), and per
// planted contact where the baked clip plays it with the motion applied (turn, then travel).
std::vector<std::vector<glm::dvec3>> playBack(const Rig& rig, const Clip& clip, const Clip& baked,
                                              const ClipAnalysis& a, ClipReport& out) {
    const std::vector<double>& times = a.track.times;
    const int count =
        static_cast<int>(std::min({times.size(), a.track.translation.size(), a.track.yaw.size()}));
    std::vector<ChannelCursor> sourceCursors(clip.channels.size()), bakedCursors(baked.channels.size());
    std::vector<Transform> local(rig.size());
    std::vector<glm::dmat4> scene(rig.size());
    std::vector<std::vector<glm::dvec3>> played(a.planting.size(), std::vector<glm::dvec3>(count));
    std::vector<glm::dvec4> soles;  // where each contact touches the ground, in its joint's space
    for (const ContactPlanting& p : a.planting) soles.push_back(glm::dvec4(core::soleOf(rig, p.node), 1.0));
    auto toCharacter = [&] { return a.character >= 0 ? glm::inverse(scene[a.character]) : glm::dmat4(1.0); };
    for (int i = 0; i < count; ++i) {
        const double t = a.from + times[i];
        if (a.root >= 0 && out.bakedInPlace) {
            sampleLocalPose(rig, clip, t, sourceCursors, local);
            localToScene(rig, local, scene);
            out.sourceRootPath.push_back(glm::dvec3(toCharacter() * scene[a.root][3]));
        }
        sampleLocalPose(rig, baked, t, bakedCursors, local);
        localToScene(rig, local, scene);
        const glm::dmat4 m = toCharacter();
        if (a.root >= 0) out.bakedRootPath.push_back(glm::dvec3(m * scene[a.root][3]));
        const glm::dquat turn = glm::angleAxis(a.track.yaw[i], a.upAxis);
        for (std::size_t k = 0; k < a.planting.size(); ++k)
            played[k][i] =
                turn * glm::dvec3(m * scene[a.planting[k].node] * soles[k]) + a.track.translation[i];
    }
    if (!out.bakedInPlace) out.sourceRootPath = out.bakedRootPath;  // the same clip
    return played;
}

// A planted interval of lane k as played (samples i0..i1): where the foot touched down,
// lifted off, stood lowest, and how far it slid from there.
PlantedMark plantedMark(int lane, const PlantedInterval& p, const std::vector<glm::dvec3>& played, int i0,
                        int i1, const glm::dvec3& up) {
    PlantedMark mark;
    mark.lane = lane;
    mark.start = p.start;
    mark.end = p.end;
    mark.touchDown = played[i0];
    mark.liftOff = played[i1];
    int lowest = i0;
    for (int i = i0; i <= i1; ++i)
        if (glm::dot(played[i], up) < glm::dot(played[lowest], up)) lowest = i;
    mark.foothold = played[lowest];
    for (int i = i0; i <= i1; ++i)
        mark.slip = std::max(mark.slip, glm::length(core::horizontal(played[i] - mark.foothold, up)));
    return mark;
}

}  // namespace

ClipReport describeClip(const Rig& rig, const Clip& clip, const BakedClip& inPlace) {
    ClipReport out;
    out.name = clip.name;
    out.animationIndex = clip.gltfIndex;
    out.analysis = inPlace.analysis;
    const ClipAnalysis& a = out.analysis;
    out.bakedInPlace = !inPlace.channels.empty();
    out.loop = inPlace.loop;

    auto label = [&](int node) { return node >= 0 ? nodeLabel(rig, node) : std::string(); };
    out.root = label(a.root);
    out.character = label(a.character);
    out.worstNode = label(out.loop.worstNode);
    for (int node : a.contacts) out.contacts.push_back(label(node));
    // The analysis's own planted intervals only (what the sidecar holds): a clip whose
    // motion does not come from its contacts shows none.
    for (const ContactPlanting& p : a.planting) out.lanes.push_back({label(p.node), p.planted});

    const std::vector<std::vector<glm::dvec3>> played =
        playBack(rig, clip, applyInPlace(clip, inPlace.channels), a, out);
    const std::vector<double>& times = a.track.times;
    const auto end = times.begin() + static_cast<std::ptrdiff_t>(played.empty() ? 0 : played.front().size());
    const double eps = 1e-9 * std::max(1.0, a.duration);
    for (std::size_t k = 0; k < a.planting.size(); ++k) {
        for (const PlantedInterval& p : a.planting[k].planted) {
            const auto first = std::lower_bound(times.begin(), end, p.start - eps);
            const auto last = std::upper_bound(times.begin(), end, p.end + eps);
            if (first >= last) continue;
            const int i0 = static_cast<int>(first - times.begin()),
                      i1 = static_cast<int>(last - times.begin()) - 1;
            out.marks.push_back(plantedMark(static_cast<int>(k), p, played[k], i0, i1, a.upAxis));
        }
    }
    return out;
}

}  // namespace rootbake::report
