// The skate measurement behind `rootbake verify`: replays an in-place clip for a
// few loops with the runtime (include/rootbake/runtime.h) moving the character,
// as an engine would, and measures how fast each planted contact slides over
// the ground. Pure: it takes a rig and clips already loaded and a track already
// read (a SidecarClip); nothing here touches a file or JSON.
//
// Every frame: delta = runtime::advance(playback, track, 1/fps); the in-place
// pose at runtime::localTime(playback); runtime::applyToLocal(character, delta).
// A contact's world position is the character's world transform composed with
// the contact's pose in character space; the contact is its sole (the analysis's ground
// point, Rig::surface) where the rig's mesh was read, else the joint itself.
//
// Planted, strictly, from the in-place pose in character space (so the same
// samples are measured however the character is moved):
//  - within `plantedBand` x character height above that contact's own lowest
//    point, for the frame interval and `plantedMargin` either side. The margin
//    keeps a swing out: a foot that skims the ground passes through the band in
//    a few frames at lift-off and touch-down (the biped's walk: 3 frames at 60
//    fps at each end, moving at up to 2 m/s); a stance stays in it.
//  - the lowest point is the lowest height the contact holds for a whole window
//    (the interval and its margins), not its lowest sample: a mocap toe dips for
//    a frame or two at push-off, which would lift the band off the stance.
//  - in a clip that travels, not moving along travelDirection: a planted
//    contact slides back in character space, a swing goes forward (mocap toe
//    ends can sweep through the swing lower than they stand in the stance).
//  - in a clip that does not travel, not moving against the summed slide of its
//    planted contacts (found without this test first): the same test with the
//    direction the slide gives, so a toe that sweeps low through its swing is
//    still left out.
// Skate: the horizontal world speed of a contact over a planted interval.
// Drift: the horizontal world velocity every planted contact shares: per contact,
// its planted steps summed and divided by its planted time, along the direction of
// all contacts' sum; the slowest contact's. A track that is wrong moves every
// planted contact alike (drift); a foot that slides on its own (a pivot, a sloppy
// key) is skate that no track can fix, and one contact standing still makes the
// drift 0. Frame intervals across a loop's wrap are left out of it (a clip that
// does not loop pops there, whatever its track).
// Skating ratio: the foot-skating ratio of motion-generation papers, scaled to
// the character: the share of frame intervals in which some contact is within
// kSkatingBand x height of the ground in both frames and moves faster than
// kSkatingSpeed x height per second (5 cm and 0.5 m/s for a 1.75 m human).
// Two
// alternatives a user would otherwise have are measured on the same samples:
//   source:   the source clip as it is, looping, the character left where it is
//             (a root clip pops back one stride at every loop);
//   constant: the in-place clip moved at a constant velocity and turn rate that
//             cover the clip's stride and turn per cycle (for a clip that does
//             not turn: the track's chord over the duration, along travelDirection;
//             the averageSpeed of a sidecar that agrees with itself).
#pragma once

#include "rootbake/bake.h"
#include "rootbake/runtime.h"
#include "rootbake/sidecar_loader.h"

#include <limits>
#include <string>
#include <vector>

namespace rootbake::verify {

struct Settings {
    int loops = 3;                // loops replayed
    double framesPerSecond = 60;  // replay frames per second of clip time
    double plantedBand = 0.01;    // fraction of the character height above the contact's lowest held height
    double plantedMargin = 0.05;  // s the contact stays in the band on either side of a planted interval
};

// One clip's motion as the replay takes it: the sidecar's clip, the one type a motion track has
// from the bake's describe stage to the engine (its track and the analysis's facts beside it:
// duration, up axis, height, speeds, travel direction), and its nodes as indices of the rig that
// plays it. A view: `clip` is not owned and must outlive it.
struct ClipMotion {
    const SidecarClip* clip = nullptr;
    int character = -1;         // rig index of clip->characterNode; -1: the glTF scene space
    std::vector<int> contacts;  // rig indices of clip->contactNodes, or the candidates below

