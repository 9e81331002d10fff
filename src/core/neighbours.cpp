#include "neighbours.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

namespace rootbake::core {

namespace {

// Four doubles and four 64-bit lanes: GCC and Clang lower them to one AVX2 instruction
// or two SSE2 ones. Each lane is computed as glm::dot computes, (x*x + y*y) + z*z,
// with no fused multiply-add (neither target enables one), so the counts are exact.
typedef double Doubles __attribute__((vector_size(32)));
typedef std::int64_t Lanes __attribute__((vector_size(32)));
constexpr std::size_t kLanes = 4;

// The points as three arrays, in the order of one axis (`key` is that axis's column).
struct Columns {
    std::vector<double> x, y, z;
    const std::vector<double>* key = nullptr;
};

// The points of [first, last) within sqrt(r2) of p; inlined into each target below.
__attribute__((always_inline)) inline int countWithin(const Columns& c, std::size_t first, std::size_t last,
                                                      const glm::dvec3& p, double r2) {
    Lanes inside = {0, 0, 0, 0};
    const Doubles px = {p.x, p.x, p.x, p.x}, py = {p.y, p.y, p.y, p.y}, pz = {p.z, p.z, p.z, p.z};
    const Doubles limit = {r2, r2, r2, r2};
    std::size_t j = first;
    for (; j + kLanes <= last; j += kLanes) {
        Doubles x, y, z;
        std::memcpy(&x, &c.x[j], sizeof x);
        std::memcpy(&y, &c.y[j], sizeof y);
        std::memcpy(&z, &c.z[j], sizeof z);
        const Doubles dx = x - px, dy = y - py, dz = z - pz;
        inside -= (dx * dx + dy * dy) + dz * dz <= limit;  // a true lane is -1
    }
    int count = int(inside[0] + inside[1] + inside[2] + inside[3]);
    for (; j < last; ++j) {
        const double dx = c.x[j] - p.x, dy = c.y[j] - p.y, dz = c.z[j] - p.z;
        count += (dx * dx + dy * dy) + dz * dz <= r2;
    }
    return count;
}

__attribute__((target("avx2"))) int countWithinAvx2(const Columns& c, std::size_t first, std::size_t last,
                                                    const glm::dvec3& p, double r2) {
    return countWithin(c, first, last, p, r2);
}

int countWithinPortable(const Columns& c, std::size_t first, std::size_t last, const glm::dvec3& p, double r2) {
    return countWithin(c, first, last, p, r2);
}

// The axis along which the points spread widest: sorted along it, a point's
// neighbours are a short run.
int widestAxis(std::span<const glm::dvec3> points) {
    glm::dvec3 low(points[0]), high(points[0]);
    for (const glm::dvec3& p : points) low = glm::min(low, p), high = glm::max(high, p);
    const glm::dvec3 spread = high - low;
    return spread.x >= spread.y && spread.x >= spread.z ? 0 : spread.y >= spread.z ? 1 : 2;
}

// The columns in the order of `axis` when `sorted`, else as given.
Columns columnsAlong(std::span<const glm::dvec3> points, int axis, bool sorted) {
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (sorted)
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return points[a][axis] < points[b][axis]; });
    Columns c;
    for (std::size_t i : order) c.x.push_back(points[i].x), c.y.push_back(points[i].y), c.z.push_back(points[i].z);
    c.key = axis == 0 ? &c.x : axis == 1 ? &c.y : &c.z;
    return c;
}

}  // namespace

std::vector<int> neighbourCounts(std::span<const glm::dvec3> points, std::span<const double> radii) {
    std::vector<int> counts(points.size());
    if (points.empty()) return counts;
    static const bool avx2 = __builtin_cpu_supports("avx2");
    // Along the sorted axis, a point y is out of reach of p when (y_a - p_a)^2 alone, rounded as
    // in the full sum, exceeds r2: the sum of that and two non-negative squares, rounded to
    // nearest, is no smaller. The rounded square grows with the distance along the axis, so
    // the points within reach are one run, found by two binary searches. With a point that
    // is not finite (NaN has no order), every point is compared with every other.
    const bool ordered = std::all_of(points.begin(), points.end(), [](const glm::dvec3& p) {
        return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
    });
    const int axis = ordered ? widestAxis(points) : 0;
    const Columns columns = columnsAlong(points, axis, ordered);
    const std::vector<double>& key = *columns.key;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const glm::dvec3& p = points[i];
        const double r2 = radii[i] * radii[i];
        std::size_t first = 0, last = key.size();
        if (ordered) {
            const double centre = p[axis];
            auto reaches = [&](double v) {
                const double d = v - centre;
                return !(d * d > r2);  // r2 NaN or infinite: every point is compared
            };
            first = std::size_t(std::partition_point(key.begin(), key.end(),
                                                     [&](double v) { return v < centre && !reaches(v); }) -
                                key.begin());
            last = std::size_t(std::partition_point(key.begin() + std::ptrdiff_t(first), key.end(),
                                                    [&](double v) { return v <= centre || reaches(v); }) -
                               key.begin());
        }
        counts[i] = avx2 ? countWithinAvx2(columns, first, last, p, r2)
                         : countWithinPortable(columns, first, last, p, r2);
    }
    return counts;
}

}  // namespace rootbake::core
