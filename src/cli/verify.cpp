// rootbake verify BAKED --sidecar S [--source ORIGINAL]: its arguments checked, every clip
// replayed with its track (src/verify/replay.h), a table or one JSON document printed.
// Built only with the rootbake_verify library (it defines ROOTBAKE_WITH_VERIFY).
#ifdef ROOTBAKE_WITH_VERIFY

#include "cli/verify.h"

#include "rootbake/num.h"
#include "verify/replay.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

namespace rootbake::cli {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

std::string compactPercent(double fraction) {
    return fixedPoint(100.0 * fraction, 1) + "%";
}

Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json statsJson(const verify::SkateStats& s, bool measured) {
    if (!measured) return nullptr;
    return Json{{"samples", s.samples},
                {"mean", number(s.mean)},
                {"p95", number(s.p95)},
                {"drift", number(s.drift)},
                {"skatingRatio", number(s.skatingRatio)},
                {"meanFraction", number(s.meanFraction)},
                {"p95Fraction", number(s.p95Fraction)},
                {"driftFraction", number(s.driftFraction)}};
}

Json reportJson(const VerifyArgs& args, const verify::Settings& settings, const Rig& rig,
                const std::vector<verify::ClipReport>& reports, bool failed) {
    Json out;
    out["baked"] = args.baked;
    out["sidecar"] = args.sidecar;
    out["source"] = args.source.empty() ? Json(nullptr) : Json(args.source);
    out["loops"] = settings.loops;
    out["framesPerSecond"] = settings.framesPerSecond;
    out["plantedBand"] = settings.plantedBand;
    out["plantedMargin"] = settings.plantedMargin;
    out["maxDrift"] = args.maxDrift;
    out["standingDrift"] = verify::kStandingDrift;
    out["passed"] = !failed;
    out["clips"] = Json::array();
    for (const verify::ClipReport& r : reports) {
        Json clip;
        clip["name"] = r.motion.clip->name;
        clip["animation"] = r.motion.clip->animation;
        clip["source"] = r.motion.clip->source;
        clip["averageSpeed"] = r.skate.averageSpeed;
        clip["height"] = r.skate.height;
        clip["seam"] = r.skate.seam;
        clip["contactNodes"] = Json::array();
        for (int n : r.motion.contacts)
            clip["contactNodes"].push_back(Json{{"name", nodeLabel(rig, n)}, {"index", rig.gltfIndex[n]}});
        clip["contactsFound"] = r.contactsFound;
        clip["frames"] = r.skate.frames;
        clip["baked"] = statsJson(r.skate.baked, r.measured);
        clip["constant"] = statsJson(r.skate.constant, r.measured);
        clip["sourceClip"] = statsJson(r.skate.source, r.measured && r.skate.measuredSource);
        clip["gated"] = r.gated;
        clip["passed"] = r.gated ? Json(r.passed) : Json(nullptr);
        clip["note"] = r.note;
        out["clips"].push_back(std::move(clip));
    }
    return out;
}

// Names longer than `width` with their middle cut out ("AnimalArm...Left_loop"): clips of one pack
// differ at the end as often as at the start. Two names still alike once cut get their row
// number ("#3") in the cut instead, so that no two rows read the same.
std::vector<std::string> distinctNames(const std::vector<std::string>& names, std::size_t width) {
    // Each cut at a UTF-8 letter's start, never inside a letter.
    auto start = [](const std::string& s, std::size_t at) {
        while (at > 0 && at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;
        return at;
    };
    auto cut = [&](const std::string& name, const std::string& mark) {
        if (name.size() <= width) return name;
        const std::size_t keep = width - mark.size();
        const std::size_t head = start(name, keep / 2);
        std::size_t tail = name.size() - (keep - keep / 2);
        while (tail < name.size() && (static_cast<unsigned char>(name[tail]) & 0xC0) == 0x80) ++tail;
        return name.substr(0, head) + mark + name.substr(tail);
    };
    std::vector<std::string> out;
    for (const std::string& name : names) out.push_back(cut(name, "..."));
    std::map<std::string, int> seen;
    for (const std::string& s : out) ++seen[s];
    for (std::size_t i = 0; i < out.size(); ++i)
        if (seen[out[i]] > 1 && names[i].size() > width)
            out[i] = cut(names[i], "..#" + std::to_string(i + 1) + "..");
    return out;
}

std::string shareCell(const verify::SkateStats& st, bool measured, double fraction) {
    return measured && st.samples > 0 && std::isfinite(fraction) ? compactPercent(fraction)
                                                                 : std::string("-");
}

// The header, one row per clip, and what is not "ok" said under the table, within 100 columns.
std::string reportText(const VerifyArgs& args, const verify::Settings& settings,
                       const std::vector<verify::ClipReport>& reports, bool failed) {
    auto rounded = [](double value) { return fixedPoint(value, 0); };
    const std::string header =
        printable(args.baked) + ":\n  " + std::to_string(settings.loops) + " loops at " +
        rounded(settings.framesPerSecond) + " fps, contacts planted within " +
        rounded(100 * settings.plantedBand) + "% of the height for " +
        rounded(1000 * settings.plantedMargin) +
        " ms\n"
        "  drift %: the speed all planted contacts share (the gate), skate %: their mean speed, both of\n"
        "  the clip's speed (m/s); ratio %: frames with a contact skating (foot-skating ratio); source %:\n "
        " " +
        (args.source.empty() ? std::string("(no --source)") : printable(args.source)) + "'s drift\n";
    // A clip name longer than kNameColumn loses its middle (--json has it whole).
    constexpr std::size_t kNameColumn = 28;
    std::vector<std::vector<std::string>> rows{
        {"clip", "source", "speed", "drift %", "skate %", "ratio %", "source %", "result"}};
    std::string notes;
    int gated = 0;
    std::vector<std::string> printed;
    for (const verify::ClipReport& r : reports) printed.push_back(printable(r.motion.clip->name));
    const std::vector<std::string> names = distinctNames(printed, kNameColumn);
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const verify::ClipReport& r = reports[i];
        gated += r.gated;
        const verify::ClipSkate& k = r.skate;
        const bool hasSource = r.measured && k.measuredSource;
        const bool measured = r.measured && k.baked.samples > 0;
        rows.push_back({names[i], r.motion.clip->source, fixedPoint(k.averageSpeed, 4),
                        shareCell(k.baked, r.measured, k.baked.driftFraction),
                        shareCell(k.baked, r.measured, k.baked.meanFraction),
                        measured ? compactPercent(k.baked.skatingRatio) : std::string("-"),
                        shareCell(k.source, hasSource, k.source.driftFraction),
                        !r.gated                          ? "not gated"
                        : r.passed                        ? "ok"
                        : r.motion.clip->source == "none" ? "SLIDES"
                                                          : "SKATES"});
        if (!r.note.empty())
            notes += wrappedLines("  " + printed[i] + ": ", r.note, 4, {r.motion.clip->name});
    }
    const std::string summary = std::string(failed ? "FAILED" : "ok") + ": " + std::to_string(gated) +
                                " of " + counted(reports.size(), "clip", "clips") + " gated, " +
                                (failed ? "not all" : "all") + " under their limits (drift " +
                                compactPercent(args.maxDrift) + " of the speed; " +
                                fixedPoint(verify::kStandingDrift, 2) + " heights/s standing)\n";
    return header + tableText(rows, "  ") + notes + summary;
}

// Measures every clip of the replay, then prints the table or the JSON document.
int replayAndPrint(const VerifyArgs& args, verify::Replay& replay) {
    verify::Settings settings;
    settings.loops = args.loops;
    bool failed = false;
    for (std::size_t i = 0; i < replay.reports.size(); ++i) {
        if (Status measured = verify::measureClip(replay, i, settings, args.maxDrift, args.sidecar);
            !measured)
            return printError(measured.error().message), kBadInput;
        failed |= replay.reports[i].gated && !replay.reports[i].passed;
    }
    const std::string out = args.json
                                ? jsonText(reportJson(args, settings, *replay.rig, replay.reports, failed))
                                : reportText(args, settings, replay.reports, failed);
    std::fputs(out.c_str(), stdout);
    return failed ? kGateFailed : kOk;
}

}  // namespace

