// The markers stage: footstep events, the phase and the distance curve of an analysed clip
// (docs/analysis.md, "Markers"). It reads what the other stages found (planted intervals,
// the track) and the rest pose; it detects nothing new.
#include "frames.h"
#include "rootbake/bake.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace rootbake {

namespace {

// s: an interval this close to the clip's start or end touches it (the intervals are on
// analysis samples, at least 1 ms apart even at maxSamples over an hour).
constexpr double kSeamTolerance = 1e-6;
// x character height: a contact nearer the midline than this has no side (the feet of the
// biped are 0.09 H apart from it, a quadruped's paws more).
constexpr double kSideBand = 0.02;

// x character height: soles that reach this far ahead of their joints on average show which
// way the character faces (a foot's mesh runs from the heel to the toes, mostly ahead).
constexpr double kFacingBand = 0.01;
// x character height: a joint this close above its sole is a foot's (an ankle or a toe), as
// contactHeightBand bounds what reaches the ground.
constexpr double kFootJointHeight = 0.1;

// glTF's front (+Z) perpendicular to up, or -Y for a Z-up character (Blender's front).
glm::dvec3 conventionalForward(const glm::dvec3& up) {
    glm::dvec3 forward = core::horizontal(glm::dvec3(0.0, 0.0, 1.0), up);
    if (glm::length(forward) < 0.5) forward = core::horizontal(glm::dvec3(0.0, -1.0, 0.0), up);
    return glm::normalize(forward);
}

// Each contact's rest position in character space, and its sole's: the centre of the ground
// points of its mesh (the joint itself without a mesh).
struct RestContacts {
    std::vector<glm::dvec3> joint, sole;
};
RestContacts restContacts(const Rig& rig, const ClipAnalysis& a) {
    std::vector<glm::dmat4> scene(std::size_t(rig.size()));
    localToScene(rig, rig.rest, scene);
    const glm::dmat4 toCharacter =
        a.character >= 0 ? glm::inverse(scene[std::size_t(a.character)]) : glm::dmat4(1.0);
    RestContacts out;
    for (const ContactPlanting& p : a.planting) {
        const glm::dmat4 nodeToCharacter = toCharacter * scene[std::size_t(p.node)];
        out.joint.push_back(glm::dvec3(nodeToCharacter[3]));
        glm::dvec3 sole = out.joint.back();
        if (rig.movesMesh(p.node)) {
            const std::vector<glm::dvec3>& points = rig.surface[std::size_t(p.node)];
            glm::dvec3 mean(0.0);
            for (const glm::dvec3& point : points) mean += point / double(points.size());
            sole = glm::dvec3(nodeToCharacter * glm::dvec4(mean, 1.0));
        }
        out.sole.push_back(sole);
    }
    return out;
}

// The way the character faces at rest: where the soles of its feet reach ahead of their joints
// when they do by kFacingBand, else the convention. Only a contact whose joint is a foot's (within
// kFootJointHeight of its sole) says it: a whole leg's sole lies under the hip or knee, as often
// behind it as ahead.
glm::dvec3 restForward(const RestContacts& contacts, const glm::dvec3& up, double height) {
    glm::dvec3 ahead(0.0);
    int feet = 0;
    for (std::size_t c = 0; c < contacts.joint.size(); ++c) {
        if (glm::dot(contacts.joint[c] - contacts.sole[c], up) > kFootJointHeight * height) continue;
        ahead += core::horizontal(contacts.sole[c] - contacts.joint[c], up);
        ++feet;
    }
    if (feet > 0 && glm::length(ahead) > kFacingBand * height * feet) return glm::normalize(ahead);
    return conventionalForward(up);
}

Side sideOf(double lateral, double forward, bool quadruped) {
    const int across = lateral > 0.0 ? 1 : lateral < 0.0 ? -1 : 0;  // +1: left
    const int along = !quadruped ? 0 : forward > 0.0 ? 1 : forward < 0.0 ? -1 : 0;
    static constexpr Side kSides[3][3] = {{Side::BackRight, Side::Back, Side::BackLeft},
                                          {Side::Right, Side::None, Side::Left},
                                          {Side::FrontRight, Side::Front, Side::FrontLeft}};
    return kSides[along + 1][across + 1];
}

// Left is up x forward (+X for a Y-up character facing +Z); offsets from the contacts' mean.
std::vector<Side> contactSides(const Rig& rig, const ClipAnalysis& a) {
    const RestContacts contacts = restContacts(rig, a);
    const std::vector<glm::dvec3>& positions = contacts.joint;
    if (positions.empty()) return {};
    const double height = a.characterHeight > 0.0 ? a.characterHeight : 1.0;
    const glm::dvec3 forward = restForward(contacts, a.upAxis, height);
    const glm::dvec3 left = glm::cross(a.upAxis, forward);
    glm::dvec3 mean(0.0);
    for (const glm::dvec3& p : positions) mean += p / double(positions.size());
    const auto beyondBand = [band = kSideBand * height](double v) { return std::abs(v) > band ? v : 0.0; };
    std::vector<Side> sides;
    for (const glm::dvec3& p : positions)
        sides.push_back(sideOf(beyondBand(glm::dot(p - mean, left)), beyondBand(glm::dot(p - mean, forward)),
                               positions.size() > 2));
    return sides;
}

// The stances of a contact that are steps: a stance shorter than minimumStance (the two parts
// of one that runs through the loop's seam together) is a stance the clip's start or end cuts
// off (mocap loops that begin a frame before a lift-off), not a step.
std::vector<PlantedInterval> steps(const ContactPlanting& planting, double duration, double minimumStance) {
    const PlantedInterval* first = nullptr;  // at the clip's start
    const PlantedInterval* last = nullptr;   // at its end
    for (const PlantedInterval& p : planting.planted) {
        if (p.start <= kSeamTolerance) first = &p;
        if (p.end >= duration - kSeamTolerance) last = &p;
    }
    double seam = 0.0;  // the stance through the seam
    for (const PlantedInterval* p : {first, last})
        if (p && !(p == last && first == last)) seam += p->end - p->start;
    std::vector<PlantedInterval> out;
    for (const PlantedInterval& p : planting.planted) {
        const bool atSeam = first && last && (&p == first || &p == last);
        if ((atSeam ? seam : p.end - p.start) >= minimumStance) out.push_back(p);
    }
    return out;
}

// A stance that runs through the loop's seam (planted at the end and at the start) is one
// stance: its start at 0 is no touch-down and its end at the duration no lift-off.
void addContactEvents(const std::vector<PlantedInterval>& stances, int contact, double duration,
                      std::vector<FootEvent>& events) {
    const auto atStart = [](const PlantedInterval& p) { return p.start <= kSeamTolerance; };
    const auto atEnd = [duration](const PlantedInterval& p) { return p.end >= duration - kSeamTolerance; };
    const bool plantedAtStart = std::any_of(stances.begin(), stances.end(), atStart);
    const bool plantedAtEnd = std::any_of(stances.begin(), stances.end(), atEnd);
    for (const PlantedInterval& p : stances) {
        if (!(atStart(p) && plantedAtEnd)) events.push_back({p.start, FootEventType::Down, contact});
        if (!(atEnd(p) && plantedAtStart))
            events.push_back({atEnd(p) ? 0.0 : p.end, FootEventType::Up, contact});  // the end is the start
    }
}

// The contact whose downs start the cycles: a left foot (a quadruped's front left, then back
// left) when one steps, else the first contact that does; -1 when none touches down.
int choosePhaseContact(const std::vector<Side>& sides, const std::vector<FootEvent>& events) {
    const auto stepsDown = [&](int contact) {
        return std::any_of(events.begin(), events.end(), [contact](const FootEvent& e) {
            return e.contact == contact && e.type == FootEventType::Down;
        });
    };
    for (Side preferred : {Side::Left, Side::FrontLeft, Side::BackLeft})
        for (std::size_t c = 0; c < sides.size(); ++c)
            if (sides[c] == preferred && stepsDown(int(c))) return int(c);
    for (std::size_t c = 0; c < sides.size(); ++c)
        if (stepsDown(int(c))) return int(c);
    return -1;
}

// The horizontal move from sample i to i + 1.
glm::dvec3 stepOf(const MotionTrack& track, std::size_t i, const glm::dvec3& up) {
    return core::horizontal(track.translation[i + 1] - track.translation[i], up);
}

// The first sample where the motion reverses, or -1. path[i]: the path length to sample i.
int findReversal(const MotionTrack& track, const std::vector<double>& path, const glm::dvec3& up,
                 double minimumTravel) {
    for (std::size_t i = 1; i + 1 < path.size(); ++i) {
        const bool opposite = glm::dot(stepOf(track, i - 1, up), stepOf(track, i, up)) < 0.0;
        const bool movedBefore = path[i] >= minimumTravel,
                   movesAfter = path.back() - path[i] >= minimumTravel;
        if (opposite && movedBefore && movesAfter) return int(i);
    }
    return -1;
}

}  // namespace

