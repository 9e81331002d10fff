// The JSON sidecar (docs/sidecar.md, schema/sidecar.schema.json): one document
// per asset with each clip's analysis, motion track and loop seam. `inspect
// --json` prints the same clip objects. The typed document is the public reader's
// (rootbake/sidecar_loader.h: parseSidecar is its fromJson); this is its toJson.
#pragma once

#include "rootbake/sidecar_loader.h"

#include <nlohmann/json.hpp>

namespace rootbake {

inline constexpr const char* kSidecarSchema = "rootbake.sidecar/2";

// One clip object of the sidecar, every number with -0 as 0.
nlohmann::ordered_json toJson(const SidecarClip& clip);

// A clip's markers as the baked glTF's animation extras carry them, under extras.rootbake
// (docs/sidecar.md, "Markers in the baked glTF"): {"markers": the sidecar's markers object}
// without its nulls (importers turn extras into custom properties, which hold no null): no
// "phase" without a phase, no "stop" without a stop.
nlohmann::ordered_json toAnimationExtras(const SidecarMarkers& markers);

// The whole document (its clips by toJson above).
nlohmann::ordered_json toJson(const Sidecar& sidecar);

// The file's bytes: toJson(sidecar).dump(2) and a newline, printed straight into the bytes (a
// track of 2^18 samples prints 40 MB: the text is not held twice).
std::vector<std::uint8_t> sidecarBytes(const Sidecar& sidecar);

}  // namespace rootbake
