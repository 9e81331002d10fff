// rootbake bake IN... (-o OUT | --out-dir DIR): per asset load, bake in memory,
// then write every file or none; assets in parallel, printed in input order.
#include "cli/bake.h"

#include "cli/report.h"
#include "cli/run.h"
#include "cli/verify.h"
#include "pipeline/pipeline.h"
#include "rootbake/version.h"
#include "io/write_files.h"
#include "write/sidecar.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

namespace rootbake::cli {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

fs::path sidecarPath(const fs::path& output) {
    return output.parent_path() / (output.stem().string() + ".rootmotion.json");
}

// A path in a Make rule: ' ', '#' and ':' escaped with a backslash and '$' doubled, as
// make and ninja both read them. An error saying why for a name one of them cannot
// read back: a control byte (a line break ends the rule), a backslash (an escape to
// both), ';', '=', '|' or '%' (rule syntax to make), or a wildcard (make expands it).
Result<std::string> makePath(const fs::path& path) {
    std::string out;
    for (char c : path.string()) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) return Error{"a control byte"};
        if (c == '\\') return Error{"a backslash"};
        if (c == ';' || c == '=' || c == '|' || c == '%') return Error{std::string("'") + c + "'"};
        if (c == '*' || c == '?' || c == '[' || c == ']') return Error{"a wildcard"};
        if (c == ' ' || c == '#' || c == ':') out += '\\';
        if (c == '$') out += '$';
        out += c;
    }
    return out;
}

// "OUT: IN IN...\n" for the depfile, or an error naming the file make could not read.
Result<std::string> makeRule(const std::string& depfile, const fs::path& out,
                             const std::vector<fs::path>& reads) {
    std::string rule;
    for (std::size_t i = 0; i <= reads.size(); ++i) {
        const fs::path& path = i == 0 ? out : reads[i - 1];
        Result<std::string> named = makePath(path);
        if (!named)
            return Error{depfile + ": " + path.string() + ": make cannot read this name back (it has " +
                         named.error().message + "); rename it or leave out --depfile"};
        rule += i == 0 ? *named + ":" : " " + *named;
    }
    return rule + "\n";
}

// The folders above `file` that do not exist yet, outermost first.
std::vector<fs::path> missingFolders(const fs::path& file) {
    std::vector<fs::path> missing;
    std::error_code error;
    for (fs::path folder = file.parent_path(); !folder.empty() && !fs::exists(folder, error);
         folder = folder.parent_path())
        missing.insert(missing.begin(), folder);
    return missing;
}

// Inner first: a folder still holding something stays.
void removeEmpty(const std::vector<fs::path>& folders) {
    std::error_code error;
    for (auto it = folders.rbegin(); it != folders.rend(); ++it)
        if (fs::is_empty(*it, error)) fs::remove(*it, error);
}

// How bake settles the asset: the analysis options of the input (config and command line), the
// run's limits, the output's container and names (the input's hash is set once it is taken).
pipeline::BakeSettings bakeSettings(const RunContext& run, const BakeArgs& args, const InputFile& input,
                                    const gltf::Asset& asset, const fs::path& out, write::Container container) {
    pipeline::BakeSettings settings;
    settings.analysis = optionsForAsset(run, input);
    settings.clipAnalysis = optionsForClips(run, input, asset);
    settings.maxAssetNodeSamples = run.limits.maxAssetNodeSamples;
    settings.maxAssetTrackSamples = run.limits.maxAssetTrackSamples;
    settings.clipThreads = run.clipThreads;
    settings.rewrite.keepSource = args.keepSource;
    settings.rewrite.container = container;
    settings.rewrite.binName = out.stem().string() + ".bin";
    // The JSON keeps the input's layout (spliced); a GLB written as a .gltf is indented (the default).
    settings.generator = "rootbake " ROOTBAKE_VERSION;
    settings.inputName = input.path.filename().string();
    settings.outputName = out.filename().string();
    settings.rootBone = args.rootBone;
    return settings;
}

// The files of one bake: the asset (gathered from its pieces; the asset and `baked` outlive the
// write), its sidecar, and the files beside it (.bin, images), whose bytes move into the plan.
std::vector<io::PlannedFile> plannedFiles(const fs::path& out, pipeline::Baked& baked) {
    std::vector<io::PlannedFile> files;
    files.push_back({out, {}, {}});
    for (const write::OutputPiece& p : baked.asset.main)
        files.back().gathered.push_back(p.bytes.empty() ? p.input : std::span<const std::uint8_t>(p.bytes));
    for (const write::StreamedFile& f : baked.asset.streamed)
        files.back().appended.push_back({f.file, f.offset, f.size});
    files.back().size = baked.asset.mainSize;
    files.push_back({sidecarPath(out), write::sidecarBytes(baked.document), {}});
    for (write::SideFile& f : baked.asset.files)
        files.push_back({out.parent_path() / f.relativePath, std::move(f.bytes), f.copyFrom});
    return files;
}

