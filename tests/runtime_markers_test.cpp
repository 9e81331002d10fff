// runtime.h's markers and phase against closed form: marker times and tracks built here, every
// expected order, phase and distance worked out by hand in the comments.
#include <doctest/doctest.h>

#include <rootbake/runtime.h>

#include <cmath>
#include <cstddef>
#include <vector>

namespace rt = rootbake::runtime;

namespace {

// A straight track of `duration` s at `speed` along +Z: S(t) = (0, 0, speed t).
struct Straight {
    Straight(double duration, double speed)
        : times{0.0, duration}, translation{0, 0, 0, 0, 0, speed * duration} {}
    Straight(const Straight&) = delete;
    std::vector<double> times;
    std::vector<double> translation;
    rt::Track track{.times = times, .translation = translation};
};

// The markers passed from clip time a to b, in the order passed.
std::vector<std::size_t> passed(const rt::Playback& playback, const std::vector<double>& times, double a,
                                double b) {
    std::vector<std::size_t> order;
    const std::size_t count =
        rt::markersPassed(playback, times, a, b, [&](std::size_t i) { order.push_back(i); });
    CHECK(count == order.size());
    return order;
}

using Order = std::vector<std::size_t>;

}  // namespace

TEST_CASE("runtime markers: the markers passed between two times, through loops, both ways") {
    const Straight walk(1.0, 1.0);
    const std::vector<double> times{0.1, 0.6};  // e.g. left down, right down
    SUBCASE("looping forward: (a, b], each seam wraps to the first marker again") {
        const rt::Playback loop = rt::play(walk.track, {});
        CHECK(passed(loop, times, 0.0, 0.05).empty());
        CHECK(passed(loop, times, 0.05, 0.1) == Order{0});  // a marker at b is passed
        CHECK(passed(loop, times, 0.1, 0.6) == Order{1});   // one at a was passed before
        CHECK(passed(loop, times, 0.05, 1.15) == Order{0, 1, 0});
        CHECK(passed(loop, times, 0.0, 3.0).size() == 6);  // three loops
    }
    SUBCASE("looping backward: [b, a), the later marker first") {
        const rt::Playback loop = rt::play(walk.track, {.mode = rt::LoopMode::Loop, .speed = -1.0});
        CHECK(passed(loop, times, 0.0, -0.5) == Order{1});  // local 0.6 of the loop before, at -0.4
        CHECK(passed(loop, times, 0.7, -0.5) == Order{1, 0, 1});
    }
    SUBCASE("ping-pong: up to the turn, then back down") {
        const rt::Playback pingPong = rt::play(walk.track, {.mode = rt::LoopMode::PingPong});
        // Local time goes 0.5 -> 1 -> 0: past 0.6 up (clip 0.6), 0.6 down (1.4), 0.1 down (1.9).
        CHECK(passed(pingPong, times, 0.5, 2.0) == Order{1, 1, 0});
    }
    SUBCASE("once: clamped at the end") {
        const rt::Playback once = rt::play(walk.track, {.mode = rt::LoopMode::Once});
        CHECK(passed(once, times, 0.0, 5.0) == Order{0, 1});
    }
    SUBCASE("a range: markers outside it are never passed") {
        const rt::Playback range = rt::play(walk.track, {.from = 0.2, .to = 0.8});
        // Clip time 0 is local 0.2: 0.6 is at clip time 0.4 of every 0.6 s loop.
        CHECK(passed(range, times, 0.0, 1.2) == Order{1, 1});
    }
    SUBCASE("a marker at 0 is passed at every seam, not at the start") {
        const rt::Playback loop = rt::play(walk.track, {});
        CHECK(passed(loop, {0.0}, 0.0, 2.0) == Order{0, 0});
    }
}

