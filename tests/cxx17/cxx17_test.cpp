// runtime.h and sidecar_loader.h built as C++17, as an engine on C++17 builds them: the usage
// snippets of both headers compiled exactly as written and run on a walk whose motion is known in
// closed form: S(t) = (2t, 0, 0) up to t = 0.5, then (1 + 4(t - 0.5), 0, 2(t - 0.5)) to t = 1, so
// S(0.25) = (0.5, 0, 0) and one stride is S(1) = (3, 0, 1).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <rootbake/runtime.h>
#include <rootbake/sidecar_loader.h>

#include <fstream>
#include <string>
#include <vector>

#if __cplusplus != 201703L
#error "this test is the C++17 build of the engine-facing headers"
#endif

namespace {

// What the snippets call on the engine's side.
struct EngineNode {
    rootbake::runtime::NodeTransform transform;
};
int fail(const std::string&) {
    return 1;
}
std::vector<double> posesEvaluated;
void evaluatePose(double localSeconds) {
    posesEvaluated.push_back(localSeconds);
}
bool ownsTransform(const EngineNode&) {
    return true;
}
void warn(const char*) {}

// runtime.h's usage, with the engine's arrays and frames as arguments.
int runtimeUsage(const std::vector<double>& times, const std::vector<double>& xyz, const std::vector<double>& yaw,
                 const std::vector<double>& frameTimes, EngineNode& node) {
#include "runtime_usage.inc"
    return 0;
}

// sidecar_loader.h's usage; `track` is handed out to be played.
rootbake::Result<rootbake::Sidecar> loaded = rootbake::Error{"not loaded"};
int loaderUsage(rootbake::runtime::Track& played) {
#include "sidecar_loader_usage.inc"
    played = track;
    loaded = std::move(sidecar);  // moving the clips keeps the spans valid
    return 0;
}

const char* kWalkSidecar = R"json({
  "schema": "rootbake.sidecar/1", "generator": "rootbake test", "input": "walk.glb",
  "inputSha256": "0000000000000000000000000000000000000000000000000000000000000000",
  "output": "walk.out.glb", "upAxis": [0, 1, 0], "units": "metres (glTF scene units)",
  "clips": [{
    "name": "walk", "animation": 0, "source": "root", "rootNode": {"name": "Hips", "index": 1},
    "characterNode": null, "contactNodes": [], "from": 0, "to": 1, "duration": 1,
    "characterHeight": 1.7, "travelDirection": [0.9486832980505138, 0, 0.31622776601683794],
    "stride": [3, 0, 1], "strideLength": 3.1622776601683795, "turn": 0, "extractsRotation": false,
    "averageSpeed": 3.1622776601683795, "averageAngularSpeed": 0,
    "track": {"sampleRate": 2, "times": [0, 0.5, 1], "translation": [[0, 0, 0], [1, 0, 0], [3, 0, 1]],
              "yaw": [0, 0, 0]},
    "contacts": [], "loop": {"positionError": 0}, "reason": "", "warnings": []
  }]
})json";

TEST_CASE("C++17: runtime.h's usage snippet moves the node by 1.25 s of the walk") {
    const std::vector<double> times{0.0, 0.5, 1.0}, xyz{0, 0, 0, 1, 0, 0, 3, 0, 1}, yaw{0, 0, 0};
    EngineNode node;
    posesEvaluated.clear();
    // Five frames of 0.25 s: one whole loop, (3, 0, 1), and S(0.25) = (0.5, 0, 0).
    REQUIRE(runtimeUsage(times, xyz, yaw, {0.25, 0.25, 0.25, 0.25, 0.25}, node) == 0);
    CHECK(node.transform.translation.x == doctest::Approx(3.5));
    CHECK(node.transform.translation.y == doctest::Approx(0.0));
    CHECK(node.transform.translation.z == doctest::Approx(1.0));
    REQUIRE(posesEvaluated.size() == 5);
    CHECK(posesEvaluated.back() == doctest::Approx(0.25));
    // A track that breaks a rule is refused before anything plays.
    CHECK(runtimeUsage({0.0, 0.0}, {}, {}, {0.25}, node) == 1);
}

