// Figures and labels as the page prints them, and report.h's text functions.
#include "report/text.h"
#include "report/svg.h"
#include "rootbake/num.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace rootbake::report {

std::string length(double v) {
    return formatFixed(v, kLengthDecimals) + " m";
}
std::string speed(double v) {
    return formatFixed(v, kLengthDecimals) + " m/s";
}
std::string seconds(double v) {
    return formatFixed(v, kTimeDecimals) + " s";
}
std::string degrees(double radians) {
    return formatFixed(radians * kDegreesPerRadian, kAngleDecimals) + "\u00B0";
}
std::string percent(double fraction) {
    return formatFixed(fraction * 100.0, kPercentDecimals) + "%";
}

std::string vectorText(const glm::dvec3& v, int decimals) {
    return "(" + formatFixed(v.x, decimals) + ", " + formatFixed(v.y, decimals) + ", " +
           formatFixed(v.z, decimals) + ")";
}

std::string setting(double v) {
    return num(v, 6);
}

std::string axisName(const glm::dvec3& v) {
    static const char* names[] = {"X", "Y", "Z"};
    for (int i = 0; i < 3; ++i) {
        glm::dvec3 axis(0.0);
        axis[i] = 1.0;
        const double d = glm::dot(v, axis);
        if (std::abs(std::abs(d) - 1.0) < 1e-9) return std::string(d > 0 ? "+" : "\u2212") + names[i];
    }
    return vectorText(v, kDirectionDecimals);
}

bool printsAsZero(double value, int decimals) {
    return std::abs(value) < 0.5 * std::pow(10.0, -decimals);
}

std::string directionText(const glm::dvec3& v) {
    for (int i = 0; i < 3; ++i)
        if (printsAsZero(v[(i + 1) % 3], kDirectionDecimals) &&
            printsAsZero(v[(i + 2) % 3], kDirectionDecimals) && !printsAsZero(v[i], kDirectionDecimals)) {
            glm::dvec3 axis(0.0);
            axis[i] = v[i] > 0.0 ? 1.0 : -1.0;
            return axisName(axis);
        }
    return vectorText(v, kDirectionDecimals);
}

std::string clipTitle(const ClipReport& c) {
    return c.name.empty() ? "animations[" + std::to_string(c.animationIndex) + "]" : c.name;
}

std::string shorten(const std::string& s, std::size_t limit) {
    if (s.size() <= limit) return s;
    auto boundary = [&](std::size_t i) {
        while (i > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
        return i;
    };
    const std::size_t head = boundary(limit / 3), tail = boundary(s.size() - (limit - limit / 3 - 1));
    return s.substr(0, head) + "\u2026" + s.substr(tail);
}

std::vector<std::string> splitReason(const std::string& reason) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= reason.size()) {
        const std::size_t end = reason.find("; ", start);
        const std::string part =
            reason.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!part.empty()) parts.push_back(part);
        if (end == std::string::npos) break;
        start = end + 2;
    }
    return parts;
}

double niceStep(double range, int target) {
    if (!(range > 0.0) || !std::isfinite(range)) return 1.0;
    const double raw = range / target;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / power;
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * power;
}

std::string formatFixed(double value, int decimals) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    std::string out = fixedPoint(value, decimals);
    // A negative value that rounds to zero prints as zero.
    if (out[0] == '-' && out.find_first_not_of("-0.") == std::string::npos) out.erase(0, 1);
    return out;
}

std::string formatTick(double value, double step) {
    const bool usable = step > 0.0 && std::isfinite(step);
    const int decimals = usable ? std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9))) : 0;
    return formatFixed(value, decimals);
}

std::string escapeHtml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        switch (ch) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                // Control characters other than tab and newline are not allowed in HTML text.
                if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n')
                    out += "\uFFFD";
                else
                    out += ch;
        }
    }
    return out;
}

std::string clipSectionId(int asset, int animationIndex) {
    return "a" + std::to_string(asset) + "-c" + std::to_string(animationIndex);
}

}  // namespace rootbake::report
