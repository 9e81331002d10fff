// Mutation: thousands of truncated and byte-flipped copies of valid files, each
// of which must either load (and then analyse every clip to finite numbers, or
// refuse the clip with a one-line error) or be refused with a one-line message
// that starts with the file name. Deterministic: a fixed seed and our own
// generator (std:: distributions differ between standard libraries).
#include "biped.h"
#include "gltf/asset.h"
#include "support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

using namespace rootbake;
namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<std::uint8_t>;

// SplitMix64: tiny, and the same sequence everywhere.
struct Random {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

bool finite(const glm::dvec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

bool oneLine(const std::string& message) {
    return !message.empty() && message.find('\n') == std::string::npos;
}

struct Tally {
    int cases = 0, refused = 0, loaded = 0, clips = 0, clipErrors = 0;
    std::string lastClipError;
};

// maxSamples lowered: a flipped exponent can make a clip of 1e30 s, whose refusal
// is the point; a merely long clip should not slow the test down.
Options mutationOptions() {
    Options options;
    options.maxSamples = 1u << 12;  // 68 s at 60 samples per second
    return options;
}

// One mutated file through the pipeline. REQUIREs only on failure, so thousands
// of passing cases cost no assertion bookkeeping.
void runCase(const Bytes& bytes, const std::string& name, const fs::path& folder, Tally& tally,
             const Options& options) {
    ++tally.cases;
    Result<gltf::Asset> asset = gltf::loadAssetFromMemory(bytes, name, folder);
    if (!asset) {
        ++tally.refused;
        const std::string& message = asset.error().message;
        if (message.rfind(name + ": ", 0) != 0 || !oneLine(message)) {
            CAPTURE(message);
            FAIL("a refusal must be one line starting with the file name");
        }
        return;
    }
    ++tally.loaded;
    for (const Clip& clip : asset->clips) {
        ++tally.clips;
        Result<ClipAnalysis> analysis = analyzeClip(asset->rig, clip, options);
        if (!analysis) {
            ++tally.clipErrors;
            tally.lastClipError = analysis.error().message;
            if (!oneLine(analysis.error().message)) FAIL("a clip error must be one line: " << analysis.error().message);
            continue;
        }
        const ClipAnalysis& a = *analysis;
        bool ok = std::isfinite(a.duration) && std::isfinite(a.characterHeight) && finite(a.travelDirection) &&
                  finite(a.stride) && std::isfinite(a.strideLength) && std::isfinite(a.turn) &&
                  std::isfinite(a.averageSpeed) && std::isfinite(a.averageAngularSpeed) && finite(a.rootStart) &&
                  finite(a.lateralDrift);
        for (std::size_t i = 0; ok && i < a.track.times.size(); ++i)
            ok = std::isfinite(a.track.times[i]) && finite(a.track.translation[i]) && std::isfinite(a.track.yaw[i]);
        const std::vector<InPlaceChannel> channels = removeMotion(asset->rig, clip, a);
        for (const InPlaceChannel& c : channels)
            for (float v : c.values) ok = ok && std::isfinite(v);
        const LoopSeam seam = measureLoopSeam(asset->rig, applyInPlace(clip, channels), a);
        ok = ok && std::isfinite(seam.position) && std::isfinite(seam.rotationDegrees);
        if (!ok) FAIL(name << " clip " << clip.gltfIndex << ": a number is not finite; " << a.reason);
    }
}

// `truncations` prefixes spread over the file, then `flips` single-byte changes
// (a bit, a random byte, or 0x00/0xFF over four bytes: lengths and counts).
void mutate(const Bytes& original, const std::string& name, const fs::path& folder, int truncations, int flips,
            std::uint64_t seed, Tally& tally) {
    Random random{seed};
    for (int i = 0; i < truncations; ++i) {
        const std::size_t size = i == 0 ? 0 : random.below(original.size());
        runCase(Bytes(original.begin(), original.begin() + static_cast<std::ptrdiff_t>(size)), name, folder, tally,
                mutationOptions());
    }
    Bytes bytes = original;
    for (int i = 0; i < flips; ++i) {
        const std::size_t at = random.below(bytes.size());
        const std::size_t kind = random.below(4);
        const std::size_t width = kind >= 2 ? std::min<std::size_t>(4, bytes.size() - at) : 1;
        const Bytes saved(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                          bytes.begin() + static_cast<std::ptrdiff_t>(at + width));
        if (kind == 0) bytes[at] ^= static_cast<std::uint8_t>(1u << random.below(8));
        if (kind == 1) bytes[at] = static_cast<std::uint8_t>(random.next());
        for (std::size_t k = 0; kind >= 2 && k < width; ++k) bytes[at + k] = kind == 2 ? 0x00 : 0xFF;
        runCase(bytes, name, folder, tally, mutationOptions());
        std::copy(saved.begin(), saved.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at));
    }
}

Bytes readFile(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void report(const std::string& what, const Tally& t) {
    MESSAGE(what << ": " << t.cases << " cases, " << t.refused << " refused, " << t.loaded << " loaded ("
                 << t.clips << " clips, " << t.clipErrors << " refused by the analysis)");
}

}  // namespace

TEST_CASE("mutation: truncated and byte-flipped bipeds load cleanly or are refused in one line") {
    const samples::Biped biped = samples::makeBiped();
    const Bytes glb = samples::toGlb(biped);
    const std::string text = samples::toGltfWithDataUri(biped);
    const Bytes gltf(text.begin(), text.end());

    Tally glbTally, gltfTally;
    mutate(glb, "biped.glb", {}, 200, 1000, 0x5EED0001, glbTally);
    mutate(gltf, "biped.gltf", {}, 200, 800, 0x5EED0002, gltfTally);
    report("biped.glb", glbTally);
    report("biped.gltf", gltfTally);
    // Both outcomes are exercised: a mutation test that only ever refuses tests the refusal.
    CHECK(glbTally.loaded > 400);
    CHECK(glbTally.refused > 300);
    CHECK(gltfTally.loaded > 100);
    CHECK(gltfTally.refused > 300);
}

TEST_CASE("mutation: small corpus files, truncated and byte-flipped") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    const char* files[] = {"assimp-interpolation-tests/animation_interpolation_cubic.gltf",
                           "assimp-interpolation-tests/animation_interpolation_step.gltf",
                           "khronos-simpleskin/SimpleSkin.gltf",
                           "playcanvas-cube-animation/cube.animation.glb",
                           "khronos-cesiumman/glTF/CesiumMan.gltf"};
    Tally tally;
    std::uint64_t seed = 0x5EED0100;
    for (const char* file : files) {
        const fs::path path = shared / "corpus" / file;
        const Bytes bytes = readFile(path);
        REQUIRE(!bytes.empty());
        // The file's own folder: its .bin loads, and a mutated URI meets the folder checks.
        mutate(bytes, path.filename().string(), path.parent_path(), 100, 400, ++seed, tally);
    }
    report("corpus", tally);
    CHECK(tally.loaded > 100);
}

