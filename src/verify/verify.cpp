// measureSkate: the in-place clip replayed with the runtime, and how fast planted
// contacts slide (verify.h says how each figure is defined).
#include "verify/verify.h"
#include "core/contacts.h"
#include "rootbake/num.h"

#include <glm/gtc/matrix_inverse.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace rootbake::verify {

namespace rt = rootbake::runtime;

namespace {

glm::dvec3 toGlm(rt::Vec3 v) {
    return {v.x, v.y, v.z};
}
rt::Vec3 toRuntime(const glm::dvec3& v) {
    return {v.x, v.y, v.z};
}

rt::NodeTransform toRuntime(const Transform& t) {
    return {toRuntime(t.translation),
            {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w},
            toRuntime(t.scale)};
}
glm::dmat4 matrixOf(const rt::NodeTransform& t) {
    Transform m;
    m.translation = toGlm(t.translation);
    m.rotation = glm::dquat(t.rotation.w, t.rotation.x, t.rotation.y, t.rotation.z);
    m.scale = toGlm(t.scale);
    return toMatrix(m);
}

// One pose of one clip: local transforms and scene matrices, buffers allocated once.
struct Poser {
    const Rig& rig;
    const Clip& clip;
    std::vector<ChannelCursor> cursors;
    std::vector<Transform> local;
    std::vector<glm::dmat4> scene;

    Poser(const Rig& r, const Clip& c)
        : rig(r), clip(c), cursors(c.channels.size()), local(r.size()), scene(r.size()) {}

