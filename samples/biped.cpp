// The procedural biped: a rig, seven gaits with closed-form root motion, and the
// glTF writer for them. Every pose is computed from the time of its key (never
// accumulated), the legs by analytic two-bone IK, so a planted foot is exactly
// on its foothold at every key. Derivations and numbers: samples/README.md.
#include "biped.h"

#include "io/base64.h"

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <span>

namespace rootbake::samples {
namespace {

using Json = nlohmann::ordered_json;
constexpr double kPi = std::numbers::pi;

// ---- rig ---------------------------------------------------------------------

constexpr double kFps = 30.0;          // keys per second
constexpr double kThigh = 0.45;        // m, hip to knee
constexpr double kShin = 0.45;         // m, knee to ankle
constexpr double kAnkleHeight = 0.08;  // m, ankle above the ground with the foot flat
constexpr double kBoxRadius = 0.03;    // m, half the thickness of a bone's box in the mesh

// Rig indices of the joints the gaits animate; glTF node index = rig index + 1
// (node 0 is "Armature").
enum Joint : int {
    kHips,
    kSpine,
    kChest,
    kNeck,
    kHead,
    kHeadTop,
    kLeftShoulder,
    kLeftUpperArm,
    kLeftForeArm,
    kLeftHand,
    kLeftIndex,
    kRightShoulder,
    kRightUpperArm,
    kRightForeArm,
    kRightHand,
    kRightIndex,
    kLeftThigh,
    kLeftShin,
    kLeftFoot,
    kLeftToe,
    kRightThigh,
    kRightShin,
    kRightFoot,
    kRightToe,
    kBaseJointCount
};

struct JointDef {
    const char* name;
    int parent;         // rig index, -1: child of Armature
    glm::dvec3 offset;  // m, rest translation in the parent; rest rotations are identity
};

// Y-up, metres, facing +Z, the character's left is +X. Rest: legs straight,
// toes on the ground, arms hanging.
const std::array<JointDef, kBaseJointCount> kJoints{{
    {"Hips", -1, {0.0, 1.03, 0.0}},
    {"Spine", kHips, {0.0, 0.10, 0.0}},
    {"Chest", kSpine, {0.0, 0.17, 0.0}},
    {"Neck", kChest, {0.0, 0.18, 0.0}},
    {"Head", kNeck, {0.0, 0.10, 0.0}},
    {"HeadTop", kHead, {0.0, 0.12, 0.0}},
    {"LeftShoulder", kChest, {0.04, 0.14, 0.0}},
    {"LeftUpperArm", kLeftShoulder, {0.14, 0.0, 0.0}},
    {"LeftForeArm", kLeftUpperArm, {0.0, -0.28, 0.0}},
    {"LeftHand", kLeftForeArm, {0.0, -0.25, 0.0}},
    {"LeftIndex", kLeftHand, {0.0, -0.08, 0.01}},
    {"RightShoulder", kChest, {-0.04, 0.14, 0.0}},
    {"RightUpperArm", kRightShoulder, {-0.14, 0.0, 0.0}},
    {"RightForeArm", kRightUpperArm, {0.0, -0.28, 0.0}},
    {"RightHand", kRightForeArm, {0.0, -0.25, 0.0}},
    {"RightIndex", kRightHand, {0.0, -0.08, 0.01}},
    {"LeftThigh", kHips, {0.09, -0.05, 0.0}},
    {"LeftShin", kLeftThigh, {0.0, -kThigh, 0.0}},
    {"LeftFoot", kLeftShin, {0.0, -kShin, 0.0}},
    {"LeftToe", kLeftFoot, {0.0, -kAnkleHeight, 0.14}},
    {"RightThigh", kHips, {-0.09, -0.05, 0.0}},
    {"RightShin", kRightThigh, {0.0, -kThigh, 0.0}},
    {"RightFoot", kRightShin, {0.0, -kShin, 0.0}},
    {"RightToe", kRightFoot, {0.0, -kAnkleHeight, 0.14}},
}};

struct Rig {
    std::vector<std::string> name;
    std::vector<int> parent;  // parent-first: parent[j] < j
    std::vector<glm::dvec3> offset;
};

// The base joints, then options.extraJoints finger joints in chains of three,
// alternating between the hands.
Rig makeRig(int extraJoints) {
    Rig rig;
    for (const JointDef& joint : kJoints) {
        rig.name.emplace_back(joint.name);
        rig.parent.push_back(joint.parent);
        rig.offset.push_back(joint.offset);
    }
    std::array<int, 2> chainTip{kLeftHand, kRightHand};
    for (int k = 0; k < extraJoints; ++k) {
        const int side = k % 2;
        const int chain = k / 6;
        const int segment = (k / 2) % 3;
        const bool left = side == 0;
        const int parent = segment == 0 ? (left ? kLeftHand : kRightHand) : chainTip[side];
        const glm::dvec3 offset =
            segment == 0 ? glm::dvec3((left ? 0.01 : -0.01) * (chain % 3), -0.07, 0.02 - 0.01 * (chain % 5))
                         : glm::dvec3(0.0, -0.025, 0.0);
        rig.name.push_back(std::string(left ? "LeftFinger" : "RightFinger") + std::to_string(chain + 1) +
                           "_" + std::to_string(segment + 1));
        rig.parent.push_back(parent);
        rig.offset.push_back(offset);
        chainTip[side] = static_cast<int>(rig.name.size()) - 1;
    }
    return rig;
}

std::vector<glm::dvec3> restPositions(const Rig& rig) {
    std::vector<glm::dvec3> world(rig.name.size());
    for (std::size_t j = 0; j < world.size(); ++j)
        world[j] = (rig.parent[j] < 0 ? glm::dvec3(0.0) : world[rig.parent[j]]) + rig.offset[j];
    return world;
}

// ---- gaits -------------------------------------------------------------------

// One clip's gait. The defaults are the walk; the table below lists what each
// clip changes.
struct Gait {
    const char* name = "walk";
    const char* source = "root";
    double duration = 1.0;               // s, the clip
    int cycles = 1;                      // gait cycles (one step of each foot) in the clip
    double duty = 0.6;                   // fraction of a gait cycle each foot is planted; 1: never steps
    glm::dvec3 velocity{0.0, 0.0, 1.2};  // m/s in the character's frame (+X left, +Z forward)
    double turnRate = 0.0;               // rad/s about +Y
    bool inPlace = false;                // the hips keep the travel out and the planted feet slide back
    double hipHeight = 0.92;             // m
    double bob = 0.015;                  // m; > 0: highest at mid-stance (walk), < 0: lowest (run)
    double sway = 0.03;                  // m, towards the planted foot
    double twist = 0.07;                 // rad, hips yaw about the heading; the spine counter-rotates
    double stepHeight = 0.10;            // m, ankle lift at mid-swing
    double liftPower = 2.0;              // ankle lift at swing progress s: stepHeight sin(pi s)^liftPower
    double stanceWidth = 0.09;           // m, ankle from the centre line
    double armSwing = 0.35;              // rad
    double nod = 0.05;                   // rad, the head's CUBICSPLINE nod
    double breath = 0.0;                 // rad, chest pitch
    int keyStep = 10;                    // the key count is a multiple of this: stances start and end on keys
    double keyRate = kFps;               // keys per second
};

const std::array<Gait, 7> kGaits{{
    {.name = "walk"},
    {.name = "walk_inplace", .source = "footContact", .inPlace = true},
    // The swing foot clears the ground fast (a square-root lift to 0.4 m), so in
    // the flight both feet are well off the ground, not skimming it.
    {.name = "run_inplace",
     .source = "footContact",
     .duration = 0.8,
     .duty = 1.0 / 3.0,
     .velocity = {0.0, 0.0, 3.0},
     .inPlace = true,
     .hipHeight = 0.86,
     .bob = -0.03,
     .sway = 0.015,
     .twist = 0.10,
     .stepHeight = 0.40,
     .liftPower = 0.5,
     .stanceWidth = 0.08,
     .armSwing = 0.6,
     .nod = 0.04,
     .keyStep = 6},
    {.name = "turn_walk", .turnRate = kPi / 4.0},
    {.name = "turn_spot",
     .duration = 2.0,
     .cycles = 2,
     .velocity = {0.0, 0.0, 0.0},
     .turnRate = kPi / 4.0,
     .bob = 0.01,
     .sway = 0.0,
     .twist = 0.0,
     .stepHeight = 0.06,
     .stanceWidth = 0.10,
     .armSwing = 0.08,
     .nod = 0.03,
     .keyStep = 20},
    {.name = "strafe",
     .velocity = {0.5, 0.0, 0.0},
     .bob = 0.01,
     .sway = 0.0,
     .twist = 0.0,
     .stepHeight = 0.08,
     .stanceWidth = 0.16,
     .armSwing = 0.08,
     .nod = 0.03},
    {.name = "idle",
     .source = "none",
     .duration = 2.0,
     .duty = 1.0,
     .velocity = {0.0, 0.0, 0.0},
     .hipHeight = 0.93,
     .bob = 0.005,
     .sway = 0.0,
     .twist = 0.0,
     .stepHeight = 0.0,
     .stanceWidth = 0.10,
     .armSwing = 0.0,
     .nod = 0.03,
     .breath = 0.03,
     .keyStep = 1},
}};

// The run study (samples/README.md): in-place runs over a grid of speeds, duty
// factors, swing lifts and key rates, each one gait cycle of 0.7 m stances. The
// keys fall where they fall (keyStep 1), as in exported motion capture.
struct NamedGait {
    Gait gait;
    std::string name;
};

std::vector<NamedGait> runStudyGaits() {
    constexpr double kStanceLength = 0.7;  // m the planted foot slides back per stance
    std::vector<NamedGait> gaits;
    for (const double speed : {2.5, 3.5, 5.0})
        for (const double duty : {0.28, 0.35, 0.42})
            for (const double liftPower : {0.5, 1.0})
                for (const double keyRate : {24.0, 30.0, 60.0}) {
                    Gait run = kGaits[2];  // run_inplace
                    run.velocity = {0.0, 0.0, speed};
                    run.duty = duty;
                    run.duration = kStanceLength / (speed * duty);
                    run.liftPower = liftPower;
                    run.keyRate = keyRate;
                    run.keyStep = 1;
                    char name[64];
                    std::snprintf(name, sizeof name, "run_v%.1f_duty%.2f_lift%.1f_%.0ffps", speed, duty, liftPower,
                                  keyRate);
                    gaits.push_back({run, name});
                }
    return gaits;
}

// The gait study (samples/README.md): in-place gaits that stress a contact model other
// than runs do: feet that barely clear the ground, a crouch, backwards and sideways
// walks, a sprint's long flights, a gentle lift, and 24 and 30 fps keys. One cycle each.
std::vector<NamedGait> gaitStudyGaits() {
    std::vector<NamedGait> gaits;
    auto add = [&](Gait gait, const char* name) {
        gait.inPlace = true;
        gait.source = "footContact";
        gait.keyStep = 1;
        gait.duration = gait.duration * gait.cycles;
        for (const double keyRate : {24.0, 30.0, 60.0}) {
            gait.keyRate = keyRate;
            char label[64];
            std::snprintf(label, sizeof label, "%s_%.0ffps", name, keyRate);
            gaits.push_back({gait, label});
        }
    };
    const Gait walk = kGaits[1], run = kGaits[2];
    Gait g = walk;
    g.stepHeight = 0.02;  // the toes never leave the planted band (5% of 1.7 m)
    add(g, "shuffle");
    g = walk;
    g.velocity = {0.0, 0.0, 0.6};
    g.stepHeight = 0.04;
    g.duration = 1.3;
    add(g, "slow_shuffle");
    g = walk;
    g.hipHeight = 0.70;  // a crouch: knees bent, short steps
    g.velocity = {0.0, 0.0, 0.8};
    g.stepHeight = 0.06;
    add(g, "crouch_walk");
    g = walk;
    g.velocity = {0.0, 0.0, -0.9};
    add(g, "backwards_walk");
    g = kGaits[5];  // strafe
    add(g, "strafe");
    g = run;
    g.velocity = {0.0, 0.0, 2.2};
    g.duty = 0.45;
    g.stepHeight = 0.07;  // a jog whose toes stay within about 8 cm of the ground
    g.liftPower = 2.0;
    g.duration = 0.7;
    add(g, "low_jog");
    g = run;
    g.velocity = {0.0, 0.0, 7.0};
    g.duty = 0.22;  // a sprint: each foot down 22% of the cycle, flights of 28%
    g.duration = 0.7;
    add(g, "sprint");
    g = run;
    g.liftPower = 4.0;  // the swing foot peels off slowly
    g.stepHeight = 0.25;
    add(g, "gentle_run");
    return gaits;
}

glm::dquat yaw(double angle) {
    return glm::angleAxis(angle, glm::dvec3(0.0, 1.0, 0.0));
}
glm::dquat pitch(double angle) {
    return glm::angleAxis(angle, glm::dvec3(1.0, 0.0, 0.0));
}

// A character frame on the ground: where the travel has carried the character.
struct Frame {
    glm::dvec3 position{0.0};
    double heading = 0.0;  // rad about +Y
};

glm::dvec3 toScene(const Frame& frame, const glm::dvec3& p) {
    return frame.position + yaw(frame.heading) * p;
}
glm::dvec3 toFrame(const Frame& frame, const glm::dvec3& p) {
    return yaw(-frame.heading) * (p - frame.position);
}

// The travel at time t (s): constant velocity in the turning frame, so a
// straight line or a circular arc, integrated in closed form.
Frame motionAt(const Gait& gait, double t) {
    const glm::dvec3 v = gait.velocity;
    if (gait.turnRate == 0.0) return {v * t, 0.0};
    const double heading = gait.turnRate * t;
    const double s = std::sin(heading) / gait.turnRate;
    const double c = (1.0 - std::cos(heading)) / gait.turnRate;
    return {glm::dvec3(v.x * s + v.z * c, 0.0, v.z * s - v.x * c), heading};
}

struct FootTarget {
    glm::dvec3 ankle{0.0};  // m, scene space
    double heading = 0.0;   // rad, the foot's yaw; the foot is flat
};

// Where one foot is at time t (s), in the scene, for a character that travels.
// Stance k of a foot starts at (k + phase) gait periods and lasts `duty`
// periods; its foothold is under the hip at mid-stance and does not move. The
// swing eases from one foothold to the next in the character's frame.
FootTarget footAt(const Gait& gait, double side, double phase, double t) {
    const glm::dvec3 offset(side * gait.stanceWidth, kAnkleHeight, 0.0);
    const auto foothold = [&](double time) {
        const Frame frame = motionAt(gait, time);
        return FootTarget{toScene(frame, offset), frame.heading};
    };
    if (gait.duty >= 1.0) return foothold(0.0);
    const double period = gait.duration / gait.cycles;
    const double u = t / period - phase;
    const double step = std::floor(u);
    const double f = u - step;
    const double midStance = (step + phase + 0.5 * gait.duty) * period;
    if (f < gait.duty) return foothold(midStance);
    const double s = (f - gait.duty) / (1.0 - gait.duty);
    const Frame lift = motionAt(gait, (step + phase + gait.duty) * period);
    const Frame land = motionAt(gait, (step + 1.0 + phase) * period);
    const FootTarget from = foothold(midStance);
    const FootTarget to = foothold(midStance + period);
    const glm::dvec3 a = toFrame(lift, from.ankle);
    const glm::dvec3 b = toFrame(land, to.ankle);
    const double headingA = from.heading - lift.heading;
    const double headingB = to.heading - land.heading;
    const double ease = 0.5 - 0.5 * std::cos(kPi * s);
    const double raise = gait.stepHeight * std::pow(std::sin(kPi * s), gait.liftPower);
    // The foot leaves the ground at rest in the scene, so in the character's
    // frame it carries on at the planted foot's velocity, -(v + w x p), and
    // sheds it early in the swing: kick(s) = s (1 - s)^7, kick'(0) = 1.
    const double swing = (1.0 - gait.duty) * period;  // s
    const double kick = swing * s * std::pow(1.0 - s, 7.0);
    const glm::dvec3 spin(a.z * gait.turnRate, 0.0, -a.x * gait.turnRate);
    const glm::dvec3 carry = -(gait.velocity + spin) * kick;
    const Frame now = motionAt(gait, t);
    return {toScene(now, glm::mix(a, b, ease) + carry + glm::dvec3(0.0, raise, 0.0)),
            now.heading + headingA + (headingB - headingA) * ease - gait.turnRate * kick};
}

struct LegPose {
    glm::dquat thigh, shin, foot;  // local rotations
};

// Analytic two-bone IK: the ankle reaches `target.ankle` exactly (the gaits
// keep it within reach, README "Rig"), the knee bends towards the foot's
// heading, the foot is flat at the foot's heading.
LegPose solveLeg(const glm::dvec3& hipsPosition, const glm::dquat& hipsRotation,
                 const glm::dvec3& thighOffset, const FootTarget& target) {
    const glm::dvec3 hip = hipsPosition + hipsRotation * thighOffset;
    const glm::dvec3 reach = target.ankle - hip;
    const glm::dvec3 u = glm::normalize(reach);
    const double length = std::clamp(glm::length(reach), 1e-3, (kThigh + kShin) * (1.0 - 1e-9));
    const double cosA = (kThigh * kThigh + length * length - kShin * kShin) / (2.0 * kThigh * length);
    const double sinA = std::sqrt(std::max(0.0, 1.0 - cosA * cosA));
    const glm::dvec3 forward(std::sin(target.heading), 0.0, std::cos(target.heading));
    const glm::dvec3 pole = glm::normalize(forward - glm::dot(forward, u) * u);
    const glm::dvec3 thighDir = cosA * u + sinA * pole;
    const glm::dvec3 thighY = -thighDir;  // a bone's child sits along its local -Y
    const glm::dvec3 thighZ = cosA * pole - sinA * u;
    const glm::dvec3 hinge = glm::cross(thighY, thighZ);
    const glm::dvec3 knee = hip + kThigh * thighDir;
    const glm::dvec3 shinY = -glm::normalize(target.ankle - knee);
    const glm::dvec3 shinZ = glm::cross(hinge, shinY);
    const glm::dquat thigh = glm::quat_cast(glm::dmat3(hinge, thighY, thighZ));
    const glm::dquat shin = glm::quat_cast(glm::dmat3(hinge, shinY, shinZ));
    return {glm::inverse(hipsRotation) * thigh, glm::inverse(thigh) * shin,
            glm::inverse(shin) * yaw(target.heading)};
}

struct Pose {
    glm::dvec3 hipsTranslation{0.0};
    std::vector<glm::dquat> rotation;  // local, per rig joint
};

// The whole pose at time t (s) of the unscaled gait.
Pose poseAt(const Gait& gait, const Rig& rig, double t) {
    const double period = gait.duration / gait.cycles;
    // Sway and twist are zero at t = 0 (the hips start on the character's axis,
    // facing +Z, so the stride is the same measured at the hips or the axis) and
    // peak a quarter cycle later, near the left mid-stance. The bob peaks (walk)
    // or dips (run) at each mid-stance.
    const double cycle = 2.0 * kPi * t / period;
    const double midStance = 2.0 * kPi * 0.5 * gait.duty;
    const Frame travel = motionAt(gait, t);
    const glm::dvec3 hipsInFrame(gait.sway * std::sin(cycle),
                                 gait.hipHeight + gait.bob * std::cos(2.0 * (cycle - midStance)), 0.0);
    const double twist = gait.twist * std::sin(cycle);
    glm::dvec3 hipsPosition = toScene(travel, hipsInFrame);
    glm::dquat hipsRotation = yaw(travel.heading + twist);
    FootTarget left = footAt(gait, 1.0, 0.0, t);
    FootTarget right = footAt(gait, -1.0, 0.5, t);
    if (gait.inPlace) {
        hipsPosition = hipsInFrame;
        hipsRotation = yaw(twist);
        left = {toFrame(travel, left.ankle), left.heading - travel.heading};
        right = {toFrame(travel, right.ankle), right.heading - travel.heading};
    }

    Pose pose;
    pose.hipsTranslation = hipsPosition;
    pose.rotation.assign(rig.name.size(), glm::dquat(1.0, 0.0, 0.0, 0.0));
    pose.rotation[kHips] = hipsRotation;
    const double armCycle = std::cos(cycle);  // 1: left arm back, at the left touch-down
    const double clipCycle = 2.0 * kPi * t / gait.duration;
    pose.rotation[kSpine] = yaw(-0.5 * twist);
    pose.rotation[kChest] = yaw(-0.5 * twist) * pitch(gait.breath * std::sin(clipCycle));
    pose.rotation[kLeftUpperArm] = pitch(gait.armSwing * armCycle);
    pose.rotation[kRightUpperArm] = pitch(-gait.armSwing * armCycle);
    pose.rotation[kLeftForeArm] = pitch(-0.25 + 0.5 * gait.armSwing * armCycle);
    pose.rotation[kRightForeArm] = pitch(-0.25 - 0.5 * gait.armSwing * armCycle);
    const LegPose leftLeg = solveLeg(hipsPosition, hipsRotation, rig.offset[kLeftThigh], left);
    const LegPose rightLeg = solveLeg(hipsPosition, hipsRotation, rig.offset[kRightThigh], right);
    pose.rotation[kLeftThigh] = leftLeg.thigh;
    pose.rotation[kLeftShin] = leftLeg.shin;
    pose.rotation[kLeftFoot] = leftLeg.foot;
    pose.rotation[kRightThigh] = rightLeg.thigh;
    pose.rotation[kRightShin] = rightLeg.shin;
    pose.rotation[kRightFoot] = rightLeg.foot;
    for (std::size_t j = kBaseJointCount; j < rig.name.size(); ++j)
        pose.rotation[j] = pitch(0.15 + 0.1 * std::sin(clipCycle + 0.3 * static_cast<double>(j)));
    return pose;
}

// The joints with a LINEAR rotation channel, in channel order (after the hips'
// translation). Head is CUBICSPLINE and LeftIndex STEP, written separately.
std::vector<int> linearRotationJoints(const Rig& rig) {
    std::vector<int> joints{kHips,          kSpine,        kChest,     kLeftUpperArm, kLeftForeArm,
                            kRightUpperArm, kRightForeArm, kLeftThigh, kLeftShin,     kLeftFoot,
                            kRightThigh,    kRightShin,    kRightFoot};
    for (int j = kBaseJointCount; j < static_cast<int>(rig.name.size()); ++j) joints.push_back(j);
    return joints;
}

ClipTruth truthOf(const Gait& gait, const std::string& name, double durationScale) {
    ClipTruth truth;
    truth.name = name;
    truth.source = gait.source;
    truth.duration = gait.duration * durationScale;
    truth.stride = motionAt(gait, gait.duration).position;
    truth.strideLength = glm::length(truth.stride);
    truth.turn = gait.turnRate * gait.duration;
    truth.averageSpeed = truth.strideLength / truth.duration;
    truth.extractsRotation = std::abs(truth.turn) >= 10.0 * kPi / 180.0;
    if (truth.strideLength > 0.0) truth.travelDirection = truth.stride / truth.strideLength;
    // The toes move no vertex of the Body (a box is bound to its bone's parent): the feet carry the soles.
    if (truth.source == "footContact") truth.contactNodes = {"LeftFoot", "RightFoot"};
    return truth;
}

// ---- glTF document -----------------------------------------------------------

constexpr int kFloat = 5126;
constexpr int kUnsignedShort = 5123;
constexpr int kUnsignedInt = 5125;
constexpr int kArrayBuffer = 34962;
constexpr int kElementArrayBuffer = 34963;

// Accessors and buffer views over one growing binary buffer, one view per
// accessor, every view 4-byte aligned.
class Document {
public:
    Json accessors = Json::array();
    Json bufferViews = Json::array();
    std::vector<std::uint8_t> bin;

