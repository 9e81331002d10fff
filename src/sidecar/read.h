// The sidecar reader lives in the public, header-only rootbake/sidecar_loader.h, so an engine
// can read the sidecar with the same rules rootbake checks it by.
#pragma once

#include "rootbake/sidecar_loader.h"

#include <cstdint>

namespace rootbake {

// The most a sidecar read back (check, verify) may weigh: about 125 bytes per track sample,
// so maxAssetTrackSamples' 2^18 samples are 31 MiB; 1 GiB is far past any the writer makes.
inline constexpr std::uint64_t kMaxSidecarBytes = 1ull << 30;

}  // namespace rootbake
