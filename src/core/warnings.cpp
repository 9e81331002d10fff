// The warnings of an analysis that went through: what an animator should look at.
#include "stages.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rootbake::core {

namespace {

// Warnings on a deduced travel that the feet do not bear out well.
void doubtDeduction(ClipAnalysis& out, const Thresholds& thresholds, double minimumTravel) {
    ContactEvidence& e = out.evidence;
    // A walk has a foot in stance nearly all the cycle, a run with flight about half of
    // it: below a quarter the ground speed is interpolated far more than it is measured.
    if (e.flightShare > 0.75)
        out.warnings.push_back("contacts are in stance for only " + num(100.0 * (1.0 - e.flightShare), 3) +
                               "% of the clip: the deduced travel is interpolated over the rest");
    // Two planted feet move at the same ground speed.
    if (e.speedSpread > thresholds.stanceSpeedAgreement)
        out.warnings.push_back("the contacts disagree: their stance speeds differ by " +
                               num(100.0 * e.speedSpread, 3) + "%");
    // Only where travel was found: a forced deduction below the minimum found none.
    if (out.contacts.size() >= 2 && e.steppingContacts < 2 && glm::length(out.stride) >= minimumTravel)
        out.warnings.push_back("only one contact steps: travel found while the feet do not alternate");
    const double cycles = std::max(1.0, double(e.touchDowns) / std::max(1, e.steppingContacts));
    e.stridePerCycle = std::abs(out.strideLength) / cycles;
    if (out.characterHeight > 0.0 && e.stridePerCycle > kMaxStridePerCycle * out.characterHeight)
        out.warnings.push_back("a stride of " + num(e.stridePerCycle) + " per cycle is " +
                               num(e.stridePerCycle / out.characterHeight, 3) +
                               " x the character's height: more than legs can step (" +
                               num(kMaxStridePerCycle, 2) + ")");
    // The feet's direction turned onto an axis: played so, they slide sideways.
    if (std::sin(e.snappedAngle) > kSnappedSlide)
        out.warnings.push_back("the feet travel " + num(e.snappedAngle * 180.0 / std::numbers::pi, 3) +
                               " deg off the axis their direction was snapped to: played so, they slide "
                               "sideways at " +
                               num(100.0 * std::sin(e.snappedAngle), 3) +
                               "% of the speed (--snap-angle 0 keeps their direction)");
}

}  // namespace

void addWarnings(ClipAnalysis& out, const Options& options, const NodeChannels& rootChannels,
                 double minimumTravel) {
    if (out.root >= 0 && out.characterHeight == 0.0)
        out.warnings.push_back(
            "the joints under the root have no height along the up axis (thresholds taken in "
            "scene units): name the hips with --root, or pass --up-axis if the character stands "
            "along another axis");
    if (options.extractRotation == Toggle::On && out.root >= 0 && !rootChannels.rotation)
        out.warnings.push_back("extractRotation is on, but the root has no rotation keys: no turn extracted");
    if (out.source == Source::FootContact) doubtDeduction(out, options.thresholds, minimumTravel);
}

}  // namespace rootbake::core
