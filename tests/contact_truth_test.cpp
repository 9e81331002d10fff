// Contact deduction against known travel. Beyond the biped's in-place clips,
// real motion capture gives a truth too: a corpus clip whose travel is in its
// root's keys, baked in place, is an in-place clip whose true stride is the one
// taken out; deducing it back from the planted feet (source forced to
// footContact) measures the contact model on real data. Every case compares the
// default (limb ends and stances, docs/analysis.md "Contacts") with Babylon's rule.
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
    double babylonRule = 0.0, stance = 0.0;  // deduced by Babylon's rule and by the default
};

double deduce(const Rig& rig, const Clip& clip, Options options, ContactRule rule) {
    options.contactRule = rule;
    auto a = analyzeClip(rig, clip, options);
    REQUIRE_MESSAGE(a.ok(), (a.ok() ? "" : a.error().message));
    return a->strideLength;
}

// The corpus clip baked in place, then deduced from its contacts.
Truth inPlaceTruth(const gltf::Asset& asset, const Clip& clip, double samplesPerSecond) {
    Options options;
    options.samplesPerSecond = samplesPerSecond;
    auto travelling = analyzeClip(asset.rig, clip, options);
    REQUIRE(travelling.ok());
    REQUIRE(travelling->source == Source::Root);
    const Clip inPlace = applyInPlace(clip, removeMotion(asset.rig, clip, *travelling));
    Options deduced = options;
    deduced.source = SourceChoice::FootContact;
    deduced.rootNode = nodeRefByIndex(asset.rig.gltfIndex[travelling->root]);
    return {clip.name, travelling->strideLength, deduce(asset.rig, inPlace, deduced, ContactRule::Babylon),
            deduce(asset.rig, inPlace, deduced, ContactRule::Stance)};
}

double error(double measured, double truth) { return (measured - truth) / truth; }

void print(const Truth& t, double rate) {
    std::printf("  %5.0f/s %-36s truth %7.4f  Babylon's rule %+7.2f%%  stance %+7.2f%%\n", rate, t.name.c_str(),
                t.stride, 100.0 * error(t.babylonRule, t.stride), 100.0 * error(t.stance, t.stride));
}

}  // namespace

TEST_CASE("contacts: by default the biped's in-place run and walk are deduced within 0.5% at every sample rate") {
    const samples::Biped biped = samples::makeBiped();
    auto asset = gltf::loadAssetFromMemory(samples::toGlb(biped), "biped.glb", {});
    REQUIRE(asset.ok());
    for (const Clip& clip : asset->clips) {
        if (clip.name != "run_inplace" && clip.name != "walk_inplace") continue;
        for (const double rate : {30.0, 60.0, 120.0, 240.0, 480.0}) {
            CAPTURE(clip.name);
            CAPTURE(rate);
            Options options;
            options.samplesPerSecond = rate;
            const double truth = biped.truth[clip.gltfIndex].strideLength;
            const Truth t{clip.name, truth, deduce(asset->rig, clip, options, ContactRule::Babylon),
                          deduce(asset->rig, clip, options, ContactRule::Stance)};
            print(t, rate);
            CHECK(std::abs(error(t.stance, truth)) <= 0.005);
        }
    }
}

TEST_CASE("contacts: the stances are read 120 times a second whatever the track's rate, within maxSamples") {
    const samples::Biped biped = samples::makeBiped();
    auto asset = gltf::loadAssetFromMemory(samples::toGlb(biped), "biped.glb", {});
    REQUIRE(asset.ok());
    const Clip* run = nullptr;
    for (const Clip& c : asset->clips)
        if (c.name == "run_inplace") run = &c;
    REQUIRE(run);
    const double truth = biped.truth[run->gltfIndex].strideLength;
    Options track30, track120;
    track30.samplesPerSecond = 30.0;  // 4 readings a sample
    track120.samplesPerSecond = 120.0;
    auto at30 = analyzeClip(asset->rig, *run, track30);
    auto at120 = analyzeClip(asset->rig, *run, track120);
    REQUIRE(at30.ok());
    REQUIRE(at120.ok());
    CHECK(std::abs(error(at30->strideLength, at120->strideLength)) <= 1e-4);
    CHECK(std::abs(error(at30->strideLength, truth)) <= 0.005);

    // maxSamples bounds the readings too: with room for the track's node positions only
    // (50 samples x 31 nodes, the rig's 26 and its 5 limb ends' soles, <= 8 x maxSamples, twice
    // as many readings not), the contacts are read at the track's rate and the stride is still
    // deduced.
    Options tight;
    tight.samplesPerSecond = 60.0;
    tight.maxSamples = 200;
    auto bounded = analyzeClip(asset->rig, *run, tight);
    REQUIRE_MESSAGE(bounded.ok(), (bounded.ok() ? "" : bounded.error().message));
    CHECK(bounded->source == Source::FootContact);
    CHECK(std::abs(error(bounded->strideLength, truth)) <= 0.005);
}

