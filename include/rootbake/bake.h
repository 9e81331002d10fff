// rootbake: the offline API. Plain data in, plain data out; links glm only.
//
// Data flow: a loader (src/gltf) fills a Rig and Clips, the core samples and
// analyses them (analyzeClip), and writers turn the results into files. Nothing
// here reads or writes a file, and nothing here can fail on data the loader
// accepted: every index and range is validated once, at the boundary.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "rootbake/result.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rootbake {

// ---- rig -------------------------------------------------------------------

struct Transform {
    glm::dvec3 translation{0.0};
    glm::dquat rotation{1.0, 0.0, 0.0, 0.0};  // w, x, y, z
    glm::dvec3 scale{1.0};
};

glm::dmat4 toMatrix(const Transform& t);

// The node hierarchy in parent-first order: parent[i] < i for every node with a
// parent, so local-to-scene is one forward loop. Indices are rig indices; the
// glTF index of rig node i is gltfIndex[i].
struct Rig {
    std::vector<int> parent;            // rig index, -1 for a node without a parent
    std::vector<Transform> rest;        // local TRS from the file (a `matrix` decomposed)
    std::vector<std::string> name;      // may be empty
    std::vector<int> gltfIndex;         // index in the file's nodes[]
    std::vector<std::uint8_t> hasMesh;  // 1 when the node carries a mesh
    std::vector<int> rigIndexOfGltf;    // inverse of gltfIndex
    std::vector<std::vector<int>> skins;  // each skin's joints (rig indices), as skins[i].joints
    // Per node, 1 when it drives a facial expression (a VRM animation's VRMC_vrm_animation
    // `expressions`: its translation's x is the weight), never a clip's root; empty: none does.
    std::vector<std::uint8_t> drivesExpression;

    // The body's mesh, read for the analysis only (never written back). Per node, the points
    // of the mesh it moves, in the node's own space: the centre of its sole, the vertices it
    // carries (its largest skin weight, or a rigid mesh below it with no joint between) that
    // are lowest at rest. A node that moves no vertex (an IK pole target, an `_end` tip, a
    // helper) has none. Empty when no mesh could be read: the joints then stand for the
    // body, and surfaceNote says why.
    std::vector<std::vector<glm::dvec3>> surface;
    std::string surfaceNote;  // why surface is empty ("no mesh", "meshes[0] is Draco-compressed")
    // Per node, its scene-space position in the pose its mesh was modelled in: a skin joint's
    // from its inverse bind matrix, any other node's at rest.
    // Empty when no skin was read. The character's height is measured in it.
    std::vector<glm::dvec3> bind;

    int size() const { return static_cast<int>(parent.size()); }
    bool hasSurface() const { return !surface.empty(); }
    bool isExpression(int n) const { return !drivesExpression.empty() && drivesExpression[std::size_t(n)]; }
    // Some vertex of the mesh moves with node n (always false without a surface).
    bool movesMesh(int n) const { return hasSurface() && !surface[std::size_t(n)].empty(); }
};

// A printable name for rig node i: its glTF name, else "nodes[N]".
std::string nodeLabel(const Rig& rig, int node);

// ---- clips -----------------------------------------------------------------

enum class Path : std::uint8_t { Translation, Rotation, Scale };
enum class Interpolation : std::uint8_t { Step, Linear, CubicSpline };

// One animated property of one node. Values are decoded to float (normalized
// integers of KHR_mesh_quantization already divided out); a key holds
// `width()` floats, and a CUBICSPLINE key holds three of those in the glTF
// order (in-tangent, value, out-tangent).
struct Channel {
    int node = 0;  // rig index
    Path path = Path::Translation;
    Interpolation interpolation = Interpolation::Linear;
    std::vector<float> times;   // seconds, finite, non-negative, non-decreasing
    std::vector<float> values;  // times.size() * width() (* 3 for CUBICSPLINE)
    int gltfChannel = 0;        // index in the file's animations[a].channels[]
    int gltfSampler = 0;        // index in the file's animations[a].samplers[]

    int width() const { return path == Path::Rotation ? 4 : 3; }
    int keyCount() const { return static_cast<int>(times.size()); }
};

