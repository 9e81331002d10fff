// The HTML report: describeClip (core calls, no I/O) and writeReport (string
// building). Pictures are inline SVG with presentation attributes, so a copied
// picture keeps its colours; colours are the Okabe-Ito palette, and every
// series also differs in dash or mark shape, for colour blindness and print.
#include "report/report.h"
#include "core/contacts.h"
#include "rootbake/num.h"

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec2.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>

namespace rootbake::report {

namespace {

constexpr double kDegreesPerRadian = 180.0 / std::numbers::pi;

// Okabe-Ito.
constexpr const char* kBlack = "#000000";
constexpr const char* kVermillion = "#D55E00";
constexpr const char* kBluishGreen = "#009E73";
constexpr const char* kBlue = "#0072B2";
constexpr const char* kYellow = "#F0E442";
constexpr const char* kInk = "#222222";
constexpr const char* kMuted = "#666666";
constexpr const char* kGrid = "#E4E4E4";
// Contact lanes and their marks: colour and shape by lane, cycling.
constexpr const char* kLaneColours[] = {"#0072B2", "#E69F00", "#CC79A7", "#56B4E9", "#000000", "#009E73"};
constexpr int kLaneColourCount = 6;
constexpr int kShapeCount = 4;  // circle, square, diamond, triangle

// Shared horizontal layout of the charts over time, px: they line up.
constexpr double kChartWidth = 1100;
constexpr double kChartLeft = 180;
constexpr double kChartRight = 1080;
constexpr double kTopViewWidth = 460;  // px; height 240..460, plus the legend

const char* laneColour(int lane) { return kLaneColours[lane % kLaneColourCount]; }

// ---- where text lands ----------------------------------------------------------

// A rectangle on an SVG, px.
struct Rect {
    double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
    bool overlaps(const Rect& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
    bool inside(const Rect& o) const { return x0 >= o.x0 && x1 <= o.x1 && y0 >= o.y0 && y1 <= o.y1; }
};

// The box a line of text takes, as the layout reckons it: 0.6 em a character (sans-serif's
// average), 1.1 times that in bold, from 0.8 em above the baseline to 0.2 em below.
// tests/report_test.cpp holds every page's texts to it: no two overlap.
Rect textBox(double x, double y, std::string_view text, std::string_view anchor = "start", double size = 12,
             bool bold = false) {
    std::size_t characters = 0;
    for (unsigned char c : text) characters += (c & 0xC0) != 0x80;  // UTF-8: one per code point
    const double width = 0.6 * size * double(characters) * (bold ? 1.1 : 1.0);
    const double x0 = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x;
    return {x0, y - 0.8 * size, x0 + width, y + 0.2 * size};
}

// ---- numbers and text ----------------------------------------------------------

// An SVG coordinate: 0.1 px, no trailing ".0".
std::string px(double v) {
    double r = std::round(v * 10.0) / 10.0;
    if (r == 0.0 || !std::isfinite(r)) r = 0.0;
    char text[32];
    char* end = std::to_chars(text, text + sizeof text, r, std::chars_format::fixed, 1).ptr;
    if (end - text >= 2 && end[-1] == '0' && end[-2] == '.') end -= 2;
    return std::string(text, end);
}

// Figures, by the page's one precision rule (report.h).
std::string length(double v) { return formatFixed(v, kLengthDecimals) + " m"; }
std::string speed(double v) { return formatFixed(v, kLengthDecimals) + " m/s"; }
std::string seconds(double v) { return formatFixed(v, kTimeDecimals) + " s"; }
std::string degrees(double radians) { return formatFixed(radians * kDegreesPerRadian, kAngleDecimals) + "\u00B0"; }
std::string percent(double fraction) { return formatFixed(fraction * 100.0, kPercentDecimals) + "%"; }

std::string vectorText(const glm::dvec3& v, int decimals) {
    return "(" + formatFixed(v.x, decimals) + ", " + formatFixed(v.y, decimals) + ", " + formatFixed(v.z, decimals) +
           ")";
}

// A setting as the user gave it (0.1, 60), not a measured figure: 6 significant digits, no trailing zeros.
std::string setting(double v) { return num(v, 6); }

// "+Y" for a coordinate axis, else the vector.
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

// True when `value` prints as zero at `decimals`.
bool printsAsZero(double value, int decimals) { return std::abs(value) < 0.5 * std::pow(10.0, -decimals); }

// A direction of travel: "+Z" when it is an axis as printed (the other components print as 0), else the vector.
std::string directionText(const glm::dvec3& v) {
    for (int i = 0; i < 3; ++i)
        if (printsAsZero(v[(i + 1) % 3], kDirectionDecimals) && printsAsZero(v[(i + 2) % 3], kDirectionDecimals) &&
            !printsAsZero(v[i], kDirectionDecimals)) {
            glm::dvec3 axis(0.0);
            axis[i] = v[i] > 0.0 ? 1.0 : -1.0;
            return axisName(axis);
        }
    return vectorText(v, kDirectionDecimals);
}

std::string clipTitle(const ClipReport& c) {
    return c.name.empty() ? "animations[" + std::to_string(c.animationIndex) + "]" : c.name;
}

// At most about `limit` bytes: the start and the end, an ellipsis between
// (node names differ at the end: "mixamorig:LeftToe_End"). Never splits a
// UTF-8 sequence.
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
        const std::string part = reason.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!part.empty()) parts.push_back(part);
        if (end == std::string::npos) break;
        start = end + 2;
    }
    return parts;
}

// 1, 2 or 5 times a power of ten, near range / target.
double niceStep(double range, int target) {
    if (!(range > 0.0) || !std::isfinite(range)) return 1.0;
    const double raw = range / target;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / power;
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * power;
}

// ---- the ground plane ------------------------------------------------------------

glm::dvec3 horizontal(const glm::dvec3& v, const glm::dvec3& up) { return v - up * glm::dot(v, up); }

// Seen from above (from +up): `page` points up the page, `right` to the right.
// With +Y up that is +Z up the page and +X to the left, the view of a
// character facing +Z from behind and above (its left, +X, on the left).
struct GroundPlane {
    glm::dvec3 right, page;
    glm::dvec2 at(const glm::dvec3& p) const { return {glm::dot(p, right), glm::dot(p, page)}; }
};

GroundPlane groundPlane(const glm::dvec3& up) {
    const glm::dvec3 first =
        glm::normalize(horizontal(std::abs(up.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 0, 1), up));
    const glm::dvec3 second = glm::cross(first, up);
    return {-first, second};
}

// A positive coordinate axis as the top view draws it: the arrow points where the
// axis grows, so a label never carries a minus sign ("+X" pointing left, not "-X"
// pointing right: an arrow reads as the way its axis grows).
struct GroundAxis {
    const char* name;   // "+X"
    glm::dvec2 screen;  // unit, in page pixels (y down)
};

// The coordinate axes that lie along the ground plane (not along the up axis).
std::vector<GroundAxis> groundAxes(const GroundPlane& plane) {
    static const char* names[] = {"+X", "+Y", "+Z"};
    std::vector<GroundAxis> axes;
    for (int i = 0; i < 3; ++i) {
        glm::dvec3 axis(0.0);
        axis[i] = 1.0;
        const glm::dvec2 p = plane.at(axis);
        if (glm::length(p) < 0.5) continue;  // mostly along up
        axes.push_back({names[i], glm::normalize(glm::dvec2(p.x, -p.y))});
    }
    return axes;
}