    int addFloats(std::span<const float> values, int width, const char* type, bool minMax, int target = 0) {
        Json accessor{{"bufferView", addView(values.data(), values.size_bytes(), target)},
                      {"componentType", kFloat},
                      {"count", values.size() / static_cast<std::size_t>(width)},
                      {"type", type}};
        if (minMax) {
            Json lo = Json::array(), hi = Json::array();
            for (int c = 0; c < width; ++c) {
                float a = values[static_cast<std::size_t>(c)], b = a;
                for (std::size_t i = static_cast<std::size_t>(c); i < values.size();
                     i += static_cast<std::size_t>(width)) {
                    a = std::min(a, values[i]);
                    b = std::max(b, values[i]);
                }
                lo.push_back(static_cast<double>(a));
                hi.push_back(static_cast<double>(b));
            }
            accessor["min"] = lo;
            accessor["max"] = hi;
        }
        accessors.push_back(std::move(accessor));
        return static_cast<int>(accessors.size()) - 1;
    }

    template <typename T>
    int addIntegers(std::span<const T> values, int componentType, const char* type, std::size_t count,
                    int target) {
        accessors.push_back({{"bufferView", addView(values.data(), values.size_bytes(), target)},
                             {"componentType", componentType},
                             {"count", count},
                             {"type", type}});
        return static_cast<int>(accessors.size()) - 1;
    }

private:
    int addView(const void* data, std::size_t bytes, int target) {
        Json view{{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes}};
        if (target != 0) view["target"] = target;
        const auto* begin = static_cast<const std::uint8_t*>(data);
        bin.insert(bin.end(), begin, begin + bytes);
        bin.resize((bin.size() + 3) / 4 * 4, 0);
        bufferViews.push_back(std::move(view));
        return static_cast<int>(bufferViews.size()) - 1;
    }
};

void appendQuat(std::vector<float>& out, const glm::dquat& q) {
    out.push_back(static_cast<float>(q.x));
    out.push_back(static_cast<float>(q.y));
    out.push_back(static_cast<float>(q.z));
    out.push_back(static_cast<float>(q.w));
}

// Keeps consecutive keys in one hemisphere, so any slerp takes the short way.
glm::dquat continuous(const glm::dquat& q, const glm::dquat* previous) {
    const double d = previous != nullptr ? glm::dot(q, *previous) : q.w;
    return d < 0.0 ? -q : q;
}

int nodeOf(int joint) {
    return joint + 1;
}

Json makeAnimation(Document& doc, const Rig& rig, const Gait& gait, const std::string& name, double scale) {
    const double duration = gait.duration * scale;
    const int keys =
        gait.keyStep * std::max(1, static_cast<int>(std::lround(duration * gait.keyRate / gait.keyStep)));
    const std::vector<int> rotated = linearRotationJoints(rig);

    std::vector<float> times, translations;
    std::vector<std::vector<float>> rotations(rotated.size());
    std::vector<glm::dquat> previous(rotated.size());
    for (int i = 0; i <= keys; ++i) {
        times.push_back(static_cast<float>(duration * i / keys));
        const Pose pose = poseAt(gait, rig, gait.duration * i / keys);
        translations.push_back(static_cast<float>(pose.hipsTranslation.x));
        translations.push_back(static_cast<float>(pose.hipsTranslation.y));
        translations.push_back(static_cast<float>(pose.hipsTranslation.z));
        for (std::size_t c = 0; c < rotated.size(); ++c) {
            const glm::dquat q = continuous(pose.rotation[rotated[c]], i == 0 ? nullptr : &previous[c]);
            appendQuat(rotations[c], q);
            previous[c] = q;
        }
    }

    Json samplers = Json::array(), channels = Json::array();
    const auto addChannel = [&](int input, int output, const char* interpolation, int joint,
                                const char* path) {
        samplers.push_back({{"input", input}, {"interpolation", interpolation}, {"output", output}});
        channels.push_back(
            {{"sampler", samplers.size() - 1}, {"target", {{"node", nodeOf(joint)}, {"path", path}}}});
    };
    const int input = doc.addFloats(times, 1, "SCALAR", true);
    addChannel(input, doc.addFloats(translations, 3, "VEC3", false), "LINEAR", kHips, "translation");
    for (std::size_t c = 0; c < rotated.size(); ++c)
        addChannel(input, doc.addFloats(rotations[c], 4, "VEC4", false), "LINEAR", rotated[c], "rotation");

    // Head nod, CUBICSPLINE on unevenly spaced keys: angle = nod sin(4 pi t / T),
    // tangents are its time derivative (per second of the scaled clip).
    std::vector<float> nodTimes, nodValues;
    for (double f : {0.0, 0.2, 0.5, 0.7, 1.0}) {
        const double w = 4.0 * kPi / gait.duration;
        const double angle = gait.nod * std::sin(w * f * gait.duration);
        const double rate = gait.nod * w * std::cos(w * f * gait.duration) / scale;
        const glm::dquat value = pitch(angle);
        const glm::dquat tangent(-0.5 * rate * std::sin(0.5 * angle), 0.5 * rate * std::cos(0.5 * angle), 0.0,
                                 0.0);
        nodTimes.push_back(static_cast<float>(f * duration));
        appendQuat(nodValues, tangent);
        appendQuat(nodValues, value);
        appendQuat(nodValues, tangent);
    }
    addChannel(doc.addFloats(nodTimes, 1, "SCALAR", true), doc.addFloats(nodValues, 4, "VEC4", false),
               "CUBICSPLINE", kHead, "rotation");

    // Index finger, STEP: curled 0.2 rad, 0.5 rad from the middle of the clip, back at its end.
    std::vector<float> stepTimes{0.0f, static_cast<float>(0.5 * duration), static_cast<float>(duration)};
    std::vector<float> stepValues;
    for (double angle : {0.2, 0.5, 0.2}) appendQuat(stepValues, pitch(angle));
    addChannel(doc.addFloats(stepTimes, 1, "SCALAR", true), doc.addFloats(stepValues, 4, "VEC4", false),
               "STEP", kLeftIndex, "rotation");

    return {{"name", name}, {"channels", std::move(channels)}, {"samplers", std::move(samplers)}};
}

// A stick figure skinned rigidly: one box per bone, from the parent joint to
// the joint, bound to the parent. Positions are the rest pose (the bind pose).
Json makeBodyMesh(Document& doc, const Rig& rig, const std::vector<glm::dvec3>& rest) {
    std::vector<float> positions;
    std::vector<std::uint16_t> joints;
    std::vector<float> weights;
    std::vector<std::uint32_t> indices;
    for (std::size_t j = 0; j < rig.name.size(); ++j) {
        if (rig.parent[j] < 0) continue;
        const glm::dvec3 a = rest[rig.parent[j]], b = rest[j];
        glm::dvec3 lo = glm::min(a, b) - glm::dvec3(kBoxRadius, 0.0, kBoxRadius);
        glm::dvec3 hi = glm::max(a, b) + glm::dvec3(kBoxRadius, 0.0, kBoxRadius);
        if (hi.y - lo.y < 2.0 * kBoxRadius) {
            lo.y -= kBoxRadius;
            hi.y += kBoxRadius;
        }
        const auto base = static_cast<std::uint32_t>(positions.size() / 3);
        for (int c = 0; c < 8; ++c) {
            positions.push_back(static_cast<float>((c & 1) != 0 ? hi.x : lo.x));
            positions.push_back(static_cast<float>((c & 2) != 0 ? hi.y : lo.y));
            positions.push_back(static_cast<float>((c & 4) != 0 ? hi.z : lo.z));
            joints.insert(joints.end(), {static_cast<std::uint16_t>(rig.parent[j]), 0, 0, 0});
            weights.insert(weights.end(), {1.0f, 0.0f, 0.0f, 0.0f});
        }
        // Faces as corner quads, counter-clockwise seen from outside.
        constexpr std::array<std::array<int, 4>, 6> kFaces{
            {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}}};
        for (const auto& q : kFaces)
            for (int k : {q[0], q[1], q[2], q[0], q[2], q[3]})
                indices.push_back(base + static_cast<std::uint32_t>(k));
    }
    const std::size_t vertexCount = positions.size() / 3;
    const int positionAccessor = doc.addFloats(positions, 3, "VEC3", true, kArrayBuffer);
    const int jointAccessor =
        doc.addIntegers<std::uint16_t>(joints, kUnsignedShort, "VEC4", vertexCount, kArrayBuffer);
    const int weightAccessor = doc.addFloats(weights, 4, "VEC4", false, kArrayBuffer);
    int indexAccessor = 0;
    if (vertexCount <= 65535) {
        std::vector<std::uint16_t> narrow(indices.begin(), indices.end());
        indexAccessor = doc.addIntegers<std::uint16_t>(narrow, kUnsignedShort, "SCALAR", narrow.size(),
                                                       kElementArrayBuffer);
    } else {
        indexAccessor = doc.addIntegers<std::uint32_t>(indices, kUnsignedInt, "SCALAR", indices.size(),
                                                       kElementArrayBuffer);
    }
    return {{"name", "Body"},
            {"primitives",
             {{{"attributes",
                {{"POSITION", positionAccessor}, {"JOINTS_0", jointAccessor}, {"WEIGHTS_0", weightAccessor}}},
               {"indices", indexAccessor}}}}};
}

// options.meshBytes of point positions (12 bytes each, rounded up) inside the
// character's rest bounds, from a fixed linear congruential sequence.
Json makeBenchMesh(Document& doc, std::uint64_t bytes) {
    const std::uint64_t count = (bytes + 11) / 12;
    std::vector<float> positions;
    positions.reserve(count * 3);
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    const auto next = [&state] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1), 53 bits
    };
    for (std::uint64_t i = 0; i < count; ++i) {
        positions.push_back(static_cast<float>(-0.25 + 0.5 * next()));
        positions.push_back(static_cast<float>(1.7 * next()));
        positions.push_back(static_cast<float>(-0.15 + 0.3 * next()));
    }
    return {{"name", "BenchMesh"},
            {"primitives",
             {{{"attributes", {{"POSITION", doc.addFloats(positions, 3, "VEC3", true, kArrayBuffer)}}},
               {"mode", 0}}}}};
}


