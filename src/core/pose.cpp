// Poses: local transforms at a time, and local-to-scene in one forward pass.
#include "rootbake/bake.h"

#include <algorithm>

namespace rootbake {

void sampleLocalPose(const Rig& rig, const Clip& clip, double t, std::span<ChannelCursor> cursors,
                     std::span<Transform> local) {
    std::copy(rig.rest.begin(), rig.rest.end(), local.begin());
    for (size_t i = 0; i < clip.channels.size(); ++i) {
        const Channel& c = clip.channels[i];
        sampleInto(c, t, cursors[i], local[c.node]);
    }
}

void sampleInto(const Channel& channel, double t, ChannelCursor& cursor, Transform& local) {
    double v[4];
    sampleChannel(channel, t, cursor, v);
    switch (channel.path) {
        case Path::Translation: local.translation = {v[0], v[1], v[2]}; break;
        case Path::Scale: local.scale = {v[0], v[1], v[2]}; break;
        case Path::Rotation: local.rotation = glm::dquat(v[3], v[0], v[1], v[2]); break;
    }
}

void localToScene(const Rig& rig, std::span<const Transform> local, std::span<glm::dmat4> scene) {
    for (int i = 0; i < rig.size(); ++i) {
        const glm::dmat4 m = toMatrix(local[i]);
        scene[i] = rig.parent[i] < 0 ? m : scene[rig.parent[i]] * m;  // parent-first: parent done
    }
}

}  // namespace rootbake
