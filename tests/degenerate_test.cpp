// Degenerate input and bounded work: tiny assets built in code (glTF JSON with
// a data: URI buffer), each of which must either be refused with a named error
// or analysed to finite numbers with a sensible source; and the limits that
// keep a small file from costing minutes or gigabytes.
#include "gltf/asset.h"
#include "pipeline/bake.h"
#include "pipeline/pipeline.h"
#include "support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

using namespace rootbake;
using Json = nlohmann::ordered_json;

namespace {

// ---- a tiny asset builder ---------------------------------------------------

struct Keys {
    int node = 0;
    const char* path = "translation";
    const char* interpolation = "LINEAR";
    std::vector<float> times;
    std::vector<float> values;  // times.size() * width (* 3 for CUBICSPLINE)
};

// nodes as given; one animation with one sampler per Keys.
std::string tinyGltf(Json nodes, const std::vector<Keys>& channels) {
    std::vector<std::uint8_t> buffer;
    auto put = [&](const std::vector<float>& floats) {
        const std::size_t offset = buffer.size();
        buffer.resize(offset + 4 * floats.size());
        std::memcpy(buffer.data() + offset, floats.data(), 4 * floats.size());
        return offset;
    };
    Json views = Json::array(), accessors = Json::array(), samplers = Json::array(), list = Json::array();
    for (const Keys& k : channels) {
        const std::size_t width = std::string(k.path) == "rotation" ? 4 : 3;
        const std::size_t t = put(k.times), v = put(k.values);
        views.push_back({{"buffer", 0}, {"byteOffset", t}, {"byteLength", 4 * k.times.size()}});
        views.push_back({{"buffer", 0}, {"byteOffset", v}, {"byteLength", 4 * k.values.size()}});
        accessors.push_back({{"bufferView", views.size() - 2},
                             {"componentType", 5126},
                             {"count", k.times.size()},
                             {"type", "SCALAR"}});
        accessors.push_back({{"bufferView", views.size() - 1},
                             {"componentType", 5126},
                             {"count", k.values.size() / width},
                             {"type", width == 4 ? "VEC4" : "VEC3"}});
        samplers.push_back({{"input", accessors.size() - 2},
                            {"output", accessors.size() - 1},
                            {"interpolation", k.interpolation}});
        list.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", k.node}, {"path", k.path}}}});
    }
    Json document = {{"asset", {{"version", "2.0"}}}, {"nodes", std::move(nodes)}};
    if (!channels.empty()) {
        document["buffers"] = {{{"byteLength", buffer.size()},
                                {"uri", "data:application/octet-stream;base64," + test::base64(buffer)}}};
        document["bufferViews"] = views;
        document["accessors"] = accessors;
        document["animations"] = {{{"name", "clip"}, {"samplers", samplers}, {"channels", list}}};
    }
    return document.dump();
}

Result<gltf::Asset> load(const std::string& text, const gltf::LoadLimits& limits = {}) {
    return gltf::loadAssetFromMemory({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}, "tiny.gltf",
                               {}, limits);
}

bool finite(const glm::dvec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Every number of an analysis, its in-place keys and its loop seam is finite.
void checkFinite(const Rig& rig, const Clip& clip, const ClipAnalysis& a) {
    CAPTURE(a.reason);
    CHECK(std::isfinite(a.duration));
    CHECK(std::isfinite(a.characterHeight));
    CHECK(a.characterHeight >= 0.0);
    CHECK(finite(a.travelDirection));
    CHECK(finite(a.stride));
    CHECK(std::isfinite(a.strideLength));
    CHECK(std::isfinite(a.turn));
    CHECK(std::isfinite(a.averageSpeed));
    CHECK(std::isfinite(a.averageAngularSpeed));
    CHECK(finite(a.rootStart));
    CHECK(finite(a.lateralDrift));
    for (std::size_t i = 0; i < a.track.times.size(); ++i) {
        REQUIRE(std::isfinite(a.track.times[i]));
        REQUIRE(finite(a.track.translation[i]));
        REQUIRE(std::isfinite(a.track.yaw[i]));
    }
    const std::vector<InPlaceChannel> channels = removeMotion(rig, clip, a);
    for (const InPlaceChannel& c : channels)
        for (float v : c.values) REQUIRE(std::isfinite(v));
    const LoopSeam seam = measureLoopSeam(rig, applyInPlace(clip, channels), a);
    CHECK(std::isfinite(seam.position));
    CHECK(std::isfinite(seam.positionFraction));
    CHECK(std::isfinite(seam.rotationDegrees));
}

// Loads, analyses the one clip with `options`, checks everything is finite.
ClipAnalysis analyse(const std::string& text, const Options& options = {}) {
    auto asset = load(text);
    REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
    REQUIRE(asset->clips.size() == 1);
    auto analysis = analyzeClip(asset->rig, asset->clips[0], options);
    REQUIRE_MESSAGE(analysis.ok(), (analysis.ok() ? "" : analysis.error().message));
    checkFinite(asset->rig, asset->clips[0], *analysis);
    return *analysis;
}

// root -> hips -> (footL, footR); hips 1 m up, feet at the ground.
Json smallRig() {
    return {{{"name", "root"}, {"children", {1}}},
            {{"name", "hips"}, {"translation", {0, 1, 0}}, {"children", {2, 3}}},
            {{"name", "footL"}, {"translation", {0.2, -1, 0}}},
            {{"name", "footR"}, {"translation", {-0.2, -1, 0}}}};
}

// hips walks 2 m along +Z in 1 s.
Keys hipsWalk() {
    return {1, "translation", "LINEAR", {0.0f, 1.0f}, {0, 1, 0, 0, 1, 2}};
}

}  // namespace

TEST_CASE("degenerate: the tiny walk itself is analysed as root travel of 2 m") {
    const ClipAnalysis a = analyse(tinyGltf(smallRig(), {hipsWalk()}));
    CHECK(a.source == Source::Root);
    CHECK(a.strideLength == doctest::Approx(2.0));
    CHECK(a.characterHeight == doctest::Approx(1.0));
}

TEST_CASE("degenerate: a zero-length clip (every key at 0) and a single key have source none") {
    const ClipAnalysis zero =
        analyse(tinyGltf(smallRig(), {{1, "translation", "LINEAR", {0.0f}, {0, 1, 0}}}));
    CHECK(zero.source == Source::None);
    CHECK(zero.duration == 0.0);
    CHECK(zero.averageSpeed == 0.0);

    const ClipAnalysis single =
        analyse(tinyGltf(smallRig(), {{1, "translation", "STEP", {0.75f}, {0, 1, 3}}}));
    CHECK(single.source == Source::None);
    CHECK(single.duration == doctest::Approx(0.75));
    CHECK(single.strideLength == 0.0);

    // A CUBICSPLINE sampler needs two keys; two at the same time are refused at load.
    auto cubic =
        load(tinyGltf(smallRig(), {{1, "translation", "CUBICSPLINE", {0.0f}, {0, 0, 0, 0, 1, 0, 0, 0, 0}}}));
    REQUIRE_FALSE(cubic.ok());
    CHECK(cubic.error().message.find("CUBICSPLINE needs at least 2 keys") != std::string::npos);
}

TEST_CASE("degenerate: decreasing key times, NaN and Inf are refused at load, naming the key") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    struct Row {
        Keys keys;
        const char* expected;
    } rows[] = {
        {{1, "translation", "LINEAR", {0.5f, 0.25f}, {0, 1, 0, 0, 1, 1}},
         "key 1: time 0.25 is not after the previous key's 0.5"},
        {{1, "translation", "LINEAR", {0.0f, nan}, {0, 1, 0, 0, 1, 1}}, "key 1: time is not finite"},
        {{1, "translation", "LINEAR", {0.0f, inf}, {0, 1, 0, 0, 1, 1}}, "key 1: time is not finite"},
        {{1, "translation", "LINEAR", {0.0f, 1.0f}, {0, 1, 0, 0, nan, 1}}, "element 1: value is not finite"},
        {{1, "rotation", "LINEAR", {0.0f, 1.0f}, {0, 0, 0, 1, 0, 0, -inf, 1}},
         "element 1: value is not finite"},
    };
    for (const Row& row : rows) {
        auto asset = load(tinyGltf(smallRig(), {row.keys}));
        REQUIRE_FALSE(asset.ok());
        CAPTURE(asset.error().message);
        CHECK(asset.error().message.rfind("tiny.gltf: animations[0].samplers[0].", 0) == 0);
        CHECK(asset.error().message.find(row.expected) != std::string::npos);
    }
    // A matrix of finite entries whose column lengths overflow.
    auto matrix = load(
        R"({"asset":{"version":"2.0"},"nodes":[{"matrix":[1e200,0,0,0,0,1e200,0,0,0,0,1e200,0,0,0,0,1]}]})");
    REQUIRE_FALSE(matrix.ok());
    CHECK(matrix.error().message ==
          "tiny.gltf: nodes[0].matrix: not a TRS matrix (shear, projection or overflow)");
    // Rest transforms: JSON has no NaN, and 1e309 overflows the parser.
    auto huge = load(R"({"asset":{"version":"2.0"},"nodes":[{"translation":[0,1e309,0]}]})");
    REQUIRE_FALSE(huge.ok());
    CHECK(huge.error().message.find("number overflow") != std::string::npos);
}

