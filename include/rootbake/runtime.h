// rootbake runtime: applies the motion track of rootbake's JSON sidecar to a character node.
//
// Header-only, standard library only, C++17 or later. It takes spans into data the engine owns,
// owns a few held samples per playback, and allocates nothing per step. The sidecar's
// `track` object { "sampleRate", "times", "translation", "yaw" } (plus the up axis, given
// separately) maps onto Track; the rotation may also come as quaternions.
// rootbake/sidecar_loader.h reads a sidecar file into Tracks (it needs nlohmann-json).
//
// The delta of one advance is the loop-aware delta of MixerRootMotionOptions: the distance
// travelled along the clip, split at each loop seam, with every whole cycle turned by the turn
// accumulated before it. It is expressed in the character's frame at the start of the advance,
// so it composes in the character node's local space.
//
// Usage (per character once, then per frame after the pose is evaluated; tests/cxx17 compiles
// exactly these lines):
//   namespace rt = rootbake::runtime;
//   rt::Track track;       // spans into engine-owned arrays
//   track.times = times;   // s, as the sidecar's track.times
//   track.translation = xyz;  // x, y, z per key, flattened
//   track.yaw = yaw;       // rad per key
//   std::string error = rt::validateTrack(track);
//   if (!error.empty()) return fail(error);
//   rt::PlaybackOptions options;
//   options.mode = rt::LoopMode::Loop;
//   rt::Playback walk = rt::play(track, options);
//   rt::AuthorityLatch latch;
//   for (double dt : frameTimes) {
//       rt::RootDelta delta = rt::advance(walk, track, dt);
//       evaluatePose(rt::localTime(walk));  // the same loop bookkeeping places the pose
//       if (rt::admit(latch, ownsTransform(node), [&] { warn("root motion target not animated"); }))
//           rt::applyToLocal(node.transform, delta);
//   }
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace rootbake::runtime {

constexpr double kPi = 3.14159265358979323846;

// A view of n elements the caller owns: std::span's job, which C++17 lacks. It converts from
// anything with data() and size() (std::vector, std::array, std::span) and from C arrays.
template <class T>
class Span {
public:
    constexpr Span() = default;
    constexpr Span(const T* data, std::size_t size) : data_(data), size_(size) {}
    template <class Container,
              class = std::enable_if_t<std::is_convertible_v<decltype(std::declval<const Container&>().data()),
                                                             const T*>>,
              class = decltype(std::declval<const Container&>().size())>
    constexpr Span(const Container& c) : data_(c.data()), size_(c.size()) {}
    template <std::size_t N>
    constexpr Span(const T (&array)[N]) : data_(array), size_(N) {}

    constexpr const T* data() const { return data_; }
    constexpr std::size_t size() const { return size_; }
    constexpr bool empty() const { return size_ == 0; }
    constexpr const T* begin() const { return data_; }
    constexpr const T* end() const { return data_ + size_; }
    constexpr const T& operator[](std::size_t i) const { return data_[i]; }
    constexpr const T& back() const { return data_[size_ - 1]; }
    constexpr Span subspan(std::size_t offset, std::size_t count) const { return {data_ + offset, count}; }

private:
    const T* data_ = nullptr;
    std::size_t size_ = 0;
};

// ---- math --------------------------------------------------------------------------------------

struct Vec3 {
    double x = 0, y = 0, z = 0;
};

// A unit quaternion in glTF order (x, y, z, w).
struct Quat {
    double x = 0, y = 0, z = 0, w = 1;
};

inline Vec3 operator+(Vec3 a, Vec3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec3 operator-(Vec3 a, Vec3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec3 operator-(Vec3 a) {
    return {-a.x, -a.y, -a.z};
}
inline Vec3 operator*(double s, Vec3 a) {
    return {s * a.x, s * a.y, s * a.z};
}
inline double dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double length(Vec3 a) {
    return std::sqrt(dot(a, a));
}
inline Vec3 componentProduct(Vec3 a, Vec3 b) {
    return {a.x * b.x, a.y * b.y, a.z * b.z};
}

inline Quat operator*(Quat a, Quat b) {
    return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
inline Quat conjugate(Quat q) {
    return {-q.x, -q.y, -q.z, q.w};
}
inline Quat normalize(Quat q) {
    const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}
inline Quat axisAngle(Vec3 unitAxis, double radians) {
    const double s = std::sin(0.5 * radians);
    return {s * unitAxis.x, s * unitAxis.y, s * unitAxis.z, std::cos(0.5 * radians)};
}
inline Vec3 rotate(Quat q, Vec3 v) {
    const Vec3 u{q.x, q.y, q.z};
    const Vec3 t = 2.0 * cross(u, v);
    return v + q.w * t + cross(u, t);
}

// The rotation as (unit axis, angle in [0, pi]); angle 0 and an arbitrary axis for identity.
struct AxisAngle {
    Vec3 axis{0, 1, 0};
    double angle = 0;
};
inline AxisAngle toAxisAngle(Quat q) {
    if (q.w < 0) q = {-q.x, -q.y, -q.z, -q.w};  // same rotation, the short way round
    const Vec3 v{q.x, q.y, q.z};
    const double s = length(v);
    if (s == 0) return {};
    return {(1.0 / s) * v, 2.0 * std::atan2(s, q.w)};
}

// Signed turn about `unitAxis` (radians, (-pi, pi]): the twist of q about that axis.
inline double turnAbout(Quat q, Vec3 unitAxis) {
    double turn = 2.0 * std::atan2(dot({q.x, q.y, q.z}, unitAxis), q.w);
    if (turn > kPi) turn -= 2.0 * kPi;
    if (turn <= -kPi) turn += 2.0 * kPi;
    return turn;
}

inline Quat slerp(Quat a, Quat b, double u) {
    double c = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    if (c < 0) {  // the shortest arc
        b = {-b.x, -b.y, -b.z, -b.w};
        c = -c;
    }
    double wa = 1 - u, wb = u;
    if (c < 0.9999) {  // else nearly parallel: the linear blend is exact to rounding
        const double theta = std::acos(c), s = std::sin(theta);
        wa = std::sin((1 - u) * theta) / s;
        wb = std::sin(u * theta) / s;
    }
    return normalize({wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w});
}

// ---- rigid transforms: a root pose, and the delta between two of them ---------------------------

// Where the root is in character space. Applied to a point p: rotation * p + translation.
struct RootTransform {
    Vec3 translation{};
    Quat rotation{};
};
// The pose at b seen from the character's frame at a: inverse(pose(a)) * pose(b).
using RootDelta = RootTransform;

// a then b: b is expressed in a's frame (turn, then translate).
inline RootTransform compose(const RootTransform& a, const RootTransform& b) {
    return {a.translation + rotate(a.rotation, b.translation), normalize(a.rotation * b.rotation)};
}
inline RootTransform inverse(const RootTransform& a) {
    const Quat back = conjugate(a.rotation);
    return {rotate(back, -a.translation), back};
}
// inverse(from) * to: the translation in from's frame, conjugate(from) * to for the rotation.
inline RootDelta relative(const RootTransform& from, const RootTransform& to) {
    const Quat back = conjugate(from.rotation);
    return {rotate(back, to.translation - from.translation), normalize(back * to.rotation)};
}

// stride^n for any integer n in closed form: the turn is n times the stride's turn, the
// translation the geometric sum of the stride's translation turned by 0, 1, ..., n-1 strides.
inline RootTransform power(RootTransform stride, std::int64_t n) {
    if (n < 0) {
        stride = inverse(stride);
        n = -n;
    }
    const double k = static_cast<double>(n);
    const AxisAngle turn = toAxisAngle(stride.rotation);
    if (turn.angle == 0) return {k * stride.translation, {}};  // no turn: exactly n strides
    const Vec3 along = dot(stride.translation, turn.axis) * turn.axis;
    const Vec3 across = stride.translation - along;
    // Sum of e^(i*j*angle) for j < n = e^(i*(n-1)*angle/2) * sin(n*angle/2) / sin(angle/2),
    // applied in the plane across the axis, where the turn is a multiplication by e^(i*angle).
    const double magnitude = std::sin(0.5 * k * turn.angle) / std::sin(0.5 * turn.angle);
    const double phase = 0.5 * (k - 1) * turn.angle;
    const Vec3 swept =
        (magnitude * std::cos(phase)) * across + (magnitude * std::sin(phase)) * cross(turn.axis, across);
    return {k * along + swept, axisAngle(turn.axis, k * turn.angle)};
}

// ---- the track -----------------------------------------------------------------------------------

// One clip's motion track, as the sidecar's `track` object. Spans point into engine-owned data.
// Validate once with validateTrack(); the functions below trust a valid track.
struct Track {
    Span<double> times{};        // s from the clip start; finite, strictly increasing
    Span<double> translation{};  // x, y, z per key, character space, relative to the first key
    Span<double> yaw{};       // 1 per key, radians about upAxis, relative to the first, unwrapped
    Span<double> rotation{};  // x, y, z, w per key, relative to the first key (instead of yaw)
    Vec3 upAxis{0, 1, 0};                // unit, character space
    double duration = 0;                 // s, the clip's loop length; 0 = times.back()
};

inline double clipDuration(const Track& track) {
    return track.duration > 0 ? track.duration : track.times.back();
}

// Empty when valid, else one line saying which rule failed. Rules: at least one key; times finite
// and strictly increasing, the first >= 0; translation 3 and rotation 4 values per key, yaw 1, any
// of them may be empty; not both yaw and rotation; rotations of unit length; upAxis of unit
// length; a positive duration (a loop needs a length).
inline std::string validateTrack(const Track& track) {
    const std::size_t keys = track.times.size();
    if (keys == 0) return "track: no keys (times is empty)";
    for (std::size_t i = 0; i < keys; ++i) {
        if (!std::isfinite(track.times[i])) return "track: times[" + std::to_string(i) + "] is not finite";
        if (i == 0 && track.times[0] < 0) return "track: times[0] is negative";
        if (i > 0 && !(track.times[i] > track.times[i - 1]))
            return "track: times[" + std::to_string(i) + "] is not after times[" + std::to_string(i - 1) +
                   "]";
    }
    const auto countError = [keys](std::string_view name, std::size_t size, std::size_t width) {
        if (size == 0 || size == keys * width) return std::string();
        return "track: " + std::string(name) + " has " + std::to_string(size) + " values, expected " +
               std::to_string(keys * width) + " (" + std::to_string(width) + " per key, " +
               std::to_string(keys) + " keys)";
    };
    for (const std::string& error :
         {countError("translation", track.translation.size(), 3), countError("yaw", track.yaw.size(), 1),
          countError("rotation", track.rotation.size(), 4)})
        if (!error.empty()) return error;
    if (!track.yaw.empty() && !track.rotation.empty()) return "track: has both yaw and rotation; give one";
    for (std::size_t i = 0; i < track.rotation.size(); i += 4) {
        const Span<double> q = track.rotation.subspan(i, 4);
        if (std::abs(std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) - 1) > 1e-3)
            return "track: rotation[" + std::to_string(i / 4) + "] is not a unit quaternion";
    }
    for (double v : track.translation)
        if (!std::isfinite(v)) return "track: translation has a value that is not finite";
    for (double v : track.yaw)
        if (!std::isfinite(v)) return "track: yaw has a value that is not finite";
    if (std::abs(length(track.upAxis) - 1) > 1e-6) return "track: upAxis is not a unit vector";
    if (!(clipDuration(track) > 0)) return "track: duration is not positive";
    return {};
}

// ---- channels ------------------------------------------------------------------------------------

// What a root-motion channel extracts. Only these have a defensible delta; a scalar or a colour
// does not. Yaw is a rotation about the track's up axis, so it is named, never inferred.
enum class ChannelKind : std::uint8_t { Translation, Rotation, Yaw };

struct ChannelKindOrError {
    ChannelKind kind = ChannelKind::Translation;
    std::string error{};  // empty when kind is valid
    bool ok() const { return error.empty(); }
};

// "vec3"/"vector3"/"translation", "quat"/"quaternion"/"rotation", or "yaw".
inline ChannelKindOrError channelKindFromName(std::string_view name) {
    if (name == "vec3" || name == "vector3" || name == "translation") return {ChannelKind::Translation, {}};
    if (name == "quat" || name == "quaternion" || name == "rotation") return {ChannelKind::Rotation, {}};
    if (name == "yaw") return {ChannelKind::Yaw, {}};
    return {ChannelKind::Translation, "root motion channel of kind \"" + std::string(name) +
                                          "\" rejected: only a vector3 (translation) or a quaternion "
                                          "(rotation) has a defensible delta, a scalar or a colour does not"};
}

// 3 components -> translation, 4 -> quaternion. A count cannot tell an RGBA colour from a
// quaternion, so prefer channelKindFromName when the source names its kind.
inline ChannelKindOrError channelKindFromComponents(int components) {
    if (components == 3) return {ChannelKind::Translation, {}};
    if (components == 4) return {ChannelKind::Rotation, {}};
    return {ChannelKind::Translation, "root motion channel with " + std::to_string(components) +
                                          " components rejected: only a vector3 (3) or a quaternion (4) "
                                          "has a defensible delta, a scalar or a colour does not"};
}

// Points the track's channel of `kind` at `values` (flat, per-key width of the kind). Empty on
// success; the kind's error otherwise, and the track is left unchanged.
inline std::string bindChannel(Track& track, const ChannelKindOrError& kind, Span<double> values) {
    if (!kind.ok()) return kind.error;
    switch (kind.kind) {
        case ChannelKind::Translation:
            track.translation = values;
            break;
        case ChannelKind::Rotation:
            track.rotation = values;
            break;
        case ChannelKind::Yaw:
            track.yaw = values;
            break;
    }
    return {};
}

// ---- sampling ------------------------------------------------------------------------------------

// The key interval of the last sample, so playback that moves forward costs no search.
struct SampleCursor {
    std::size_t key = 0;
};

// S(t): linear between keys (yaw linear too, it is unwrapped; quaternions slerped), clamped to the
// first and last key.
inline RootTransform sampleTrack(const Track& track, double t, SampleCursor& cursor) {
    const Span<double> times = track.times;
    const std::size_t last = times.size() - 1;
    std::size_t i = std::min(cursor.key, last);
    if (t <= times[0]) {
        i = 0;
    } else if (t >= times[last]) {
        i = last;
    } else if (!(times[i] <= t && t < times[i + 1])) {
        if (i + 2 <= last && times[i + 1] <= t && t < times[i + 2])
            ++i;
        else
            i = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
    }
    cursor.key = i;
    const std::size_t j = std::min(i + 1, last);
    const double u = j == i ? 0.0 : std::clamp((t - times[i]) / (times[j] - times[i]), 0.0, 1.0);

    RootTransform pose;
    if (!track.translation.empty()) {
        const double* a = &track.translation[3 * i];
        const double* b = &track.translation[3 * j];
        pose.translation = {a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1]), a[2] + u * (b[2] - a[2])};
    }
    if (!track.yaw.empty()) {
        pose.rotation = axisAngle(track.upAxis, track.yaw[i] + u * (track.yaw[j] - track.yaw[i]));
    } else if (!track.rotation.empty()) {
        const double* a = &track.rotation[4 * i];
        const double* b = &track.rotation[4 * j];
        pose.rotation = slerp({a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]}, u);
    }
    return pose;
}

