// Limits as typed on the command line, exit codes, and the lines rootbake prints.
#include "cli/cli.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <cmath>
#include <cstdio>

namespace rootbake::cli {

int combineExitCodes(int a, int b) {
    auto rank = [](int code) { return code == kOk ? 0 : code == kGateFailed ? 1 : 10 - code; };
    return rank(b) > rank(a) ? b : a;
}

std::string lowerAscii(std::string text) {
    for (char& c : text) c = c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
    return text;
}

std::string counted(std::size_t count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string textLine(std::string_view text) {
    return printable(text) + "\n";
}

std::string wrappedLines(std::string_view first, std::string_view text, std::size_t indent,
                         const std::vector<std::string>& whole) {
    // A space inside a name to keep whole is held as a byte printable never writes.
    constexpr char kHeld = '\x01';
    std::string words = printable(text);
    for (const std::string& name : whole) {
        const std::string shown = printable(name);
        if (shown.find(' ') == std::string::npos) continue;
        std::string held = shown;
        std::replace(held.begin(), held.end(), ' ', kHeld);
        for (std::size_t at = words.find(shown); at != std::string::npos;
             at = words.find(shown, at + held.size()))
            words.replace(at, shown.size(), held);
    }
    std::string out, line(first);
    std::size_t lineWords = 0;
    for (std::size_t at = 0; at <= words.size();) {
        std::size_t end = words.find(' ', at);
        if (end == std::string::npos) end = words.size();
        const std::string_view word(words.data() + at, end - at);
        // A word no line could hold (a long name) stays where it is: a new line would not help.
        if (lineWords > 0 && line.size() + 1 + word.size() > kColumns && indent + word.size() <= kColumns) {
            out += line + "\n";
            line.assign(indent, ' ');
            lineWords = 0;
        }
        if (lineWords > 0) line += ' ';
        line += word;
        ++lineWords;
        at = end + 1;
    }
    out += line + "\n";
    std::replace(out.begin(), out.end(), kHeld, ' ');
    return out;
}

std::vector<std::string> reasonFacts(std::string_view reason) {
    std::vector<std::string> facts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < reason.size(); ++i) {
        depth += reason[i] == '(' || reason[i] == '[';
        depth -= depth > 0 && (reason[i] == ')' || reason[i] == ']');
        if (depth == 0 && reason.compare(i, 2, "; ") == 0) {
            facts.emplace_back(reason.substr(start, i - start));
            start = i + 2;
        }
    }
    facts.emplace_back(reason.substr(start));
    return facts;
}

std::string reasonLines(std::string_view reason, const std::vector<std::string>& whole) {
    std::string out;
    const std::vector<std::string> facts = reasonFacts(reason);
    for (std::size_t f = 0; f < facts.size(); ++f)
        out += wrappedLines(f == 0 ? "      reason: " : "              ", facts[f], 16, whole);
    return out;
}

std::string jsonText(const nlohmann::ordered_json& document) {
    const std::string text = document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    // dump escapes C0 controls only: DEL and C1 controls (U+0080..U+009F) as \u too, which
    // reads back as the same JSON (those bytes occur inside strings only).
    std::string out;
    out.reserve(text.size() + 1);
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0u;
        char code[8];
        if (byte == 0x7f || (byte == 0xc2 && next >= 0x80 && next <= 0x9f)) {
            std::snprintf(code, sizeof code, "\\u%04x", byte == 0x7f ? 0x7fu : unsigned(next));
            out += code;
            i += byte == 0xc2;
        } else {
            out += char(byte);
        }
    }
    return out + "\n";
}

std::string messageLine(std::string_view kind, std::string_view message) {
    return "rootbake: " + std::string(kind) + ": " + printable(message) + "\n";
}

std::string messageLines(std::string_view kind, std::string_view place, std::string_view text,
                         const std::vector<std::string>& whole) {
    std::string line = messageLine(kind, std::string(place) + ": " + std::string(text));
    if (line.size() <= kColumns + 1) return line;  // and its newline
    return "rootbake: " + std::string(kind) + ": " + printable(place) + ":\n" + wrappedLines("    ", text, 4, whole);
}

std::vector<std::string> tableLines(const std::vector<std::vector<std::string>>& given, const std::string& indent) {
    std::vector<std::vector<std::string>> rows = given;
    for (auto& row : rows)
        for (std::string& cell : row) cell = printable(cell);
    std::vector<std::size_t> width;
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (width.size() <= c) width.push_back(0);
            width[c] = std::max(width[c], row[c].size());
        }
    std::vector<std::string> out;
    for (const auto& row : rows) {
        std::string line = indent;
        for (std::size_t c = 0; c < row.size(); ++c)
            line += c + 1 < row.size() ? row[c] + std::string(width[c] - row[c].size() + 2, ' ') : row[c];
        out.push_back(line);
    }
    return out;
}

std::string tableText(const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
    std::string out;
    for (const std::string& line : tableLines(rows, indent)) out += line + "\n";
    return out;
}

bool parseLimit(const std::string& text, Limits& limits, std::string& error) {
    struct Named {
        const char* name;
        std::uint64_t* wide;
        int* narrow;
    } const named[] = {
        {"maxFileBytes", &limits.load.maxFileBytes, nullptr},
        {"maxBufferBytes", &limits.load.maxBufferBytes, nullptr},
        {"maxAccessorElements", &limits.load.maxAccessorElements, nullptr},
        {"maxNodes", nullptr, &limits.load.maxNodes},
        {"maxDepth", nullptr, &limits.load.maxDepth},
        {"maxKeysPerChannel", nullptr, &limits.load.maxKeysPerChannel},
        {"maxKeyBytes", &limits.load.maxKeyBytes, nullptr},
        {"maxImageBytes", &limits.load.maxImageBytes, nullptr},
        {"maxJsonDepth", nullptr, &limits.load.maxJsonDepth},
        {"maxSamples", &limits.maxSamples, nullptr},
        {"maxAssetNodeSamples", &limits.maxAssetNodeSamples, nullptr},
        {"maxAssetTrackSamples", &limits.maxAssetTrackSamples, nullptr},
    };
    std::string names;
    for (const Named& n : named) names += std::string(names.empty() ? "" : ", ") + n.name;
    const std::size_t equals = text.find('=');
    const std::string name = text.substr(0, equals);
    for (const Named& n : named) {
        if (name != n.name) continue;
        std::uint64_t value = 0;
        const char* begin = text.c_str() + equals + 1;
        const char* end = text.c_str() + text.size();
        const auto parsed = equals == std::string::npos ? std::from_chars_result{begin, std::errc::invalid_argument}
                                                        : std::from_chars(begin, end, value);
        const std::uint64_t most = n.narrow ? std::uint64_t(std::numeric_limits<int>::max()) : UINT64_MAX;
        if (parsed.ec != std::errc() || parsed.ptr != end || value == 0 || value > most) {
            error = "--limit " + text + ": expected " + name + "=N, N a whole number from 1 to " + std::to_string(most);
            return false;
        }
        if (n.narrow) *n.narrow = int(value);
        else *n.wide = value;
        return true;
    }
    error = "--limit " + text + ": no such limit (" + names + ")";
    return false;
}

}  // namespace rootbake::cli
