// analyzeClip: root, character space, height, turn, travel and contacts of a
// clip, by the rules of Babylon.js's RootMotionClip (see docs/analysis.md).
#include "contacts.h"
#include "frames.h"

#include <algorithm>
#include <cmath>
#include <charconv>
#include <string_view>
#include <limits>
#include <optional>

namespace rootbake {

using core::Frames;
using core::horizontal;
using core::rotateAboutUp;
using core::wrapAngle;

namespace {

constexpr double kStrictPlantedBand = 0.01;  // reported planted intervals, x height: a looser band counts the swing
constexpr double kMinimumStraightness = 0.8; // net deduced travel / path length (walks: 0.99+)
// Stance speeds of two contacts that differ by more than this fraction: the feet do not
// agree on the ground speed (two planted feet move with the same ground).
constexpr double kStanceSpeedAgreement = 0.25;
constexpr double kDeducedSnapAngle = std::numbers::pi / 18;  // rad
// Contacts are read at least this often (1/s): the shortest stance (kMinimumStance, 60 ms)
// then spans 7 readings, so its ends and median do not depend on the track's sample rate.
constexpr double kContactReadingRate = 120.0;
constexpr int kNodeSamplesPerSample = 8;  // node positions per clip: maxSamples x this (2^25, 768 MiB, by default)
constexpr double kMaxCoordinate = 1e12;     // scene units: positions beyond are refused (squares stay finite)
constexpr double kMinimumHeight = 1e-9;     // scene units: a character height below is 0 (travel then in scene units)

// A number for a reason line: locale-independent, `digits` significant digits.
std::string num(double value, int digits = 4) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value, std::chars_format::general, digits).ptr;
    return std::string(text, end);
}

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

struct ChannelsOfNode {
    const Channel* translation = nullptr;
    const Channel* rotation = nullptr;
};

ChannelsOfNode channelsOf(const Clip& clip, int node) {
    ChannelsOfNode found;
    for (const Channel& c : clip.channels) {
        if (c.node != node) continue;
        if (c.path == Path::Translation) found.translation = &c;  // the last one wins, as in playback
        if (c.path == Path::Rotation) found.rotation = &c;
    }
    return found;
}

// Animated nodes in the order the clip first names them.
std::vector<int> animatedNodes(const Rig& rig, const Clip& clip) {
    std::vector<int> nodes;
    std::vector<std::uint8_t> seen(rig.size(), 0);
    for (const Channel& c : clip.channels)
        if (!seen[c.node]) seen[c.node] = 1, nodes.push_back(c.node);
    return nodes;
}

// Per node, how many animated nodes are below it: one backward pass over the
// parent-first order (per-node ancestor walks cost animated x depth each).
std::vector<int> animatedDescendantCounts(const Rig& rig, const std::vector<int>& animated) {
    std::vector<int> below(rig.size(), 0);
    std::vector<std::uint8_t> isAnimated(rig.size(), 0);
    for (int node : animated) isAnimated[node] = 1;
    for (int n = rig.size() - 1; n >= 0; --n)
        if (rig.parent[n] >= 0) below[rig.parent[n]] += below[n] + isAnimated[n];
    return below;
}

bool isDescendant(const Rig& rig, int node, int ancestor) {
    for (int p = rig.parent[node]; p >= 0; p = rig.parent[p])
        if (p == ancestor) return true;
    return false;
}


// Vertical extent, at the first frame, of the base and the joints under it.
double measureHeight(const Rig& rig, const Frames& frames, int base, const glm::dvec3& up) {
    const std::vector<std::uint8_t> under = core::descendantsOf(rig, base);
    double lowest = base >= 0 ? glm::dot(frames.at(0, base), up) : 0.0;  // the scene's own origin
    double highest = lowest;
    for (int n = 0; n < rig.size(); ++n) {
        if (!under[n] || rig.hasMesh[n]) continue;
        const double h = glm::dot(frames.at(0, n), up);
        lowest = std::min(lowest, h);
        highest = std::max(highest, h);
    }
    return highest - lowest;
}

