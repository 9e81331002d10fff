// The container's parts and the state they share while one document is framed, grouped by the
// file that implements them; frameDocument (container.cpp) runs them. Only the container's
// files include this.
#pragma once

#include "write/container.h"

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace rootbake::write {

using Json = nlohmann::ordered_json;

// ---- output_bytes.cpp: the output being assembled ------------------------------------------------

// OutputPieces, made bytes run together, and the output's size so far.
struct OutputBytes {
    std::vector<OutputPiece> list;
    std::uint64_t size = 0;

    void input(std::span<const std::uint8_t> bytes);  // written from the input's buffers
    void made(const void* data, std::size_t n);
    void pad(std::uint64_t to, std::uint8_t byte = 0);  // up to `to` bytes in all
    void put32(std::uint32_t v);                        // little-endian
};

// Appends the bytes the buffer holds in the output (exactly byteLength of them): the source's
// as pieces of the input, the new keys as made bytes.
void appendBuffer(const gltf::Asset& asset, const edit::EditedDocument& edited, std::size_t buffer,
                  OutputBytes& out);
// A buffer in one piece, for a data: URI or a new .bin.
std::vector<std::uint8_t> bufferBytes(const gltf::Asset& asset, const edit::EditedDocument& edited,
                                      std::size_t buffer);

// ---- glb_framing.cpp: the GLB container (glTF 2.0 section 4.4) -----------------------------------

inline constexpr std::uint64_t kMaxGlbBytes = 0xFFFFFFFFull;  // its header's 32-bit length

// The size of a GLB of a JSON chunk of jsonSize bytes and a BIN chunk of binSize (none when 0).
std::uint64_t glbSize(std::uint64_t jsonSize, std::uint64_t binSize);

// A GLB's header, its JSON chunk and, when hasBin, the header of a BIN chunk of binSize bytes;
// the caller appends the BIN chunk's bytes. The whole GLB is at most kMaxGlbBytes (the caller
// checks).
OutputBytes glbHead(const std::string& json, bool hasBin, std::uint64_t binSize);

// ---- buffers.cpp: buffers and images placed ---------------------------------------------------

struct FrameState {
    FrameState(const gltf::Asset& input, edit::EditedDocument document, const RewriteOptions& settings)
        : asset(input), options(settings), edited(std::move(document)) {}

    const gltf::Asset& asset;
    const RewriteOptions& options;
    edit::EditedDocument edited;
    RewrittenAsset out;
    int binNames = 0;  // new .bin files named so far
    // Image files a GLB output embeds, their offsets in the BIN chunk until frameDocument moves
    // them into the GLB; binEnd: the BIN chunk's end after them (0: none).
    std::vector<StreamedFile> embedded;
    std::uint64_t binEnd = 0;
};

// The buffers of a .gltf output, or of a GLB input staying a GLB: a GLB's BIN chunk stays or
// becomes a .bin, a changed buffer gets a new .bin or data: URI, a buffer file is copied beside.
Status placeBuffersAsTheyAre(FrameState& state, bool glb);
// A .gltf input into a GLB: every buffer with bytes into one BIN chunk (bin), buffers without
// bytes after it, external images of known type embedded after the bytes.
Status mergeBuffers(FrameState& state, OutputBytes& bin);
// Image files stay files, copied beside the output.
Status copyImageFiles(FrameState& state);

}  // namespace rootbake::write
