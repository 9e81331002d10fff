// The glTF document as the edits leave it: the input's JSON with its edits, and per buffer the
// byte ranges cut and the bytes appended, kept apart from the input's bytes (never copied here).
// The container (src/write) reads it to frame the output. Also the small typed queries on the
// document that the edits and the container share.
#pragma once

#include "gltf/asset.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace rootbake::edit {

using Json = nlohmann::ordered_json;

// A buffer's edits: its bytes in the output are the source's first `kept` bytes outside `cuts`,
// then `tail`. Copied once, into the output, by the container.
struct BufferEdit {
    bool touched = false;  // bytes edited; else the buffer is the source's as read
    std::vector<std::pair<std::uint64_t, std::uint64_t>> cuts;  // (offset, length) in the source
    std::uint64_t kept = 0;                                     // source bytes kept, byteLength less the cuts
    std::vector<std::uint8_t> tail;                             // appended keys and their padding
};

struct EditedDocument {
    Json document;
    std::vector<BufferEdit> buffers;  // per buffer of the input (or the one buffer made for new keys)
    // Per input animation: where the clip to play is in the output, and its name
    // ("animations[N]", N the input's index, for a clip without one).
    std::vector<int> animationOf;
    std::vector<std::string> nameOf;
    std::uint64_t bytesAppended = 0;  // rewritten key data, bytes
    std::uint64_t bytesDropped = 0;   // dead key data cut out of the buffers, bytes
};

// The names a bufferView's meshopt extension may have.
inline constexpr const char* kMeshoptExtensions[] = {"EXT_meshopt_compression", "KHR_meshopt_compression"};

// The length of the array doc[key]; 0 when it is absent or not an array.
std::size_t sizeOf(const Json& doc, const char* key);
// A glTF index (1.0 written for 1 is accepted, as the loader does).
bool isIndex(const Json* value);
// object[key] as an unsigned number, `otherwise` when it is absent.
std::uint64_t uintOf(const Json& object, const char* key, std::uint64_t otherwise = 0);
// object.extensions[name], or nullptr.
const Json* extensionOf(const Json& object, const char* name);
// n rounded up to a multiple of 4 (glTF's alignment of buffer data and GLB chunks).
std::uint64_t align4(std::uint64_t n);

// The source bytes of a buffer as read (empty for one made by the edits).
std::span<const std::uint8_t> sourceBytes(const gltf::Asset& asset, std::size_t buffer);
// No bytes behind the buffer (an extension's fallback buffer); one the edits made has them.
bool hasNoData(const gltf::Asset& asset, const EditedDocument& edited, std::size_t buffer);
// Bytes the buffer holds now: all of the source when untouched (a GLB's padding too).
std::uint64_t heldBytes(const gltf::Asset& asset, const EditedDocument& edited, std::size_t buffer);

}  // namespace rootbake::edit
