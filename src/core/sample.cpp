// Channel sampling exactly as glTF 2.0 (Appendix C) interpolates.
#include "rootbake/bake.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace rootbake {
namespace {

// Finds k with times[k] <= t < times[k+1], given 0 < t-range interior. The
// cursor makes a sweep of increasing times amortized O(1).
int findInterval(const std::vector<float>& times, double t, ChannelCursor& cursor) {
    const int last = static_cast<int>(times.size()) - 2;
    int k = std::clamp(cursor.key, 0, last);
    if (times[k] > t) {
        // Went backwards: one binary search, then carry on forwards.
        k = static_cast<int>(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
        k = std::clamp(k, 0, last);
    }
    while (k < last && times[k + 1] <= t) ++k;
    cursor.key = k;
    return k;
}

void normalizeQuat(double* q) {
    const double len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (len > 0.0) {
        for (int i = 0; i < 4; ++i) q[i] /= len;
    } else {
        q[0] = q[1] = q[2] = 0.0;
        q[3] = 1.0;
    }
}

// The part of a slerp that depends on its two keys only.
void measureArc(const float* a, const float* b, ChannelCursor::Arc& arc) {
    std::memcpy(arc.a, a, sizeof arc.a);
    std::memcpy(arc.b, b, sizeof arc.b);
    arc.valid = true;
    double* qa = arc.qa;
    double* qb = arc.qb;
    for (int i = 0; i < 4; ++i) qa[i] = a[i], qb[i] = b[i];
    normalizeQuat(qa);
    normalizeQuat(qb);
    double dot = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    if (dot < 0.0) {
        dot = -dot;
        for (int i = 0; i < 4; ++i) qb[i] = -qb[i];
    }
    arc.angle = arc.sinAngle = 0.0;
    if (dot < 1.0 - 1e-9) {  // else the arc is too short for sin() to divide by
        arc.angle = std::acos(std::min(dot, 1.0));
        arc.sinAngle = std::sin(arc.angle);
    }
}

// Shortest-path spherical interpolation of two unit quaternions (x, y, z, w).
void slerp(const float* a, const float* b, double u, ChannelCursor::Arc& arc, double* out) {
    if (!arc.valid || std::memcmp(arc.a, a, sizeof arc.a) != 0 || std::memcmp(arc.b, b, sizeof arc.b) != 0)
        measureArc(a, b, arc);
    double wa = 1.0 - u, wb = u;
    if (arc.sinAngle != 0.0) {
        wa = std::sin((1.0 - u) * arc.angle) / arc.sinAngle;
        wb = std::sin(u * arc.angle) / arc.sinAngle;
    }
    for (int i = 0; i < 4; ++i) out[i] = wa * arc.qa[i] + wb * arc.qb[i];
    normalizeQuat(out);
}

const float* keyValue(const Channel& c, int key) {
    const int width = c.width();
    const int stride = c.interpolation == Interpolation::CubicSpline ? 3 * width : width;
    const int offset = c.interpolation == Interpolation::CubicSpline ? width : 0;
    return c.values.data() + static_cast<size_t>(key) * stride + offset;
}

void copyKey(const Channel& c, int key, double* out) {
    const float* v = keyValue(c, key);
    for (int i = 0; i < c.width(); ++i) out[i] = v[i];
    if (c.path == Path::Rotation) normalizeQuat(out);
}

}  // namespace

void sampleChannel(const Channel& c, double t, ChannelCursor& cursor, double* out) {
    const int n = c.keyCount();
    if (n == 1 || t < c.times.front()) return copyKey(c, 0, out);
    if (t == c.times.front()) {  // keys at one time are a step to the later one, here too
        int k = 0;
        while (k + 1 < n && c.times[k + 1] == c.times.front()) ++k;
        return copyKey(c, k, out);
    }
    if (t >= c.times.back()) return copyKey(c, n - 1, out);

    const int k = findInterval(c.times, t, cursor);
    if (c.interpolation == Interpolation::Step) return copyKey(c, k, out);

    const double t0 = c.times[k], t1 = c.times[k + 1];
    const double dt = t1 - t0;
    if (!(dt > 0.0)) return copyKey(c, k + 1, out);  // not reached: findInterval skips empty intervals
    const double u = (t - t0) / dt;
    const int width = c.width();
    const float* v0 = keyValue(c, k);
    const float* v1 = keyValue(c, k + 1);

    if (c.interpolation == Interpolation::Linear) {
        if (c.path == Path::Rotation) return slerp(v0, v1, u, cursor.arc, out);
        for (int i = 0; i < width; ++i) out[i] = v0[i] + (v1[i] - v0[i]) * u;
        return;
    }

    // CUBICSPLINE: Hermite with tangents scaled by the key interval dt, not by u.
    const float* outTangent0 = v0 + width;
    const float* inTangent1 = v1 - width;
    const double u2 = u * u, u3 = u2 * u;
    const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u;
    const double h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
    for (int i = 0; i < width; ++i)
        out[i] = h00 * v0[i] + h10 * dt * outTangent0[i] + h01 * v1[i] + h11 * dt * inTangent1[i];
    if (c.path == Path::Rotation) normalizeQuat(out);
}

void sampleChannel(const Channel& channel, double t, double* out) {
    ChannelCursor cursor;
    sampleChannel(channel, t, cursor, out);
}

}  // namespace rootbake
