// SHA-256 (FIPS 180-4) of a byte string, for the sidecar's inputSha256.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace rootbake {

// Lower-case hex, 64 characters.
std::string sha256Hex(std::span<const std::uint8_t> bytes);

}  // namespace rootbake