TEST_CASE("degenerate: equal consecutive key times load with a warning and play as a step to the later key") {
    // As three.js and Babylon play them (LittlestTokyo.glb has such keys): at the repeated
    // time and after it, the later key's value; before it, towards the earlier one.
    auto asset = load(tinyGltf(
        smallRig(),
        {{1, "translation", "LINEAR", {0.0f, 0.5f, 0.5f, 1.0f}, {0, 1, 0, 1, 1, 0, 5, 1, 0, 6, 1, 0}}}));
    REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
    REQUIRE(asset->warnings.size() == 1);
    CHECK(asset->warnings[0] ==
          "animations[0].samplers[0].input: accessors[0] key 2: time 0.5 repeats the previous key's: played "
          "as a "
          "step to the later key");
    const Channel& c = asset->clips[0].channels[0];
    double v[3];
    const struct {
        double t, x;
    } linear[] = {{0.0, 0.0}, {0.25, 0.5}, {0.5, 5.0}, {0.75, 5.5}, {1.0, 6.0}, {2.0, 6.0}};
    ChannelCursor cursor;
    for (const auto& row : linear) {
        CAPTURE(row.t);
        sampleChannel(c, row.t, cursor, v);
        CHECK(v[0] == doctest::Approx(row.x));
    }
    sampleChannel(c, 0.49999, v);  // a fresh cursor, and before the step
    CHECK(v[0] == doctest::Approx(0.99998));

    // Repeated first keys, STEP and CUBICSPLINE: the later key wins at the repeated time; all finite.
    for (const char* interpolation : {"LINEAR", "STEP", "CUBICSPLINE"}) {
        CAPTURE(interpolation);
        const bool cubic = std::string(interpolation) == "CUBICSPLINE";
        std::vector<float> values;
        for (float x : {0.0f, 2.0f, 3.0f}) {
            if (cubic) values.insert(values.end(), {0, 0, 0});
            values.insert(values.end(), {x, 1, 0});
            if (cubic) values.insert(values.end(), {0, 0, 0});
        }
        auto first =
            load(tinyGltf(smallRig(), {{1, "translation", interpolation, {0.0f, 0.0f, 1.0f}, values}}));
        REQUIRE_MESSAGE(first.ok(), (first.ok() ? "" : first.error().message));
        CHECK(first->warnings.size() == 1);
        const Channel& f = first->clips[0].channels[0];
        sampleChannel(f, 0.0, v);
        CHECK(v[0] == 2.0);
        sampleChannel(f, 0.5, v);
        CHECK(v[0] == doctest::Approx(cubic ? 2.5 : std::string(interpolation) == "STEP" ? 2.0 : 2.5));
        const ClipAnalysis a =
            analyse(tinyGltf(smallRig(), {{1, "translation", interpolation, {0.0f, 0.0f, 1.0f}, values}}));
        checkFinite(first->rig, first->clips[0], a);
    }
}

