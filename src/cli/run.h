// What the commands that read many assets share: the inputs (files and folders),
// each input's config file, limits and gates resolved once, per-clip options, and
// a runner that works on assets in parallel but prints in input order, so output
// and exit status do not depend on -j.
#pragma once

#include "cli/cli.h"
#include "cli/config.h"
#include "cli/gates.h"
#include "pipeline/pipeline.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rootbake::cli {

struct InputFile {
    std::filesystem::path path;      // to read
    std::filesystem::path relative;  // below the folder it was found in (its file name when given as a file)
    const ConfigFile* config = nullptr;
};

// Everything resolved once from CommonArgs before any asset is read.
struct RunContext {
    CommonArgs args;
    Limits limits;
    Gates gates;
    std::vector<InputFile> inputs;
    std::map<std::string, ConfigFile> configs;  // by path; inputs point into it
    bool progress = false;  // a progress line on stderr (a terminal, not CI, not --quiet/--json)
    // The -j threads: assets in parallel, and each asset's clips on the threads left over
    // (one asset on two cores: its clips two at a time).
    std::size_t assetJobs = 1;
    std::size_t clipThreads = 1;
};

// Resolves inputs (a folder: its .glb/.gltf/.vrma files, with `recursive` those of its
// subfolders too, sorted; `skip` is never entered), configs, limits and gates. On
// error prints it and returns the exit code (usage, or bad input for a missing
// input or a broken config file).
int prepareRun(const CommonArgs& args, RunContext& run, const std::filesystem::path& skip = {});

// What bake needs of the input file's bytes, taken in the one read of it.
struct InputFacts {
    std::shared_future<std::string> sha256;  // hex, being hashed beside the load (pipeline::Loaded)
};

// The pipeline's load (pipeline::loadAsset) with the run's limits; an error over a limit
// says how to raise it. With facts, the file is read once for both.
Result<gltf::Asset> loadInput(const RunContext& run, const InputFile& input, InputFacts* facts = nullptr);

// loadInput for the commands that print as they go (info, report) and go on past an input
// that does not load: its error printed and `status` set to bad input (nothing returned),
// else its load warnings printed.
std::optional<gltf::Asset> loadPrinting(const RunContext& run, const InputFile& input, int& status);

// A node the options name (--root, --character-node, --contacts or rootbake.json) that is not
// in the asset: one error for the asset, before any clip is analysed, with the nearest names.
Status checkNamedNodes(const gltf::Asset& asset, const std::vector<Options>& options);

// The pipeline's analysis (pipeline::analyseAsset) with the run's limits and each clip's
// options (optionsForClips); an error over a limit names the file and how to raise it.
Result<pipeline::Analysed> analyseInput(const RunContext& run, const gltf::Asset& asset,
                                        const std::vector<Options>& options);

// "rootbake: warning: <file>: <warning>\n" for each cause of the asset's load warnings
// (gltf::Asset::warnings; messageLines, wrapped under the file past kColumns); empty with --quiet.
std::string loadWarnings(const RunContext& run, const gltf::Asset& asset);

// The options of each clip of the asset: config and command line, with the limits.
std::vector<Options> optionsForClips(const RunContext& run, const InputFile& input, const gltf::Asset& asset);
// The asset's own (the up axis, a sidecar header): the config's defaults and the command line.
Options optionsForAsset(const RunContext& run, const InputFile& input);

// What the work on one asset printed and returned.
struct AssetOutcome {
    int code = kOk;
    std::string out;  // for stdout (left out with --quiet)
    std::string err;  // for stderr: errors and failed gates, always printed
    nlohmann::ordered_json json;
    int doubtful = 0;  // clips with doubts() (listed in err with --verbose)
    // Per clip rule of the input's config: 1 when a clip of the asset matched it; empty
    // when the asset did not load.
    std::vector<std::uint8_t> rulesMatched;
};

// AssetOutcome::rulesMatched of a loaded asset.
std::vector<std::uint8_t> matchedRules(const InputFile& input, const gltf::Asset& asset);

// Unless --quiet, one warning on stderr per config clip rule that no clip of the assets
// it applied to matched: a glob with a typo changes nothing, silently.
void printUnmatchedRules(const RunContext& run, const std::vector<AssetOutcome>& outcomes);

// The clips of the asset with doubts(): their count, and with --verbose their lines
// (doubtLines) appended to err; nothing with --quiet.
void addDoubts(const RunContext& run, const std::string& file, const Clip& clip, const ClipAnalysis& analysis,
               AssetOutcome& outcome);

// Unless --verbose (which listed them) or --quiet, one line on stderr for the whole run:
// "rootbake: 3 clips with warnings: -v to see them".
void printDoubtSummary(const RunContext& run, const std::vector<AssetOutcome>& outcomes);

// Runs work(i) for every input on the run's jobs, printing each outcome as soon as
// those before it are printed. Returns them in input order.
std::vector<AssetOutcome> runAssets(const RunContext& run,
                                    const std::function<AssetOutcome(std::size_t)>& work);

// The exit code of all outcomes (combineExitCodes).
int exitCodeOf(const std::vector<AssetOutcome>& outcomes);

// A message over a limit ("... more than maxNodes (1048576)", "... more than 8 x
// maxSamples (...)") with how to raise it; a message that says so already is kept.
std::string withLimitHint(std::string message);

// "rootbake: error: <message>\n", the message printable and with its limit hint.
std::string errorLine(const std::string& message);

}  // namespace rootbake::cli
