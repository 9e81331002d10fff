// The one escape between text from files (names, URIs, paths, JSON keys) and a terminal.
// Header-only so that the fuzz targets check messages as the CLI prints them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace rootbake::cli {

// Text kept on one line of a terminal, with nothing a terminal acts on: \n, \r and \t
// as those two characters, other control bytes (C0 and DEL) as \xNN, C1 controls
// (U+0080..U+009F, which some terminals act on) as \uNNNN, and bytes that are not
// UTF-8 as \xNN. Everything else, UTF-8 included, is kept as it is. A backslash is kept
// too (Windows-style paths read as written), so the escape is for eyes, not a parser.
// Every line rootbake prints is built through this (errorLine, textLine, tableLines).
inline std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    auto hex = [&out](const char* format, unsigned value) {
        char code[8];
        std::snprintf(code, sizeof code, format, value);
        out += code;
    };
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            if (byte >= 0x20 && byte != 0x7f)
                out += char(byte);
            else if (byte == '\n')
                out += "\\n";
            else if (byte == '\r')
                out += "\\r";
            else if (byte == '\t')
                out += "\\t";
            else
                hex("\\x%02x", byte);
            ++i;
            continue;
        }
        // A UTF-8 sequence: its length by the lead byte, then its continuation bytes, with
        // overlong forms, surrogates and code points above U+10FFFF refused (RFC 3629).
        const std::size_t length = byte >= 0xc2 && byte <= 0xdf   ? 2
                                   : byte >= 0xe0 && byte <= 0xef ? 3
                                   : byte >= 0xf0 && byte <= 0xf4 ? 4
                                                                  : 0;
        std::uint32_t point = length == 2 ? byte & 0x1fu : length == 3 ? byte & 0x0fu : byte & 0x07u;
        bool valid = length != 0 && i + length <= text.size();
        for (std::size_t k = 1; valid && k < length; ++k) {
            const auto next = static_cast<unsigned char>(text[i + k]);
            valid = (next & 0xc0) == 0x80;
            point = point << 6 | (next & 0x3fu);
        }
        valid = valid && !(length == 3 && (point < 0x800 || (point >= 0xd800 && point <= 0xdfff))) &&
                !(length == 4 && (point < 0x10000 || point > 0x10ffff));
        if (!valid) {
            hex("\\x%02x", byte);
            ++i;
        } else if (point <= 0x9f) {
            hex("\\u%04x", point);
            i += length;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}

// No line break and no control a terminal acts on (C0, DEL, C1 as UTF-8): what printable returns.
inline bool isOneLine(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x20 || byte == 0x7f) return false;
        if (byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9f)
            return false;
    }
    return true;
}

}  // namespace rootbake::cli
