#include "core/frames.h"
#include "edit/edit.h"

#include "rootbake/num.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rootbake::edit {

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

bool namedLikeRootBone(const std::string& nodeName, const std::string& requested) {
    if (nodeName == requested) return true;
    const std::size_t colon = nodeName.rfind(':');
    const std::string bare = colon == std::string::npos ? nodeName : nodeName.substr(colon + 1);
    const auto lower = [](unsigned char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : char(c); };
    return bare.size() == requested.size() &&
           std::equal(bare.begin(), bare.end(), requested.begin(), [&](char a, char b) {
               return lower(static_cast<unsigned char>(a)) == lower(static_cast<unsigned char>(b));
           });
}

const char* rootBoneUseName(RootBoneUse use) {
    return use == RootBoneUse::Kept ? "kept" : use == RootBoneUse::Reused ? "reused" : "inserted";
}

std::string describeRootBone(const Rig& rig, const RootBonePlan& plan) {
    const int bone = plan.node < int(rig.rigIndexOfGltf.size()) ? rig.rigIndexOfGltf[plan.node] : -1;
    switch (plan.use) {
        case RootBoneUse::Kept:
            return "root bone: " + nodeText(rig, bone) +
                   " kept as it is: the clips' root, it carries their travel";
        case RootBoneUse::Reused:
            return "root bone: " + nodeText(rig, bone) + " reused: idle above " + nodeText(rig, plan.root) +
                   ", it takes the motion keys";
        case RootBoneUse::Inserted:
            break;
    }
    return "root bone: nodes[" + std::to_string(plan.node) + "] \"" + plan.name + "\" inserted above " +
           nodeText(rig, plan.root);
}