// ---- playback and loop bookkeeping ------------------------------------------------------------------

enum class LoopMode : std::uint8_t {
    Once,      // 0 -> d, then holds at d
    Loop,      // wraps d -> 0; loopCount iterations, then holds at the end of the last
    PingPong,  // 0 -> d -> 0 -> ...; loopCount legs, then holds
};

struct PlaybackOptions {
    LoopMode mode = LoopMode::Loop;
    int loopCount = 0;   // iterations (Loop) or legs (PingPong); 0 = forever; Once is 1
    double speed = 1.0;  // clip seconds per elapsed second; negative plays backwards
    // The range of clip-local time played, s (Babylon's from/to). It loops by the range: a track
    // keyed over less of it holds its last key until the range wraps. to <= 0: the clip's end.
    double from = 0;
    double to = 0;
};

// Empty when the options fit the track, else one line: the range must be inside the times the
// clip can be sampled at (from >= 0) and not empty.
inline std::string validatePlayback(const PlaybackOptions& options) {
    if (!(options.from >= 0)) return "playback: from is negative";
    if (options.to > 0 && !(options.to > options.from)) return "playback: the range from..to is empty";
    return {};
}

// One clip playing on one character. clipTime is unrolled (speed-integrated, not wrapped), so
// iteration and local time are functions of it; the held samples make a step cost one sample.
struct Playback {
    PlaybackOptions options{};  // speed may change while playing
    double from = 0;            // s, clip-local time where an iteration starts
    double duration = 0;        // d, s: the range's length, to - from
    double clipTime = 0;        // s, in [0, end] for a finite playback, unbounded for a forever one
    RootTransform start{};      // S(0), frozen at play
    RootTransform stride{};     // inverse(S(0)) * S(d): one whole cycle, frozen at play
    RootTransform previous{};   // S(l(clipTime)): the left endpoint of the next advance
    SampleCursor cursor{};
    std::uint64_t sampleCount = 0;  // samples taken, for budgets and tests: one per advance
};

