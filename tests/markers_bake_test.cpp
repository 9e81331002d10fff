// The markers in the baked glTF: each footstep clip's animation gets them under extras.rootbake,
// beside the extras it had, with the touch-downs of samples/README.md; a re-bake replaces them.
#include "biped.h"
#include "gltf/asset.h"
#include "pipeline/bake.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace rootbake;
using namespace rootbake::write;
using Json = nlohmann::ordered_json;

namespace {

struct Bake {
    pipeline::Baked baked;
    std::vector<std::uint8_t> glb;  // the output (its pieces read the input's buffers: joined here)
    Json document;                  // the output's
};

Bake bake(const std::vector<std::uint8_t>& glb) {
    auto input = gltf::loadAssetFromMemory(glb, "biped.glb", {});
    REQUIRE_MESSAGE(input.ok(), (input.ok() ? "" : input.error().message));
    pipeline::BakeSettings settings;
    settings.inputName = "biped.glb";
    settings.outputName = "out.glb";
    auto baked = pipeline::bakeAsset(*input, glb, settings);
    REQUIRE_MESSAGE(baked.ok(), (baked.ok() ? "" : baked.error().message));
    std::vector<std::uint8_t> bytes = joinPieces(baked->asset.main);
    auto output = gltf::loadAssetFromMemory(bytes, "out.glb", {});
    REQUIRE_MESSAGE(output.ok(), (output.ok() ? "" : output.error().message));
    return {std::move(*baked), std::move(bytes), output->document};
}

const Json& animationNamed(const Json& doc, const std::string& name) {
    for (const Json& animation : doc["animations"])
        if (animation.value("name", "") == name) return animation;
    FAIL("no animation " << name);
    return doc;
}

// The biped with extras of its own on two animations: an object and a string.
std::vector<std::uint8_t> bipedWithExtras() {
    samples::Biped biped = samples::makeBiped();
    Json doc = Json::parse(biped.json);
    for (Json& animation : doc["animations"]) {
        if (animation["name"] == "walk_inplace") animation["extras"] = {{"author", "mocap \"studio\""}};
        if (animation["name"] == "run_inplace") animation["extras"] = "take 3";
    }
    biped.json = doc.dump();
    return samples::toGlb(biped);
}

}  // namespace

TEST_CASE("markers in the glTF: extras.rootbake beside the animation's own, with the closed form's downs") {
    const Bake out = bake(bipedWithExtras());
    const Json& walk = animationNamed(out.document, "walk_inplace");
    REQUIRE(walk.contains("extras"));
    CHECK(walk["extras"]["author"] == "mocap \"studio\"");  // the user's, kept
    const Json& markers = walk["extras"]["rootbake"]["markers"];
    // samples/README.md: the left foot down at 0, the right at 0.5 (within one 1/60 s sample).
    std::vector<std::pair<std::string, double>> downs;
    for (const Json& e : markers["events"])
        if (e["type"] == "down") downs.emplace_back(e["side"].get<std::string>(), e["time"].get<double>());
    REQUIRE(downs.size() == 2);
    CHECK(downs[0].first == "left");
    CHECK(std::abs(downs[0].second - 0.0) <= 1.0 / 60 + 1e-9);
    CHECK(downs[1].first == "right");
    CHECK(std::abs(downs[1].second - 0.5) <= 1.0 / 60 + 1e-9);
    CHECK(markers["phase"]["contact"]["name"] == "LeftFoot");
    CHECK(markers["phase"]["anchors"] == Json::array({downs[0].second}));
    CHECK_FALSE(markers.contains("stop"));  // no null: custom properties hold none

    // The sidecar's markers, the same but for its nulls.
    for (const SidecarClip& clip : out.baked.document.sidecar.clips) {
        if (clip.name != "walk_inplace") continue;
        REQUIRE(clip.markers.events.size() == markers["events"].size());
        for (std::size_t i = 0; i < clip.markers.events.size(); ++i) {
            CHECK(markers["events"][i]["time"] == clip.markers.events[i].time);
            CHECK(markers["events"][i]["contact"]["index"] == clip.markers.events[i].contact.index);
        }
    }
    // An extras that is not an object stays as it was, and gets none.
    CHECK(animationNamed(out.document, "run_inplace")["extras"] == "take 3");
    // A clip without footsteps gets no extras.
    CHECK_FALSE(animationNamed(out.document, "walk").contains("extras"));
    CHECK_FALSE(animationNamed(out.document, "idle").contains("extras"));
}

TEST_CASE("markers in the glTF: a re-bake replaces extras.rootbake, and the bytes are the same each time") {
    const std::vector<std::uint8_t> input = bipedWithExtras();
    const Bake first = bake(input);
    CHECK(bake(input).glb == first.glb);
    const Bake again = bake(first.glb);
    const Json& before = animationNamed(first.document, "walk_inplace")["extras"];
    const Json& after = animationNamed(again.document, "walk_inplace")["extras"];
    CHECK(after.size() == 2);  // author and rootbake, once
    CHECK(after.dump() == before.dump());
}
