// rootbake verify BAKED --sidecar S [--source ORIGINAL]: load, replay every clip
// with its track (src/verify/verify.h), print a table or one JSON document.
// Built only with the rootbake_verify library (it defines ROOTBAKE_WITH_VERIFY).
#ifdef ROOTBAKE_WITH_VERIFY

#include "cli/verify.h"

#include "gltf/asset.h"
#include "io/read_file.h"
#include "pipeline/pipeline.h"
#include "rootbake/num.h"
#include "sidecar/read.h"
#include "verify/verify.h"
#include "write/rootbone.h"
#include "io/sha256.h"

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

// What one clip's line of the report says.
struct ClipReport {
    std::string name;  // the sidecar clip's
    int animation = 0;
    std::string source;
    double duration = 0;         // s
    std::vector<int> contacts;   // rig indices in the baked asset
    bool contactsFound = false;  // the sidecar names none: the analysis's candidates
    bool hasRoot = false;        // the sidecar names a root node
    verify::ClipSkate skate;
    bool measured = false;
    bool gated = false;  // travels: its mean is held to the limit
    bool passed = true;
    std::string note;
};

// A sidecar node in the baked rig; an error names the path.
Result<int> rigNode(const Rig& rig, const SidecarNode& node, const std::string& sidecarName,
                    const std::string& path) {
    if (node.index >= static_cast<int>(rig.rigIndexOfGltf.size()))
        return Error{sidecarName + ": " + path + ".index: node " + std::to_string(node.index) +
                     " out of range (" + std::to_string(rig.rigIndexOfGltf.size()) +
                     " nodes in the baked asset)"};
    const int n = rig.rigIndexOfGltf[node.index];
    // A node without a name is "nodes[N]" in the sidecar (blank in sidecars of rootbake 0.1.0).
    if (nodeLabel(rig, n) != node.name && !(node.name.empty() && rig.name[n].empty()))
        return Error{sidecarName + ": " + path + ": node " + std::to_string(node.index) + " is \"" +
                     nodeLabel(rig, n) + "\" in the baked asset, not \"" + node.name + "\""};
    return n;
}

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

// The three files verify reads, each checked against the others.
struct VerifyInputs {
    gltf::Asset baked;
    Sidecar sidecar;
    std::optional<gltf::Asset> source;  // --source
};

// The original asset: the sidecar's input by its sha256, with as many animations as it has clips.
Result<gltf::Asset> loadSource(const VerifyArgs& args, const Sidecar& sidecar) {
    // Read once: hashed, then loaded from the same bytes.
    auto bytes = gltf::readAssetFile(args.source);
    if (!bytes) return bytes.error();
    if (io::sha256Hex(*bytes) != sidecar.inputSha256)
        return Error{args.source + ": not the input of " + args.sidecar +
                     " (its sha256 is not the sidecar's inputSha256)"};
    auto loaded = pipeline::loadAssetBytes(*bytes, args.source, {});
    if (!loaded) return loaded.error();
    // The sidecar's clips are in the input's animation order.
    if (loaded->clips.size() != sidecar.clips.size())
        return Error{args.sidecar + ": " + counted(sidecar.clips.size(), "clip", "clips") + ", but " +
                     args.source + " has " + counted(loaded->clips.size(), "animation", "animations")};
    return loaded;
}

Result<VerifyInputs> loadInputs(const VerifyArgs& args, bool beside) {
    auto baked = pipeline::loadAsset(args.baked, {}, false);
    if (!baked) return baked.error();
    auto text = io::readFileText(args.sidecar, {kMaxSidecarBytes, ""});
    if (!text)
        return Error{args.sidecar + ": " + text.error().message +
                     (beside ? " (give the sidecar with --sidecar)" : "")};
    auto sidecar = parseSidecar(*text, args.sidecar);
    if (!sidecar) return sidecar.error();
    VerifyInputs inputs{std::move(baked->asset), std::move(*sidecar), std::nullopt};
    if (!args.source.empty()) {
        auto source = loadSource(args, inputs.sidecar);
        if (!source) return source.error();
        inputs.source = std::move(*source);
    }
    return inputs;
}