namespace {

// The one root every animated clip moves, and the first clip that moves it.
struct CommonRoot {
    int node = -1;
    std::size_t clip = 0;
};

Result<CommonRoot> findCommonRoot(const gltf::Asset& asset, const std::vector<BakedClip>& clips,
                                  const std::string& name) {
    const Rig& rig = asset.rig;
    CommonRoot root;
    for (std::size_t i = 0; i < clips.size(); ++i) {
        const int r = clips[i].analysis.root;
        if (r < 0 || r == root.node) continue;
        if (root.node >= 0)
            return Error{asset.fileName + ": " + clipLabel(asset.clips[i]) + ": its root " +
                         nodeText(rig, r) + " is not " + nodeText(rig, root.node) + ", the root of " +
                         clipLabel(asset.clips[root.clip]) +
                         "; --root-bone puts one root bone over one root (pass --root)"};
        root = {r, i};
    }
    if (root.node < 0)
        return Error{asset.fileName + ": no clip animates a root to put the root bone \"" + name + "\" over"};
    return root;
}

// Where the bone is in the rig as it is: the root itself when it is named like it (Kept), else
// the nearest node above the root named like it (Reused, once it proves idle), else none: a new
// node (Inserted), unless a node elsewhere has the very name.
struct ExistingBone {
    RootBoneUse use = RootBoneUse::Inserted;
    int node = -1;  // rig index
};

Result<ExistingBone> existingBone(const Rig& rig, int root, const std::string& name,
                                  const std::string& fileName) {
    if (namedLikeRootBone(rig.name[root], name) && !rig.hasMesh[root])
        return ExistingBone{RootBoneUse::Kept, root};
    for (int n = rig.parent[root]; n >= 0; n = rig.parent[n])
        if (namedLikeRootBone(rig.name[n], name)) return ExistingBone{RootBoneUse::Reused, n};
    for (int n = 0; n < rig.size(); ++n)
        if (rig.name[n] == name)
            return Error{fileName + ": " + nodeText(rig, n) +
                         ": a node of the root bone's name exists already, " + "not above the root " +
                         nodeText(rig, root) + "; pass --root-bone with another name"};
    return ExistingBone{};
}

// How far a channel's keys stray from its first: translation in scene units through `parentLinear`
// (the parent's scene matrix at rest), rotation in radians, scale relatively.
double keyStray(const Channel& c, const glm::dmat3& parentLinear) {
    const bool cubic = c.interpolation == Interpolation::CubicSpline;
    const std::size_t width = std::size_t(c.width()), stride = cubic ? 3 * width : width,
                      first = cubic ? width : 0;
    double stray = 0.0;
    for (std::size_t k = first; k + width <= c.values.size(); k += stride) {
        const float* v = &c.values[k];
        const float* v0 = &c.values[first];
        if (c.path == Path::Rotation) {
            const double dot = std::abs(double(v[0]) * v0[0] + double(v[1]) * v0[1] + double(v[2]) * v0[2] +
                                        double(v[3]) * v0[3]);
            stray = std::max(stray, 2.0 * std::acos(std::min(1.0, dot)));
            continue;
        }
        const glm::dvec3 d = glm::dvec3(v[0], v[1], v[2]) - glm::dvec3(v0[0], v0[1], v0[2]);
        if (c.path == Path::Translation) {
            stray = std::max(stray, glm::length(parentLinear * d));
        } else {
            for (int i = 0; i < 3; ++i)
                stray = std::max(stray, std::abs(d[i]) / std::max(std::abs(double(v0[i])), 1e-12));
        }
    }
    return stray;
}

// The size of the skeleton under a bone at rest: the farthest node under it from it (scene units).
double sizeBelow(const Rig& rig, const std::vector<glm::dmat4>& restScene, int bone) {
    const std::vector<std::uint8_t> below = core::descendantsOf(rig, bone);
    double size = 0.0;
    for (int n = 0; n < rig.size(); ++n)
        if (below[std::size_t(n)])
            size = std::max(size, glm::length(glm::dvec3(restScene[n][3] - restScene[bone][3])));
    return size;
}

// How far the bone's own keys in the clip stray from their first ("" when within kIdleBoneTolerance).
std::string boneMotion(const Rig& rig, const Clip& clip, int bone, const std::vector<glm::dmat4>& restScene) {
    const int parent = rig.parent[bone];
    const glm::dmat3 parentLinear = parent >= 0 ? glm::dmat3(restScene[parent]) : glm::dmat3(1.0);
    const double size = sizeBelow(rig, restScene, bone);
    for (const Channel& c : clip.channels) {
        if (c.node != bone) continue;
        const double stray = keyStray(c, parentLinear);
        if (c.path == Path::Translation && stray > kIdleBoneTolerance * size)
            return "moves it " + num(stray, 3) + " (" + num(stray / size, 3) +
                   " of the skeleton's size under it)";
        if (c.path == Path::Rotation && stray > kIdleBoneTolerance)
            return "turns it " + num(stray * 180.0 / std::numbers::pi, 3) + " degrees";
        if (c.path == Path::Scale && stray > kIdleBoneTolerance) return "scales it by " + num(1.0 + stray, 3);
    }
    return "";
}

// A node above the root named like the bone takes the motion keys only if its own keys are
// constant in every clip that gets them: otherwise the bake would overwrite its motion.
Status checkIdle(const gltf::Asset& asset, const std::vector<BakedClip>& clips, int root, int bone,
                 const std::vector<glm::dmat4>& restScene) {
    for (std::size_t i = 0; i < clips.size(); ++i) {
        const ClipAnalysis& a = clips[i].analysis;
        if (a.root != root || a.track.times.empty()) continue;
        const std::string motion = boneMotion(asset.rig, asset.clips[i], bone, restScene);
        if (motion.empty()) continue;
        return Error{asset.fileName + ": " + nodeText(asset.rig, bone) + ": " + clipLabel(asset.clips[i]) +
                     " " + motion +
                     ", which the root bone's keys would overwrite; pass --root-bone with another name"};
    }
    return Ok{};
}

// A reused bone moves every node under it; besides the root's branch, only a skinned mesh may hang
// from it (glTF ignores that node's transform), since anything else would travel with it.
Status checkSideBranches(const gltf::Asset& asset, int bone, int root) {
    const Rig& rig = asset.rig;
    int branch = root;
    while (rig.parent[branch] != bone) branch = rig.parent[branch];
    for (int n = 0; n < rig.size(); ++n) {
        if (rig.parent[n] != bone || n == branch) continue;
        const bool skinned = asset.document["nodes"][std::size_t(rig.gltfIndex[n])].contains("skin");
        const bool childless = std::find(rig.parent.begin(), rig.parent.end(), n) == rig.parent.end();
        if (skinned && childless) continue;
        return Error{asset.fileName + ": " + nodeText(rig, bone) + ": " + nodeText(rig, n) +
                     " hangs from it beside the root " + nodeText(rig, root) +
                     " and would travel with it; pass --root-bone with another name"};
    }
    return Ok{};
}

// The clip's in-place channels, with the root's translation keys (rewritten or not)
// moved under the bone at offset.
std::vector<InPlaceChannel> channelsUnderBone(const Clip& clip, const BakedClip& baked, int root,
                                              const glm::dvec3& offset) {
    std::vector<InPlaceChannel> channels = baked.channels;
    for (const Channel& c : clip.channels) {
        if (c.node != root || c.path != Path::Translation || offset == glm::dvec3(0.0)) continue;
        const bool rewritten = std::any_of(channels.begin(), channels.end(), [&](const InPlaceChannel& b) {
            return b.gltfChannel == c.gltfChannel;
        });
        if (!rewritten)
            channels.push_back({c.gltfChannel, c.node, c.path, c.interpolation, c.times, c.values});
    }
    for (InPlaceChannel& c : channels)
        if (c.node == root && c.path == Path::Translation)
            moveUnderRootBone(c.values, c.interpolation, offset);
    return channels;
}

// The root bone's place: a new one under the root's parent, below the root on the ground; a
// reused one where it is.
struct BoneRest {
    int parent = -1;         // rig index; -1: a scene root
    int node = -1;           // a reused bone, rig index: its own local pose at each time; -1: new
    glm::dvec3 offset{0.0};  // a new bone's, in the parent's space
    glm::dmat4 matrix{1.0};  // a new bone's local matrix
};

// The bone's keys (translation, and rotation when the clip turns): at each track sample, the
// local matrix that moves the bone's pose by the track's motion in character space. A reused
// bone's scale stays out of them (its own channel, or its rest, keeps it).
Result<std::vector<InPlaceChannel>> boneChannels(const Rig& rig, const Clip& clip, const ClipAnalysis& a,
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
        const glm::dmat4 parentNow = parentInCharacter(scene, rest.parent, a.character);
        const double yaw = a.track.yaw.empty() ? 0.0 : a.track.yaw[k];
        const glm::dmat4 motion =
            glm::translate(glm::dmat4(1.0), a.track.translation[k]) * glm::mat4_cast(glm::angleAxis(yaw, up));
        glm::dmat4 own = rest.matrix;
        if (rest.node >= 0) {
            Transform unscaled = local[rest.node];
            unscaled.scale = glm::dvec3(1.0);
            own = toMatrix(unscaled);
        }
        const glm::dmat4 bone = glm::inverse(parentNow) * motion * parentNow * own;
        const glm::dmat3 axes(bone);
        const double skew =
            std::max({std::abs(glm::length(axes[0]) - 1), std::abs(glm::length(axes[1]) - 1),
                      std::abs(glm::length(axes[2]) - 1), std::abs(glm::dot(axes[0], axes[1])),
                      std::abs(glm::dot(axes[1], axes[2])), std::abs(glm::dot(axes[0], axes[2]))});
        if (!(skew <= kRigidTolerance))
            return Error{fileName + ": " + clipLabel(clip) + ": " + nodeText(rig, rest.parent) +
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
    if (rest.node >= 0)  // a reused bone's: in place of its own channels of those paths
        for (InPlaceChannel& channel : channels) {
            channel.node = rest.node;
            for (const Channel& c : clip.channels)
                if (c.node == rest.node && c.path == channel.path) channel.gltfChannel = c.gltfChannel;
        }
    return channels;
}

// A new bone's place: under the root's parent, on the ground under the root at rest.
BoneRest newBoneRest(const Rig& rig, int root, const ClipAnalysis& reference,
                     const std::vector<glm::dmat4>& scene) {
    BoneRest rest;
    rest.parent = rig.parent[root];
    const glm::dmat4 restParent = parentInCharacter(scene, rest.parent, reference.character);
    const glm::dvec3 up = glm::normalize(reference.upAxis);
    const glm::dvec3 rootAtRest(restParent * toMatrix(rig.rest[root])[3]);
    const glm::dvec3 ground = rootAtRest - up * glm::dot(rootAtRest, up);
    rest.offset = glm::dvec3(glm::inverse(restParent) * glm::dvec4(ground, 1.0));
    rest.matrix = glm::translate(glm::dmat4(1.0), rest.offset);
    return rest;
}

NewRootBone newBone(const Rig& rig, int root, const std::string& name, const BoneRest& rest) {
    NewRootBone bone;
    bone.name = name;
    bone.child = rig.gltfIndex[root];
    bone.translation = rest.offset;
    const glm::dmat4 childRest = glm::translate(glm::dmat4(1.0), -rest.offset) * toMatrix(rig.rest[root]);
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) bone.childRest[std::size_t(4 * c + r)] = childRest[c][r];
    return bone;
}

}  // namespace

