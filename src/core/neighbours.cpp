#include "neighbours.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace rootbake::core {

namespace {

// Four doubles and four 64-bit lanes: GCC and Clang lower them to one AVX2 instruction
// or two SSE2 ones. Each lane is computed as glm::dot computes, (x*x + y*y) + z*z,
// with no fused multiply-add (neither target enables one), so the counts are exact.
typedef double Doubles __attribute__((vector_size(32)));
typedef std::int64_t Lanes __attribute__((vector_size(32)));
constexpr std::size_t kLanes = 4;

// The points as three arrays, padded to a multiple of four with NaN points, which
// no comparison counts.
struct Columns {
    std::vector<double> x, y, z;
};

Columns columnsOf(std::span<const glm::dvec3> points) {
    Columns c;
    const std::size_t padded = (points.size() + kLanes - 1) / kLanes * kLanes;
    const double none = std::numeric_limits<double>::quiet_NaN();
    c.x.assign(padded, none), c.y.assign(padded, none), c.z.assign(padded, none);
    for (std::size_t i = 0; i < points.size(); ++i) c.x[i] = points[i].x, c.y[i] = points[i].y, c.z[i] = points[i].z;
    return c;
}

// The points within sqrt(r2) of p, four pairs at a time; inlined into each target below.
__attribute__((always_inline)) inline int countWithin(const Columns& c, const glm::dvec3& p, double r2) {
    Lanes inside = {0, 0, 0, 0};
    const Doubles px = {p.x, p.x, p.x, p.x}, py = {p.y, p.y, p.y, p.y}, pz = {p.z, p.z, p.z, p.z};
    const Doubles limit = {r2, r2, r2, r2};
    for (std::size_t j = 0; j < c.x.size(); j += kLanes) {
        Doubles x, y, z;
        std::memcpy(&x, &c.x[j], sizeof x);
        std::memcpy(&y, &c.y[j], sizeof y);
        std::memcpy(&z, &c.z[j], sizeof z);
        const Doubles dx = x - px, dy = y - py, dz = z - pz;
        inside -= (dx * dx + dy * dy) + dz * dz <= limit;  // a true lane is -1
    }
    return int(inside[0] + inside[1] + inside[2] + inside[3]);
}

__attribute__((target("avx2"))) int countWithinAvx2(const Columns& c, const glm::dvec3& p, double r2) {
    return countWithin(c, p, r2);
}

int countWithinPortable(const Columns& c, const glm::dvec3& p, double r2) { return countWithin(c, p, r2); }

}  // namespace

std::vector<int> neighbourCounts(std::span<const glm::dvec3> points, std::span<const double> radii) {
    const Columns columns = columnsOf(points);
    static const bool avx2 = __builtin_cpu_supports("avx2");
    std::vector<int> counts(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double r2 = radii[i] * radii[i];
        counts[i] = avx2 ? countWithinAvx2(columns, points[i], r2) : countWithinPortable(columns, points[i], r2);
    }
    return counts;
}

}  // namespace rootbake::core