    void pose(double t) {
        sampleLocalPose(rig, clip, t, cursors, local);
        localToScene(rig, local, scene);
    }
    // World matrix of `node` when the character node's local transform is `character`
    // (the engine's) rather than the clip's: parent's world * character * pose in character space.
    glm::dmat4 world(int node, int characterNode, const rt::NodeTransform& character) const {
        if (characterNode < 0) return matrixOf(character) * scene[node];
        const int parent = rig.parent[characterNode];
        const glm::dmat4 parentWorld = parent >= 0 ? scene[parent] : glm::dmat4(1.0);
        return parentWorld * matrixOf(character) * glm::inverse(scene[characterNode]) * scene[node];
    }
};

// Per contact, the point that touches the ground in its joint's space: its sole when the
// rig's mesh was read (Rig::surface, the analysis's ground point), else the joint itself.
std::vector<glm::dvec4> groundPoints(const Rig& rig, const std::vector<int>& contacts) {
    std::vector<glm::dvec4> points;
    for (int c : contacts) points.push_back(glm::dvec4(core::soleOf(rig, c), 1.0));
    return points;
}

// Contact positions of one variant, [frame * contacts + contact].
struct Replay {
    std::vector<glm::dvec3> position;
    void record(const Poser& poser, const ClipMotion& motion, const std::vector<glm::dvec4>& points,
                const rt::NodeTransform& character) {
        for (std::size_t c = 0; c < points.size(); ++c)
            position.push_back(
                glm::dvec3(poser.world(motion.contacts[c], motion.character, character) * points[c]));
    }
    void recordCharacterSpace(const Poser& poser, const ClipMotion& motion,
                              const std::vector<glm::dvec4>& points) {
        const glm::dmat4 toCharacter =
            motion.character >= 0 ? glm::inverse(poser.scene[motion.character]) : glm::dmat4(1.0);
        for (std::size_t c = 0; c < points.size(); ++c)
            position.push_back(glm::dvec3(toCharacter * poser.scene[motion.contacts[c]] * points[c]));
    }
};

// Which frame intervals each contact is planted over, [frame * contacts + contact] for
// the interval that ends at frame, from the in-place pose in character space: low for
// the interval and `margin` frames either side, and, given a direction of travel (not null), not
// moving along it (a planted contact slides back in character space, a swing goes
// forward: a toe that sweeps low through its swing is not planted). Only intervals whose
// whole window is inside the replay count.
std::vector<std::uint8_t> findPlanted(const Replay& pose, int contacts, int frames, const glm::dvec3& upAxis,
                                      const glm::dvec3* travel, double band, int margin) {
    std::vector<std::uint8_t> planted(std::size_t(frames + 1) * contacts, 0);
    std::vector<double> height(frames + 1);
    std::vector<std::uint8_t> low(frames + 1);
    for (int c = 0; c < contacts; ++c) {
        auto at = [&](int k) { return pose.position[std::size_t(k) * contacts + c]; };
        for (int k = 0; k <= frames; ++k) height[k] = glm::dot(at(k), upAxis);
        // The contact's lowest point: the lowest height it holds for a whole window, so a
        // dip of a frame or two (a toe flexing at push-off) does not lift the band off a stance.
        const int window = std::min(2 * margin + 2, frames + 1);
        double ground = std::numeric_limits<double>::infinity();
        for (int j = 0; j + window <= frames + 1; ++j)
            ground = std::min(ground, *std::max_element(&height[j], &height[j] + window));
        for (int k = 0; k <= frames; ++k) low[k] = height[k] <= ground + band;
        for (int k = 1 + margin; k + margin <= frames; ++k) {
            if (!std::all_of(&low[k - 1 - margin], &low[k + margin] + 1,
                             [](std::uint8_t v) { return v != 0; }))
                continue;
            if (travel && glm::dot(at(k) - at(k - 1), *travel) > 0) continue;
            planted[std::size_t(k) * contacts + c] = 1;
        }
    }
    return planted;
}

// The ground for the skating ratio: the lowest height any contact reaches in the replay.
double lowestHeight(const Replay& replay, const glm::dvec3& worldUp) {
    double lowest = std::numeric_limits<double>::infinity();
    for (const glm::dvec3& p : replay.position) lowest = std::min(lowest, glm::dot(p, worldUp));
    return lowest;
}

// The velocity every planted contact shares: along the sum of all planted steps, per contact
// the median of its steps' velocities (a stance outweighs a swing that skims the band, a
// pivot's back and forth cancels), the slowest contact's; 0 when they do not slide alike.
double sharedDrift(const std::vector<std::vector<glm::dvec3>>& steps) {
    glm::dvec3 sum(0.0);
    for (const auto& contact : steps)
        for (const glm::dvec3& v : contact) sum += v;
    if (!(glm::length(sum) > 0)) return 0.0;
    const glm::dvec3 along = glm::normalize(sum);
    double drift = std::numeric_limits<double>::infinity();
    std::vector<double> speeds;
    for (const auto& contact : steps) {
        if (contact.empty()) continue;
        speeds.clear();
        for (const glm::dvec3& v : contact) speeds.push_back(glm::dot(v, along));
        auto middle = speeds.begin() + std::ptrdiff_t(speeds.size() / 2);
        std::nth_element(speeds.begin(), middle, speeds.end());
        drift = std::min(drift, *middle);
    }
    return std::isfinite(drift) ? std::max(0.0, drift) : 0.0;
}

// wrapped[k]: the interval that ends at frame k crosses a loop's wrap (left out of the drift).
SkateStats measure(const Replay& replay, const std::vector<std::uint8_t>& planted,
                   const std::vector<std::uint8_t>& wrapped, int contacts, int frames, double dt,
                   const glm::dvec3& worldUp, double averageSpeed, double height) {
    std::vector<double> speeds;
    std::vector<std::vector<glm::dvec3>> steps(contacts);  // per contact, its planted steps / dt
    const double ground = lowestHeight(replay, worldUp);
    int skatingFrames = 0;
    for (int k = 1; k <= frames; ++k) {
        bool skating = false;
        for (int c = 0; c < contacts; ++c) {
            const std::size_t i = std::size_t(k) * contacts + c;
            glm::dvec3 step = replay.position[i] - replay.position[i - contacts];
            step -= worldUp * glm::dot(step, worldUp);
            const double speed = glm::length(step) / dt;
            const bool inBand =
                glm::dot(replay.position[i], worldUp) <= ground + kSkatingBand * height &&
                glm::dot(replay.position[i - contacts], worldUp) <= ground + kSkatingBand * height;
            skating |= inBand && speed > kSkatingSpeed * height;
            if (!planted[i]) continue;
            speeds.push_back(speed);
            if (!wrapped[k]) steps[c].push_back(step / dt);
        }
        skatingFrames += skating;
    }
    SkateStats stats;
    stats.skatingRatio = frames > 0 ? double(skatingFrames) / frames : 0.0;
    stats.samples = int(speeds.size());
    if (speeds.empty()) return stats;
    std::sort(speeds.begin(), speeds.end());
    stats.mean = std::accumulate(speeds.begin(), speeds.end(), 0.0) / double(speeds.size());
    const std::size_t rank = std::size_t(std::ceil(0.95 * double(speeds.size())));
    stats.p95 = speeds[std::max<std::size_t>(rank, 1) - 1];
    stats.drift = sharedDrift(steps);
    if (averageSpeed > 0) {
        stats.meanFraction = stats.mean / averageSpeed;
        stats.p95Fraction = stats.p95 / averageSpeed;
        stats.driftFraction = stats.drift / averageSpeed;
    }
    return stats;
}

// The track's own chord over the cycle's duration: the clip's average speed when the
// sidecar agrees with itself; a track edited after the bake plays at what it carries.
double chordSpeed(const SidecarClip& clip) {
    const std::vector<double>& t = clip.translation;
    if (t.size() < 6 || !(clip.duration > 0)) return clip.averageSpeed;
    const std::size_t last = t.size() - 3;
    const glm::dvec3 chord(t[last] - t[0], t[last + 1] - t[1], t[last + 2] - t[2]);
    return glm::length(chord) / clip.duration;
}

// A constant velocity and turn rate whose path over one cycle has the track's chord
// (chordSpeed x duration along travelDirection) and turn: a circular arc, whose
// heading at the start is the chord's turned back by half the turn.
rt::RootDelta constantStep(const ClipMotion& motion, double dt) {
    const double turn = motion.clip->averageAngularSpeed * motion.clip->duration;  // rad per cycle
    const double half = 0.5 * turn;
    const double arcOverChord = std::abs(std::sin(half)) > 1e-9 ? half / std::sin(half) : 1.0;
    const rt::Vec3 up = toRuntime(motion.upAxis());
    const double angle = motion.clip->averageAngularSpeed * dt;
    // Midpoint heading of the step, so the polygon's chord points where the arc's does.
    const rt::Vec3 heading =
        rt::rotate(rt::axisAngle(up, -half + 0.5 * angle), toRuntime(motion.travelDirection()));
    return {(chordSpeed(*motion.clip) * arcOverChord * dt) * heading, rt::axisAngle(up, angle)};
}

}  // namespace

