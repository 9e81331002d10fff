// The GLB container (glTF 2.0 section 4.4): a 12-byte header, then chunks of
// (uint32 length, uint32 type, data padded to 4 bytes). Every length is checked
// against the bytes actually present before anything is read or allocated.
#include "gltf/internal.h"

#include <bit>
#include <cstring>

namespace rootbake::gltf {

static_assert(std::endian::native == std::endian::little,
              "GLB and accessor reads assume a little-endian host");

namespace {

constexpr std::uint32_t kMagic = 0x46546C67;      // "glTF"
constexpr std::uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t kChunkBin = 0x004E4942;   // "BIN\0"

std::uint32_t readU32(Bytes bytes, std::size_t offset) {
    std::uint32_t v;
    std::memcpy(&v, bytes.data() + offset, 4);
    return v;
}

std::string hex(std::uint32_t v) {
    static const char* digits = "0123456789ABCDEF";
    std::string s = "0x";
    for (int shift = 28; shift >= 0; shift -= 4) s += digits[(v >> shift) & 0xF];
    return s;
}

}  // namespace

bool looksLikeGlb(Bytes bytes) {
    return bytes.size() >= 4 && readU32(bytes, 0) == kMagic;
}

Result<GlbChunks> splitGlb(Bytes bytes) {
    const Where header("GLB header");
    if (bytes.size() < 12)
        return fail(header, "truncated (" + std::to_string(bytes.size()) + " bytes, 12 needed)");
    if (readU32(bytes, 0) != kMagic) return fail(header, "magic is not 'glTF'");
    const std::uint32_t version = readU32(bytes, 4);
    if (version != 2) return fail(header, "version " + std::to_string(version) + " (only 2 is supported)");
    const std::uint32_t length = readU32(bytes, 8);
    if (length != bytes.size())
        return fail(header, "length " + std::to_string(length) + " does not match the file size (" +
                                std::to_string(bytes.size()) + " bytes)");

    GlbChunks out;
    std::size_t offset = 12;
    for (std::size_t chunk = 0; offset < bytes.size(); ++chunk) {
        const std::string name = "GLB chunk " + std::to_string(chunk);
        const Where at(name.c_str());
        if (bytes.size() - offset < 8) return fail(at, "header truncated at byte " + std::to_string(offset));
        const std::uint32_t chunkLength = readU32(bytes, offset);
        const std::uint32_t type = readU32(bytes, offset + 4);
        offset += 8;
        if (chunkLength > bytes.size() - offset)
            return fail(at, "length " + std::to_string(chunkLength) + " runs past the end of the file (" +
                                std::to_string(bytes.size() - offset) + " bytes left)");
        if (chunkLength % 4 != 0)
            return fail(at, "length " + std::to_string(chunkLength) + " is not a multiple of 4");
        const Bytes data = bytes.subspan(offset, chunkLength);
        offset += chunkLength;
        if (chunk == 0) {
            if (type != kChunkJson) return fail(at, "type " + hex(type) + ": the first chunk must be JSON");
            if (chunkLength == 0) return fail(at, "empty JSON chunk");
            out.json = data;
        } else if (type == kChunkJson) {
            return fail(at, "a second JSON chunk");
        } else if (type == kChunkBin) {
            if (out.hasBin) return fail(at, "a second BIN chunk");
            if (chunk != 1) return fail(at, "BIN chunk after another chunk (it must follow the JSON chunk)");
            out.bin = data;
            out.hasBin = true;
        }
        // Chunks of other types are skipped, as the spec says.
    }
    if (out.json.empty()) return fail(header, "no chunks (a JSON chunk is required)");

    // The JSON chunk is padded with spaces; some exporters pad with zeros.
    while (!out.json.empty() && (out.json.back() == 0x20 || out.json.back() == 0x00))
        out.json = out.json.first(out.json.size() - 1);
    return out;
}

}  // namespace rootbake::gltf