// "up the page", "to the left", ... for an axis along a side of the page; else empty.
std::string pageDirection(const glm::dvec2& screen) {
    if (std::abs(screen.y) < 1e-9) return screen.x > 0 ? "to the right" : "to the left";
    if (std::abs(screen.x) < 1e-9) return screen.y < 0 ? "up the page" : "down the page";
    return {};
}

// The horizontal bounds of points on the ground plane.
struct Box {
    glm::dvec2 lo{0.0}, hi{0.0};
    glm::dvec2 size() const { return hi - lo; }
};

Box boxOf(const std::vector<glm::dvec3>& points, const GroundPlane& plane) {
    Box box;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const glm::dvec2 p = plane.at(points[i]);
        box.lo = i == 0 ? p : glm::min(box.lo, p);
        box.hi = i == 0 ? p : glm::max(box.hi, p);
    }
    return box;
}

// ---- a small SVG writer ------------------------------------------------------------

class Svg {
public:
    Svg(const char* cls, double width, double height, const std::string& title) {
        s_ = "<svg class=\"" + std::string(cls) + "\" width=\"" + px(width) + "\" height=\"" + px(height) +
             "\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\" role=\"img\" aria-label=\"" + escapeHtml(title) +
             "\" font-family=\"sans-serif\" font-size=\"12\"><title>" + escapeHtml(title) + "</title>";
    }

    void line(double x1, double y1, double x2, double y2, const char* stroke, double width = 1.0,
              const char* dash = nullptr) {
        s_ += "<line x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\"" + px(y2) +
              "\" stroke=\"" + stroke + "\" stroke-width=\"" + px(width) + "\"";
        if (dash) s_ += std::string(" stroke-dasharray=\"") + dash + "\"";
        s_ += "/>";
    }

    // Points closer than half a pixel to the last one kept are left out.
    void polyline(const std::vector<glm::dvec2>& points, const char* stroke, double width,
                  const char* dash = nullptr) {
        if (points.empty()) return;
        std::string list;
        glm::dvec2 last = points.front();
        list += px(last.x) + "," + px(last.y);
        for (std::size_t i = 1; i < points.size(); ++i) {
            const bool final = i + 1 == points.size();
            if (!final && glm::length(points[i] - last) < 0.5) continue;
            last = points[i];
            list += " " + px(last.x) + "," + px(last.y);
        }
        s_ += "<polyline points=\"" + list + "\" fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"" +
              px(width) + "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"";
        if (dash) s_ += std::string(" stroke-dasharray=\"") + dash + "\"";
        s_ += "/>";
    }

    void rect(double x, double y, double w, double h, const char* fill, const char* stroke = nullptr,
              const char* opacity = nullptr) {
        s_ += "<rect x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" + px(std::max(w, 0.0)) + "\" height=\"" +
              px(std::max(h, 0.0)) + "\" fill=\"" + fill + "\"";
        if (stroke) s_ += std::string(" stroke=\"") + stroke + "\"";
        if (opacity) s_ += std::string(" fill-opacity=\"") + opacity + "\"";
        s_ += "/>";
    }

    void circle(double cx, double cy, double r, const char* fill, const char* stroke = nullptr) {
        s_ += "<circle cx=\"" + px(cx) + "\" cy=\"" + px(cy) + "\" r=\"" + px(r) + "\" fill=\"" + fill + "\"";
        if (stroke) s_ += std::string(" stroke=\"") + stroke + "\" stroke-width=\"1.5\"";
        s_ += "/>";
    }

    void polygon(const std::vector<glm::dvec2>& points, const char* fill, const char* stroke = nullptr) {
        std::string list;
        for (const glm::dvec2& p : points) list += (list.empty() ? "" : " ") + px(p.x) + "," + px(p.y);
        s_ += "<polygon points=\"" + list + "\" fill=\"" + fill + "\"";
        if (stroke) s_ += std::string(" stroke=\"") + stroke + "\" stroke-width=\"1\"";
        s_ += "/>";
    }

    // A contact's mark: its lane's colour and shape, centred on (x, y).
    void mark(int lane, double x, double y, double size) {
        const char* fill = laneColour(lane);
        const double r = size / 2;
        switch (lane % kShapeCount) {
            case 0: circle(x, y, r, fill, "#FFFFFF"); break;
            case 1: polygon({{x - r, y - r}, {x + r, y - r}, {x + r, y + r}, {x - r, y + r}}, fill, "#FFFFFF"); break;
            case 2: polygon({{x, y - r * 1.3}, {x + r * 1.3, y}, {x, y + r * 1.3}, {x - r * 1.3, y}}, fill, "#FFFFFF");
                    break;
            default: polygon({{x, y - r * 1.2}, {x + r * 1.2, y + r}, {x - r * 1.2, y + r}}, fill, "#FFFFFF"); break;
        }
    }

    void text(double x, double y, std::string_view content, const char* anchor = "start", const char* fill = kInk,
              double size = 12, bool bold = false) {
        s_ += "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\"";
        if (std::string_view(anchor) != "start") s_ += std::string(" text-anchor=\"") + anchor + "\"";
        s_ += std::string(" fill=\"") + fill + "\"";
        if (size != 12) s_ += " font-size=\"" + px(size) + "\"";
        if (bold) s_ += " font-weight=\"bold\"";
        s_ += ">" + escapeHtml(content) + "</text>";
    }

    void arrow(glm::dvec2 from, glm::dvec2 to, const char* colour, double width) {
        const glm::dvec2 d = to - from;
        const double len = glm::length(d);
        if (!(len > 1.0)) return;
        const glm::dvec2 u = d / len, n(-u.y, u.x);
        const double head = std::min(10.0, len * 0.5);
        line(from.x, from.y, to.x - u.x * head * 0.8, to.y - u.y * head * 0.8, colour, width);
        polygon({to, to - u * head + n * (head * 0.45), to - u * head - n * (head * 0.45)}, colour);
    }

    // A group with a tooltip: the whole of a shortened label.
    void openTitled(std::string_view title) { s_ += "<g><title>" + escapeHtml(title) + "</title>"; }
    void closeGroup() { s_ += "</g>"; }

    std::string finish() { return std::move(s_) + "</svg>"; }

private:
    std::string s_;
};

// Time (s) to x (px) on the charts' shared layout.
struct TimeAxis {
    double duration = 0.0;
    double x(double t) const { return kChartLeft + (duration > 0.0 ? t / duration : 0.0) * (kChartRight - kChartLeft); }
};

void drawTimeTicks(Svg& svg, const TimeAxis& axis, double top, double bottom, bool gridLines) {
    const double step = niceStep(axis.duration, 10);
    const int last = static_cast<int>(std::floor(axis.duration / step + 1e-9));
    for (int k = 0; k <= last; ++k) {
        const double t = k * step;
        const double x = axis.x(t);
        if (gridLines) svg.line(x, top, x, bottom, kGrid);
        svg.line(x, bottom, x, bottom + 5, kMuted);
        svg.text(x, bottom + 18, formatTick(t, step), "middle", kMuted);
    }
    svg.line(kChartLeft, bottom, kChartRight, bottom, kMuted);
    svg.text(kChartRight, bottom + 32, "time (s)", "end", kMuted);
}

// ---- one clip's pictures -------------------------------------------------------------

// The top view's plot: the ground plane's scene units to px, equal axes, framing every point drawn.
struct TopFrame {
    double scale = 1.0;       // px per scene unit
    double plotHeight = 0.0;  // px
    glm::dvec2 origin{0.0};   // bottom-left corner, scene units
    glm::dvec2 view{0.0};     // scene units across and up

