// Differential testing: rootbake's glTF loader against tinygltf (Debian's libtinygltf
// 2.7), the library this project was specified with, on every file of ../shared/corpus
// (the bad files too), ../shared/hostile and tests/regressions. Where both load a file
// they must see the same nodes, hierarchy, animations, channels, key times and values
// (seen.h). Where only one loads it, the other's reason must be one seen.h lists: a check
// of ours that tinygltf lacks, or a file tinygltf refuses that the spec allows. Anything
// else is a bug to fix. tests/fuzz/fuzz_differential.cpp makes the same comparison on
// fuzzed bytes.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "differential/seen.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace rootbake;
using namespace rootbake::differential;

namespace {

std::vector<std::uint8_t> readBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<fs::path> inputs(const fs::path& shared) {
    std::vector<fs::path> files;
    for (const fs::path& root : {shared / "corpus", shared / "hostile", fs::path(ROOTBAKE_SOURCE_DIR) / "tests" / "regressions"}) {
        if (!fs::exists(root)) continue;
        for (const auto& e : fs::recursive_directory_iterator(root))
            if (e.is_regular_file() && (e.path().extension() == ".glb" || e.path().extension() == ".gltf"))
                files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_CASE("differential: rootbake's loader and tinygltf see the same nodes, animations and keys") {
    const fs::path shared = fs::path(ROOTBAKE_SOURCE_DIR) / ".." / "shared";
    if (!fs::exists(shared / "corpus")) {
        MESSAGE("skipped: ../shared/corpus is not beside the checkout");
        return;
    }
    int both = 0, neither = 0, oursOnly = 0, theirsOnly = 0, channels = 0;
    for (const fs::path& file : inputs(shared)) {
        const std::string name = fs::relative(file, shared).string();
        CAPTURE(name);
        const Seen ours = viaRootbake(gltf::loadAsset(file));
        const Seen theirs = viaTinygltf(readBytes(file), file.parent_path().string());
        if (!ours.ok && !theirs.ok) {
            ++neither;
            continue;
        }
        if (!ours.ok) {
            ++oursOnly;
            std::printf("  rootbake only refuses %s: %s\n", name.c_str(), ours.error.c_str());
            const char* why = reasonFor(ours.error, kOursOnly, std::size(kOursOnly));
            CHECK_MESSAGE(why, "rootbake refuses what tinygltf loads, for no listed reason: " << ours.error);
            continue;
        }
        if (!theirs.ok) {
            ++theirsOnly;
            std::printf("  tinygltf only refuses %s: %s\n", name.c_str(), theirs.error.c_str());
            const char* why = reasonFor(theirs.error, kTheirsOnly, std::size(kTheirsOnly));
            CHECK_MESSAGE(why, "tinygltf refuses what rootbake loads, for no listed reason: " << theirs.error);
            continue;
        }
        ++both;
        const std::string difference = firstDifference(ours, theirs, &channels);
        CHECK_MESSAGE(difference.empty(), difference);
    }
    std::printf("  differential: %d files both load (%d channels compared), %d both refuse, %d only rootbake refuses,"
                " %d only tinygltf refuses\n",
                both, channels, neither, oursOnly, theirsOnly);
    CHECK(both > 0);
}
