// Internal to the core: the stages analyzeClip composes (docs/analysis.md). Each is a
// free function that reads a StageInput and returns a small result with its part of
// the reason line; none of them reads a file or prints.
#pragma once

#include "contacts.h"
#include "frames.h"
#include "rootbake/num.h"

#include <optional>
#include <string>
#include <vector>

namespace rootbake::core {

// Node positions the frames of one clip may keep: maxSamples x this (2^25, 768 MiB, by default).
constexpr int kNodeSamplesPerSample = 8;

// Finite keys can still compose to huge or infinite positions (scales of 1e30 in a
// chain): refused, so every number the analysis derives stays finite.
Status checkFinite(const Rig& rig, const Frames& frames);

struct NodeChannels {
    const Channel* translation = nullptr;
    const Channel* rotation = nullptr;
};
NodeChannels channelsOf(const Clip& clip, int node);

// What every stage after sampling reads: the clip, its frames and its frame of reference.
struct StageInput {
    const Rig& rig;
    const Clip& clip;
    const Options& options;
    const Frames& frames;
    int root = -1;       // -1: the clip animates no position
    int character = -1;  // -1: scene space
    glm::dvec3 up{0.0, 1.0, 0.0};
    double height = 0.0;    // the character's, scene units (0: none)
    double duration = 0.0;  // s
};

// ---- the root (root.cpp) ------------------------------------------------------

// Animated nodes in the order the clip first names them.
std::vector<int> animatedNodes(const Rig& rig, const Clip& clip);
// Per node, how many animated nodes are below it.
std::vector<int> animatedDescendantCounts(const Rig& rig, const std::vector<int>& animated);
bool isDescendant(const Rig& rig, int node, int ancestor);
// x the skin's height at rest: a body joint whose lowest point at rest is this close to the
// skin's lowest stands on the ground (feet, hooves, treads, wheels), as contactHeightBand.
constexpr double kRestGroundBand = 0.1;
struct Skeletons {
    // Per Rig::skins entry, its body joints (those that move the mesh; all without one) whose
    // lowest point at rest is at the ground (kRestGroundBand).
    std::vector<std::vector<int>> ground;
    std::vector<std::uint8_t> body;  // per node: 1 for a body joint of some skin
};
Skeletons skeletonsOf(const Rig& rig, const glm::dvec3& up);
// The top of a character's skeleton, not a part inside it (a tread segment, a wheel, one
// limb, the spine): no body joint of its skins is above it (an IK rig's body, whose feet hang
// from a control bone), or it holds every ground joint of some skin it holds joints of (the
// hips hold both feet, a quadruped's root all four), or it holds no skin's joint at all.
bool carriesSkeleton(const Rig& rig, const Skeletons& skeletons, int node);

struct RootChoice {
    int root = -1;
    std::string reason;
};
// The root named in the options, else findRoot's.
Result<RootChoice> chooseRoot(const Rig& rig, const Clip& clip, const Options& options,
                              const std::vector<int>& animated, const glm::dvec3& up = {0.0, 1.0, 0.0});

// The character node named in the options (an unanimated ancestor of anchor), else -1.
Result<int> chooseCharacter(const Rig& rig, const Clip& clip, const Options& options, int anchor);

// Vertical extent, at the first frame, of the base and the joints under it.
double measureHeight(const Rig& rig, const Frames& frames, int base, const glm::dvec3& up);
// The same, in the character's space, in the rig's rest pose or in the pose its mesh was
// bound in (Rig::bind) when that has the rest pose's bones, whichever is taller: one height
// for every clip of a character, whatever pose a clip starts in (a crouch, a fall).
constexpr double kBoneLengthTolerance = 0.02;  // the bind pose's summed bone lengths vs the rest pose's
double measureRestHeight(const Rig& rig, int base, int character, const glm::dvec3& up);

// ---- the turn (turn.cpp) ------------------------------------------------------

// Turn about up at every frame relative to the first, unwrapped.
std::vector<double> measureRootYaw(const Frames& frames, const glm::dvec3& up);

struct Turn {
    std::vector<double> yaw;  // per frame; empty: no turn is extracted
    std::string reason;
};
// The root's turn, when the options ask for it or it reaches minimumTurn.
Turn measureTurn(const StageInput& in);

// ---- travel (travel.cpp) ------------------------------------------------------

struct Travel {
    std::vector<glm::dvec3> translation;  // per frame, character space, from 0
    glm::dvec3 direction{0.0, 0.0, 1.0};
    glm::dvec3 lateralDrift{0.0};  // sideways travel a direction snap leaves
};

// The direction snapped onto the nearest horizontal axis within `angle` (rad).
glm::dvec3 snapDirection(const glm::dvec3& direction, const glm::dvec3& up, double angle);

// The travel taken from the root at a pose: with a turn, every horizontal move (the
// direction turns with the character); without, the part along the direction of travel
// (every horizontal part with `lateral`), so sway stays in the pose.
glm::dvec3 travelAt(const glm::dvec3& position, const glm::dvec3& start, double yaw, bool turning,
                    const glm::dvec3& direction, const glm::dvec3& up, bool lateral);

struct TravelReading {
    std::optional<Travel> travel;  // none: not enough travel (unless forced)
    std::string reason;
    double rootTravel = 0;  // the root's horizontal net travel over the cycle
};
// A root whose keys travel less than this fraction of the height per cycle is in place:
// what it moves is sway, and the feet say whether the clip travels. A root that travels
// farther carries the clip's travel in its keys, whatever --min-travel then keeps of it,
// so raising --min-travel can only take travel away, never find another in the feet.
constexpr double kSwayTravel = 0.1;
// A body that travels brings its support along: over a cycle each stepping foot moves a
// stride, and any locomotion moves some foot at least this fraction as far as the body. A
// root that moves farther over feet that stay (a sit, a lean, a fall, a pickup) shifts its
// weight; it does not travel.
constexpr double kSupportShare = 0.5;
// The root's own travel (source root), when its support (supportTravel: how far the farthest
// contact candidate moves; < 0: not known) moves at least kSupportShare as far. yaw may be null.
TravelReading measureRootTravel(const StageInput& in, const std::vector<double>* yaw, double minimumTravel,
                                double supportTravel, bool forced);

// ---- contact travel (contact_travel.cpp) --------------------------------------

// The nodes whose motion the contact stage reads at every sample, known before the clip
// is posed: the contacts named in the options, every leaf joint under the root for
// Babylon's rule, else the legs' ends (the rest pose tells them). The frames it is given
// must hold these nodes.
Result<std::vector<int>> contactCandidates(const Rig& rig, const Clip& clip, const Options& options, int root,
                                           int character, const glm::dvec3& up, double height);

struct ContactReading {
    TravelReading reading;
    std::vector<int> contacts;  // set with a travel only
    ContactEvidence evidence;
    std::vector<ContactPlanting> planting;
};
// The travel deduced from the contacts (source footContact): the contacts named in the
// options or found, read at Thresholds::contactReadingRate or finer. yaw may be null.
Result<ContactReading> measureContactTravel(const StageInput& in, const std::vector<double>* yaw,
                                            double minimumTravel, bool forced);

// ---- the track (track.cpp) ----------------------------------------------------

// Samples for a track that lands on every one of the root's keys, else `fallback`.
int keyAlignedSampleCount(const NodeChannels& root, double from, double to, double rate, int fallback,
                          double limit);

// ---- warnings (warnings.cpp) --------------------------------------------------

// What an animator should look at although the analysis went through; minimumTravel (scene
// units) is the travel the analysis found or not.
void addWarnings(ClipAnalysis& out, const Options& options, const NodeChannels& rootChannels,
                 double minimumTravel);

}  // namespace rootbake::core