    glm::dvec2 toPx(const glm::dvec2& p) const {
        return glm::dvec2((p.x - origin.x) * scale, (origin.y + view.y - p.y) * scale);
    }
    std::vector<glm::dvec2> toPx(const std::vector<glm::dvec2>& points) const {
        std::vector<glm::dvec2> out;
        out.reserve(points.size());
        for (const glm::dvec2& p : points) out.push_back(toPx(p));
        return out;
    }
};

// The root paths (source, baked) and the character's track, on the ground plane.
struct TopPaths {
    std::vector<glm::dvec2> source, baked, character;
};

TopFrame frameTopView(const ClipReport& c, const GroundPlane& plane, const TopPaths& paths) {
    // Bounds of everything drawn, and the origin.
    glm::dvec2 lo(0.0), hi(0.0);
    auto include = [&](const glm::dvec2& p) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) return;
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    };
    for (const auto* path : {&paths.source, &paths.baked, &paths.character})
        for (const glm::dvec2& p : *path) include(p);
    for (const PlantedMark& m : c.marks)
        include(plane.at(m.touchDown)), include(plane.at(m.liftOff)), include(plane.at(m.foothold));
    const double height = c.analysis.characterHeight > 0.0 ? c.analysis.characterHeight : 1.0;
    const double minimumSpan = 0.5 * height;
    const glm::dvec2 centre = (lo + hi) * 0.5;
    glm::dvec2 span = glm::max(hi - lo, glm::dvec2(minimumSpan * 0.25));
    span *= 1.2;  // margin
    span = glm::max(span, glm::dvec2(minimumSpan));

    constexpr double kMinTall = 240, kMaxTall = 460;
    TopFrame frame;
    frame.scale = std::min(kTopViewWidth / span.x, kMaxTall / span.y);
    frame.plotHeight = std::clamp(span.y * frame.scale, kMinTall, kMaxTall);
    frame.view = glm::dvec2(kTopViewWidth / frame.scale, frame.plotHeight / frame.scale);
    frame.origin = centre - frame.view * 0.5;
    return frame;
}

// Grid lines at `step` scene units, the axes through the origin darker.
void drawTopGrid(Svg& svg, const TopFrame& f, double step) {
    for (int k = static_cast<int>(std::ceil(f.origin.x / step)); k * step <= f.origin.x + f.view.x; ++k) {
        const double x = f.toPx({k * step, 0}).x;
        svg.line(x, 0, x, f.plotHeight, k == 0 ? "#C8C8C8" : kGrid);
    }
    for (int k = static_cast<int>(std::ceil(f.origin.y / step)); k * step <= f.origin.y + f.view.y; ++k) {
        const double y = f.toPx({0, k * step}).y;
        svg.line(0, y, kTopViewWidth, y, k == 0 ? "#C8C8C8" : kGrid);
    }
}

// Planted contacts under the paths (where each moved from touch-down to lift-off, then its
// foothold), the character's track and the source root, then the baked root on top, in the
// box it stays in, its name clear of `panels` (the compass's box, then the scale bar's).
void drawTopPaths(Svg& svg, const ClipReport& c, const GroundPlane& plane, const TopFrame& f,
                  const TopPaths& paths, const std::vector<Rect>& panels) {
    for (const PlantedMark& m : c.marks) {
        const glm::dvec2 p0 = f.toPx(plane.at(m.touchDown)), p1 = f.toPx(plane.at(m.liftOff));
        if (glm::length(p1 - p0) >= 1.0) svg.line(p0.x, p0.y, p1.x, p1.y, laneColour(m.lane), 1.5);
    }
    for (const PlantedMark& m : c.marks) {
        const glm::dvec2 p = f.toPx(plane.at(m.foothold));
        svg.mark(m.lane, p.x, p.y, 10);
    }
    svg.polyline(f.toPx(paths.character), kBlack, 2.0);
    svg.polyline(f.toPx(paths.source), kVermillion, 2.0, "6 4");
    if (!paths.character.empty()) {
        const glm::dvec2 start = f.toPx(paths.character.front()), end = f.toPx(paths.character.back());
        svg.circle(start.x, start.y, 4.5, "#FFFFFF", kBlack);
        svg.circle(end.x, end.y, 3.5, kBlack);
    }
    if (paths.baked.empty()) return;
    const Box box = boxOf(c.bakedRootPath, plane);
    const glm::dvec2 a0 = f.toPx(box.lo), a1 = f.toPx(box.hi);
    const double x0 = std::min(a0.x, a1.x) - 3, y0 = std::min(a0.y, a1.y) - 3;
    svg.rect(x0, y0, std::abs(a1.x - a0.x) + 6, std::abs(a1.y - a0.y) + 6, kBluishGreen, nullptr, "0.18");
    svg.polyline(f.toPx(paths.baked), kBluishGreen, 2.5);
    // Named where it sits (it is often only a few pixels across): beside its box, below or
    // above it, on the side with room, in the plot and clear of the compass and the scale bar.
    const char* name = "baked root";
    const double right = std::max(a0.x, a1.x) + 8, left = std::min(a0.x, a1.x) - 8;
    const double below = std::min(std::max(a0.y, a1.y) + 14, f.plotHeight - 36);
    const double above = std::min(a0.y, a1.y) - 8;
    struct Spot {
        double x, y;
        const char* anchor;
    };
    const bool roomRight = right <= kTopViewWidth - 80;
    const Spot first = roomRight ? Spot{right, below, "start"} : Spot{left, below, "end"};
    const Spot other = roomRight ? Spot{left, below, "end"} : Spot{right, below, "start"};
    // Then under the compass, or over the scale bar, on either side.
    const double underCompass = panels.empty() ? below : panels.front().y1 + 14;
    const double overScaleBar = panels.size() < 2 ? below : panels[1].y0 - 6;
    const Spot spots[] = {first,
                          {first.x, above, first.anchor},
                          other,
                          {other.x, above, other.anchor},
                          {first.x, underCompass, first.anchor},
                          {other.x, underCompass, other.anchor},
                          {first.x, overScaleBar, first.anchor},
                          {other.x, overScaleBar, other.anchor}};
    const Rect plot{0, 0, kTopViewWidth, f.plotHeight};
    Spot chosen = first;
    for (const Spot& spot : spots) {
        const Rect label = textBox(spot.x, spot.y, name, spot.anchor, 12, true);
        if (label.inside(plot) &&
            std::none_of(panels.begin(), panels.end(), [&](const Rect& p) { return p.overlaps(label); })) {
            chosen = spot;
            break;
        }
    }
    svg.text(chosen.x, chosen.y, name, chosen.anchor, "#00704F", 12, true);
}

// The scale bar's panel, bottom left.
Rect scaleBarBox(const TopFrame& f, double step) {
    const double bar = step * f.scale;
    return {6, f.plotHeight - 30, 6 + bar + 16, f.plotHeight - 6};
}

// A bar `step` scene units long, bottom left.
void drawScaleBar(Svg& svg, const TopFrame& f, double step) {
    const double bar = step * f.scale;
    const double h = f.plotHeight;
    svg.rect(6, h - 30, bar + 16, 24, "#FFFFFF", nullptr, "0.85");
    svg.line(14, h - 12, 14 + bar, h - 12, kInk, 3.0);
    svg.line(14, h - 17, 14, h - 7, kInk, 1.5);
    svg.line(14 + bar, h - 17, 14 + bar, h - 7, kInk, 1.5);
    svg.text(14 + bar / 2, h - 18, formatTick(step, step) + " m", "middle");
}

