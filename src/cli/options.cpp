// Analysis options and limits as typed on the command line or in a config file.
#include "cli/cli.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace rootbake::cli {

int combineExitCodes(int a, int b) {
    auto rank = [](int code) { return code == kOk ? 0 : code == kGateFailed ? 1 : 10 - code; };
    return rank(b) > rank(a) ? b : a;
}

std::string lowerAscii(std::string text) {
    for (char& c : text) c = c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
    return text;
}

std::string textLine(std::string_view text) {
    return printable(text) + "\n";
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

bool parseSource(const std::string& text, AnalysisArgs& into) {
    if (text == "auto") into.source = Source::None, into.noMotion = false;
    else if (text == "root") into.source = Source::Root, into.noMotion = false;
    else if (text == "footContact") into.source = Source::FootContact, into.noMotion = false;
    else if (text == "none") into.source = Source::None, into.noMotion = true;
    else return false;
    return true;
}

bool parseUpAxis(const std::string& text, glm::dvec3& up) {
    static const struct {
        const char* name;
        glm::dvec3 axis;
    } named[] = {{"+X", {1, 0, 0}}, {"-X", {-1, 0, 0}}, {"+Y", {0, 1, 0}},
                 {"-Y", {0, -1, 0}}, {"+Z", {0, 0, 1}}, {"-Z", {0, 0, -1}}};
    for (const auto& n : named)
        if (text == n.name || text == std::string(n.name + 1)) return up = n.axis, true;
    double x, y, z;
    char tail;
    if (std::sscanf(text.c_str(), "%lf,%lf,%lf%c", &x, &y, &z, &tail) == 3 && std::isfinite(x + y + z) &&
        x * x + y * y + z * z > 0.0)
        return up = {x, y, z}, true;
    return false;
}

bool parseExtractRotation(const std::string& text, int& value) {
    if (text == "auto") value = -1;
    else if (text == "on") value = 1;
    else if (text == "off") value = 0;
    else return false;
    return true;
}

bool parseContactRule(const std::string& text, ContactRule& rule) {
    if (text == contactRuleName(ContactRule::Stance)) rule = ContactRule::Stance;
    else if (text == contactRuleName(ContactRule::Babylon)) rule = ContactRule::Babylon;
    else return false;
    return true;
}

void applyAnalysisArgs(const AnalysisArgs& args, Options& options) {
    constexpr double degrees = std::numbers::pi / 180.0;
    if (args.root) options.rootNode = *args.root;
    if (args.characterNode) options.characterNode = *args.characterNode;
    if (args.contacts) options.contactNodes = *args.contacts;
    if (args.source) options.forceSource = *args.source;
    if (args.noMotion) options.forceNoMotion = *args.noMotion;
    if (args.extractRotation) options.extractRotation = *args.extractRotation;
    if (args.lateral) options.extractLateralMotion = *args.lateral;
    if (args.upAxis) options.upAxis = *args.upAxis;
    if (args.minTravel) options.minimumTravel = *args.minTravel;
    if (args.minTurnDegrees) options.minimumTurn = *args.minTurnDegrees * degrees;
    if (args.snapAngleDegrees) options.directionSnapAngle = *args.snapAngleDegrees * degrees;
    if (args.samplesPerSecond) options.samplesPerSecond = *args.samplesPerSecond;
    if (args.contactRule) options.contactRule = *args.contactRule;
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
