// The analysis against the closed-form truth of the procedural biped
// (samples/README.md), and the analysis options' rules and errors.
#include "biped.h"
#include "gltf/asset.h"

#include <doctest/doctest.h>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace rootbake;

namespace {

constexpr double kDegree = std::numbers::pi / 180.0;

const gltf::Asset& biped() {
    static const gltf::Asset asset = [] {
        const std::vector<std::uint8_t> glb = samples::toGlb(samples::makeBiped());
        auto loaded = gltf::loadAssetFromMemory(glb, "biped.glb", {});
        REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
        return std::move(loaded).value();
    }();
    return asset;
}

const Clip& clipNamed(const gltf::Asset& asset, const std::string& name) {
    for (const Clip& clip : asset.clips)
        if (clip.name == name) return clip;
    FAIL("no clip " << name);
    return asset.clips.front();
}

ClipAnalysis analyze(const std::string& name, const Options& options = {}) {
    auto a = analyzeClip(biped().rig, clipNamed(biped(), name), options);
    REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().message));
    return *a;
}

// Within 0.5% of the truth, or 1 mm / 0.05 degree where the truth is zero.
void checkAgainstTruth(const samples::ClipTruth& truth) {
    INFO("clip " << truth.name);
    const ClipAnalysis a = analyze(truth.name);
    CHECK(sourceName(a.source) == truth.source);
    CHECK(a.extractsRotation == truth.extractsRotation);
    CHECK(nodeLabel(biped().rig, a.root) == samples::makeBiped().rootNode);
    CHECK(a.duration == doctest::Approx(truth.duration).epsilon(1e-6));
    CHECK(glm::length(a.stride - truth.stride) <= std::max(1e-3, 0.005 * truth.strideLength));
    CHECK(std::abs(a.strideLength - truth.strideLength) <= std::max(1e-3, 0.005 * truth.strideLength));
    CHECK(std::abs(a.turn - truth.turn) <= std::max(0.05 * kDegree, 0.005 * std::abs(truth.turn)));
    CHECK(std::abs(a.averageSpeed - truth.averageSpeed) <= std::max(1e-3, 0.005 * truth.averageSpeed));
    std::vector<std::string> contacts;
    for (int c : a.contacts) contacts.push_back(nodeLabel(biped().rig, c));
    CHECK(contacts == truth.contactNodes);
}

}  // namespace

TEST_CASE("analyze: the biped's clips match their closed form") {
    for (const samples::ClipTruth& truth : samples::makeBiped().truth) checkAgainstTruth(truth);
}

TEST_CASE("analyze: planted intervals of the in-place walk") {
    // samples/README.md: left planted over [0, 0.6], right over [0, 0.1] and [0.5, 1.0] (s). The
    // reported intervals use a 1% height band, which the sole leaves within a few samples of lift-off.
    const ClipAnalysis a = analyze("walk_inplace");
    REQUIRE(a.planting.size() == 2);
    for (const ContactPlanting& p : a.planting) {
        const std::string name = nodeLabel(biped().rig, p.node);
        REQUIRE(!p.planted.empty());
        if (name == "LeftFoot") {
            CHECK(p.planted.front().start == 0.0);
            CHECK(std::abs(p.planted.front().end - 0.6) <= 0.06);
        } else {
            CHECK(name == "RightFoot");
            REQUIRE(p.planted.size() >= 2);
            CHECK(std::abs(p.planted.front().end - 0.1) <= 0.06);
            CHECK(std::abs(p.planted[1].start - 0.5) <= 0.06);
            CHECK(p.planted.back().end == doctest::Approx(1.0));
        }
    }
}

TEST_CASE("analyze: the track starts at zero and ends at the stride") {
    const ClipAnalysis a = analyze("walk");
    CHECK(glm::length(a.track.translation.front()) == 0.0);
    CHECK(glm::length(a.track.translation.back() - a.stride) < 1e-12);
    CHECK(a.track.times.back() == doctest::Approx(a.duration));
    // Root travel along +Z only: sway stays in the pose.
    for (const glm::dvec3& t : a.track.translation) CHECK(std::abs(t.x) < 1e-9);
}

