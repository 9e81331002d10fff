// The JSON sidecar (docs/sidecar.md): one document per asset with each clip's
// analysis and motion track. `inspect --json` prints the same clip objects.
#pragma once

#include "rootbake/bake.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rootbake {

// One clip object of the sidecar. animationIndex is the clip's index in the output.
nlohmann::ordered_json clipToJson(const Rig& rig, const Clip& clip, const ClipAnalysis& analysis, int animationIndex);

// A node reference: {"name", "index"} (glTF index), or null for -1.
nlohmann::ordered_json nodeRef(const Rig& rig, int node);

}  // namespace rootbake
