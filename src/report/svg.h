// Internal to the report: the page's palette and chart layout, and a small SVG writer
// whose every coordinate is rounded to 0.1 px (the same description gives the same bytes).
#pragma once

#include "report/report.h"

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include <algorithm>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

namespace rootbake::report {

inline constexpr double kDegreesPerRadian = 180.0 / std::numbers::pi;

// Okabe-Ito.
inline constexpr const char* kBlack = "#000000";
inline constexpr const char* kVermillion = "#D55E00";
inline constexpr const char* kBluishGreen = "#009E73";
inline constexpr const char* kBlue = "#0072B2";
inline constexpr const char* kYellow = "#F0E442";
inline constexpr const char* kInk = "#222222";
inline constexpr const char* kMuted = "#666666";
inline constexpr const char* kGrid = "#E4E4E4";
// Contact lanes and their marks: colour and shape by lane, cycling.
inline constexpr const char* kLaneColours[] = {"#0072B2", "#E69F00", "#CC79A7",
                                               "#56B4E9", "#000000", "#009E73"};
inline constexpr int kLaneColourCount = 6;
inline constexpr int kShapeCount = 4;  // circle, square, diamond, triangle

// Shared horizontal layout of the charts over time, px: they line up.
inline constexpr double kChartWidth = 1100;
inline constexpr double kChartLeft = 180;
inline constexpr double kChartRight = 1080;
inline constexpr double kTopViewWidth = 460;  // px; height 240..460, plus the legend

inline const char* laneColour(int lane) {
    return kLaneColours[lane % kLaneColourCount];
}

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
             bool bold = false);

// An SVG coordinate: 0.1 px, no trailing ".0".
std::string px(double v);

// ---- a small SVG writer ------------------------------------------------------------

class Svg {
public:
    Svg(const char* cls, double width, double height, const std::string& title) {
        s_ = "<svg class=\"" + std::string(cls) + "\" width=\"" + px(width) + "\" height=\"" + px(height) +
             "\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\" role=\"img\" aria-label=\"" +
             escapeHtml(title) + "\" font-family=\"sans-serif\" font-size=\"12\"><title>" +
             escapeHtml(title) + "</title>";
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
        s_ += "<rect x=\"" + px(x) + "\" y=\"" + px(y) + "\" width=\"" + px(std::max(w, 0.0)) +
              "\" height=\"" + px(std::max(h, 0.0)) + "\" fill=\"" + fill + "\"";
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
            case 0:
                circle(x, y, r, fill, "#FFFFFF");
                break;
            case 1:
                polygon({{x - r, y - r}, {x + r, y - r}, {x + r, y + r}, {x - r, y + r}}, fill, "#FFFFFF");
                break;
            case 2:
                polygon({{x, y - r * 1.3}, {x + r * 1.3, y}, {x, y + r * 1.3}, {x - r * 1.3, y}}, fill,
                        "#FFFFFF");
                break;
            default:
                polygon({{x, y - r * 1.2}, {x + r * 1.2, y + r}, {x - r * 1.2, y + r}}, fill, "#FFFFFF");
                break;
        }
    }

    void text(double x, double y, std::string_view content, const char* anchor = "start",
              const char* fill = kInk, double size = 12, bool bold = false) {
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
    double x(double t) const {
        return kChartLeft + (duration > 0.0 ? t / duration : 0.0) * (kChartRight - kChartLeft);
    }
};

void drawTimeTicks(Svg& svg, const TimeAxis& axis, double top, double bottom, bool gridLines);

}  // namespace rootbake::report