TEST_CASE("C++17: sidecar_loader.h's usage snippet reads a sidecar into a Track that plays it") {
    {
        std::ofstream out("walk.rootmotion.json", std::ios::binary);
        out << kWalkSidecar;
    }
    rootbake::runtime::Track track;
    REQUIRE(loaderUsage(track) == 0);
    REQUIRE(loaded.ok());
    CHECK(loaded->clips[0].name == "walk");
    REQUIRE(rootbake::runtime::validateTrack(track).empty());
    REQUIRE(track.translation.size() == 9);  // [[x, y, z], ...] flattened
    rootbake::runtime::Playback playback = rootbake::runtime::play(track, {});
    const rootbake::runtime::RootDelta delta = rootbake::runtime::advance(playback, track, 2.25);
    // Two strides and S(0.25): (6.5, 0, 2).
    CHECK(delta.translation.x == doctest::Approx(6.5));
    CHECK(delta.translation.z == doctest::Approx(2.0));

    const auto missing = rootbake::loadSidecarFile("no such.rootmotion.json");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "no such.rootmotion.json: cannot open");
}

// The same walk as a sidecar/2: the left foot down at 0.25 s (phase 0), the right at 0.75 s; the
// distance along the path S(t) is 2t to 0.5 s, then 1 + sqrt(20) (t - 0.5).
const char* kWalkSidecar2 = R"json({
  "schema": "rootbake.sidecar/2", "generator": "rootbake test", "input": "walk.glb",
  "inputSha256": "0000000000000000000000000000000000000000000000000000000000000000",
  "output": "walk.out.glb", "upAxis": [0, 1, 0], "units": "metres (glTF scene units)",
  "clips": [{
    "name": "walk", "animation": 0, "source": "root", "rootNode": {"name": "Hips", "index": 1},
    "characterNode": null, "contactNodes": [], "from": 0, "to": 1, "duration": 1,
    "characterHeight": 1.7, "travelDirection": [0.9486832980505138, 0, 0.31622776601683794],
    "stride": [3, 0, 1], "strideLength": 3.1622776601683795, "turn": 0, "extractsRotation": false,
    "averageSpeed": 3.1622776601683795, "averageAngularSpeed": 0,
    "track": {"sampleRate": 2, "times": [0, 0.5, 1], "translation": [[0, 0, 0], [1, 0, 0], [3, 0, 1]],
              "yaw": [0, 0, 0], "distance": [0, 1, 3.23606797749979]},
    "contacts": [],
    "markers": {"events": [
        {"time": 0.25, "type": "down", "side": "left", "contact": {"name": "LeftFoot", "index": 5}},
        {"time": 0.75, "type": "down", "side": "right", "contact": {"name": "RightFoot", "index": 9}}],
      "phase": {"contact": {"name": "LeftFoot", "index": 5}, "anchors": [0.25]}, "stop": null},
    "loop": {"positionError": 0}, "reason": "", "warnings": []
  }]
})json";

TEST_CASE("C++17: a sidecar/2's markers, the phase and a follower synchronised by them") {
    namespace rt = rootbake::runtime;
    auto sidecar = rootbake::parseSidecar(kWalkSidecar2, "walk.rootmotion.json");
    REQUIRE(sidecar.ok());
    const rootbake::SidecarClip& walk = sidecar->clips[0];
    REQUIRE(walk.markers.events.size() == 2);
    CHECK(walk.markers.events[1].side == "right");
    CHECK(walk.distance.size() == 3);
    const std::vector<double> events = walk.markers.eventTimes();
    const rt::Track track = walk.track();
    rt::Playback leader = rt::play(track, {});
    // 1.5 s from the start: left (0.25), right (0.75), left again (1.25).
    std::vector<std::size_t> order;
    rt::markersPassed(leader, events, 0.0, 1.5, [&](std::size_t i) { order.push_back(i); });
    CHECK(order == std::vector<std::size_t>{0, 1, 0});
    CHECK(rt::phaseAt(walk.markers.phaseAnchors, walk.duration, 0.75) == doctest::Approx(0.5));
    CHECK(rt::timeAtPhase(walk.markers.phaseAnchors, walk.duration, 0.5) == doctest::Approx(0.75));
    // The walk follows itself by markers: the same phase, so the same local time.
    rt::MarkerFollower follower = rt::playMarkerFollower(track, walk.markers.phaseAnchors, leader,
                                                         walk.markers.phaseAnchors);
    rt::advance(leader, track, 0.6);
    rt::followMarkers(follower, track, walk.markers.phaseAnchors, leader, walk.markers.phaseAnchors);
    CHECK(rt::localTime(follower.playback) == doctest::Approx(0.6));
}

}  // namespace