TEST_CASE("degenerate: a zero scale above the root collapses the travel: source none, finite") {
    Json rig = smallRig();
    rig[0]["scale"] = {0, 0, 0};
    const ClipAnalysis a = analyse(tinyGltf(rig, {hipsWalk()}));
    CHECK(a.source == Source::None);
    CHECK(a.characterHeight == 0.0);

    // The zero-scale node as the character space: inverted as if its scale were 1.
    Options options;
    options.characterNode = parseNodeRef("root");
    const ClipAnalysis inCharacter = analyse(tinyGltf(rig, {hipsWalk()}), options);
    CHECK(inCharacter.character == 0);
}

TEST_CASE("degenerate: a parent flattened along one axis still has its root's keys rewritten finitely") {
    // The root's parent squashes y to 0: the walk along z is still there to take out.
    Json rig = smallRig();
    rig[0]["scale"] = {1, 0, 1};
    const ClipAnalysis a = analyse(tinyGltf(rig, {hipsWalk()}));
    CHECK(a.source == Source::Root);
    CHECK(a.strideLength == doctest::Approx(2.0));

    // Scale keys that reach 0 on the parent mid-clip (a prop hidden by scaling).
    Keys hide{0, "scale", "LINEAR", {0.0f, 0.5f, 1.0f}, {1, 1, 1, 0, 0, 0, 1, 1, 1}};
    Keys walk{1, "translation", "CUBICSPLINE", {0.0f, 0.5f, 1.0f}, {0, 0, 0, 0, 1, 0, 0, 0, 2,  //
                                                                    0, 0, 0, 0, 1, 1, 0, 0, 2,  //
                                                                    0, 0, 2, 0, 1, 2, 0, 0, 0}};
    analyse(tinyGltf(smallRig(), {hide, walk}));
}