// What bake --report and bake --verify take from the one pass of the pipeline over their
// one input: nothing is loaded, analysed or read back again.
struct KeptBake {
    gltf::Asset asset;
    pipeline::Baked baked;
    report::AssetReport page;     // --report: the asset's section of the page
    std::vector<fs::path> reads;  // --report: the files the page must not overwrite
};

// --glb or --gltf, else the name's extension (-o walk.gltf; a .vrma is a GLB), else the input's
// container.
write::Container outputContainer(const BakeArgs& args, const fs::path& out, const gltf::Asset& asset) {
    const std::string ext = lowerAscii(out.extension().string());
    return args.glb                          ? write::Container::Glb
           : args.gltf                       ? write::Container::Gltf
           : ext == ".glb" || ext == ".vrma" ? write::Container::Glb
           : ext == ".gltf"                  ? write::Container::Gltf
           : asset.binary                    ? write::Container::Glb
                                             : write::Container::Gltf;
}

// What the run prints of a bake's clips, taken before the bytes move into the plan.
struct ClipsPrinted {
    Json json = Json::array();  // per clip, for --json
    std::string verbose;        // -v: each clip's reason, one fact a line
    std::string gateLines;      // the failed --fail-on gates
    int inPlace = 0;            // clips whose root's keys were made in place
    int fromFeet = 0;           // clips with their travel from the feet, in the sidecar only
};

ClipsPrinted printedClips(const RunContext& run, const std::string& label, const gltf::Asset& asset,
                          const pipeline::Baked& baked, AssetOutcome& outcome) {
    ClipsPrinted printed;
    for (std::size_t i = 0; i < baked.clips.size(); ++i) {
        const BakedClip& c = baked.clips[i];
        const Clip& clip = asset.clips[i];
        printed.inPlace += !c.channels.empty();
        printed.fromFeet += c.analysis.source == Source::FootContact && c.channels.empty();
        const std::vector<std::string> gates = failedGates(run.gates, clip.name, c.analysis, c.loop);
        printed.gateLines += failedGateLines(label, clip, gates);
        addDoubts(run, label, clip, c.analysis, outcome);
        if (run.args.verbose)  // the reason as inspect -v gives it: one fact a line
            printed.verbose += textLine("  " + clipLabel(clip) + ": " + sourceName(c.analysis.source)) +
                               reasonLines(c.analysis.reason, asset.rig.name);
        printed.json.push_back({{"name", clipName(clip)},
                                {"animation", clip.gltfIndex},
                                {"source", sourceName(c.analysis.source)},
                                {"inPlace", !c.channels.empty()},
                                {"strideLength", c.analysis.strideLength},
                                {"turn", c.analysis.turn},
                                {"averageSpeed", c.analysis.averageSpeed},
                                {"failedGates", gates}});
    }
    return printed;
}

// The outcome of a bake written: its line (what happened to each clip: its root's keys made in
// place, its travel deduced from the feet of a clip in place already, or neither), the gates and
// the JSON.
void addWritten(const std::string& label, const fs::path& out, const pipeline::Baked& baked,
                ClipsPrinted printed, AssetOutcome& outcome) {
    const fs::path sidecar = sidecarPath(out);
    const int still = int(baked.clips.size()) - printed.inPlace - printed.fromFeet;
    std::string what = std::to_string(printed.inPlace) + " made in place";
    if (printed.fromFeet > 0) what += ", " + std::to_string(printed.fromFeet) + " with travel from the feet";
    if (still > 0) what += ", " + std::to_string(still) + " without travel";
    outcome.out = textLine(label + ": " + counted(baked.clips.size(), "clip", "clips") + ": " + what +
                           " -> " + out.string() + ", " + sidecar.string()) +
                  (baked.rootBoneSummary.empty() ? "" : textLine("  " + baked.rootBoneSummary)) +
                  printed.verbose;
    outcome.err = printed.gateLines + outcome.err;
    if (!printed.gateLines.empty()) outcome.code = kGateFailed;
    outcome.json = {{"input", label},
                    {"output", out.string()},
                    {"sidecar", sidecar.string()},
                    {"clips", std::move(printed.json)}};
    if (baked.rootBone >= 0)
        outcome.json["rootBone"] = {
            {"name", baked.rootBoneName}, {"index", baked.rootBone}, {"use", baked.rootBoneUse}};
}

