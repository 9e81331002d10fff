// Closed-form checks of channel sampling and pose evaluation (glTF 2.0, Appendix C).
#include "rootbake/bake.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace rootbake;

namespace {

Channel makeChannel(Path path, Interpolation interpolation, std::vector<float> times, std::vector<float> values) {
    Channel c;
    c.path = path;
    c.interpolation = interpolation;
    c.times = std::move(times);
    c.values = std::move(values);
    return c;
}

double sample1(const Channel& c, double t) {
    double v[4];
    sampleChannel(c, t, v);
    return v[0];
}

}  // namespace

TEST_CASE("sample: STEP holds each key until the next") {
    auto c = makeChannel(Path::Translation, Interpolation::Step, {0, 1, 2}, {1, 0, 0, 5, 0, 0, 9, 0, 0});
    CHECK(sample1(c, 0.0) == 1.0);
    CHECK(sample1(c, 0.999) == 1.0);
    CHECK(sample1(c, 1.0) == 5.0);
    CHECK(sample1(c, 1.5) == 5.0);
    CHECK(sample1(c, 2.0) == 9.0);
}

TEST_CASE("sample: LINEAR interpolates and clamps outside the keys") {
    auto c = makeChannel(Path::Translation, Interpolation::Linear, {1, 2, 4}, {0, 0, 0, 2, 0, 0, 6, 0, 0});
    CHECK(sample1(c, 0.0) == 0.0);  // before the first key: the first value
    CHECK(sample1(c, 1.5) == doctest::Approx(1.0));
    CHECK(sample1(c, 3.0) == doctest::Approx(4.0));
    CHECK(sample1(c, 9.0) == 6.0);  // after the last key: the last value
}

TEST_CASE("sample: a single key is constant") {
    auto c = makeChannel(Path::Translation, Interpolation::Linear, {0.5f}, {3, 4, 5});
    double v[3];
    sampleChannel(c, 0.0, v);
    CHECK(v[1] == 4.0);
    sampleChannel(c, 7.0, v);
    CHECK(v[2] == 5.0);
}

TEST_CASE("sample: CUBICSPLINE reproduces a cubic exactly, with unequal key spacing") {
    // f(t) = t^3 as Hermite keys (in-tangent, value, out-tangent) at t = 0, 1, 3; tangents are f'(t) in
    // units per second. Scaling them by the key interval (2 s on the second segment) is what the spec says.
    auto c = makeChannel(Path::Translation, Interpolation::CubicSpline, {0, 1, 3},
                         {0, 0, 0, 0, 0, 0, 0, 0, 0,          // t = 0: f' = 0, f = 0
                          3, 0, 0, 1, 0, 0, 3, 0, 0,          // t = 1: f' = 3, f = 1
                          27, 0, 0, 27, 0, 0, 27, 0, 0});     // t = 3: f' = 27, f = 27
    CHECK(sample1(c, 0.5) == doctest::Approx(0.125));
    CHECK(sample1(c, 2.0) == doctest::Approx(8.0));
    CHECK(sample1(c, 2.5) == doctest::Approx(15.625));
    CHECK(sample1(c, 3.0) == doctest::Approx(27.0));
}

TEST_CASE("sample: rotations slerp along the shortest path across the hemisphere") {
    const float h = std::sqrt(0.5f);
    // Identity, then 90 degrees about +Y stored with a negative w (the same rotation, other hemisphere).
    auto c = makeChannel(Path::Rotation, Interpolation::Linear, {0, 1}, {0, 0, 0, 1, 0, -h, 0, -h});
    double q[4];
    sampleChannel(c, 0.5, q);
    const double sign = q[3] < 0 ? -1.0 : 1.0;
    CHECK(sign * q[1] == doctest::Approx(std::sin(M_PI / 8)));  // 45 degrees, not 135
    CHECK(sign * q[3] == doctest::Approx(std::cos(M_PI / 8)));
    CHECK(q[0] == doctest::Approx(0.0));
    CHECK(q[2] == doctest::Approx(0.0));
    sampleChannel(c, 0.25, q);
    CHECK(std::abs(q[1]) == doctest::Approx(std::sin(M_PI / 16)));
}

TEST_CASE("sample: CUBICSPLINE rotations come out normalized") {
    auto c = makeChannel(Path::Rotation, Interpolation::CubicSpline, {0, 1},
                         {0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0,  //
                          0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
    double q[4];
    sampleChannel(c, 0.3, q);
    CHECK(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] == doctest::Approx(1.0));
}

TEST_CASE("sample: a forward cursor gives the same values as a fresh search, forwards and back") {
    std::vector<float> times, values;
    for (int k = 0; k < 50; ++k) {
        times.push_back(0.1f * k + 0.01f * (k % 3));
        values.insert(values.end(), {float(k * k), 0, 0});
    }
    auto c = makeChannel(Path::Translation, Interpolation::Linear, times, values);
    ChannelCursor cursor;
    for (int i = 0; i <= 600; ++i) {
        const double t = i / 120.0;
        double a[3], b[3];
        sampleChannel(c, t, cursor, a);
        sampleChannel(c, t, b);
        REQUIRE(a[0] == b[0]);
    }
    double a[3], b[3];
    sampleChannel(c, 0.77, cursor, a);  // backwards from the end
    sampleChannel(c, 0.77, b);
    CHECK(a[0] == b[0]);
}

TEST_CASE("pose: local to scene through a scaled, rotated, mirrored parent") {
    Rig rig;
    Transform parent;
    parent.translation = {1, 2, 3};
    parent.rotation = glm::angleAxis(M_PI / 2, glm::dvec3(0, 0, 1));
    parent.scale = {2, -1, 3};  // mirrored in y
    Transform child;
    child.translation = {1, 0, 0};
    Transform grandchild;
    grandchild.translation = {0, 1, 0};
    rig.parent = {-1, 0, 1};
    rig.rest = {parent, child, grandchild};
    rig.name = {"p", "c", "g"};
    rig.gltfIndex = {0, 1, 2};
    rig.hasMesh = {0, 0, 0};
    rig.rigIndexOfGltf = {0, 1, 2};

    std::vector<glm::dmat4> scene(3);
    localToScene(rig, rig.rest, scene);
    // child: (1,2,3) + Rz90 * (2*1, 0, 0) = (1, 4, 3)
    CHECK(scene[1][3].x == doctest::Approx(1.0));
    CHECK(scene[1][3].y == doctest::Approx(4.0));
    CHECK(scene[1][3].z == doctest::Approx(3.0));
    // grandchild: child + Rz90 * (0, -1*1, 0) = (1,4,3) + (1, 0, 0)
    CHECK(scene[2][3].x == doctest::Approx(2.0));
    CHECK(scene[2][3].y == doctest::Approx(4.0));
    CHECK(scene[2][3].z == doctest::Approx(3.0));

    // An animated child translation replaces the rest value.
    Clip clip;
    clip.channels.push_back(makeChannel(Path::Translation, Interpolation::Linear, {0, 1}, {0, 0, 0, 0, 0, 2}));
    clip.channels.back().node = 1;
    std::vector<ChannelCursor> cursors(1);
    std::vector<Transform> local(3);
    sampleLocalPose(rig, clip, 0.5, cursors, local);
    localToScene(rig, local, scene);
    // child local (0,0,1): scaled (0,0,3), rotated about z: unchanged; + (1,2,3)
    CHECK(scene[1][3].x == doctest::Approx(1.0));
    CHECK(scene[1][3].y == doctest::Approx(2.0));
    CHECK(scene[1][3].z == doctest::Approx(6.0));
}
