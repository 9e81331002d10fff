// rootbake check: re-analyses assets and compares them with committed sidecars.
#pragma once

#include "cli/cli.h"

#include <string>

namespace rootbake::cli {

struct CheckArgs {
    CommonArgs common;
    std::string against;     // a sidecar (one input), or a folder of them laid out as bake --out-dir writes
    double tolerance = 0.01;  // relative change of stride, turn and speed allowed
};

// Exit codes: 0 every clip as committed; 4 a change (one line per change on stderr);
// 1 usage; 2 an input or a sidecar cannot be read.
int check(const CheckArgs& args);

}  // namespace rootbake::cli
