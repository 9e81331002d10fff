#include "core/frames.h"

#include <glm/gtc/matrix_inverse.hpp>

#include <algorithm>

namespace rootbake::core {

Frames sampleFrames(const Rig& rig, const Clip& clip, double from, double to, int samples, int character,
                    int root) {
    Frames frames;
    frames.count = samples + 1;
    frames.nodes = rig.size();
    frames.from = from;
    frames.to = to;
    frames.position.resize(size_t(frames.count) * frames.nodes);
    if (root >= 0) frames.rootRotation.resize(frames.count);

    // Buffers allocated once per clip; each sample is one pose pass.
    std::vector<ChannelCursor> cursors(clip.channels.size());
    std::vector<Transform> local(rig.size());
    std::vector<glm::dmat4> scene(rig.size());
    for (int i = 0; i < frames.count; ++i) {
        sampleLocalPose(rig, clip, frames.time(i), cursors, local);
        localToScene(rig, local, scene);
        const glm::dmat4 toCharacter = character >= 0 ? invertTransform(scene[character]) : glm::dmat4(1.0);
        glm::dvec3* out = &frames.position[size_t(i) * frames.nodes];
        for (int n = 0; n < rig.size(); ++n) out[n] = glm::dvec3(toCharacter * scene[n][3]);
        if (root >= 0) frames.rootRotation[i] = rotationOf(toCharacter * scene[root]);
    }
    return frames;
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
