// Contact deduction against known travel. Beyond the biped's in-place clips,
// real motion capture gives a truth too: a corpus clip whose travel is in its
// root's keys, baked in place, is an in-place clip whose true stride is the one
// taken out; deducing it back from the planted feet (source forced to
// footContact) measures the contact tracker on real data. Every case compares the
// default (the lift-off gate) with Babylon's rule (liftOffSlope 0).
#include "biped.h"
#include "gltf/asset.h"
#include "support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>

using namespace rootbake;

namespace {

struct Truth {
    std::string name;
    double stride = 0.0;  // the truth
    double babylonRule = 0.0, liftOffGate = 0.0;  // deduced: liftOffSlope 0 and the default
};

const double kDefaultSlope = Options{}.liftOffSlope;

double deduce(const Rig& rig, const Clip& clip, Options options, double liftOffSlope) {
    options.liftOffSlope = liftOffSlope;
    auto a = analyzeClip(rig, clip, options);
    REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().message));
    return a->strideLength;
}

// The corpus clip baked in place, then deduced from its contacts.
Truth inPlaceTruth(const Asset& asset, const Clip& clip, double samplesPerSecond) {
    Options options;
    options.samplesPerSecond = samplesPerSecond;
    auto travelling = analyzeClip(asset.rig, clip, options);
    REQUIRE(travelling.ok());
    REQUIRE(travelling->source == Source::Root);
    const Clip inPlace = applyInPlace(clip, removeMotion(asset.rig, clip, *travelling));
    Options deduced = options;
    deduced.forceSource = Source::FootContact;
    deduced.rootNode = "nodes[" + std::to_string(asset.rig.gltfIndex[travelling->root]) + "]";
    return {clip.name, travelling->strideLength, deduce(asset.rig, inPlace, deduced, 0.0),
            deduce(asset.rig, inPlace, deduced, kDefaultSlope)};
}

double error(double measured, double truth) { return (measured - truth) / truth; }

void print(const Truth& t, double rate) {
    std::printf("  %5.0f/s %-36s truth %7.4f  Babylon's rule %+7.2f%%  lift-off gate %+7.2f%%\n", rate,
                t.name.c_str(), t.stride, 100.0 * error(t.babylonRule, t.stride), 100.0 * error(t.liftOffGate, t.stride));
}

}  // namespace

TEST_CASE("contacts: by default the biped's in-place run and walk are deduced within 0.5% at every sample rate") {
    const samples::Biped biped = samples::makeBiped();
    auto asset = loadAssetFromMemory(samples::toGlb(biped), "biped.glb", {});
    REQUIRE(asset.ok());
    for (const Clip& clip : asset->clips) {
        if (clip.name != "run_inplace" && clip.name != "walk_inplace") continue;
        for (const double rate : {30.0, 60.0, 120.0, 240.0, 480.0}) {
            CAPTURE(clip.name);
            CAPTURE(rate);
            Options options;
            options.samplesPerSecond = rate;
            const double truth = biped.truth[clip.gltfIndex].strideLength;
            const Truth t{clip.name, truth, deduce(asset->rig, clip, options, 0.0),
                          deduce(asset->rig, clip, options, kDefaultSlope)};
            print(t, rate);
            CHECK(std::abs(error(t.liftOffGate, truth)) <= 0.005);
        }
    }
}

TEST_CASE("contacts: on real motion capture baked in place, the lift-off gate is never worse than Babylon's rule") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    const struct {
        const char* file;
        const char* clip;
    } cases[] = {
        {"mixamo-mixed-jsa4000/master-character.glb", "generic-jump-running-01"},
        {"mixamo-mixed-jsa4000/master-character.glb", "generic-sneaking-walking-02-loop"},
        {"mixamo-mixed-jsa4000/master-character.glb", "generic-pushing-01-loop"},
        {"mixamo-zup-boyquotes/Slow_Run.glb", "Armature|mixamo.com|Layer0.001"},
        {"mixamo-zup-boyquotes/Slow_Run.glb", "Armature|mixamo.com|Layer0.002"},
        {"gdquest-mannequiny/mannequiny-0.3.0.glb", "dash"},
    };
    bool slowRunFixed = false;
    for (const auto& c : cases) {
        auto asset = loadAsset(shared / "corpus" / c.file);
        REQUIRE(asset.ok());
        const Clip* clip = nullptr;
        for (const Clip& k : asset->clips)
            if (k.name == c.clip) clip = &k;
        REQUIRE_MESSAGE(clip, "no clip " << c.clip);
        for (const double rate : {60.0, 120.0}) {
            const std::string name = c.clip;
            CAPTURE(name);
            CAPTURE(rate);
            const Truth t = inPlaceTruth(*asset, *clip, rate);
            print(t, rate);
            const double gate = std::abs(error(t.liftOffGate, t.stride));
            const double babylon = std::abs(error(t.babylonRule, t.stride));
            // A jump's, a sneak's or a dash's long flight defeats both rules (40-95% short):
            // no ranking there. Elsewhere: within half a percent of Babylon's error, or better.
            if (std::min(gate, babylon) > 0.10) continue;
            CHECK(gate <= babylon + 0.005);
            if (name == "Armature|mixamo.com|Layer0.002" && rate == 60.0) slowRunFixed = gate <= 0.005;
        }
    }
    // The one run among them: Babylon's rule is 9.1% short at 60/s. (At 120/s both are
    // 9.7% short: docs/analysis.md.)
    CHECK(slowRunFixed);
}

// The run study (samples/README.md): 54 in-place runs over speeds, duty factors, swing
// lifts and key rates, each at four sample rates, against v x T.
TEST_CASE("contacts: on the run study the lift-off gate is 3 to 7 times closer to the truth than Babylon's rule") {
    samples::BipedOptions study;
    study.runStudy = true;
    const samples::Biped biped = samples::makeBiped(study);
    auto asset = loadAssetFromMemory(samples::toGlb(biped), "run-study.glb", {});
    REQUIRE(asset.ok());
    REQUIRE(asset->clips.size() == 54);
    for (const double rate : {30.0, 60.0, 120.0, 240.0}) {
        CAPTURE(rate);
        double gateSum = 0.0, babylonSum = 0.0;
        int within = 0;
        for (const Clip& clip : asset->clips) {
            CAPTURE(clip.name);
            Options options;
            options.samplesPerSecond = rate;
            const double truth = biped.truth[clip.gltfIndex].strideLength;
            const double gate = std::abs(error(deduce(asset->rig, clip, options, kDefaultSlope), truth));
            const double babylon = std::abs(error(deduce(asset->rig, clip, options, 0.0), truth));
            // Where Babylon's rule is right by luck (0.01%), the gate can be 1 point off.
            CHECK(gate <= babylon + 0.011);
            gateSum += gate;
            babylonSum += babylon;
            within += gate <= 0.005;
        }
        const double n = double(asset->clips.size());
        std::printf("  %5.0f/s run study: mean error, Babylon's rule %.2f%%, lift-off gate %.2f%%; within 0.5%%: %d of %zu\n",
                    rate, 100.0 * babylonSum / n, 100.0 * gateSum / n, within, asset->clips.size());
        CHECK(gateSum / n <= 0.02);
        CHECK(gateSum <= 0.34 * babylonSum);  // 3x at 30/s, 5-7x finer
    }
}
