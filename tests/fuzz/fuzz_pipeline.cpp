// libFuzzer target: the whole bake from memory, as `rootbake bake` runs it on
// one file, minus the file writes. Bytes -> gltf::loadAssetFromMemory (no folder:
// every external URI is refused) -> the asset's work budget -> per clip
// analyzeClip, removeMotion, applyInPlace, measureLoopSeam -> the writer's
// in-memory bake (rewrite and sidecar), serialised, the sidecar read back and
// the GLB or .gltf output (with its .bin, in a temporary folder) loaded again.
// Anything the pipeline promises is checked and a broken promise aborts, so
// libFuzzer keeps the input: a refusal, as the CLI prints it, is one line that
// starts with the file name, and every number of an analysis is finite. Limits
// are the defaults, as `rootbake bake` without flags: scripts/fuzz caps memory
// and time per input, so an input that costs far more than it weighs is a finding.
#include "cli/printable.h"
#include "gltf/asset.h"
#include "pipeline/bake.h"
#include "rootbake/sidecar_loader.h"
#include "write/sidecar.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace rootbake;
using namespace rootbake::write;

namespace {

[[noreturn]] void broken(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "rootbake_fuzz: broken promise: %s%s%s\n", what, detail.empty() ? "" : ": ",
                 cli::printable(detail).c_str());
    std::abort();
}

void require(bool ok, const char* what, const std::string& detail = {}) {
    if (!ok) broken(what, detail);
}

bool isFinite(double v) {
    return std::isfinite(v);
}
bool isFinite(const glm::dvec3& v) {
    return isFinite(v.x) && isFinite(v.y) && isFinite(v.z);
}

// A message: as printed (names from the file escaped), one line without controls; and
// (for the loader) starting with the file name. The message itself may hold any byte a
// name holds, a line break too: the CLI escapes at the print boundary, not here.
void checkMessage(const std::string& message, const std::string& prefix) {
    require(cli::isOneLine(cli::printable(message)), "printed message is more than one line", message);
    require(message.size() > prefix.size() && message.compare(0, prefix.size(), prefix) == 0,
            "message does not start with the file name", message);
}

void checkAsset(const gltf::Asset& asset) {
    const Rig& rig = asset.rig;
    require(rig.rest.size() == rig.parent.size() && rig.name.size() == rig.parent.size() &&
                rig.gltfIndex.size() == rig.parent.size() && rig.hasMesh.size() == rig.parent.size(),
            "rig arrays differ in size");
    for (int i = 0; i < rig.size(); ++i) {
        require(rig.parent[i] < i, "rig is not parent-first");
        const Transform& t = rig.rest[i];
        require(
            isFinite(t.translation) && isFinite(t.scale) && std::isfinite(glm::dot(t.rotation, t.rotation)),
            "rest transform not finite");
        require(std::abs(glm::length(t.rotation) - 1.0) < 1e-6, "rest rotation not unit");
    }
    for (const Clip& clip : asset.clips) {
        require(isFinite(clip.start) && isFinite(clip.end) && clip.start <= clip.end, "clip range");
        for (const Channel& c : clip.channels) {
            require(c.node >= 0 && c.node < rig.size(), "channel node out of range");
            require(c.keyCount() >= 1, "channel without keys");
            const std::size_t perKey = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
            require(c.values.size() == c.times.size() * static_cast<std::size_t>(c.width()) * perKey,
                    "channel value count");
            for (std::size_t k = 0; k < c.times.size(); ++k) {
                require(std::isfinite(c.times[k]) && c.times[k] >= 0.0f, "key time not finite");
                // A repeated time is accepted (a step, with a warning: three.js's LittlestTokyo).
                require(k == 0 || c.times[k] >= c.times[k - 1], "key times decreasing");
            }
            for (float v : c.values) require(std::isfinite(v), "key value not finite");
        }
    }
}

void checkAnalysis(const ClipAnalysis& a, const Rig& rig) {
    require(isFinite(a.from) && isFinite(a.to) && isFinite(a.duration) && a.duration >= 0.0,
            "analysis range");
    require(isFinite(a.characterHeight) && a.characterHeight >= 0.0, "character height",
            std::to_string(a.characterHeight));
    require(isFinite(a.travelDirection) && isFinite(a.stride) && isFinite(a.strideLength) &&
                isFinite(a.turn) && isFinite(a.averageSpeed) && isFinite(a.averageAngularSpeed),
            "analysis numbers not finite", a.reason);
    require(isFinite(a.rootStart) && isFinite(a.lateralDrift) && isFinite(a.upAxis),
            "analysis vectors not finite");
    require(a.root >= -1 && a.root < rig.size() && a.character >= -1 && a.character < rig.size(),
            "analysis node out of range");
    const MotionTrack& t = a.track;
    // A clip that animates no node has no track; any other has samples + 1 >= 3 entries.
    require(t.translation.size() == t.times.size() && t.yaw.size() == t.times.size() &&
                (t.times.size() >= 2 || (t.times.empty() && a.root < 0 && a.source == Source::None)),
            "track sizes");
    for (std::size_t i = 0; i < t.times.size(); ++i)
        require(isFinite(t.times[i]) && isFinite(t.translation[i]) && isFinite(t.yaw[i]), "track not finite",
                a.reason);
    for (const ContactPlanting& p : a.planting)
        for (const PlantedInterval& interval : p.planted)
            require(isFinite(interval.start) && isFinite(interval.end) && interval.start <= interval.end,
                    "planted interval");
    // A node name may hold a line break (R3_ansi_node_name.glb is legal): the reason, as
    // bake -v and inspect -v print it, is still one line.
    require(cli::isOneLine(cli::printable(a.reason)), "printed reason is more than one line", a.reason);
}