// Finite keys can still compose to huge or infinite positions (scales of 1e30 in a chain):
// refused, so every number the analysis derives stays finite.
Status checkFinite(const Rig& rig, const Frames& f) {
    for (int i = 0; i < f.count; ++i)
        for (int n = 0; n < f.nodes; ++n) {
            const glm::dvec3& p = f.at(i, n);
            if (!(std::abs(p.x) <= kMaxCoordinate && std::abs(p.y) <= kMaxCoordinate &&
                  std::abs(p.z) <= kMaxCoordinate))
                return Error{nodeLabel(rig, n) + " is at (" + num(p.x) + ", " + num(p.y) + ", " + num(p.z) +
                             ") at " + num(f.time(i)) + " s: beyond " + num(kMaxCoordinate) +
                             " units, the transforms overflow"};
        }
    return Ok{};
}

// Turn about up at every frame relative to the first, unwrapped so a clip that
// turns past half a revolution keeps counting.
std::vector<double> measureRootYaw(const Frames& frames, const glm::dvec3& up) {
    std::vector<double> yaw(frames.count);
    const glm::dquat reference = glm::conjugate(frames.rootRotation[0]);
    double previous = 0.0;
    for (int i = 0; i < frames.count; ++i) {
        const double wrapped = core::turnAbout(frames.rootRotation[i] * reference, up);
        previous = i == 0 ? wrapped : previous + wrapAngle(wrapped - wrapAngle(previous));
        yaw[i] = previous;
    }
    return yaw;
}

struct Analyzer {
    const Rig& rig;
    const Clip& clip;
    const Options& options;
    ClipAnalysis& out;
    const Frames& frames;
    glm::dvec3 up;

    // Snaps the direction of travel onto the nearest horizontal character-space
    // axis within the snap angle.
    void snapTravelDirection(double defaultAngle) {
        const double angle = options.directionSnapAngle >= 0.0 ? options.directionSnapAngle : defaultAngle;
        if (angle <= 0.0) return;
        double bestDot = std::cos(angle);
        std::optional<glm::dvec3> best;
        for (glm::dvec3 axis : {glm::dvec3(1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1)}) {
            if (std::abs(glm::dot(axis, up)) > 0.5) continue;
            axis = glm::normalize(horizontal(axis, up));
            for (double sign : {1.0, -1.0}) {
                const double dot = sign * glm::dot(axis, out.travelDirection);
                if (dot >= bestDot) {
                    bestDot = dot;
                    best = sign * axis;
                }
            }
        }
        if (best) out.travelDirection = *best;
    }

    glm::dvec3 project(const glm::dvec3& v) const {
        const glm::dvec3 h = horizontal(v, up);
        if (options.extractLateralMotion) return h;
        return out.travelDirection * glm::dot(h, out.travelDirection);
    }

    // The travel taken from the root at a pose: with a turn, every horizontal
    // move (the direction turns with the character); without, the part along
    // the direction of travel, so sway stays in the pose.
    glm::dvec3 rootTravelAt(const glm::dvec3& position, const glm::dvec3& start, double yaw, bool turning) const {
        if (turning) return horizontal(position, up) - rotateAboutUp(horizontal(start, up), yaw, up);
        return project(position - start);
    }

    std::optional<std::vector<glm::dvec3>> measureRootTravel(const std::vector<double>* yaw, double minimumTravel,
                                                            bool forced) {
        const int last = frames.count - 1;
        const glm::dvec3 start = frames.at(0, out.root);
        const glm::dvec3 net = horizontal(frames.at(last, out.root) - start, up);
        const double netLength = glm::length(net);
        if (!forced && netLength < minimumTravel) {
            out.reason += "; root travel " + num(netLength) + " < minimum " + num(minimumTravel);
            return std::nullopt;
        }
        if (netLength > 0.0) out.travelDirection = net / netLength;
        if (!yaw && !options.extractLateralMotion) {
            snapTravelDirection(0.0);
            // What the root still drifts sideways of a snapped direction would pop back
            // at every loop: it is removed from the keys, evenly, but not applied.
            out.lateralDrift = net - out.travelDirection * glm::dot(net, out.travelDirection);
        }
        std::vector<glm::dvec3> translation(frames.count);
        for (int i = 0; i < frames.count; ++i)
            translation[i] = rootTravelAt(frames.at(i, out.root), start, yaw ? (*yaw)[i] : 0.0, yaw != nullptr);
        out.reason += "; source root: net travel " + num(netLength) + " >= minimum " + num(minimumTravel);
        return translation;
    }

