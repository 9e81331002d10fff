// The skate measurement: a hand-built foot whose skate is known in closed form;
// the baked procedural biped, whose planted feet move only by the interpolation
// of their keys (samples/README.md: about 2% of the speed at worst); a track
// that is wrong by half; then `rootbake verify` end to end.
#ifdef ROOTBAKE_WITH_VERIFY

#include "verify/verify.h"
#include "biped.h"
#include "gltf/asset.h"
#include "pipeline/sidecar.h"
#include "support.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>

#include <sys/wait.h>
#include <unistd.h>

using namespace rootbake;
namespace fs = std::filesystem;

using test::Exit;
using test::q;
using test::readText;
using test::runExe;
using test::TempDir;
using test::writeText;

namespace {

// ---- a foot with closed-form skate ------------------------------------------------

// A root with one toe. Over 1 s the toe slides back from z = +0.25 to -0.25 on the
// ground (0 to 0.5 s), rises to 0.3 m, and comes down at z = +0.25 at 1 s. Moved at
// 1 m/s along +Z, the toe stands still while it is down.
struct Foot {
    Rig rig;
    Clip clip;
};

Foot makeFoot() {
    Foot f;
    f.rig.parent = {-1, 0};
    f.rig.rest.resize(2);
    f.rig.name = {"Root", "Toe"};
    f.rig.gltfIndex = {0, 1};
    f.rig.hasMesh = {0, 0};
    f.rig.rigIndexOfGltf = {0, 1};
    Channel toe;
    toe.node = 1;
    toe.path = Path::Translation;
    toe.interpolation = Interpolation::Linear;
    toe.times = {0.0f, 0.5f, 0.75f, 1.0f};
    toe.values = {0, 0, 0.25f, 0, 0, -0.25f, 0, 0.3f, 0, 0, 0, 0.25f};
    f.clip.name = "step";
    f.clip.channels = {toe};
    f.clip.end = 1.0;
    return f;
}

// A sidecar clip and the replay's view of it, kept together: the view points into the clip,
// which stays where it is on the heap when a Motion moves.
struct Motion {
    std::unique_ptr<SidecarClip> clip = std::make_unique<SidecarClip>();
    verify::ClipMotion view{clip.get(), -1, {}};
};

Motion footMotion(double trackSpeed) {
    Motion m;
    m.clip->times = {0.0, 1.0};
    m.clip->translation = {0, 0, 0, 0, 0, trackSpeed};
    m.clip->duration = 1.0;
    m.clip->characterHeight = 1.0;  // planted: within 1 cm of the ground
    m.clip->averageSpeed = 1.0;
    m.view.contacts = {1};
    return m;
}

// The motion as the bake's sidecar gives it: the sidecar clip the writer makes of the analysis.
Motion motionFromAnalysis(const Rig& rig, const Clip& inPlace, const ClipAnalysis& analysis) {
    Motion m;
    *m.clip = pipeline::sidecarClip(rig, analysis, 0, "", analysis.upAxis);
    m.view = verify::motionFromAnalysis(rig, inPlace, analysis, *m.clip);
    return m;
}

verify::ClipSkate mustMeasure(const Rig& rig, const Clip& inPlace, const verify::ClipMotion& m,
                              const Clip* source) {
    auto skate = verify::measureSkate(rig, inPlace, m, source);
    REQUIRE_MESSAGE(skate.ok(), (skate.ok() ? "" : skate.error().message));
    return *skate;
}

// ---- the biped ----------------------------------------------------------------------

struct Baked {
    gltf::Asset asset;
    std::vector<samples::ClipTruth> truth;
};

const Baked& biped() {
    static const Baked baked = [] {
        const samples::Biped b = samples::makeBiped();
        const std::vector<std::uint8_t> glb = samples::toGlb(b);
        auto loaded = gltf::loadAssetFromMemory(glb, "biped.glb", {});
        REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
        return Baked{std::move(loaded).value(), b.truth};
    }();
    return baked;
}

struct Verified {
    ClipAnalysis analysis;
    Clip inPlace;
    Motion motion;
    verify::ClipSkate skate;
    samples::ClipTruth truth;
};

// The in-place clip as bake writes it and the track its sidecar carries, in memory.
Verified verifyClip(const std::string& name, double translationScale = 1.0) {
    const gltf::Asset& asset = biped().asset;
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        if (asset.clips[i].name != name) continue;
        const Clip& source = asset.clips[i];
        auto analysis = analyzeClip(asset.rig, source, {});
        REQUIRE(analysis.ok());
        Verified v{*analysis,
                   applyInPlace(source, removeMotion(asset.rig, source, *analysis)),
                   {},
                   {},
                   biped().truth[i]};
        v.motion = motionFromAnalysis(asset.rig, v.inPlace, v.analysis);
        for (double& t : v.motion.clip->translation) t *= translationScale;
        v.skate = mustMeasure(asset.rig, v.inPlace, v.motion.view, &source);
        return v;
    }
    FAIL("no clip " << name);
    return {};
}

