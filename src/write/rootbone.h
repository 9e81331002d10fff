// bake --root-bone: a root bone inserted over the clips' analysed root (the hips), carrying each
// baked clip's motion track, so an engine that takes root motion from a bone (Unreal, Godot,
// Unity's Root Motion Node) finds it there; the hips keep their in-place keys.
#pragma once

#include "gltf/asset.h"
#include "gltf/rewrite.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rootbake {

// What --root-bone does with the asset's rig (docs/sidecar.md, "The root bone").
enum class RootBoneUse : std::uint8_t {
    Inserted,  // a new node above the root
    Reused,    // an idle node of the bone's name above the root takes the motion keys
    Kept,      // the root found is named like the bone: it carries the motion already; add nothing
};

struct RootBonePlan {
    RootBoneUse use = RootBoneUse::Inserted;
    int node = -1;                      // its glTF index, as it is or will be
    int root = -1;                      // the clips' root, rig index
    std::string name;                   // its name in the output (a reused or kept node's own)
    NewRootBone bone;                   // Inserted only
    std::vector<ClipRewrite> rewrites;  // every clip's: the baked channels, the root's keys moved under an
                                        // inserted bone, the bone's channels
};

// How far an idle bone's own keys may stray from its first key, in every clip the bake keys it in:
// its translation as a fraction of the skeleton's size under it at rest (the farthest node under it
// from it), its rotation in radians, its scale relatively. Past that it carries motion the bake
// would overwrite.
inline constexpr double kIdleBoneTolerance = 1e-4;

// A node named like the requested bone: the same name but for case, after any namespace
// ("mixamorig:Root" is named like "root").
bool namedLikeRootBone(const std::string& nodeName, const std::string& requested);

// "inserted", "reused" or "kept" (bake --json).
const char* rootBoneUseName(RootBoneUse use);

// One line on what the plan does with the rig, for the bake's summary
// ("root bone: nodes[46] \"root\" reused: idle above nodes[44] \"pelvis\", it takes the motion keys").
std::string describeRootBone(const Rig& rig, const RootBonePlan& plan);

// Translation values (a channel's, CUBICSPLINE tangents included) moved by -offset, as the root's
// keys move under a root bone whose rest translation is offset (tangents keep theirs).
void moveUnderRootBone(std::vector<float>& values, Interpolation interpolation, const glm::dvec3& offset);

// The root bone `name` over the root that every clip with one shares. The root itself when it is
// named like the bone (Kept); else the nearest node above the root named like it, when its keys
// are constant in every clip with that root (Reused); else a new node at the ground under that
// root at rest: its rest position in character space less its height along the up axis (so at the
// height of the character space's origin). Each clip with that root gets the bone's translation,
// and its rotation when it turns, keyed at its track's times: the motion track expressed in the
// bone's parent space, so every node's pose is the source's wherever the track has a sample. An
// error names the file and the object: a node of that name elsewhere, a node above the root named
// like the bone that moves, clips with different roots, no clip with a root, a parent under which a
// turn is not a rigid motion.
Result<RootBonePlan> planRootBone(const gltf::Asset& asset, const std::vector<BakedClip>& clips,
                                  const std::string& name);

// Before the analysis: a clip whose root would be an idle node named like the bone (a Blender rig's
// `root` keyed in place, which findRoot takes for the root since it has translation keys) is
// analysed on the root below it instead, so that the bone can be reused. Clips given a root keep it.
std::vector<Options> pinRootsBelowIdleBone(const gltf::Asset& asset, std::vector<Options> options,
                                           const std::string& name);

}  // namespace rootbake