// Writes the files of one bake, and makes its depfile rule first (a name make cannot read writes
// nothing); the rule is kept only once the outputs are written (the depfile lists what was made).
// The asset alone is the rule's target: ninja refuses a depfile naming an output the build did
// not declare, and the files written beside it (.bin, images) are not known before.
Status writeBake(const BakeArgs& args, const InputFile& input, const fs::path& out, pipeline::Baked& baked,
                 std::string& depRule, int& code) {
    std::vector<io::PlannedFile> files = plannedFiles(out, baked);
    std::vector<fs::path> reads{input.path};
    reads.insert(reads.end(), baked.asset.reads.begin(), baked.asset.reads.end());
    std::string rule;
    if (!args.depfile.empty()) {
        Result<std::string> made = makeRule(args.depfile, out, reads);
        if (!made) return code = kCannotWrite, made.error();
        rule = std::move(*made);
    }
    if (auto failure = io::writeFiles(std::move(files), reads, args.force))
        return code = failure->refused ? kUsage : kCannotWrite, Error{failure->message};
    depRule = std::move(rule);
    return Ok{};
}

// One input through the pipeline (pipeline/bake.h, bakeAsset), its files written. With `kept`
// (bake --report, --verify), what they take of it is kept.
AssetOutcome bakeOne(const RunContext& run, const BakeArgs& args, const InputFile& input, const fs::path& out,
                     std::string& depRule, std::optional<KeptBake>* kept) {
    AssetOutcome outcome;
    const std::string label = input.path.string();
    auto fail = [&](int code, const std::string& message) {
        outcome.code = code;
        outcome.err += errorLine(message);
        outcome.json = {{"input", label}, {"error", message}};
        return outcome;
    };

    InputFacts facts;
    auto asset = loadInput(run, input, &facts);
    if (!asset) return fail(kBadInput, asset.error().message);
    if (!asset->missingImages.empty())
        return fail(kBadInput, label + ": " + asset->missingImages.front() +
                                   ": bake copies or embeds every image the asset uses, so it needs it");
    outcome.err += loadWarnings(run, *asset);
    outcome.rulesMatched = matchedRules(input, *asset);

    pipeline::BakeSettings settings =
        bakeSettings(run, args, input, *asset, out, outputContainer(args, out, *asset));
    settings.inputSha256Pending = facts.sha256;  // hashed while the clips are analysed
    if (Status named = checkNamedNodes(*asset, settings.clipAnalysis); !named)
        return fail(kBadInput, named.error().message);
    report::AssetReport page;  // the analyses before the root bone takes the motion off the clips
    pipeline::OnAnalysed describePage;
    if (kept && !args.report.empty())
        describePage = [&](const pipeline::Analysed& analysed) {
            int described = kOk;
            page = describeInput(label, *asset, analysed, described);
        };
    auto baked = pipeline::bakeAsset(*asset, {}, settings, describePage);
    if (!baked) return fail(kBadInput, withLimitHint(baked.error().message));

    ClipsPrinted printed = printedClips(run, label, *asset, *baked, outcome);
    int code = kOk;
    if (Status written = writeBake(args, input, out, *baked, depRule, code); !written)
        return fail(code, written.error().message);
    addWritten(label, out, *baked, std::move(printed), outcome);
    if (kept) {
        std::vector<fs::path> pageReads;
        if (!args.report.empty()) addReads(input, *asset, pageReads);
        kept->emplace(KeptBake{std::move(*asset), std::move(*baked), std::move(page), std::move(pageReads)});
    }
    return outcome;
}

