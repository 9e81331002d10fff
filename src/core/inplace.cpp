// removeMotion: the in-place root keys of a clip whose motion is in its keys.
#include "frames.h"

#include <glm/gtc/matrix_inverse.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rootbake {

using core::horizontal;
using core::rotateAboutUp;

namespace {

// Finite-difference step for the tangents of rewritten CUBICSPLINE keys, s.
constexpr double kTangentStep = 1e-5;

size_t sampleBefore(const std::vector<double>& times, double t, double* blend) {
    if (times.size() < 2 || t <= times.front()) return *blend = 0.0, 0;
    if (t >= times.back()) return *blend = 1.0, times.size() - 2;
    const size_t k = std::upper_bound(times.begin(), times.end(), t) - times.begin() - 1;
    *blend = (t - times[k]) / (times[k + 1] - times[k]);
    return k;
}

struct RootPose {
    glm::dvec3 translation;
    glm::dquat rotation;
};

// Evaluates the source clip and takes the motion out of the root's pose.
struct InPlaceSampler {
    const Rig& rig;
    const Clip& clip;
    const ClipAnalysis& a;
    std::vector<ChannelCursor> cursors;
    std::vector<Transform> local;
    std::vector<glm::dmat4> scene;
    glm::dquat referenceConjugate;

    InPlaceSampler(const Rig& r, const Clip& c, const ClipAnalysis& analysis)
        : rig(r), clip(c), a(analysis), cursors(c.channels.size()), local(r.size()), scene(r.size()) {
        // Only the root and its ancestors (the character is one) are posed: a key costs the
        // root's depth, not the size of the rig.
        std::vector<std::uint8_t> onChain(rig.size(), 0);
        for (int n = a.root; n >= 0; n = rig.parent[n]) chain.push_back(n), onChain[n] = 1;
        std::reverse(chain.begin(), chain.end());  // parent-first
        for (size_t i = 0; i < clip.channels.size(); ++i)
            if (onChain[clip.channels[i].node]) chainChannels.push_back(i);
        referenceConjugate = glm::conjugate(core::rotationOf(characterMatrix(a.root, a.from)));
    }

    // The local and scene transforms of the chain at time t, as sampleLocalPose and localToScene.
    void poseChain(double t) {
        for (int n : chain) local[n] = rig.rest[n];
        for (size_t i : chainChannels) sampleInto(clip.channels[i], t, cursors[i], local[clip.channels[i].node]);
        for (int n : chain) {
            const glm::dmat4 m = toMatrix(local[n]);
            scene[n] = rig.parent[n] < 0 ? m : scene[rig.parent[n]] * m;
        }
    }

    // A node of the chain in character space at time t (s, clip time); -1: the character itself.
    glm::dmat4 characterMatrix(int node, double t) {
        poseChain(t);
        const glm::dmat4 toCharacter = a.character >= 0 ? core::invertTransform(scene[a.character]) : glm::dmat4(1.0);
        return node >= 0 ? toCharacter * scene[node] : toCharacter;
    }

    RootPose at(double t) {
        const glm::dmat4 root = characterMatrix(a.root, t);
        const int parent = rig.parent[a.root];
        const glm::dmat4 parentMatrix = parent >= 0 ? toCharacterOf(parent) : toCharacterOf(-1);
        const glm::dvec3& up = a.upAxis;
        const double clipTime = t - a.from;

        double yaw = 0.0;
        if (a.extractsRotation) {
            // Exact at this time; the track only settles which whole turn the angle is on.
            const double wrapped = core::turnAbout(core::rotationOf(root) * referenceConjugate, up);
            const double tracked = trackYawAt(a.track, clipTime);
            constexpr double twoPi = 2.0 * std::numbers::pi;
            yaw = wrapped + std::round((tracked - wrapped) / twoPi) * twoPi;
        }
        glm::dvec3 travel(0.0);
        if (a.removesRootTravel) {
            const glm::dvec3 position(root[3]);
            if (a.extractsRotation) {
                travel = horizontal(position, up) - rotateAboutUp(horizontal(a.rootStart, up), yaw, up);
            } else {
                const glm::dvec3 h = horizontal(position - a.rootStart, up);
                travel = a.strideLength == 0.0 && glm::length(a.stride) > 0.0 ? h  // lateral extraction
                                                                            : projected(h);
                const double range = std::max(a.to - a.from, 1e-9);
                travel += a.lateralDrift * std::clamp(clipTime / range, 0.0, 1.0);
            }
        } else if (a.pivots) {
            travel = horizontal(a.rootStart, up) - rotateAboutUp(horizontal(a.rootStart, up), yaw, up);
        }
        // The motion maps the in-place pose onto the clip's: turn, then travel.
        glm::dmat4 motion = glm::mat4_cast(glm::angleAxis(yaw, up));
        motion[3] = glm::dvec4(travel, 1.0);
        const glm::dmat4 inPlace = core::invertTransform(parentMatrix) * glm::inverse(motion) * root;
        return {glm::dvec3(inPlace[3]), core::rotationOf(inPlace)};
    }

    glm::dvec3 projected(const glm::dvec3& h) const {
        // Along the direction of travel unless the clip extracts its lateral motion too.
        if (lateral) return h;
        return a.travelDirection * glm::dot(h, a.travelDirection);
    }

    glm::dmat4 toCharacterOf(int node) {
        // `scene` holds the pose of the last characterMatrix() call.
        const glm::dmat4 toCharacter = a.character >= 0 ? core::invertTransform(scene[a.character]) : glm::dmat4(1.0);
        return node >= 0 ? toCharacter * scene[node] : toCharacter;
    }

