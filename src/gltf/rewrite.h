// The in-place rewrite: the input's own JSON (Asset::document) with the root
// channels of baked clips replaced, and its buffers with the new key data
// appended, framed as a .glb or .gltf. Everything the rewrite does not touch
// passes through: objects, extensions, extras, key order, and the bytes of
// every bufferView it did not rewrite (docs/sidecar.md, "The in-place asset").
#pragma once

#include "gltf/asset.h"

#include <array>
#include <cstdint>
#include <filesystem>
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
// It joins every skin whose joints hold `child`, with inverseBind; a skin whose skeleton was
// `child` gets it as its skeleton.
struct NewRootBone {
    std::string name;
    int child = -1;                       // glTF index
    glm::dvec3 translation{0.0};          // its rest translation, in the child's former parent's space
    std::array<float, 16> inverseBind{};  // column-major: the inverse of its rest scene matrix
};

enum class Container : std::uint8_t { Glb, Gltf };

struct RewriteOptions {
    bool keepSource = false;  // keep the source clips; append the in-place ones as "<name> (in place)"
    Container container = Container::Glb;
    std::string binName;  // file name of a new .bin beside a .gltf output ("walk.bin")
    int indent = 2;       // JSON indentation of a .gltf output; -1: one line (a GLB's is always one line)
};

// A file beside the output: new bytes, or a file the input reads, copied as it is.
struct SideFile {
    std::filesystem::path relativePath;  // from the output's folder (the URI decoded)
    std::vector<std::uint8_t> bytes;     // the content, when copyFrom is empty
    std::filesystem::path copyFrom;      // a file the input reads
};

struct RewrittenAsset {
    std::vector<std::uint8_t> main;  // the .glb or .gltf
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
// that cannot be read for embedding, a GLB whose buffers[0] has no bytes, a skin of the root
// bone's child whose inverse bind matrices cannot be read to append one.
Result<RewrittenAsset> rewriteAsset(const Asset& asset, const std::vector<ClipRewrite>& clips,
                                    const RewriteOptions& options, const NewRootBone* rootBone = nullptr);

// A file name as a relative URI: RFC 3986 unreserved characters and '/' kept,
// everything else percent-encoded ("my walk.bin" -> "my%20walk.bin").
std::string fileNameToUri(const std::string& name);

}  // namespace rootbake
