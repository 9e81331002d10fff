// The SVG writer's free functions: text boxes, coordinates and the time axis.
#include "report/svg.h"
#include "report/text.h"

#include <charconv>
#include <cmath>

namespace rootbake::report {

Rect textBox(double x, double y, std::string_view text, std::string_view anchor, double size, bool bold) {
    std::size_t characters = 0;
    for (unsigned char c : text) characters += (c & 0xC0) != 0x80;  // UTF-8: one per code point
    const double width = 0.6 * size * double(characters) * (bold ? 1.1 : 1.0);
    const double x0 = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x;
    return {x0, y - 0.8 * size, x0 + width, y + 0.2 * size};
}

std::string px(double v) {
    double r = std::round(v * 10.0) / 10.0;
    if (r == 0.0 || !std::isfinite(r)) r = 0.0;
    char text[32];
    char* end = std::to_chars(text, text + sizeof text, r, std::chars_format::fixed, 1).ptr;
    if (end - text >= 2 && end[-1] == '0' && end[-2] == '.') end -= 2;
    return std::string(text, end);
}

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

}  // namespace rootbake::report