int verifyBaked(const VerifyArgs& args, const gltf::Asset& asset, const pipeline::Baked& baked) {
    auto replay = verify::replayBake(asset, baked, args.sidecar);
    if (!replay) return printError(replay.error().message), kBadInput;
    return replayAndPrint(args, *replay);
}

int verify(const VerifyArgs& given) {
    verify::Files files{given.baked, given.sidecar, given.source, given.sidecar.empty()};
    if (files.sidecarBeside) {
        const fs::path baked(files.baked);
        files.sidecar = (baked.parent_path() / (baked.stem().string() + ".rootmotion.json")).string();
    }
    VerifyArgs args = given;
    args.sidecar = files.sidecar;
    if (args.loops < 1 || args.loops > 1000) {
        printError("--loops: must be between 1 and 1000");
        return kUsage;
    }
    if (!(args.maxDrift >= 0) || !std::isfinite(args.maxDrift)) {
        printError("--max-drift: must be a fraction >= 0 of the clip's average speed");
        return kUsage;
    }
    auto inputs = verify::loadInputs(files);
    if (!inputs) return printError(inputs.error().message), kBadInput;
    auto replay = verify::replayFiles(*inputs, files);
    if (!replay) return printError(replay.error().message), kBadInput;
    return replayAndPrint(args, *replay);
}

}  // namespace rootbake::cli

#endif  // ROOTBAKE_WITH_VERIFY