std::string withBufferUri(const Biped& biped, const std::string& uri) {
    Json doc = Json::parse(biped.json);
    doc["buffers"][0]["uri"] = uri;
    return doc.dump(1) + "\n";
}

void appendU32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace

Biped makeBiped(const BipedOptions& options) {
    const Rig rig = makeRig(std::max(0, options.extraJoints));
    const std::vector<glm::dvec3> rest = restPositions(rig);
    const int jointCount = static_cast<int>(rig.name.size());
    Document doc;
    Biped biped;

    Json nodes = Json::array();
    nodes.push_back({{"name", "Armature"}, {"children", {nodeOf(kHips)}}});
    for (int j = 0; j < jointCount; ++j) {
        Json node{{"name", rig.name[j]},
                  {"translation", {rig.offset[j].x, rig.offset[j].y, rig.offset[j].z}}};
        Json children = Json::array();
        for (int c = j + 1; c < jointCount; ++c)
            if (rig.parent[c] == j) children.push_back(nodeOf(c));
        if (!children.empty()) node["children"] = std::move(children);
        nodes.push_back(std::move(node));
    }
    const int bodyNode = jointCount + 1;
    nodes.push_back({{"name", "Body"}, {"mesh", 0}, {"skin", 0}});
    Json sceneNodes{0, bodyNode};
    Json meshes = Json::array();
    meshes.push_back(makeBodyMesh(doc, rig, rest));
    if (options.meshBytes > 0) {
        meshes.push_back(makeBenchMesh(doc, options.meshBytes));
        nodes.push_back({{"name", "BenchMesh"}, {"mesh", 1}});
        sceneNodes.push_back(bodyNode + 1);
    }

    Json skinJoints = Json::array();
    std::vector<float> inverseBind;
    for (int j = 0; j < jointCount; ++j) {
        skinJoints.push_back(nodeOf(j));
        const std::array<double, 16> m{1, 0, 0, 0, 0,          1,          0,          0,
                                       0, 0, 1, 0, -rest[j].x, -rest[j].y, -rest[j].z, 1};
        for (double v : m) inverseBind.push_back(static_cast<float>(v));
    }
    Json skin{{"name", "Armature"},
              {"inverseBindMatrices", doc.addFloats(inverseBind, 16, "MAT4", false)},
              {"skeleton", nodeOf(kHips)},
              {"joints", std::move(skinJoints)}};

    Json animations = Json::array();
    const double scale = options.durationScale > 0.0 ? options.durationScale : 1.0;
    std::vector<NamedGait> gaits;
    if (options.runStudy) {
        gaits = runStudyGaits();
    } else if (options.gaitStudy) {
        gaits = gaitStudyGaits();
    } else {
        const int clipCount = options.clipCount > 0
                                  ? options.clipCount
                                  : std::max(1, options.clipCopies) * static_cast<int>(kGaits.size());
        for (int i = 0; i < clipCount; ++i) {
            const Gait& gait = kGaits[i % kGaits.size()];
            const int copy = i / static_cast<int>(kGaits.size());
            gaits.push_back({gait, copy == 0 ? gait.name : std::string(gait.name) + "." + std::to_string(copy)});
        }
    }
    for (const NamedGait& g : gaits) {
        animations.push_back(makeAnimation(doc, rig, g.gait, g.name, scale));
        biped.truth.push_back(truthOf(g.gait, g.name, scale));
    }

    Json gltf{{"asset", {{"version", "2.0"}, {"generator", "rootbake make_biped"}}},
              {"scene", 0},
              {"scenes", {{{"name", "Biped"}, {"nodes", std::move(sceneNodes)}}}},
              {"nodes", std::move(nodes)},
              {"meshes", std::move(meshes)},
              {"skins", {std::move(skin)}},
              {"animations", std::move(animations)},
              {"accessors", std::move(doc.accessors)},
              {"bufferViews", std::move(doc.bufferViews)},
              {"buffers", {{{"byteLength", doc.bin.size()}}}}};
    biped.json = gltf.dump();
    biped.bin = std::move(doc.bin);
    return biped;
}

