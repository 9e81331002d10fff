// Internal to the report: figures and labels as the page prints them (report.h's precision rule).
#pragma once

#include "report/report.h"

#include <cstddef>
#include <string>
#include <vector>

namespace rootbake::report {

// Figures, by the page's one precision rule (report.h).
std::string length(double v);
std::string speed(double v);
std::string seconds(double v);
std::string degrees(double radians);
std::string percent(double fraction);
std::string vectorText(const glm::dvec3& v, int decimals);
// A setting as the user gave it (0.1, 60), not a measured figure: 6 significant digits, no trailing zeros.
std::string setting(double v);
// "+Y" for a coordinate axis, else the vector.
std::string axisName(const glm::dvec3& v);
// True when `value` prints as zero at `decimals`.
bool printsAsZero(double value, int decimals);
// A direction of travel: "+Z" when it is an axis as printed (the other components print as 0), else the
// vector.
std::string directionText(const glm::dvec3& v);
std::string clipTitle(const ClipReport& c);
// At most about `limit` bytes: the start and the end, an ellipsis between
// (node names differ at the end: "mixamorig:LeftToe_End"). Never splits a
// UTF-8 sequence.
std::string shorten(const std::string& s, std::size_t limit);
std::vector<std::string> splitReason(const std::string& reason);
// 1, 2 or 5 times a power of ten, near range / target.
double niceStep(double range, int target);

}  // namespace rootbake::report