inline int iterationCount(const PlaybackOptions& options) {
    return options.mode == LoopMode::Once ? 1 : options.loopCount;
}
// The unrolled clip time at which a finite playback ends; infinity when it loops forever.
inline double playbackEnd(const Playback& playback) {
    const int count = iterationCount(playback.options);
    return count > 0 ? count * playback.duration : std::numeric_limits<double>::infinity();
}
// A finite playback holds at its ends; a forever one runs on in either direction.
inline double clampClipTime(const Playback& playback, double clipTime) {
    const double end = playbackEnd(playback);
    return std::clamp(clipTime, std::isfinite(end) ? 0.0 : -end, end);
}

struct LoopPosition {
    double local = 0;            // l: clip-local time, s, in [from, from + d]
    std::int64_t iteration = 0;  // which iteration (Loop) or leg (PingPong) clipTime is in
};

// l(c) and iteration(c), the mixer's loop bookkeeping. The end of a finite playback reads as the
// end of its last iteration (l = d), not l = 0 of an iteration that does not exist.
inline LoopPosition loopPosition(const Playback& playback, double clipTime) {
    const double d = playback.duration;
    const int count = iterationCount(playback.options);
    LoopPosition at;
    double phase = 0;
    if (count > 0 && clipTime >= count * d) {
        at.iteration = count - 1;
        phase = d;
    } else if (count > 0 && clipTime <= 0) {
        phase = 0;
    } else {
        double k = std::floor(clipTime / d);
        phase = clipTime - k * d;
        if (phase < 0) {  // rounding at a seam
            phase += d;
            k -= 1;
        } else if (phase >= d) {
            phase -= d;
            k += 1;
        }
        at.iteration = static_cast<std::int64_t>(k);
    }
    const bool backwardLeg = playback.options.mode == LoopMode::PingPong && (at.iteration % 2 != 0);
    at.local = playback.from + std::clamp(backwardLeg ? d - phase : phase, 0.0, d);
    return at;
}
inline double localTime(const Playback& playback) {
    return loopPosition(playback, playback.clipTime).local;
}
inline std::int64_t iteration(const Playback& playback) {
    return loopPosition(playback, playback.clipTime).iteration;
}

