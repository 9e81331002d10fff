// The ground-speed cluster's neighbour counts (src/core/neighbours.cpp), four pairs
// at a time, against the definition: every pair compared one by one with glm::dot.
#include "core/neighbours.h"

#include <glm/geometric.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

using rootbake::core::neighbourCounts;

namespace {

std::vector<int> pairByPair(const std::vector<glm::dvec3>& points, const std::vector<double>& radii) {
    std::vector<int> counts(points.size(), 0);
    for (std::size_t i = 0; i < points.size(); ++i)
        for (const glm::dvec3& y : points) {
            const glm::dvec3 d = y - points[i];
            counts[i] += glm::dot(d, d) <= radii[i] * radii[i];
        }
    return counts;
}

}  // namespace

TEST_CASE("neighbours: the counts of comparing every pair, for every size and on the radius's edge") {
    std::mt19937 random(7);
    std::normal_distribution<double> spread(0.0, 0.02);
    for (std::size_t size : {0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 500, 2048}) {
        // Steps as the contacts give them: a planted cluster on the ground plane (y = 0), stragglers, repeats.
        std::vector<glm::dvec3> points;
        std::vector<double> radii;
        for (std::size_t i = 0; i < size; ++i) {
            const bool planted = i % 3 != 0;
            points.push_back(planted ? glm::dvec3(-0.02 + spread(random) * 0.1, 0.0, 0.03 + spread(random) * 0.1)
                                     : glm::dvec3(spread(random), 0.0, spread(random)));
            if (i % 11 == 5) points.back() = points[i / 2];
            radii.push_back(0.25 * std::max(glm::length(points.back()), 0.004));
        }
        // A point exactly on another's radius: the comparison is <=, so it counts.
        if (size >= 2) points[1] = points[0] + glm::dvec3(radii[0], 0.0, 0.0);
        CHECK_MESSAGE(neighbourCounts(points, radii) == pairByPair(points, radii), "size " << size);
    }
    // Spread along z, or along y (a rig whose up is x); a point that is not finite, or a radius
    // that is not (every pair compared then).
    for (int variant = 0; variant < 4; ++variant) {
        std::vector<glm::dvec3> points;
        std::vector<double> radii;
        for (int i = 0; i < 300; ++i) {
            const double a = spread(random) * 5.0, b = spread(random);
            points.push_back(variant == 1 ? glm::dvec3(0.0, a, b) : glm::dvec3(b, 0.0, a));
            radii.push_back(0.3 * std::max(glm::length(points.back()), 0.004));
        }
        if (variant == 2) points[17] = glm::dvec3(std::nan(""), 0.0, 0.0), points[40] = glm::dvec3(1e308, 0.0, std::numeric_limits<double>::infinity());
        if (variant == 3) radii[3] = std::nan(""), radii[4] = 1e200, radii[5] = std::numeric_limits<double>::infinity();
        CHECK_MESSAGE(neighbourCounts(points, radii) == pairByPair(points, radii), "variant " << variant);
    }
    // Zero radii count the point itself and its repeats only.
    const std::vector<glm::dvec3> repeated = {glm::dvec3(1.0), glm::dvec3(1.0), glm::dvec3(2.0)};
    CHECK(neighbourCounts(repeated, std::vector<double>{0.0, 0.0, 0.0}) == std::vector<int>{2, 2, 1});
}

TEST_CASE("neighbours: blocks counted or skipped whole give the counts of every pair") {
    std::mt19937 random(11);
    std::normal_distribution<double> unit(0.0, 1.0);
    // An idle clip's steps: every one within every other's reach (whole blocks counted), then
    // clusters at scales where a block's box is partly in reach, partly out.
    for (double spread : {1e-6, 1e-4, 1e-3, 3e-3, 1e-2, 0.1}) {
        for (std::size_t size : {31, 127, 128, 129, 256, 300, 2048}) {
            std::vector<glm::dvec3> points;
            std::vector<double> radii;
            for (std::size_t i = 0; i < size; ++i) {
                const double lane = (i % 4 == 0) ? 0.05 : 0.0;  // a second cluster a little away
                points.push_back(glm::dvec3(lane + spread * unit(random), 0.0, spread * unit(random)));
                radii.push_back(0.25 * std::max(glm::length(points.back()), 0.004));
            }
            CHECK_MESSAGE(neighbourCounts(points, radii) == pairByPair(points, radii),
                          "spread " << spread << ", size " << size);
        }
    }
    // A radius that ends exactly at a block's farthest corner, and one a hair short of it: a
    // 16 x 16 grid, sorted along x into two blocks of 128 points 0.875 wide and 1.875 deep.
    std::vector<glm::dvec3> grid;
    for (int i = 0; i < 256; ++i) grid.push_back(glm::dvec3(0.125 * (i % 16), 0.0, 0.125 * (i / 16)));
    const double corner = std::sqrt(0.875 * 0.875 + 1.875 * 1.875);
    for (double r : {corner, std::nextafter(corner, 0.0), std::nextafter(corner, 9.0), 0.875, 0.5, 3.0}) {
        const std::vector<double> radii(grid.size(), r);
        CHECK_MESSAGE(neighbourCounts(grid, radii) == pairByPair(grid, radii), "radius " << r);
    }
}
