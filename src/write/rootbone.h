// bake --root-bone: a root bone inserted over the clips' analysed root (the hips), carrying each
// baked clip's motion track, so an engine that takes root motion from a bone (Unreal, Godot,
// Unity's Root Motion Node) finds it there; the hips keep their in-place keys.
#pragma once

#include "gltf/asset.h"
#include "gltf/rewrite.h"

#include <string>
#include <vector>

namespace rootbake {

struct RootBonePlan {
    bool present = false;  // the asset has it already (the root found is a node of that name): add nothing
    int node = -1;         // its glTF index, as it is or will be
    NewRootBone bone;
    std::vector<ClipRewrite> rewrites;  // every clip's: the baked channels, the hips' keys moved under the
                                        // root bone, the root bone's channels
};

// The root bone `name` over the root that every clip with one shares, at the ground under that
// root at rest: its rest position in character space less its height along the up axis (so at the
// height of the character space's origin). Each clip with that root gets the bone's translation,
// and its rotation when it turns, keyed at its track's times: the motion track expressed in the
// root's parent space, so the root's pose is the source's wherever the track has a sample. An
// error names the file and the object: a node of that name that is not the root found, clips with
// different roots, no clip with a root, a parent under which a turn is not a rigid motion.
// Translation values (a channel's, CUBICSPLINE tangents included) moved by -offset, as the root's
// keys move under a root bone whose rest translation is offset (tangents keep theirs).
void moveUnderRootBone(std::vector<float>& values, Interpolation interpolation, const glm::dvec3& offset);

Result<RootBonePlan> planRootBone(const Asset& asset, const std::vector<BakedClip>& clips, const std::string& name);

}  // namespace rootbake
