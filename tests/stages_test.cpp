// The analysis stages (src/core/stages.h), each on a closed-form rig: a hips node over
// two legs of two joints, with clips whose answers follow from their keys.
#include "core/stages.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

using namespace rootbake;
using namespace rootbake::core;

namespace {

// Character (0) > Hips (1, 1 m up) > LeftLeg (2) > LeftFoot (3, on the ground), and
// RightLeg (4) > RightFoot (5).
Rig stickRig() {
    Rig rig;
    auto add = [&](int parent, const char* name, glm::dvec3 t) {
        rig.parent.push_back(parent);
        Transform rest;
        rest.translation = t;
        rig.rest.push_back(rest);
        rig.name.push_back(name);
        rig.gltfIndex.push_back(rig.size() - 1);
        rig.rigIndexOfGltf.push_back(rig.size() - 1);
        rig.hasMesh.push_back(0);
    };
    add(-1, "Character", {0, 0, 0});
    add(0, "Hips", {0, 1, 0});
    add(1, "LeftLeg", {0.1, -0.5, 0});
    add(2, "LeftFoot", {0, -0.5, 0});
    add(1, "RightLeg", {-0.1, -0.5, 0});
    add(4, "RightFoot", {0, -0.5, 0});
    return rig;
}

Channel linear(int node, Path path, std::vector<float> times, std::vector<float> values) {
    Channel c;
    c.node = node;
    c.path = path;
    c.times = std::move(times);
    c.values = std::move(values);
    return c;
}

// Rotation keys about +Y from 0 to `degrees`.
Channel yawKeys(int node, double degrees, float end) {
    const float half = float(degrees * std::numbers::pi / 360.0);
    return linear(node, Path::Rotation, {0.0f, end}, {0, 0, 0, 1, 0, std::sin(half), 0, std::cos(half)});
}

Clip clipOf(std::vector<Channel> channels) {
    Clip clip;
    clip.channels = std::move(channels);
    clip.end = 0.0;
    for (const Channel& c : clip.channels) clip.end = std::max(clip.end, double(c.times.back()));
    return clip;
}

// The hips travel 2 m along +Z (and 0.3 m along +X) over 1 s; both legs swing.
Clip travellingClip() {
    return clipOf({linear(1, Path::Translation, {0.0f, 1.0f}, {0, 1, 0, 0.3f, 1, 2}),
                   yawKeys(2, 0.0, 1.0f), yawKeys(4, 0.0, 1.0f)});
}

Frames sample(const Rig& rig, const Clip& clip, int samples, int root) {
    return sampleFrames(rig, clip, 0.0, clip.end, samples, -1, root);
}

}  // namespace

TEST_CASE("stages: the root is the position-animated node with the most animated below it, or the one named") {
    const Rig rig = stickRig();
    const Clip clip = travellingClip();
    auto found = chooseRoot(rig, clip, Options{}, animatedNodes(rig, clip));
    REQUIRE(found.ok());
    CHECK(found->root == 1);
    CHECK(found->reason == "root: Hips - position-animated, 2 animated descendants");

    Options named;
    named.rootNode = parseNodeRef("nodes[2]");
    auto given = chooseRoot(rig, clip, named, animatedNodes(rig, clip));
    REQUIRE(given.ok());
    CHECK(given->root == 2);
    CHECK(given->reason == "root: LeftLeg (given)");

    named.rootNode = parseNodeRef("Tail");
    CHECK_FALSE(chooseRoot(rig, clip, named, animatedNodes(rig, clip)).ok());
}

TEST_CASE("stages: the character node must be an unanimated ancestor of the root") {
    const Rig rig = stickRig();
    const Clip clip = travellingClip();
    Options options;
    CHECK(*chooseCharacter(rig, clip, options, 1) == -1);
    options.characterNode = parseNodeRef("Character");
    CHECK(*chooseCharacter(rig, clip, options, 1) == 0);
    options.characterNode = parseNodeRef("LeftFoot");  // not an ancestor of the hips
    CHECK_FALSE(chooseCharacter(rig, clip, options, 1).ok());
    options.characterNode = parseNodeRef("Hips");  // animated: it is to receive the motion
    CHECK_FALSE(chooseCharacter(rig, clip, options, 3).ok());
}

TEST_CASE("stages: the height is the vertical extent of the root and the joints under it at the first frame") {
    const Rig rig = stickRig();
    const Clip clip = travellingClip();
    const Frames frames = sample(rig, clip, 4, 1);
    CHECK(measureHeight(rig, frames, 1, {0, 1, 0}) == doctest::Approx(1.0));  // hips at 1 m, feet at 0
    CHECK(measureHeight(rig, frames, 1, {1, 0, 0}) == doctest::Approx(0.2));  // the feet 0.1 m either side
}

