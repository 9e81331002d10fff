// Standard base64 (RFC 4648, '=' padded): the one codec of the project, for data: URIs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rootbake::io {

std::string encodeBase64(std::span<const std::uint8_t> bytes);

struct Base64Error {
    enum class Kind { Padding, Length, Character } kind = Kind::Character;
    std::size_t at = 0;  // Character: the offending one's offset; Length: the characters before the padding
};
// Strict: the standard alphabet, '=' padding only at the end. Appends to out.
std::optional<Base64Error> decodeBase64(std::string_view text, std::vector<std::uint8_t>& out);

}  // namespace rootbake::io