TEST_CASE("degenerate: a mirrored parent (negative scale) gives the travel and a finite in-place clip") {
    Json rig = smallRig();
    rig[0]["scale"] = {-1, 1, 1};
    Keys walk{1, "translation", "LINEAR", {0.0f, 1.0f}, {0, 1, 0, 2, 1, 0}};  // +X locally: -X in the scene
    const ClipAnalysis a = analyse(tinyGltf(rig, {walk}));
    CHECK(a.source == Source::Root);
    CHECK(a.strideLength == doctest::Approx(2.0));
    CHECK(a.travelDirection.x == doctest::Approx(-1.0));

    auto asset = load(tinyGltf(rig, {walk}));
    REQUIRE(asset.ok());
    const Clip& clip = asset->clips[0];
    const std::vector<InPlaceChannel> channels = removeMotion(asset->rig, clip, a);
    REQUIRE(channels.size() == 1);
    // In place: hips keeps its first key's horizontal position at both keys.
    CHECK(channels[0].values[3] == doctest::Approx(channels[0].values[0]));
    CHECK(channels[0].values[5] == doctest::Approx(channels[0].values[2]));
}

TEST_CASE("degenerate: non-unit and zero quaternion keys are normalized, the turn is theirs") {
    // Length-2 keys: identity, then 90 degrees about +Y; then an all-zero key (identity).
    const double s = 2.0 * std::sin(std::numbers::pi / 4), c = 2.0 * std::cos(std::numbers::pi / 4);
    Keys turn{1, "rotation", "LINEAR", {0.0f, 1.0f}, {0, 0, 0, 2, 0, float(s), 0, float(c)}};
    const ClipAnalysis a = analyse(tinyGltf(smallRig(), {hipsWalk(), turn}));
    CHECK(a.extractsRotation);
    CHECK(a.turn == doctest::Approx(std::numbers::pi / 2).epsilon(1e-6));

    Keys zero{1, "rotation", "STEP", {0.0f, 1.0f}, {0, 0, 0, 0, 0, 0, 0, 0}};
    const ClipAnalysis z = analyse(tinyGltf(smallRig(), {hipsWalk(), zero}));
    CHECK(z.turn == 0.0);
    CHECK(z.source == Source::Root);
}

TEST_CASE("degenerate: a zero-height rig (one node) measures travel in scene units") {
    const ClipAnalysis a =
        analyse(tinyGltf(Json::array({Json{{"name", "only"}}}),
                         {{0, "translation", "LINEAR", {0.0f, 1.0f}, {0, 0, 0, 0, 0, 3}}}));
    CHECK(a.characterHeight == 0.0);
    CHECK(a.source == Source::Root);
    CHECK(a.strideLength == doctest::Approx(3.0));
    CHECK(a.averageSpeed == doctest::Approx(3.0));
    REQUIRE(a.warnings.size() == 1);
    CHECK(a.warnings[0].rfind("the joints under the root have no height along the up axis", 0) == 0);
}

TEST_CASE("degenerate: a turn forced on a root without rotation keys is a warning, not a turn") {
    Options on;
    on.extractRotation = Toggle::On;
    const ClipAnalysis a = analyse(tinyGltf(smallRig(), {hipsWalk()}), on);
    CHECK_FALSE(a.extractsRotation);
    REQUIRE(a.warnings.size() == 1);
    CHECK(a.warnings[0] == "extractRotation is on, but the root has no rotation keys: no turn extracted");
    CHECK(analyse(tinyGltf(smallRig(), {hipsWalk()})).warnings.empty());
}

TEST_CASE(
    "degenerate: a flat rig under a rotation has height 0, not rounding noise that any wobble exceeds") {
    // The rig stands along y locally; the root lies it down (-90 degrees about X), so in the
    // scene every joint is at y = 0 up to rounding (1e-16), and 0.1 of that "height" would
    // take a 1e-7 wobble for travel.
    Json rig = {{{"name", "root"}, {"rotation", {-0.70710677, 0, 0, 0.70710677}}, {"children", {1}}},
                {{"name", "hips"}, {"translation", {0, 1, 0}}, {"children", {2}}},
                {{"name", "foot"}, {"translation", {0, -1, 0}}}};
    Keys wobble{1, "translation", "LINEAR", {0.0f, 1.0f}, {0, 1, 0, 1e-7f, 1, 0}};
    const ClipAnalysis a = analyse(tinyGltf(rig, {wobble}));
    CHECK(a.characterHeight == 0.0);
    CHECK(a.source == Source::None);
}

