// The procedural biped loaded as an asset, and lookups by name, for the tests that change
// its rig or clips in memory.
#pragma once

#include "biped.h"
#include "gltf/asset.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

namespace rootbake::test {

inline gltf::Asset loadBiped(samples::Biped& biped) {
    biped = samples::makeBiped();
    auto asset = gltf::loadAssetFromMemory(samples::toGlb(biped), "biped.glb", {});
    REQUIRE(asset.ok());
    return std::move(*asset);
}

inline const Clip& clipNamed(const gltf::Asset& asset, const std::string& name) {
    for (const Clip& c : asset.clips)
        if (c.name == name) return c;
    FAIL("no clip " << name);
    return asset.clips.front();
}

inline int nodeNamed(const Rig& rig, const std::string& name) {
    for (int n = 0; n < rig.size(); ++n)
        if (rig.name[n] == name) return n;
    FAIL("no node " << name);
    return -1;
}

inline std::set<std::string> contactNames(const Rig& rig, const ClipAnalysis& a) {
    std::set<std::string> names;
    for (int n : a.contacts) names.insert(rig.name[n]);
    return names;
}

}  // namespace rootbake::test