glm::dvec3 ClipMotion::upAxis() const {
    return {clip->upAxis[0], clip->upAxis[1], clip->upAxis[2]};
}

glm::dvec3 ClipMotion::travelDirection() const {
    return {clip->travelDirection[0], clip->travelDirection[1], clip->travelDirection[2]};
}

std::vector<int> findContactCandidates(const Rig& rig, const Clip& inPlaceClip, int root, int character,
                                       const glm::dvec3& upAxis) {
    Options options;
    options.upAxis = upAxis;
    options.source = SourceChoice::FootContact;
    options.extractRotation = Toggle::Off;  // the contacts do not depend on it
    if (root >= 0) options.rootNode = nodeRefByIndex(rig.gltfIndex[root]);
    if (character >= 0) options.characterNode = nodeRefByIndex(rig.gltfIndex[character]);
    auto analysis = analyzeClip(rig, inPlaceClip, options);
    return analysis ? analysis->contacts : std::vector<int>{};
}

ClipMotion motionFromAnalysis(const Rig& rig, const Clip& inPlaceClip, const ClipAnalysis& a,
                              const SidecarClip& clip) {
    std::vector<int> contacts = !a.contacts.empty()
                                    ? a.contacts
                                    : findContactCandidates(rig, inPlaceClip, a.root, a.character, a.upAxis);
    return {&clip, a.character, std::move(contacts)};
}

