// Internal to the core: a clip sampled at evenly spaced times, and the small
// geometry helpers every analysis step shares.
#pragma once

#include "rootbake/bake.h"

#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

namespace rootbake::core {

// Positions in character space of the posed nodes at samples + 1 evenly spaced times,
// and the root's rotation there: one pose pass per sample. Only the posed nodes take
// memory; every other node reads a column of zeros.
struct Frames {
    int count = 0;                // samples + 1
    std::vector<int> nodes;  // the posed nodes, by column (parent first); the zero column, if any node is
                             // not posed, comes after them
    int stride = 0;          // columns per frame: the posed ones and the zero column (never more than nodes)
    double from = 0.0, to = 0.0;  // s
    std::vector<int> column;      // per node of the rig: its column in position
    std::vector<glm::dvec3> position;      // [frame * stride + column[node]]
    std::vector<glm::dquat> rootRotation;  // per frame; empty without a root

    bool posed(int node) const { return column[node] < int(nodes.size()); }
    const glm::dvec3& at(int frame, int node) const {
        return position[size_t(frame) * stride + column[node]];
    }
    glm::dvec3& at(int frame, int node) { return position[size_t(frame) * stride + column[node]]; }
    // The time of sample i, computed from its index (never accumulated).
    double time(int i) const { return from + (to - from) * i / (count - 1); }
};

// Every node posed at every sample.
Frames sampleFrames(const Rig& rig, const Clip& clip, double from, double to, int samples, int character,
                    int root);

// Only `nodes`, the root, the character and their ancestors posed (every other node
// reads zeros): their numbers are the same as with every node posed.
Frames sampleChainFrames(const Rig& rig, const Clip& clip, double from, double to, int samples, int character,
                         int root, std::vector<int> nodes);

// coarse's span at `factor` times its samples, with the nodes of sampleChainFrames. With a
// factor that is a power of two, every factor-th time is one of coarse's to the bit (times
// come from their index, and scaling by 2 is exact in binary floating point), so when
// coarse posed every node of these chains those frames are copied from it, not posed again.
Frames refineFrames(const Rig& rig, const Clip& clip, const Frames& coarse, int factor, int character,
                    int root, std::vector<int> nodes);

// Every node's scene matrix in the rig's rest pose (the nodes' own TRS).
std::vector<glm::dmat4> restScene(const Rig& rig);

// 1 for base's strict descendants (every node when base is -1, the scene).
std::vector<std::uint8_t> descendantsOf(const Rig& rig, int base);

// The inverse of a node's transform. One that collapses an axis (a scale
// below 1e-9, or axes within 1e-9 of a plane) has no usable inverse: it is
// inverted as if its scales were 1, so what is under it keeps finite numbers.
glm::dmat4 invertTransform(const glm::dmat4& m);

// The rotation part of a transform, as a unit quaternion (a mirrored transform
// has its y axis flipped first, so the rest is a proper rotation).
glm::dquat rotationOf(const glm::dmat4& m);

inline double wrapAngle(double angle) {
    constexpr double twoPi = 2.0 * std::numbers::pi;
    return angle - twoPi * std::floor((angle + std::numbers::pi) / twoPi);
}

inline glm::dvec3 horizontal(const glm::dvec3& v, const glm::dvec3& up) { return v - up * glm::dot(v, up); }

inline glm::dvec3 rotateAboutUp(const glm::dvec3& v, double angle, const glm::dvec3& up) {
    if (angle == 0.0) return v;
    return glm::angleAxis(angle, up) * v;
}

// The turn about up that best matches a change of orientation `delta`, in
// (-pi, pi]: measured on two horizontal axes, so it stays defined while the
// rotation also pitches and rolls (a swing-twist split jumps by half turns when
// the hips tilt through the vertical).
double turnAbout(const glm::dquat& delta, const glm::dvec3& up);

}  // namespace rootbake::core
