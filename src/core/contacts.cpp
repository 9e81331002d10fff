// The contact stages: which limb ends carry the body, and the travel their
// stances give. docs/analysis.md, "Contacts", says why each rule and constant.
#include "contacts.h"
#include "neighbours.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rootbake::core {

namespace {

// Babylon.js's bands (findLowestLeaves and its planted test), fixed: its rule for comparison.
constexpr double kBabylonContactBand = 0.1;  // x height
constexpr double kBabylonPlantedBand = 0.05;  // x height
constexpr int kModePoints = 2048;   // velocities the ground-speed cluster is searched among (bounded work)
constexpr int kMeanShiftSteps = 4;  // refinements of the cluster's centre

}  // namespace

std::vector<int> leafJoints(const Rig& rig, int base) {
    const std::vector<std::uint8_t> below = descendantsOf(rig, base);
    std::vector<std::uint8_t> hasJointChild(rig.size(), 0);
    for (int n = 0; n < rig.size(); ++n)
        if (rig.parent[n] >= 0 && !rig.hasMesh[n]) hasJointChild[rig.parent[n]] = 1;
    std::vector<int> leaves;
    for (int n = 0; n < rig.size(); ++n)
        if (below[n] && !rig.hasMesh[n] && !hasJointChild[n]) leaves.push_back(n);
    return leaves;
}

namespace {

double heightAt(const Frames& frames, int i, int node, const glm::dvec3& up) { return glm::dot(frames.at(i, node), up); }

int lowestSample(const Frames& frames, int node, const glm::dvec3& up) {
    int best = 0;
    for (int i = 1; i < frames.count; ++i)
        if (heightAt(frames, i, node, up) < heightAt(frames, best, node, up)) best = i;
    return best;
}

// Every node's height along up in the rig's rest pose, in the character's space.
std::vector<double> restHeights(const Rig& rig, int character, const glm::dvec3& up) {
    const std::vector<glm::dmat4> scene = restScene(rig);
    const glm::dmat4 toCharacter = character >= 0 ? invertTransform(scene[character]) : glm::dmat4(1.0);
    std::vector<double> height(rig.size());
    for (int n = 0; n < rig.size(); ++n) height[n] = glm::dot(glm::dvec3(toCharacter * scene[n][3]), up);
    return height;
}

std::string list(const Rig& rig, const std::vector<int>& nodes) {
    std::string s;
    for (int n : nodes) s += (s.empty() ? "" : ", ") + nodeLabel(rig, n);
    return s;
}

}  // namespace

ContactSet findLowestLeaves(const Rig& rig, const Frames& frames, int base, const glm::dvec3& up, double height) {
    ContactSet set;
    for (int n : leafJoints(rig, base)) {
        set.nodes.push_back(n);
        set.lowest.push_back(heightAt(frames, lowestSample(frames, n, up), n, up));
    }
    if (set.nodes.empty()) return set;
    const double ground = *std::min_element(set.lowest.begin(), set.lowest.end());
    ContactSet kept;
    for (size_t c = 0; c < set.nodes.size(); ++c)
        if (set.lowest[c] <= ground + kBabylonContactBand * height) {
            kept.nodes.push_back(set.nodes[c]);
            kept.lowest.push_back(set.lowest[c]);
        }
    kept.reason = "contacts (lowest leaves): " + list(rig, kept.nodes);
    return kept;
}