    bool lateral = false;
    std::vector<int> chain;            // the root and its ancestors, parent-first
    std::vector<size_t> chainChannels;  // the clip's channels that animate them
};


void pushVec3(std::vector<double>& out, const glm::dvec3& v) {
    out.insert(out.end(), {v.x, v.y, v.z});
}
void pushQuat(std::vector<double>& out, const glm::dquat& q) {
    out.insert(out.end(), {q.x, q.y, q.z, q.w});
}

InPlaceChannel rewrite(InPlaceSampler& sampler, const Channel& source, std::vector<float> times, int gltfChannel) {
    InPlaceChannel out;
    out.gltfChannel = gltfChannel;
    out.node = source.node;
    out.path = source.path;
    out.interpolation = source.interpolation;
    out.times = std::move(times);
    const bool cubic = out.interpolation == Interpolation::CubicSpline;
    const int width = out.path == Path::Rotation ? 4 : 3;
    glm::dquat previous(1.0, 0.0, 0.0, 0.0);
    bool first = true;
    std::vector<double> key;  // one key's values (in-tangent, value, out-tangent for CUBICSPLINE)
    for (float keyTime : out.times) {
        const double t = keyTime;
        key.clear();
        RootPose pose = sampler.at(t);
        // Rotations stay in the hemisphere of the key before, so interpolation takes the short way.
        if (!first && glm::dot(previous, pose.rotation) < 0.0) pose.rotation = -pose.rotation;
        first = false;
        previous = pose.rotation;
        if (cubic) {
            // Tangents follow the new curve, measured on either side of the key.
            RootPose before = sampler.at(t - kTangentStep), after = sampler.at(t + kTangentStep);
            if (out.path == Path::Translation) {
                pushVec3(key, (pose.translation - before.translation) / kTangentStep);
                pushVec3(key, pose.translation);
                pushVec3(key, (after.translation - pose.translation) / kTangentStep);
            } else {
                if (glm::dot(before.rotation, pose.rotation) < 0.0) before.rotation = -before.rotation;
                if (glm::dot(after.rotation, pose.rotation) < 0.0) after.rotation = -after.rotation;
                pushQuat(key, (pose.rotation - before.rotation) * (1.0 / kTangentStep));
                pushQuat(key, pose.rotation);
                pushQuat(key, (after.rotation - pose.rotation) * (1.0 / kTangentStep));
            }
        } else if (out.path == Path::Translation) {
            pushVec3(key, pose.translation);
        } else {
            pushQuat(key, pose.rotation);
        }
        // Ancestors can compose to beyond float range at a key between the analysis samples
        // (which refuse such poses): that key keeps the source's value, with flat tangents.
        constexpr double kFloatMax = 3.0e38;
        if (!std::all_of(key.begin(), key.end(), [](double v) { return std::abs(v) <= kFloatMax; })) {
            double v[4] = {0.0, 0.0, 0.0, 1.0};
            if (!source.values.empty()) {
                sampleChannel(source, t, v);
            } else {  // the added translation channel: the root's rest translation
                const glm::dvec3& rest = sampler.rig.rest[out.node].translation;
                v[0] = rest.x, v[1] = rest.y, v[2] = rest.z;
            }
            key.assign(size_t(width) * (cubic ? 3 : 1), 0.0);
            std::copy(v, v + width, key.begin() + (cubic ? width : 0));
            first = true;
        }
        for (double v : key) out.values.push_back(float(v));
    }
    return out;
}

}  // namespace

glm::dvec3 trackTranslationAt(const MotionTrack& track, double t) {
    double u;
    const size_t k = sampleBefore(track.times, t, &u);
    if (track.translation.size() < 2) return track.translation.empty() ? glm::dvec3(0.0) : track.translation[0];
    return track.translation[k] + (track.translation[k + 1] - track.translation[k]) * u;
}

double trackYawAt(const MotionTrack& track, double t) {
    double u;
    const size_t k = sampleBefore(track.times, t, &u);
    if (track.yaw.size() < 2) return track.yaw.empty() ? 0.0 : track.yaw[0];
    return track.yaw[k] + (track.yaw[k + 1] - track.yaw[k]) * u;
}

std::vector<InPlaceChannel> removeMotion(const Rig& rig, const Clip& clip, const ClipAnalysis& a) {
    std::vector<InPlaceChannel> channels;
    if (a.root < 0 || (!a.removesRootTravel && !a.extractsRotation)) return channels;
    InPlaceSampler sampler(rig, clip, a);

    const Channel* translation = nullptr;
    const Channel* rotation = nullptr;
    for (const Channel& c : clip.channels) {
        if (c.node != a.root) continue;
        if (c.path == Path::Translation) translation = &c;
        if (c.path == Path::Rotation) rotation = &c;
    }
    if (translation) {
        channels.push_back(rewrite(sampler, *translation, translation->times, translation->gltfChannel));
    } else {
        // A root that only turns gets a translation channel of its own, keyed as densely
        // as the analysis: an animated ancestor can make its character-space position vary.
        Channel held;
        held.node = a.root;
        held.path = Path::Translation;
        held.interpolation = Interpolation::Linear;
        std::vector<float> times;
        for (double t : a.track.times) times.push_back(float(t + a.from));
        channels.push_back(rewrite(sampler, held, std::move(times), -1));
    }
    if (a.extractsRotation && rotation)
        channels.push_back(rewrite(sampler, *rotation, rotation->times, rotation->gltfChannel));
    return channels;
}

}  // namespace rootbake