std::vector<std::string> names(const Rig& rig, const std::vector<int>& nodes) {
    std::vector<std::string> out;
    for (int n : nodes) out.push_back(rig.name[n]);
    return out;
}

// ---- the executable ------------------------------------------------------------------

}  // namespace

TEST_CASE("verify: a foot moved by a right track stands still, by a wrong one slides at the difference") {
    const Foot foot = makeFoot();
    // Planted: 0 to 0.5 s of each loop; with the 50 ms margin (3 frames) intervals 4..27
    // of each of the 3 loops, 72 in all. The touch-down and lift-off frames are out.
    const verify::ClipSkate right = mustMeasure(foot.rig, foot.clip, footMotion(1.0).view, &foot.clip);
    CHECK(right.frames == 180);
    CHECK(right.baked.samples == 72);
    CHECK(right.baked.mean < 1e-6);
    CHECK(right.baked.p95 < 1e-6);
    CHECK(right.averageSpeed == 1.0);
    // The constant-velocity alternative is this track: the same.
    CHECK(right.constant.mean < 1e-6);
    // The clip played as it is, the character left where it is: the toe slides at 1 m/s.
    REQUIRE(right.measuredSource);
    CHECK(right.source.samples == 72);
    CHECK(right.source.mean == doctest::Approx(1.0).epsilon(1e-6));
    CHECK(right.source.meanFraction == doctest::Approx(1.0).epsilon(1e-6));
    // Drift: what every planted contact shares, here the one toe's: 0 moved right, 1 m/s as it is.
    CHECK(right.baked.drift < 1e-6);
    CHECK(right.source.drift == doctest::Approx(1.0).epsilon(1e-6));
    CHECK(right.source.driftFraction == doctest::Approx(1.0).epsilon(1e-6));

    // A track that covers 0.6 m per second: the planted toe slides at 0.4 m/s.
    const verify::ClipSkate slow = mustMeasure(foot.rig, foot.clip, footMotion(0.6).view, nullptr);
    CHECK(slow.baked.mean == doctest::Approx(0.4).epsilon(1e-6));
    CHECK(slow.baked.p95 == doctest::Approx(0.4).epsilon(1e-6));
    CHECK(slow.baked.meanFraction == doctest::Approx(0.4).epsilon(1e-6));
    CHECK(slow.baked.driftFraction == doctest::Approx(0.4).epsilon(1e-6));
    CHECK_FALSE(verify::judge(slow, {.travels = true, .hasRoot = true, .hasContacts = true}, 0.05).passed);
    CHECK(verify::judge(right, {.travels = true, .hasRoot = true, .hasContacts = true}, 0.05).passed);
    // The foot-skating ratio: frames with a contact within 5 cm of the ground (for a 1.75 m
    // human) moving faster than 0.5 m/s. As it is, the toe slides at 1 m/s while down, half of
    // each loop; moved right it stands still then, and only lift-off and touch-down count.
    CHECK(right.source.skatingRatio > 0.45);
    CHECK(right.baked.skatingRatio < right.source.skatingRatio);
    CHECK_FALSE(slow.measuredSource);
    CHECK(slow.source.samples == 0);

    // A contact out of range and a track that is not one are errors, not numbers.
    Motion bad = footMotion(1.0);
    bad.view.contacts = {5};
    CHECK_FALSE(verify::measureSkate(foot.rig, foot.clip, bad.view, nullptr).ok());
    bad = footMotion(1.0);
    bad.clip->times = {0.0, 0.0};
    auto invalid = verify::measureSkate(foot.rig, foot.clip, bad.view, nullptr);
    REQUIRE_FALSE(invalid.ok());
    CHECK(invalid.error().message.find("times[1]") != std::string::npos);
}