// A .gltf output with its side files (the new .bin), written to a folder of this process's
// own and loaded again from there: the same nodes and clips as the input.
void reloadGltf(const pipeline::Baked& baked, const gltf::Asset& input, const gltf::LoadLimits& limits) {
    namespace fs = std::filesystem;
    static const fs::path folder =
        fs::temp_directory_path() / ("rootbake-fuzz-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    const auto write = [&](const fs::path& name, const std::vector<std::uint8_t>& bytes) {
        std::ofstream out(folder / name, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    };
    write("out.gltf", joinPieces(baked.asset.main));
    for (const SideFile& f : baked.asset.files) {
        // From memory every external URI is refused, so the only side files are the writer's own.
        require(f.copyFrom.empty() && f.relativePath.has_filename() && !f.relativePath.has_parent_path(),
                "a side file that is not the writer's", f.relativePath.string());
        write(f.relativePath, f.bytes);
    }
    Result<gltf::Asset> again = gltf::loadAsset(folder / "out.gltf", limits);
    require(again.ok(), "the rewritten .gltf does not load", again ? "" : again.error().message);
    require(again->rig.size() == input.rig.size() && again->clips.size() >= input.clips.size(),
            "the rewritten .gltf lost nodes or clips");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    const bool glb = size >= 4 && data[0] == 'g' && data[1] == 'l' && data[2] == 'T' && data[3] == 'F';
    const std::string name = glb ? "fuzz.glb" : "fuzz.gltf";

    gltf::LoadLimits limits;  // the defaults
    Result<gltf::Asset> loaded = gltf::loadAssetFromMemory(bytes, name, {}, limits);
    if (!loaded) {
        checkMessage(loaded.error().message, name + ": ");
        return 0;
    }
    const gltf::Asset& asset = *loaded;
    checkAsset(asset);

    // The defaults, as `rootbake bake` without flags: maxSamples and the asset's budget of
    // node positions (BakeSettings, the CLI's maxAssetNodeSamples).
    const Options options;
    const std::uint64_t kBudget = pipeline::BakeSettings{}.maxAssetNodeSamples;
    if (Status budget = pipeline::checkAnalysisBudget(asset, options, kBudget); !budget) {
        checkMessage(budget.error().message, "animations[");
        return 0;
    }
    for (const Clip& clip : asset.clips) {
        Result<ClipAnalysis> analysis = analyzeClip(asset.rig, clip, options);
        if (!analysis) {
            checkMessage(analysis.error().message, "");
            continue;
        }
        checkAnalysis(*analysis, asset.rig);
        const std::vector<InPlaceChannel> channels = removeMotion(asset.rig, clip, *analysis);
        for (const InPlaceChannel& c : channels) {
            require(c.node >= 0 && c.node < asset.rig.size(), "in-place channel node");
            const std::size_t width = c.path == Path::Rotation ? 4 : 3;
            const std::size_t perKey = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
            require(c.values.size() == c.times.size() * width * perKey, "in-place value count");
            for (float v : c.values)
                require(std::isfinite(v), "in-place key value not finite", analysis->reason);
        }
        const Clip inPlace = applyInPlace(clip, channels);
        const LoopSeam seam = measureLoopSeam(asset.rig, inPlace, *analysis);
        require(isFinite(seam.position) && isFinite(seam.positionFraction) && isFinite(seam.rotationDegrees),
                "loop seam not finite");
    }

    // The writer's bake analyses every clip again: one container per input, by its size.
    {
        const Container container = size % 2 == 0 ? Container::Glb : Container::Gltf;
        pipeline::BakeSettings settings;
        settings.analysis = options;
        settings.rewrite.container = container;
        settings.rewrite.binName = "fuzz.bin";
        settings.inputName = name;
        settings.outputName = container == Container::Glb ? "out.glb" : "out.gltf";
        settings.maxAssetNodeSamples = kBudget;
        Result<pipeline::Baked> baked = pipeline::bakeAsset(asset, bytes, settings);
        if (!baked) {
            checkMessage(baked.error().message, "");
            return 0;
        }
        const std::string sidecar = toJson(baked->document).dump(2);
        require(!sidecar.empty() && !joinPieces(baked->asset.main).empty(), "empty output");
        // What the writer writes, the reader takes: one clip per input animation.
        Result<Sidecar> read = parseSidecar(sidecar, "out.rootmotion.json");
        require(read.ok(), "the sidecar does not read back", read ? "" : read.error().message);
        require(read->clips.size() == asset.clips.size(), "sidecar clip count");
        // The rewritten asset loads again (a GLB needs no folder; a .gltf's new .bin is a side file).
        if (container == Container::Glb) {
            Result<gltf::Asset> again = gltf::loadAssetFromMemory(joinPieces(baked->asset.main), "out.glb", {}, limits);
            require(again.ok(), "the rewritten GLB does not load", again ? "" : again.error().message);
        } else {
            reloadGltf(*baked, asset, limits);
        }
    }
    return 0;
}