TEST_CASE("analyze: a strafe travels sideways without --lateral, since the direction is +X") {
    const ClipAnalysis a = analyze("strafe");
    CHECK(a.travelDirection.x == doctest::Approx(1.0));
    CHECK(a.strideLength == doctest::Approx(0.5).epsilon(0.005));
}

TEST_CASE("analyze: extractRotation forces the turn on or off") {
    Options off;
    off.extractRotation = Toggle::Off;
    CHECK_FALSE(analyze("turn_walk", off).extractsRotation);
    Options on;
    on.extractRotation = Toggle::On;
    const ClipAnalysis idle = analyze("idle", on);
    CHECK(idle.extractsRotation);
    CHECK(std::abs(idle.turn) < 0.05 * kDegree);
}

TEST_CASE("analyze: forcing footContact on a root clip, and root on an in-place one") {
    Options foot;
    foot.source = SourceChoice::FootContact;
    const ClipAnalysis a = analyze("walk", foot);
    CHECK(a.source == Source::FootContact);
    CHECK(std::abs(a.strideLength) < 0.05);  // the feet of a travelling walk stand still in scene space

    Options root;
    root.source = SourceChoice::Root;
    const ClipAnalysis b = analyze("walk_inplace", root);
    CHECK(b.source == Source::Root);
    CHECK(std::abs(b.strideLength) < 1e-6);
}

TEST_CASE("analyze: source none keeps a travelling, turning clip as it is: source none, no track motion") {
    Options none;
    none.source = SourceChoice::None;
    for (const char* name : {"walk", "turn_walk", "walk_inplace"}) {
        CAPTURE(name);
        const ClipAnalysis a = analyze(name, none);
        CHECK(a.source == Source::None);
        CHECK(a.strideLength == 0.0);
        CHECK(a.turn == 0.0);
        CHECK_FALSE(a.extractsRotation);
        CHECK(removeMotion(biped().rig, clipNamed(biped(), name), a).empty());
        CHECK(a.reason.find("source none: forced") != std::string::npos);
    }
}

TEST_CASE("analyze: options that do not fit the clip are errors naming the node") {
    const Clip& walk = clipNamed(biped(), "walk");
    Options missing;
    missing.rootNode = parseNodeRef("Tail");
    auto a = analyzeClip(biped().rig, walk, missing);
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().message.find("\"Tail\"") != std::string::npos);

    Options animated;
    animated.characterNode = parseNodeRef("Hips");
    animated.rootNode = parseNodeRef("Spine");
    auto b = analyzeClip(biped().rig, walk, animated);
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().message.find("animated") != std::string::npos);

    Options notAncestor;
    notAncestor.characterNode = parseNodeRef("LeftToe");
    auto c = analyzeClip(biped().rig, walk, notAncestor);
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().message.find("not an ancestor") != std::string::npos);

    Options forced;
    forced.source = SourceChoice::Root;
    forced.rootNode = parseNodeRef("Chest");  // rotation keys only
    auto d = analyzeClip(biped().rig, walk, forced);
    REQUIRE_FALSE(d.ok());
    CHECK(d.error().message.find("no position animation") != std::string::npos);

    Options samples;
    samples.maxSamples = 10;
    CHECK_FALSE(analyzeClip(biped().rig, walk, samples).ok());
}

TEST_CASE("analyze: the character node's space gives the same travel under an unanimated ancestor") {
    Options options;
    options.characterNode = parseNodeRef("Armature");
    const ClipAnalysis a = analyze("walk", options);
    CHECK(a.character >= 0);
    CHECK(a.strideLength == doctest::Approx(1.2).epsilon(0.005));
}

