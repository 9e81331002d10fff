// rootbake bake: writes the in-place asset and its sidecar (docs/sidecar.md).
#pragma once

#include "cli/cli.h"

#include <string>

namespace rootbake::cli {

struct BakeArgs {
    std::string input, output;
    bool force = false;              // overwrite existing outputs
    bool keepSource = false;         // keep the source clips, add "<name> (in place)" ones
    bool glb = false, gltf = false;  // the output container; default: the input's
    AnalysisArgs analysis;
};

// Exit codes: 0 written; 1 usage (also: the output is the input or a file it
// reads); 2 bad input; 3 cannot write (also: an output exists, without --force).
int bake(const BakeArgs& args);

}  // namespace rootbake::cli
