// Internal to the report: one clip's pictures, each a self-contained inline SVG.
#pragma once

#include "report/report.h"

#include <glm/vec2.hpp>

#include <string>
#include <vector>

namespace rootbake::report {

// From above: the root in the source and the baked clip, the character as the track moves
// it, where each contact stood while planted; framed on every point drawn, with a scale bar.
std::string topView(const ClipReport& c);
// Planted intervals per contact over the clip, with the flights between them.
std::string contactTimeline(const ClipReport& c);
// The motion track's ground speed over time, against the clip's average speed.
std::string speedChart(const ClipReport& c);
// The motion track's turn over time, against a constant rate.
std::string turnChart(const ClipReport& c);

// The size across and up the page of points' bounds on the ground plane, as the top view
// draws them (scene units).
glm::dvec2 groundExtent(const std::vector<glm::dvec3>& points, const glm::dvec3& up);

}  // namespace rootbake::report
