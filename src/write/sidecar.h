// The JSON sidecar (docs/sidecar.md, schema/sidecar.schema.json): one document
// per asset with each clip's analysis, motion track and loop seam. `inspect
// --json` prints the same clip objects. What an engine reads is the public reader's types
// (rootbake/sidecar_loader.h: parseSidecar is their fromJson); the writer adds its own record
// of each clip (SidecarClipRecord) and writes both.
#pragma once

#include "rootbake/sidecar_loader.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rootbake::write {

// What the sidecar records of a clip beyond what an engine reads (SidecarClip): how the
// analysis decided, for the people who read the file and for `check`. The writer's alone:
// parseSidecar does not read it back (nothing that plays the motion needs it, and reading it
// would tie every engine to the writer's evidence).
struct SidecarClipRecord {
    std::vector<std::optional<double>> stanceShare;  // per SidecarClip::contacts; none: left out
    bool hasContactEvidence = false;                 // footContact clips only
    double flightShare = 0;                          // fraction of the clip with no contact in stance
    double speedSpread = 0;                          // of the stance speeds
    int touchDowns = 0;                              // stances begun, all contacts together
    double stridePerCycle = 0;                       // scene units
    // How cleanly the in-place clip loops.
    double loopPositionError = 0;          // scene units
    double loopPositionErrorFraction = 0;  // of the character height
    double loopRotationErrorDegrees = 0;
    bool hasLoopWorstNode = false;  // false: null in the sidecar
    SidecarNode loopWorstNode;
    std::string reason;                 // why the analysis decided as it did
    std::vector<std::string> warnings;  // the analysis's doubts
};

// The document bake writes: what an engine reads, and per clip (in sidecar.clips' order) the
// writer's record.
struct SidecarDocument {
    Sidecar sidecar;
    std::vector<SidecarClipRecord> records;
};

// One clip object of the sidecar, every number with -0 as 0.
nlohmann::ordered_json toJson(const SidecarClip& clip, const SidecarClipRecord& record);

// A clip's markers as the baked glTF's animation extras carry them, under extras.rootbake
// (docs/sidecar.md, "Markers in the baked glTF"): {"markers": the sidecar's markers object}
// without its nulls (importers turn extras into custom properties, which hold no null): no
// "phase" without a phase, no "stop" without a stop.
nlohmann::ordered_json toAnimationExtras(const SidecarMarkers& markers);

// The whole document (its clips by toJson above).
nlohmann::ordered_json toJson(const SidecarDocument& document);

// The file's bytes: toJson(document).dump(2) and a newline, printed straight into the bytes (a
// track of 2^18 samples prints 40 MB: the text is not held twice).
std::vector<std::uint8_t> sidecarBytes(const SidecarDocument& document);

}  // namespace rootbake::write