TEST_CASE("analyze: a deduced direction snapped far off the feet's says how fast they slide sideways") {
    // The biped turned about the up axis under its Armature: its in-place walk's feet travel
    // that far off +Z. 6 degrees snap onto +Z (within 10) and leave them sliding sideways at
    // sin 6 = 10.5% of the speed; 2 degrees leave 3.5%, under kSnappedSlide.
    const auto walkTurnedBy = [](double degrees, const Options& options) {
        Rig rig = biped().rig;
        const int armature = findNode(rig, parseNodeRef("Armature"));
        REQUIRE(armature >= 0);
        rig.rest[armature].rotation =
            glm::angleAxis(degrees * kDegree, glm::dvec3(0, 1, 0)) * rig.rest[armature].rotation;
        auto a = analyzeClip(rig, clipNamed(biped(), "walk_inplace"), options);
        REQUIRE(a.ok());
        return *a;
    };
    const auto snapWarning = [](const ClipAnalysis& a) {
        return std::count_if(a.warnings.begin(), a.warnings.end(), [](const std::string& w) {
            return w.find("off the axis") != std::string::npos;
        });
    };
    const ClipAnalysis six = walkTurnedBy(6.0, {});
    CHECK(six.source == Source::FootContact);
    CHECK(six.travelDirection.z == doctest::Approx(1.0));
    CHECK(six.evidence.snappedAngle == doctest::Approx(6.0 * kDegree).epsilon(0.02));
    REQUIRE(snapWarning(six) == 1);
    CHECK(std::find_if(six.warnings.begin(), six.warnings.end(), [](const std::string& w) {
              return w.find("slide sideways at 10.") != std::string::npos;
          }) != six.warnings.end());
    const ClipAnalysis two = walkTurnedBy(2.0, {});
    CHECK(two.evidence.snappedAngle == doctest::Approx(2.0 * kDegree).epsilon(0.02));
    CHECK(snapWarning(two) == 0);
    // Not snapped, the direction is the feet's: nothing slides, nothing to say.
    Options unsnapped;
    unsnapped.directionSnapAngle = 0.0;
    const ClipAnalysis kept = walkTurnedBy(6.0, unsnapped);
    CHECK(std::atan2(kept.travelDirection.x, kept.travelDirection.z) ==
          doctest::Approx(6.0 * kDegree).epsilon(0.02));
    CHECK(kept.evidence.snappedAngle < 1e-6);
    CHECK(snapWarning(kept) == 0);
    // The unturned biped's feet go straight along +Z.
    CHECK(analyze("walk_inplace").evidence.snappedAngle < 1e-6);
}

TEST_CASE("analyze: a clip that animates no node transform has source none and says why") {
    Clip empty;
    empty.name = "morph only";
    empty.end = 1.0;
    empty.otherChannels = 1;
    auto a = analyzeClip(biped().rig, empty, Options{});
    REQUIRE(a.ok());
    CHECK(a->source == Source::None);
    CHECK(a->reason.find("no transform node") != std::string::npos);
}

TEST_CASE("analyze: findNode takes names and nodes[N]") {
    const Rig& rig = biped().rig;
    const int hips = findNode(rig, parseNodeRef("Hips"));
    REQUIRE(hips >= 0);
    CHECK(rig.name[hips] == "Hips");
    const std::string byIndex = "nodes[" + std::to_string(rig.gltfIndex[hips]) + "]";
    CHECK(findNode(rig, parseNodeRef(byIndex)) == hips);
    CHECK(findNode(rig, nodeRefByIndex(rig.gltfIndex[hips])) == hips);
    CHECK(nodeRefLabel(nodeRefByIndex(rig.gltfIndex[hips])) == byIndex);
    CHECK(nodeRefLabel(parseNodeRef("nodes[01]")) == "nodes[01]");  // as given, for messages
    CHECK(findNode(rig, parseNodeRef("nodes[9999]")) == -1);
    CHECK(findNode(rig, parseNodeRef("nodes[1")) == -1);
    CHECK(findNode(rig, parseNodeRef("nodes[-1]")) == -1);
    CHECK(findNode(rig, NodeRef{}) == -1);
}