// The options that exclude each other, and an -o name that is not a .glb or .gltf; empty: none.
std::string usageError(const BakeArgs& args) {
    if (args.glb && args.gltf) return "bake: --glb and --gltf exclude each other";
    // `--root-bone out/x.glb` took the output for the bone's name (issue 31): no bone is named so.
    const std::string boneExt = lowerAscii(fs::path(args.rootBone).extension().string());
    if (boneExt == ".glb" || boneExt == ".gltf")
        return "bake: --root-bone " + args.rootBone +
               ": a file name, not a bone's (write --root-bone=NAME, or "
               "--root-bone after the inputs and -o)";
    if (!args.rootBone.empty() && args.keepSource)
        return "bake: --root-bone and --keep-source exclude each other (the source clips would move the root "
               "under the root bone)";
    if (args.output.empty() == args.outDir.empty())
        return args.output.empty() ? "bake: give -o OUT (one input) or --out-dir DIR"
                                   : "bake: -o and --out-dir exclude each other";
    if (args.output.empty()) return "";
    const fs::path out = args.output;
    if (out.filename().empty() || out.filename() == "." || out.filename() == "..")
        return args.output + ": not a file name";
    // "-out" reads as "-o ut", and "-o walk.fbx" would get a GLB: a name without the
    // container's extension is a mistake.
    const std::string ext = lowerAscii(out.extension().string());
    if (ext != ".glb" && ext != ".gltf" && ext != ".vrma")
        return "-o " + args.output + ": the output must end in .glb or .gltf (for a folder: --out-dir)";
    // The name chooses the container (a .vrma is a GLB); a flag that says the other one is a contradiction.
    if (args.glb && ext == ".gltf") return args.output + ": --glb writes a GLB, but the name ends in .gltf";
    if (args.gltf && ext != ".gltf")
        return args.output + ": --gltf writes a .gltf, but the name ends in " + ext;
    return "";
}

// Each input's output, checked before any work: two inputs must not write one file. `made`
// gets the outputs' missing folders, outer first.
// The output of each input. Two inputs with one output refuse the run; an input whose
// sidecar another input writes already (walk.glb and walk.gltf in one folder both write
// walk.rootmotion.json) is not baked, with the message in `clashes`, so that which of the
// two is written does not depend on timing.
Result<std::vector<fs::path>> planOutputs(const BakeArgs& args, const RunContext& run,
                                          std::vector<fs::path>& made, std::vector<std::string>& clashes) {
    std::vector<fs::path> outputs;
    std::map<fs::path, fs::path> claimed;  // a file an output writes -> the input that writes it
    auto claim = [&](const fs::path& file, const InputFile& input) -> Status {
        const auto [at, added] = claimed.emplace(file.lexically_normal(), input.path);
        if (added) return Ok{};
        return Error{input.path.string() + ": would write " + file.string() + ", which " +
                     at->second.string() + " writes too; bake them into different --out-dir folders"};
    };
    clashes.assign(run.inputs.size(), "");
    for (const InputFile& input : run.inputs) {
        fs::path output = args.output;
        if (args.output.empty()) {
            output = fs::path(args.outDir) / input.relative;
            if (args.glb) output.replace_extension(".glb");
            if (args.gltf) output.replace_extension(".gltf");
        }
        for (const fs::path& f : missingFolders(output))
            if (std::find(made.begin(), made.end(), f) == made.end()) made.push_back(f);
        if (Status free = claim(output, input); !free) return free.error();
        if (Status free = claim(sidecarPath(output), input); !free)
            clashes[outputs.size()] = free.error().message;
        outputs.push_back(std::move(output));
    }
    return outputs;
}

// "rootbake: 40 assets: 38 baked, 1 failed a gate, 2 not baked" on stderr, for a batch.
void printBatchSummary(const std::vector<AssetOutcome>& outcomes) {
    int failed = 0, gated = 0;
    for (const AssetOutcome& o : outcomes) (o.code == kGateFailed ? gated : failed) += o.code != kOk;
    std::fprintf(stderr, "rootbake: %zu assets: %zu baked, %d failed a gate, %d not baked\n", outcomes.size(),
                 outcomes.size() - std::size_t(failed), gated, failed);
}

// bake --report: the page of the asset just baked, as `rootbake report` writes it (its load
// warnings printed again, as that command prints them).
int reportBaked(const BakeArgs& args, const RunContext& run, const KeptBake& kept) {
    if (Status named = checkReportOutput(args.report); !named)
        return printError(named.error().message), kUsage;
    std::fputs(loadWarnings(run, kept.asset).c_str(), stderr);
    ReportArgs page;
    page.common = args.common;
    page.output = args.report;
    page.force = args.force;
    return writeReportPage(page, {kept.page}, kept.reads, optionsForAsset(run, run.inputs.front()));
}

// The inputs' usage errors, once they are known; empty: none.
std::string inputsError(const BakeArgs& args, const RunContext& run) {
    if (!args.output.empty() && run.inputs.size() != 1)
        return "-o names one output, for " + std::to_string(run.inputs.size()) + " inputs: use --out-dir DIR";
    // A .vrma is a VRM animation (a GLB with VRMC_vrm_animation): the name is for one baked from one.
    if (lowerAscii(fs::path(args.output).extension().string()) == ".vrma" &&
        lowerAscii(run.inputs.front().path.extension().string()) != ".vrma")
        return "-o " + args.output + ": a .vrma output is for a .vrma input (a VRM animation); " +
               run.inputs.front().path.string() + " is not one: name the output .glb";
    if ((!args.report.empty() || args.verify) && run.inputs.size() != 1)
        return std::string(args.verify ? "--verify" : "--report") +
               " takes one input; for many, run rootbake verify or rootbake report on the outputs";
    return "";
}