namespace {

// Two toes of one root, 1 m apart: a foot as above, and one that stays where it is.
Foot makeFeet(bool bothSlide) {
    Foot f = makeFoot();
    f.rig.parent.push_back(0);
    f.rig.rest.emplace_back();
    f.rig.rest.back().translation = {1.0, 0.0, 0.0};
    f.rig.name.push_back("Toe2");
    f.rig.gltfIndex.push_back(2);
    f.rig.hasMesh.push_back(0);
    f.rig.rigIndexOfGltf.push_back(2);
    if (bothSlide) {
        Channel second = f.clip.channels[0];
        second.node = 2;
        for (std::size_t k = 0; k < second.values.size(); k += 3) second.values[k] = 1.0f;
        f.clip.channels.push_back(second);
    }
    return f;
}

Motion standing(std::vector<int> contacts) {
    Motion m = footMotion(0.0);
    m.clip->averageSpeed = 0;
    m.view.contacts = std::move(contacts);
    return m;
}

}  // namespace

TEST_CASE("verify: a clip that does not travel fails when all its planted feet slide alike") {
    constexpr verify::ClipFacts kStanding{.travels = false, .hasRoot = true, .hasContacts = true};
    // Both toes slide back at 1 m/s while down (1 height/s): an in-place walk given no travel.
    const Foot walk = makeFeet(true);
    const verify::ClipSkate slides = mustMeasure(walk.rig, walk.clip, standing({1, 2}).view, nullptr);
    CHECK(slides.height == 1.0);
    CHECK(slides.baked.drift == doctest::Approx(1.0).epsilon(1e-6));
    CHECK(std::isnan(slides.baked.driftFraction));
    const verify::Verdict failed = verify::judge(slides, kStanding, 0.05);
    CHECK(failed.gated);
    CHECK_FALSE(failed.passed);
    CHECK(test::contains(failed.note, "SLIDES: its planted contacts drift 1.00 heights/s together"));
    // One toe slides, the other stands: a skate of that foot, which no track would fix.
    const Foot pivot = makeFeet(false);
    const verify::ClipSkate one = mustMeasure(pivot.rig, pivot.clip, standing({1, 2}).view, nullptr);
    CHECK(one.baked.mean > 0.2);
    CHECK(one.baked.drift < 1e-9);
    CHECK(verify::judge(one, kStanding, 0.05).passed);
    // A one-shot: the toes slide back and stay there (a lunge, a landing): each loop pops them
    // forward again. Its seam is the 0.5 m (half the height) they end from where they start.
    Foot lunge = makeFeet(true);
    for (Channel& toe : lunge.clip.channels) {
        toe.times = {0.0f, 0.5f, 1.0f};
        toe.values = {toe.values[0], 0, 0.25f, toe.values[0], 0, -0.25f, toe.values[0], 0, -0.25f};
    }
    const verify::ClipSkate oneShot = mustMeasure(lunge.rig, lunge.clip, standing({1, 2}).view, nullptr);
    CHECK(oneShot.seam == doctest::Approx(0.5));
    CHECK(slides.seam < 1e-9);
    const verify::Verdict notACycle = verify::judge(oneShot, kStanding, 0.05);
    CHECK_FALSE(notACycle.gated);
    CHECK(test::contains(notACycle.note, "a one-shot, not a cycle (its ground points end 0.50 heights"));
    // Not gated: no root, no contacts.
    CHECK_FALSE(verify::judge(slides, {.travels = false, .hasRoot = false, .hasContacts = true}, 0.05).gated);
    CHECK_FALSE(verify::judge(slides, {.travels = false, .hasRoot = true, .hasContacts = false}, 0.05).gated);
}

