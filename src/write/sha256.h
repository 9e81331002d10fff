// SHA-256 (FIPS 180-4) of a byte string, for the sidecar's inputSha256.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace rootbake {

// Lower-case hex, 64 characters (nettle's SHA-256, with the CPU's SHA instructions where
// it has them: about 0.07 s for 100 MB on x86-64).
std::string sha256Hex(std::span<const std::uint8_t> bytes);

}  // namespace rootbake