LimbEnds sortLimbEnds(const Rig& rig, const Clip& clip, int base, int character, const glm::dvec3& up,
                      double height, const Thresholds& thresholds) {
    LimbEnds ends;
    struct Leaf {
        int node;
        double top;   // at rest: the highest point of its chain from base
        double rest;  // at rest: its own height
    };
    std::vector<Leaf> leaves;
    std::vector<std::uint8_t> animated(rig.size(), 0);
    for (const Channel& c : clip.channels) animated[c.node] = 1;
    const std::vector<double> restHeight = restHeights(rig, character, up);
    for (int n : limbEnds(rig, base)) {
        if (n == base) continue;
        // A limb the clip does not move cannot step: some joint from the leaf up to (not
        // including) base is animated. A helper parked at the floor under the hips is not.
        bool articulated = false;
        for (int p = n; p >= 0 && p != base && !articulated; p = rig.parent[p]) articulated = animated[p];
        if (!articulated) {
            ends.still.push_back(n);
            continue;
        }
        double top = restHeight[n];
        for (int p = rig.parent[n]; p >= 0; p = rig.parent[p]) {
            top = std::max(top, restHeight[p]);
            if (p == base) break;
        }
        leaves.push_back({n, top, restHeight[n]});
    }
    // Limb tops in the rig's rest pose, above its lowest limb end: the lowest top is where
    // the legs hang from. The rest pose is the rig's own (a T- or A-pose, a quadruped
    // standing): a crouch, a fall or a sit in the clip does not lower an arm's shoulder.
    double ground = std::numeric_limits<double>::infinity();
    for (const Leaf& l : leaves) ground = std::min(ground, l.rest);
    double lowestTop = std::numeric_limits<double>::infinity();
    for (const Leaf& l : leaves) lowestTop = std::min(lowestTop, l.top - ground);
    for (const Leaf& l : leaves) {
        if (l.top - ground > lowestTop + thresholds.limbTopSpread * std::max(lowestTop, thresholds.legFraction * height))
            ends.arms.push_back(l.node);
        else
            ends.legs.push_back(l.node);
    }
    return ends;
}

std::vector<int> groundPointsOrSelf(const Rig& rig, int joint) {
    std::vector<int> points = groundPointsOf(rig, joint);
    if (points.empty()) points.push_back(joint);
    return points;
}

namespace {

// Of a joint's ground points (itself without), the one that comes lowest in the clip: the
// part of the limb that reaches the ground (a sole, a hoof, the foot inside a shin's mesh).
std::pair<int, double> lowestPoint(const Rig& rig, const Frames& frames, int joint, const glm::dvec3& up) {
    std::pair<int, double> best{-1, std::numeric_limits<double>::infinity()};
    for (int point : groundPointsOrSelf(rig, joint)) {
        const double h = heightAt(frames, lowestSample(frames, point, up), point, up);
        if (h < best.second) best = {point, h};
    }
    return best;
}

// Where the contacts' points come from, when not from the body's mesh.
std::string surfaceSource(const Rig& rig) {
    return rig.hasSurface() || rig.surfaceNote.empty() ? std::string() : "; " + rig.surfaceNote;
}

}  // namespace

ContactSet findContacts(const Rig& rig, const Frames& frames, const LimbEnds& ends, const glm::dvec3& up,
                        double height, const Thresholds& thresholds) {
    ContactSet set;
    std::string reason;
    if (!ends.still.empty()) reason += "; left out, not moved by the clip: " + list(rig, ends.still);
    if (ends.legs.empty() && ends.arms.empty()) {
        set.reason = "no limb end is moved by the clip" + reason;
        return set;
    }
    // Of the legs' ends, those that reach the ground.
    std::vector<std::pair<int, double>> lowest;
    for (int n : ends.legs) lowest.push_back(lowestPoint(rig, frames, n, up));
    double legGround = std::numeric_limits<double>::infinity();
    for (const auto& l : lowest) legGround = std::min(legGround, l.second);
    for (const auto& [point, low] : lowest) {
        if (low > legGround + thresholds.contactHeightBand * height) continue;
        set.nodes.push_back(point);
        set.lowest.push_back(low);
    }
    if (!ends.arms.empty())
        reason += "; left out, hanging from higher than the legs: " + list(rig, ends.arms);
    set.reason =
        "contacts (limb ends that reach the ground): " + list(rig, set.nodes) + reason + surfaceSource(rig);
    return set;
}

ContactSet givenContacts(const Rig& rig, const Frames& frames, const std::vector<int>& joints,
                         const glm::dvec3& up) {
    ContactSet set;
    for (int joint : joints) {
        const auto [point, low] = lowestPoint(rig, frames, joint, up);
        set.nodes.push_back(point);
        set.lowest.push_back(low);
    }
    set.reason = "contacts: given";
    return set;
}