TEST_CASE("degenerate: a root at the origin without a parent, still or turning on the spot") {
    Json rig = {{{"name", "hips"}, {"children", {1}}}, {{"name", "foot"}, {"translation", {0, -1, 0}}}};
    const ClipAnalysis still =
        analyse(tinyGltf(rig, {{0, "translation", "LINEAR", {0.0f, 1.0f}, {0, 0, 0, 0, 0, 0}}}));
    CHECK(still.source == Source::None);
    CHECK(still.root == 0);
    CHECK(still.character == -1);
    CHECK(still.rootStart == glm::dvec3(0.0));

    const float h = float(std::sin(std::numbers::pi / 4)), w = float(std::cos(std::numbers::pi / 4));
    const ClipAnalysis turning =
        analyse(tinyGltf(rig, {{0, "translation", "LINEAR", {0.0f, 1.0f}, {0, 0, 0, 0, 0, 0}},
                               {0, "rotation", "LINEAR", {0.0f, 1.0f}, {0, 0, 0, 1, 0, h, 0, w}}}));
    CHECK(turning.source == Source::Root);
    CHECK(turning.extractsRotation);
    CHECK(turning.turn == doctest::Approx(std::numbers::pi / 2));
    CHECK(glm::length(turning.stride) == doctest::Approx(0.0));
}

TEST_CASE("degenerate: denormal key times, values and scales stay finite") {
    const float d = std::numeric_limits<float>::denorm_min();
    const ClipAnalysis tiny =
        analyse(tinyGltf(smallRig(), {{1, "translation", "LINEAR", {d, 2 * d}, {0, 1, 0, 0, 1, d}}}));
    CHECK(tiny.source == Source::None);
    CHECK(tiny.duration == doctest::Approx(2.0 * d));

    Json rig = smallRig();
    rig[0]["scale"] = {1e-40, 1e-40, 1e-40};  // a denormal float, parsed as a double
    Options options;
    options.characterNode = parseNodeRef("root");
    analyse(tinyGltf(rig, {hipsWalk()}), options);
}

TEST_CASE("degenerate: transforms that compose beyond 1e12 units are a per-clip error, not NaN") {
    // Four levels of scale 1e30 over a key of 1e30: finite floats, an overflowing product.
    Json rig = Json::array();
    for (int i = 0; i < 4; ++i) rig.push_back({{"scale", {1e30, 1e30, 1e30}}, {"children", {i + 1}}});
    rig.push_back({{"name", "hips"}});
    auto asset = load(tinyGltf(rig, {{4, "translation", "LINEAR", {0.0f, 1.0f}, {0, 0, 0, 0, 0, 1e30f}}}));
    REQUIRE_MESSAGE(asset.ok(), (asset.ok() ? "" : asset.error().message));
    auto analysis = analyzeClip(asset->rig, asset->clips[0], Options{});
    REQUIRE_FALSE(analysis.ok());
    CHECK(analysis.error().message.find("units, the transforms overflow") != std::string::npos);
}

// ---- bounded work and memory -------------------------------------------------