TEST_CASE("regressions: every input that ever broke the pipeline runs clean (tests/regressions)") {
    // What each file must do now (tests/regressions/README.md says what it did before);
    // a file without a row gets the generic check alone.
    struct Expected {
        const char* file;
        const char* clipError;  // substring of the one clip's error; nullptr: analysed
    } const expected[] = {
        {"overflowing-scales.gltf", "beyond 1e+12 units, the transforms overflow"},
        {"zero-scale-parent-at-key.gltf", nullptr},
        {"flattened-parent.gltf", nullptr},
        {"ten-hour-clip.gltf", nullptr},
        {"weights-only-clip.gltf", nullptr},
        {"ansi-node-name.glb", nullptr},
        {"channel-without-node.gltf", nullptr},
    };
    const fs::path folder = fs::path(ROOTBAKE_SOURCE_DIR) / "tests" / "regressions";
    int files = 0, listed = 0;
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
        const std::string name = entry.path().filename().string();
        CAPTURE(name);
        ++files;
        Tally tally;
        runCase(readFile(entry.path()), name, {}, tally, Options{});
        for (const Expected& e : expected) {
            if (name != e.file) continue;
            ++listed;
            CHECK(tally.loaded == 1);
            if (e.clipError) {
                CHECK(tally.clipErrors == 1);
                CHECK(tally.lastClipError.find(e.clipError) != std::string::npos);
            } else {
                CHECK(tally.clipErrors == 0);
            }
        }
    }
    CHECK(listed == static_cast<int>(std::size(expected)));
    MESSAGE(files << " regression inputs");
}