TEST_CASE("analyze: a node named like nodes[N] is found by its name before node N") {
    Rig rig = biped().rig;
    const int chest = findNode(rig, parseNodeRef("Chest"));
    REQUIRE(chest >= 0);
    rig.name[chest] = "nodes[1]";
    CHECK(findNode(rig, parseNodeRef("nodes[1]")) == chest);
    CHECK(findNode(rig, nodeRefByIndex(1)) == rig.rigIndexOfGltf[1]);  // by index only: node 1
    CHECK(rig.rigIndexOfGltf[1] != chest);
}

TEST_CASE("analyze: no planted interval is a single sample") {
    // Issue 33 item 1: the run printed "planted LeftFoot: ... 0.800-0.800 s", a foot passing
    // through the band for one sample at the clip's end. Every interval spans some time.
    for (const char* name : {"walk_inplace", "run_inplace"}) {
        CAPTURE(name);
        const ClipAnalysis a = analyze(name);
        REQUIRE_FALSE(a.planting.empty());
        for (const ContactPlanting& p : a.planting)
            for (const PlantedInterval& interval : p.planted) CHECK(interval.end > interval.start);
    }
}

namespace {

// The seconds of the clip covered by at least one of the intervals.
double coveredSeconds(std::vector<PlantedInterval> all) {
    std::sort(all.begin(), all.end(),
              [](const PlantedInterval& x, const PlantedInterval& y) { return x.start < y.start; });
    double total = 0.0, reached = -1.0;
    for (const PlantedInterval& p : all) {
        const double from = std::max(p.start, reached);
        if (p.end > from) total += p.end - from;
        reached = std::max(reached, p.end);
    }
    return total;
}

}  // namespace

TEST_CASE("analyze: stance shares, the flight share and the planted intervals are one reading") {
    // Issue 33 item 1: inspect -v printed "stance FootBack.L 15.9%" beside planted intervals
    // that covered 55% of the clip, and "flight 68.3%" while both feet were planted half of
    // it. A contact's stance share is the time its planted intervals cover; flight is where
    // none is planted.
    for (const ContactRule rule : {ContactRule::Stance, ContactRule::Babylon}) {
        for (const char* name : {"walk_inplace", "run_inplace"}) {
            CAPTURE(name);
            CAPTURE(int(rule));
            Options options;
            options.contactRule = rule;
            const ClipAnalysis a = analyze(name, options);
            REQUIRE(a.source == Source::FootContact);
            REQUIRE(a.planting.size() == a.contacts.size());
            REQUIRE(a.evidence.stanceShare.size() == a.contacts.size());
            std::vector<PlantedInterval> all;
            for (size_t c = 0; c < a.planting.size(); ++c) {
                double planted = 0.0;
                for (const PlantedInterval& p : a.planting[c].planted) {
                    CHECK(p.end > p.start);
                    planted += p.end - p.start;
                    all.push_back(p);
                }
                CHECK(planted / a.duration == doctest::Approx(a.evidence.stanceShare[c]).epsilon(1e-9));
            }
            CHECK(1.0 - coveredSeconds(all) / a.duration ==
                  doctest::Approx(a.evidence.flightShare).epsilon(1e-9));
        }
    }
}

TEST_CASE("analyze: a forced contact source with no travel does not say travel was found") {
    // Issue 33 item 1: a clip with no travel got "travel found while the feet do not alternate"
    // (turn_walk's travel is in its root: read from its feet in the character's frame, none).
    Options options;
    options.source = SourceChoice::FootContact;
    const ClipAnalysis turning = analyze("turn_walk", options);
    REQUIRE(turning.source == Source::FootContact);
    CHECK(glm::length(turning.stride) < 0.01);
    CHECK(turning.evidence.steppingContacts < 2);
    for (const std::string& w : turning.warnings) CHECK(w.find("travel found") == std::string::npos);
}