std::vector<double> lowestHeights(const Frames& frames, const std::vector<int>& nodes, const glm::dvec3& up) {
    std::vector<double> lowest;
    for (int n : nodes) lowest.push_back(heightAt(frames, lowestSample(frames, n, up), n, up));
    return lowest;
}

namespace {

// Each contact's step per interval with the turn so far undone: what it gives up
// in character space, the character's travel if it is planted.
std::vector<std::vector<glm::dvec3>> contactSteps(const Frames& frames, const ContactSet& contacts,
                                                  const std::vector<double>* yaw, const glm::dvec3& up) {
    const int intervals = frames.count - 1;
    std::vector<std::vector<glm::dvec3>> steps(contacts.nodes.size(), std::vector<glm::dvec3>(intervals));
    for (size_t c = 0; c < contacts.nodes.size(); ++c)
        for (int i = 0; i < intervals; ++i) {
            const int n = contacts.nodes[c];
            const glm::dvec3 step = horizontal(frames.at(i, n) - frames.at(i + 1, n), up);
            steps[c][i] = rotateAboutUp(step, yaw ? -(*yaw)[i + 1] : 0.0, up);
        }
    return steps;
}

std::vector<std::vector<std::uint8_t>> lowIntervals(const Frames& frames, const ContactSet& contacts,
                                                    const glm::dvec3& up, double band) {
    const int intervals = frames.count - 1;
    std::vector<std::vector<std::uint8_t>> low(contacts.nodes.size(), std::vector<std::uint8_t>(intervals));
    for (size_t c = 0; c < contacts.nodes.size(); ++c) {
        const double ceiling = contacts.lowest[c] + band;
        for (int i = 0; i < intervals; ++i)
            low[c][i] = heightAt(frames, i, contacts.nodes[c], up) <= ceiling &&
                        heightAt(frames, i + 1, contacts.nodes[c], up) <= ceiling;
    }
    return low;
}

// The densest cluster of steps: each step counts the others within the tolerance of
// itself; the best is refined to the mean of the steps around it.
glm::dvec3 groundStepCluster(const std::vector<glm::dvec3>& points, double floor, double speedTolerance) {
    if (points.empty()) return glm::dvec3(0.0);
    std::vector<glm::dvec3> sample;
    const size_t stride = std::max<size_t>(1, (points.size() + kModePoints - 1) / kModePoints);
    for (size_t i = 0; i < points.size(); i += stride) sample.push_back(points[i]);
    auto radius = [&](const glm::dvec3& x) { return speedTolerance * std::max(glm::length(x), floor); };
    std::vector<double> radii(sample.size());
    for (size_t i = 0; i < sample.size(); ++i) radii[i] = radius(sample[i]);
    const std::vector<int> counts = neighbourCounts(sample, radii);
    const size_t best = std::max_element(counts.begin(), counts.end()) - counts.begin();  // the first of the most
    glm::dvec3 centre = sample[best];
    for (int step = 0; step < kMeanShiftSteps; ++step) {
        const double r2 = radius(centre) * radius(centre);
        glm::dvec3 sum(0.0);
        int count = 0;
        for (const glm::dvec3& y : points) {
            const glm::dvec3 d = y - centre;
            if (glm::dot(d, d) <= r2) sum += y, ++count;
        }
        if (count == 0) break;
        centre = sum / double(count);
    }
    return centre;
}

// Runs of consecutive set flags, as [first, last] index pairs.
std::vector<std::pair<int, int>> runsOf(const std::vector<std::uint8_t>& flags) {
    std::vector<std::pair<int, int>> runs;
    for (int i = 0; i < int(flags.size()); ++i) {
        if (!flags[i]) continue;
        if (!runs.empty() && runs.back().second == i - 1)
            runs.back().second = i;
        else
            runs.push_back({i, i});
    }
    return runs;
}

// The step of a run whose length along the run's mean direction is the median: the
// stance's own ground speed, which the slower steps at its touch-down and lift-off do
// not pull down.
glm::dvec3 medianStep(const std::vector<glm::dvec3>& steps, int first, int last) {
    glm::dvec3 mean(0.0);
    for (int i = first; i <= last; ++i) mean += steps[i];
    const glm::dvec3 direction = glm::length(mean) > 0.0 ? glm::normalize(mean) : glm::dvec3(0.0);
    std::vector<std::pair<double, int>> along;
    for (int i = first; i <= last; ++i) along.push_back({glm::dot(steps[i], direction), i});
    std::nth_element(along.begin(), along.begin() + along.size() / 2, along.end());
    return steps[along[along.size() / 2].second];
}

// Fills the unsupported intervals: across each gap the ground step goes linearly from
// the median step of the supported run before it to that of the one after it, the
// clip taken as a cycle (a gap at its start continues the run at its end).
void interpolateGaps(std::vector<glm::dvec3>& steps, const std::vector<std::uint8_t>& supported) {
    const std::vector<std::pair<int, int>> runs = runsOf(supported);
    if (runs.empty()) return;
    const int n = int(steps.size());
    std::vector<glm::dvec3> across(runs.size());
    for (size_t r = 0; r < runs.size(); ++r) across[r] = medianStep(steps, runs[r].first, runs[r].second);
    const size_t last = runs.size() - 1;
    for (size_t r = 0; r <= runs.size(); ++r) {
        // The gap after run r - 1 and before run r (r == runs.size(): the gap at the end).
        const int gapStart = r == 0 ? 0 : runs[r - 1].second + 1;
        const int gapEnd = r == runs.size() ? n - 1 : runs[r].first - 1;
        if (gapStart > gapEnd) continue;
        // The cycle: the gap at the start and the one at the end are one gap.
        const glm::dvec3 before = r == 0 ? across[last] : across[r - 1];
        const glm::dvec3 after = r == runs.size() ? across[0] : across[r];
        int length = gapEnd - gapStart + 1, offset = 0;
        const int endGap = n - 1 - runs[last].second, startGap = runs[0].first;
        if (r == 0) length += endGap, offset = endGap;
        if (r == runs.size()) length += startGap;
        for (int i = gapStart; i <= gapEnd; ++i) {
            const double t = double(i - gapStart + offset + 1) / double(length + 1);
            steps[i] = before + (after - before) * t;
        }
    }
}

}  // namespace