TEST_CASE("verify: without its source, a clip whose travel is its root's keys is held to its average speed") {
    constexpr verify::ClipFacts kRootKeys{
        .travels = true, .rootKeys = true, .hasRoot = true, .hasContacts = true};
    constexpr verify::ClipFacts kDeduced{.travels = true, .hasRoot = true, .hasContacts = true};
    const Foot foot = makeFoot();
    // The root's keys cover 0.6 m while the toe is down (0 to 0.5 s: 1.2 m/s) and 0.4 m in the
    // swing: 1 m/s on average, the toe's speed. With the keys' timing the planted toe slides
    // at 0.2 m/s (20% of the speed); at the average speed it stands.
    Motion uneven = footMotion(1.0);
    uneven.clip->times = {0.0, 0.5, 1.0};
    uneven.clip->translation = {0, 0, 0, 0, 0, 0.6, 0, 0, 1.0};
    const verify::ClipSkate timing = mustMeasure(foot.rig, foot.clip, uneven.view, nullptr);
    CHECK(timing.baked.driftFraction == doctest::Approx(0.2).epsilon(1e-6));
    CHECK(timing.constant.driftFraction < 1e-6);
    const verify::Verdict keys = verify::judge(timing, kRootKeys, 0.05);
    CHECK(keys.gated);
    CHECK(keys.passed);
    CHECK(test::contains(keys.note,
                         "drift 20.0% of its speed > 5.0% with its root's keys, 0.0% at its average speed"));
    // A deduced track's timing is the deduction's own: the same play skates.
    const verify::Verdict deduced = verify::judge(timing, kDeduced, 0.05);
    CHECK_FALSE(deduced.passed);
    CHECK(test::contains(deduced.note, "SKATES: drift 20.0%"));

    // Keys and average speed both 0.6 m/s under a toe that shows 1 m/s: the feet say the
    // travel is wrong, whatever its timing.
    Motion slow = footMotion(0.6);
    slow.clip->averageSpeed = 0.6;
    const verify::ClipSkate wrong = mustMeasure(foot.rig, foot.clip, slow.view, nullptr);
    CHECK(wrong.constant.driftFraction == doctest::Approx(0.4 / 0.6).epsilon(1e-6));
    const verify::Verdict skates = verify::judge(wrong, kRootKeys, 0.05);
    CHECK(skates.gated);
    CHECK_FALSE(skates.passed);
    CHECK(test::contains(skates.note, "--source tells the source's from the bake's"));

    // A one-shot: the toe slides back and stays (a lunge): its feet are not on one ground
    // from loop to loop, and without the source its root's keys are not gated.
    Foot lunge = makeFoot();
    Channel& toe = lunge.clip.channels[0];
    toe.times = {0.0f, 0.5f, 1.0f};
    toe.values = {0, 0, 0.25f, 0, 0, -0.25f, 0, 0, -0.25f};
    const verify::ClipSkate oneShot = mustMeasure(lunge.rig, lunge.clip, slow.view, nullptr);
    CHECK(oneShot.seam == doctest::Approx(0.5));
    CHECK(oneShot.baked.driftFraction > 0.05);
    const verify::Verdict notGated = verify::judge(oneShot, kRootKeys, 0.05);
    CHECK_FALSE(notGated.gated);
    CHECK(test::contains(notGated.note,
                         "a one-shot, not a cycle (its ground points end 0.50 heights from where "
                         "they start), its travel its root's keys (drift "));
    CHECK(verify::judge(oneShot, kDeduced, 0.05).gated);
}

TEST_CASE("verify: the baked biped's planted feet skate under 3% of the speed") {
    for (const char* name : {"walk", "walk_inplace", "run_inplace", "turn_walk", "strafe"}) {
        CAPTURE(name);
        const Verified v = verifyClip(name);
        // The contacts: the sidecar's for footContact clips, the candidates for root clips.
        CHECK(names(biped().asset.rig, v.motion.view.contacts) ==
              std::vector<std::string>{"LeftFoot", "RightFoot"});
        CHECK(v.skate.averageSpeed == doctest::Approx(v.truth.averageSpeed).epsilon(0.005));
        // Every stance is measured: each toe is planted 60% (walks) or 1/3 (run) of a cycle.
        const double stance = std::string(name) == "run_inplace" ? 1.0 / 3.0 : 0.6;
        CHECK(v.skate.baked.samples > int(0.5 * 2 * stance * v.skate.frames));
        CHECK(v.skate.baked.meanFraction < 0.03);
        CHECK(v.skate.baked.p95Fraction < 0.05);
        // What a user would otherwise have. The source clip as it is: an in-place clip's
        // planted feet slide back at the speed of travel; a root clip's stand (the asset's
        // own floor) but pop back a stride at each loop.
        if (v.truth.source == "footContact") {
            CHECK(v.skate.source.mean == doctest::Approx(v.truth.averageSpeed).epsilon(0.01));
        } else {
            CHECK(v.skate.source.p95Fraction < 0.05);
            CHECK(v.skate.source.meanFraction > 0.3);
        }
    }
    // A constant velocity cannot follow the turn's hip twist.
    CHECK(verifyClip("turn_walk").skate.constant.meanFraction > 0.1);
}