Result<RootBonePlan> planRootBone(const gltf::Asset& asset, const std::vector<BakedClip>& clips,
                                  const std::string& name) {
    const Rig& rig = asset.rig;
    auto root = findCommonRoot(asset, clips, name);
    if (!root) return root.error();
    auto existing = existingBone(rig, root->node, name, asset.fileName);
    if (!existing) return existing.error();
    RootBonePlan plan;
    plan.use = existing->use;
    plan.root = root->node;
    if (plan.use == RootBoneUse::Kept) {  // its keys carry the motion: nothing to add
        plan.node = rig.gltfIndex[existing->node];
        plan.name = rig.name[existing->node];
        return plan;
    }

    std::vector<glm::dmat4> scene(rig.size());
    localToScene(rig, rig.rest, scene);
    const ClipAnalysis& reference = clips[root->clip].analysis;
    BoneRest rest;
    if (plan.use == RootBoneUse::Reused) {
        if (Status idle = checkIdle(asset, clips, root->node, existing->node, scene); !idle)
            return idle.error();
        if (Status alone = checkSideBranches(asset, existing->node, root->node); !alone) return alone.error();
        rest.node = existing->node;
        rest.parent = rig.parent[existing->node];
        plan.node = rig.gltfIndex[existing->node];
        plan.name = rig.name[existing->node];
    } else {
        rest = newBoneRest(rig, root->node, reference, scene);
        plan.node = rig.size();
        plan.name = name;
        plan.bone = newBone(rig, root->node, name, rest);
    }

    const glm::dvec3 up = glm::normalize(reference.upAxis);
    for (std::size_t i = 0; i < clips.size(); ++i) {
        const Clip& clip = asset.clips[i];
        const ClipAnalysis& a = clips[i].analysis;
        ClipRewrite rewrite;
        rewrite.animation = clip.gltfIndex;
        rewrite.channels = channelsUnderBone(clip, clips[i], root->node, rest.offset);
        if (a.root == root->node && !a.track.times.empty()) {
            auto bone = boneChannels(rig, clip, a, rest, up, asset.fileName);
            if (!bone) return bone.error();
            rewrite.rootBoneChannels = std::move(*bone);
        }
        if (!rewrite.channels.empty() || !rewrite.rootBoneChannels.empty())
            plan.rewrites.push_back(std::move(rewrite));
    }
    return plan;
}

