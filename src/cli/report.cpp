// rootbake report IN... -o report.html: load and describe every clip, build the
// page in memory, then write it (temporary file, then rename) or nothing.
#include "cli/report.h"

#include "cli/run.h"

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
    const fs::path out = args.output;
    if (out.filename().empty() || out.filename() == "." || out.filename() == "..") {
        printError(args.output + ": not a file name");
        return kUsage;
    }
    RunContext run;
    if (int code = prepareRun(args.common, run); code != kOk) return code;
    settings.generator = "rootbake " ROOTBAKE_VERSION;
    settings.options = optionsForAsset(run, run.inputs.front());

    std::vector<report::AssetReport> assets;
    std::vector<fs::path> reads;
    int status = kOk;
    std::size_t clips = 0;
    for (const InputFile& input : run.inputs) {
        const std::string name = input.path.string();
        auto asset = loadInput(run, input);
        if (!asset) {
            printError(asset.error().message);
            status = kBadInput;
            continue;
        }
        std::fputs(loadWarnings(run, *asset).c_str(), stderr);
        reads.push_back(input.path);
        for (const std::string& uri : asset->externalUris) reads.push_back(asset->folder / uri);
        report::AssetReport page{assetLabel(name), {}};
        const std::vector<Options> options = optionsForClips(run, input, *asset);
        if (Status budget = checkBudget(run, *asset, options); !budget) {
            printError(budget.error().message);
            status = kBadInput;
            continue;
        }
        for (std::size_t i = 0; i < asset->clips.size(); ++i) {
            const Clip& clip = asset->clips[i];
            auto described = report::describeClip(asset->rig, clip, options[i]);
            if (!described) {
                printError(name + ": animations[" + std::to_string(clip.gltfIndex) + "]: " +
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
    if (run.args.json)
        std::fputs(
            jsonText(nlohmann::ordered_json{{"output", args.output}, {"assets", assets.size()}, {"clips", clips}}).c_str(),
            stdout);
    else if (!run.args.quiet)
        std::fputs(textLine(args.output + ": " + std::to_string(clips) + " clips of " + std::to_string(assets.size()) +
                            (assets.size() == 1 ? " asset" : " assets"))
                       .c_str(),
                   stdout);
    return kOk;
}

}  // namespace rootbake::cli