TEST_CASE("verify: a track that carries half the translation fails the limit") {
    for (const char* name : {"walk", "walk_inplace", "turn_walk", "strafe"}) {
        CAPTURE(name);
        const Verified v = verifyClip(name, 0.5);
        // The planted foot slides at half the speed of travel.
        CHECK(v.skate.baked.meanFraction > 0.05);
        if (std::string(name) != "turn_walk")
            CHECK(v.skate.baked.meanFraction == doctest::Approx(0.5).epsilon(0.05));
        // Every planted foot slides alike: the drift is the error of the track.
        CHECK(v.skate.baked.driftFraction > 0.3);
        CHECK_FALSE(
            verify::judge(v.skate, {.travels = true, .hasRoot = true, .hasContacts = true}, 0.05).passed);
    }
}

namespace {

// The clip's motion as a sidecar that gives it no travel says it: a track of zeros.
void removeTravel(Motion& motion) {
    SidecarClip& clip = *motion.clip;
    std::fill(clip.translation.begin(), clip.translation.end(), 0.0);
    std::fill(clip.yaw.begin(), clip.yaw.end(), 0.0);
    clip.averageSpeed = 0;
    clip.averageAngularSpeed = 0;
}

}  // namespace

TEST_CASE("verify: the biped's walks given no travel slide, its idle stands") {
    constexpr verify::ClipFacts kStanding{.travels = false, .hasRoot = true, .hasContacts = true};
    for (const char* name : {"walk", "walk_inplace", "run_inplace", "strafe", "idle"}) {
        CAPTURE(name);
        Verified v = verifyClip(name);
        removeTravel(v.motion);
        const verify::ClipSkate still = mustMeasure(biped().asset.rig, v.inPlace, v.motion.view, nullptr);
        const verify::Verdict verdict = verify::judge(still, kStanding, 0.05);
        CHECK(verdict.gated);
        if (std::string(name) == "idle") {
            CHECK(verdict.passed);
            CHECK(still.baked.drift < 0.01 * still.height);
        } else {
            // The planted feet slide back at the speed the clip should travel.
            CHECK_FALSE(verdict.passed);
            CHECK(still.baked.drift == doctest::Approx(v.truth.averageSpeed).epsilon(0.05));
        }
    }
}

TEST_CASE("verify: clips that do not travel are measured, with no fraction") {
    const Verified idle = verifyClip("idle");
    CHECK(idle.skate.averageSpeed == 0.0);
    CHECK(idle.skate.baked.samples > 0);
    CHECK(idle.skate.baked.mean < 1e-3);  // both feet planted throughout
    CHECK(std::isnan(idle.skate.baked.meanFraction));
}