TEST_CASE("limits: a 10-hour clip is refused, or analysed within the node-position bound") {
    // Keyed once a second: analysis samples follow the duration (60/s), well under 64 per key.
    const auto keyedEverySecond = [](float seconds) {
        Keys keys{1, "translation", "LINEAR", {}, {}};
        for (float t = 0.0f; t <= seconds; t += 1.0f) {
            keys.times.push_back(t);
            keys.values.insert(keys.values.end(), {0.0f, 0.0f, t / seconds});
        }
        return keys;
    };
    // 36000 s at 60 samples/s: 2160001 samples x 20 nodes = 43.2 M positions > 2^25.
    Json rig = Json::array();
    for (int i = 0; i < 20; ++i) rig.push_back(i + 1 < 20 ? Json{{"children", {i + 1}}} : Json::object());
    auto asset = load(tinyGltf(rig, {keyedEverySecond(36000.0f)}));
    REQUIRE(asset.ok());
    auto refused = analyzeClip(asset->rig, asset->clips[0], Options{});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message ==
          "2160001 analysis samples x 20 nodes = 4.32e+07 node positions, more than 8 x maxSamples "
          "(3.35544e+07)");

    // 100 hours: more samples than maxSamples, whatever the rig.
    auto longer = load(tinyGltf(rig, {keyedEverySecond(360000.0f)}));
    REQUIRE(longer.ok());
    auto many = analyzeClip(longer->rig, longer->clips[0], Options{});
    REQUIRE_FALSE(many.ok());
    CHECK(many.error().message ==
          "the clip lasts 360000 s: 2.16e+07 analysis samples at 60 per second, more than maxSamples "
          "(4194304)");

    // The same 10 hours in 2 keys: 64 samples per key (kSamplesPerKey), and the linear motion exact.
    auto sparse =
        load(tinyGltf(rig, {{1, "translation", "LINEAR", {0.0f, 36000.0f}, {0, 0, 0, 0, 0, 1000}}}));
    REQUIRE(sparse.ok());
    CHECK(analysisSampleCount(sparse->clips[0], Options{}) == 2 * kSamplesPerKey);
    auto kept = analyzeClip(sparse->rig, sparse->clips[0], Options{});
    REQUIRE_MESSAGE(kept.ok(), (kept.ok() ? "" : kept.error().message));
    CHECK(kept->track.times.size() == 2 * 64 + 1);
    CHECK(kept->strideLength == doctest::Approx(1000.0));

    // A key time of 3e38 s, and maxSamples raised as far as it goes: 128 samples, no overflow.
    auto forever = load(tinyGltf(rig, {{1, "translation", "LINEAR", {0.0f, 3e38f}, {0, 0, 0, 0, 0, 1}}}));
    REQUIRE(forever.ok());
    Options unlimited;
    unlimited.maxSamples = std::numeric_limits<std::uint64_t>::max();
    auto huge = analyzeClip(forever->rig, forever->clips[0], unlimited);
    REQUIRE_MESSAGE(huge.ok(), (huge.ok() ? "" : huge.error().message));
    CHECK(huge->track.times.size() == 2 * 64 + 1);
    CHECK(huge->strideLength == doctest::Approx(1.0));

    // A rate that is not a positive number is an error, not a cast of -1e300 to int.
    for (double rate :
         {0.0, -1e300, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        Options bad;
        bad.samplesPerSecond = rate;
        auto refusedRate = analyzeClip(asset->rig, asset->clips[0], bad);
        REQUIRE_FALSE(refusedRate.ok());
        CHECK(refusedRate.error().message.find("is not a positive number") != std::string::npos);
    }

    // The option raises the bound: the 20-node clip at 1/100 of the rate fits.
    Options coarse;
    coarse.samplesPerSecond = 0.6;
    auto analysed = analyzeClip(asset->rig, asset->clips[0], coarse);
    REQUIRE_MESSAGE(analysed.ok(), (analysed.ok() ? "" : analysed.error().message));
    // The track lands on every key (one a second) rather than between them.
    CHECK(analysed->track.times.size() == 36001);
    checkFinite(asset->rig, asset->clips[0], *analysed);
}

TEST_CASE("limits: a 4000-node chain, every node animated, is analysed in linear time") {
    // findRoot once walked every animated node's ancestors for every animated node:
    // 4000^2 x depth 4000, 35 s for this 300 kB file.
    const int count = 4000;
    Json rig = Json::array();
    for (int i = 0; i < count; ++i)
        rig.push_back(i + 1 < count ? Json{{"children", {i + 1}}} : Json::object());
    std::vector<Keys> channels;
    for (int i = 0; i < count; ++i)
        channels.push_back({i, "translation", "LINEAR", {0.0f, 1.0f}, {0, 0, 0, 0, 0, 0}});
    const ClipAnalysis a = analyse(tinyGltf(rig, channels));
    CHECK(a.root == 0);
    CHECK(a.reason.find("3999 animated descendants") != std::string::npos);
}

TEST_CASE("limits: deep JSON is refused before it is parsed, at any depth") {
    for (const std::string& open : {std::string("["), std::string("{\"a\":")}) {
        const std::string close = open == "[" ? "]" : "}";
        std::string text;
        for (int i = 0; i < 100000; ++i) text += open;
        for (int i = 0; i < 100000; ++i) text += close;
        auto asset = load(text);
        REQUIRE_FALSE(asset.ok());
        CHECK(asset.error().message == "tiny.gltf: JSON: nested deeper than 128 levels");
    }
    // Unbalanced, as a truncated file would be.
    auto open = load(std::string(100000, '['));
    REQUIRE_FALSE(open.ok());
    CHECK(open.error().message == "tiny.gltf: JSON: nested deeper than 128 levels");
}

