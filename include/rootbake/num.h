// Numbers in text (reason lines, messages, the report's settings): one formatter for all.
#pragma once

#include <string>

namespace rootbake {

// `digits` significant digits, exactly as printf's %.*g in the C locale (0.1, 60, 1e+06),
// whatever the process's locale: the same bytes on every machine.
std::string num(double value, int digits = 4);

}  // namespace rootbake