    // How many contact readings per track sample: enough for kContactReadingRate, within the
    // limits (the readings pose the contacts' chains but keep a position per node).
    int readingFactor() const {
        const double samples = frames.count - 1;
        const double rate = out.duration > 0.0 ? samples / out.duration : kContactReadingRate;
        const double wanted = std::ceil(kContactReadingRate / rate - 1e-9);
        const double nodeLimit = double(options.maxSamples) * kNodeSamplesPerSample;
        const double allowed = std::min(std::floor(double(options.maxSamples) / samples),
                                        std::floor((nodeLimit / std::max(rig.size(), 1) - 1.0) / samples));
        return int(std::max(1.0, std::min(wanted, allowed)));
    }

    Result<std::optional<std::vector<glm::dvec3>>> measureContactTravel(const std::vector<double>* yaw,
                                                                        double minimumTravel, bool forced) {
        const int base = out.root >= 0 ? out.root : out.character;
        const bool babylon = options.contactRule == ContactRule::Babylon;
        core::ContactSet contacts;
        if (!options.contactNodes.empty()) {
            std::vector<int> nodes;
            for (const std::string& label : options.contactNodes) {
                const int node = findNode(rig, label);
                if (node < 0) return Error{"contact node \"" + label + "\" is not in the asset"};
                nodes.push_back(node);
            }
            contacts = core::givenContacts(frames, std::move(nodes), up);
        } else {
            contacts = babylon ? core::findLowestLeaves(rig, frames, base, up, out.characterHeight)
                               : core::findContacts(rig, clip, frames, base, out.character, up, out.characterHeight);
        }
        if (contacts.nodes.empty()) {
            out.reason += "; " + (contacts.reason.empty() ? std::string("no contact candidates") : contacts.reason);
            return std::optional<std::vector<glm::dvec3>>{};
        }
        out.reason += "; " + contacts.reason;

        // Stances are read at kContactReadingRate or finer (Babylon's rule at the track's rate),
        // on the contacts' chains only; the track takes every factor-th reading.
        const int factor = babylon ? 1 : readingFactor();
        Frames finer;
        std::vector<double> finerYaw;
        if (factor > 1) {
            finer = core::sampleFrames(rig, clip, out.from, out.to, (frames.count - 1) * factor, out.character,
                                       out.root, contacts.nodes);
            if (Status s = checkFinite(rig, finer); !s) return s.error();
            contacts.lowest = core::givenContacts(finer, contacts.nodes, up).lowest;
            if (yaw) finerYaw = measureRootYaw(finer, up);
        }
        const Frames& reading = factor > 1 ? finer : frames;
        const std::vector<double>* readingYaw = factor > 1 && yaw ? &finerYaw : yaw;

        const core::ContactMotion motion = core::readContacts(reading, contacts, readingYaw, up, out.characterHeight);
        core::StanceTravel stance = babylon ? core::measureLowestTravel(motion)
                                            : core::measureStanceTravel(reading, motion, out.characterHeight, clip.start);
        const int intervals = reading.count - 1;
        std::vector<glm::dvec3> translation(frames.count, glm::dvec3(0.0));
        glm::dvec3 travelled(0.0), heading(0.0);
        double pathLength = 0.0;
        for (int i = 1; i <= intervals; ++i) {
            heading += stance.steps[i - 1];
            pathLength += glm::length(stance.steps[i - 1]);
            travelled += rotateAboutUp(stance.steps[i - 1], readingYaw ? (*readingYaw)[i] : 0.0, up);
            if (i % factor == 0) translation[i / factor] = travelled;
        }
        const double straightness = pathLength > 0.0 ? glm::length(heading) / pathLength : 0.0;
        const double distance = glm::length(travelled);
        if (distance > 0.0) out.travelDirection = travelled / distance;
        if (!forced && (distance < minimumTravel || straightness < kMinimumStraightness)) {
            out.travelDirection = {0, 0, 1};
            out.reason += "; contact travel " + num(distance) + " (minimum " + num(minimumTravel) + "), straightness " +
                          num(straightness, 3) + " (minimum " + num(kMinimumStraightness, 2) + ")";
            return std::optional<std::vector<glm::dvec3>>{};
        }
        if (!yaw) {
            // Straight: only the travel along the direction, as for root travel.
            if (!options.extractLateralMotion) snapTravelDirection(kDeducedSnapAngle);
            for (glm::dvec3& t : translation) t = out.travelDirection * glm::dot(t, out.travelDirection);
        }
        out.contacts = contacts.nodes;
        out.evidence = std::move(stance.evidence);
        out.planting.clear();
        for (size_t c = 0; c < contacts.nodes.size(); ++c)
            out.planting.push_back(
                plantedIntervals(contacts.nodes[c], contacts.lowest[c] + kStrictPlantedBand * out.characterHeight));
        out.reason += "; source footContact: deduced travel " + num(distance) + ", straightness " + num(straightness, 3) +
                      "; " + describeEvidence(rig, out.contacts, out.evidence);
        return std::optional<std::vector<glm::dvec3>>{std::move(translation)};
    }