// An idle bone of the source that bake --root-bone reused: the source has it, by index and name,
// and it is no clip's root (a root bone the source has as the root carries the motion already).
bool reusedFromSource(const Rig& source, const Sidecar& sidecar) {
    const SidecarNode& bone = sidecar.rootBone;
    if (bone.index < 0 || std::size_t(bone.index) >= source.rigIndexOfGltf.size()) return false;
    const int node = source.rigIndexOfGltf[std::size_t(bone.index)];
    if (node < 0 || source.name[node] != bone.name) return false;
    return std::none_of(sidecar.clips.begin(), sidecar.clips.end(), [&](const SidecarClip& c) {
        return c.hasRootNode && c.rootNode.index == bone.index;
    });
}

// The root bone carries the motion the runtime applies: an engine plays it at rest. The
// source then plays on the baked rig: its nodes by glTF index, the root's keys under the bone
// (moved by its offset when the bake inserted it; a reused bone was their parent already).
Status playUnderRootBone(const VerifyArgs& args, VerifyInputs& inputs) {
    const Rig& rig = inputs.baked.rig;
    auto bone = rigNode(rig, inputs.sidecar.rootBone, args.sidecar, "rootBone");
    if (!bone) return bone.error();
    for (Clip& clip : inputs.baked.clips)
        std::erase_if(clip.channels, [&](const Channel& channel) { return channel.node == *bone; });
    if (!inputs.source) return Ok{};
    const bool reused = reusedFromSource(inputs.source->rig, inputs.sidecar);
    for (Clip& clip : inputs.source->clips)
        for (Channel& channel : clip.channels) {
            channel.node = rig.rigIndexOfGltf[inputs.source->rig.gltfIndex[channel.node]];
            if (!reused && channel.path == Path::Translation && rig.parent[channel.node] == *bone)
                moveUnderRootBone(channel.values, channel.interpolation, rig.rest[*bone].translation);
        }
    return Ok{};
}

// A sidecar clip as the replay takes it, its nodes found in the baked rig; the report's line
// gets the contacts (the analysis's candidates when the sidecar names none). `played` is the
// baked clip it moves; path: "clips[i]", for messages.
Result<verify::ClipMotion> motionOf(const Rig& rig, const SidecarClip& c, const Clip& played,
                                    const std::string& sidecarName, const std::string& path,
                                    ClipReport& report) {
    verify::ClipMotion m;
    m.times = c.times;
    m.translation = c.translation;
    m.yaw = c.yaw;
    m.duration = c.duration;
    m.upAxis = glm::dvec3(c.upAxis[0], c.upAxis[1], c.upAxis[2]);
    m.characterHeight = c.characterHeight;
    m.averageSpeed = c.averageSpeed;
    m.averageAngularSpeed = c.averageAngularSpeed;
    m.travelDirection = {c.travelDirection[0], c.travelDirection[1], c.travelDirection[2]};
    int root = -1;
    if (c.hasRootNode) {
        auto n = rigNode(rig, c.rootNode, sidecarName, path + ".rootNode");
        if (!n) return n.error();
        root = *n;
    }
    if (c.hasCharacterNode) {
        auto n = rigNode(rig, c.characterNode, sidecarName, path + ".characterNode");
        if (!n) return n.error();
        m.character = *n;
    }
    for (std::size_t k = 0; k < c.contactNodes.size(); ++k) {
        auto n =
            rigNode(rig, c.contactNodes[k], sidecarName, path + ".contactNodes[" + std::to_string(k) + "]");
        if (!n) return n.error();
        m.contacts.push_back(*n);
    }
    report.name = c.name;
    report.hasRoot = root >= 0;
    report.animation = c.animation;
    report.source = c.source;
    report.duration = c.duration;
    if (m.contacts.empty() && c.duration > 0) {
        m.contacts = verify::findContactCandidates(rig, played, root, m.character, m.upAxis);
        report.contactsFound = true;
    }
    report.contacts = m.contacts;
    return m;
}

// The baked clip sidecar clip i moves: its animation, checked against the baked asset.
Result<const Clip*> playedClip(const VerifyArgs& args, const VerifyInputs& inputs, std::size_t i) {
    const SidecarClip& c = inputs.sidecar.clips[i];
    const std::string path = "clips[" + std::to_string(i) + "]";
    if (c.animation >= static_cast<int>(inputs.baked.clips.size()))
        return Error{args.sidecar + ": " + path + ".animation: " + std::to_string(c.animation) +
                     " out of range (" + args.baked + " has " + std::to_string(inputs.baked.clips.size()) +
                     " animations)"};
    // An unnamed clip is "animations[N]" (N the input's index, which is the output's unless
    // --keep-source names the copy); blank in sidecars of rootbake 0.1.0.
    const Clip& played = inputs.baked.clips[c.animation];
    if (clipName(played) != c.name && !(c.name.empty() && played.name.empty()))
        return Error{args.sidecar + ": " + path + ": animation " + std::to_string(c.animation) + " of " +
                     args.baked + " is \"" + clipName(played) + "\", not \"" + c.name + "\""};
    return &played;
}