const char* sideName(Side side) {
    static constexpr const char* kNames[] = {"",          "left",       "right",    "front",    "back",
                                             "frontLeft", "frontRight", "backLeft", "backRight"};
    return kNames[static_cast<int>(side)];
}

const char* footEventName(FootEventType type) {
    return type == FootEventType::Down ? "down" : "up";
}

DistanceCurve measureDistance(const MotionTrack& track, const glm::dvec3& up, double standingSpeed,
                              double minimumTravel) {
    DistanceCurve curve;
    const std::size_t count = track.times.size();
    if (count == 0) return curve;
    // The path length to each sample; no other array (a track may have 2^18 samples).
    std::vector<double>& path = curve.distance;
    path.reserve(count);
    path.push_back(0.0);
    std::size_t moving = 0;  // samples up to the end of the last step faster than standing; 0: none
    for (std::size_t i = 0; i + 1 < count; ++i) {
        const double step = glm::length(stepOf(track, i, up));
        path.push_back(path.back() + step);
        if (step > standingSpeed * (track.times[i + 1] - track.times[i])) moving = i + 1;
    }
    const bool endsStopped = moving > 0 && moving + 1 < count;
    const int zero = endsStopped ? int(moving) : findReversal(track, path, up, minimumTravel);
    if (zero < 0) return curve;
    const double atZero = path[std::size_t(zero)];
    for (double& d : path) d -= atZero;
    curve.stop = track.times[std::size_t(zero)];
    return curve;
}

