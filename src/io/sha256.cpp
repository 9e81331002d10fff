#include "io/sha256.h"

#include <nettle/sha2.h>

namespace rootbake::io {

Sha256::Sha256() : context_(std::make_unique<sha256_ctx>()) {
    sha256_init(context_.get());
}

Sha256::~Sha256() = default;

void Sha256::update(std::span<const std::uint8_t> bytes) {
    sha256_update(context_.get(), bytes.size(), bytes.data());
}

std::string Sha256::hex() {
    std::uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(context_.get(), SHA256_DIGEST_SIZE, digest);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex(2 * SHA256_DIGEST_SIZE, '0');
    for (int i = 0; i < SHA256_DIGEST_SIZE; ++i) {
        hex[2 * i] = kHex[digest[i] >> 4];
        hex[2 * i + 1] = kHex[digest[i] & 15];
    }
    return hex;
}

std::string sha256Hex(std::span<const std::uint8_t> bytes) {
    Sha256 hash;
    hash.update(bytes);
    return hash.hex();
}

}  // namespace rootbake::io