// What verify replays, however it got it: the baked files read back (verify) or the bake
// just made, in memory (bake --verify). Per sidecar clip: the in-place clip as the baked asset
// plays it, the source clip (null without --source) and the motion track.
struct Replay {
    const Rig* rig = nullptr;
    std::vector<Clip> played;
    std::vector<const Clip*> source;
    std::vector<verify::ClipMotion> motions;
    std::vector<ClipReport> reports;
};

// Replays clip i and judges it (verify::judge).
Status measureClip(const VerifyArgs& args, const verify::Settings& settings, std::size_t i, Replay& replay) {
    ClipReport& r = replay.reports[i];
    if (r.duration == 0) {
        r.note = "a single pose: nothing to replay";
        return Ok{};
    }
    auto skate =
        verify::measureSkate(*replay.rig, replay.played[i], replay.motions[i], replay.source[i], settings);
    if (!skate) return Error{args.sidecar + ": clips[" + std::to_string(i) + "]: " + skate.error().message};
    r.skate = std::move(*skate);
    r.measured = true;
    const verify::ClipFacts facts{.travels = r.source != "none" && r.skate.averageSpeed > 0,
                                  .rootKeys = r.source == "root",
                                  .hasRoot = r.hasRoot,
                                  .hasContacts = !r.contacts.empty()};
    const verify::Verdict verdict = verify::judge(r.skate, facts, args.maxDrift);
    r.gated = verdict.gated;
    r.passed = verdict.passed;
    r.note = verdict.note;
    return Ok{};
}

Json reportJson(const VerifyArgs& args, const verify::Settings& settings, const Rig& rig,
                const std::vector<ClipReport>& reports, bool failed) {
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
    for (const ClipReport& r : reports) {
        Json clip;
        clip["name"] = r.name;
        clip["animation"] = r.animation;
        clip["source"] = r.source;
        clip["averageSpeed"] = r.skate.averageSpeed;
        clip["height"] = r.skate.height;
        clip["seam"] = r.skate.seam;
        clip["contactNodes"] = Json::array();
        for (int n : r.contacts)
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
                       const std::vector<ClipReport>& reports, bool failed) {
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
    for (const ClipReport& r : reports) printed.push_back(printable(r.name));
    const std::vector<std::string> names = distinctNames(printed, kNameColumn);
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const ClipReport& r = reports[i];
        gated += r.gated;
        const verify::ClipSkate& k = r.skate;
        const bool hasSource = r.measured && k.measuredSource;
        const bool measured = r.measured && k.baked.samples > 0;
        rows.push_back({names[i], r.source, fixedPoint(k.averageSpeed, 4),
                        shareCell(k.baked, r.measured, k.baked.driftFraction),
                        shareCell(k.baked, r.measured, k.baked.meanFraction),
                        measured ? compactPercent(k.baked.skatingRatio) : std::string("-"),
                        shareCell(k.source, hasSource, k.source.driftFraction),
                        !r.gated             ? "not gated"
                        : r.passed           ? "ok"
                        : r.source == "none" ? "SLIDES"
                                             : "SKATES"});
        if (!r.note.empty()) notes += textLine("  " + r.name + ": " + r.note);
    }
    const std::string summary = std::string(failed ? "FAILED" : "ok") + ": " + std::to_string(gated) +
                                " of " + counted(reports.size(), "clip", "clips") + " gated, " +
                                (failed ? "not all" : "all") + " under their limits (drift " +
                                compactPercent(args.maxDrift) + " of the speed; " +
                                fixedPoint(verify::kStandingDrift, 2) + " heights/s standing)\n";
    return header + tableText(rows, "  ") + notes + summary;
}

