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

// Nodes given by the caller: their lowest points, nothing left out.
ContactSet givenContacts(const Frames& frames, std::vector<int> nodes, const glm::dvec3& up);

struct StanceTravel {
    // Per interval i (between samples i and i + 1): the ground step with the turn so far
    // undone, in character space.
    std::vector<glm::dvec3> steps;
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
