// SHA-256 (FIPS 180-4) of a byte string, for the sidecar's inputSha256.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

struct sha256_ctx;

namespace rootbake::io {

// Lower-case hex, 64 characters (nettle's SHA-256, with the CPU's SHA instructions where
// it has them: about 0.1 s for 100 MB on x86-64).
std::string sha256Hex(std::span<const std::uint8_t> bytes);

// The same of bytes given in pieces, in order.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    void update(std::span<const std::uint8_t> bytes);
    std::string hex();  // once, after the last update

private:
    std::unique_ptr<sha256_ctx> context_;  // nettle's
};

}  // namespace rootbake::io