TEST_CASE("runtime markers: phase at a time and time at a phase") {
    SUBCASE("one cycle per loop, starting at 0.25 s of 1 s") {
        const std::vector<double> anchors{0.25};
        CHECK(rt::validatePhaseAnchors(anchors, 1.0).empty());
        CHECK(rt::phaseAt(anchors, 1.0, 0.25) == doctest::Approx(0.0));
        CHECK(rt::phaseAt(anchors, 1.0, 0.75) == doctest::Approx(0.5));
        CHECK(rt::phaseAt(anchors, 1.0, 0.1) == doctest::Approx(0.85));  // the cycle of the loop before
        CHECK(rt::timeAtPhase(anchors, 1.0, 0.5) == doctest::Approx(0.75));
        CHECK(rt::timeAtPhase(anchors, 1.0, 0.9) == doctest::Approx(0.15));  // 1.15 wraps
        CHECK(rt::cycleProgress(anchors, 1.0, 2.5) == doctest::Approx(2.25));
        CHECK(rt::timeAtCycleProgress(anchors, 1.0, 2.25) == doctest::Approx(2.5));
    }
    SUBCASE("two uneven cycles per loop: [0, 0.4) and [0.4, 1)") {
        const std::vector<double> anchors{0.0, 0.4};
        CHECK(rt::phaseAt(anchors, 1.0, 0.2) == doctest::Approx(0.5));
        CHECK(rt::phaseAt(anchors, 1.0, 0.7) == doctest::Approx(0.5));
        CHECK(rt::phaseAt(anchors, 1.0, 0.55) == doctest::Approx(0.25));
        CHECK(rt::timeAtPhase(anchors, 1.0, 0.5, 0) == doctest::Approx(0.2));
        CHECK(rt::timeAtPhase(anchors, 1.0, 0.5, 1) == doctest::Approx(0.7));
        CHECK(rt::timeAtPhase(anchors, 1.0, 0.5, 2) == doctest::Approx(0.2));  // cycles wrap
        CHECK(rt::cycleProgress(anchors, 1.0, 1.7) == doctest::Approx(3.5));
    }
    SUBCASE("anchors that carry no phase are refused in one line") {
        CHECK(rt::validatePhaseAnchors({}, 1.0) == "phase: no anchors (the clip has no foot down)");
        CHECK(rt::validatePhaseAnchors(std::vector<double>{0.5, 0.5}, 1.0) ==
              "phase: anchors[1] is not after anchors[0]");
        CHECK(rt::validatePhaseAnchors(std::vector<double>{1.0}, 1.0) ==
              "phase: anchors[0] is not in [0, duration)");
    }
}

TEST_CASE("runtime markers: a follower synchronised by markers keeps the leader's phase") {
    // Leader: a 1 s walk at 1 m/s along +Z, its foot down at 0.25 s. Follower: a 0.5 s run at
    // 4 m/s, its foot down at 0.1 s. At the leader's start its phase is 0.75 (0 is 0.25 s away),
    // so the follower starts at 0.1 + 0.75 x 0.5 = 0.475 s.
    const Straight walk(1.0, 1.0), run(0.5, 4.0);
    const std::vector<double> walkAnchors{0.25}, runAnchors{0.1};
    rt::Playback leader = rt::play(walk.track, {});
    rt::MarkerFollower follower = rt::playMarkerFollower(run.track, runAnchors, leader, walkAnchors);
    CHECK(rt::localTime(follower.playback) == doctest::Approx(0.475));

    // Half a second of the leader: phase 0.25 of its next cycle. The follower reaches phase 0.25
    // of its next, 0.1 + 0.25 x 0.5 = 0.225 s after one wrap: 0.25 s of its clip, 1 m.
    rt::advance(leader, walk.track, 0.5);
    const rt::RootDelta delta = rt::followMarkers(follower, run.track, runAnchors, leader, walkAnchors);
    CHECK(rt::localTime(follower.playback) == doctest::Approx(0.225));
    CHECK(delta.translation.z == doctest::Approx(1.0));

    // Over uneven steps the phases stay equal, and each foot down of the leader is one of the
    // follower's in the same step.
    const std::vector<double> steps{0.1, 0.37, 0.05, 0.61, 0.2, 0.9, 0.013, 0.4};
    for (double dt : steps) {
        const double leaderBefore = leader.clipTime, followerBefore = follower.playback.clipTime;
        rt::advance(leader, walk.track, dt);
        rt::followMarkers(follower, run.track, runAnchors, leader, walkAnchors);
        CAPTURE(leader.clipTime);
        CHECK(rt::phaseAt(runAnchors, 0.5, rt::localTime(follower.playback)) ==
              doctest::Approx(rt::phaseAt(walkAnchors, 1.0, rt::localTime(leader))));
        CHECK(passed(leader, walkAnchors, leaderBefore, leader.clipTime).size() ==
              passed(follower.playback, runAnchors, followerBefore, follower.playback.clipTime).size());
    }
}
