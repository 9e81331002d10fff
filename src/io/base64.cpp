#include "io/base64.h"

#include <algorithm>

namespace rootbake::io {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int valueOf(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

}  // namespace

std::string encodeBase64(std::span<const std::uint8_t> bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        std::uint32_t v = std::uint32_t(bytes[i]) << 16;
        if (n > 1) v |= std::uint32_t(bytes[i + 1]) << 8;
        if (n > 2) v |= bytes[i + 2];
        for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

std::optional<Base64Error> decodeBase64(std::string_view text, std::vector<std::uint8_t>& out) {
    std::size_t n = text.size();
    std::size_t padding = 0;
    while (n > 0 && text[n - 1] == '=' && padding < 2) --n, ++padding;
    if ((n + padding) % 4 != 0 && padding != 0) return Base64Error{Base64Error::Kind::Padding, n};
    if (n % 4 == 1) return Base64Error{Base64Error::Kind::Length, n};
    out.reserve(out.size() + n / 4 * 3 + 2);
    std::uint32_t bits = 0;
    int held = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const int v = valueOf(text[i]);
        if (v < 0) return Base64Error{Base64Error::Kind::Character, i};
        bits = (bits << 6) | static_cast<std::uint32_t>(v);
        held += 6;
        if (held >= 8) {
            held -= 8;
            out.push_back(static_cast<std::uint8_t>(bits >> held));
        }
    }
    return std::nullopt;
}

}  // namespace rootbake::io
