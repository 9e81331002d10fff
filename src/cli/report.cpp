// rootbake report IN... -o report.html: load and describe every clip, build the
// page in memory, then write it (temporary file, then rename) or nothing.
#include "cli/report.h"

#include "cli/run.h"

#include "gltf/asset.h"
#include "io/write_files.h"
#include "report/report.h"
#include "rootbake/version.h"

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

Status checkReportOutput(const std::string& output) {
    const fs::path out = output;
    if (out.filename().empty() || out.filename() == "." || out.filename() == "..")
        return Error{output + ": not a file name"};
    return Ok{};
}

report::AssetReport describeInput(const std::string& input, const gltf::Asset& asset,
                                  const pipeline::Analysed& analysed, int& status) {
    report::AssetReport page{assetLabel(input), {}};
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        const Clip& clip = asset.clips[i];
        const Result<BakedClip>& baked = analysed.clips[i];
        if (!baked) {
            printError(input + ": animations[" + std::to_string(clip.gltfIndex) + "]: " + baked.error().message);
            status = kBadInput;
            continue;
        }
        page.clips.push_back(report::describeClip(asset.rig, clip, *baked));
    }
    return page;
}

void addReads(const InputFile& input, const gltf::Asset& asset, std::vector<fs::path>& reads) {
    reads.push_back(input.path);
    for (const std::string& uri : asset.externalUris) reads.push_back(asset.folder / uri);
}

int writeReportPage(const ReportArgs& args, const std::vector<report::AssetReport>& assets,
                    const std::vector<fs::path>& reads, const Options& options) {
    report::ReportSettings settings;
    settings.generator = "rootbake " ROOTBAKE_VERSION;
    settings.options = options;
    const std::string html = report::writeReport(assets, settings);
    std::vector<io::PlannedFile> files;
    files.push_back({args.output, std::vector<std::uint8_t>(html.begin(), html.end()), {}});
    if (auto failure = io::writeFiles(std::move(files), reads, args.force)) {
        printError(failure->message);
        return failure->refused ? kUsage : kCannotWrite;
    }
    std::size_t clips = 0;
    for (const report::AssetReport& asset : assets) clips += asset.clips.size();
    if (args.common.json)
        std::fputs(
            jsonText(nlohmann::ordered_json{{"output", args.output}, {"assets", assets.size()}, {"clips", clips}}).c_str(),
            stdout);
    else if (!args.common.quiet)
        std::fputs(textLine(args.output + ": " + counted(clips, "clip", "clips") + " of " +
                            counted(assets.size(), "asset", "assets"))
                       .c_str(),
                   stdout);
    return kOk;
}

int report(const ReportArgs& args) {
    if (Status named = checkReportOutput(args.output); !named) return printError(named.error().message), kUsage;
    RunContext run;
    if (int code = prepareRun(args.common, run); code != kOk) return code;
    std::vector<report::AssetReport> assets;
    std::vector<fs::path> reads;
    int status = kOk;
    for (const InputFile& input : run.inputs) {
        std::optional<gltf::Asset> asset = loadPrinting(run, input, status);
        if (!asset) continue;
        addReads(input, *asset, reads);
        auto analysed = analyseInput(run, *asset, optionsForClips(run, input, *asset));
        if (!analysed) {
            printError(analysed.error().message);
            status = kBadInput;
            continue;
        }
        assets.push_back(describeInput(input.path.string(), *asset, *analysed, status));
    }
    if (status != kOk) return status;  // a failed run writes nothing
    return writeReportPage(args, assets, reads, optionsForAsset(run, run.inputs.front()));
}

}  // namespace rootbake::cli
