// rootbake inspect: the analysis of every clip, as a table or as JSON; writes nothing.
#include "cli/cli.h"
#include "cli/run.h"
#include "pipeline/sidecar.h"
#include "rootbake/num.h"
#include "write/sidecar.h"

#include <cstdio>
#include <numbers>

namespace rootbake::cli {

using Json = nlohmann::ordered_json;

namespace {

// -v: under a clip's row, the reason for each decision (one fact a line), the warnings, the
// planted intervals and the loop seam, within kColumns but for long names.
std::string clipDetails(const Rig& rig, const BakedClip& baked) {
    const ClipAnalysis& a = baked.analysis;
    std::string more = reasonLines(a.reason, rig.name);
    for (const std::string& w : a.warnings) more += wrappedLines("      warning: ", w, 15, rig.name);
    for (const ContactPlanting& p : a.planting) {
        std::string spans;
        for (const PlantedInterval& s : p.planted)
            spans += " " + fixedPoint(s.start, 3) + "-" + fixedPoint(s.end, 3);
        more += wrappedLines("      planted " + printable(nodeLabel(rig, p.node)) + ": ",
                             (spans.empty() ? "never" : spans.substr(1)) + " s", 8);
    }
    more += "      loop seam: " + num(baked.loop.position, 4) + " units (" +
            num(baked.loop.positionFraction, 3) + " of height), " + num(baked.loop.rotationDegrees, 3) +
            " deg\n";
    return more;
}

std::vector<std::string> clipRow(const Rig& rig, const Clip& clip, const ClipAnalysis& a) {
    return {clipName(clip),
            sourceName(a.source),
            a.root >= 0 ? nodeLabel(rig, a.root) : "-",
            fixedPoint(a.strideLength, 4),
            fixedPoint(a.turn * 180.0 / std::numbers::pi, 2),
            fixedPoint(a.averageSpeed, 4),
            fixedPoint(a.duration, 3)};
}

AssetOutcome failedAsset(const std::string& label, const std::string& message, AssetOutcome outcome) {
    outcome.code = kBadInput;
    outcome.err += errorLine(message);
    outcome.json = {{"file", label}, {"error", message}};
    return outcome;
}

// One asset: a table of its clips (one row each under a header row) or their JSON, as the
// sidecar describes them, with the failed gates.
AssetOutcome inspectAsset(const RunContext& run, const InputFile& input) {
    const std::string label = input.path.string();
    AssetOutcome outcome;
    auto asset = loadInput(run, input);
    if (!asset) return failedAsset(label, asset.error().message, std::move(outcome));
    outcome.err += loadWarnings(run, *asset);
    outcome.rulesMatched = matchedRules(input, *asset);
    auto analysed = analyseInput(run, *asset, optionsForClips(run, input, *asset));
    if (!analysed) return failedAsset(label, analysed.error().message, std::move(outcome));
    Json clips = Json::array();
    std::vector<std::vector<std::string>> rows{
        {"clip", "source", "root", "stride m", "turn deg", "speed m/s", "duration s"}};
    std::vector<std::string> details{""};
    for (std::size_t c = 0; c < asset->clips.size(); ++c) {
        const Clip& clip = asset->clips[c];
        const Result<BakedClip>& baked = analysed->clips[c];  // the same objects as bake's sidecar
        if (!baked) {
            outcome.code = combineExitCodes(outcome.code, kBadInput);
            outcome.err += errorLine(label + ": " + clipLabel(clip) + ": " + baked.error().message);
            continue;
        }
        const ClipAnalysis& a = baked->analysis;
        const std::vector<std::string> gates = failedGates(run.gates, clip.name, a, baked->loop);
        outcome.err += failedGateLines(label, clip, gates);
        addDoubts(run, label, clip, a, outcome);
        if (!gates.empty()) outcome.code = combineExitCodes(outcome.code, kGateFailed);
        Json object = write::toJson(pipeline::sidecarClip(asset->rig, a, clip.gltfIndex, clipName(clip), a.upAxis),
                             pipeline::sidecarClipRecord(asset->rig, a, baked->loop));
        if (anyGate(run.gates)) object["failedGates"] = gates;
        clips.push_back(std::move(object));
        rows.push_back(clipRow(asset->rig, clip, a));
        details.push_back(run.args.verbose ? clipDetails(asset->rig, *baked) : "");
    }
    outcome.json = {{"file", label}, {"clips", std::move(clips)}};
    if (rows.size() == 1 && !asset->clips.empty()) return outcome;  // every clip refused: no header alone
    outcome.out = textLine(label);
    const std::vector<std::string> lines = tableLines(rows, "  ");
    for (std::size_t r = 0; r < lines.size(); ++r) outcome.out += lines[r] + "\n" + details[r];
    return outcome;
}

}  // namespace

int inspect(const InspectArgs& args) {
    RunContext run;
    if (int code = prepareRun(args.common, run); code != kOk) return code;
    std::vector<AssetOutcome> outcomes =
        runAssets(run, [&](std::size_t i) { return inspectAsset(run, run.inputs[i]); });
    printDoubtSummary(run, outcomes);
    printUnmatchedRules(run, outcomes);
    if (run.args.json) {
        Json assets = Json::array();
        for (AssetOutcome& o : outcomes) assets.push_back(std::move(o.json));
        std::fputs(jsonText(assets).c_str(), stdout);
    }
    return exitCodeOf(outcomes);
}

}  // namespace rootbake::cli
