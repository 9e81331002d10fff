// The same asset as .glb, .gltf + .bin and .gltf with a data: URI gives
// identical rigs and clips.
#include "biped.h"
#include "gltf/asset.h"

#include <doctest/doctest.h>

#include <fstream>

using namespace rootbake;

namespace {

void checkSame(const gltf::Asset& a, const gltf::Asset& b) {
    REQUIRE(a.rig.size() == b.rig.size());
    CHECK(a.rig.parent == b.rig.parent);
    CHECK(a.rig.name == b.rig.name);
    CHECK(a.rig.gltfIndex == b.rig.gltfIndex);
    CHECK(a.rig.hasMesh == b.rig.hasMesh);
    for (int n = 0; n < a.rig.size(); ++n) {
        CHECK(a.rig.rest[n].translation == b.rig.rest[n].translation);
        CHECK(a.rig.rest[n].rotation == b.rig.rest[n].rotation);
        CHECK(a.rig.rest[n].scale == b.rig.rest[n].scale);
    }
    REQUIRE(a.clips.size() == b.clips.size());
    for (size_t c = 0; c < a.clips.size(); ++c) {
        const Clip& x = a.clips[c];
        const Clip& y = b.clips[c];
        CHECK(x.name == y.name);
        CHECK(x.end == y.end);
        REQUIRE(x.channels.size() == y.channels.size());
        for (size_t i = 0; i < x.channels.size(); ++i) {
            CHECK(x.channels[i].node == y.channels[i].node);
            CHECK(x.channels[i].path == y.channels[i].path);
            CHECK(x.channels[i].interpolation == y.channels[i].interpolation);
            CHECK(x.channels[i].times == y.channels[i].times);
            CHECK(x.channels[i].values == y.channels[i].values);
        }
    }
}

}  // namespace

TEST_CASE("containers: .glb, .gltf + .bin and a data: URI give the same rig and clips") {
    const samples::Biped biped = samples::makeBiped();
    const std::vector<std::uint8_t> glb = samples::toGlb(biped);
    auto fromGlb = gltf::loadAssetFromMemory(glb, "biped.glb", {});
    REQUIRE(fromGlb.ok());
    CHECK(fromGlb->binary);

    const std::string embedded = samples::toGltfWithDataUri(biped);
    auto fromDataUri = gltf::loadAssetFromMemory(
        {reinterpret_cast<const std::uint8_t*>(embedded.data()), embedded.size()}, "biped.gltf", {});
    REQUIRE_MESSAGE(fromDataUri.ok(), (fromDataUri.ok() ? "" : fromDataUri.error().message));
    CHECK_FALSE(fromDataUri->binary);

    const auto dir = std::filesystem::temp_directory_path() / "rootbake-container-test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "biped.gltf", std::ios::binary) << samples::toGltfWithBin(biped, "biped.bin");
    std::ofstream(dir / "biped.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(biped.bin.data()), std::streamsize(biped.bin.size()));
    auto fromBin = gltf::loadAsset(dir / "biped.gltf");
    REQUIRE_MESSAGE(fromBin.ok(), (fromBin.ok() ? "" : fromBin.error().message));
    CHECK(fromBin->externalUris == std::vector<std::string>{"biped.bin"});
    std::filesystem::remove_all(dir);

    checkSame(*fromGlb, *fromDataUri);
    checkSame(*fromGlb, *fromBin);
}