TEST_CASE("contacts: on real motion capture baked in place, the stance reading is as close as Babylon's rule or closer") {
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
    int fasterRunCloser = 0;
    for (const auto& c : cases) {
        auto asset = gltf::loadAsset(shared / "corpus" / c.file);
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
            const double stance = std::abs(error(t.stance, t.stride));
            const double babylon = std::abs(error(t.babylonRule, t.stride));
            // A jump's, a sneak's or a dash's long flight defeats both rules: no ranking there.
            if (std::min(stance, babylon) > 0.10) continue;
            CHECK(stance <= babylon + 0.005);
            if (name == "Armature|mixamo.com|Layer0.002") fasterRunCloser += stance < babylon;
        }
    }
    // The fast run, 9-10% short by Babylon's rule, is closer at both rates.
    CHECK(fasterRunCloser == 2);
}

// The run study (samples/README.md): 54 in-place runs over speeds, duty factors, swing
// lifts and key rates, each at four sample rates, against v x T.
TEST_CASE("contacts: on the run study the stance reading is within 1% on average, and nearly the same at every sample rate") {
    samples::BipedOptions study;
    study.runStudy = true;
    const samples::Biped biped = samples::makeBiped(study);
    auto asset = gltf::loadAssetFromMemory(samples::toGlb(biped), "run-study.glb", {});
    REQUIRE(asset.ok());
    REQUIRE(asset->clips.size() == 54);
    std::vector<double> fewest(asset->clips.size(), 1e300), most(asset->clips.size(), -1e300);
    for (const double rate : {30.0, 60.0, 120.0, 240.0}) {
        CAPTURE(rate);
        double stanceSum = 0.0, babylonSum = 0.0, worst = 0.0;
        int within = 0;
        for (const Clip& clip : asset->clips) {
            CAPTURE(clip.name);
            Options options;
            options.samplesPerSecond = rate;
            const double truth = biped.truth[clip.gltfIndex].strideLength;
            const double stride = deduce(asset->rig, clip, options, ContactRule::Stance);
            const double stanceError = std::abs(error(stride, truth));
            fewest[clip.gltfIndex] = std::min(fewest[clip.gltfIndex], stride);
            most[clip.gltfIndex] = std::max(most[clip.gltfIndex], stride);
            const double babylon = std::abs(error(deduce(asset->rig, clip, options, ContactRule::Babylon), truth));
            CHECK(stanceError <= babylon + 0.005);
            stanceSum += stanceError;
            worst = std::max(worst, stanceError);
            babylonSum += babylon;
            within += stanceError <= 0.005;
        }
        const double n = double(asset->clips.size());
        std::printf("  %5.0f/s run study: mean error, Babylon's rule %.2f%%, stance %.2f%%, worst %.2f%%; within 0.5%%: %d of %zu\n",
                    rate, 100.0 * babylonSum / n, 100.0 * stanceSum / n, 100.0 * worst, within, asset->clips.size());
        CHECK(worst <= 0.01);  // every lift profile and key rate within 1%
        CHECK(stanceSum <= 0.05 * babylonSum);  // 20x closer at 30/s, 70-200x finer
    }
    // A true stride does not depend on the sampling: the spread of each clip's stride over
    // 30, 60, 120 and 240 samples per second, against its truth.
    double spreadSum = 0.0, worstSpread = 0.0;
    for (const Clip& clip : asset->clips) {
        const double spread = (most[clip.gltfIndex] - fewest[clip.gltfIndex]) / biped.truth[clip.gltfIndex].strideLength;
        spreadSum += spread;
        worstSpread = std::max(worstSpread, spread);
    }
    std::printf("  run study: stride spread over 30-240 samples/s, mean %.2f%%, worst %.2f%%\n",
                100.0 * spreadSum / asset->clips.size(), 100.0 * worstSpread);
    CHECK(spreadSum / asset->clips.size() <= 0.005);
    CHECK(worstSpread <= 0.01);  // the bar: under 1% between 30 and 240 samples/s
}

// The gait study (samples/README.md): shuffles, a crouch, backwards and sideways walks,
// a low jog, a sprint and a gentle lift, at 24, 30 and 60 fps keys.
TEST_CASE("contacts: every gait of the gait study is deduced within 1% at every sample rate") {
    samples::BipedOptions options;
    options.gaitStudy = true;
    const samples::Biped biped = samples::makeBiped(options);
    auto asset = gltf::loadAssetFromMemory(samples::toGlb(biped), "gait-study.glb", {});
    REQUIRE(asset.ok());
    REQUIRE(asset->clips.size() == 24);
    double worst = 0.0, worstBabylon = 0.0;
    for (const Clip& clip : asset->clips) {
        for (const double rate : {30.0, 60.0, 120.0, 240.0}) {
            CAPTURE(clip.name);
            CAPTURE(rate);
            Options o;
            o.samplesPerSecond = rate;
            const double truth = biped.truth[clip.gltfIndex].strideLength;
            const double stance = std::abs(error(deduce(asset->rig, clip, o, ContactRule::Stance), truth));
            CHECK(stance <= 0.01);
            worst = std::max(worst, stance);
            worstBabylon = std::max(worstBabylon, std::abs(error(deduce(asset->rig, clip, o, ContactRule::Babylon), truth)));
        }
    }
    std::printf("  gait study: worst error %.2f%% (Babylon's rule %.2f%%)\n", 100.0 * worst, 100.0 * worstBabylon);
}
