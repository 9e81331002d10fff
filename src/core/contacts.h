// Internal to the core: the two contact stages of the analysis. findContacts
// chooses the limb ends that carry the body; measureStanceTravel deduces the
// character's travel from their stances. docs/analysis.md, "Contacts", gives the
// model and every constant's physical meaning.
#pragma once

#include "frames.h"

#include <string>
#include <vector>

namespace rootbake::core {

struct ContactSet {
    std::vector<int> nodes;      // rig indices
    std::vector<double> lowest;  // per node: its lowest height over the clip, along up
    std::string reason;          // what was kept and what was left out, and why
};

// Joints (nodes without a mesh) under base with no joint below them.
std::vector<int> leafJoints(const Rig& rig, int base);

// ---- the body's ground points (body.cpp) ----------------------------------------

// Rig::hasMesh of a ground point that withGroundPoints adds: a point of the mesh (so no
// rule about joints counts it), posed like a node.
inline constexpr std::uint8_t kGroundPoint = 2;
bool isGroundPoint(const Rig& rig, int node);
// The ends of the limbs under base: with the body's mesh, the joints that move some of it
// with no such joint below them (a pole target, an `_end` tip or a helper moves none);
// without a mesh, or when no joint under base moves it, the leaf joints.
std::vector<int> limbEnds(const Rig& rig, int base);
// The rig with the Rig::surface points of every limb end of the scene added as nodes of
// their own (children at their rest offsets, named as their joint, never animated), so that
// sampling poses them like joints. The file's nodes keep their indices.
Rig withGroundPoints(const Rig& rig);
// The ground points withGroundPoints gave a joint (none for a rig without them).
std::vector<int> groundPointsOf(const Rig& rig, int joint);
// The joint a ground point moves with; any other node itself.
int jointOf(const Rig& rig, int node);
// Where a joint touches the ground, in its own space: its sole (Rig::surface) where the rig's
// mesh was read and the joint moves some of it, else its origin. What verify and report follow.
glm::dvec3 soleOf(const Rig& rig, int joint);

// Babylon.js's rule: the leaves under base whose lowest point comes within 0.1 H of
// the lowest leaf's.
ContactSet findLowestLeaves(const Rig& rig, const Frames& frames, int base, const glm::dvec3& up, double height);

// The leaves under base that are joints, sorted by the rig's rest pose alone: the ends
// of the limbs the clip moves that hang from about the height the lowest-hanging limbs
// hang from (legs: an arm hangs from a shoulder a torso higher than the legs' hips), the
// other moved ones (arms), and those the clip does not move (still). The legs are the
// only ones whose motion findContacts reads.
struct LimbEnds {
    std::vector<int> legs, arms, still;
};
LimbEnds sortLimbEnds(const Rig& rig, const Clip& clip, int base, int character, const glm::dvec3& up,
                      double height, const Thresholds& thresholds);

// The ends of the limbs that carry the body: the legs' ends that reach the ground in
// the clip (frames must hold them).
ContactSet findContacts(const Rig& rig, const Frames& frames, const LimbEnds& ends, const glm::dvec3& up,
                        double height, const Thresholds& thresholds);

// Joints given by the caller: each one's ground point that comes lowest (itself without
// them), nothing left out.
ContactSet givenContacts(const Rig& rig, const Frames& frames, const std::vector<int>& joints,
                         const glm::dvec3& up);
// Each node's lowest height over the frames, along up.
std::vector<double> lowestHeights(const Frames& frames, const std::vector<int>& nodes, const glm::dvec3& up);
// A joint's ground points, or the joint itself when it has none: what the frames must pose.
std::vector<int> groundPointsOrSelf(const Rig& rig, int joint);

struct StanceTravel {
    // Per interval i (between samples i and i + 1): the ground step with the turn so far
    // undone, in character space.
    std::vector<glm::dvec3> steps;
    // Per contact and interval: 1 where the contact is planted (in stance, or low while the
    // clip holds its first pose). The evidence's shares and the planted intervals are read
    // from it, so they agree.
    std::vector<std::vector<std::uint8_t>> planted;
    ContactEvidence evidence;
};

// Per contact and interval (between samples i and i + 1): its step with the turn so far
// undone (what it gives up in character space: the character's travel if it is planted),
// and whether it is low (within lowBand, scene units, of its own lowest point at both ends:
// Thresholds::plantedHeightBand x height, or Babylon's babylonLowBand). yaw may be null.
struct ContactMotion {
    std::vector<std::vector<glm::dvec3>> steps;
    std::vector<std::vector<std::uint8_t>> low;
};
ContactMotion readContacts(const Frames& frames, const ContactSet& contacts, const std::vector<double>* yaw,
                           const glm::dvec3& up, double lowBand);
// Babylon.js's planted band: 0.05 x height.
double babylonLowBand(double height);

// Stance from motion: a planted contact is low and gives up ground at the
// character's speed, so in character space it moves steadily backwards, while a
// swinging one moves forwards. The ground velocity is the densest cluster of the
// low contacts' velocities; a contact is in stance where it moves within
// Thresholds::stanceSpeedTolerance of it; across a flight (no contact in stance) the ground
// speed is interpolated between the stances around it; before firstKey (s) the clip
// holds its first pose and the character stands.
StanceTravel measureStanceTravel(const Frames& frames, const ContactMotion& motion, double height, double firstKey,
                                 const Thresholds& thresholds);

// Babylon.js's rule: planted while low; each interval takes the planted contact whose
// step is closest to the one before; a flight carries the last step.
StanceTravel measureLowestTravel(const ContactMotion& motion);

}  // namespace rootbake::core
