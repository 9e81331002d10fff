// The turn stage: how far the root turns about up over the clip.
#include "stages.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rootbake::core {

// Unwrapped so a clip that turns past half a revolution keeps counting.
std::vector<double> measureRootYaw(const Frames& frames, const glm::dvec3& up) {
    std::vector<double> yaw(frames.count);
    const glm::dquat reference = glm::conjugate(frames.rootRotation[0]);
    double previous = 0.0;
    for (int i = 0; i < frames.count; ++i) {
        const double wrapped = turnAbout(frames.rootRotation[i] * reference, up);
        previous = i == 0 ? wrapped : previous + wrapAngle(wrapped - wrapAngle(previous));
        yaw[i] = previous;
    }
    return yaw;
}

namespace {

// rad (45 degrees): a root tilted further than this from how it started lies more than halfway
// down (a fall, a roll, a death): the ground plane no longer shows which way it faces, and a
// turn read from it is noise (a spider's death read -487 degrees).
constexpr double kMaxHeadingTilt = std::numbers::pi / 4.0;

// The largest angle between up and up as the root's rotation since the first frame carries it.
double largestTilt(const Frames& frames, const glm::dvec3& up) {
    const glm::dquat reference = glm::conjugate(frames.rootRotation[0]);
    double tilt = 0.0;
    for (int i = 0; i < frames.count; ++i) {
        const glm::dvec3 carried = (frames.rootRotation[i] * reference) * up;
        tilt = std::max(tilt, std::acos(std::clamp(glm::dot(carried, up), -1.0, 1.0)));
    }
    return tilt;
}

}  // namespace

// Turning is only ever in the root's own rotation.
Turn measureTurn(const StageInput& in) {
    Turn turn;
    const Options& options = in.options;
    if (in.root < 0 || options.extractRotation == Toggle::Off || !channelsOf(in.clip, in.root).rotation ||
        options.source == SourceChoice::None)
        return turn;
    std::vector<double> measured = measureRootYaw(in.frames, in.up);
    const double endTurn = std::abs(wrapAngle(measured.back()));
    if (options.extractRotation == Toggle::Auto && endTurn >= options.minimumTurn) {
        const double tilt = largestTilt(in.frames, in.up);
        if (tilt > kMaxHeadingTilt) {
            turn.reason = "turn " + num(measured.back() * 180 / std::numbers::pi, 3) +
                          " deg not extracted: the root tilts up to " +
                          num(tilt * 180 / std::numbers::pi, 3) +
                          " deg from how it starts (a fall or a roll; past 45 a heading means nothing)";
            return turn;
        }
    }
    if (options.extractRotation == Toggle::On || endTurn >= options.minimumTurn) {
        turn.yaw = std::move(measured);
        turn.reason = "turn " + num(turn.yaw.back() * 180 / std::numbers::pi, 3) + " deg extracted (minimum " +
                      num(options.minimumTurn * 180 / std::numbers::pi, 3) + ")";
    }
    return turn;
}

}  // namespace rootbake::core
