// Numbers in text (reason lines, messages, tables, the report): one formatter per rule.
#pragma once

#include <string>

namespace rootbake {

// `digits` significant digits, exactly as printf's %.*g in the C locale (0.1, 60, 1e+06),
// whatever the process's locale: the same bytes on every machine.
std::string num(double value, int digits = 4);

// `decimals` digits after the point, exactly as printf's %.*f in the C locale (1.2000,
// -0.0000, nan), for columns and figures of a fixed precision.
std::string fixedPoint(double value, int decimals);

}  // namespace rootbake