inline RootTransform sampleForPlayback(Playback& playback, const Track& track, double localSeconds) {
    ++playback.sampleCount;
    return sampleTrack(track, localSeconds, playback.cursor);
}

// Starts a playback (options as validatePlayback accepts). Forward playback starts at clip time 0;
// backward at the end of a finite one (a forever loop starts at 0 either way and runs into
// negative iterations). Clip time 0 is the range's `from`.
inline Playback play(const Track& track, const PlaybackOptions& options) {
    Playback playback;
    playback.options = options;
    playback.from = options.from;
    playback.duration = (options.to > 0 ? options.to : clipDuration(track)) - options.from;
    playback.start = sampleForPlayback(playback, track, playback.from);
    playback.stride =
        relative(playback.start, sampleForPlayback(playback, track, playback.from + playback.duration));
    const double end = playbackEnd(playback);
    playback.clipTime = options.speed < 0 && std::isfinite(end) ? end : 0.0;
    playback.previous = sampleForPlayback(playback, track, localTime(playback));
    return playback;
}

// Moves the left endpoint to `clipTime` (unrolled, clamped like an advance) and applies no delta:
// a seek positions, only an advance locomotes, so scrubbing never displaces the character.
inline void seek(Playback& playback, const Track& track, double clipTime) {
    playback.clipTime = clampClipTime(playback, clipTime);
    playback.previous = sampleForPlayback(playback, track, localTime(playback));
}

