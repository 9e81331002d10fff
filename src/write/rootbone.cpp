#include "write/rootbone.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace rootbake {

namespace {

constexpr double kRigidTolerance = 1e-6;  // of a unit axis: how far a root bone matrix may be from a rotation

std::string nodeText(const Rig& rig, int node) {
    const std::string& name = rig.name[node];
    return "nodes[" + std::to_string(rig.gltfIndex[node]) + "]" + (name.empty() ? "" : " \"" + name + "\"");
}

// The parent's matrix in character space, from scene matrices.
glm::dmat4 parentInCharacter(const std::vector<glm::dmat4>& scene, int parent, int character) {
    const glm::dmat4 toCharacter = character >= 0 ? glm::inverse(scene[character]) : glm::dmat4(1.0);
    return parent >= 0 ? toCharacter * scene[parent] : glm::dmat4(1.0);
}

}  // namespace

void moveUnderRootBone(std::vector<float>& values, Interpolation interpolation, const glm::dvec3& offset) {
    const bool cubic = interpolation == Interpolation::CubicSpline;
    const std::size_t stride = cubic ? 9 : 3, first = cubic ? 3 : 0;
    for (std::size_t k = first; k + 3 <= values.size(); k += stride)
        for (int i = 0; i < 3; ++i) values[k + i] = float(double(values[k + i]) - offset[i]);
}

namespace {

// The one root every animated clip moves, and the first clip that moves it.
struct CommonRoot {
    int node = -1;
    std::size_t clip = 0;
};

Result<CommonRoot> findCommonRoot(const Asset& asset, const std::vector<BakedClip>& clips, const std::string& name) {
    const Rig& rig = asset.rig;
    CommonRoot root;
    for (std::size_t i = 0; i < clips.size(); ++i) {
        const int r = clips[i].analysis.root;
        if (r < 0 || r == root.node) continue;
        if (root.node >= 0)
            return Error{asset.fileName + ": " + clipLabel(asset.clips[i]) + ": its root " + nodeText(rig, r) +
                         " is not " + nodeText(rig, root.node) + ", the root of " + clipLabel(asset.clips[root.clip]) +
                         "; --root-bone puts one root bone over one root (pass --root)"};
        root = {r, i};
    }
    if (root.node < 0)
        return Error{asset.fileName + ": no clip animates a root to put the root bone \"" + name + "\" over"};
    return root;
}

// A node of the bone's name: the bone of an earlier --root-bone (the root found, with one
// child and no mesh), else a clash. -1: none.
Result<int> existingBone(const Rig& rig, int root, const std::string& name, const std::string& fileName) {
    for (int n = 0; n < rig.size(); ++n) {
        if (rig.name[n] != name) continue;
        const bool inserted = n == root && !rig.hasMesh[n] && std::count(rig.parent.begin(), rig.parent.end(), n) == 1;
        if (!inserted)
            return Error{fileName + ": " + nodeText(rig, n) +
                         ": a node of the root bone's name exists already; pass --root-bone with another name"};
        return n;
    }
    return -1;
}

// The clip's in-place channels, with the root's translation keys (rewritten or not)
// moved under the bone at offset.
std::vector<InPlaceChannel> channelsUnderBone(const Clip& clip, const BakedClip& baked, int root,
                                              const glm::dvec3& offset) {
    std::vector<InPlaceChannel> channels = baked.channels;
    for (const Channel& c : clip.channels) {
        if (c.node != root || c.path != Path::Translation || offset == glm::dvec3(0.0)) continue;
        const bool rewritten = std::any_of(channels.begin(), channels.end(),
                                           [&](const InPlaceChannel& b) { return b.gltfChannel == c.gltfChannel; });
        if (!rewritten) channels.push_back({c.gltfChannel, c.node, c.path, c.interpolation, c.times, c.values});
    }
    for (InPlaceChannel& c : channels)
        if (c.node == root && c.path == Path::Translation) moveUnderRootBone(c.values, c.interpolation, offset);
    return channels;
}

// The root bone's place: under the root's parent, below the root on the ground.
struct BoneRest {
    glm::dvec3 offset{0.0};  // in the parent's space
    glm::dmat4 matrix{1.0};
};

// The bone's keys (translation, and rotation when the clip turns): at each track sample,
// the local matrix that moves the root by the track's motion, in character space.
Result<std::vector<InPlaceChannel>> boneChannels(const Rig& rig, const Clip& clip, const ClipAnalysis& a, int parent,
                                                 const BoneRest& rest, const glm::dvec3& up,
                                                 const std::string& fileName) {
    InPlaceChannel translation, rotation;
    translation.path = Path::Translation;
    rotation.path = Path::Rotation;
    std::vector<ChannelCursor> cursors(clip.channels.size());
    std::vector<Transform> local(rig.size());
    std::vector<glm::dmat4> scene(rig.size());
    glm::dquat previous(1.0, 0.0, 0.0, 0.0);
    for (std::size_t k = 0; k < a.track.times.size(); ++k) {
        const double t = a.from + a.track.times[k];
        // A clip of duration 0 has all its samples at one time: glTF keys strictly increase.
        if (!translation.times.empty() && !(float(t) > translation.times.back())) continue;
        sampleLocalPose(rig, clip, t, cursors, local);
        localToScene(rig, local, scene);
        const glm::dmat4 parentNow = parentInCharacter(scene, parent, a.character);
        const double yaw = a.track.yaw.empty() ? 0.0 : a.track.yaw[k];
        const glm::dmat4 motion =
            glm::translate(glm::dmat4(1.0), a.track.translation[k]) * glm::mat4_cast(glm::angleAxis(yaw, up));
        const glm::dmat4 bone = glm::inverse(parentNow) * motion * parentNow * rest.matrix;
        const glm::dmat3 axes(bone);
        const double skew = std::max({std::abs(glm::length(axes[0]) - 1), std::abs(glm::length(axes[1]) - 1),
                                      std::abs(glm::length(axes[2]) - 1), std::abs(glm::dot(axes[0], axes[1])),
                                      std::abs(glm::dot(axes[1], axes[2])), std::abs(glm::dot(axes[0], axes[2]))});
        if (!(skew <= kRigidTolerance))
            return Error{fileName + ": " + clipLabel(clip) + ": " + nodeText(rig, parent) +
                         " is scaled unevenly, so the clip's turn is no rotation of a root bone under it"};
        glm::dquat q = glm::quat_cast(axes);
        if (glm::dot(q, previous) < 0.0) q = -q;  // the short way round between keys
        previous = q;
        translation.times.push_back(float(t));
        for (int c = 0; c < 3; ++c) translation.values.push_back(float(bone[3][c]));
        for (double v : {q.x, q.y, q.z, q.w}) rotation.values.push_back(float(v));
    }
    rotation.times = translation.times;
    const bool turns = std::any_of(a.track.yaw.begin(), a.track.yaw.end(), [](double y) { return y != 0.0; });
    std::vector<InPlaceChannel> channels{std::move(translation)};
    if (turns) channels.push_back(std::move(rotation));
    return channels;
}

}  // namespace