// Which way is which, top right: an arrow per positive axis, named at its tip, in a box
// that fits the arrows and their names.
struct Compass {
    glm::dvec2 centre{0.0}, lo{0.0}, hi{0.0};  // px: the arrows' start; the box around it
    Rect box() const { return {centre.x + lo.x, centre.y + lo.y, centre.x + hi.x, centre.y + hi.y}; }
};

Compass placeCompass(const std::vector<GroundAxis>& axes) {
    Compass c;
    c.lo = glm::dvec2(-8.0), c.hi = glm::dvec2(8.0);  // around the arrows' common start, px
    for (const GroundAxis& axis : axes) {
        const glm::dvec2 at = axis.screen * 30.0;
        c.lo = glm::min(c.lo, at - glm::dvec2(20.0, 14.0));
        c.hi = glm::max(c.hi, at + glm::dvec2(20.0, 8.0));
    }
    c.centre = glm::dvec2(kTopViewWidth - 6 - c.hi.x, 6 - c.lo.y);
    return c;
}

void drawCompass(Svg& svg, const std::vector<GroundAxis>& axes) {
    const Compass placed = placeCompass(axes);
    const glm::dvec2 compass = placed.centre, compassLo = placed.lo;
    const glm::dvec2 compassSize = placed.hi - placed.lo;
    svg.rect(compass.x + compassLo.x, compass.y + compassLo.y, compassSize.x, compassSize.y, "#FFFFFF", nullptr, "0.85");
    for (const GroundAxis& axis : axes) {
        const glm::dvec2 tip = compass + axis.screen * 20.0, at = compass + axis.screen * 30.0;
        svg.openTitled(std::string("the ") + axis.name + " axis");
        svg.arrow(compass, tip, kInk, 1.5);
        svg.text(at.x, at.y + 4, axis.name, axis.screen.x < -0.5 ? "end" : axis.screen.x > 0.5 ? "start" : "middle",
                 kInk, 12, true);
        svg.closeGroup();
    }
}

// The legend under the plot, from its top at ly - 20: the lines, the direction of travel as
// it points on the plot, and which way is up.
void drawTopLegend(Svg& svg, const ClipReport& c, const GroundPlane& plane, const std::vector<GroundAxis>& axes,
                   double ly, double step) {
    const ClipAnalysis& a = c.analysis;
    svg.line(8, ly - 4, 36, ly - 4, kVermillion, 2.0, "6 4");
    svg.text(42, ly, "root, source clip");
    svg.line(8, ly + 18, 36, ly + 18, kBluishGreen, 3.0);
    svg.text(42, ly + 22, "root, baked in place (its box)");
    svg.line(230, ly - 4, 258, ly - 4, kBlack, 2.0);
    svg.text(264, ly, "character (motion track)");
    for (int lane = 0; lane < std::min<int>(static_cast<int>(c.lanes.size()), 4); ++lane)
        svg.mark(lane, 234 + lane * 8, ly + 18, 8);
    svg.text(264, ly + 22, c.lanes.empty() ? "no contacts" : "planted contact (foothold)");
    if (a.source != Source::None && !printsAsZero(a.strideLength, kLengthDecimals)) {
        const glm::dvec2 d = plane.at(a.travelDirection * (a.strideLength < 0.0 ? -1.0 : 1.0));
        if (glm::length(d) > 1e-9) {
            const glm::dvec2 u = glm::normalize(d), at(22, ly + 39);
            const glm::dvec2 half = glm::dvec2(u.x, -u.y) * 14.0;
            svg.arrow(at - half, at + half, kBlue, 2.5);
            svg.text(42, ly + 44, "direction of travel " + directionText(a.travelDirection),
                     "start", kBlue);
        }
    }
    std::string directions;
    for (const GroundAxis& axis : axes)
        if (const std::string where = pageDirection(axis.screen); !where.empty())
            directions += std::string(directions.empty() ? "" : ", ") + axis.name + " " + where;
    svg.text(8, ly + 64, "Seen from above (" + axisName(a.upAxis) + " towards you)" +
                             (directions.empty() ? std::string() : ": " + directions) + "; grid " +
                             formatTick(step, step) + " m",
             "start", kMuted, 11);
}

std::string topView(const ClipReport& c) {
    const GroundPlane plane = groundPlane(c.analysis.upAxis);
    auto project = [&](const std::vector<glm::dvec3>& points) {
        std::vector<glm::dvec2> out;
        out.reserve(points.size());
        for (const glm::dvec3& p : points) out.push_back(plane.at(p));
        return out;
    };
    const TopPaths paths{project(c.sourceRootPath), project(c.bakedRootPath), project(c.analysis.track.translation)};
    const TopFrame frame = frameTopView(c, plane, paths);
    constexpr double kLegend = 88;
    Svg svg("topview", kTopViewWidth, frame.plotHeight + kLegend,
            "Top view of " + clipTitle(c) + ": root and character paths on the ground plane, metres");
    svg.rect(0, 0, kTopViewWidth, frame.plotHeight, "#FAFAFA", "#BBBBBB");
    const double step = niceStep(std::min(frame.view.x, frame.view.y), 4);  // the grid's and the scale bar's
    drawTopGrid(svg, frame, step);
    const std::vector<GroundAxis> axes = groundAxes(plane);
    drawTopPaths(svg, c, plane, frame, paths, {placeCompass(axes).box(), scaleBarBox(frame, step)});
    drawScaleBar(svg, frame, step);
    drawCompass(svg, axes);
    drawTopLegend(svg, c, plane, axes, frame.plotHeight + 20, step);
    return svg.finish();
}

std::string contactTimeline(const ClipReport& c) {
    const ClipAnalysis& a = c.analysis;
    const int lanes = static_cast<int>(c.lanes.size());
    if (!(a.duration > 0.0)) {
        Svg svg("timeline", kChartWidth, 36, "Contact timeline of " + clipTitle(c) + ": the clip has no duration");
        svg.text(kChartLeft, 22, "The clip has no duration: nothing to show over time.", "start", kMuted);
        return svg.finish();
    }
    constexpr double kTop = 8, kLane = 26, kBar = 16;
    const double bottom = kTop + lanes * kLane + 4;
    Svg svg("timeline", kChartWidth, bottom + 40,
            "Contact timeline of " + clipTitle(c) + ": planted intervals per contact node over the clip");
    const TimeAxis axis{a.duration};

    // Flight: where no contact is planted (the evidence's flight share, read from the same
    // intervals; docs/analysis.md, "Evidence").
    std::vector<PlantedInterval> all;
    for (const ContactLane& lane : c.lanes) all.insert(all.end(), lane.planted.begin(), lane.planted.end());
    std::sort(all.begin(), all.end(), [](const PlantedInterval& x, const PlantedInterval& y) { return x.start < y.start; });
    constexpr double kSameTime = 1e-9;  // s: the intervals' ends are the readings' times, computed alike
    std::vector<PlantedInterval> flights;
    double covered = 0.0;
    for (const PlantedInterval& p : all) {
        if (p.start - covered > kSameTime) flights.push_back({covered, p.start});
        covered = std::max(covered, p.end);
    }
    if (a.duration - covered > kSameTime) flights.push_back({covered, a.duration});
    for (const PlantedInterval& f : flights)
        svg.rect(axis.x(f.start), kTop - 4, axis.x(f.end) - axis.x(f.start), lanes * kLane + 4, kYellow, nullptr,
                 "0.45");

    drawTimeTicks(svg, axis, kTop - 4, bottom, true);
    for (int k = 0; k < lanes; ++k) {
        const double y = kTop + k * kLane;
        svg.rect(kChartLeft, y + (kLane - kBar) / 2 - 1, kChartRight - kChartLeft, kBar + 2, "#EFEFEF");
        for (const PlantedInterval& p : c.lanes[k].planted) {
            const double x0 = axis.x(p.start), x1 = std::max(axis.x(p.end), x0 + 2.0);
            svg.rect(x0, y + (kLane - kBar) / 2, x1 - x0, kBar, laneColour(k));
        }
        svg.mark(k, kChartLeft - 12, y + kLane / 2, 10);
        const std::string& label = c.lanes[k].label;
        if (label.size() > 22) svg.openTitled(label);
        svg.text(kChartLeft - 24, y + kLane / 2 + 4, shorten(label, 22), "end");
        if (label.size() > 22) svg.closeGroup();
    }
    // Key.
    const double ky = bottom + 32;
    svg.rect(kChartLeft, ky - 10, 14, 10, laneColour(0));
    svg.text(kChartLeft + 20, ky, "planted");
    svg.rect(kChartLeft + 90, ky - 10, 14, 10, kYellow, "#B8AE20", "0.45");
    svg.text(kChartLeft + 110, ky, flights.empty() ? "no flight: a contact is always planted"
                                                   : "flight: no contact planted");
    return svg.finish();
}