// Advances by `elapsedSeconds` of wall time and returns the root's motion over it, in the
// character's frame at the start of the advance. With w wraps crossed (negative when playing
// backwards) it is inverse(S(l(a))) * S(0) * stride^w * inverse(S(0)) * S(l(b)); for a clip that
// does not turn that is the seed's (S(d) - S(l(a))) + (w - 1)(S(d) - S(0)) + (S(l(b)) - S(0)).
// A ping-pong has no seam (l is continuous), so its delta is the plain difference.
inline RootDelta advanceTo(Playback& playback, const Track& track, double clipTime) {
    const double from = playback.clipTime;
    const double to = clampClipTime(playback, clipTime);
    const LoopPosition a = loopPosition(playback, from);
    const LoopPosition b = loopPosition(playback, to);
    const RootTransform sampled = sampleForPlayback(playback, track, b.local);
    const std::int64_t wraps = playback.options.mode == LoopMode::PingPong ? 0 : b.iteration - a.iteration;

    RootTransform unrolled = sampled;  // S(l(b)) carried across the seams into a's iteration
    if (wraps != 0)
        unrolled = compose(compose(playback.start, power(playback.stride, wraps)),
                           relative(playback.start, sampled));
    const RootDelta delta = relative(playback.previous, unrolled);
    playback.previous = sampled;
    playback.clipTime = to;
    return delta;
}
inline RootDelta advance(Playback& playback, const Track& track, double elapsedSeconds) {
    return advanceTo(playback, track, playback.clipTime + playback.options.speed * elapsedSeconds);
}

