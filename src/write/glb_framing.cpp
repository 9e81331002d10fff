// The GLB container written (glTF 2.0 section 4.4): a 12-byte header, a JSON chunk padded with
// spaces, a BIN chunk padded with zeros. Its lengths are 32-bit. (src/gltf/glb.cpp reads it.)
#include "write/framing.h"

namespace rootbake::write {

namespace {

constexpr std::uint32_t kMagic = 0x46546C67;      // "glTF"
constexpr std::uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t kChunkBin = 0x004E4942;   // "BIN\0"

}  // namespace

std::uint64_t glbSize(std::uint64_t jsonSize, std::uint64_t binSize) {
    return 12 + 8 + edit::align4(jsonSize) + (binSize ? 8 + edit::align4(binSize) : 0);
}

OutputBytes glbHead(const std::string& json, bool hasBin, std::uint64_t binSize) {
    const std::uint32_t jsonLength = std::uint32_t(edit::align4(json.size()));
    const std::uint32_t binLength = hasBin ? std::uint32_t(edit::align4(binSize)) : 0;
    const std::uint32_t total = 12 + 8 + jsonLength + (hasBin ? 8 + binLength : 0);
    OutputBytes out;
    out.put32(kMagic);
    out.put32(2);
    out.put32(total);
    out.put32(jsonLength);
    out.put32(kChunkJson);
    out.made(json.data(), json.size());
    out.pad(20 + jsonLength, 0x20);  // padded with spaces (glTF 2.0 section 4.4.3.1)
    if (hasBin) {
        out.put32(binLength);
        out.put32(kChunkBin);
    }
    return out;
}

}  // namespace rootbake::write
