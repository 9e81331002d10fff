#include "frames.h"

#include <glm/gtc/matrix_inverse.hpp>

#include <algorithm>
#include <numeric>

namespace rootbake::core {

namespace {

// Part of sampleLocalPose and localToScene: the same arithmetic on some nodes and their
// ancestors (parent-first, so each parent is done before its child) and their channels only.
struct ChainPose {
    std::vector<int> nodes;     // the chosen nodes and their ancestors, parent first
    std::vector<int> channels;  // the clip's channels that animate them
};

// The chains from `ends`, the root and the character (-1: none) up to the scene.
ChainPose chainOf(const Rig& rig, const Clip& clip, std::vector<int> ends, int root, int character) {
    ChainPose chain;
    std::vector<std::uint8_t> inChain(rig.size(), 0);
    ends.push_back(root);
    ends.push_back(character);
    for (int end : ends)
        for (int n = end; n >= 0 && !inChain[n]; n = rig.parent[n]) inChain[n] = 1;
    for (int n = 0; n < rig.size(); ++n)
        if (inChain[n]) chain.nodes.push_back(n);
    for (std::size_t i = 0; i < clip.channels.size(); ++i)
        if (inChain[clip.channels[i].node]) chain.channels.push_back(int(i));
    return chain;
}

void poseChain(const Rig& rig, const Clip& clip, const ChainPose& chain, double t,
               std::vector<ChannelCursor>& cursors, std::vector<Transform>& local,
               std::vector<glm::dmat4>& scene) {
    for (int n : chain.nodes) local[n] = rig.rest[n];
    for (int i : chain.channels) sampleInto(clip.channels[i], t, cursors[i], local[clip.channels[i].node]);
    for (int n : chain.nodes) {
        const glm::dmat4 m = toMatrix(local[n]);
        scene[n] = rig.parent[n] < 0 ? m : scene[rig.parent[n]] * m;
    }
}

// Frame `from` of known (which posed every node of the chain) as frame `to` of frames.
void copyChainFrame(const Frames& known, int from, const ChainPose& chain, int root, Frames& frames, int to) {
    for (int n : chain.nodes) frames.at(to, n) = known.at(from, n);
    if (root >= 0) frames.rootRotation[to] = known.rootRotation[from];
}

// known (which posed every node of chain) gives every `every`-th frame.
Frames sampleChain(const Rig& rig, const Clip& clip, double from, double to, int samples, int character,
                   int root, const ChainPose& chain, const Frames* known = nullptr, int every = 1) {
    Frames frames;
    frames.count = samples + 1;
    frames.from = from;
    frames.to = to;
    frames.nodes = chain.nodes;
    const int columns = int(frames.nodes.size());
    frames.column.assign(rig.size(), columns);  // the zero column, unless posed
    for (int c = 0; c < columns; ++c) frames.column[frames.nodes[c]] = c;
    frames.stride = columns < rig.size() ? columns + 1 : columns;
    frames.position.resize(size_t(frames.count) * frames.stride);
    if (root >= 0) frames.rootRotation.resize(frames.count);

    // Buffers allocated once per clip; each sample is one pose pass.
    std::vector<ChannelCursor> cursors(clip.channels.size());
    std::vector<Transform> local(rig.size());
    std::vector<glm::dmat4> scene(rig.size());
    for (int i = 0; i < frames.count; ++i) {
        if (known && i % every == 0) {
            copyChainFrame(*known, i / every, chain, root, frames, i);
            continue;
        }
        poseChain(rig, clip, chain, frames.time(i), cursors, local, scene);
        const glm::dmat4 toCharacter = character >= 0 ? invertTransform(scene[character]) : glm::dmat4(1.0);
        for (int n : chain.nodes) frames.at(i, n) = glm::dvec3(toCharacter * scene[n][3]);
        if (root >= 0) frames.rootRotation[i] = rotationOf(toCharacter * scene[root]);
    }
    return frames;
}

}  // namespace

Frames sampleFrames(const Rig& rig, const Clip& clip, double from, double to, int samples, int character,
                    int root) {
    std::vector<int> every(rig.size());
    std::iota(every.begin(), every.end(), 0);
    return sampleChain(rig, clip, from, to, samples, character, root,
                       chainOf(rig, clip, std::move(every), root, character));
}

Frames sampleChainFrames(const Rig& rig, const Clip& clip, double from, double to, int samples, int character,
                         int root, std::vector<int> nodes) {
    return sampleChain(rig, clip, from, to, samples, character, root,
                       chainOf(rig, clip, std::move(nodes), root, character));
}

Frames refineFrames(const Rig& rig, const Clip& clip, const Frames& coarse, int factor, int character,
                    int root, std::vector<int> nodes) {
    const ChainPose chain = chainOf(rig, clip, std::move(nodes), root, character);
    const bool powerOfTwo = factor > 0 && (factor & (factor - 1)) == 0;
    const bool posed =
        std::all_of(chain.nodes.begin(), chain.nodes.end(), [&](int n) { return coarse.posed(n); });
    const bool reuse = powerOfTwo && posed && (root < 0 || !coarse.rootRotation.empty());
    return sampleChain(rig, clip, coarse.from, coarse.to, (coarse.count - 1) * factor, character, root, chain,
                       reuse ? &coarse : nullptr, factor);
}

std::vector<glm::dmat4> restScene(const Rig& rig) {
    std::vector<glm::dmat4> scene(rig.size());
    for (int n = 0; n < rig.size(); ++n) {
        const glm::dmat4 m = toMatrix(rig.rest[n]);
        scene[n] = rig.parent[n] < 0 ? m : scene[rig.parent[n]] * m;  // parent-first
    }
    return scene;
}

std::vector<std::uint8_t> descendantsOf(const Rig& rig, int base) {
    std::vector<std::uint8_t> under(rig.size(), base < 0 ? 1 : 0);
    if (base < 0) return under;
    for (int i = base + 1; i < rig.size(); ++i) {
        const int p = rig.parent[i];
        under[i] = p >= 0 && (p == base || under[p]);  // parent-first: the parent is settled
    }
    return under;
}

glm::dmat4 invertTransform(const glm::dmat4& m) {
    const glm::dvec3 x(m[0]), y(m[1]), z(m[2]);
    const double lx = glm::length(x), ly = glm::length(y), lz = glm::length(z);
    constexpr double kCollapsed = 1e-9;  // axis length (scene units per unit), and volume of the unit axes
    const double volume = std::abs(glm::dot(glm::cross(x, y), z));
    if (std::min({lx, ly, lz}) > kCollapsed && volume > kCollapsed * lx * ly * lz) return glm::inverse(m);
    glm::dmat4 unit = glm::mat4_cast(rotationOf(m));
    unit[3] = m[3];
    return glm::inverse(unit);
}

glm::dquat rotationOf(const glm::dmat4& m) {
    glm::dvec3 x(m[0]), y(m[1]), z(m[2]);
    if (glm::dot(glm::cross(x, y), z) < 0.0) y = -y;
    const double lx = glm::length(x), ly = glm::length(y), lz = glm::length(z);
    if (lx == 0.0 || ly == 0.0 || lz == 0.0) return glm::dquat(1.0, 0.0, 0.0, 0.0);  // zero scale: no direction
    return glm::normalize(glm::quat_cast(glm::dmat3(x / lx, y / ly, z / lz)));
}

double turnAbout(const glm::dquat& delta, const glm::dvec3& up) {
    // Two horizontal axes, right-handed with up as +X and +Z are with +Y.
    const glm::dvec3 first = glm::normalize(horizontal(std::abs(up.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 0, 1), up));
    const glm::dvec3 second = glm::cross(first, up);
    const glm::dvec3 turnedFirst = delta * first;
    const glm::dvec3 turnedSecond = delta * second;
    return wrapAngle(std::atan2(glm::dot(turnedSecond, first) - glm::dot(turnedFirst, second),
                                glm::dot(turnedFirst, first) + glm::dot(turnedSecond, second)));
}

}  // namespace rootbake::core