TEST_CASE("verify: the executable on a baked biped, a broken sidecar and bad usage") {
    TempDir dir("verify");
    const std::vector<std::uint8_t> glb = samples::toGlb(samples::makeBiped());
    std::ofstream(dir.path / "biped.glb", std::ios::binary)
        .write(reinterpret_cast<const char*>(glb.data()), std::streamsize(glb.size()));
    const fs::path baked = dir.path / "out" / "biped.glb";
    const fs::path sidecar = dir.path / "out" / "biped.rootmotion.json";
    fs::create_directories(baked.parent_path());
    const Exit bake = runExe("bake " + q(dir.path / "biped.glb") + " -o " + q(baked));
    INFO(bake.output);
    REQUIRE(bake.code == 0);

    const std::string verify = "verify " + q(baked) + " --sidecar " + q(sidecar);
    SUBCASE("ok, as a table and as JSON") {
        const Exit table = runExe(verify + " --source " + q(dir.path / "biped.glb"));
        INFO(table.output);
        CHECK(table.code == 0);
        CHECK(table.output.find("ok: 7 of 7 clips gated") != std::string::npos);
        const Exit json = runExe(verify + " --json --loops 2");
        INFO(json.output);
        REQUIRE(json.code == 0);
        const nlohmann::json doc = nlohmann::json::parse(json.output);
        CHECK(doc["passed"] == true);
        CHECK(doc["loops"] == 2);
        CHECK(doc["source"].is_null());
        REQUIRE(doc["clips"].size() == 7);
        for (const auto& clip : doc["clips"]) {
            CAPTURE(clip["name"].get<std::string>());
            CHECK(clip["sourceClip"].is_null());
            if (clip["gated"] == true && clip["averageSpeed"].get<double>() > 0)
                CHECK(clip["baked"]["driftFraction"].get<double>() < 0.03);
        }
    }
    SUBCASE("a track carrying half the translation skates: exit 4") {
        nlohmann::ordered_json doc = nlohmann::ordered_json::parse(readText(sidecar));
        for (auto& key : doc["clips"][0]["track"]["translation"])
            for (auto& v : key) v = v.get<double>() * 0.5;
        writeText(sidecar, doc.dump(2));
        const Exit run = runExe(verify);
        INFO(run.output);
        CHECK(run.code == 4);
        CHECK(run.output.find("SKATES") != std::string::npos);
        CHECK(run.output.find("FAILED: 7 of 7 clips gated") != std::string::npos);
        const Exit json = runExe(verify + " --json");
        CHECK(json.code == 4);
        CHECK(nlohmann::json::parse(json.output)["passed"] == false);
    }
    SUBCASE("bad input: exit 2, one line naming the file and the path") {
        nlohmann::ordered_json doc = nlohmann::ordered_json::parse(readText(sidecar));
        doc["clips"][2]["track"]["translation"][5] = {1.0, 2.0};
        writeText(sidecar, doc.dump(2));
        const Exit run = runExe(verify);
        CHECK(run.code == 2);
        CHECK(run.output == "rootbake: error: " + sidecar.string() +
                                ": clips[2].track.translation[5]: expected 3 numbers\n");
    }
    SUBCASE("bad input: a source that is not the sidecar's input, a sidecar of another asset") {
        const Exit wrongSource = runExe(verify + " --source " + q(baked));
        CHECK(wrongSource.code == 2);
        CHECK(wrongSource.output.find("not the input of") != std::string::npos);
        nlohmann::ordered_json doc = nlohmann::ordered_json::parse(readText(sidecar));
        doc["clips"][1]["animation"] = 9;
        writeText(sidecar, doc.dump(2));
        const Exit outOfRange = runExe(verify);
        CHECK(outOfRange.code == 2);
        CHECK(outOfRange.output.find("clips[1].animation: 9 out of range (") != std::string::npos);
        CHECK(runExe("verify " + q(baked) + " --sidecar " + q(dir.path / "missing.json")).code == 2);
    }
    SUBCASE("usage: exit 1") {
        CHECK(runExe(verify + " --loops 0").code == 1);
        CHECK(runExe(verify + " --max-drift -1").code == 1);
        CHECK(runExe(verify + " --max-skate -1").code == 1);  // its former name
        CHECK(runExe("verify").code == 1);                    // nothing to verify
    }
}

TEST_CASE("verify: a root clip whose source skates as much passes, alone or with --source, and says why") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    // master-character's push is root motion: its feet slip in the source itself (8.8% of its
    // speed, ../shared/truth/README.md), and its track replays the root exactly.
    TempDir dir("verify-source");
    const fs::path source = shared / "corpus" / "mixamo-mixed-jsa4000" / "master-character.glb";
    const fs::path baked = dir.path / "master.glb";
    REQUIRE(runExe("bake " + q(source) + " -o " + q(baked)).code == 0);
    const auto row = [](const std::string& output, const std::string& clip) {
        const std::size_t at = output.find("\n  " + clip + " ");
        return at == std::string::npos ? std::string()
                                       : output.substr(at + 1, output.find('\n', at + 1) - at - 1);
    };
    // Alone, verify cannot tell the source's drift from the bake's; the feet keep the push's
    // average speed (its keys' timing is the source's), so it passes and says why.
    const Exit alone = runExe("verify " + q(baked));
    INFO(alone.output);
    const std::string pushingAlone = row(alone.output, "generic-pushing-01-loop");
    CHECK(pushingAlone.substr(pushingAlone.find_last_not_of(' ') - 1) == "ok");
    const Exit aloneJson = runExe("verify " + q(baked) + " --json");
    const nlohmann::json aloneDoc = nlohmann::json::parse(aloneJson.output);
    std::string note;
    for (const auto& clip : aloneDoc["clips"])
        if (clip["name"] == "generic-pushing-01-loop") note = clip["note"];
    CHECK(test::contains(note, "with its root's keys, 0.0% at its average speed: its feet keep its speed"));
    // The climb (feet on a wall) is a one-shot: alone, not gated; with the source, as it.
    CHECK(test::contains(row(alone.output, "generic-climbing-01-loop"), "not gated"));
    const Exit withSource = runExe("verify " + q(baked) + " --source " + q(source));
    INFO(withSource.output);
    const std::string pushing = row(withSource.output, "generic-pushing-01-loop");
    CHECK(test::contains(pushing, " root "));
    CHECK(pushing.substr(pushing.find_last_not_of(' ') - 1) == "ok");
    CHECK(test::contains(withSource.output, "generic-pushing-01-loop: drifts as its source does (drift "));
}