std::vector<std::uint8_t> toGlb(const Biped& biped) {
    std::string json = biped.json;
    json.resize((json.size() + 3) / 4 * 4, ' ');
    std::vector<std::uint8_t> bin = biped.bin;
    bin.resize((bin.size() + 3) / 4 * 4, 0);
    const std::size_t length = 12 + 8 + json.size() + (bin.empty() ? 0 : 8 + bin.size());
    std::vector<std::uint8_t> out;
    out.reserve(length);
    appendU32(out, 0x46546C67u);  // "glTF"
    appendU32(out, 2);
    appendU32(out, static_cast<std::uint32_t>(length));
    appendU32(out, static_cast<std::uint32_t>(json.size()));
    appendU32(out, 0x4E4F534Au);  // "JSON"
    out.insert(out.end(), json.begin(), json.end());
    if (!bin.empty()) {
        appendU32(out, static_cast<std::uint32_t>(bin.size()));
        appendU32(out, 0x004E4942u);  // "BIN\0"
        out.insert(out.end(), bin.begin(), bin.end());
    }
    return out;
}

std::string toGltfWithDataUri(const Biped& biped) {
    return withBufferUri(biped, "data:application/octet-stream;base64," + io::encodeBase64(biped.bin));
}

std::string toGltfWithBin(const Biped& biped, const std::string& binFileName) {
    return withBufferUri(biped, binFileName);
}

}  // namespace rootbake::samples