ClipMarkers markClip(const Rig& rig, const ClipAnalysis& a, const Options& options) {
    ClipMarkers markers;
    const double height = a.characterHeight > 0.0 ? a.characterHeight : 1.0;
    DistanceCurve curve = measureDistance(a.track, a.upAxis, options.thresholds.standingSpeed * height,
                                          options.minimumTravel * height);
    markers.distance = std::move(curve.distance);
    markers.stop = curve.stop;
    if (a.planting.empty() || !(a.duration > 0.0)) return markers;
    markers.sides = contactSides(rig, a);
    for (std::size_t c = 0; c < a.planting.size(); ++c)
        addContactEvents(steps(a.planting[c], a.duration, options.thresholds.minimumStance), int(c),
                         a.duration, markers.events);
    std::sort(markers.events.begin(), markers.events.end(), [](const FootEvent& x, const FootEvent& y) {
        return std::tie(x.time, x.contact, x.type) < std::tie(y.time, y.contact, y.type);
    });
    markers.phaseContact = choosePhaseContact(markers.sides, markers.events);
    for (const FootEvent& e : markers.events)
        if (e.contact == markers.phaseContact && e.type == FootEventType::Down)
            markers.phaseAnchors.push_back(e.time);
    return markers;
}

}  // namespace rootbake