struct Clip {
    std::string name;  // may be empty
    int gltfIndex = 0;
    std::vector<Channel> channels;  // node TRS channels only
    // Channels the analysis does not read (morph `weights`, channels without a
    // target node, KHR_animation_pointer): kept by the writer, counted here.
    int otherChannels = 0;
    double start = 0.0;  // first key time over all of the clip's samplers, s
    double end = 0.0;    // last key time over all of the clip's samplers, s
};

// A clip in tables and sidecars: its glTF name, else "animations[N]" (never blank).
std::string clipName(const Clip& clip);
// A clip in messages: animations[2] "walk", or animations[2] when it has no name.
std::string clipLabel(const Clip& clip);

// ---- sampling and poses -----------------------------------------------------

// A forward cursor: the key interval last used. Sampling at increasing times
// costs amortized O(1); a time before the cursor restarts the search.
struct ChannelCursor {
    int key = 0;
    // LINEAR rotations: what the last interval's slerp derived from its two keys (the keys
    // normalized onto one hemisphere, their angle), reused while the next sample's keys are
    // the same floats. Samples are a few per key interval, and acos and two normalizations
    // are most of a slerp.
    struct Arc {
        bool valid = false;
        float a[4], b[4];                    // the keys as stored
        double qa[4], qb[4];                 // normalized, qb on qa's hemisphere
        double angle = 0.0, sinAngle = 0.0;  // rad; sinAngle 0: the keys too close to divide by it
    } arc;
};

// Samples a channel at time t (s), exactly as the glTF 2.0 spec interpolates:
// STEP, LINEAR (shortest-path slerp for rotations), CUBICSPLINE (Hermite with
// tangents scaled by the key interval; rotations normalized), clamped outside
// the keys. Writes width() doubles to out.
void sampleChannel(const Channel& channel, double t, ChannelCursor& cursor, double* out);
void sampleChannel(const Channel& channel, double t, double* out);
// Samples the channel at t into the property of `local` it animates.
void sampleInto(const Channel& channel, double t, ChannelCursor& cursor, Transform& local);

// Evaluates local transforms of every node at one time: starts from the rest
// pose and overwrites each animated property. cursors has one entry per channel.
void sampleLocalPose(const Rig& rig, const Clip& clip, double t, std::span<ChannelCursor> cursors,
                     std::span<Transform> local);

// Local-to-scene matrices of every node, one forward pass.
void localToScene(const Rig& rig, std::span<const Transform> local, std::span<glm::dmat4> scene);

// ---- analysis ---------------------------------------------------------------

enum class Source : std::uint8_t { None, Root, FootContact };
const char* sourceName(Source source);  // "none", "root", "footContact"

// Stance: the ends of the limbs that carry the body, in stance where they move with the
// ground. Babylon: Babylon.js's RootMotionClip (the lowest leaves; planted while low).
enum class ContactRule : std::uint8_t { Stance, Babylon };
const char* contactRuleName(ContactRule rule);  // "stance", "babylon"

// Where the travel is to come from, as the user chooses: Auto decides (the root's keys, else
// the planted feet, else none); None keeps the clip exactly as it moves (an idle).
enum class SourceChoice : std::uint8_t { Auto, Root, FootContact, None };
inline constexpr const char* kSourceChoiceNames[] = {"auto", "root", "footContact", "none"};  // by SourceChoice

// A setting the analysis decides unless told: Auto, or forced On or Off.
enum class Toggle : std::uint8_t { Auto, On, Off };
inline constexpr const char* kToggleNames[] = {"auto", "on", "off"};  // by Toggle

// A node the user names: by its glTF name, or as "nodes[N]" by its index in the file's
// nodes[]. A name wins over an index, as a node may be named "nodes[3]".
struct NodeRef {
    std::string name;  // as given; empty when given by index only
    int index = -1;    // glTF index: N of a name "nodes[N]", or the node given by index; -1: none
    bool empty() const { return name.empty() && index < 0; }
};

// "Hips" -> by name; "nodes[3]" -> by name, else index 3.
NodeRef parseNodeRef(std::string text);
inline NodeRef nodeRefByIndex(int gltfIndex) { return NodeRef{"", gltfIndex}; }
// The node as given: its name, else "nodes[N]".
std::string nodeRefLabel(const NodeRef& ref);

