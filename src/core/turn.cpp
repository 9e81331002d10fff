// The turn stage: how far the root turns about up over the clip.
#include "stages.h"

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

// Turning is only ever in the root's own rotation.
Turn measureTurn(const StageInput& in) {
    Turn turn;
    const Options& options = in.options;
    if (in.root < 0 || options.extractRotation == Toggle::Off || !channelsOf(in.clip, in.root).rotation ||
        options.source == SourceChoice::None)
        return turn;
    std::vector<double> measured = measureRootYaw(in.frames, in.up);
    const double endTurn = std::abs(wrapAngle(measured.back()));
    if (options.extractRotation == Toggle::On || endTurn >= options.minimumTurn) {
        turn.yaw = std::move(measured);
        turn.reason = "turn " + num(turn.yaw.back() * 180 / std::numbers::pi, 3) + " deg extracted (minimum " +
                      num(options.minimumTurn * 180 / std::numbers::pi, 3) + ")";
    }
    return turn;
}

}  // namespace rootbake::core