// The outputs' missing folders, outer first, made before the assets run in parallel; on a
// failure those made are removed again.
int makeFolders(const std::vector<fs::path>& made) {
    for (const fs::path& f : made) {
        std::error_code error;
        if (!fs::create_directory(f, error) && error) {
            printError(f.string() + ": cannot make the folder: " + error.message());
            removeEmpty(made);
            return kCannotWrite;
        }
    }
    return kOk;
}

// --depfile: every output's rule, in input order; the run's status with its write's.
int writeDepfile(const BakeArgs& args, const std::vector<std::string>& depRules, int status) {
    std::string text;
    for (const std::string& rule : depRules) text += rule;
    std::vector<io::PlannedFile> depfile{{args.depfile, std::vector<std::uint8_t>(text.begin(), text.end()), {}}};
    if (auto failure = io::writeFiles(std::move(depfile), {}, true)) {
        printError(failure->message);
        status = combineExitCodes(status, kCannotWrite);
    }
    return status;
}

// What a batch prints once every asset is done: --json's document, and the summary line.
void printRunEnd(const RunContext& run, std::vector<AssetOutcome>& outcomes, int status) {
    if (run.args.json) {
        Json assets = Json::array();
        for (AssetOutcome& o : outcomes) assets.push_back(std::move(o.json));
        std::fputs(jsonText(Json{{"exitCode", status}, {"assets", std::move(assets)}}).c_str(), stdout);
    }
    // A batch ends with one line on stderr, on a terminal or in a pipe (a CI log).
    if (outcomes.size() > 1 && !run.args.quiet) printBatchSummary(outcomes);
}

// An input whose sidecar another input writes: not baked.
AssetOutcome refusedClash(const InputFile& input, const std::string& clash) {
    AssetOutcome refused;
    refused.code = kBadInput;
    refused.err = errorLine(clash);
    refused.json = {{"input", input.path.string()}, {"error", clash}};
    return refused;
}

// bake --report and --verify, on the one input's pass kept in memory.
int reportAndVerify(const BakeArgs& args, const RunContext& run, const KeptBake& kept, const fs::path& output,
                    int status) {
    if (!args.report.empty()) status = combineExitCodes(status, reportBaked(args, run, kept));
    if (!args.verify || status != kOk) return status;
    VerifyArgs check;
    check.baked = output.string();
    check.sidecar = sidecarPath(output).string();
    check.source = run.inputs.front().path.string();
    return verifyBaked(check, kept.asset, kept.baked);
}

}  // namespace

int bake(const BakeArgs& args) {
    if (const std::string error = usageError(args); !error.empty()) return printError(error), kUsage;
    RunContext run;
    if (int code = prepareRun(args.common, run, args.outDir); code != kOk) return code;
    if (const std::string error = inputsError(args, run); !error.empty()) return printError(error), kUsage;
    std::vector<fs::path> made;
    std::vector<std::string> clashes;
    auto planned = planOutputs(args, run, made, clashes);
    if (!planned) return printError(planned.error().message), kUsage;
    const std::vector<fs::path>& outputs = *planned;
    // Folders left empty by failures are removed again, so a failed run leaves nothing behind.
    if (int code = makeFolders(made); code != kOk) return code;
    std::vector<std::string> depRules(run.inputs.size());
    std::optional<KeptBake> kept;  // --report, --verify: their one input's pass
    const bool keep = !args.report.empty() || args.verify;
    std::vector<AssetOutcome> outcomes = runAssets(run, [&](std::size_t i) {
        if (!clashes[i].empty()) return refusedClash(run.inputs[i], clashes[i]);
        return bakeOne(run, args, run.inputs[i], outputs[i], depRules[i], keep ? &kept : nullptr);
    });
    removeEmpty(made);
    printDoubtSummary(run, outcomes);
    printUnmatchedRules(run, outcomes);
    int status = exitCodeOf(outcomes);
    if (!args.depfile.empty()) status = writeDepfile(args, depRules, status);
    printRunEnd(run, outcomes, status);
    if ((status != kOk && status != kGateFailed) || !keep) return status;
    return reportAndVerify(args, run, *kept, outputs.front(), status);
}

}  // namespace rootbake::cli