namespace {

using PerContact = std::vector<std::vector<std::uint8_t>>;  // [contact][interval]

bool together(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& direction, const glm::dvec3& ground,
              double tolerance, double speedTolerance) {
    const double slowest = glm::length(ground) - tolerance;
    return glm::dot(a, direction) >= slowest && glm::dot(b, direction) >= slowest &&
           glm::length(a - b) <= speedTolerance * std::max(glm::length(a), glm::length(b));
}

// Where each contact is in stance: low, within the tolerance of the ground step, for at
// least minimumStance, its slow settling and lifting steps left out.
PerContact markStances(const std::vector<std::vector<glm::dvec3>>& steps, const PerContact& low,
                       const glm::dvec3& ground, double tolerance, double dt, const Thresholds& thresholds) {
    const glm::dvec3 direction = glm::length(ground) > 0.0 ? glm::normalize(ground) : glm::dvec3(0.0);
    PerContact stance(steps.size());
    for (size_t c = 0; c < steps.size(); ++c) {
        const int intervals = int(steps[c].size());
        stance[c].resize(intervals);
        for (int i = 0; i < intervals; ++i) stance[c][i] = low[c][i] && glm::length(steps[c][i] - ground) <= tolerance;
        // Double support: two low contacts that move back together, within the tolerance of
        // each other and no slower than a stance, stand on one ground, whatever its speed
        // there (a push speeds up and slows down within a step far more than a gait).
        for (int i = 0; i < intervals; ++i)
            for (size_t d = 0; d < steps.size() && low[c][i] && !stance[c][i]; ++d)
                stance[c][i] = d != c && low[d][i] && together(steps[c][i], steps[d][i], direction, ground, tolerance,
                                                                 thresholds.stanceSpeedTolerance);
        // Moments are not stances (the clip's ends cut a stance short, so they keep theirs).
        for (const auto& [first, last] : runsOf(stance[c]))
            if ((last - first + 1) * dt < thresholds.minimumStance && first > 0 && last < intervals - 1)
                std::fill(stance[c].begin() + first, stance[c].begin() + last + 1, 0);
        // A stance's first and last steps that are slower than its median are the foot
        // settling and lifting, not the ground: the body is at its fastest there (it brakes
        // after touch-down and pushes before lift-off). Interpolated like a flight.
        for (auto [first, last] : runsOf(stance[c])) {
            const double median = glm::dot(medianStep(steps[c], first, last), direction);
            auto settling = [&](int i) {
                return glm::dot(steps[c][i], direction) < (1.0 - thresholds.stanceEdgeSlowdown) * median;
            };
            // The clip's ends cut a stance, they are no touch-down or lift-off.
            const bool touchDown = first > 0, liftOff = last < intervals - 1;
            while (touchDown && first <= last && settling(first)) stance[c][first++] = 0;
            while (liftOff && last >= first && settling(last)) stance[c][last--] = 0;
        }
    }
    return stance;
}

// The share of the intervals each contact is planted, and the share where none is.
void describePlanting(const PerContact& planted, int intervals, ContactEvidence& e) {
    std::vector<std::uint8_t> any(std::size_t(std::max(intervals, 0)), 0);
    for (const std::vector<std::uint8_t>& contact : planted) {
        e.stanceShare.push_back(double(std::count(contact.begin(), contact.end(), 1)) / intervals);
        for (int i = 0; i < intervals; ++i) any[i] = any[i] || contact[i];
    }
    e.flightShare = 1.0 - double(std::count(any.begin(), any.end(), 1)) / intervals;
}

// Speed spread and touch-downs of the contacts' stances; the shares from `planted`.
ContactEvidence describeStances(const std::vector<std::vector<glm::dvec3>>& steps, const PerContact& low,
                                const PerContact& stance, const PerContact& planted,
                                const glm::dvec3& ground) {
    ContactEvidence e;
    const glm::dvec3 direction = glm::length(ground) > 0.0 ? glm::normalize(ground) : glm::dvec3(0.0);
    const int intervals = steps.empty() ? 0 : int(steps.front().size());
    describePlanting(planted, intervals, e);
    double fastest = 0.0, slowest = std::numeric_limits<double>::infinity(), speeds = 0.0;
    for (size_t c = 0; c < steps.size(); ++c) {
        double along = 0.0;
        int stanceIntervals = 0;
        for (int i = 0; i < intervals; ++i)
            if (stance[c][i]) along += glm::dot(steps[c][i], direction), ++stanceIntervals;
        if (stanceIntervals == 0) continue;
        ++e.steppingContacts;
        const double speed = along / stanceIntervals;
        fastest = std::max(fastest, speed);
        slowest = std::min(slowest, speed);
        speeds += speed;
        // A touch-down: a stance in a new spell low (the foot rose out of the band since). A
        // spell that runs over the clip's end into its start is one, the clip being a cycle.
        const std::vector<std::pair<int, int>> spells = runsOf(low[c]);
        std::vector<std::uint8_t> stood(spells.size(), 0);
        for (size_t r = 0; r < spells.size(); ++r)
            for (int i = spells[r].first; i <= spells[r].second && !stood[r]; ++i) stood[r] = stance[c][i];
        e.touchDowns += int(std::count(stood.begin(), stood.end(), 1));
        if (spells.size() >= 2 && spells.front().first == 0 && spells.back().second == intervals - 1 &&
            stood.front() && stood.back())
            --e.touchDowns;
    }
    if (e.steppingContacts >= 2 && speeds > 0.0) e.speedSpread = (fastest - slowest) / (speeds / e.steppingContacts);
    return e;
}

}  // namespace

