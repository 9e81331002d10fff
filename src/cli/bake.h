// rootbake bake: writes the in-place asset and its sidecar (docs/sidecar.md), for
// one input (-o) or many (--out-dir).
#pragma once

#include "cli/cli.h"

#include <string>

namespace rootbake::cli {

struct BakeArgs {
    CommonArgs common;
    std::string output;              // -o: one input's output (missing folders are made)
    std::string outDir;              // --out-dir: outputs keep the inputs' relative layout below it
    bool force = false;              // overwrite existing outputs
    bool keepSource = false;         // keep the source clips, add "<name> (in place)" ones
    bool glb = false, gltf = false;  // the output container; default: the input's
    std::string depfile;             // Make-style list of every file read, per output
    std::string report;              // also the HTML report of the (one) input
    bool verify = false;             // then verify what was written
    std::string rootBone;            // --root-bone: insert a root bone of this name (edit/edit.h); empty: none
};

// Exit codes: 0 written; 1 usage (also: the output is the input or a file it
// reads); 2 bad input; 3 cannot write (also: an output exists, without --force);
// 4 a --fail-on gate failed (the outputs are written).
int bake(const BakeArgs& args);

}  // namespace rootbake::cli
