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

// The sorted columns in blocks of consecutive points, each with its box: a block whose
// every point is surely in reach counts whole, one whose every point is surely out is
// skipped. A planted foot's steps all lie within each other's reach, so without the
// blocks its count compares every pair (2048^2 for an idle clip). The size changes the
// work, never the counts: on the pack's inspect 16 points cost 47 M instructions, 32 30 M,
// 128 19 M, 512 23 M (a box of more is less often wholly in or out).
constexpr std::size_t kBlock = 128;

struct Box {
    glm::dvec3 low, high;
};

std::vector<Box> boxesOf(const Columns& c) {
    std::vector<Box> boxes;
    for (std::size_t first = 0; first + kBlock <= c.x.size(); first += kBlock) {
        Box box{{c.x[first], c.y[first], c.z[first]}, {c.x[first], c.y[first], c.z[first]}};
        for (std::size_t j = first + 1; j < first + kBlock; ++j) {
            const glm::dvec3 v(c.x[j], c.y[j], c.z[j]);
            box.low = glm::min(box.low, v), box.high = glm::max(box.high, v);
        }
        boxes.push_back(box);
    }
    return boxes;
}

// The squared distance countWithin computes from p to the farthest and to the nearest
// point a box can hold. Each rounded step (difference, square, sum) never decreases when
// its operands grow in size, so no point of the box gets a larger (or smaller) one: the
// bounds decide for the whole block exactly as the pairs one by one would.
double farthestSquared(const Box& box, const glm::dvec3& p) {
    glm::dvec3 d;
    for (int a = 0; a < 3; ++a) d[a] = std::max(std::abs(box.high[a] - p[a]), std::abs(box.low[a] - p[a]));
    return (d.x * d.x + d.y * d.y) + d.z * d.z;
}
double nearestSquared(const Box& box, const glm::dvec3& p) {
    glm::dvec3 d;
    for (int a = 0; a < 3; ++a)
        d[a] = p[a] < box.low[a] ? box.low[a] - p[a] : p[a] > box.high[a] ? p[a] - box.high[a] : 0.0;
    return (d.x * d.x + d.y * d.y) + d.z * d.z;
}

// The points of [first, last) within sqrt(r2) of p, whole blocks decided by their boxes
// (boxes empty: every point compared).
int countRun(const Columns& c, const std::vector<Box>& boxes, std::size_t first, std::size_t last,
             const glm::dvec3& p, double r2, bool avx2) {
    int count = 0;
    for (std::size_t j = first; j < last;) {
        const std::size_t block = j / kBlock, end = std::min(last, (block + 1) * kBlock);
        if (block < boxes.size() && j == block * kBlock && end - j == kBlock) {
            if (farthestSquared(boxes[block], p) <= r2) {
                count += int(kBlock);
                j = end;
                continue;
            }
            if (nearestSquared(boxes[block], p) > r2) {
                j = end;
                continue;
            }
        }
        count += avx2 ? countWithinAvx2(c, j, end, p, r2) : countWithinPortable(c, j, end, p, r2);
        j = end;
    }
    return count;
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
    const std::vector<Box> boxes = ordered ? boxesOf(columns) : std::vector<Box>{};
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
        counts[i] = countRun(columns, boxes, first, last, p, r2, avx2);
    }
    return counts;
}

}  // namespace rootbake::core
