// The markers stage against closed-form truth: the procedural biped's foot-down and lift-off
// times and path (samples/README.md), and tracks built here that stop or turn back, whose
// distance left is worked out by hand.
#include "biped.h"
#include "gltf/asset.h"
#include "support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace rootbake;

namespace {

const gltf::Asset& biped() {
    static const gltf::Asset asset = [] {
        auto loaded = gltf::loadAssetFromMemory(samples::toGlb(samples::makeBiped()), "biped.glb", {});
        REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
        return std::move(loaded).value();
    }();
    return asset;
}

ClipAnalysis analyze(const std::string& name) {
    for (const Clip& clip : biped().clips)
        if (clip.name == name) {
            auto a = analyzeClip(biped().rig, clip, {});
            REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().message));
            return *a;
        }
    FAIL("no clip " << name);
    return {};
}

struct Expected {
    const char* contact;
    FootEventType type;
    double time;  // s, samples/README.md's planted intervals
};

std::string describe(const ClipAnalysis& a, const FootEvent& e) {
    return nodeLabel(biped().rig, a.planting[std::size_t(e.contact)].node) + " " + footEventName(e.type) +
           " at " + std::to_string(e.time);
}

// One event per expected one, in time order. A touch-down within one analysis sample of the
// closed form; a lift-off within `upTolerance` (the sole leaves the planted band a few samples
// after the heel: analyze_test's 0.06 s).
void checkEvents(const ClipAnalysis& a, const std::vector<Expected>& expected, double upTolerance) {
    const double sample = a.track.times[1] - a.track.times[0];
    std::string events;
    for (const FootEvent& e : a.markers.events) events += describe(a, e) + "; ";
    INFO("events: " << events);
    REQUIRE(a.markers.events.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const FootEvent& e = a.markers.events[i];
        CAPTURE(i);
        CHECK(nodeLabel(biped().rig, a.planting[std::size_t(e.contact)].node) == expected[i].contact);
        CHECK(e.type == expected[i].type);
        const double tolerance = e.type == FootEventType::Down ? sample + 1e-9 : upTolerance;
        CHECK(std::abs(e.time - expected[i].time) <= tolerance);
    }
}

// The distance equals the path v t (a straight line at constant speed), within 0.5% of the stride.
void checkStraightPath(const ClipAnalysis& a, double speed) {
    REQUIRE(a.markers.distance.size() == a.track.times.size());
    CHECK_FALSE(a.markers.stop.has_value());
    double worst = 0.0;
    for (std::size_t i = 0; i < a.track.times.size(); ++i)
        worst = std::max(worst, std::abs(a.markers.distance[i] - speed * a.track.times[i]));
    CHECK(worst <= 0.005 * speed * a.duration);
}

constexpr auto kDown = FootEventType::Down;
constexpr auto kUp = FootEventType::Up;

}  // namespace

TEST_CASE("markers: the in-place walk's footsteps are the closed form's, named by side") {
    // Left planted [0, 0.6], right [0, 0.1] and [0.5, 1.0]: right's stance runs through the
    // seam, so its down at 0 and up at 1 are one stance, not events.
    const ClipAnalysis a = analyze("walk_inplace");
    checkEvents(a,
                {{"LeftFoot", kDown, 0.0},
                 {"RightFoot", kUp, 0.1},
                 {"RightFoot", kDown, 0.5},
                 {"LeftFoot", kUp, 0.6}},
                0.06);
    REQUIRE(a.markers.sides.size() == 2);
    for (std::size_t c = 0; c < 2; ++c) {
        const std::string name = nodeLabel(biped().rig, a.planting[c].node);
        CHECK(a.markers.sides[c] == (name == "LeftFoot" ? Side::Left : Side::Right));  // left is +X
    }
    // Phase 0 at the left foot's down: one cycle per clip.
    REQUIRE(a.markers.phaseContact >= 0);
    CHECK(nodeLabel(biped().rig, a.planting[std::size_t(a.markers.phaseContact)].node) == "LeftFoot");
    REQUIRE(a.markers.phaseAnchors.size() == 1);
    CHECK(a.markers.phaseAnchors[0] == a.markers.events[0].time);
    checkStraightPath(a, 1.2);
}

