// The root-travel stage: the travel in the root's own keys, and the direction helpers
// every travel shares.
#include "stages.h"

#include <optional>

namespace rootbake::core {

glm::dvec3 snapDirection(const glm::dvec3& direction, const glm::dvec3& up, double angle) {
    if (angle <= 0.0) return direction;
    double bestDot = std::cos(angle);
    std::optional<glm::dvec3> best;
    for (glm::dvec3 axis : {glm::dvec3(1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1)}) {
        if (std::abs(glm::dot(axis, up)) > 0.5) continue;
        axis = glm::normalize(horizontal(axis, up));
        for (double sign : {1.0, -1.0}) {
            const double dot = sign * glm::dot(axis, direction);
            if (dot >= bestDot) {
                bestDot = dot;
                best = sign * axis;
            }
        }
    }
    return best ? *best : direction;
}

glm::dvec3 travelAt(const glm::dvec3& position, const glm::dvec3& start, double yaw, bool turning,
                    const glm::dvec3& direction, const glm::dvec3& up, bool lateral) {
    if (turning) return horizontal(position, up) - rotateAboutUp(horizontal(start, up), yaw, up);
    const glm::dvec3 h = horizontal(position - start, up);
    return lateral ? h : direction * glm::dot(h, direction);
}

TravelReading measureRootTravel(const StageInput& in, const std::vector<double>* yaw, double minimumTravel,
                                double supportTravel, bool forced) {
    TravelReading out;
    const Frames& frames = in.frames;
    const int last = frames.count - 1;
    const glm::dvec3 start = frames.at(0, in.root);
    const glm::dvec3 net = horizontal(frames.at(last, in.root) - start, in.up);
    const double netLength = glm::length(net);
    out.rootTravel = netLength;
    if (!forced && netLength < minimumTravel) {
        out.reason = "root travel " + num(netLength) + " < minimum " + num(minimumTravel);
        return out;
    }
    if (!forced && supportTravel >= 0.0 && supportTravel < kSupportShare * netLength) {
        out.reason = "root travel " + num(netLength) + ", but its feet move " + num(supportTravel) +
                     ": the body shifts over its support (a sit, a lean, a fall), it does not travel";
        return out;
    }
    Travel travel;
    if (netLength > 0.0) travel.direction = net / netLength;
    const bool lateral = in.options.extractLateralMotion;
    if (!yaw && !lateral) {
        travel.direction = snapDirection(travel.direction, in.up, in.options.directionSnapAngle.value_or(0.0));
        // What the root still drifts sideways of a snapped direction would pop back
        // at every loop: it is removed from the keys, evenly, but not applied.
        travel.lateralDrift = net - travel.direction * glm::dot(net, travel.direction);
    }
    travel.translation.resize(frames.count);
    for (int i = 0; i < frames.count; ++i)
        travel.translation[i] = travelAt(frames.at(i, in.root), start, yaw ? (*yaw)[i] : 0.0, yaw != nullptr,
                                         travel.direction, in.up, lateral);
    out.travel = std::move(travel);
    out.reason = "source root: net travel " + num(netLength) + " >= minimum " + num(minimumTravel);
    return out;
}

}  // namespace rootbake::core
