// The document edits of a bake, as the pipeline calls them (the header reads as the edit
// layer's table of contents, grouped by the file that implements each part). They work on a
// copy of the input's JSON and leave its buffers' bytes where they are: what changes is said
// in an EditedDocument (edit/document.h), which the container (src/write) frames. No array is
// reindexed (an unknown extension may hold indices).
#pragma once

#include "edit/document.h"
#include "gltf/asset.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rootbake::edit {

// ---- edit.cpp: the stages in order ---------------------------------------------------------

// One clip's in-place channels (removeMotion's), for the animation they replace.
struct ClipRewrite {
    int animation = 0;  // index in the input's animations[]
    std::vector<InPlaceChannel> channels;
    // New channels on the root bone (NewRootBone); their gltfChannel and node are not used.
    std::vector<InPlaceChannel> rootBoneChannels;
};

// A node inserted as the parent of `child` (the analysed root) and child of its former parent
// (bake --root-bone); a child that was a scene root leaves its place in the scenes to it. The
// child's rest (translation or matrix) moves by -translation, so nothing else moves at rest.
// It joins every skin whose joints hold `child`, bound where that skin binds `child` less the
// child's rest under it: inverse bind = childRest * the child's inverse bind, so its bind pose is in
// the skin's own bind space (which may differ from the scene's, e.g. by a unit scale) and an
// importer that rebuilds the bind pose from the inverse binds (Blender) keeps the child's; without
// inverseBindMatrices every joint's is the identity, the root bone's too. A skin whose skeleton was
// `child` gets it as its skeleton.
struct NewRootBone {
    std::string name;
    int child = -1;                      // glTF index
    glm::dvec3 translation{0.0};         // its rest translation, in the child's former parent's space
    std::array<double, 16> childRest{};  // column-major: the child's rest local matrix under it
};

// What bake adds to an animation's `extras`, under the key "rootbake" (docs/sidecar.md, "Markers
// in the baked glTF"): written into the animation the clip plays from in the output (its
// "(in place)" copy with keepSource), beside the extras the animation has. An animation whose
// extras are not an object (glTF allows any value) keeps them and gets none.
struct AnimationExtras {
    int animation = 0;                // index in the input's animations[]
    nlohmann::ordered_json rootbake;  // an object
};

// The edits, in four stages on a copy of the input's JSON:
//   1. (keepSource) copy each baked animation to the end of animations[] as "<name> (in place)";
//   2. insert the root bone when one is given, and point the clips' channels at the new keys:
//      an output accessor that only the rewritten sampler uses keeps its index and gets FLOAT
//      data, anything shared gets a new accessor (and a sampler shared by two channels a new
//      sampler); extras.rootbake added;
//   3. cut the byte ranges of bufferViews that only held the old keys out of their buffer,
//      moving later bufferViews down by a multiple of 4 (planCompaction);
//   4. append the new keys at the end of their buffer, 4-byte aligned.
// At most one rewrite per animation, in any order. Fails on a skin of the root bone's child whose
// inverse bind matrices cannot be read, or keys with no buffer that has data to take them.
Result<EditedDocument> editDocument(const gltf::Asset& asset, const std::vector<ClipRewrite>& clips,
                                    bool keepSource, const NewRootBone* rootBone = nullptr,
                                    const std::vector<AnimationExtras>& extras = {});

// ---- compact.cpp: the byte ranges of old keys cut out ----------------------------------------

// A range of a buffer's bytes: a bufferView's, or its meshopt stream's.
struct ByteRange {
    int buffer = 0;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
};

struct Compaction {
    // Cut from the source, per buffer from its end down: (buffer, source offset, bytes cut).
    std::vector<ByteRange> cuts;
    // Per live range, in the order given: how far it moves down (0: it stays where it is).
    std::vector<std::uint64_t> movedDown;
    std::uint64_t bytesCut = 0;
};

// The dead ranges (bytes nothing reads now) merged where they touch or overlap; each merged range
// that no live range overlaps is cut, its length rounded down to a multiple of 4 so that every
// later offset keeps its alignment; each live range moves down by what was cut before its start.
Compaction planCompaction(std::span<const ByteRange> live, std::span<const ByteRange> dead);

// ---- rootbone.cpp: bake --root-bone, the bone planned ------------------------------------------
// A root bone inserted over the clips' analysed root (the hips), carrying each baked clip's motion
// track, so an engine that takes root motion from a bone (Unreal, Godot, Unity's Root Motion Node)
// finds it there; the hips keep their in-place keys.

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

}  // namespace rootbake::edit
