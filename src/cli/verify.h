// rootbake verify: replays the baked clips with their sidecar's motion track, as
// an engine would, and measures foot skate (src/verify/verify.h).
#pragma once

#include "cli/cli.h"
#include "pipeline/bake.h"

#include <string>

namespace rootbake::cli {

struct VerifyArgs {
    std::string baked;       // the in-place asset bake wrote
    std::string sidecar;     // its sidecar; empty: <baked stem>.rootmotion.json beside it, as bake writes it
    std::string source;      // the original asset; empty: no source column
    double maxDrift = 0.05;  // drift allowed a travelling clip, fraction of its average speed
    int loops = 3;           // loops replayed per clip
    bool json = false;       // one JSON document instead of the table
};

// Exit codes: 0 every gated clip passes (verify::judge); 1 usage; 2 an input cannot
// be read or does not fit the others; 4 a clip fails: a travelling clip drifts above
// maxDrift, or one that does not travel slides as if it should.
int verify(const VerifyArgs& args);

// bake --verify: verify of what bake just wrote, from memory: the asset as loaded, its clips
// made in place as the output holds them, moved by the tracks of the typed sidecar the bake
// wrote (Baked::sidecar), as verify replays the files it reads. args name the files, as the
// table prints them.
int verifyBaked(const VerifyArgs& args, const gltf::Asset& asset, const pipeline::Baked& baked);

}  // namespace rootbake::cli