TEST_CASE("limits: the depth scan skips strings, brackets and escaped quotes in them included") {
    // Strings whose brackets would add levels if counted, and quotes behind odd and even runs of
    // backslashes (escaped, and closing after an escaped backslash).
    const std::string strings = R"("[[{{", "a\"[[", "b\\", "\\\"{{{", "]]]]")";
    auto nested = [&](int levels) {
        std::string text = R"({"asset":{"version":"2.0"},"extras":)";
        for (int i = 2; i < levels; ++i) text += "[";
        text += "[" + strings + "]";
        for (int i = 2; i < levels; ++i) text += "]";
        return text + "}";
    };
    CHECK(load(nested(128)).ok());
    auto deep = load(nested(129));
    REQUIRE_FALSE(deep.ok());
    CHECK(deep.error().message == "tiny.gltf: JSON: nested deeper than 128 levels");
}

TEST_CASE("limits: a node hierarchy deeper than maxDepth is refused without recursion") {
    const int count = 5000;  // maxDepth is 4096
    Json rig = Json::array();
    for (int i = 0; i < count; ++i)
        rig.push_back(i + 1 < count ? Json{{"children", {i + 1}}} : Json::object());
    auto asset = load(tinyGltf(rig, {}));
    REQUIRE_FALSE(asset.ok());
    CHECK(asset.error().message ==
          "tiny.gltf: nodes[4097]: deeper than maxDepth (4096 levels) in the node hierarchy");
}

TEST_CASE("limits: thousands of channels sharing one large sampler are refused before decoding") {
    // 65536 keys (1 MiB of key data) named by 1100 channels: 1.1 GiB of copies; the 129th passes 128 MiB.
    const int keys = 65536, nodes = 1100;
    std::vector<float> times(keys), values(3 * keys, 0.0f);
    for (int k = 0; k < keys; ++k) times[k] = float(k) / 60.0f;
    Json rig = Json::array();
    for (int i = 0; i < nodes; ++i) rig.push_back(Json::object());
    Json document = Json::parse(tinyGltf(rig, {{0, "translation", "LINEAR", times, values}}));
    Json& channels = document["animations"][0]["channels"];
    for (int i = 1; i < nodes; ++i)
        channels.push_back({{"sampler", 0}, {"target", {{"node", i}, {"path", "translation"}}}});
    auto asset = load(document.dump());
    REQUIRE_FALSE(asset.ok());
    CHECK(
        asset.error().message.find("tiny.gltf: animations[0].channels[128]: the key data of animations[0..0] "
                                   "decodes to more than maxKeyBytes (134217728 bytes in all)") == 0);
    gltf::LoadLimits small;
    small.maxKeyBytes = 4 * 4 * keys;  // one channel's worth
    auto two = load(document.dump(), small);
    REQUIRE_FALSE(two.ok());
    CHECK(two.error().message.find("animations[0].channels[1]: ") != std::string::npos);
}

TEST_CASE("limits: the clips of one asset share a work budget, the error names the clip that passes it") {
    // smallRig has 4 nodes; a 1 s clip at 60 per second is 61 samples: 244 node positions.
    auto asset = load(tinyGltf(smallRig(), {hipsWalk()}));
    REQUIRE(asset.ok());
    const Clip walk = asset->clips[0];
    asset->clips.clear();
    for (int i = 0; i < 10; ++i) {
        asset->clips.push_back(walk);
        asset->clips.back().gltfIndex = i;
    }
    CHECK(pipeline::checkAnalysisBudget(*asset, Options{}, 10 * 244).ok());
    const Status over = pipeline::checkAnalysisBudget(*asset, Options{}, 10 * 244 - 1);
    REQUIRE_FALSE(over.ok());
    CHECK(over.error().message.find("animations[9] \"clip\": the 10 clips up to this one need 2.44e+03") ==
          0);
    CHECK(over.error().message.find("more than maxAssetNodeSamples (2439)") != std::string::npos);

    // bakeAsset refuses before analysing, naming the file.
    pipeline::BakeSettings settings;
    settings.maxAssetNodeSamples = 5 * 244;
    const std::vector<std::uint8_t> bytes{'{', '}'};
    auto baked = pipeline::bakeAsset(*asset, bytes, settings);
    REQUIRE_FALSE(baked.ok());
    CHECK(baked.error().message.find("tiny.gltf: animations[5]") == 0);
}

TEST_CASE("limits: clips count their motion-track samples against maxAssetTrackSamples, shared or not") {
    // Four animations naming one sampler of a 1 s walk: 61 samples each.
    Json document = Json::parse(tinyGltf(smallRig(), {hipsWalk()}));
    const Json animation = document["animations"][0];
    for (int i = 1; i < 4; ++i) document["animations"].push_back(animation);
    auto asset = load(document.dump());
    REQUIRE(asset.ok());
    REQUIRE(asset->clips.size() == 4);
    CHECK(pipeline::checkAnalysisBudget(*asset, Options{}, 1u << 28, {}, 4 * 61).ok());
    const Status over = pipeline::checkAnalysisBudget(*asset, Options{}, 1u << 28, {}, 4 * 61 - 1);
    REQUIRE_FALSE(over.ok());
    CHECK(over.error().message.find(
              "animations[3] \"clip\": 61 motion-track samples (1 s x 60 per second + 1), "
              "244 with the clips before it") == 0);
    CHECK(over.error().message.find("more than maxAssetTrackSamples (243)") != std::string::npos);

    // bakeAsset refuses before analysing, and keeps exactly 4 x 61 track samples when allowed.
    pipeline::BakeSettings settings;
    settings.maxAssetTrackSamples = 4 * 61 - 1;
    const std::vector<std::uint8_t> bytes{'{', '}'};
    auto refused = pipeline::bakeAsset(*asset, bytes, settings);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message.find("tiny.gltf: animations[3]") == 0);
    settings.maxAssetTrackSamples = 4 * 61;
    auto baked = pipeline::bakeAsset(*asset, bytes, settings);
    REQUIRE_MESSAGE(baked.ok(), (baked.ok() ? "" : baked.error().message));
    std::size_t kept = 0;
    for (const BakedClip& clip : baked->clips) kept += clip.analysis.track.times.size();
    CHECK(kept == 4 * 61);
}

TEST_CASE("limits: a root track that follows dense keys is counted as it is kept, after its clip") {
    // The hips walk 1 m in 1 s keyed 240 times a second: the track follows the 240 key
    // intervals (241 samples), though 60 per second counts 61 before the analysis.
    std::vector<float> times, values;
    for (int k = 0; k <= 240; ++k) {
        times.push_back(float(k) / 240.0f);
        values.insert(values.end(), {0.0f, 1.0f, float(k) / 240.0f});
    }
    auto asset = load(tinyGltf(smallRig(), {{1, "translation", "LINEAR", times, values}}));
    REQUIRE(asset.ok());
    const std::vector<std::uint8_t> bytes{'{', '}'};
    pipeline::BakeSettings settings;
    settings.maxAssetTrackSamples = 240;
    CHECK(pipeline::checkAnalysisBudget(*asset, Options{}, 1u << 28, {}, 240).ok());
    auto refused = pipeline::bakeAsset(*asset, bytes, settings);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message ==
          "tiny.gltf: animations[0] \"clip\": a motion track of 241 samples (following the root's keys), 241 "
          "with the "
          "clips before it, more than maxAssetTrackSamples (240)");
    settings.maxAssetTrackSamples = 241;
    auto baked = pipeline::bakeAsset(*asset, bytes, settings);
    REQUIRE_MESSAGE(baked.ok(), (baked.ok() ? "" : baked.error().message));
    CHECK(baked->clips[0].analysis.track.times.size() == 241);
}

TEST_CASE("limits: clips analysed side by side name the clip one after another would, at the track limit") {
    // Six clips of the dense walk above, 241 track samples each though 61 are counted before:
    // the third passes 3 x 241 - 1 after the analysis, whichever thread made it.
    std::vector<float> times, values;
    for (int k = 0; k <= 240; ++k) {
        times.push_back(float(k) / 240.0f);
        values.insert(values.end(), {0.0f, 1.0f, float(k) / 240.0f});
    }
    Json document = Json::parse(tinyGltf(smallRig(), {{1, "translation", "LINEAR", times, values}}));
    const Json animation = document["animations"][0];
    for (int i = 1; i < 6; ++i) document["animations"].push_back(animation);
    auto asset = load(document.dump());
    REQUIRE(asset.ok());
    const std::vector<Options> options(asset->clips.size());
    const std::string expected =
        "tiny.gltf: animations[2] \"clip\": a motion track of 241 samples (following the root's keys), 723 "
        "with the "
        "clips before it, more than maxAssetTrackSamples (722)";
    for (std::size_t threads : {1, 2, 3, 6}) {
        INFO(threads << " threads");
        auto refused = pipeline::analyseAsset(*asset, options, {1ull << 28, 3 * 241 - 1, threads});
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.error().message == expected);
        auto analysed = pipeline::analyseAsset(*asset, options, {1ull << 28, 6 * 241, threads});
        REQUIRE(analysed.ok());
        CHECK(analysed->clips.size() == 6);
    }
}
