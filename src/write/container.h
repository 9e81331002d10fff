// The container of a baked asset: the edited document (src/edit) framed as a .glb or a .gltf with
// its .bin files or data: URIs, in memory; src/io/write_files.h writes the result. The header reads
// as the container's table of contents, grouped by the file that implements each part.
// Everything the edits do not touch passes through: objects, extensions, extras, key order, and
// the bytes of every bufferView they did not rewrite (docs/sidecar.md, "The in-place asset").
#pragma once

#include "edit/edit.h"
#include "gltf/asset.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rootbake::write {

// ---- container.cpp: the one entry -------------------------------------------------------------

enum class Container : std::uint8_t { Glb, Gltf };

struct RewriteOptions {
    bool keepSource = false;  // keep the source clips; append the in-place ones as "<name> (in place)"
    Container container = Container::Glb;
    std::string binName;  // file name of a new .bin beside a .gltf output ("walk.bin")
    // The JSON is the input's text with only the edited values replaced and the new ones inserted
    // (spliceJson), unless the container changes (.glb to .gltf or back) or reprint is set:
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
// input's buffers (gltf::Asset::buffers), written from there (a gather write): the gltf::Asset must outlive
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

// The edited document framed: a GLB (a .gltf's buffers merged into its BIN chunk, its image files
// embedded), or a .gltf (a changed buffer in a new .bin or its data: URI, files it reads copied
// beside it). Fails only on what cannot be written: an image or buffer file that cannot be read
// for embedding, a GLB whose buffers have no bytes, a GLB over 4 GiB - 1.
Result<RewrittenAsset> frameDocument(const gltf::Asset& asset, edit::EditedDocument edited,
                                     const RewriteOptions& options);

// The whole rewrite: edit::editDocument (the clips' keys, the root bone when one is given, the
// extras), then frameDocument. Errors name the file.
Result<RewrittenAsset> rewriteAsset(const gltf::Asset& asset, const std::vector<edit::ClipRewrite>& clips,
                                    const RewriteOptions& options,
                                    const edit::NewRootBone* rootBone = nullptr,
                                    const std::vector<edit::AnimationExtras>& extras = {});

// ---- output_bytes.cpp: the output assembled from pieces ---------------------------------------

// main's pieces in one vector (tests, the fuzzer; the CLI writes them where they are).
std::vector<std::uint8_t> joinPieces(const std::vector<OutputPiece>& pieces);

// ---- buffers.cpp: buffers and images, where they go in the container ----------------------------

// A file name as a relative URI: RFC 3986 unreserved characters and '/' kept,
// everything else percent-encoded ("my walk.bin" -> "my%20walk.bin").
std::string fileNameToUri(const std::string& name);

// ---- splice.cpp: the output's JSON as edits of the input's text ---------------------------------

// `edited` printed as `text` (which parses to `original`) with only what differs replaced:
// equal values keep their bytes; objects that keep their keys in order and non-empty arrays
// that keep their elements are spliced member by member, new members going before the
// closing bracket; anything else is printed in the file's style (one line, or indented by
// its unit). Whitespace before the root is kept, after it only with keepTrailing.
std::string spliceJson(std::string_view text, bool keepTrailing, const nlohmann::ordered_json& original,
                       const nlohmann::ordered_json& edited);

}  // namespace rootbake::write