// ---- followers -----------------------------------------------------------------------------------

// A playback synchronized with `master`, as Babylon's syncAllAnimationsWith: it samples its own
// track at the master's local time, so it loops by the master's range, through the master's loops,
// at the master's speed, in either direction; a follower of a follower follows the first master
// alike. Its track may be keyed over less of the range (it holds its last key, and the master's
// wrap is not read as travel) or more (only the master's range plays). A follower that does not
// loop plays the master's first iteration and ends at the master's frame where that ends.
inline Playback playFollower(const Track& track, const Playback& master, bool loops = true) {
    PlaybackOptions options = master.options;
    options.from = master.from;
    options.to = master.from + master.duration;
    if (!loops) options.mode = LoopMode::Once;
    Playback follower = play(track, options);
    seek(follower, track, master.clipTime);
    return follower;
}

// The follower's delta up to where the master is now: call after advancing (or seeking) the master.
inline RootDelta follow(Playback& follower, const Track& track, const Playback& master) {
    return advanceTo(follower, track, master.clipTime);
}

// ---- markers and phase ---------------------------------------------------------------------------

// The sidecar's markers: `markers.events` (foot down and up; SidecarMarkers::eventTimes gives
// their times) and `markers.phase.anchors` (the chosen foot's downs, each the start of a cycle).
// Both are clip-local times, sorted, in [0, duration).

// Calls visit(i) for every marker times[i] that a playback passes while its clip time moves from
// `fromClipTime` to `toClipTime` (unrolled, as Playback::clipTime; clamped as an advance clamps):
// forward (from, to], backward [to, from), through every loop seam and ping-pong turn, in the
// order passed. Markers outside the playback's range are never passed. Returns how many.
// Usage: double before = walk.clipTime; rt::advance(walk, track, dt);
//        rt::markersPassed(walk, eventTimes, before, walk.clipTime, [&](std::size_t i) { ... });
template <class Visit>
std::size_t markersPassed(const Playback& playback, Span<double> times, double fromClipTime,
                          double toClipTime, Visit&& visit) {
    const double a = clampClipTime(playback, fromClipTime), b = clampClipTime(playback, toClipTime);
    const double d = playback.duration;
    if (a == b || times.empty() || !(d > 0)) return 0;
    const bool forward = b > a;
    const double low = std::min(a, b), high = std::max(a, b);
    // Iterations (legs) overlapping [low, high]; an end on a seam belongs to both.
    const auto first = static_cast<std::int64_t>(std::floor(low / d));
    const auto last = static_cast<std::int64_t>(std::floor(high / d));
    std::size_t count = 0;
    for (std::int64_t step = 0; step <= last - first; ++step) {
        const std::int64_t leg = forward ? first + step : last - step;
        const bool backwardLeg = playback.options.mode == LoopMode::PingPong && (leg % 2 != 0);
        // Within a leg, clip time grows with local time on a forward leg, falls on a backward one.
        const bool ascending = forward != backwardLeg;
        for (std::size_t k = 0; k < times.size(); ++k) {
            const std::size_t i = ascending ? k : times.size() - 1 - k;
            const double offset = times[i] - playback.from;
            if (offset < 0 || offset >= d) continue;
            const double c = static_cast<double>(leg) * d + (backwardLeg ? d - offset : offset);
            const bool passed = forward ? (a < c && c <= b) : (b <= c && c < a);
            if (!passed) continue;
            visit(i);
            ++count;
        }
    }
    return count;
}

// Empty when `anchors` can carry a phase over a loop of `duration` s: at least one, sorted,
// strictly increasing, in [0, duration); else one line.
inline std::string validatePhaseAnchors(Span<double> anchors, double duration) {
    if (anchors.empty()) return "phase: no anchors (the clip has no foot down)";
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        if (!(anchors[i] >= 0 && anchors[i] < duration))
            return "phase: anchors[" + std::to_string(i) + "] is not in [0, duration)";
        if (i > 0 && !(anchors[i] > anchors[i - 1]))
            return "phase: anchors[" + std::to_string(i) + "] is not after anchors[" + std::to_string(i - 1) +
                   "]";
    }
    return {};
}

