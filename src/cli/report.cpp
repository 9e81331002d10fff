// rootbake report IN... -o report.html: load and describe every clip, build the
// page in memory, then write it (temporary file, then rename) or nothing.
#include "cli/report.h"

#include "gltf/asset.h"
#include "report/report.h"
#include "rootbake/version.h"
#include "write/files.h"

#include <cstdio>
#include <filesystem>

namespace rootbake::cli {

namespace fs = std::filesystem;

namespace {

// The page names a file as given when that is relative, else by its name:
// the page holds no absolute path.
std::string assetLabel(const std::string& input) {
    const fs::path p(input);
    return p.is_absolute() ? p.filename().generic_string() : p.generic_string();
}

}  // namespace

int report(const ReportArgs& args) {
    report::ReportSettings settings;
    std::string error;
    if (!toOptions(args.analysis, settings.options, error)) {
        printError(error);
        return kUsage;
    }
    const fs::path out = args.output;
    if (out.filename().empty() || out.filename() == "." || out.filename() == "..") {
        printError(args.output + ": not a file name");
        return kUsage;
    }
    settings.generator = "rootbake " ROOTBAKE_VERSION;

    std::vector<report::AssetReport> assets;
    std::vector<fs::path> reads;
    int status = kOk;
    std::size_t clips = 0;
    for (const std::string& input : args.inputs) {
        auto asset = loadAsset(input);
        if (!asset) {
            printError(asset.error().message);
            status = kBadInput;
            continue;
        }
        reads.push_back(input);
        for (const std::string& uri : asset->externalUris) reads.push_back(asset->folder / uri);
        report::AssetReport page{assetLabel(input), {}};
        for (const Clip& clip : asset->clips) {
            auto described = report::describeClip(asset->rig, clip, settings.options);
            if (!described) {
                printError(input + ": animations[" + std::to_string(clip.gltfIndex) + "]: " +
                           described.error().message);
                status = kBadInput;
                continue;
            }
            page.clips.push_back(std::move(*described));
        }
        clips += page.clips.size();
        assets.push_back(std::move(page));
    }
    if (status != kOk) return status;  // a failed run writes nothing

    const std::string html = report::writeReport(assets, settings);
    std::vector<PlannedFile> files;
    files.push_back({out, std::vector<std::uint8_t>(html.begin(), html.end()), {}});
    if (auto failure = writeFiles(std::move(files), reads, args.force)) {
        printError(failure->message);
        return failure->refused ? kUsage : kCannotWrite;
    }
    std::printf("%s: %zu clips of %zu %s\n", args.output.c_str(), clips, assets.size(),
                assets.size() == 1 ? "asset" : "assets");
    return kOk;
}

}  // namespace rootbake::cli
