// One clip's pictures: the top view, the contact timeline and the charts over time.
// Presentation attributes only, so a copied picture keeps its colours; every series
// also differs in dash or mark shape, for colour blindness and print.
#include "report/charts.h"
#include "core/frames.h"
#include "report/svg.h"
#include "report/text.h"

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>

namespace rootbake::report {

namespace {

using core::horizontal;

// ---- the ground plane ------------------------------------------------------------

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
    svg.rect(compass.x + compassLo.x, compass.y + compassLo.y, compassSize.x, compassSize.y, "#FFFFFF",
             nullptr, "0.85");
    for (const GroundAxis& axis : axes) {
        const glm::dvec2 tip = compass + axis.screen * 20.0, at = compass + axis.screen * 30.0;
        svg.openTitled(std::string("the ") + axis.name + " axis");
        svg.arrow(compass, tip, kInk, 1.5);
        svg.text(at.x, at.y + 4, axis.name,
                 axis.screen.x < -0.5  ? "end"
                 : axis.screen.x > 0.5 ? "start"
                                       : "middle",
                 kInk, 12, true);
        svg.closeGroup();
    }
}

// The legend under the plot, from its top at ly - 20: the lines, the direction of travel as
// it points on the plot, and which way is up.
void drawTopLegend(Svg& svg, const ClipReport& c, const GroundPlane& plane,
                   const std::vector<GroundAxis>& axes, double ly, double step) {
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
            svg.text(42, ly + 44, "direction of travel " + directionText(a.travelDirection), "start", kBlue);
        }
    }
    std::string directions;
    for (const GroundAxis& axis : axes)
        if (const std::string where = pageDirection(axis.screen); !where.empty())
            directions += std::string(directions.empty() ? "" : ", ") + axis.name + " " + where;
    svg.text(8, ly + 64,
             "Seen from above (" + axisName(a.upAxis) + " towards you)" +
                 (directions.empty() ? std::string() : ": " + directions) + "; grid " +
                 formatTick(step, step) + " m",
             "start", kMuted, 11);
}

}  // namespace

std::string topView(const ClipReport& c) {
    const GroundPlane plane = groundPlane(c.analysis.upAxis);
    auto project = [&](const std::vector<glm::dvec3>& points) {
        std::vector<glm::dvec2> out;
        out.reserve(points.size());
        for (const glm::dvec3& p : points) out.push_back(plane.at(p));
        return out;
    };
    const TopPaths paths{project(c.sourceRootPath), project(c.bakedRootPath),
                         project(c.analysis.track.translation)};
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
        Svg svg("timeline", kChartWidth, 36,
                "Contact timeline of " + clipTitle(c) + ": the clip has no duration");
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
    std::sort(all.begin(), all.end(),
              [](const PlantedInterval& x, const PlantedInterval& y) { return x.start < y.start; });
    constexpr double kSameTime = 1e-9;  // s: the intervals' ends are the readings' times, computed alike
    std::vector<PlantedInterval> flights;
    double covered = 0.0;
    for (const PlantedInterval& p : all) {
        if (p.start - covered > kSameTime) flights.push_back({covered, p.start});
        covered = std::max(covered, p.end);
    }
    if (a.duration - covered > kSameTime) flights.push_back({covered, a.duration});
    for (const PlantedInterval& f : flights)
        svg.rect(axis.x(f.start), kTop - 4, axis.x(f.end) - axis.x(f.start), lanes * kLane + 4, kYellow,
                 nullptr, "0.45");

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
    svg.text(kChartLeft + 110, ky,
             flights.empty() ? "no flight: a contact is always planted" : "flight: no contact planted");
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
    Series s{"speed",
             "Speed",
             "m/s",
             "ground speed of the motion track",
             "average speed " + speed(a.averageSpeed) + " (stride / duration)",
             {},
             a.averageSpeed,
             a.averageSpeed};
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
    Series s{"turn",
             "Turn",
             "\u00B0",
             "turn of the motion track since the start",
             "constant rate " + degrees(a.averageAngularSpeed) + "/s, " + degrees(a.turn) + " per cycle",
             {},
             0.0,
             a.turn * kDegreesPerRadian};
    for (double yaw : a.track.yaw) s.values.push_back(yaw * kDegreesPerRadian);
    return chartOverTime(c, s);
}

glm::dvec2 groundExtent(const std::vector<glm::dvec3>& points, const glm::dvec3& up) {
    return boxOf(points, groundPlane(up)).size();
}

}  // namespace rootbake::report