// Cycles passed at unrolled clip-local time t (t = local time + whole loops of `duration`): a
// cycle runs from one anchor to the next, the last to the first of the next loop, and the phase
// grows linearly in it. So cycleProgress is n per loop (n anchors), 0 at anchors[0] of loop 0,
// continuous and increasing; its fraction is the phase. Anchors as validatePhaseAnchors accepts.
inline double cycleProgress(Span<double> anchors, double duration, double t) {
    const std::size_t n = anchors.size();
    const double shifted = t - anchors[0];
    const double loop = std::floor(shifted / duration);
    const double r = std::clamp(shifted - loop * duration, 0.0, duration);  // since anchors[0]
    std::size_t j = 0;                                                      // the cycle r is in
    while (j + 1 < n && anchors[j + 1] - anchors[0] <= r) ++j;
    const double begin = anchors[j] - anchors[0];
    const double end = j + 1 < n ? anchors[j + 1] - anchors[0] : duration;
    return loop * static_cast<double>(n) + static_cast<double>(j) + (r - begin) / (end - begin);
}

// The inverse: the unrolled clip-local time at which cycleProgress reaches `progress`.
inline double timeAtCycleProgress(Span<double> anchors, double duration, double progress) {
    const auto n = static_cast<double>(anchors.size());
    const double loop = std::floor(progress / n);
    const double within = progress - loop * n;  // [0, n)
    const auto j = std::min(anchors.size() - 1, static_cast<std::size_t>(std::floor(within)));
    const double begin = anchors[j];
    const double end = j + 1 < anchors.size() ? anchors[j + 1] : anchors[0] + duration;
    return loop * duration + begin + (within - static_cast<double>(j)) * (end - begin);
}

// The phase, in [0, 1), at clip-local time t: 0 at each anchor (the chosen foot's down).
inline double phaseAt(Span<double> anchors, double duration, double t) {
    const double progress = cycleProgress(anchors, duration, t);
    const double phase = progress - std::floor(progress);
    return phase < 1 ? phase : 0;
}

// The clip-local time, in [0, duration), at which cycle `cycle` (0: the one that starts at
// anchors[0]; taken modulo the anchors) reaches `phase` (wrapped into [0, 1)).
inline double timeAtPhase(Span<double> anchors, double duration, double phase, std::size_t cycle = 0) {
    const double wrapped = phase - std::floor(phase);
    const double t =
        timeAtCycleProgress(anchors, duration, static_cast<double>(cycle % anchors.size()) + wrapped);
    const double local = t - std::floor(t / duration) * duration;
    return local < duration ? local : 0;
}

// The cycles a Loop (or Once) playback has passed: cycleProgress at its unrolled local time, its
// range start plus its clip time. Anchors in the playback's range.
inline double playbackCycleProgress(const Playback& playback, Span<double> anchors) {
    return cycleProgress(anchors, playback.duration, playback.from + playback.clipTime);
}

// A playback synchronized with a leader by markers, as an engine's sync group: the follower's
// cycle progress follows the leader's, so its foot downs land on the leader's (phase 0 on phase
// 0, a half cycle on a half cycle) whatever the two clips' lengths, and it plays faster or slower
// to stay in step. It keeps the difference of whole cycles it started with.
struct MarkerFollower {
    Playback playback{};
    double cycleOffset = 0;  // follower progress = leader progress + cycleOffset
};

// Starts a follower at the leader's phase, in its own first cycle. Both tracks loop over their
// whole clip (Loop mode); anchors as validatePhaseAnchors accepts, each for its own track.
inline MarkerFollower playMarkerFollower(const Track& track, Span<double> anchors, const Playback& leader,
                                         Span<double> leaderAnchors) {
    PlaybackOptions options;  // Loop forever over the whole clip: the leader decides when it stops
    MarkerFollower follower{play(track, options), 0.0};
    const double leaderProgress = playbackCycleProgress(leader, leaderAnchors);
    follower.cycleOffset = -std::floor(leaderProgress);
    seek(follower.playback, track,
         timeAtCycleProgress(anchors, follower.playback.duration, leaderProgress + follower.cycleOffset));
    return follower;
}