// Measures every clip of the replay, then prints the table or the JSON document.
int replayAndPrint(const VerifyArgs& args, Replay& replay) {
    verify::Settings settings;
    settings.loops = args.loops;
    bool failed = false;
    for (std::size_t i = 0; i < replay.reports.size(); ++i) {
        if (Status measured = measureClip(args, settings, i, replay); !measured)
            return printError(measured.error().message), kBadInput;
        failed |= replay.reports[i].gated && !replay.reports[i].passed;
    }
    const std::string out = args.json
                                ? jsonText(reportJson(args, settings, *replay.rig, replay.reports, failed))
                                : reportText(args, settings, replay.reports, failed);
    std::fputs(out.c_str(), stdout);
    return failed ? kGateFailed : kOk;
}

// The root bone bake found in the asset already (--root-bone naming the root): its keys carry
// the motion, so the baked clip plays without them, and the source's keys under it move as
// playUnderRootBone moves them. -1: none, or a new bone (the source rig plays the same motion).
int rootBoneAlready(const gltf::Asset& asset, const Baked& baked) {
    if (baked.rootBone < 0 || !baked.rootBoneWasPresent) return -1;
    return asset.rig.rigIndexOfGltf[baked.rootBone];
}

}  // namespace

int verifyBaked(const VerifyArgs& args, const gltf::Asset& asset, const Baked& baked) {
    Replay replay;
    replay.rig = &asset.rig;
    std::vector<Clip> sources;  // with a root bone found in the asset: its children's keys moved under it
    const int bone = rootBoneAlready(asset, baked);
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        const Clip& clip = asset.clips[i];
        Clip played = applyInPlace(clip, baked.clips[i].channels);
        std::erase_if(played.channels, [&](const Channel& channel) { return channel.node == bone; });
        ClipReport report;
        auto motion = motionOf(asset.rig, baked.document.sidecar.clips[i], played, args.sidecar,
                               "clips[" + std::to_string(i) + "]", report);
        if (!motion) return printError(motion.error().message), kBadInput;
        replay.motions.push_back(std::move(*motion));
        replay.played.push_back(std::move(played));
        replay.reports.push_back(std::move(report));
        sources.push_back(clip);
        if (bone >= 0)
            for (Channel& channel : sources.back().channels)
                if (channel.path == Path::Translation && asset.rig.parent[channel.node] == bone)
                    moveUnderRootBone(channel.values, channel.interpolation,
                                      asset.rig.rest[bone].translation);
    }
    for (const Clip& clip : sources) replay.source.push_back(&clip);
    return replayAndPrint(args, replay);
}

int verify(const VerifyArgs& given) {
    VerifyArgs args = given;
    const bool beside = args.sidecar.empty();
    if (beside) {
        const fs::path baked(args.baked);
        args.sidecar = (baked.parent_path() / (baked.stem().string() + ".rootmotion.json")).string();
    }
    if (args.loops < 1 || args.loops > 1000) {
        printError("--loops: must be between 1 and 1000");
        return kUsage;
    }
    if (!(args.maxDrift >= 0) || !std::isfinite(args.maxDrift)) {
        printError("--max-drift: must be a fraction >= 0 of the clip's average speed");
        return kUsage;
    }
    auto inputs = loadInputs(args, beside);
    if (!inputs) return printError(inputs.error().message), kBadInput;
    if (inputs->sidecar.hasRootBone)
        if (Status played = playUnderRootBone(args, *inputs); !played)
            return printError(played.error().message), kBadInput;

    // Everything checked against the baked asset before anything is measured.
    const std::size_t clips = inputs->sidecar.clips.size();
    std::vector<ClipReport> reports(clips);
    std::vector<verify::ClipMotion> motions;
    for (std::size_t i = 0; i < clips; ++i) {
        auto played = playedClip(args, *inputs, i);
        if (!played) return printError(played.error().message), kBadInput;
        auto motion = motionOf(inputs->baked.rig, inputs->sidecar.clips[i], **played, args.sidecar,
                               "clips[" + std::to_string(i) + "]", reports[i]);
        if (!motion) return printError(motion.error().message), kBadInput;
        motions.push_back(std::move(*motion));
    }
    Replay replay;
    replay.rig = &inputs->baked.rig;
    replay.reports = std::move(reports);
    replay.motions = std::move(motions);
    for (std::size_t i = 0; i < clips; ++i) {
        replay.played.push_back(inputs->baked.clips[replay.reports[i].animation]);
        replay.source.push_back(inputs->source ? &inputs->source->clips[i] : nullptr);
    }
    return replayAndPrint(args, replay);
}

}  // namespace rootbake::cli

#endif  // ROOTBAKE_WITH_VERIFY