// The physical thresholds of rootbake's contact rule (docs/analysis.md, "Thresholds", says
// where each value comes from). Fields, not command-line options: a real rig that needs
// another value is a finding to report, not a knob to turn. Babylon.js's rule
// (ContactRule::Babylon) keeps Babylon's own 0.1 H and 0.05 H.
struct Thresholds {
    double contactHeightBand = 0.1;     // x height: a limb end reaches the ground within this of the lowest
    double plantedHeightBand = 0.05;    // x height: a contact is low within this of its own lowest point
    double limbTopSpread = 1.0 / 3.0;   // x a leg: a supporting limb hangs from about where the lowest hangs
    double legFraction = 0.5;           // x height: a leg's length at least, the spread's scale
    double stanceSpeedTolerance = 0.25; // a planted foot moves within this fraction of the ground's speed
    double minimumStance = 0.06;        // s: the shortest ground contact of any gait (a sprinter's 80-100 ms)
    double stanceEdgeSlowdown = 0.05;   // a stance's end step this much slower than its median is the foot's
    double standingSpeed = 0.01;        // x height per s: slower is standing, not travelling
    double minimumStraightness = 0.8;   // deduced net travel / its path length (walks: 0.99+)
    double deducedSnapAngle = 0.17453292519943295;  // rad (10 degrees): a deduced direction snaps to an axis within
    double contactReadingRate = 120.0;  // 1/s: contacts are read at least this often
    double stanceSpeedAgreement = 0.25; // stance speeds of two contacts differing more: a doubt warning
};

// How a clip is analysed. Defaults match Babylon.js's RootMotionClip, but for contactRule.
struct Options {
    glm::dvec3 upAxis{0.0, 1.0, 0.0};  // character space, normalized before use
    double samplesPerSecond = 60.0;    // analysis samples per second of the clip
    double minimumTravel = 0.1;        // fraction of the character height, per cycle
    double minimumTurn = 0.17453292519943295;  // rad per cycle (10 degrees)
    std::optional<double> directionSnapAngle;  // rad; unset: 0 for root travel, 10 degrees for deduced travel
    bool extractLateralMotion = false; // keep the sideways part of root travel (strafes)
    Toggle extractRotation = Toggle::Auto;    // Auto: when the turn reaches minimumTurn
    SourceChoice source = SourceChoice::Auto;  // Root, FootContact: forced; None: no motion whatever the clip does
    NodeRef rootNode;                  // empty: found
    NodeRef characterNode;             // ancestor of the root; empty: the glTF scene space
    std::vector<NodeRef> contactNodes; // empty: found
    // How contacts are found and read: rootbake's limb ends and stances (docs/analysis.md,
    // "Contacts"), or Babylon.js's lowest leaves and closest steps, for comparison.
    ContactRule contactRule = ContactRule::Stance;
    std::uint64_t maxSamples = 1u << 22;    // analysis samples per clip (bounded memory)
    Thresholds thresholds;
};

struct PlantedInterval {
    double start = 0.0, end = 0.0;  // s, from the clip start
};

// How well the feet bear out a deduced travel (source footContact): what inspect -v,
// the sidecar and the report show, and what the doubt warnings are drawn from.
// x character height: a sprinter covers about 2.5 body heights per cycle (two steps);
// a stride per cycle beyond this is no gait's, and is flagged.
inline constexpr double kMaxStridePerCycle = 2.5;
// A deduced direction snapped onto an axis leaves the feet sliding sideways at the sine of
// the angle it was turned by, as a fraction of the speed: above this (verify's default
// --max-drift; 2.9 degrees), the snap is flagged. Real walks and runs wander under 2.6.
inline constexpr double kSnappedSlide = 0.05;

struct ContactEvidence {
    std::vector<double> stanceShare;  // per contact (as ClipAnalysis::contacts): fraction of the clip in stance
    double flightShare = 0.0;   // fraction of the clip with no contact in stance: the ground speed interpolated
    double speedSpread = 0.0;   // (fastest - slowest) / mean of the contacts' mean stance speeds; 0: they agree
    int touchDowns = 0;         // stances begun, all contacts together
    int steppingContacts = 0;   // contacts with at least one stance
    double stridePerCycle = 0.0;  // travel per cycle of the stepping contacts, scene units
    double snappedAngle = 0.0;    // rad: how far the feet's direction was turned onto the axis it snapped to
};

