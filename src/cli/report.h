// rootbake report: one self-contained HTML page of every clip's analysis.
#pragma once

#include "cli/cli.h"

#include <string>
#include <vector>

namespace rootbake::cli {

struct ReportArgs {
    CommonArgs common;
    std::string output;  // the .html file
    bool force = false;  // overwrite an existing output
};

// Exit codes: 0 written; 1 usage (also: the output is an input or a file it
// reads); 2 bad input (an input does not load, or a clip cannot be analysed
// with the options given): nothing written; 3 cannot write (also: the output
// exists, without --force).
int report(const ReportArgs& args);

}  // namespace rootbake::cli