    runtime::Track track() const { return clip->track(); }
    glm::dvec3 upAxis() const;           // unit, character space
    glm::dvec3 travelDirection() const;  // unit, character space: the chord of one cycle
};

// The motion of an analysis, as the sidecar clip made of it (pipeline's sidecarClip) gives it.
// contacts: the analysis's, or for a clip that names none the candidates below.
ClipMotion motionFromAnalysis(const Rig& rig, const Clip& inPlaceClip, const ClipAnalysis& analysis,
                              const SidecarClip& clip);

// Leaf joints under `root` (every joint when -1) whose lowest point over the clip
// comes within 0.1 x height of the lowest: the candidates analyzeClip with
// source = SourceChoice::FootContact takes.
std::vector<int> findContactCandidates(const Rig& rig, const Clip& inPlaceClip, int root, int character,
                                       const glm::dvec3& upAxis);

constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

constexpr double kSkatingBand = 0.05 / 1.75;  // of the height: the papers' 5 cm contact band
constexpr double kSkatingSpeed = 0.5 / 1.75;  // heights/s: the papers' 0.5 m/s (2.5 cm a frame at 20 fps)

struct SkateStats {
    int samples = 0;                     // planted contact intervals measured (contacts x frames)
    double mean = 0;                     // horizontal world speed of planted contacts, world units/s
    double p95 = 0;                      // 95th percentile (nearest rank), world units/s
    double drift = 0;                    // world units/s: the velocity all planted contacts share
    double skatingRatio = 0;             // share of frame intervals (the papers' foot-skating ratio)
    double meanFraction = kNotMeasured;  // of the average speed; NaN when the clip does not travel
    double p95Fraction = kNotMeasured;
    double driftFraction = kNotMeasured;
};

struct ClipSkate {
    SkateStats baked;     // the in-place clip moved by the runtime with the track
    SkateStats constant;  // the in-place clip at constant velocity and turn rate
    SkateStats source;    // the source clip as it is; samples 0 without a source
    bool measuredSource = false;
    double averageSpeed = 0;  // world units/s: the speed the fractions divide by
    double height = 0;        // world units: the character's height
    double seam = 0;          // of the height: the farthest a ground point ends from where it starts
                              // (character space): a cycle returns, a one-shot does not
    int frames = 0;           // replay frame intervals
};

// sourceClip may be null (no source column). An error when the track is not a
// valid runtime track (runtime::validateTrack's message) or a contact is out of range.
Result<ClipSkate> measureSkate(const Rig& rig, const Clip& inPlaceClip, const ClipMotion& motion,
                               const Clip* sourceClip, const Settings& settings = {});

// Whether a clip's bake is held to a limit, and whether it passes it.
//  - a clip that travels fails when its planted contacts drift faster than
//    maxDrift x its speed; a clip whose travel is in its root's keys passes when,
//    with a source, it drifts no more than its source does (kSameAsSource).
//    Without the source, such a clip replays its source's motion (in-place keys +
//    track), so its drift is the source's: it passes when its feet keep its average
//    speed (the constant play within maxDrift), and a one-shot (seam above
//    kOneShotSeam: a climb, a vault) is not gated.
//  - a clip that does not travel fails when its planted contacts drift faster
//    than kStandingDrift x its height per second: its feet say it should travel.
//    Not a one-shot (a jump, a climb, a transition: seam above kOneShotSeam): it
//    pops back at every loop, and its feet's drift is its own move, not travel.
//  - a clip with no root, no contacts or no planted contact is not gated.
constexpr double kSameAsSource = 0.01;  // of the clip's speed: the track reproduces the root to 1e-7
constexpr double kStandingDrift =
    0.1;  // heights/s: the default minimum travel in a second; a third of a slow walk
constexpr double kOneShotSeam = 0.25;  // of the height: a cycle's pose returns (mocap loops within 0.07)

struct Verdict {
    bool gated = false;
    bool passed = true;
    std::string note;  // why it is not gated, or what it passed or failed by; empty when plainly ok
};

struct ClipFacts {
    bool travels = false;   // the sidecar gives it travel
    bool rootKeys = false;  // its travel is in its root's keys (source root)
    bool hasRoot = false;   // the analysis found a root
    bool hasContacts = false;
};

Verdict judge(const ClipSkate& skate, const ClipFacts& facts, double maxDrift);

}  // namespace rootbake::verify