TEST_CASE("verify: every corpus root clip passes as baked, and fails made in place without travel") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    // The root's keys carry the travel, so the feet stand still in the source by construction
    // (or slip as the source's own do: --source). The same clip in place with no travel is an
    // in-place clip the analysis missed: a clip that travels the minimum travel (a turn on the
    // spot does not) faster than a standing clip may drift must fail; a slow climb need not.
    int passed = 0, failed = 0;
    for (const auto& entry : fs::recursive_directory_iterator(shared / "corpus")) {
        const fs::path& file = entry.path();
        if (file.string().find("/bad/") != std::string::npos) continue;
        if (file.extension() != ".glb" && file.extension() != ".gltf") continue;
        auto asset = gltf::loadAssetFromMemory(test::readBytes(file), file.string(), {});
        if (!asset) continue;
        for (const Clip& clip : asset->clips) {
            auto analysis = analyzeClip(asset->rig, clip, {});
            if (!analysis || analysis->source != Source::Root) continue;
            const std::string what = file.filename().string() + " " + clip.name;
            CAPTURE(what);
            const Clip inPlace = applyInPlace(clip, removeMotion(asset->rig, clip, *analysis));
            Motion motion = motionFromAnalysis(asset->rig, inPlace, *analysis);
            if (motion.view.contacts.empty()) continue;  // a cube, an interpolation test: no limb
            const verify::ClipFacts facts{
                .travels = true, .rootKeys = true, .hasRoot = true, .hasContacts = true};
            const verify::ClipSkate baked = mustMeasure(asset->rig, inPlace, motion.view, &clip);
            const verify::Verdict asBaked = verify::judge(baked, facts, 0.05);
            CHECK_MESSAGE(asBaked.passed, asBaked.note);
            // Alone (no --source): passed, or not gated with its reason (a climb's feet on a wall).
            const verify::Verdict alone =
                verify::judge(mustMeasure(asset->rig, inPlace, motion.view, nullptr), facts, 0.05);
            CHECK_MESSAGE(alone.passed, alone.note);
            if (analysis->strideLength < Options{}.minimumTravel * analysis->characterHeight) continue;
            if (baked.averageSpeed < verify::kStandingDrift * baked.height) continue;
            removeTravel(motion);
            const verify::ClipSkate still = mustMeasure(asset->rig, inPlace, motion.view, nullptr);
            const verify::Verdict noTravel =
                verify::judge(still, {.travels = false, .hasRoot = true, .hasContacts = true}, 0.05);
            CHECK_MESSAGE(!noTravel.passed, "drift " << still.baked.drift / still.height << " heights/s");
            ++(noTravel.passed ? passed : failed);
        }
    }
    MESSAGE(failed << " corpus root clips made in place without travel fail verify, " << passed << " pass");
    CHECK(failed >= 1);
}

TEST_CASE("verify: bake --verify checks what it just wrote") {
    const fs::path biped = fs::path(ROOTBAKE_EXE).parent_path() / "samples" / "biped.glb";
    REQUIRE(fs::exists(biped));
    const fs::path dir = fs::temp_directory_path() / "rootbake-bake-verify";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const Exit run = runExe("bake " + q(biped) + " -o " + q(dir / "biped.glb") + " --verify");
    CHECK(run.code == 0);
    CHECK(run.output.find("7 of 7 clips gated, all under their limits") != std::string::npos);
    CHECK(fs::exists(dir / "biped.rootmotion.json"));
    fs::remove_all(dir);
}

#endif  // ROOTBAKE_WITH_VERIFY
