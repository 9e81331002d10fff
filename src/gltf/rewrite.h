// The in-place rewrite: the input's own JSON (Asset::document) with the root
// channels of baked clips replaced, and its buffers with the new key data
// appended, framed as a .glb or .gltf. Everything the rewrite does not touch
// passes through: objects, extensions, extras, key order, and the bytes of
// every bufferView it did not rewrite (docs/sidecar.md, "The in-place asset").
#pragma once

#include "gltf/asset.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace rootbake {

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
    int child = -1;                       // glTF index
    glm::dvec3 translation{0.0};          // its rest translation, in the child's former parent's space
    std::array<double, 16> childRest{};   // column-major: the child's rest local matrix under it
};

// What bake adds to an animation's `extras`, under the key "rootbake" (docs/sidecar.md, "Markers
// in the baked glTF"): written into the animation the clip plays from in the output (its
// "(in place)" copy with keepSource), beside the extras the animation has. An animation whose
// extras are not an object (glTF allows any value) keeps them and gets none.
struct AnimationExtras {
    int animation = 0;                // index in the input's animations[]
    nlohmann::ordered_json rootbake;  // an object
};

enum class Container : std::uint8_t { Glb, Gltf };

struct RewriteOptions {
    bool keepSource = false;  // keep the source clips; append the in-place ones as "<name> (in place)"
    Container container = Container::Glb;
    std::string binName;  // file name of a new .bin beside a .gltf output ("walk.bin")
    // The JSON is the input's text with only the edited values replaced and the new ones inserted
    // (gltf::spliceJson), unless the container changes (.glb to .gltf or back) or reprint is set:
    // then it is printed whole, indented by `indent` in a .gltf, on one line in a GLB.
    bool reprint = false;
    int indent = 2;  // JSON indentation of a printed .gltf output; -1: one line
};

// A file beside the output: new bytes, or a file the input reads, copied as it is.
struct SideFile {
    std::filesystem::path relativePath;  // from the output's folder (the URI decoded)
    std::vector<std::uint8_t> bytes;     // the content, when copyFrom is empty
    std::filesystem::path copyFrom;      // a file the input reads
};

// A file embedded in the output without being read into memory (a GLB's image): its
// `size` bytes go at `offset` of the output, after main's bytes.
struct StreamedFile {
    std::filesystem::path file;
    std::uint64_t offset = 0;  // bytes from the start of the output
    std::uint64_t size = 0;    // bytes, as the rewrite saw it; the writer fails if the file changed
};

// A piece of the output: bytes made by the rewrite, or (when bytes is empty) a range of the
// input's buffers (Asset::buffers), written from there (a gather write): the Asset must outlive
// the write, and the mesh bytes of a GLB are never copied in memory.
struct OutputPiece {
    std::vector<std::uint8_t> bytes;
    std::span<const std::uint8_t> input;
};

struct RewrittenAsset {
    // The .glb or .gltf: main's pieces in order, then each streamed file at its offset, zeros
    // between them and up to mainSize (a GLB's image files are streamed, so memory does not follow
    // their size).
    std::vector<OutputPiece> main;
    std::vector<StreamedFile> streamed;
    std::uint64_t mainSize = 0;
    std::vector<SideFile> files;
    std::vector<std::filesystem::path> reads;  // every file beside the input that it reads (buffers, images)
    // Per input animation: where the clip to play is in the output, and its name
    // ("animations[N]", N the input's index, for a clip without one).
    std::vector<int> animationOf;
    std::vector<std::string> nameOf;
    std::uint64_t bytesAppended = 0;  // rewritten key data (and embedded images), bytes
    std::uint64_t bytesDropped = 0;   // dead key data cut out of the buffers, bytes
};

// Applies the rewrites (at most one per animation, in any order), inserts the root bone when one
// is given, and frames the result. Fails only on what cannot be written: an image or buffer file
// that cannot be read for embedding, a GLB whose buffers[0] has no bytes, a GLB over 4 GiB - 1, a skin of the root
// bone's child whose inverse bind matrices cannot be read to append one.
Result<RewrittenAsset> rewriteAsset(const gltf::Asset& asset, const std::vector<ClipRewrite>& clips,
                                    const RewriteOptions& options, const NewRootBone* rootBone = nullptr,
                                    const std::vector<AnimationExtras>& extras = {});

// main's pieces in one vector (tests, the fuzzer; the CLI writes them where they are).
std::vector<std::uint8_t> joinPieces(const std::vector<OutputPiece>& pieces);

// A file name as a relative URI: RFC 3986 unreserved characters and '/' kept,
// everything else percent-encoded ("my walk.bin" -> "my%20walk.bin").
std::string fileNameToUri(const std::string& name);

}  // namespace rootbake