namespace {

Status checkSkateInputs(const Rig& rig, const rt::Track& track, const ClipMotion& motion,
                        const Settings& settings) {
    if (std::string error = rt::validateTrack(track); !error.empty()) return Error{error};
    if (settings.loops < 1 || !(settings.framesPerSecond > 0) || !(settings.plantedMargin >= 0))
        return Error{"loops and frames per second must be positive, the planted margin not negative"};
    if (motion.character >= rig.size()) return Error{"character node out of range"};
    for (int c : motion.contacts)
        if (c < 0 || c >= rig.size()) return Error{"contact node " + std::to_string(c) + " out of range"};
    return Ok{};
}

// Where the engine's character node starts (where the clip puts it), and the world's
// up, travel scale and height there, from character space.
struct StartFrame {
    rt::NodeTransform start;
    glm::dvec3 worldUp{0.0};
    double travelScale = 1.0, height = 0.0;
};

StartFrame startFrame(Poser& inPlace, const ClipMotion& motion) {
    inPlace.pose(0.0);
    StartFrame f;
    f.start = motion.character >= 0 ? toRuntime(inPlace.local[motion.character]) : rt::NodeTransform{};
    const glm::dmat3 toWorld =
        glm::dmat3(motion.character >= 0 ? inPlace.world(motion.character, motion.character, f.start)
                                         : matrixOf(f.start));
    f.worldUp = glm::normalize(toWorld * motion.upAxis());
    f.travelScale = glm::length(toWorld * motion.travelDirection());
    f.height = motion.clip->characterHeight * glm::length(toWorld * motion.upAxis());
    return f;
}

// The ground points over `frames` frames of looped playback: in character space (pose),
// moved by the track as the runtime plays it (baked), by a constant step (constant), and
// the source clip's (source) with the character node held at the start; `wrapped` marks
// the frames where the loop wrapped.
struct Replays {
    Replay pose, baked, constant, source;
    std::vector<std::uint8_t> wrapped;
};

Replays replayLoops(Poser& inPlace, std::optional<Poser>& source, const ClipMotion& motion,
                    const rt::Track& track, const rt::NodeTransform& start,
                    const std::vector<glm::dvec4>& points, int frames, double dt, int loops) {
    Replays r;
    r.wrapped.assign(std::size_t(frames) + 1, 0);
    rt::NodeTransform baked = start, constant = start;
    const rt::RootDelta step = constantStep(motion, dt);
    rt::Playback playback = rt::play(track, {.mode = rt::LoopMode::Loop, .loopCount = loops, .speed = 1.0});
    double previous = 0;
    for (int k = 0; k <= frames; ++k) {
        if (k > 0) {
            rt::applyToLocal(baked, rt::advance(playback, track, dt));
            rt::applyToLocal(constant, step);
        }
        const double t = rt::localTime(playback);  // the same loop bookkeeping places the pose
        r.wrapped[std::size_t(k)] = k > 0 && t < previous;
        previous = t;
        inPlace.pose(t);
        r.pose.recordCharacterSpace(inPlace, motion, points);
        r.baked.record(inPlace, motion, points, baked);
        r.constant.record(inPlace, motion, points, constant);
        if (source) {
            source->pose(t);
            r.source.record(*source, motion, points, start);
        }
    }
    return r;
}

// The seam: the in-place pose's ground points at the clip's end against its start (the
// replay's first frame, at time 0), in heights.
double measureSeam(Poser& inPlace, const ClipMotion& motion, const std::vector<glm::dvec4>& points,
                   const Replay& pose, double duration) {
    Replay end;
    inPlace.pose(duration);
    end.recordCharacterSpace(inPlace, motion, points);
    double seam = 0.0;
    for (std::size_t c = 0; c < motion.contacts.size() && motion.clip->characterHeight > 0; ++c)
        seam = std::max(seam, glm::length(end.position[c] - pose.position[c]) / motion.clip->characterHeight);
    return seam;
}

}  // namespace