TEST_CASE("stages: the turn is the root's yaw, extracted from minimumTurn on or when asked") {
    const Rig rig = stickRig();
    Options options;
    const Clip quarter = clipOf({linear(1, Path::Translation, {0.0f, 1.0f}, {0, 1, 0, 0, 1, 0}), yawKeys(1, 90.0, 1.0f)});
    Frames frames = sample(rig, quarter, 10, 1);
    Turn turn = measureTurn({rig, quarter, options, frames, 1, -1, {0, 1, 0}, 1.0, 1.0});
    REQUIRE(turn.yaw.size() == 11);
    CHECK(turn.yaw.back() == doctest::Approx(std::numbers::pi / 2));
    CHECK(turn.yaw[5] == doctest::Approx(std::numbers::pi / 4));
    CHECK(turn.reason == "turn 90 deg extracted (minimum 10)");

    const Clip slight = clipOf({linear(1, Path::Translation, {0.0f, 1.0f}, {0, 1, 0, 0, 1, 0}), yawKeys(1, 5.0, 1.0f)});
    frames = sample(rig, slight, 10, 1);
    CHECK(measureTurn({rig, slight, options, frames, 1, -1, {0, 1, 0}, 1.0, 1.0}).yaw.empty());
    options.extractRotation = Toggle::On;
    turn = measureTurn({rig, slight, options, frames, 1, -1, {0, 1, 0}, 1.0, 1.0});
    REQUIRE(!turn.yaw.empty());
    CHECK(turn.yaw.back() == doctest::Approx(5.0 * std::numbers::pi / 180));
}

TEST_CASE("stages: the root's travel is its horizontal net move, along the direction, snapped when asked") {
    const Rig rig = stickRig();
    const Clip clip = travellingClip();
    const Frames frames = sample(rig, clip, 10, 1);
    Options options;
    const StageInput in{rig, clip, options, frames, 1, -1, {0, 1, 0}, 1.0, 1.0};
    const double net = std::hypot(0.3, 2.0);

    TravelReading reading = measureRootTravel(in, nullptr, 0.1, -1.0, false);
    REQUIRE(reading.travel);
    CHECK(reading.travel->direction.x == doctest::Approx(0.3 / net));
    CHECK(reading.travel->direction.z == doctest::Approx(2.0 / net));
    CHECK(glm::length(reading.travel->translation.back()) == doctest::Approx(net));
    CHECK(glm::length(reading.travel->translation[5]) == doctest::Approx(net / 2));
    CHECK(reading.reason == "source root: net travel 2.022 >= minimum 0.1");

    // Snapped onto +Z (8.5 degrees off it): the 0.3 m sideways is the drift taken out evenly.
    options.directionSnapAngle = 10.0 * std::numbers::pi / 180;
    reading = measureRootTravel(in, nullptr, 0.1, -1.0, false);
    REQUIRE(reading.travel);
    CHECK(reading.travel->direction == glm::dvec3(0, 0, 1));
    CHECK(reading.travel->lateralDrift.x == doctest::Approx(0.3));
    CHECK(reading.travel->translation.back().z == doctest::Approx(2.0));

    reading = measureRootTravel(in, nullptr, 2.5, -1.0, false);  // more than it travels
    CHECK_FALSE(reading.travel);
    CHECK(reading.reason == "root travel 2.022 < minimum 2.5");
    CHECK(measureRootTravel(in, nullptr, 2.5, -1.0, true).travel);  // forced

    // Feet that move less than half as far as the root (1.0 of 2.022): a shift of weight, no
    // travel; half as far or more, travel.
    reading = measureRootTravel(in, nullptr, 0.1, 1.0, false);
    CHECK_FALSE(reading.travel);
    CHECK(reading.reason == "root travel 2.022, but its feet move 1: the body shifts over its support (a sit, a lean, "
                            "a fall), it does not travel");
    CHECK(measureRootTravel(in, nullptr, 0.1, 1.02, false).travel);
    CHECK(measureRootTravel(in, nullptr, 0.1, 1.0, true).travel);  // forced
}

TEST_CASE("stages: feet planted on a ground that moves back give the ground's travel") {
    const Rig rig = stickRig();
    // In place: the hips stay; both feet slide back together, 1.2 m in 1 s (double support
    // all the clip), as planted feet do under a body moving forwards.
    const Clip clip = clipOf({linear(1, Path::Translation, {0.0f, 1.0f}, {0, 1, 0, 0, 1, 0}),
                              linear(3, Path::Translation, {0.0f, 1.0f}, {0, -0.5f, 0.6f, 0, -0.5f, -0.6f}),
                              linear(5, Path::Translation, {0.0f, 1.0f}, {0, -0.5f, 0.6f, 0, -0.5f, -0.6f})});
    const Frames frames = sample(rig, clip, 60, 1);
    for (const ContactRule rule : {ContactRule::Stance, ContactRule::Babylon}) {
        CAPTURE(contactRuleName(rule));
        Options options;
        options.contactRule = rule;
        auto reading = measureContactTravel({rig, clip, options, frames, 1, -1, {0, 1, 0}, 1.0, 1.0}, nullptr, 0.1,
                                            false);
        REQUIRE(reading.ok());
        REQUIRE(reading->reading.travel);
        CHECK(reading->contacts == std::vector<int>{3, 5});
        CHECK(reading->reading.travel->direction == glm::dvec3(0, 0, 1));
        CHECK(reading->reading.travel->translation.back().z == doctest::Approx(1.2));
        CHECK(reading->reading.travel->translation[30].z == doctest::Approx(0.6));
    }
    Options named;
    named.contactNodes = {parseNodeRef("LeftFoot"), parseNodeRef("Tail")};
    CHECK_FALSE(measureContactTravel({rig, clip, named, frames, 1, -1, {0, 1, 0}, 1.0, 1.0}, nullptr, 0.1, false).ok());
}