ContactMotion readContacts(const Frames& frames, const ContactSet& contacts, const std::vector<double>* yaw,
                           const glm::dvec3& up, double lowBand) {
    return {contactSteps(frames, contacts, yaw, up), lowIntervals(frames, contacts, up, lowBand)};
}

double babylonLowBand(double height) { return kBabylonPlantedBand * height; }

StanceTravel measureStanceTravel(const Frames& frames, const ContactMotion& motion, double height, double firstKey,
                                 const Thresholds& thresholds) {
    const auto& steps = motion.steps;
    const auto& low = motion.low;
    const int intervals = frames.count - 1;
    const size_t count = steps.size();
    StanceTravel out{std::vector<glm::dvec3>(std::max(intervals, 0), glm::dvec3(0.0)), {}, {}};
    if (count == 0 || intervals <= 0) return out;
    std::vector<glm::dvec3> lowSteps;
    for (size_t c = 0; c < count; ++c)
        for (int i = 0; i < intervals; ++i)
            if (low[c][i]) lowSteps.push_back(steps[c][i]);
    const double dt = (frames.to - frames.from) / intervals;
    const double floor = thresholds.standingSpeed * height * dt;
    const glm::dvec3 ground = groundStepCluster(lowSteps, floor, thresholds.stanceSpeedTolerance);
    const double tolerance = thresholds.stanceSpeedTolerance * std::max(glm::length(ground), floor);
    const PerContact stance = markStances(steps, low, ground, tolerance, dt, thresholds);

    // Each interval's ground step: the stance contact's closest to the ground's; before
    // the clip's first key it holds its first pose and the character stands; the rest
    // (flights) interpolated between stances only: standing before the first key says
    // nothing about the speed the clip reaches after it.
    std::vector<std::uint8_t> measured(intervals, 0), held(intervals, 0);
    for (int i = 0; i < intervals; ++i) {
        double best = std::numeric_limits<double>::infinity();
        for (size_t c = 0; c < count; ++c) {
            if (!stance[c][i]) continue;
            const double off = glm::length(steps[c][i] - ground);
            if (off < best) best = off, out.steps[i] = steps[c][i], measured[i] = 1;
        }
        held[i] = !measured[i] && frames.time(i + 1) <= firstKey;
    }
    interpolateGaps(out.steps, measured);
    for (int i = 0; i < intervals; ++i)
        if (held[i]) out.steps[i] = glm::dvec3(0.0);
    // Planted: in stance, or low while the clip holds its first pose (the character stands
    // there, its feet as still as the ground).
    out.planted = stance;
    for (size_t c = 0; c < count; ++c)
        for (int i = 0; i < intervals; ++i) out.planted[c][i] = stance[c][i] || (held[i] && low[c][i]);
    out.evidence = describeStances(steps, low, stance, out.planted, ground);
    return out;
}

