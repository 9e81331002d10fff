// The track stage: the samples a root track is measured on.
#include "stages.h"

#include <algorithm>
#include <cmath>

namespace rootbake::core {

// Samples for a track that lands on every one of the root's keys: when the keys sit on
// an even grid over [from, to] (30 or 24 fps, also starting after `from`), a whole
// multiple of that grid at no less than `rate`; else `fallback`. At most `limit`. Babylon's count,
// ceil(duration x rate), puts the samples between 30 fps keys whenever a float
// duration lands a hair above a whole frame (0.8f x 60 = 48.0000007).
int keyAlignedSampleCount(const NodeChannels& root, double from, double to, double rate, int fallback,
                          double limit) {
    const double range = to - from;
    double spacing = 0.0;
    for (const Channel* c : {root.translation, root.rotation})
        if (c && c->times.size() >= 2) spacing = std::max(spacing, double(c->times[1]) - double(c->times[0]));
    if (!(range > 0.0) || !(spacing > 0.0)) return fallback;
    const auto onGrid = [&](double t) {
        const double steps = (t - from) / spacing;
        return std::abs(steps - std::round(steps)) <= 1e-3;
    };
    if (!onGrid(to)) return fallback;
    for (const Channel* c : {root.translation, root.rotation})
        if (c)
            for (float t : c->times)
                if (!onGrid(t)) return fallback;
    const double intervals = std::round(range / spacing);
    const double perInterval = std::max(1.0, std::ceil(range * rate / intervals - 1e-3));
    const double count = intervals * perInterval;
    // Keys far denser than the rate (or past a limit) are not worth a track that size.
    return count <= std::min(4.0 * fallback, limit) ? static_cast<int>(count) : fallback;
}

}  // namespace rootbake::core