// A value over the clip's time, with a dashed reference line from (0, ref0) to (duration, ref1).
struct Series {
    const char* cls;
    std::string title, unit, seriesLabel, referenceLabel;
    std::vector<double> values;  // one per track sample
    double ref0 = 0.0, ref1 = 0.0;
};

std::string chartOverTime(const ClipReport& c, const Series& s) {
    const ClipAnalysis& a = c.analysis;
    const std::vector<double>& times = a.track.times;
    if (!(a.duration > 0.0) || times.size() < 2) {
        Svg svg(s.cls, kChartWidth, 36, s.title + " of " + clipTitle(c) + ": the clip has no duration");
        svg.text(kChartLeft, 22, "The clip has no duration: nothing to show over time.", "start", kMuted);
        return svg.finish();
    }
    constexpr double kTop = 30, kPlot = 170;
    const double bottom = kTop + kPlot;
    Svg svg(s.cls, kChartWidth, bottom + 40, s.title + " of " + clipTitle(c) + " over the clip, " + s.unit);
    const TimeAxis axis{a.duration};

    double lo = std::min({0.0, s.ref0, s.ref1}), hi = std::max({0.0, s.ref0, s.ref1});
    for (double v : s.values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (hi - lo < 1e-9) hi = lo + 1.0;
    const double step = niceStep(hi - lo, 5);
    lo = std::floor(lo / step + 1e-9) * step;
    hi = std::ceil(hi / step - 1e-9) * step;
    if (hi - lo < 2 * step) hi = lo + 2 * step;
    auto y = [&](double v) { return bottom - (v - lo) / (hi - lo) * kPlot; };

    for (int k = static_cast<int>(std::round(lo / step)); k <= static_cast<int>(std::round(hi / step)); ++k) {
        const double v = k * step, yy = y(v);
        svg.line(kChartLeft, yy, kChartRight, yy, k == 0 ? "#BBBBBB" : kGrid);
        svg.text(kChartLeft - 8, yy + 4, formatTick(v, step), "end", kMuted);
    }
    drawTimeTicks(svg, axis, kTop, bottom, false);
    svg.text(20, kTop + kPlot / 2, s.title + " (" + s.unit + ")", "start", kInk, 12, true);

    std::vector<glm::dvec2> points;
    points.reserve(times.size());
    for (std::size_t i = 0; i < times.size() && i < s.values.size(); ++i)
        if (std::isfinite(s.values[i])) points.push_back({axis.x(times[i]), y(s.values[i])});
    svg.line(axis.x(0), y(s.ref0), axis.x(a.duration), y(s.ref1), kBlack, 1.5, "7 5");
    svg.polyline(points, kBlue, 2.5);
    // Key, above the plot: the reference's after the series', further on when they would overlap.
    svg.line(kChartLeft, 12, kChartLeft + 28, 12, kBlue, 2.5);
    svg.text(kChartLeft + 34, 16, s.seriesLabel);
    const Rect series = textBox(kChartLeft + 34, 16, s.seriesLabel);
    const double reference =
        series.overlaps(textBox(kChartLeft + 294, 16, s.referenceLabel)) ? series.x1 + 16 : kChartLeft + 260;
    svg.line(reference, 12, reference + 28, 12, kBlack, 1.5, "7 5");
    svg.text(reference + 34, 16, s.referenceLabel);
    return svg.finish();
}

std::string speedChart(const ClipReport& c) {
    const ClipAnalysis& a = c.analysis;
    const std::vector<double>& t = a.track.times;
    const std::vector<glm::dvec3>& p = a.track.translation;
    Series s{"speed", "Speed", "m/s", "ground speed of the motion track",
             "average speed " + speed(a.averageSpeed) + " (stride / duration)",
             {}, a.averageSpeed, a.averageSpeed};
    // Ground speed, central differences (one-sided at the ends).
    const std::size_t n = std::min(t.size(), p.size());
    s.values.resize(n, 0.0);
    for (std::size_t i = 0; i < n && n > 1; ++i) {
        const std::size_t i0 = i == 0 ? 0 : i - 1, i1 = i + 1 == n ? i : i + 1;
        const double dt = t[i1] - t[i0];
        s.values[i] = dt > 0.0 ? glm::length(horizontal(p[i1] - p[i0], a.upAxis)) / dt : 0.0;
    }
    return chartOverTime(c, s);
}

std::string turnChart(const ClipReport& c) {
    const ClipAnalysis& a = c.analysis;
    Series s{"turn", "Turn", "\u00B0", "turn of the motion track since the start",
             "constant rate " + degrees(a.averageAngularSpeed) + "/s, " +
                 degrees(a.turn) + " per cycle",
             {}, 0.0, a.turn * kDegreesPerRadian};
    for (double yaw : a.track.yaw) s.values.push_back(yaw * kDegreesPerRadian);
    return chartOverTime(c, s);
}

// ---- one clip's section -------------------------------------------------------------

void row(std::string& out, const char* name, const std::string& valueHtml, const char* cls = nullptr) {
    out += "<tr";
    if (cls) out += std::string(" class=\"") + cls + "\"";
    out += "><th>" + std::string(name) + "</th><td>" + valueHtml + "</td></tr>\n";
}

const char* sourceExplanation(Source source) {
    switch (source) {
        case Source::Root: return "the motion is in the root's keys: taken out of them, applied to the character";
        case Source::FootContact: return "in place: the travel is deduced from the planted contacts; keys unchanged";
        case Source::None: break;
    }
    return "no travel and no turn: the clip produces no motion";
}

// The loop seam as the figures print it, flagged above the loop-gap default.
std::string seamText(const ClipReport& c) {
    std::string seam = length(c.loop.position) + " (" + percent(c.loop.positionFraction) + " of the height), " +
                       formatFixed(c.loop.rotationDegrees, kAngleDecimals) + "\u00B0";
    if (!c.worstNode.empty() && !printsAsZero(c.loop.position, kLengthDecimals))
        seam += ", largest at " + escapeHtml(c.worstNode);
    if (seamAboveLoopGap(c.loop))
        seam += "<br/><span class=\"seam-flag\">\u26A0 above " + percent(kLoopGapDefault) +
                " of the height (the loop-gap default): the last frame does not meet the first</span>";
    return seam;
}

void appendFigures(std::string& out, const ClipReport& c) {
    const ClipAnalysis& a = c.analysis;
    const bool moves = movesCharacter(c);
    out += "<table class=\"figures\">\n";
    row(out, "Source",
        "<span class=\"badge\">" + std::string(sourceName(a.source)) + "</span> " + sourceExplanation(a.source));
    row(out, "Root", c.root.empty() ? "none" : escapeHtml(c.root));
    row(out, "Character space", c.character.empty() ? "the scene" : escapeHtml(c.character));
    std::string contacts;
    for (const std::string& label : c.contacts) contacts += (contacts.empty() ? "" : ", ") + escapeHtml(label);
    row(out, "Contacts",
        !contacts.empty()          ? contacts
        : a.source == Source::Root ? "none: the motion is in the root's keys, the feet are not read"
                                   : "none: no travel is deduced from the feet");
    if (a.source == Source::FootContact) {
        // How well the feet bear the deduced travel out (docs/analysis.md, "Contacts").
        const ContactEvidence& e = a.evidence;
        std::string stance;
        for (size_t i = 0; i < c.contacts.size() && i < e.stanceShare.size(); ++i)
            stance += (i ? ", " : "") + escapeHtml(c.contacts[i]) + " " + percent(e.stanceShare[i]);
        row(out, "Contact evidence",
            "in stance: " + stance + "; flight (interpolated) " + percent(e.flightShare) + "; stance speeds differ by " +
                percent(e.speedSpread) + "; " + std::to_string(e.touchDowns) + " touch-downs; " +
                length(e.stridePerCycle) + " per cycle");
    }
    row(out, "Duration", seconds(a.duration) + " (" + formatFixed(a.from, kTimeDecimals) + " to " + seconds(a.to) + ")");
    row(out, "Character height", length(a.characterHeight));
    if (moves) {  // an idle or pose clip has no travel, turn or speed to show
        row(out, "Stride", length(a.strideLength), "key");
        row(out, "Stride vector", vectorText(a.stride, kLengthDecimals) + " m");
        row(out, "Direction of travel",
            printsAsZero(a.strideLength, kLengthDecimals) ? "none (no travel)" : directionText(a.travelDirection));
        row(out, "Turn", degrees(a.turn) + (a.extractsRotation ? " per cycle, extracted" : " per cycle, not extracted"),
            "key");
        row(out, "Average speed", speed(a.averageSpeed), "key");
        row(out, "Angular speed", degrees(a.averageAngularSpeed) + "/s");
    }
    row(out, "Loop seam", seamText(c), seamAboveLoopGap(c.loop) ? "flagged" : nullptr);
    if (!c.bakedRootPath.empty()) {
        const Box box = boxOf(c.bakedRootPath, groundPlane(a.upAxis));
        const bool still = printsAsZero(box.size().x, kLengthDecimals) && printsAsZero(box.size().y, kLengthDecimals);
        const std::string extent = still ? std::string("does not move on the ground")
                                         : "stays within " + formatFixed(box.size().x, kLengthDecimals) + " \u00D7 " +
                                               length(box.size().y) + " on the ground";
        row(out, moves ? "Baked root" : "Root on the ground", extent);
    }
    row(out, "Baked clip", c.bakedInPlace ? "the root's keys rewritten in place" : "written as it is");
    out += "</table>\n";

    out += "<h4>Decisions</h4>\n<ol class=\"reasons\">\n";
    for (const std::string& reason : splitReason(a.reason)) out += "<li>" + escapeHtml(reason) + "</li>\n";
    out += "</ol>\n";
    if (!a.warnings.empty()) {
        out += "<div class=\"warnings\"><h4>\u26A0 Warnings</h4>\n<ul>\n";
        for (const std::string& w : a.warnings) out += "<li>" + escapeHtml(w) + "</li>\n";
        out += "</ul></div>\n";
    }
}

// A clip's section. An idle or pose clip's holds its figures and top view only: its
// motion track is zero, so speed over time is a flat line.
void appendClip(std::string& out, int asset, const ClipReport& c) {
    const ClipAnalysis& a = c.analysis;
    out += "<section class=\"clip\" id=\"" + clipSectionId(asset, c.animationIndex) + "\">\n";
    out += "<h3>" + escapeHtml(clipTitle(c)) + " <span class=\"index\">animations[" +
           std::to_string(c.animationIndex) + "]</span>";
    if (!a.warnings.empty())
        out += " <span class=\"warn-badge\">\u26A0 " + std::to_string(a.warnings.size()) +
               (a.warnings.size() == 1 ? " warning" : " warnings") + "</span>";
    out += "</h3>\n<div class=\"row\">\n<div class=\"figures-box\">\n";
    appendFigures(out, c);
    out += "</div>\n<figure class=\"topview-box\">\n" + topView(c) +
           "\n<figcaption>Top view: the root in the source clip, the character as the motion track moves it, "
           "and the root in the baked clip, which should stay in a small region.</figcaption>\n</figure>\n</div>\n";

    // Lanes only for the contacts the analysis read: a clip without contacts has none to show.
    if (!c.lanes.empty())
        out += "<figure>\n<figcaption>Contact timeline: planted intervals per contact node.</figcaption>\n" +
               contactTimeline(c) + "\n</figure>\n";
    if (movesCharacter(c))
        out += "<figure>\n<figcaption>Speed over time: the ground speed of the motion track.</figcaption>\n" +
               speedChart(c) + "\n</figure>\n";
    if (a.extractsRotation)
        out += "<figure>\n<figcaption>Turn over time: the turn about the up axis the motion track applies."
               "</figcaption>\n" + turnChart(c) + "\n</figure>\n";
    out += "<p class=\"back\"><a href=\"#top\">\u2191 back to the list</a></p>\n</section>\n";
}

// ---- the page ------------------------------------------------------------------------

constexpr const char* kStyle = R"(
body { margin: 0; background: #FFFFFF; color: #1A1A1A;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header, main { max-width: 1140px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 18px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 28px 0 6px; }
h3 { font-size: 17px; margin: 0 0 10px; }
nav h3 { font-size: 15px; margin: 10px 0 2px; }
h4 { font-size: 13px; margin: 12px 0 4px; text-transform: uppercase; letter-spacing: 0.04em; color: #555555; }
a { color: #0062A0; }
.meta { color: #555555; margin: 0 0 8px; }
.index { font-weight: normal; color: #777777; font-size: 13px; }
table { border-collapse: collapse; }
.jump { margin: 4px 0 10px; }
.jump th, .jump td { padding: 3px 12px 3px 0; text-align: left; white-space: nowrap; }
.jump th { font-size: 12px; color: #555555; border-bottom: 1px solid #CCCCCC; }
.jump td.n, .jump th.n { text-align: right; font-variant-numeric: tabular-nums; }
.figures th { text-align: left; font-weight: 600; color: #444444; padding: 2px 14px 2px 0;
  vertical-align: top; white-space: nowrap; }
.figures td { padding: 2px 0; font-variant-numeric: tabular-nums; }
.figures tr.key td { font-weight: 700; }
.badge { display: inline-block; padding: 0 6px; border: 1px solid #888888; border-radius: 3px;
  font-size: 12px; font-weight: 600; background: #F2F2F2; }
.reasons { margin: 0; padding-left: 22px; color: #333333; }
.warnings { background: #FFF1D6; border-left: 5px solid #E69F00; padding: 4px 12px 6px; margin: 10px 0; }
.warnings h4 { color: #8A4B00; margin-top: 4px; }
.warn, .warn-badge, .seam-flag { color: #8A4B00; font-weight: 700; }
.figures tr.flagged td { background: #FFF1D6; }
.still { margin: 4px 0 10px; line-height: 1.7; }
.still-head { font-size: 12px; color: #555555; font-weight: 600; margin-right: 4px; }
.still-clip { white-space: nowrap; }
h3.group { font-size: 15px; color: #555555; border-top: 2px solid #D0D0D0; padding-top: 16px; margin: 8px 0 0; }
.warn-badge { font-size: 13px; background: #FFF1D6; border: 1px solid #E69F00; border-radius: 3px; padding: 0 6px; }
.clip { border-top: 2px solid #D0D0D0; padding: 16px 0 8px; }
.row { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
.figures-box { flex: 1 1 440px; min-width: 0; }
figure { margin: 10px 0 0; }
figcaption { color: #555555; font-size: 12.5px; margin: 0 0 2px; }
.topview-box { flex: 0 0 auto; margin: 0; }
.topview-box figcaption { max-width: 460px; margin: 4px 0 0; }
svg { display: block; max-width: 100%; height: auto; }
.back { margin: 6px 0 0; font-size: 12px; }
@media print {
  body { font-size: 10pt; }
  header, main { max-width: none; padding: 0; }
  .clip { break-before: page; }
  figure, tr { break-inside: avoid; }
  .back { display: none; }
  a { color: inherit; text-decoration: none; }
}
)";

// The precision rule (report.h) and the seam flag, as the page states them.
std::string precisionNote() {
    return "Lengths in metres (glTF scene units) and speeds in m/s to the millimetre, times in seconds from the clip "
    "start to the millisecond, angles to a tenth of a degree, shares to a tenth of a percent.";
}

std::string seamNote() {
    return "\u26A0 on a loop seam: the clip\u2019s last frame is more than " + percent(kLoopGapDefault) +
           " of the character height from its first, the default of --fail-on loop-gap.";
}

std::string optionsText(const Options& o) {
    std::string s = "up axis " + axisName(glm::normalize(o.upAxis));
    s += " \u00B7 " + setting(o.samplesPerSecond) + " samples/s";
    s += " \u00B7 minimum travel " + setting(o.minimumTravel) + " \u00D7 height";
    s += " \u00B7 minimum turn " + degrees(o.minimumTurn);
    s += " \u00B7 direction snap " + (o.directionSnapAngle ? degrees(*o.directionSnapAngle) : std::string("auto"));
    s += std::string(" \u00B7 lateral ") + (o.extractLateralMotion ? "on" : "off");
    s += std::string(" \u00B7 rotation ") + kToggleNames[int(o.extractRotation)];
    s += std::string(" \u00B7 source ") + kSourceChoiceNames[int(o.source)];
    s += " \u00B7 root " + (o.rootNode.empty() ? std::string("found") : nodeRefLabel(o.rootNode));
    if (!o.characterNode.empty()) s += " \u00B7 character node " + nodeRefLabel(o.characterNode);
    std::string contacts;
    for (const NodeRef& c : o.contactNodes) contacts += (contacts.empty() ? "" : ", ") + nodeRefLabel(c);
    s += " \u00B7 contacts " + (contacts.empty() ? std::string("found") : contacts);
    return s;
}

// A clip's link in the jump list.
std::string clipLink(int asset, const ClipReport& c) {
    return "<a href=\"#" + clipSectionId(asset, c.animationIndex) + "\">" + escapeHtml(clipTitle(c)) + "</a>";
}

std::string warningCount(const ClipAnalysis& a) {
    return a.warnings.empty() ? std::string()
                              : "<span class=\"warn\">\u26A0 " + std::to_string(a.warnings.size()) + "</span>";
}

std::size_t movingCount(const AssetReport& asset) {
    return static_cast<std::size_t>(std::count_if(asset.clips.begin(), asset.clips.end(), movesCharacter));
}

// The clips that move, then the idle and pose clips, each in file order.
std::vector<const ClipReport*> pageOrder(const AssetReport& asset) {
    std::vector<const ClipReport*> order;
    for (bool moving : {true, false})
        for (const ClipReport& c : asset.clips)
            if (movesCharacter(c) == moving) order.push_back(&c);
    return order;
}

// Per asset: a table of the clips that move, then the idle and pose clips folded
// into one short list (name, duration, and a flag where there is one).
void appendJumpList(std::string& out, const std::vector<AssetReport>& assets) {
    out += "<nav id=\"top\">\n<h2>Clips</h2>\n";
    for (std::size_t i = 0; i < assets.size(); ++i) {
        const AssetReport& asset = assets[i];
        const int index = static_cast<int>(i);
        out += "<h3><a href=\"#a" + std::to_string(i) + "\">" + escapeHtml(asset.label) + "</a></h3>\n";
        if (asset.clips.empty()) {
            out += "<p class=\"meta\">No animations.</p>\n";
            continue;
        }
        const auto moving = movingCount(asset);
        if (moving > 0) {
            out += "<table class=\"jump\">\n<tr><th>clip</th><th>source</th><th class=\"n\">duration</th>"
                   "<th class=\"n\">stride</th><th class=\"n\">turn</th><th class=\"n\">speed</th>"
                   "<th class=\"n\">loop seam (of height)</th><th>warnings</th></tr>\n";
            for (const ClipReport& c : asset.clips) {
                if (!movesCharacter(c)) continue;
                const ClipAnalysis& a = c.analysis;
                out += "<tr><td>" + clipLink(index, c) + "</td><td>" + sourceName(a.source) + "</td><td class=\"n\">" +
                       seconds(a.duration) + "</td><td class=\"n\">" + length(a.strideLength) +
                       "</td><td class=\"n\">" + degrees(a.turn) + "</td><td class=\"n\">" + speed(a.averageSpeed) +
                       "</td><td class=\"n\">";
                out += seamAboveLoopGap(c.loop)
                           ? "<span class=\"seam-flag\">\u26A0 " + percent(c.loop.positionFraction) + "</span>"
                           : percent(c.loop.positionFraction);
                out += "</td><td>" + warningCount(a) + "</td></tr>\n";
            }
            out += "</table>\n";
        } else {
            out += "<p class=\"meta\">No clip moves the character.</p>\n";
        }
        if (moving == asset.clips.size()) continue;
        out += "<p class=\"still\"><span class=\"still-head\">Idle and pose clips (" +
               std::to_string(asset.clips.size() - moving) + ", no travel, no turn):</span> ";
        bool first = true;
        for (const ClipReport& c : asset.clips) {
            if (movesCharacter(c)) continue;
            out += std::string(first ? "" : " \u00B7 ") + "<span class=\"still-clip\">" + clipLink(index, c) + " " +
                   seconds(c.analysis.duration);
            if (seamAboveLoopGap(c.loop))
                out += " <span class=\"seam-flag\">\u26A0 loop seam " + percent(c.loop.positionFraction) + "</span>";
            if (!c.analysis.warnings.empty()) out += " " + warningCount(c.analysis);
            out += "</span>";
            first = false;
        }
        out += "</p>\n";
    }
    out += "</nav>\n";
}

}  // namespace

// ---- public ----------------------------------------------------------------------------

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
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default:
                // Control characters other than tab and newline are not allowed in HTML text.
                if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n') out += "\uFFFD";
                else out += ch;
        }
    }
    return out;
}

std::string clipSectionId(int asset, int animationIndex) {
    return "a" + std::to_string(asset) + "-c" + std::to_string(animationIndex);
}

namespace {

// Every track sample: the root in the source and the baked clip (out's paths), and per
// planted contact where the baked clip plays it with the motion applied (turn, then travel).
std::vector<std::vector<glm::dvec3>> playBack(const Rig& rig, const Clip& clip, const Clip& baked,
                                              const ClipAnalysis& a, ClipReport& out) {
    const std::vector<double>& times = a.track.times;
    const int count = static_cast<int>(std::min({times.size(), a.track.translation.size(), a.track.yaw.size()}));
    std::vector<ChannelCursor> sourceCursors(clip.channels.size()), bakedCursors(baked.channels.size());
    std::vector<Transform> local(rig.size());
    std::vector<glm::dmat4> scene(rig.size());
    std::vector<std::vector<glm::dvec3>> played(a.planting.size(), std::vector<glm::dvec3>(count));
    std::vector<glm::dvec4> soles;  // where each contact touches the ground, in its joint's space
    for (const ContactPlanting& p : a.planting) soles.push_back(glm::dvec4(core::soleOf(rig, p.node), 1.0));
    auto toCharacter = [&] { return a.character >= 0 ? glm::inverse(scene[a.character]) : glm::dmat4(1.0); };
    for (int i = 0; i < count; ++i) {
        const double t = a.from + times[i];
        if (a.root >= 0 && out.bakedInPlace) {
            sampleLocalPose(rig, clip, t, sourceCursors, local);
            localToScene(rig, local, scene);
            out.sourceRootPath.push_back(glm::dvec3(toCharacter() * scene[a.root][3]));
        }
        sampleLocalPose(rig, baked, t, bakedCursors, local);
        localToScene(rig, local, scene);
        const glm::dmat4 m = toCharacter();
        if (a.root >= 0) out.bakedRootPath.push_back(glm::dvec3(m * scene[a.root][3]));
        const glm::dquat turn = glm::angleAxis(a.track.yaw[i], a.upAxis);
        for (std::size_t k = 0; k < a.planting.size(); ++k)
            played[k][i] =
                turn * glm::dvec3(m * scene[a.planting[k].node] * soles[k]) + a.track.translation[i];
    }
    if (!out.bakedInPlace) out.sourceRootPath = out.bakedRootPath;  // the same clip
    return played;
}

// A planted interval of lane k as played (samples i0..i1): where the foot touched down,
// lifted off, stood lowest, and how far it slid from there.
PlantedMark plantedMark(int lane, const PlantedInterval& p, const std::vector<glm::dvec3>& played, int i0, int i1,
                        const glm::dvec3& up) {
    PlantedMark mark;
    mark.lane = lane;
    mark.start = p.start;
    mark.end = p.end;
    mark.touchDown = played[i0];
    mark.liftOff = played[i1];
    int lowest = i0;
    for (int i = i0; i <= i1; ++i)
        if (glm::dot(played[i], up) < glm::dot(played[lowest], up)) lowest = i;
    mark.foothold = played[lowest];
    for (int i = i0; i <= i1; ++i) mark.slip = std::max(mark.slip, glm::length(horizontal(played[i] - mark.foothold, up)));
    return mark;
}

}  // namespace

ClipReport describeClip(const Rig& rig, const Clip& clip, const BakedClip& inPlace) {
    ClipReport out;
    out.name = clip.name;
    out.animationIndex = clip.gltfIndex;
    out.analysis = inPlace.analysis;
    const ClipAnalysis& a = out.analysis;
    out.bakedInPlace = !inPlace.channels.empty();
    out.loop = inPlace.loop;

    auto label = [&](int node) { return node >= 0 ? nodeLabel(rig, node) : std::string(); };
    out.root = label(a.root);
    out.character = label(a.character);
    out.worstNode = label(out.loop.worstNode);
    for (int node : a.contacts) out.contacts.push_back(label(node));
    // The analysis's own planted intervals only (what the sidecar holds): a clip whose
    // motion does not come from its contacts shows none.
    for (const ContactPlanting& p : a.planting) out.lanes.push_back({label(p.node), p.planted});

    const std::vector<std::vector<glm::dvec3>> played =
        playBack(rig, clip, applyInPlace(clip, inPlace.channels), a, out);
    const std::vector<double>& times = a.track.times;
    const auto end = times.begin() + static_cast<std::ptrdiff_t>(played.empty() ? 0 : played.front().size());
    const double eps = 1e-9 * std::max(1.0, a.duration);
    for (std::size_t k = 0; k < a.planting.size(); ++k) {
        for (const PlantedInterval& p : a.planting[k].planted) {
            const auto first = std::lower_bound(times.begin(), end, p.start - eps);
            const auto last = std::upper_bound(times.begin(), end, p.end + eps);
            if (first >= last) continue;
            const int i0 = static_cast<int>(first - times.begin()), i1 = static_cast<int>(last - times.begin()) - 1;
            out.marks.push_back(plantedMark(static_cast<int>(k), p, played[k], i0, i1, a.upAxis));
        }
    }
    return out;
}

std::string writeReport(const std::vector<AssetReport>& assets, const ReportSettings& settings) {
    std::size_t clipCount = 0;
    for (const AssetReport& asset : assets) clipCount += asset.clips.size();
    std::string title = "Root motion report";
    if (!assets.empty()) title += ": " + assets.front().label;
    if (assets.size() > 1) title += " and " + std::to_string(assets.size() - 1) + " more";

    std::string out;
    out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
           "<meta name=\"generator\" content=\"" + escapeHtml(settings.generator) + "\"/>\n"
           "<title>" + escapeHtml(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
    out += "<header>\n<h1>Root motion report</h1>\n<p class=\"meta\">" + escapeHtml(settings.generator) + " \u00B7 " +
           std::to_string(assets.size()) + (assets.size() == 1 ? " asset" : " assets") + " \u00B7 " +
           std::to_string(clipCount) + (clipCount == 1 ? " clip" : " clips") + "</p>\n<p class=\"meta\">Analysis: " +
           escapeHtml(optionsText(settings.options)) + ".</p>\n<p class=\"meta\">" + precisionNote() + " " + seamNote() +
           "</p>\n";
    appendJumpList(out, assets);
    out += "</header>\n<main>\n";
    for (std::size_t i = 0; i < assets.size(); ++i) {
        const AssetReport& asset = assets[i];
        const std::size_t moving = movingCount(asset);
        out += "<section class=\"asset\" id=\"a" + std::to_string(i) + "\">\n<h2>" + escapeHtml(asset.label) +
               "</h2>\n<p class=\"meta\">" + std::to_string(asset.clips.size()) +
               (asset.clips.size() == 1 ? " clip" : " clips") + ": " + std::to_string(moving) + " moving, " +
               std::to_string(asset.clips.size() - moving) + " idle or pose</p>\n";
        bool stillHeading = false;
        for (const ClipReport* c : pageOrder(asset)) {
            if (!movesCharacter(*c) && !stillHeading) {
                out += "<h3 class=\"group\">Idle and pose clips: no travel, no turn</h3>\n";
                stillHeading = true;
            }
            appendClip(out, static_cast<int>(i), *c);
        }
        out += "</section>\n";
    }
    out += "</main>\n</body>\n</html>\n";
    return out;
}

}  // namespace rootbake::report