// The follower's delta up to the leader's phase now: call after advancing the leader.
inline RootDelta followMarkers(MarkerFollower& follower, const Track& track, Span<double> anchors,
                               const Playback& leader, Span<double> leaderAnchors) {
    const double progress = playbackCycleProgress(leader, leaderAnchors) + follower.cycleOffset;
    return advanceTo(
        follower.playback, track,
        timeAtCycleProgress(anchors, follower.playback.duration, progress) - follower.playback.from);
}

// ---- authority -----------------------------------------------------------------------------------

// Deduplicates the warning for a target that is not under animation authority.
struct AuthorityLatch {
    bool reported = false;
};

// True when the delta may land. A refused delta is dropped, not banked: the caller has advanced
// anyway, so motion resumes from the clip's current position once granted. `warn()` runs on the
// first refusal only.
template <class Warn>
bool admit(AuthorityLatch& latch, bool granted, Warn&& warn) {
    if (granted) return true;
    if (!latch.reported) {
        latch.reported = true;
        warn();
    }
    return false;
}

// ---- applying ------------------------------------------------------------------------------------

// A node's local TRS: a point p of the node maps to translation + rotation * (scale * p).
struct NodeTransform {
    Vec3 translation{};
    Quat rotation{};
    Vec3 scale{1, 1, 1};
};

// Applies the delta in the node's own local space: the translation is a step in the node's frame,
// so it is scaled and rotated by the node before it is added; the rotation is multiplied on.
inline void applyToLocal(NodeTransform& node, const RootDelta& delta) {
    node.translation =
        node.translation + rotate(node.rotation, componentProduct(node.scale, delta.translation));
    node.rotation = normalize(node.rotation * delta.rotation);
}

// The delta in world space, for a caller that moves the character itself (a physics controller).
struct WorldDelta {
    Vec3 translation{};  // world units
    Quat rotation{};     // world-space rotation: world * rotation is the new world rotation
    double turn = 0;     // radians about worldUp
};

// `characterWorld` is the character node's world TRS; worldUp is a unit vector.
inline WorldDelta toWorld(const RootDelta& delta, const NodeTransform& characterWorld, Vec3 worldUp) {
    const Quat q = characterWorld.rotation;
    WorldDelta world;
    world.translation = rotate(q, componentProduct(characterWorld.scale, delta.translation));
    world.rotation = normalize(q * delta.rotation * conjugate(q));
    world.turn = turnAbout(world.rotation, worldUp);
    return world;
}

// ---- blending ------------------------------------------------------------------------------------

// The weight of a clip that is not weighted: Babylon's AnimationGroup weight -1.
constexpr double kUnweighted = -1.0;

// One playing clip's delta for this step and how it blends.
struct Contribution {
    RootDelta delta{};
    double weight = 1.0;    // the clip's blend weight, >= 0, or kUnweighted
    bool additive = false;  // added on top of the weighted blend
};

// As Babylon's RootMotionController blends: weighted clips contribute their share, normalized once
// the weights add up to more than one; an unweighted clip contributes its whole motion only while
// no weighted clip plays (of several, the last one in `clips` wins, as the last group to write
// the root does); additive clips add theirs on top (an unweighted additive one all of it).
// Translations blend as a weighted sum, and so does the turn (as a rotation vector: for turns
// about the up axis, a weighted sum of yaw angles).
inline RootDelta blendDeltas(Span<Contribution> clips) {
    double totalWeight = 0;
    bool anyWeighted = false;
    const Contribution* lastUnweighted = nullptr;
    for (const Contribution& clip : clips) {
        if (clip.additive) continue;
        if (clip.weight < 0) {
            lastUnweighted = &clip;
        } else {
            anyWeighted = true;
            totalWeight += clip.weight;
        }
    }
    const double normalizer = totalWeight > 1 ? 1.0 / totalWeight : 1.0;
    Vec3 translation{}, turn{};
    for (const Contribution& clip : clips) {
        double share = clip.weight * normalizer;
        if (clip.additive)
            share = clip.weight < 0 ? 1.0 : clip.weight;
        else if (clip.weight < 0)
            share = !anyWeighted && &clip == lastUnweighted ? 1.0 : 0.0;
        const AxisAngle rotation = toAxisAngle(clip.delta.rotation);
        translation = translation + share * clip.delta.translation;
        turn = turn + (share * rotation.angle) * rotation.axis;
    }
    const double angle = length(turn);
    return {translation, angle > 0 ? axisAngle((1.0 / angle) * turn, angle) : Quat{}};
}

}  // namespace rootbake::runtime