Result<ClipSkate> measureSkate(const Rig& rig, const Clip& inPlaceClip, const ClipMotion& motion,
                               const Clip* sourceClip, const Settings& settings) {
    const rt::Track track = motion.track();
    if (Status s = checkSkateInputs(rig, track, motion, settings); !s) return s.error();

    const double dt = 1.0 / settings.framesPerSecond;
    const double duration = rt::clipDuration(track);
    const int frames =
        std::max(1, int(std::floor(settings.loops * duration * settings.framesPerSecond + 1e-9)));
    const int contacts = int(motion.contacts.size());

    Poser inPlace(rig, inPlaceClip);
    std::optional<Poser> source;
    if (sourceClip) source.emplace(rig, *sourceClip);
    const StartFrame world = startFrame(inPlace, motion);

    ClipSkate out;
    out.frames = frames;
    out.measuredSource = sourceClip != nullptr;
    out.averageSpeed = motion.clip->averageSpeed * world.travelScale;
    out.height = world.height;

    const std::vector<glm::dvec4> points = groundPoints(rig, motion.contacts);
    const Replays replays =
        replayLoops(inPlace, source, motion, track, world.start, points, frames, dt, settings.loops);
    out.seam = measureSeam(inPlace, motion, points, replays.pose, duration);

    // One planted set for all three, from the clip's pose: the same samples, moved three ways.
    const int margin = int(std::ceil(settings.plantedMargin * settings.framesPerSecond - 1e-9));
    const double band = settings.plantedBand * motion.clip->characterHeight;
    const glm::dvec3 travelDirection = motion.travelDirection();
    const glm::dvec3* travel = motion.clip->averageSpeed > 0 ? &travelDirection : nullptr;
    const std::vector<std::uint8_t> planted =
        findPlanted(replays.pose, contacts, frames, motion.upAxis(), travel, band, margin);
    auto measured = [&](const Replay& replay) {
        return measure(replay, planted, replays.wrapped, contacts, frames, dt, world.worldUp,
                       out.averageSpeed, world.height);
    };
    out.baked = measured(replays.baked);
    out.constant = measured(replays.constant);
    if (source) out.source = measured(replays.source);
    return out;
}

Verdict judge(const ClipSkate& k, const ClipFacts& facts, double maxDrift) {
    if (!facts.hasRoot) return {false, true, "moves no character (no root): not gated"};
    if (!facts.hasContacts) return {false, true, "no contact nodes: not gated"};
    if (k.baked.samples == 0) return {false, true, "no contact is ever planted: not gated"};
    const auto percent = [](double fraction) { return fixedPoint(100.0 * fraction, 1) + "%"; };
    // A one-shot pops back at every loop: its feet's drift is its own move (`also`: why else).
    const auto oneShot = [&](const std::string& also) {
        return Verdict{false, true,
                       "a one-shot, not a cycle (its ground points end " + fixedPoint(k.seam, 2) +
                           " heights from where they start)" + also + ": not gated"};
    };
    if (!facts.travels) {
        if (k.seam > kOneShotSeam) return oneShot("");
        const double perHeight = k.height > 0 ? k.baked.drift / k.height : 0.0;
        if (!(perHeight > kStandingDrift)) return {true, true, ""};
        return {true, false,
                "SLIDES: its planted contacts drift " + fixedPoint(perHeight, 2) + " heights/s together > " +
                    fixedPoint(kStandingDrift, 2) + " while it does not travel"};
    }
    if (!(k.baked.driftFraction > maxDrift)) return {true, true, ""};
    const std::string by = "drift " + percent(k.baked.driftFraction) + " of its speed > " + percent(maxDrift);
    if (!facts.rootKeys) return {true, false, "SKATES: " + by};
    if (k.measuredSource) {
        if (!(k.baked.driftFraction > k.source.driftFraction + kSameAsSource))
            return {true, true, "drifts as its source does (" + by + "): the bake adds none"};
        return {true, false, "SKATES: " + by};
    }
    // Without the source, a clip whose travel is its root's keys replays its source's motion
    // (in-place keys + track), so its drift is the source's unless the two files disagree.
    if (k.seam > kOneShotSeam) return oneShot(", its travel its root's keys (" + by + "), without --source");
    if (!(k.constant.driftFraction > maxDrift))
        return {true, true,
                by + " with its root's keys, " + percent(k.constant.driftFraction) +
                    " at its average speed: its feet keep its speed, not its root's timing, which the bake "
                    "keeps (--source compares it with the source's)"};
    return {
        true, false,
        "SKATES: " + by + " (its travel is its root's keys: --source tells the source's from the bake's)"};
}

}  // namespace rootbake::verify
