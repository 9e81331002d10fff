// libFuzzer target: rootbake's loader against tinygltf on mutated glTF/GLB bytes, the
// comparison of tests/differential (seen.h). tinygltf is compiled in from Debian's header
// (instrumented, no image decoding). It runs only on what rootbake loads: rootbake refuses
// every external URI from memory, and tinygltf is not itself robust to arbitrary bytes
// (it is the reference here, not the code under test). tinygltf_impl.cpp compiles it. Where both load, what they see
// must agree; where tinygltf refuses, its reason must be one seen.h lists. Anything else
// aborts, so libFuzzer keeps the input.
#include "differential/seen.h"

#include "cli/printable.h"

#include <cstdio>
#include <cstdlib>

using namespace rootbake;
using namespace rootbake::differential;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::uint8_t> bytes(data, data + size);
    const Seen ours = viaRootbake(gltf::loadAssetFromMemory(bytes, "fuzz.glb", {}));
    if (!ours.ok) return 0;
    const Seen theirs = viaTinygltf(bytes, "");
    if (!theirs.ok) {
        if (reasonFor(theirs.error, kTheirsOnly, std::size(kTheirsOnly))) return 0;
        std::fprintf(stderr, "rootbake_fuzz_differential: tinygltf refuses what rootbake loads, for no listed reason: %s\n",
                     cli::printable(theirs.error).c_str());
        std::abort();
    }
    const std::string difference = firstDifference(ours, theirs);
    if (difference.empty()) return 0;
    std::fprintf(stderr, "rootbake_fuzz_differential: the loaders disagree: %s\n", cli::printable(difference).c_str());
    std::abort();
}