TEST_CASE("markers: the run's footsteps, flights between") {
    // Left planted [0, 0.2667], right [0.4, 0.6667]: every stance starts and ends inside the clip.
    const ClipAnalysis a = analyze("run_inplace");
    checkEvents(a,
                {{"LeftFoot", kDown, 0.0},
                 {"LeftFoot", kUp, 0.8 / 3.0},
                 {"RightFoot", kDown, 0.4},
                 {"RightFoot", kUp, 0.4 + 0.8 / 3.0}},
                0.06);
    REQUIRE(a.markers.phaseAnchors.size() == 1);
    checkStraightPath(a, 3.0);
}

TEST_CASE("markers: clips without contacts have a distance curve only") {
    SUBCASE("the root walk travels 1.2 m/s along its path") {
        const ClipAnalysis a = analyze("walk");
        CHECK(a.markers.events.empty());
        CHECK(a.markers.phaseContact == -1);
        checkStraightPath(a, 1.2);
    }
    SUBCASE("the strafe travels 0.5 m/s sideways") {
        checkStraightPath(analyze("strafe"), 0.5);
    }
    SUBCASE("the turning walk's path is its arc, 1.2 m/s") {
        // The hips' track keeps the sway a turn does not snap away: 0.6% more path than the arc's.
        const ClipAnalysis a = analyze("turn_walk");
        CHECK(a.markers.distance.back() == doctest::Approx(1.2).epsilon(0.01));
        CHECK_FALSE(a.markers.stop.has_value());
    }
    SUBCASE("the idle stays at 0") {
        const ClipAnalysis a = analyze("idle");
        checkStraightPath(a, 0.0);
        CHECK(a.markers.events.empty());
    }
}

TEST_CASE("markers: a stop counts the distance left, negative, to where the track comes to rest") {
    // x(t) = v (t - t^2 / (2 s)) until s, then still: the distance left at t < s is
    // v (s - t)^2 / (2 s), and 0 after.
    const double v = 1.5, s = 0.75;
    MotionTrack track;
    for (int i = 0; i <= 60; ++i) {
        const double t = i / 60.0, x = t < s ? v * (t - t * t / (2 * s)) : v * s / 2;
        track.times.push_back(t);
        track.translation.push_back({0.0, 0.02 * std::sin(8 * t), x});  // the bob is not distance
        track.yaw.push_back(0.0);
    }
    const DistanceCurve curve = measureDistance(track, {0.0, 1.0, 0.0}, 0.01, 0.17);
    REQUIRE(curve.stop.has_value());
    CHECK(*curve.stop == doctest::Approx(s));
    for (std::size_t i = 0; i < track.times.size(); ++i) {
        const double t = track.times[i];
        const double left = t < s ? v * (s - t) * (s - t) / (2 * s) : 0.0;
        CAPTURE(t);
        CHECK(curve.distance[i] == doctest::Approx(-left).epsilon(1e-9));
        if (t < s) CHECK(curve.distance[i] < 0.0);
    }
}