StanceTravel measureLowestTravel(const ContactMotion& motion) {
    const auto& steps = motion.steps;
    const auto& low = motion.low;
    const int intervals = steps.empty() ? 0 : int(steps.front().size());
    const size_t count = steps.size();
    StanceTravel out{std::vector<glm::dvec3>(intervals, glm::dvec3(0.0)), {}, {}};
    if (count == 0 || intervals <= 0) return out;
    // A first pass averages the slowest planted contact's step; the second follows the
    // planted contact closest to the step before, and a flight carries the last step.
    std::vector<std::uint8_t> supported(intervals, 0);
    auto walk = [&](bool tracking, glm::dvec3 previous) {
        for (int i = 0; i < intervals; ++i) {
            double best = std::numeric_limits<double>::infinity();
            int chosen = -1;
            for (size_t c = 0; c < count; ++c) {
                if (!low[c][i]) continue;
                const glm::dvec3 d = tracking ? steps[c][i] - previous : steps[c][i];
                if (glm::dot(d, d) < best) best = glm::dot(d, d), chosen = int(c);
            }
            supported[i] = chosen >= 0;
            out.steps[i] = chosen >= 0 ? steps[chosen][i] : previous;
            if (tracking) previous = out.steps[i];
        }
    };
    walk(false, glm::dvec3(0.0));
    glm::dvec3 reference(0.0);
    int supportedCount = 0;
    for (int i = 0; i < intervals; ++i)
        if (supported[i]) reference += out.steps[i], ++supportedCount;
    if (supportedCount > 0) reference /= supportedCount;
    walk(true, reference);
    // Babylon's planted contacts are its low ones; a flight is where none is.
    ContactEvidence& e = out.evidence;
    out.planted = low;
    describePlanting(out.planted, intervals, e);
    for (double share : e.stanceShare) e.steppingContacts += share > 0.0;
    return out;
}

}  // namespace rootbake::core
