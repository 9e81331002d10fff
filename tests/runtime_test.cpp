// Tests for include/rootbake/runtime.h: every expected number is worked out by hand from the
// tracks built here (closed form), one test per sentence of the seed's "loop-aware delta",
// "what does not accumulate", "authority" and "channels" sections, plus turning, blending,
// application and the per-step budget (one sample, no allocation).
#ifndef ROOTBAKE_TEST_MAIN_ELSEWHERE
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#endif
#include <doctest/doctest.h>

#include <rootbake/runtime.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <span>
#include <numbers>
#include <vector>

// Counts every allocation in the program, so a test can prove a stretch of advances made none.
// Atomic: other tests of the suite allocate on threads of their own (hashing, analysing clips).
namespace {
std::atomic<std::size_t> allocationCount{0};
void* countedAllocation(std::size_t size) {
    ++allocationCount;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
}  // namespace
void* operator new(std::size_t size) {
    return countedAllocation(size);
}
void* operator new[](std::size_t size) {
    return countedAllocation(size);
}
// The nothrow forms too (simdjson allocates with them), so every delete matches its new.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    ++allocationCount;
    return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    ++allocationCount;
    return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}

namespace {

namespace rt = rootbake::runtime;
using rt::Vec3;
constexpr double pi = std::numbers::pi;
constexpr double tolerance = 1e-12;

// Approx's epsilon is relative to max(1, |value|): absolute near zero.
void checkNear(Vec3 got, Vec3 want, double within = tolerance) {
    CHECK(got.x == doctest::Approx(want.x).epsilon(within));
    CHECK(got.y == doctest::Approx(want.y).epsilon(within));
    CHECK(got.z == doctest::Approx(want.z).epsilon(within));
}

// q and -q are the same rotation: compare after putting both on the same side.
void checkSameRotation(rt::Quat got, rt::Quat want, double within = tolerance) {
    if (got.x * want.x + got.y * want.y + got.z * want.z + got.w * want.w < 0)
        got = {-got.x, -got.y, -got.z, -got.w};
    CHECK(got.x == doctest::Approx(want.x).epsilon(within));
    CHECK(got.y == doctest::Approx(want.y).epsilon(within));
    CHECK(got.z == doctest::Approx(want.z).epsilon(within));
    CHECK(got.w == doctest::Approx(want.w).epsilon(within));
}

// A yaw of `radians` about +Y, written out rather than built by the code under test.
rt::Quat yawAboutY(double radians) {
    return {0, std::sin(radians / 2), 0, std::cos(radians / 2)};
}

// A walk without turn, d = 1 s, uneven speed so that the two halves differ:
//   S(t) = (2t, 0, 0) for t <= 0.5,  S(t) = (1 + 4(t - 0.5), 0, 2(t - 0.5)) after,
// so S(0.25) = (0.5, 0, 0), S(0.5) = (1, 0, 0), S(0.75) = (2, 0, 0.5), S(1) = (3, 0, 1),
// and one stride S(d) - S(0) = (3, 0, 1).
// (The track's spans point into the fixture's own vectors, so fixtures are not copied.)
struct Walk {
    Walk() = default;
    Walk(const Walk&) = delete;
    std::vector<double> times{0.0, 0.5, 1.0};
    std::vector<double> translation{0, 0, 0, 1, 0, 0, 3, 0, 1};
    rt::Track track{.times = times, .translation = translation};
};

// A walk that goes stride L = 2 straight ahead (+Z at its start) while turning 90 degrees about +Y
// per cycle, d = 1 s: S(t) = ((0, 0, 2t), yaw t * pi / 2), stride C = ((0, 0, 2), 90 degrees).
// A 90-degree yaw about +Y takes +Z to +X, so the cycles go +Z, +X, -Z, -X: a closed square.
struct TurningWalk {
    TurningWalk() = default;
    TurningWalk(const TurningWalk&) = delete;
    std::vector<double> times{0.0, 1.0};
    std::vector<double> translation{0, 0, 0, 0, 0, 2};
    std::vector<double> yaw{0.0, pi / 2};
    rt::Track track{.times = times, .translation = translation, .yaw = yaw};
};

rt::Playback playFrom(const rt::Track& track, double clipTime, rt::PlaybackOptions options = {}) {
    rt::Playback playback = rt::play(track, options);
    rt::seek(playback, track, clipTime);
    return playback;
}

// ---- the loop-aware delta -------------------------------------------------------------------------

TEST_CASE("loop-aware delta: inside a single iteration (w = 0) it is S(l(b)) - S(l(a))") {
    Walk walk;
    REQUIRE(rt::validateTrack(walk.track).empty());
    rt::Playback playback = playFrom(walk.track, 0.25);
    const rt::RootDelta delta = rt::advance(playback, walk.track, 0.5);
    checkNear(delta.translation, {1.5, 0, 0.5});  // S(0.75) - S(0.25)
    checkSameRotation(delta.rotation, {});
    CHECK(rt::iteration(playback) == 0);
}

TEST_CASE("loop-aware delta: a wrap (w = 1) is split at the seam, (S(d) - S(l(a))) + (S(l(b)) - S(0))") {
    Walk walk;
    rt::Playback playback = playFrom(walk.track, 0.75);
    const rt::RootDelta delta = rt::advance(playback, walk.track, 0.5);
    checkNear(delta.translation, {1.0 + 0.5, 0, 0.5 + 0});  // (S(1) - S(0.75)) + (S(0.25) - S(0))
    CHECK(rt::iteration(playback) == 1);
    CHECK(rt::localTime(playback) == doctest::Approx(0.25));
}

TEST_CASE("loop-aware delta: an advance swallowing whole iterations adds one stride each (w = 2, w = 5)") {
    Walk walk;
    SUBCASE("w = 2") {
        rt::Playback playback = playFrom(walk.track, 0.75);
        // (1, 0, 0.5) + 1 * (3, 0, 1) + (0.5, 0, 0)
        checkNear(rt::advance(playback, walk.track, 1.5).translation, {4.5, 0, 1.5});
        CHECK(rt::iteration(playback) == 2);
    }
    SUBCASE("w = 5") {
        rt::Playback playback = playFrom(walk.track, 0.75);
        // (1, 0, 0.5) + 4 * (3, 0, 1) + (0.5, 0, 0)
        checkNear(rt::advance(playback, walk.track, 4.5).translation, {13.5, 0, 4.5});
        CHECK(rt::iteration(playback) == 5);
    }
}

TEST_CASE("loop-aware delta: the advance that finishes loop(3) contributes the full third stride") {
    Walk walk;
    SUBCASE("in steps") {
        rt::Playback playback = rt::play(walk.track, {.mode = rt::LoopMode::Loop, .loopCount = 3});
        checkNear(rt::advance(playback, walk.track, 0.75).translation, {2, 0, 0.5});  // S(0.75)
        // Past the end: (S(1) - S(0.75)) + 1 stride + the whole third iteration, S(1) - S(0).
        checkNear(rt::advance(playback, walk.track, 10.0).translation, {1 + 3 + 3, 0, 0.5 + 1 + 1});
        // The end reads as l = d of the last iteration, not l = 0 of a fourth.
        CHECK(rt::iteration(playback) == 2);
        CHECK(rt::localTime(playback) == 1.0);
        checkNear(rt::advance(playback, walk.track, 1.0).translation, {0, 0, 0});  // held at the end
    }
    SUBCASE("in one advance landing exactly on the end") {
        rt::Playback playback = rt::play(walk.track, {.mode = rt::LoopMode::Loop, .loopCount = 3});
        checkNear(rt::advance(playback, walk.track, 3.0).translation, {9, 0, 3});  // 3 strides
    }
}

TEST_CASE("loop-aware delta: play-once travels exactly one stride and then stops") {
    Walk walk;
    rt::Playback playback = rt::play(walk.track, {.mode = rt::LoopMode::Once});
    checkNear(rt::advance(playback, walk.track, 0.25).translation, {0.5, 0, 0});   // S(0.25)
    checkNear(rt::advance(playback, walk.track, 0.5).translation, {1.5, 0, 0.5});  // S(0.75) - S(0.25)
    checkNear(rt::advance(playback, walk.track, 1.0).translation, {1, 0, 0.5});    // S(1) - S(0.75)
    checkNear(rt::advance(playback, walk.track, 1.0).translation, {0, 0, 0});
    CHECK(rt::localTime(playback) == 1.0);
}

TEST_CASE("loop-aware delta: ping-pong walks there and back, l is continuous so nothing wraps") {
    Walk walk;
    SUBCASE("forever") {
        rt::Playback playback = rt::play(walk.track, {.mode = rt::LoopMode::PingPong});
        // Elapsed 1.5: out to d and back to l = 0.5, a net S(0.5) - S(0).
        checkNear(rt::advance(playback, walk.track, 1.5).translation, {1, 0, 0});
        CHECK(rt::localTime(playback) == doctest::Approx(0.5));
        CHECK(rt::iteration(playback) == 1);
        checkNear(rt::advance(playback, walk.track, 0.5).translation, {-1, 0, 0});  // back to S(0)
        // Elapsed 2 -> 4.25: back and forth once more, then S(0.25) - S(0) of the fifth leg.
        checkNear(rt::advance(playback, walk.track, 2.25).translation, {0.5, 0, 0});
        CHECK(rt::localTime(playback) == doctest::Approx(0.25));
    }
    SUBCASE("three legs end at l = d") {
        rt::Playback playback = rt::play(walk.track, {.mode = rt::LoopMode::PingPong, .loopCount = 3});
        checkNear(rt::advance(playback, walk.track, 10.0).translation, {3, 0, 1});  // out, back, out
        CHECK(rt::localTime(playback) == 1.0);
    }
}

TEST_CASE("loop-aware delta: negative speed plays backwards and wraps backwards") {
    Walk walk;
    SUBCASE("once, from the end") {
        rt::Playback playback = rt::play(walk.track, {.mode = rt::LoopMode::Once, .speed = -1.0});
        CHECK(rt::localTime(playback) == 1.0);
        checkNear(rt::advance(playback, walk.track, 0.25).translation, {-1, 0, -0.5});  // S(0.75) - S(1)
        checkNear(rt::advance(playback, walk.track, 5.0).translation, {-2, 0, -0.5});   // S(0) - S(0.75)
        CHECK(rt::localTime(playback) == 0.0);
    }
    SUBCASE("looping, across the seam at 0") {
        rt::Playback playback = rt::play(walk.track, {.speed = -1.0});
        // From l = 0 back over the seam to l = 0.75 of iteration -1: S(0.75) - S(d).
        checkNear(rt::advance(playback, walk.track, 0.25).translation, {-1, 0, -0.5});
        CHECK(rt::iteration(playback) == -1);
        CHECK(rt::localTime(playback) == doctest::Approx(0.75));
        // One whole cycle more, w = -1: minus one stride.
        checkNear(rt::advance(playback, walk.track, 1.0).translation, {-3, 0, -1});
    }
    SUBCASE("at double speed the clip runs twice as fast") {
        rt::Playback playback = rt::play(walk.track, {.speed = 2.0});
        checkNear(rt::advance(playback, walk.track, 0.25).translation, {1, 0, 0});  // S(0.5)
    }
}

// ---- ranges and followers (seed 003, "Playback") ---------------------------------------------------

TEST_CASE("a range from..to loops by the range: its stride is S(to) - S(from)") {
    Walk walk;
    // [0.25, 0.75]: d = 0.5, stride S(0.75) - S(0.25) = (2, 0, 0.5) - (0.5, 0, 0) = (1.5, 0, 0.5).
    rt::PlaybackOptions options;
    options.from = 0.25;
    options.to = 0.75;
    REQUIRE(rt::validatePlayback(options).empty());
    rt::Playback playback = rt::play(walk.track, options);
    CHECK(rt::localTime(playback) == 0.25);
    // 1.25 s: two whole ranges and 0.25 s into the third, S(0.5) - S(0.25) = (0.5, 0, 0).
    checkNear(rt::advance(playback, walk.track, 1.25).translation, {2 * 1.5 + 0.5, 0, 2 * 0.5});
    CHECK(rt::localTime(playback) == doctest::Approx(0.5));
    CHECK(rt::iteration(playback) == 2);
    // Across the seam, 0.5 -> 0.25 of the next range: (S(0.75) - S(0.5)) + (S(0.5) - S(0.25)).
    checkNear(rt::advance(playback, walk.track, 0.5).translation, {1 + 0.5, 0, 0.5});

    options.to = 0.25;
    CHECK(rt::validatePlayback(options).find("empty") != std::string::npos);
}

TEST_CASE("a root keyed over less than the range holds its last key and wraps with the range") {
    Walk walk;  // keyed to 1 s; the group plays 1.5 s, so S(t > 1) = S(1) = (3, 0, 1)
    rt::PlaybackOptions options;
    options.to = 1.5;
    rt::Playback playback = rt::play(walk.track, options);
    // 2 s: one whole range, S(1.5) - S(0) = (3, 0, 1), then S(0.5) = (1, 0, 0).
    checkNear(rt::advance(playback, walk.track, 2.0).translation, {4, 0, 1});
    // 1.2 of the second range -> 0.2 of the third: S(1.5) - S(1.2) = 0 while the root holds, then
    // S(0.2) - S(0) = (0.4, 0, 0); the wrap from 1.5 back to 0 is not read as travel.
    rt::seek(playback, walk.track, 1.5 + 1.2);
    checkNear(rt::advance(playback, walk.track, 0.5).translation, {0.4, 0, 0});
}

// A master of d = 0.5 s (two keys, the shape does not matter to the follower) and the walk as
// its follower: the follower plays the walk's [0, 0.5], stride S(0.5) - S(0) = (1, 0, 0).
struct Master {
    Master() = default;
    Master(const Master&) = delete;
    std::vector<double> times{0.0, 0.5};
    std::vector<double> translation{0, 0, 0, 0, 0, 7};
    rt::Track track{.times = times, .translation = translation};
};

TEST_CASE("a follower follows its master's time, speed and loops, in either direction") {
    Master master;
    Walk walk;
    SUBCASE("forwards through the master's loops, at the master's speed") {
        rt::Playback lead = rt::play(master.track, {});
        rt::Playback follower = rt::playFollower(walk.track, lead);
        rt::advance(lead, master.track, 1.25);  // two of the master's loops and 0.25 s
        // 2 * (1, 0, 0) + S(0.25) = (2.5, 0, 0): the walk's own end (1 s) is never reached.
        checkNear(rt::follow(follower, walk.track, lead).translation, {2.5, 0, 0});
        CHECK(rt::localTime(follower) == doctest::Approx(0.25));
        lead.options.speed = 2.0;
        rt::advance(lead, master.track, 0.5);  // one more elapsed second at double speed: 2 loops
        checkNear(rt::follow(follower, walk.track, lead).translation, {2, 0, 0});
    }
    SUBCASE("backwards across the master's seam") {
        rt::Playback lead = rt::play(master.track, {.speed = -1.0});
        rt::Playback follower = rt::playFollower(walk.track, lead);
        rt::advance(lead, master.track, 0.25);  // to 0.25 of iteration -1
        // The follower goes back 0.25 s along (S(0.5) - S(0.25)) = (0.5, 0, 0): (-0.5, 0, 0).
        checkNear(rt::follow(follower, walk.track, lead).translation, {-0.5, 0, 0});
        CHECK(rt::iteration(follower) == -1);
    }
    SUBCASE("down a chain of followers") {
        rt::Playback lead = rt::play(master.track, {});
        rt::Playback first = rt::playFollower(master.track, lead);
        rt::Playback second = rt::playFollower(walk.track, first);
        rt::advance(lead, master.track, 0.75);
        rt::follow(first, master.track, lead);
        checkNear(rt::follow(second, walk.track, first).translation, {1 + 0.5, 0, 0});  // stride + S(0.25)
    }
    SUBCASE("a follower that does not loop ends at the master's frame") {
        rt::Playback lead = rt::play(master.track, {});
        rt::Playback follower = rt::playFollower(walk.track, lead, false);
        rt::advance(lead, master.track, 1.25);
        // The master's first iteration ends at 0.5: S(0.5) = (1, 0, 0), and it holds there.
        checkNear(rt::follow(follower, walk.track, lead).translation, {1, 0, 0});
        CHECK(rt::localTime(follower) == 0.5);
        rt::advance(lead, master.track, 1.0);
        checkNear(rt::follow(follower, walk.track, lead).translation, {0, 0, 0});
    }
}

// ---- what does not accumulate ---------------------------------------------------------------------

TEST_CASE("seek applies no delta, the next advance differences from the sought time") {
    Walk walk;
    rt::NodeTransform node;
    rt::Playback playback = rt::play(walk.track, {});
    rt::applyToLocal(node, rt::advance(playback, walk.track, 0.25));
    checkNear(node.translation, {0.5, 0, 0});
    // Scrubbing back and forth leaves the left endpoint at the last sought time, nothing banked.
    rt::seek(playback, walk.track, 0.1);
    rt::seek(playback, walk.track, 0.9);
    rt::seek(playback, walk.track, 0.75);
    checkNear(rt::advance(playback, walk.track, 0.0).translation, {0, 0, 0});
    rt::applyToLocal(node, rt::advance(playback, walk.track, 0.25));  // S(1) - S(0.75)
    checkNear(node.translation, {0.5 + 1, 0, 0.5});
}

TEST_CASE("a refused delta is dropped, not banked, the refusal is reported once") {
    Walk walk;
    rt::NodeTransform node;
    rt::AuthorityLatch latch;
    int warnings = 0;
    const auto warn = [&] { ++warnings; };
    rt::Playback playback = rt::play(walk.track, {});
    const auto step = [&](bool granted) {
        const rt::RootDelta delta = rt::advance(playback, walk.track, 0.25);
        if (rt::admit(latch, granted, warn)) rt::applyToLocal(node, delta);
    };
    step(true);   // 0 -> 0.25: S(0.25) = (0.5, 0, 0)
    step(false);  // 0.25 -> 0.5 refused
    step(false);  // 0.5 -> 0.75 refused
    CHECK(warnings == 1);
    checkNear(node.translation, {0.5, 0, 0});
    step(true);  // 0.75 -> 1: resumes from the clip's position, S(1) - S(0.75), no replay
    checkNear(node.translation, {0.5 + 1, 0, 0.5});
    step(false);
    CHECK(warnings == 1);
}

// ---- channels -------------------------------------------------------------------------------------

TEST_CASE("channels: a quaternion track multiplies conjugate(previous) * sampled onto the rotation") {
    // 0 -> 90 degrees about +Y over d = 1 s; slerp puts 45 degrees at 0.5 and 67.5 at 0.75.
    const std::vector<double> times{0.0, 1.0};
    const double s = std::sin(pi / 4), c = std::cos(pi / 4);
    const std::vector<double> rotation{0, 0, 0, 1, 0, s, 0, c};
    rt::Track track{.times = times};
    REQUIRE(rt::bindChannel(track, rt::channelKindFromName("quaternion"), rotation).empty());
    REQUIRE(rt::validateTrack(track).empty());

    rt::Playback playback = rt::play(track, {});
    const rt::RootDelta half = rt::advance(playback, track, 0.5);
    checkSameRotation(half.rotation, yawAboutY(pi / 4));
    checkNear(half.translation, {0, 0, 0});

    // Local composition onto a node turned 30 degrees about +X: q = x30 * y45, written out.
    rt::NodeTransform node;
    node.rotation = {std::sin(pi / 12), 0, 0, std::cos(pi / 12)};
    rt::applyToLocal(node, half);
    const double s15 = std::sin(pi / 12), c15 = std::cos(pi / 12), s22 = std::sin(pi / 8),
                 c22 = std::cos(pi / 8);
    checkSameRotation(node.rotation, {s15 * c22, c15 * s22, s15 * s22, c15 * c22});

    // Across the seam, 0.75 -> 1.25: (90 - 67.5) + 22.5 = 45 degrees.
    rt::seek(playback, track, 0.75);
    checkSameRotation(rt::advance(playback, track, 0.5).rotation, yawAboutY(pi / 4));
}

TEST_CASE("channels: the relative rotation is conjugate(previous) * sampled, in that order") {
    // Keys: identity, x90, then x90 * y90 = (1/2, 1/2, 1/2, 1/2): the second half turns about the
    // root's own (already turned) Y. The other order, sampled * conjugate(previous), would give a
    // turn about world Z instead. The root also rises by 1 in the second half: in the frame at
    // 0.5 (x90), world +Y is local -Z, since x(-90) (0, 1, 0) = (0, 0, -1).
    const double s = std::sin(pi / 4), c = std::cos(pi / 4);
    const std::vector<double> times{0.0, 0.5, 1.0};
    const std::vector<double> rotation{0, 0, 0, 1, s, 0, 0, c, 0.5, 0.5, 0.5, 0.5};
    const std::vector<double> translation{0, 0, 0, 0, 0, 0, 0, 1, 0};
    const rt::Track track{.times = times, .translation = translation, .rotation = rotation};
    REQUIRE(rt::validateTrack(track).empty());
    rt::Playback playback = rt::play(track, {.mode = rt::LoopMode::Once});
    checkSameRotation(rt::advance(playback, track, 0.5).rotation, {s, 0, 0, c});
    const rt::RootDelta second = rt::advance(playback, track, 0.5);
    checkSameRotation(second.rotation, yawAboutY(pi / 2));
    checkNear(second.translation, {0, 0, -1});
}

TEST_CASE("channels: a scalar or a colour is rejected, there is no defensible delta for it") {
    for (const char* kind : {"scalar", "float", "color", "colour", "weights"}) {
        const rt::ChannelKindOrError result = rt::channelKindFromName(kind);
        CHECK_FALSE(result.ok());
        CHECK(result.error.find(kind) != std::string::npos);
        CHECK(result.error.find("defensible delta") != std::string::npos);
        CHECK(result.error.find("rejected") != std::string::npos);
    }
    for (int components : {0, 1, 2, 5}) {
        const rt::ChannelKindOrError result = rt::channelKindFromComponents(components);
        CHECK_FALSE(result.ok());
        CHECK(result.error.find(std::to_string(components) + " components") != std::string::npos);
    }
    CHECK(rt::channelKindFromComponents(3).kind == rt::ChannelKind::Translation);
    CHECK(rt::channelKindFromComponents(4).kind == rt::ChannelKind::Rotation);
    CHECK(rt::channelKindFromName("vec3").kind == rt::ChannelKind::Translation);
    CHECK(rt::channelKindFromName("yaw").kind == rt::ChannelKind::Yaw);

    // A rejected kind binds nothing.
    const std::vector<double> times{0.0, 1.0}, colour{1, 0, 0, 1, 0, 1, 0, 1};
    rt::Track track{.times = times};
    CHECK_FALSE(rt::bindChannel(track, rt::channelKindFromName("color"), colour).empty());
    CHECK(track.rotation.empty());
    CHECK(track.translation.empty());
}

TEST_CASE("validateTrack names the rule a bad track breaks") {
    const std::vector<double> times{0.0, 0.5, 0.5}, good{0.0, 1.0}, short3{0, 0, 0}, yaw{0, 1};
    const std::vector<double> rotation{0, 0, 0, 1, 0, 0, 0, 1};
    CHECK(rt::validateTrack({.times = times}).find("times[2] is not after times[1]") != std::string::npos);
    CHECK(rt::validateTrack({.times = good, .translation = short3}).find("expected 6") != std::string::npos);
    CHECK(rt::validateTrack({.times = good, .yaw = yaw, .rotation = rotation}).find("both") !=
          std::string::npos);
    CHECK(rt::validateTrack({.times = good, .upAxis = {0, 2, 0}}).find("upAxis") != std::string::npos);
    CHECK(rt::validateTrack({.times = good, .yaw = yaw}).empty());
}

// ---- turning ----------------------------------------------------------------------------------------

TEST_CASE("turning: each cycle's stride is turned by the turn before it, so a circling walk closes") {
    TurningWalk walk;
    REQUIRE(rt::validateTrack(walk.track).empty());
    SUBCASE("one cycle: the stride itself") {
        rt::Playback playback = rt::play(walk.track, {});
        rt::NodeTransform node;
        rt::applyToLocal(node, rt::advance(playback, walk.track, 1.0));
        checkNear(node.translation, {0, 0, 2});
        checkSameRotation(node.rotation, yawAboutY(pi / 2));
    }
    SUBCASE("two cycles: +Z then +X") {
        rt::Playback playback = rt::play(walk.track, {});
        const rt::RootDelta delta = rt::advance(playback, walk.track, 2.0);
        checkNear(delta.translation, {2, 0, 2});
        checkSameRotation(delta.rotation, yawAboutY(pi));
    }
    SUBCASE("four cycles in one advance: back at the start, facing the start") {
        rt::Playback playback = rt::play(walk.track, {});
        const rt::RootDelta delta = rt::advance(playback, walk.track, 4.0);
        checkNear(delta.translation, {0, 0, 0});
        checkSameRotation(delta.rotation, {});
    }
    SUBCASE("four cycles in 40 frames: the square closes too") {
        rt::Playback playback = rt::play(walk.track, {});
        rt::NodeTransform node;
        for (int frame = 0; frame < 40; ++frame)
            rt::applyToLocal(node, rt::advance(playback, walk.track, 0.1));
        checkNear(node.translation, {0, 0, 0}, 1e-9);
        checkSameRotation(node.rotation, {}, 1e-9);
    }
    SUBCASE("from mid-cycle over two seams (w = 2)") {
        // From S(0.5) = ((0, 0, 1), 45 deg) to C^2 * S(0.5) = ((2, 0, 2) + yaw180 (0, 0, 1), 225 deg).
        rt::Playback playback = playFrom(walk.track, 0.5);
        rt::NodeTransform node{.translation = {0, 0, 1}, .rotation = yawAboutY(pi / 4)};
        rt::applyToLocal(node, rt::advance(playback, walk.track, 2.0));
        checkNear(node.translation, {2, 0, 1});
        checkSameRotation(node.rotation, yawAboutY(5 * pi / 4));
    }
    SUBCASE("backwards one cycle (w = -1): the inverse stride") {
        // The pose P with P * C = identity: yaw -90 deg and (2, 0, 0), since yaw(-90) (0, 0, 2) = (-2, 0, 0).
        rt::Playback playback = rt::play(walk.track, {.speed = -1.0});
        const rt::RootDelta delta = rt::advance(playback, walk.track, 1.0);
        checkNear(delta.translation, {2, 0, 0});
        checkSameRotation(delta.rotation, yawAboutY(-pi / 2));
    }
}

TEST_CASE("turning: the delta is expressed in the character's frame at the start of the advance") {
    TurningWalk walk;
    SUBCASE("the second cycle is the same local step as the first") {
        rt::Playback playback = playFrom(walk.track, 1.0);
        const rt::RootDelta delta = rt::advance(playback, walk.track, 1.0);
        checkNear(delta.translation, {0, 0, 2});  // straight ahead of a, not world +X
    }
    SUBCASE("inside a cycle, from S(0.5) to S(0.75)") {
        // yaw(-45 deg) applied to S(0.75) - S(0.5) = (0, 0, 0.5) gives (-0.5 sin45, 0, 0.5 cos45).
        rt::Playback playback = playFrom(walk.track, 0.5);
        const rt::RootDelta delta = rt::advance(playback, walk.track, 0.25);
        checkNear(delta.translation, {-0.5 * std::sin(pi / 4), 0, 0.5 * std::cos(pi / 4)});
        checkSameRotation(delta.rotation, yawAboutY(pi / 8));
    }
}

// ---- blending ---------------------------------------------------------------------------------------

// The blend of `clips` moves by `translation` and turns by `yaw` about +Y.
void checkBlend(std::initializer_list<rt::Contribution> clips, Vec3 translation, double yaw) {
    const rt::RootDelta blended = rt::blendDeltas(std::span(clips.begin(), clips.size()));
    checkNear(blended.translation, translation);
    CHECK(rt::turnAbout(blended.rotation, {0, 1, 0}) == doctest::Approx(yaw).epsilon(tolerance));
}

TEST_CASE("blending: weighted shares, normalized above a total of one, additive on top, turn as a sum") {
    const rt::RootDelta walk{{1, 0, 0}, yawAboutY(0.2)};
    const rt::RootDelta run{{0, 0, 3}, yawAboutY(0.4)};
    checkBlend({{walk, 0.5}, {run, 0.5}}, {0.5, 0, 1.5}, 0.3);                  // the mean
    checkBlend({{walk, 1.0}, {run, 1.0}}, {0.5, 0, 1.5}, 0.3);                  // normalized to the mean
    checkBlend({{walk, 0.25}, {run, 0.25}}, {0.25, 0, 0.75}, 0.15);             // below one: not normalized
    checkBlend({{walk, 2.0}, {run, 1.0}}, {2.0 / 3, 0, 1.0}, (0.4 + 0.4) / 3);  // shares 2/3 and 1/3
    checkBlend({{walk, 1.0}, {run, 0.5, true}}, {1, 0, 1.5}, 0.2 + 0.2);        // additive on top
    checkBlend({{walk, 1.0}, {walk, 1.0}, {run, 1.0, true}}, {1, 0, 3}, 0.2 + 0.4);
}

TEST_CASE("blending: an unweighted clip counts only while no weighted clip plays, the last one wins") {
    const rt::RootDelta walk{{1, 0, 0}, yawAboutY(0.2)};
    const rt::RootDelta run{{0, 0, 3}, yawAboutY(0.4)};
    const double unweighted = rt::kUnweighted;
    checkBlend({{walk, unweighted}}, {1, 0, 0}, 0.2);                      // whole motion
    checkBlend({{walk, unweighted}, {run, unweighted}}, {0, 0, 3}, 0.4);   // the last one wins
    checkBlend({{run, unweighted}, {walk, unweighted}}, {1, 0, 0}, 0.2);
    checkBlend({{walk, unweighted}, {run, 0.5}}, {0, 0, 1.5}, 0.2);        // a weighted clip plays: its share only
    checkBlend({{walk, unweighted}, {run, 0.0}}, {0, 0, 0}, 0.0);          // even at weight 0
    checkBlend({{walk, unweighted}, {run, unweighted}, {walk, 0.5, true}}, {0.5, 0, 3}, 0.4 + 0.1);  // additive on top
    checkBlend({{run, 1.0}, {walk, unweighted, true}}, {1, 0, 3}, 0.6);    // an unweighted additive adds all of it
}

TEST_CASE("blending two playing clips at 0.5 / 0.5 gives the mean of their motion") {
    Walk walk;
    TurningWalk turning;
    rt::Playback a = rt::play(walk.track, {});
    rt::Playback b = rt::play(turning.track, {});
    const rt::Contribution clips[] = {{rt::advance(a, walk.track, 0.5), 0.5},
                                      {rt::advance(b, turning.track, 0.5), 0.5}};
    const rt::RootDelta blended = rt::blendDeltas(clips);
    checkNear(blended.translation,
              {0.5 * 1, 0, 0.5 * 1});  // S_walk(0.5) = (1, 0, 0), S_turn(0.5) = (0, 0, 1)
    CHECK(rt::turnAbout(blended.rotation, {0, 1, 0}) == doctest::Approx(0.5 * pi / 4));
}

// ---- applying -----------------------------------------------------------------------------------------

TEST_CASE("applying in the node's local space under a rotated and scaled node") {
    // Node: at (10, 0, 0), yawed 90 degrees about +Y, scaled (2, 3, 4). The step (1, 1, 1) of the
    // character is (2, 3, 4) once scaled, and yaw90 (x, y, z) = (z, y, -x) makes it (4, 3, -2).
    rt::NodeTransform node{.translation = {10, 0, 0}, .rotation = yawAboutY(pi / 2), .scale = {2, 3, 4}};
    const rt::RootDelta delta{{1, 1, 1}, yawAboutY(pi / 2)};
    const rt::NodeTransform before = node;
    rt::applyToLocal(node, delta);
    checkNear(node.translation, {14, 3, -2});
    checkSameRotation(node.rotation, yawAboutY(pi));
    checkNear(node.scale, {2, 3, 4});

    SUBCASE("the same step handed over in world space") {
        const rt::WorldDelta world = rt::toWorld(delta, before, {0, 1, 0});
        checkNear(world.translation, {4, 3, -2});
        CHECK(world.turn == doctest::Approx(pi / 2));
    }
    SUBCASE("a character lying on its side turns about world Z") {
        // x90 takes local +Y to world +Z, so a local yaw is a world turn about Z, none about Y.
        const rt::NodeTransform lying{.rotation = {std::sin(pi / 4), 0, 0, std::cos(pi / 4)}};
        CHECK(rt::toWorld(delta, lying, {0, 0, 1}).turn == doctest::Approx(pi / 2));
        CHECK(rt::toWorld(delta, lying, {0, 1, 0}).turn == doctest::Approx(0).epsilon(tolerance));
        checkNear(rt::toWorld(delta, lying, {0, 0, 1}).translation,
                  {1, -1, 1});  // x90 (x, y, z) = (x, -z, y)
    }
}

// ---- the per-step budget ------------------------------------------------------------------------------

TEST_CASE("an advance costs exactly one new sample and no allocation") {
    Walk walk;
    TurningWalk turning;
    rt::Playback straight = rt::play(walk.track, {});
    rt::Playback circling = rt::play(turning.track, {});
    rt::Playback bouncing = rt::play(walk.track, {.mode = rt::LoopMode::PingPong});
    const auto samples = [&] { return straight.sampleCount + circling.sampleCount + bouncing.sampleCount; };
    const std::uint64_t samplesBefore = samples();
    const std::size_t allocationsBefore = allocationCount;

    Vec3 travelled{}, bounced{};
    rt::NodeTransform circler;
    std::uint64_t advances = 0;
    for (int frame = 0; frame < 1000; ++frame, advances += 3) {
        travelled = travelled + rt::advance(straight, walk.track, 0.25).translation;               // w = 0, 1
        rt::applyToLocal(circler, rt::advance(circling, turning.track, frame % 10 ? 0.25 : 4.0));  // w = 4
        bounced = bounced + rt::advance(bouncing, walk.track, 0.37).translation;
    }
    for (int frame = 0; frame < 10; ++frame, ++advances)
        travelled = travelled + rt::advance(straight, walk.track, 5.0).translation;  // w = 5

    CHECK(allocationCount - allocationsBefore == 0);
    CHECK(samples() - samplesBefore == advances);
    ::operator delete(::operator new(1));  // the counter itself counts
    CHECK(allocationCount - allocationsBefore == 1);

    // 250 s of 1 s strides, then 50 more: exactly 300 strides of (3, 0, 1).
    checkNear(travelled, {900, 0, 300});
    // 900 * 0.25 + 100 * 4 = 625 cycles = 156 closed squares and one stride: C = ((0, 0, 2), 90 deg).
    checkNear(circler.translation, {0, 0, 2}, 1e-9);
    checkSameRotation(circler.rotation, yawAboutY(pi / 2), 1e-9);
    // 370 s of ping-pong is 370 legs, out and back 185 times: at l = 0, where it started.
    checkNear(bounced, {0, 0, 0}, 1e-9);
}

}  // namespace