    ContactPlanting plantedIntervals(int node, double ceiling) const {
        ContactPlanting result;
        result.node = node;
        int start = -1;
        for (int i = 0; i <= frames.count; ++i) {
            const bool down = i < frames.count && glm::dot(frames.at(i, node), up) <= ceiling;
            if (down && start < 0) start = i;
            if (!down && start >= 0) {
                result.planted.push_back({frames.time(start) - frames.from, frames.time(i - 1) - frames.from});
                start = -1;
            }
        }
        return result;
    }
};

}  // namespace

const char* contactRuleName(ContactRule rule) { return rule == ContactRule::Babylon ? "babylon" : "stance"; }

const char* sourceName(Source source) {
    switch (source) {
        case Source::Root: return "root";
        case Source::FootContact: return "footContact";
        case Source::None: break;
    }
    return "none";
}

// Samples for a track that lands on every one of the root's keys: when the keys sit on
// an even grid over [from, to] (30 or 24 fps, also starting after `from`), a whole
// multiple of that grid at no less than `rate`; else `fallback`. At most `limit`. Babylon's count,
// ceil(duration x rate), puts the samples between 30 fps keys whenever a float
// duration lands a hair above a whole frame (0.8f x 60 = 48.0000007).
int keyAlignedSampleCount(const ChannelsOfNode& root, double from, double to, double rate, int fallback,
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

int findNode(const Rig& rig, const std::string& label) {
    for (int n = 0; n < rig.size(); ++n)
        if (rig.name[n] == label) return n;
    const std::string_view prefix = "nodes[";
    if (label.size() > prefix.size() + 1 && label.compare(0, prefix.size(), prefix) == 0 && label.back() == ']') {
        int index = -1;
        const char* first = label.data() + prefix.size();
        const char* last = label.data() + label.size() - 1;
        const auto parsed = std::from_chars(first, last, index);
        if (parsed.ec == std::errc() && parsed.ptr == last && index >= 0 &&
            index < static_cast<int>(rig.rigIndexOfGltf.size()))
            return rig.rigIndexOfGltf[index];
    }
    return -1;
}

int findRoot(const Rig& rig, const Clip& clip) {
    const std::vector<int> animated = animatedNodes(rig, clip);
    const std::vector<int> below = animatedDescendantCounts(rig, animated);
    std::vector<std::uint8_t> translated(rig.size(), 0);
    for (const Channel& c : clip.channels)
        if (c.path == Path::Translation) translated[c.node] = 1;
    int best = -1, bestCount = -1;
    for (int node : animated) {
        if (!translated[node]) continue;
        const int count = below[node];
        if (count > bestCount || (count == bestCount && best >= 0 && isDescendant(rig, best, node))) {
            best = node;
            bestCount = count;
        }
    }
    return best;
}

namespace {

// Warnings on a deduced travel that the feet do not bear out well.
void doubtDeduction(ClipAnalysis& out) {
    ContactEvidence& e = out.evidence;
    // A walk has a foot in stance nearly all the cycle, a run with flight about half of
    // it: below a quarter the ground speed is interpolated far more than it is measured.
    if (e.flightShare > 0.75)
        out.warnings.push_back("contacts are in stance for only " + num(100.0 * (1.0 - e.flightShare), 3) +
                               "% of the clip: the deduced travel is interpolated over the rest");
    // Two planted feet move at the same ground speed.
    if (e.speedSpread > kStanceSpeedAgreement)
        out.warnings.push_back("the contacts disagree: their stance speeds differ by " +
                               num(100.0 * e.speedSpread, 3) + "%");
    if (out.contacts.size() >= 2 && e.steppingContacts < 2)
        out.warnings.push_back("only one contact steps: travel found while the feet do not alternate");
    const double cycles = std::max(1.0, double(e.touchDowns) / std::max(1, e.steppingContacts));
    e.stridePerCycle = std::abs(out.strideLength) / cycles;
    if (out.characterHeight > 0.0 && e.stridePerCycle > kMaxStridePerCycle * out.characterHeight)
        out.warnings.push_back("a stride of " + num(e.stridePerCycle) + " per cycle is " +
                               num(e.stridePerCycle / out.characterHeight, 3) +
                               " x the character's height: more than legs can step (" + num(kMaxStridePerCycle, 2) +
                               ")");
}

// What an animator should look at although the analysis went through.
void addWarnings(ClipAnalysis& out, const Options& options, const ChannelsOfNode& rootChannels) {
    if (out.root >= 0 && out.characterHeight == 0.0)
        out.warnings.push_back("the joints under the root have no height: thresholds are in scene units");
    if (options.extractRotation == 1 && out.root >= 0 && !rootChannels.rotation)
        out.warnings.push_back("extractRotation is on, but the root has no rotation keys: no turn extracted");
    if (out.source == Source::FootContact) doubtDeduction(out);
}

}  // namespace

Result<ClipAnalysis> analyzeClip(const Rig& rig, const Clip& clip, const Options& options) {
    ClipAnalysis out;
    const double upLength = glm::length(options.upAxis);
    if (!(upLength > 0.0) || !std::isfinite(upLength)) return Error{"the up axis has no direction"};
    if (!(options.samplesPerSecond > 0.0) || !std::isfinite(options.samplesPerSecond))
        return Error{"samplesPerSecond " + num(options.samplesPerSecond) + " is not a positive number"};
    const glm::dvec3 up = options.upAxis / upLength;
    out.upAxis = up;

    const std::vector<int> animated = animatedNodes(rig, clip);
    if (animated.empty()) {
        out.reason = "clip animates no transform node";
        return out;
    }

    // Root: named, else found.
    if (!options.rootNode.empty()) {
        out.root = findNode(rig, options.rootNode);
        if (out.root < 0) return Error{"root node \"" + options.rootNode + "\" is not in the asset"};
        out.reason = "root: " + nodeLabel(rig, out.root) + " (given)";
    } else {
        out.root = findRoot(rig, clip);
        if (out.root >= 0)
            out.reason = "root: " + nodeLabel(rig, out.root) + " - position-animated, " +
                         std::to_string(animatedDescendantCounts(rig, animated)[out.root]) + " animated descendants";
        else
            out.reason = "root: none - the clip animates no position";
    }
    const int anchor = out.root >= 0 ? out.root : animated.front();

    // Character space: the scene's unless an ancestor of the root is named.
    if (!options.characterNode.empty()) {
        out.character = findNode(rig, options.characterNode);
        if (out.character < 0) return Error{"character node \"" + options.characterNode + "\" is not in the asset"};
        if (!isDescendant(rig, anchor, out.character))
            return Error{"character node \"" + options.characterNode + "\" is not an ancestor of the root \"" +
                         nodeLabel(rig, anchor) + "\""};
        const ChannelsOfNode animatedCharacter = channelsOf(clip, out.character);
        if (animatedCharacter.translation || animatedCharacter.rotation)
            return Error{"character node \"" + options.characterNode +
                         "\" is animated in position or rotation: it is to receive the motion; pass an ancestor "
                         "the clip does not animate"};
    }

    const ChannelsOfNode rootChannels = out.root >= 0 ? channelsOf(clip, out.root) : ChannelsOfNode{};
    if (options.forceSource == Source::Root && !rootChannels.translation)
        return Error{"source root was asked for, but the root \"" + nodeLabel(rig, anchor) +
                     "\" has no position animation"};

    // Range: as playback plays it, from the clip's start (0) to its last key.
    out.from = 0.0;
    out.to = std::max(0.0, clip.end);
    out.duration = out.to - out.from;
    // Bounded work and memory, whatever the key times say: the samples, and the
    // positions of every node at every sample (24 bytes each) that the frames keep.
    const double wanted = std::ceil(out.duration * options.samplesPerSecond);
    const double sampleLimit = std::min(double(options.maxSamples), double(std::numeric_limits<int>::max() - 1));
    if (!(wanted <= sampleLimit))
        return Error{"the clip lasts " + num(out.duration, 6) + " s: " + num(wanted, 6) + " analysis samples at " +
                     num(options.samplesPerSecond) + " per second, more than maxSamples (" +
                     std::to_string(options.maxSamples) + ")"};
    const int samples = std::max(2, static_cast<int>(wanted));
    const double nodeSamples = double(samples + 1) * rig.size();
    const double nodeSampleLimit = double(options.maxSamples) * kNodeSamplesPerSample;
    if (nodeSamples > nodeSampleLimit)
        return Error{std::to_string(samples + 1) + " analysis samples x " + std::to_string(rig.size()) + " nodes = " +
                     num(nodeSamples, 6) + " node positions, more than " + std::to_string(kNodeSamplesPerSample) +
                     " x maxSamples (" + num(nodeSampleLimit, 6) + ")"};
    // removeMotion poses the root and its ancestors at each of the root's keys (three times
    // for CUBICSPLINE): bounded the same way.
    if (out.root >= 0) {
        int chain = 0;
        for (int n = out.root; n >= 0; n = rig.parent[n]) ++chain;
        double keys = 0.0;
        for (const Channel* c : {rootChannels.translation, rootChannels.rotation})
            if (c) keys += double(c->keyCount()) * (c->interpolation == Interpolation::CubicSpline ? 3 : 1);
        if (keys * chain > nodeSampleLimit)
            return Error{"the root's keys (" + num(keys, 6) + " poses) x its " + std::to_string(chain) +
                         " ancestors and itself, more than " + std::to_string(kNodeSamplesPerSample) +
                         " x maxSamples (" + num(nodeSampleLimit, 6) + ")"};
    }
    // A clip whose travel may be in the root's keys needs the root's chain at every sample,
    // and the whole rig only at its first and last frames (the height, the loop): the rest
    // of the rig is posed at every sample only if the contacts are measured after all.
    const bool rootFirst = out.root >= 0 && rootChannels.translation && options.forceSource != Source::FootContact &&
                           !options.forceNoMotion;
    Frames frames = core::sampleFrames(rig, clip, out.from, out.to, samples, out.character, out.root, rootFirst);
    const Frames ends =
        rootFirst ? core::sampleFrames(rig, clip, out.from, out.to, 1, out.character, out.root) : Frames{};
    auto overflow = [&](const Frames& f) { return checkFinite(rig, f); };
    if (Status s = overflow(frames); !s) return s.error();
    if (Status s = overflow(ends); !s) return s.error();

    out.characterHeight = measureHeight(rig, rootFirst ? ends : frames, out.root >= 0 ? out.root : out.character, up);
    // A flat rig under a rotation measures rounding noise (1e-18), not a height: thresholds
    // scaled by it would take noise for travel.
    if (out.characterHeight < kMinimumHeight) out.characterHeight = 0.0;
    const double scale = out.characterHeight > 0.0 ? out.characterHeight : 1.0;
    const double minimumTravel = options.minimumTravel * scale;
    Analyzer analyzer{rig, clip, options, out, frames, up};

    // Turning is only ever in the root's own rotation.
    std::vector<double> yaw;
    if (options.forceNoMotion) out.reason += "; source none: forced";
    if (out.root >= 0 && options.extractRotation != 0 && rootChannels.rotation && !options.forceNoMotion) {
        std::vector<double> measured = measureRootYaw(frames, up);
        const double endTurn = std::abs(wrapAngle(measured.back()));
        if (options.extractRotation == 1 || endTurn >= options.minimumTurn) {
            yaw = std::move(measured);
            out.reason += "; turn " + num(yaw.back() * 180 / std::numbers::pi, 3) + " deg extracted (minimum " +
                          num(options.minimumTurn * 180 / std::numbers::pi, 3) + ")";
        }
    }
    const std::vector<double>* turning = yaw.empty() ? nullptr : &yaw;
    out.extractsRotation = turning != nullptr;

    std::optional<std::vector<glm::dvec3>> translation;
    if (options.forceSource != Source::FootContact && rootChannels.translation && !options.forceNoMotion) {
        translation = analyzer.measureRootTravel(turning, minimumTravel, options.forceSource == Source::Root);
        if (translation) {
            out.source = Source::Root;
            out.removesRootTravel = true;
        }
    }
    if (!translation && options.forceSource != Source::Root && !options.forceNoMotion) {
        if (rootFirst) {  // the whole rig after all (the analyzer sees frames by reference)
            frames = core::sampleFrames(rig, clip, out.from, out.to, samples, out.character, out.root);
            if (Status s = overflow(frames); !s) return s.error();
        }
        auto contact = analyzer.measureContactTravel(turning, minimumTravel, options.forceSource == Source::FootContact);
        if (!contact) return contact.error();
        translation = std::move(*contact);
        if (translation) out.source = Source::FootContact;
    }
    if (!translation && turning) {
        // A turn on the spot: the root keeps its travel and sway, only the turn is taken out.
        translation.emplace(frames.count, glm::dvec3(0.0));
        out.source = Source::Root;
        out.reason += "; source root: a turn on the spot";
    }
    out.rootStart = out.root >= 0 ? frames.at(0, out.root) : glm::dvec3(0.0);
    if (translation && turning && !out.removesRootTravel) {
        // A turn that is not in the root's travel turns the character about the root's
        // starting point, so a root off the character's axis does not swing at every loop.
        for (int i = 0; i < frames.count; ++i)
            (*translation)[i] += analyzer.rootTravelAt(out.rootStart, out.rootStart, yaw[i], true);
        out.pivots = true;
        // The travel of a turn on the spot is the pivot's chord; Babylon keeps whatever
        // direction a rejected contact measurement left behind, which can make the speed
        // of a clip that does not travel negative.
        const glm::dvec3 chord = horizontal(translation->back(), up);
        if (out.source == Source::Root && glm::length(chord) > 0.0) out.travelDirection = glm::normalize(chord);
    }

    // A root whose keys are rewritten has its track sampled on its keys, so that the track
    // and the in-place keys give the source root back exactly at every key (between
    // samples a runtime interpolates the track linearly). Stride and turn are the same on
    // either count; a contact measurement keeps Babylon's samples, which it matches.
    const Frames* trackFrames = &frames;
    Frames keyFrames;
    const bool rewritesRoot = out.removesRootTravel || (out.pivots && out.source == Source::Root);
    const int keyAlignedSamples =
        rewritesRoot ? keyAlignedSampleCount(rootChannels, out.from, out.to, options.samplesPerSecond, samples,
                                             std::min(sampleLimit, nodeSampleLimit / rig.size() - 1.0))
                     : samples;
    if (translation && rewritesRoot && keyAlignedSamples != samples) {
        // Only the root's numbers are read from these: its chain is all that is posed.
        keyFrames =
            core::sampleFrames(rig, clip, out.from, out.to, keyAlignedSamples, out.character, out.root, true);
        if (turning) yaw = measureRootYaw(keyFrames, up);
        const glm::dvec3 start = keyFrames.at(0, out.root);
        translation->resize(keyFrames.count);
        for (int i = 0; i < keyFrames.count; ++i) {
            const double turn = turning ? yaw[i] : 0.0;
            (*translation)[i] = out.removesRootTravel
                                    ? analyzer.rootTravelAt(keyFrames.at(i, out.root), start, turn, turning != nullptr)
                                    : analyzer.rootTravelAt(out.rootStart, out.rootStart, turn, true);
        }
        trackFrames = &keyFrames;
    }
    out.track.times.resize(trackFrames->count);
    for (int i = 0; i < trackFrames->count; ++i) out.track.times[i] = trackFrames->time(i) - out.from;
    if (translation) {
        out.track.translation = std::move(*translation);
        out.track.yaw = turning ? yaw : std::vector<double>(trackFrames->count, 0.0);
        out.stride = out.track.translation.back();
        out.turn = out.track.yaw.back();
    } else {
        out.source = Source::None;
        out.extractsRotation = false;
        out.travelDirection = {0, 0, 1};
        out.lateralDrift = glm::dvec3(0.0);
        out.track.translation.assign(trackFrames->count, glm::dvec3(0.0));
        out.track.yaw.assign(trackFrames->count, 0.0);
        if (!options.forceNoMotion) out.reason += "; source none: no travel and no turn";
    }
    if (out.source != Source::FootContact) out.contacts.clear();
    out.strideLength = glm::dot(out.stride, out.travelDirection);
    out.averageSpeed = out.duration > 0.0 ? out.strideLength / out.duration : 0.0;
    out.averageAngularSpeed = out.duration > 0.0 ? out.turn / out.duration : 0.0;
    addWarnings(out, options, rootChannels);
    return out;
}

}  // namespace rootbake