struct ContactPlanting {
    int node = -1;  // rig index
    std::vector<PlantedInterval> planted;
};

// The motion to apply at every analysis sample, relative to the first frame,
// in character space: translation (scene units) and turn about the up axis (rad).
struct MotionTrack {
    std::vector<double> times;  // s, from the clip start; samples + 1 entries
    std::vector<glm::dvec3> translation;
    std::vector<double> yaw;  // unwrapped
};

// ---- markers: footsteps, phase and distance -------------------------------------

// The side of the body a contact is on, from the rest pose in character space
// (docs/analysis.md, "Markers"): left/right along the lateral axis; front/back too on a
// rig with more than two contacts (a quadruped). None: on the midline.
enum class Side : std::uint8_t { None, Left, Right, Front, Back, FrontLeft, FrontRight, BackLeft, BackRight };
const char* sideName(Side side);  // "", "left", "right", "front", "back", "frontLeft", ...

enum class FootEventType : std::uint8_t { Down, Up };
const char* footEventName(FootEventType type);  // "down", "up"

// A contact touching down (a stance begins) or lifting off (it ends).
struct FootEvent {
    double time = 0.0;  // s from the clip start, in [0, duration): an event at the loop's end is at 0
    FootEventType type = FootEventType::Down;
    int contact = 0;  // index in ClipAnalysis::planting
};

// What engines sync, notify and distance-match on (sync markers, footstep notifies, a
// distance curve), derived from the planted intervals and the track.
struct ClipMarkers {
    std::vector<Side> sides;           // per contact, as ClipAnalysis::planting
    std::vector<FootEvent> events;     // by time, then contact, a down before an up
    int phaseContact = -1;             // index in planting: phase 0 at its downs; -1: no phase
    std::vector<double> phaseAnchors;  // s, increasing: its down times, each the start of a cycle
    // Per track sample: the distance along the horizontal path, scene units, from the clip's
    // start; with a stop or pivot, from it (negative before it: the distance left).
    std::vector<double> distance;
    std::optional<double> stop;  // s: the stop or pivot the distance counts from; unset: none
};

// The distance along a track's horizontal path (perpendicular to up), per sample. A track
// that ends stopped (its last step slower than standingSpeed, units/s, after moving faster)
// counts to the sample where it came to rest; one whose motion reverses (two steps in
// opposite directions, after and before at least minimumTravel, scene units) counts to the
// reversal: negative before, as Unreal's DistanceCurveModifier. stop: that sample's time.
struct DistanceCurve {
    std::vector<double> distance;
    std::optional<double> stop;
};
DistanceCurve measureDistance(const MotionTrack& track, const glm::dvec3& up, double standingSpeed,
                              double minimumTravel);

struct ClipAnalysis {
    Source source = Source::None;
    int root = -1;       // rig index, -1 when the clip animates no position
    int character = -1;  // rig index of the character node, -1 for the glTF scene space
    std::vector<int> contacts;  // rig indices; empty unless source is FootContact
    glm::dvec3 upAxis{0.0, 1.0, 0.0};

    double from = 0.0, to = 0.0;  // s, the range analysed
    double duration = 0.0;        // s
    double characterHeight = 0.0; // scene units
    glm::dvec3 travelDirection{0.0, 0.0, 1.0};
    glm::dvec3 stride{0.0};   // the cycle's offset, character space
    double strideLength = 0.0;  // along travelDirection
    double turn = 0.0;          // rad per cycle about the up axis
    bool extractsRotation = false;
    double averageSpeed = 0.0;         // strideLength / duration, units/s
    double averageAngularSpeed = 0.0;  // turn / duration, rad/s
    MotionTrack track;
    std::vector<ContactPlanting> planting;  // every contact node's planted intervals
    ContactEvidence evidence;               // source footContact only
    ClipMarkers markers;                    // events and phase from planting; distance from track

    // What the in-place rewrite needs (removeMotion).
    bool removesRootTravel = false;  // the travel is in the root's keys
    bool pivots = false;             // a turn not in the root's travel: about the root's start
    glm::dvec3 rootStart{0.0};       // root position at the first frame, character space
    glm::dvec3 lateralDrift{0.0};    // sideways travel a direction snap leaves, removed evenly, not applied

