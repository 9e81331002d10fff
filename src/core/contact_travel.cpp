// The contact-travel stage: the travel of an in-place clip, deduced from its contacts
// (contacts.h has the two contact stages it runs, docs/analysis.md "Contacts" the model).
#include "stages.h"

#include <algorithm>
#include <cmath>

namespace rootbake::core {

namespace {

// "stance LeftToe 58%, RightToe 61%; flight 0%; stance speeds within 3%; 2 touch-downs"
std::string describeEvidence(const Rig& rig, const std::vector<int>& contacts, const ContactEvidence& e) {
    std::string s = "stance";
    for (size_t c = 0; c < contacts.size() && c < e.stanceShare.size(); ++c)
        s += (c ? ", " : " ") + nodeLabel(rig, contacts[c]) + " " + num(100.0 * e.stanceShare[c], 3) + "%";
    s += "; flight " + num(100.0 * e.flightShare, 3) + "%";
    if (e.steppingContacts >= 2) s += "; stance speeds within " + num(100.0 * e.speedSpread, 3) + "%";
    s += "; " + std::to_string(e.touchDowns) + " touch-downs";
    return s;
}

// How many contact readings per track sample: enough for Thresholds::contactReadingRate, within the
// limits (the readings pose the contacts' chains but keep a position per node) and
// kSamplesPerKey for each key of the clip.
int readingFactor(const StageInput& in) {
    const double samples = in.frames.count - 1;
    const double readingRate = in.options.thresholds.contactReadingRate;
    const double rate = in.duration > 0.0 ? samples / in.duration : readingRate;
    const double wanted = std::ceil(readingRate / rate - 1e-9);
    const double nodeLimit = double(in.options.maxSamples) * kNodeSamplesPerSample;
    const double allowed = std::min({std::floor(double(in.options.maxSamples) / samples),
                                     std::floor((nodeLimit / std::max(in.rig.size(), 1) - 1.0) / samples),
                                     std::floor(sampleCap(in.clip) / samples)});
    return int(std::max(1.0, std::min(wanted, allowed)));
}

// The nodes named as contacts in the options.
Result<std::vector<int>> namedContacts(const Rig& rig, const Options& options) {
    std::vector<int> nodes;
    for (const NodeRef& given : options.contactNodes) {
        const int node = findNode(rig, given);
        if (node < 0) return Error{"contact node \"" + nodeRefLabel(given) + "\" is not in the asset"};
        nodes.push_back(node);
    }
    return nodes;
}

int contactBase(int root, int character) {
    return root >= 0 ? root : character;
}

// The contacts named in the options, else found by the contact rule.
Result<ContactSet> chooseContacts(const StageInput& in) {
    if (in.options.contactNodes.empty()) {
        const int base = contactBase(in.root, in.character);
        if (in.options.contactRule == ContactRule::Babylon)
            return findLowestLeaves(in.rig, in.frames, base, in.up, in.height);
        const LimbEnds ends =
            sortLimbEnds(in.rig, in.clip, base, in.character, in.up, in.height, in.options.thresholds);
        return findContacts(in.rig, in.frames, ends, in.up, in.height, in.options.thresholds);
    }
    auto nodes = namedContacts(in.rig, in.options);
    if (!nodes) return nodes.error();
    return givenContacts(in.rig, in.frames, *nodes, in.up);
}

// A contact's planted intervals: the runs of the readings' intervals it is planted in,
// in seconds from the clip's start. A run of no time (a clip of no duration) is none.
ContactPlanting plantedIntervals(const Frames& reading, int node, const std::vector<std::uint8_t>& planted) {
    ContactPlanting result;
    result.node = node;
    const int intervals = int(planted.size());
    for (int i = 0; i < intervals;) {
        if (!planted[i]) {
            ++i;
            continue;
        }
        const int first = i;
        while (i < intervals && planted[i]) ++i;
        const double start = reading.time(first) - reading.from, end = reading.time(i) - reading.from;
        if (end > start) result.planted.push_back({start, end});
    }
    return result;
}

// The stance steps summed into the travel at each track sample (every factor-th reading),
// turned by the yaw so far, and how straight their path is (net / path length).
struct SummedSteps {
    std::vector<glm::dvec3> translation;  // per track sample
    glm::dvec3 travelled{0.0};            // at the last reading
    double straightness = 0.0;
};

SummedSteps sumSteps(const std::vector<glm::dvec3>& steps, const std::vector<double>* yaw,
                     const glm::dvec3& up, int factor, int samples) {
    SummedSteps out;
    out.translation.assign(samples, glm::dvec3(0.0));
    glm::dvec3 heading(0.0);
    double pathLength = 0.0;
    for (int i = 1; i <= int(steps.size()); ++i) {
        heading += steps[i - 1];
        pathLength += glm::length(steps[i - 1]);
        out.travelled += rotateAboutUp(steps[i - 1], yaw ? (*yaw)[i] : 0.0, up);
        if (i % factor == 0) out.translation[i / factor] = out.travelled;
    }
    out.straightness = pathLength > 0.0 ? glm::length(heading) / pathLength : 0.0;
    return out;
}

// A straight clip's travel: only its part along the (snapped) direction, as for root travel.
// Returns the angle the snap turned the feet's direction by (rad).
double keepAlongDirection(Travel& travel, const StageInput& in) {
    const glm::dvec3 feet = travel.direction;
    if (!in.options.extractLateralMotion) {
        const double snap = in.options.directionSnapAngle.value_or(in.options.thresholds.deducedSnapAngle);
        travel.direction = snapDirection(travel.direction, in.up, snap);
    }
    for (glm::dvec3& t : travel.translation) t = travel.direction * glm::dot(t, travel.direction);
    return std::acos(std::clamp(glm::dot(feet, travel.direction), -1.0, 1.0));
}

}  // namespace

Result<std::vector<int>> contactCandidates(const Rig& rig, const Clip& clip, const Options& options, int root,
                                           int character, const glm::dvec3& up, double height) {
    std::vector<int> joints;
    if (!options.contactNodes.empty()) {
        auto named = namedContacts(rig, options);
        if (!named) return named.error();
        joints = std::move(*named);
    } else {
        const int base = contactBase(root, character);
        if (options.contactRule == ContactRule::Babylon) return leafJoints(rig, base);
        joints = sortLimbEnds(rig, clip, base, character, up, height, options.thresholds).legs;
    }
    std::vector<int> nodes;
    for (int joint : joints)
        for (int point : groundPointsOrSelf(rig, joint)) nodes.push_back(point);
    return nodes;
}

Result<ContactReading> measureContactTravel(const StageInput& in, const std::vector<double>* yaw,
                                            double minimumTravel, bool forced) {
    ContactReading out;
    std::string& reason = out.reading.reason;
    auto chosen = chooseContacts(in);
    if (!chosen) return chosen.error();
    ContactSet contacts = std::move(*chosen);
    if (contacts.nodes.empty()) {
        reason = contacts.reason.empty() ? std::string("no contact candidates") : contacts.reason;
        return out;
    }
    reason = contacts.reason;

    // Stances are read at Thresholds::contactReadingRate or finer (Babylon's rule at the track's rate),
    // on the contacts' chains only; the track takes every factor-th reading.
    const bool babylon = in.options.contactRule == ContactRule::Babylon;
    const Frames& frames = in.frames;
    const int factor = babylon ? 1 : readingFactor(in);
    Frames finer;
    std::vector<double> finerYaw;
    if (factor > 1) {
        finer = refineFrames(in.rig, in.clip, frames, factor, in.character, in.root, contacts.nodes);
        if (Status s = checkFinite(in.rig, finer); !s) return s.error();
        contacts.lowest = lowestHeights(finer, contacts.nodes, in.up);
        if (yaw) finerYaw = measureRootYaw(finer, in.up);
    }
    const Frames& reading = factor > 1 ? finer : frames;
    const std::vector<double>* readingYaw = factor > 1 && yaw ? &finerYaw : yaw;

    const Thresholds& thresholds = in.options.thresholds;
    const double lowBand = babylon ? babylonLowBand(in.height) : thresholds.plantedHeightBand * in.height;
    const ContactMotion motion = readContacts(reading, contacts, readingYaw, in.up, lowBand);
    StanceTravel stance = babylon
                              ? measureLowestTravel(motion)
                              : measureStanceTravel(reading, motion, in.height, in.clip.start, thresholds);
    const SummedSteps summed = sumSteps(stance.steps, readingYaw, in.up, factor, frames.count);
    Travel travel;
    travel.translation = summed.translation;
    const glm::dvec3 travelled = summed.travelled;
    const double straightness = summed.straightness;
    const double distance = glm::length(travelled);
    if (!forced && (distance < minimumTravel || straightness < thresholds.minimumStraightness)) {
        reason += "; contact travel " + num(distance) + " (minimum " + num(minimumTravel) +
                  "), straightness " + num(straightness, 3) + " (minimum " +
                  num(thresholds.minimumStraightness, 2) + ")";
        return out;
    }
    if (distance > 0.0) travel.direction = travelled / distance;
    const double snapped = yaw ? 0.0 : keepAlongDirection(travel, in);
    out.contacts = contacts.nodes;
    out.evidence = std::move(stance.evidence);
    out.evidence.snappedAngle = snapped;
    stance.planted.resize(contacts.nodes.size());  // none read in a clip of no interval
    for (size_t c = 0; c < contacts.nodes.size(); ++c)
        out.planting.push_back(plantedIntervals(reading, contacts.nodes[c], stance.planted[c]));
    reason += "; source footContact: deduced travel " + num(distance) + ", straightness " +
              num(straightness, 3) + "; " + describeEvidence(in.rig, out.contacts, out.evidence);
    out.reading.travel = std::move(travel);
    return out;
}

}  // namespace rootbake::core