TEST_CASE("markers: a start from standing counts up from the start, a pivot from the turn back") {
    SUBCASE("start") {
        MotionTrack track;  // x = t^2 / 2: standing at 0, then accelerating
        for (int i = 0; i <= 30; ++i) {
            const double t = i / 30.0;
            track.times.push_back(t);
            track.translation.push_back({t * t / 2, 0.0, 0.0});
        }
        const DistanceCurve curve = measureDistance(track, {0.0, 1.0, 0.0}, 0.01, 0.17);
        CHECK_FALSE(curve.stop.has_value());
        for (std::size_t i = 0; i < track.times.size(); ++i)
            CHECK(curve.distance[i] == doctest::Approx(track.translation[i].x));
    }
    SUBCASE("pivot") {
        // z = 1 - (t - 1)^2 over [0, 2]: forward, turning back at t = 1 (z = 1); the path from
        // the pivot is (t - 1)^2, negative before it. Sampled every 0.1 s, 1 on a sample.
        MotionTrack track;
        for (int i = 0; i <= 20; ++i) {
            const double t = i / 10.0;
            track.times.push_back(t);
            track.translation.push_back({0.0, 0.0, 1 - (t - 1) * (t - 1)});
        }
        const DistanceCurve curve = measureDistance(track, {0.0, 1.0, 0.0}, 0.01, 0.17);
        REQUIRE(curve.stop.has_value());
        CHECK(*curve.stop == doctest::Approx(1.0));
        for (std::size_t i = 0; i < track.times.size(); ++i) {
            const double t = track.times[i];
            CAPTURE(t);
            CHECK(curve.distance[i] == doctest::Approx((t < 1 ? -1 : 1) * (t - 1) * (t - 1)).epsilon(1e-9));
        }
    }
}

TEST_CASE("markers: on the corpus rigs the sides are the ones their contacts' names say") {
    // The names are the independent truth (checked by hand: each rig names its feet by side).
    // Mannequiny's rest pose is not standing (one ball of a foot 19 cm above the other, 13 cm
    // further forward), so its feet are on no side; the Godot platformer player's soles point +Z, which makes
    // its "l-foot" the right foot, as the convention of +Z would too: its names disagree.
    ROOTBAKE_REQUIRE_SHARED(shared);
    const std::map<std::string, std::map<std::string, Side>> expected = {
        {"gdquest-mannequiny/mannequiny-0.3.0.glb", {{"ball.l", Side::None}, {"ball.r", Side::None}}},
        {"godot-demo-platformer-player/player.glb", {{"l-foot", Side::Right}, {"r-foot", Side::Left}}},
        {"khronos-fox/Fox.glb",
         {{"b_LeftFoot02_018", Side::BackLeft},
          {"b_RightFoot02_022", Side::BackRight},
          {"b_LeftHand_011", Side::FrontLeft},
          {"b_RightHand_08", Side::FrontRight}}},
        {"mixamo-mixed-jsa4000/master-character.glb",
         {{"LeftToeBase", Side::Left}, {"RightToeBase", Side::Right}}},
        {"raylib-greenman/greenman.glb", {{"leg_L", Side::Left}, {"leg_R", Side::Right}}},
        {"raylib-robot/robot.glb", {{"Foot.L", Side::Left}, {"Foot.R", Side::Right}}},
        {"threejs-robotexpressive/RobotExpressive.glb",
         {{"LowerLeg.L", Side::Left}, {"LowerLeg.R", Side::Right}}},
        {"threejs-soldier/Soldier.glb",  // faces -Z: its soles say so
         {{"mixamorig:LeftToeBase", Side::Left}, {"mixamorig:RightToeBase", Side::Right}}},
        {"threejs-xbot/Xbot.glb",
         {{"mixamorig:LeftToeBase", Side::Left}, {"mixamorig:RightToeBase", Side::Right}}},
    };
    for (const auto& [file, sides] : expected) {
        CAPTURE(file);
        auto asset = gltf::loadAsset(shared / "corpus" / file);
        REQUIRE(asset.ok());
        std::map<std::string, Side> found;
        for (const Clip& clip : asset->clips) {
            auto a = analyzeClip(asset->rig, clip, {});
            if (!a) continue;
            for (const FootEvent& e : a->markers.events)
                found[nodeLabel(asset->rig, a->planting[std::size_t(e.contact)].node)] =
                    a->markers.sides[std::size_t(e.contact)];
        }
        CHECK(found == sides);
    }
}