    std::string reason;  // one line per decision, "; "-separated
    std::vector<std::string> warnings;
};

// The rig index of the node the user named; -1 when there is none.
int findNode(const Rig& rig, const NodeRef& node);

// The position-animated node with the most animated descendants (a tie goes to
// the ancestor) that carries the character's skeleton (it holds all the joints of its skin
// that stand on the ground at rest, along up: never a tread segment or one limb); -1 when
// the clip moves no such node in position.
int findRoot(const Rig& rig, const Clip& clip, const glm::dvec3& up = glm::dvec3(0.0, 1.0, 0.0));

// Between two keys glTF's interpolation is smooth (linear, slerp or a cubic), so this many
// samples per key resolve a clip whatever its duration says: a clip keyed sparsely over a
// long time costs what its keys say (docs/limits.md).
inline constexpr double kSamplesPerKey = 64.0;

// The analysis samples of a clip (its frames less one), from 0 to its last key: its duration
// x samplesPerSecond, at least 2, at most sampleCap(clip). May be more than maxSamples:
// analyzeClip then refuses the clip.
double analysisSampleCount(const Clip& clip, const Options& options);

// kSamplesPerKey x the keys of all of the clip's channels: the most samples (or contact
// readings) a clip's keys can call for.
double sampleCap(const Clip& clip);

// Everything RootMotionClip finds for one clip. An error is an option that does
// not fit the clip (a root name that is not there, an animated character node,
// a forced source that cannot be had); a clip that simply has nothing to
// analyse gets source None and a reason.
Result<ClipAnalysis> analyzeClip(const Rig& rig, const Clip& clip, const Options& options);

// The markers of an analysed clip: events and phase from its planted intervals, sides from
// the rest pose, the distance from its track (docs/analysis.md, "Markers").
ClipMarkers markClip(const Rig& rig, const ClipAnalysis& analysis, const Options& options);

// ---- in place -----------------------------------------------------------------

// A root channel with the motion left out: it replaces channel gltfChannel of
// the clip, or is added when gltfChannel is -1 (a translation channel for a
// root that only turns, holding it where the character turns about).
struct InPlaceChannel {
    int gltfChannel = -1;
    int node = -1;  // rig index
    Path path = Path::Translation;
    Interpolation interpolation = Interpolation::Linear;
    std::vector<float> times;   // the source keys' times (or the analysis samples' for a new channel)
    std::vector<float> values;  // as Channel::values
};

// The root's keys with the travel (and the extracted turn) taken out: at every
// key time the root's pose in character space has the motion at that time
// undone, then is expressed back in the root's parent space. Same times, count
// and interpolation; CUBICSPLINE tangents follow the new curve. Empty for a
// clip whose motion is not in its keys (footContact, none).
std::vector<InPlaceChannel> removeMotion(const Rig& rig, const Clip& clip, const ClipAnalysis& analysis);

// The clip with its in-place channels in place of the source's: what the
// rewritten file plays.
Clip applyInPlace(const Clip& clip, const std::vector<InPlaceChannel>& channels);

// How well the in-place clip loops: the largest mismatch between its first and
// last frame over the root and the joints under it, in character space.
struct LoopSeam {
    double position = 0.0;          // scene units
    double positionFraction = 0.0;  // of the character height
    double rotationDegrees = 0.0;
    int worstNode = -1;  // rig index of the largest position mismatch
};
LoopSeam measureLoopSeam(const Rig& rig, const Clip& inPlaceClip, const ClipAnalysis& analysis);

// One clip, analysed and made in place.
struct BakedClip {
    ClipAnalysis analysis;
    std::vector<InPlaceChannel> channels;  // empty: the clip is written as it is (footContact, none)
    LoopSeam loop;                         // of the in-place clip
};

// x character height: a seam (LoopSeam::positionFraction) above this is a visible pop
// (3.5 cm on a 1.75 m character). `--fail-on loop-gap` without a value fails a clip
// above it; the report flags it.
inline constexpr double kLoopGapDefault = 0.02;

// The motion at time t (s from the clip start), linearly between track samples.
glm::dvec3 trackTranslationAt(const MotionTrack& track, double t);
double trackYawAt(const MotionTrack& track, double t);

}  // namespace rootbake
