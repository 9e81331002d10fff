// rootbake check IN... --against SIDECAR|DIR: re-analyses and compares with the
// committed sidecars, so that an art change cannot silently change how far or how
// fast a character moves.
#include "cli/check.h"

#include "cli/run.h"
#include "io/read_file.h"
#include "pipeline/sidecar.h"
#include "rootbake/num.h"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace rootbake::cli {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

std::string names(const std::vector<std::string>& list) {
    std::string out = "[";
    for (std::size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + list[i];
    return out + "]";
}

struct Compared {
    std::vector<std::string> lines;  // "walk: averageSpeed 1.41 -> 1.32 m/s (-6.4%)"
    Json changes = Json::array();
};

// A figure moved when it changed by more than the tolerance of its old value; `floor`
// keeps a value near 0 (a clip that does not turn) from failing on rounding.
void compareNumber(Compared& out, const std::string& clip, const char* field, double before, double after,
                   double tolerance, double floor, const char* unit, const char* jsonUnit,
                   double shown = 1.0) {
    const double allowed = tolerance * std::max(std::abs(before), floor);
    if (!(std::abs(after - before) > allowed) && std::isfinite(after)) return;
    std::string line =
        clip + ": " + field + " " + num(before * shown, 3) + " -> " + num(after * shown, 3) + " " + unit;
    if (before != 0.0) {
        const double change = 100.0 * (after - before) / std::abs(before);  // %
        line += std::string(" (") + (std::signbit(change) ? "" : "+") + fixedPoint(change, 1) + "%)";
    }
    out.lines.push_back(line);
    // The JSON keeps the sidecar's units, and says which (the line above prints turns in degrees).
    out.changes.push_back(
        {{"clip", clip}, {"field", field}, {"before", before}, {"after", after}, {"unit", jsonUnit}});
}

void compareText(Compared& out, const std::string& clip, const char* field, const std::string& before,
                 const std::string& after) {
    if (before == after) return;
    out.lines.push_back(clip + ": " + field + " " + before + " -> " + after);
    out.changes.push_back({{"clip", clip}, {"field", field}, {"before", before}, {"after", after}});
}

// A sidecar's clip and node names as this rootbake writes them: an older sidecar left
// an unnamed one blank ("animations[N]" and "nodes[N]" now).
std::string committedName(const SidecarClip& c) {
    return c.name.empty() ? "animations[" + std::to_string(c.animation) + "]" : c.name;
}

std::string committedNode(const SidecarNode& n) {
    return n.name.empty() ? "nodes[" + std::to_string(n.index) + "]" : n.name;
}

// The first committed clip not yet matched with this clip's name (the in-place copy's
// with --keep-source), so that clips of one name pair up in order; an unnamed clip's
// name holds its index, so unnamed clips pair by index.
const SidecarClip* committedClip(const Sidecar& sidecar, const std::string& name,
                                 std::vector<bool>& matched) {
    for (std::size_t i = 0; i < sidecar.clips.size(); ++i) {
        const std::string committed = committedName(sidecar.clips[i]);
        if (!matched[i] && (committed == name || committed == name + " (in place)"))
            return matched[i] = true, &sidecar.clips[i];
    }
    return nullptr;
}

// What changed of one clip since its committed sidecar entry.
void compareClip(Compared& compared, const std::string& name, const SidecarClip& before,
                 const ClipAnalysis& a, const Rig& rig, double tolerance) {
    compareText(compared, name, "source", before.source, sourceName(a.source));
    compareText(compared, name, "rootNode", before.hasRootNode ? committedNode(before.rootNode) : "null",
                a.root >= 0 ? nodeLabel(rig, a.root) : "null");
    std::vector<std::string> was, now;
    for (const SidecarNode& n : before.contactNodes) was.push_back(committedNode(n));
    for (int n : a.contacts) now.push_back(nodeLabel(rig, n));
    compareText(compared, name, "contactNodes", names(was), names(now));
    // Floors: 1% of the height for lengths, and per second of the clip for speeds; 1 degree for turns.
    const double length = 0.01 * std::max(before.characterHeight, 1e-6);
    const double perSecond = length / std::max(before.duration, 1e-3);
    compareNumber(compared, name, "strideLength", before.strideLength, a.strideLength, tolerance, length, "m",
                  "m");
    compareNumber(compared, name, "turn", before.turn, a.turn, tolerance, std::numbers::pi / 180, "deg",
                  "rad", 180 / std::numbers::pi);
    compareNumber(compared, name, "averageSpeed", before.averageSpeed, a.averageSpeed, tolerance, perSecond,
                  "m/s", "m/s");
}

// The sidecar an input is checked against: --against itself, or its place in the folder bake
// --out-dir wrote. That folder mirrors the one baked, which may be above the one checked
// (bake art -r --out-dir baked, then check art/sub -r --against baked): its place below the
// folder given first, then the input's path from each folder above the input's, nearest first;
// none there, the first.
fs::path committedSidecar(const CheckArgs& args, bool againstFolder, const InputFile& input) {
    if (!againstFolder) return fs::path(args.against);
    const std::string name = input.relative.stem().string() + ".rootmotion.json";
    const fs::path first = fs::path(args.against) / input.relative.parent_path() / name;
    std::error_code ec;
    if (fs::is_regular_file(first, ec)) return first;
    const fs::path file = fs::absolute(input.path, ec);
    if (ec) return first;
    fs::path below;  // the input's folder, seen from the folder reached
    for (fs::path folder = file.parent_path();; folder = folder.parent_path()) {
        const fs::path candidate = fs::path(args.against) / below / name;
        if (fs::is_regular_file(candidate, ec)) return candidate;
        if (!folder.has_relative_path()) return first;  // the top of the file system
        below = folder.filename() / below;
    }
}

// Every clip of the asset against its committed record, and every record left without a clip.
Compared compareClips(const gltf::Asset& asset, const pipeline::Analysed& analysed, const Sidecar& sidecar,
                      const fs::path& committed, double tolerance) {
    Compared compared;
    std::vector<bool> matched(sidecar.clips.size(), false);
    for (std::size_t c = 0; c < asset.clips.size(); ++c) {
        const Clip& clip = asset.clips[c];
        const Result<BakedClip>& baked = analysed.clips[c];
        const std::string name = clipName(clip);
        const SidecarClip* before = committedClip(sidecar, name, matched);
        if (before) {
            compareClip(compared, name, *before, baked->analysis, asset.rig, tolerance);
        } else {
            compared.lines.push_back(name + ": a new clip, not in " + committed.filename().string());
            compared.changes.push_back(
                {{"clip", name}, {"field", "clip"}, {"before", nullptr}, {"after", name}});
        }
    }
    for (std::size_t c = 0; c < matched.size(); ++c)
        if (!matched[c]) {
            const std::string name = committedName(sidecar.clips[c]);
            compared.lines.push_back(name + ": gone (in " + committed.filename().string() +
                                     ", not in the asset)");
            compared.changes.push_back(
                {{"clip", name}, {"field", "clip"}, {"before", name}, {"after", nullptr}});
        }
    return compared;
}

// One input analysed again and compared with its committed sidecar, clip by clip.
AssetOutcome checkAsset(const RunContext& run, const CheckArgs& args, bool againstFolder,
                        const InputFile& input) {
    const std::string label = input.path.string();
    AssetOutcome outcome;
    const fs::path committed = committedSidecar(args, againstFolder, input);
    auto fail = [&](int code, const std::string& message) {
        outcome.code = code;
        outcome.err += errorLine(message);
        outcome.json = {{"input", label}, {"against", committed.string()}, {"error", message}};
        return outcome;
    };
    // The asset first: one that bake refused fails here with bake's message.
    auto asset = loadInput(run, input);
    if (!asset) return fail(kBadInput, asset.error().message);
    outcome.err += loadWarnings(run, *asset);
    outcome.rulesMatched = matchedRules(input, *asset);
    // A sidecar that cannot be read is an input error (exit 2), not a change (4).
    auto text = io::readFileText(committed, {pipeline::kMaxSidecarBytes, ""});
    if (!text)
        return fail(
            kBadInput,
            label + ": nothing to check against: " + committed.string() + ": " + text.error().message +
                (againstFolder
                     ? " (nor at the input's path from any folder above it, below " + args.against + ")"
                     : std::string()));
    auto sidecar = parseSidecar(*text, committed.string());
    if (!sidecar) return fail(kBadInput, sidecar.error().message);

    auto analysed = analyseInput(run, *asset, optionsForClips(run, input, *asset));
    if (!analysed) return fail(kBadInput, analysed.error().message);
    if (std::string error = pipeline::firstClipError(*asset, *analysed); !error.empty())
        return fail(kBadInput, label + ": " + error);
    Compared compared = compareClips(*asset, *analysed, *sidecar, committed, args.tolerance);

    const bool same = compared.lines.empty();
    if (same) {
        outcome.out = textLine(label + ": " + counted(asset->clips.size(), "clip", "clips") + " as in " +
                               committed.string() + " (tolerance " + num(100 * args.tolerance, 3) + "%)");
    } else {
        outcome.code = kGateFailed;
        for (const std::string& line : compared.lines)
            outcome.err += messageLine("changed", label + ": " + line);
    }
    outcome.json = {{"input", label},
                    {"against", committed.string()},
                    {"same", same},
                    {"changes", std::move(compared.changes)}};
    return outcome;
}

}  // namespace

int check(const CheckArgs& args) {
    if (!(args.tolerance >= 0.0 && args.tolerance < 100.0)) {
        printError("--tolerance: expected a fraction, 0 or more (0.01 is 1%)");
        return kUsage;
    }
    RunContext run;
    if (int code = prepareRun(args.common, run); code != kOk) return code;
    std::error_code error;
    const bool againstFolder = fs::is_directory(args.against, error);
    if (!againstFolder && run.inputs.size() != 1) {
        printError("--against " + args.against +
                   ": a sidecar file is for one input; give the folder of sidecars");
        return kUsage;
    }
    std::vector<AssetOutcome> outcomes =
        runAssets(run, [&](std::size_t i) { return checkAsset(run, args, againstFolder, run.inputs[i]); });

    printUnmatchedRules(run, outcomes);
    const int status = exitCodeOf(outcomes);
    if (run.args.json) {
        Json assets = Json::array();
        for (AssetOutcome& o : outcomes) assets.push_back(std::move(o.json));
        std::fputs(
            jsonText(Json{{"exitCode", status}, {"tolerance", args.tolerance}, {"assets", std::move(assets)}})
                .c_str(),
            stdout);
    }
    return status;
}

}  // namespace rootbake::cli
