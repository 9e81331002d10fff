#include "write/sha256.h"

#include <nettle/sha2.h>

namespace rootbake {

std::string sha256Hex(std::span<const std::uint8_t> bytes) {
    sha256_ctx context;
    sha256_init(&context);
    sha256_update(&context, bytes.size(), bytes.data());
    std::uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&context, SHA256_DIGEST_SIZE, digest);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex(2 * SHA256_DIGEST_SIZE, '0');
    for (int i = 0; i < SHA256_DIGEST_SIZE; ++i) {
        hex[2 * i] = kHex[digest[i] >> 4];
        hex[2 * i + 1] = kHex[digest[i] & 15];
    }
    return hex;
}

}  // namespace rootbake
