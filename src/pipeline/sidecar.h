// The describe stage's sidecar: the engine's typed clips (rootbake/sidecar_loader.h) of the clips
// analysed and the writer's record of each, which src/write/sidecar.h writes as JSON and
// parseSidecar reads back (the engine's part).
#pragma once

#include "rootbake/bake.h"
#include "rootbake/sidecar_loader.h"
#include "write/sidecar.h"

#include <cstdint>
#include <string>

namespace rootbake::pipeline {

// The most a sidecar read back (check, verify) may weigh: about 125 bytes per track sample,
// so maxAssetTrackSamples' 2^18 samples are 31 MiB; 1 GiB is far past any the writer makes.
// The reader itself (parseSidecar) is the engine's, in the public rootbake/sidecar_loader.h.
inline constexpr std::uint64_t kMaxSidecarBytes = 1ull << 30;

// {nodeLabel, glTF index} of a rig node ("nodes[N]" for a node without a name).
SidecarNode sidecarNode(const Rig& rig, int node);

// The markers of one analysis (events, phase, stop), nodes by name and glTF index.
SidecarMarkers sidecarMarkers(const Rig& rig, const ClipAnalysis& analysis);

// The sidecar's clip of one analysis. animationIndex and name are the clip's in the output
// (with --keep-source, the "<name> (in place)" copy's); upAxis is the document's.
SidecarClip sidecarClip(const Rig& rig, const ClipAnalysis& analysis, int animationIndex,
                        const std::string& name, const glm::dvec3& upAxis);

// The writer's record of the same clip: its evidence, loop seam, reason and warnings.
write::SidecarClipRecord sidecarClipRecord(const Rig& rig, const ClipAnalysis& analysis, const LoopSeam& loop);

}  // namespace rootbake::pipeline
