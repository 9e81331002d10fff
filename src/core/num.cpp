#include "rootbake/num.h"

#include <charconv>

namespace rootbake {

std::string num(double value, int digits) {
    char text[32];  // %.17g of any double, with sign and exponent, fits
    const auto end = std::to_chars(text, text + sizeof text, value, std::chars_format::general, digits).ptr;
    return std::string(text, end);
}

std::string fixedPoint(double value, int decimals) {
    char text[400];  // the longest double in fixed notation (309 digits), a sign and the decimals callers ask for
    const auto end = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, decimals).ptr;
    return std::string(text, end);
}

}  // namespace rootbake
