// The JSON sidecar (docs/sidecar.md, schema/sidecar.schema.json): one document
// per asset with each clip's analysis, motion track and loop seam. `inspect
// --json` prints the same clip objects. The typed document is the public reader's
// (rootbake/sidecar_loader.h: parseSidecar is its fromJson); this is its toJson.
#pragma once

#include "rootbake/sidecar_loader.h"

#include <nlohmann/json.hpp>

namespace rootbake {

inline constexpr const char* kSidecarSchema = "rootbake.sidecar/1";

// One clip object of the sidecar, every number with -0 as 0.
nlohmann::ordered_json toJson(const SidecarClip& clip);

// The whole document (its clips by toJson above).
nlohmann::ordered_json toJson(const Sidecar& sidecar);

}  // namespace rootbake