std::vector<Options> pinRootsBelowIdleBone(const gltf::Asset& asset, std::vector<Options> options,
                                           const std::string& name) {
    const Rig& rig = asset.rig;
    std::vector<glm::dmat4> scene(rig.size());
    localToScene(rig, rig.rest, scene);
    // The bone must be idle in every clip whose root it would be: one that moves it in one clip
    // carries the travel (a Mixamo pack's Root, constant in its in-place clips), and stays the root.
    std::vector<int> found(options.size(), -1);
    int bone = -1;
    for (std::size_t i = 0; i < options.size() && i < asset.clips.size(); ++i) {
        if (!options[i].rootNode.empty()) continue;
        const int r = findRoot(rig, asset.clips[i], options[i].upAxis);
        if (r < 0 || !namedLikeRootBone(rig.name[r], name)) continue;
        if ((bone >= 0 && r != bone) || !boneMotion(rig, asset.clips[i], r, scene).empty()) return options;
        bone = found[i] = r;
    }
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (found[i] < 0) continue;
        Clip without = asset.clips[i];  // the root the clip has once the idle bone's keys are left out
        std::erase_if(without.channels, [&](const Channel& c) { return c.node == bone; });
        const int below = findRoot(rig, without, options[i].upAxis);
        if (below >= 0) options[i].rootNode = nodeRefByIndex(rig.gltfIndex[below]);
    }
    return options;
}

}  // namespace rootbake::edit