Result<RootBonePlan> planRootBone(const Asset& asset, const std::vector<BakedClip>& clips, const std::string& name) {
    const Rig& rig = asset.rig;
    auto root = findCommonRoot(asset, clips, name);
    if (!root) return root.error();
    RootBonePlan plan;
    auto existing = existingBone(rig, root->node, name, asset.fileName);
    if (!existing) return existing.error();
    if (*existing >= 0) {  // baked with --root-bone before: it is the root found
        plan.present = true;
        plan.node = rig.gltfIndex[*existing];
        return plan;
    }

    // Where the bone goes, at rest: under the root, on the ground.
    const ClipAnalysis& reference = clips[root->clip].analysis;
    const int parent = rig.parent[root->node];
    std::vector<glm::dmat4> scene(rig.size());
    localToScene(rig, rig.rest, scene);
    const glm::dmat4 restParent = parentInCharacter(scene, parent, reference.character);
    const glm::dvec3 up = glm::normalize(reference.upAxis);
    const glm::dvec3 rootAtRest(restParent * toMatrix(rig.rest[root->node])[3]);
    const glm::dvec3 ground = rootAtRest - up * glm::dot(rootAtRest, up);
    BoneRest rest;
    rest.offset = glm::dvec3(glm::inverse(restParent) * glm::dvec4(ground, 1.0));
    rest.matrix = glm::translate(glm::dmat4(1.0), rest.offset);

    plan.node = rig.size();
    plan.bone.name = name;
    plan.bone.child = rig.gltfIndex[root->node];
    plan.bone.translation = rest.offset;
    const glm::dmat4 childRest = glm::translate(glm::dmat4(1.0), -rest.offset) * toMatrix(rig.rest[root->node]);
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) plan.bone.childRest[std::size_t(4 * c + r)] = childRest[c][r];

    for (std::size_t i = 0; i < clips.size(); ++i) {
        const Clip& clip = asset.clips[i];
        const ClipAnalysis& a = clips[i].analysis;
        ClipRewrite rewrite;
        rewrite.animation = clip.gltfIndex;
        rewrite.channels = channelsUnderBone(clip, clips[i], root->node, rest.offset);
        if (a.root == root->node && !a.track.times.empty()) {
            auto bone = boneChannels(rig, clip, a, parent, rest, up, asset.fileName);
            if (!bone) return bone.error();
            rewrite.rootBoneChannels = std::move(*bone);
        }
        if (!rewrite.channels.empty() || !rewrite.rootBoneChannels.empty()) plan.rewrites.push_back(std::move(rewrite));
    }
    return plan;
}

}  // namespace rootbake