TEST_CASE("stages: a root track lands on every key of a 30 fps root") {
    Channel keys = linear(1, Path::Translation, {}, {});
    for (int k = 0; k <= 24; ++k) keys.times.push_back(float(k) / 30.0f);  // 0.8 s
    keys.values.assign(keys.times.size() * 3, 0.0f);
    const NodeChannels root{&keys, nullptr};
    CHECK(keyAlignedSampleCount(root, 0.0, 0.8, 60.0, 49, 1e9) == 48);  // 2 samples a key
    CHECK(keyAlignedSampleCount(root, 0.0, 0.8, 30.0, 25, 1e9) == 24);
    keys.times[7] += 0.01f;  // off the grid: Babylon's count
    CHECK(keyAlignedSampleCount(root, 0.0, 0.8, 60.0, 49, 1e9) == 49);
}

TEST_CASE(
    "frames: chains posed alone, and refined frames copied from a coarser pass, are the frames posed afresh, "
    "to the bit") {
    const Rig rig = stickRig();
    // Legs swinging on several keys, hips rising and travelling, over a span whose times round.
    const float third = float(std::sin(0.2)), big = float(std::cos(0.2));
    Clip clip = clipOf({linear(1, Path::Translation, {0.1f, 0.7f, 1.37f}, {0, 1, 0, 0.31f, 1.07f, 1.3f, 0.2f, 1, 2.9f}),
                        linear(2, Path::Rotation, {0.1f, 0.5f, 1.37f}, {0, 0, 0, 1, third, 0, 0, big, 0, 0, 0, 1}),
                        linear(4, Path::Rotation, {0.1f, 0.9f, 1.37f}, {third, 0, 0, big, 0, 0, 0, 1, -third, 0, 0, big})});
    clip.start = 0.1;
    for (int samples : {7, 60, 83}) {
        const Frames whole = sampleFrames(rig, clip, 0.1 / 3.0, 1.37, samples, 0, 1);
        const Frames rootOnly = sampleChainFrames(rig, clip, 0.1 / 3.0, 1.37, samples, 0, 1, {});
        const Frames leftLeg = sampleChainFrames(rig, clip, 0.1 / 3.0, 1.37, samples, 0, 1, {3});
        for (int n = 0; n < rig.size(); ++n) {
            REQUIRE(whole.posed(n));
            REQUIRE(rootOnly.posed(n) == (n <= 1));
            REQUIRE(leftLeg.posed(n) == (n <= 3));
        }
        REQUIRE(leftLeg.position.size() == size_t(leftLeg.count) * 5);  // 4 posed nodes and the zero column
        REQUIRE(whole.position.size() == size_t(whole.count) * 6);      // every node posed: no zero column
        // A chain posed alone has the whole pass's numbers at its nodes, and zeros elsewhere.
        for (int i = 0; i < whole.count; ++i)
            for (int n = 0; n < rig.size(); ++n)
                CHECK(leftLeg.at(i, n) == (n <= 3 ? whole.at(i, n) : glm::dvec3(0.0)));
        CHECK(leftLeg.rootRotation == whole.rootRotation);
        for (int factor : {2, 3, 4, 8}) {
            const Frames copied = refineFrames(rig, clip, whole, factor, 0, 1, {3, 5});
            const Frames posed = refineFrames(rig, clip, rootOnly, factor, 0, 1, {3, 5});  // nothing to copy
            const Frames fromChain = refineFrames(rig, clip, leftLeg, factor, 0, 1, {3});  // copies its chain
            CHECK_MESSAGE(copied.position == posed.position, "samples " << samples << ", factor " << factor);
            CHECK(copied.rootRotation == posed.rootRotation);
            CHECK(copied.count == samples * factor + 1);
            for (int i = 0; i < copied.count; ++i) CHECK(fromChain.at(i, 3) == posed.at(i, 3));
            CHECK(fromChain.at(copied.count - 1, 5) == glm::dvec3(0.0));
            // A power-of-two factor's every factor-th time is the coarse time to the bit (3's is not).
            if (factor != 3) CHECK(copied.at(factor, 3) == whole.at(1, 3));
        }
    }
}
