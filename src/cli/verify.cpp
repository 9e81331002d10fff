// rootbake verify BAKED --sidecar S [--source ORIGINAL]: load, replay every clip
// with its track (src/verify/verify.h), print a table or one JSON document.
// Built only with the rootbake_verify library (it defines ROOTBAKE_WITH_VERIFY).
#ifdef ROOTBAKE_WITH_VERIFY

#include "cli/verify.h"

#include "gltf/asset.h"
#include "gltf/read_file.h"
#include "sidecar/read.h"
#include "write/rootbone.h"
#include "verify/verify.h"
#include "write/sha256.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>

namespace rootbake::cli {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// What one clip's line of the report says.
struct ClipReport {
    const SidecarClip* clip = nullptr;
    std::vector<int> contacts;   // rig indices in the baked asset
    bool contactsFound = false;  // the sidecar names none: the analysis's candidates
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
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100.0 * fraction);
    return text;
}

Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json statsJson(const verify::SkateStats& s, bool measured) {
    if (!measured) return nullptr;
    return Json{{"samples", s.samples},
                {"mean", number(s.mean)},
                {"p95", number(s.p95)},
                {"meanFraction", number(s.meanFraction)},
                {"p95Fraction", number(s.p95Fraction)}};
}

}  // namespace

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
    if (!(args.maxSkate >= 0) || !std::isfinite(args.maxSkate)) {
        printError("--max-skate: must be a fraction >= 0 of the clip's average speed");
        return kUsage;
    }

    auto baked = loadAsset(args.baked);
    if (!baked) {
        printError(baked.error().message);
        return kBadInput;
    }
    auto text = readFileText(args.sidecar, {kMaxSidecarBytes, ""});
    if (!text) {
        printError(args.sidecar + ": " + text.error().message + (beside ? " (give the sidecar with --sidecar)" : ""));
        return kBadInput;
    }
    auto sidecar = parseSidecar(*text, args.sidecar);
    if (!sidecar) {
        printError(sidecar.error().message);
        return kBadInput;
    }
    std::optional<Asset> source;
    if (!args.source.empty()) {
        // Read once: hashed, then loaded from the same bytes.
        auto bytes = readAssetFile(args.source);
        if (!bytes) {
            printError(bytes.error().message);
            return kBadInput;
        }
        if (sha256Hex(*bytes) != sidecar->inputSha256) {
            printError(args.source + ": not the input of " + args.sidecar +
                       " (its sha256 is not the sidecar's inputSha256)");
            return kBadInput;
        }
        auto loaded = loadAssetFile(std::move(*bytes), args.source);
        if (!loaded) {
            printError(loaded.error().message);
            return kBadInput;
        }
        // The sidecar's clips are in the input's animation order.
        if (loaded->clips.size() != sidecar->clips.size()) {
            printError(args.sidecar + ": " + std::to_string(sidecar->clips.size()) + " clips, but " +
                       args.source + " has " + std::to_string(loaded->clips.size()) + " animations");
            return kBadInput;
        }
        source = std::move(*loaded);
    }

    const Rig& rig = baked->rig;
    if (sidecar->hasRootBone) {
        // The root bone carries the motion the runtime applies: an engine plays it at rest.
        auto bone = rigNode(rig, sidecar->rootBone, args.sidecar, "rootBone");
        if (!bone) {
            printError(bone.error().message);
            return kBadInput;
        }
        for (Clip& clip : baked->clips)
            std::erase_if(clip.channels, [&](const Channel& channel) { return channel.node == *bone; });
        // The source plays on the baked rig: its nodes by glTF index, the root's keys under the bone.
        if (source)
            for (Clip& clip : source->clips)
                for (Channel& channel : clip.channels) {
                    channel.node = rig.rigIndexOfGltf[source->rig.gltfIndex[channel.node]];
                    if (channel.path == Path::Translation && rig.parent[channel.node] == *bone)
                        moveUnderRootBone(channel.values, channel.interpolation, rig.rest[*bone].translation);
                }
    }
    const glm::dvec3 up(sidecar->upAxis[0], sidecar->upAxis[1], sidecar->upAxis[2]);
    verify::Settings settings;
    settings.loops = args.loops;

    // Everything checked against the baked asset before anything is measured.
    std::vector<ClipReport> reports;
    std::vector<verify::ClipMotion> motions;
    for (std::size_t i = 0; i < sidecar->clips.size(); ++i) {
        const SidecarClip& c = sidecar->clips[i];
        const std::string path = "clips[" + std::to_string(i) + "]";
        if (c.animation >= static_cast<int>(baked->clips.size())) {
            printError(args.sidecar + ": " + path + ".animation: " + std::to_string(c.animation) +
                       " out of range (" + args.baked + " has " + std::to_string(baked->clips.size()) +
                       " animations)");
            return kBadInput;
        }
        // An unnamed clip is "animations[N]" (N the input's index, which is the output's unless
        // --keep-source names the copy); blank in sidecars of rootbake 0.1.0.
        const Clip& played = baked->clips[c.animation];
        if (clipName(played) != c.name && !(c.name.empty() && played.name.empty())) {
            printError(args.sidecar + ": " + path + ": animation " + std::to_string(c.animation) + " of " +
                       args.baked + " is \"" + clipName(played) + "\", not \"" + c.name + "\"");
            return kBadInput;
        }
        verify::ClipMotion m;
        m.times = c.times;
        m.translation = c.translation;
        m.yaw = c.yaw;
        m.duration = c.duration;
        m.upAxis = up;
        m.characterHeight = c.characterHeight;
        m.averageSpeed = c.averageSpeed;
        m.averageAngularSpeed = c.averageAngularSpeed;
        m.travelDirection = {c.travelDirection[0], c.travelDirection[1], c.travelDirection[2]};
        int root = -1;
        if (c.hasRootNode) {
            auto n = rigNode(rig, c.rootNode, args.sidecar, path + ".rootNode");
            if (!n) {
                printError(n.error().message);
                return kBadInput;
            }
            root = *n;
        }
        if (c.hasCharacterNode) {
            auto n = rigNode(rig, c.characterNode, args.sidecar, path + ".characterNode");
            if (!n) {
                printError(n.error().message);
                return kBadInput;
            }
            m.character = *n;
        }
        for (std::size_t k = 0; k < c.contactNodes.size(); ++k) {
            auto n = rigNode(rig, c.contactNodes[k], args.sidecar,
                             path + ".contactNodes[" + std::to_string(k) + "]");
            if (!n) {
                printError(n.error().message);
                return kBadInput;
            }
            m.contacts.push_back(*n);
        }
        ClipReport report;
        report.clip = &c;
        if (m.contacts.empty() && c.duration > 0) {
            m.contacts = verify::findContactCandidates(rig, baked->clips[c.animation], root, m.character, up);
            report.contactsFound = true;
        }
        report.contacts = m.contacts;
        reports.push_back(std::move(report));
        motions.push_back(std::move(m));
    }

    bool failed = false;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        ClipReport& r = reports[i];
        const SidecarClip& c = *r.clip;
        if (c.duration == 0) {
            r.note = "a single pose: nothing to replay";
            continue;
        }
        const Clip* sourceClip = source ? &source->clips[i] : nullptr;
        auto skate = verify::measureSkate(rig, baked->clips[c.animation], motions[i], sourceClip, settings);
        if (!skate) {
            printError(args.sidecar + ": clips[" + std::to_string(i) + "]: " + skate.error().message);
            return kBadInput;
        }
        r.skate = std::move(*skate);
        r.measured = true;
        const bool travels = c.source != "none" && r.skate.averageSpeed > 0;
        if (!travels) {
            r.note = "does not travel: not gated";
        } else if (r.contacts.empty() || r.skate.baked.samples == 0) {
            r.note =
                r.contacts.empty() ? "no contact nodes: not gated" : "no contact is ever planted: not gated";
        } else {
            r.gated = true;
            r.passed = !(r.skate.baked.meanFraction > args.maxSkate);
            if (!r.passed) {
                failed = true;
                r.note = "SKATES: mean " + compactPercent(r.skate.baked.meanFraction) + " of its speed > " +
                         compactPercent(args.maxSkate);
            }
        }
    }

    if (args.json) {
        Json out;
        out["baked"] = args.baked;
        out["sidecar"] = args.sidecar;
        out["source"] = args.source.empty() ? Json(nullptr) : Json(args.source);
        out["loops"] = settings.loops;
        out["framesPerSecond"] = settings.framesPerSecond;
        out["plantedBand"] = settings.plantedBand;
        out["plantedMargin"] = settings.plantedMargin;
        out["maxSkate"] = args.maxSkate;
        out["passed"] = !failed;
        out["clips"] = Json::array();
        for (const ClipReport& r : reports) {
            Json clip;
            clip["name"] = r.clip->name;
            clip["animation"] = r.clip->animation;
            clip["source"] = r.clip->source;
            clip["averageSpeed"] = r.skate.averageSpeed;
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
        std::fputs(jsonText(out).c_str(), stdout);
    } else {
        std::printf(
            "%s: %d loops at %.0f fps. skate: the mean horizontal speed of planted contacts (within %.0f%% of\n"
            "  the height for %.0f ms) of the baked clip moved by its track, m/s and %% of the clip's speed (m/s),\n"
            "  p95 %%: its 95th percentile; const %%: moved at constant speed; source %%: %s as it is\n",
            printable(args.baked).c_str(), settings.loops, settings.framesPerSecond, 100 * settings.plantedBand,
            1000 * settings.plantedMargin, args.source.empty() ? "(no --source)" : printable(args.source).c_str());
        // Within 120 columns: a clip name longer than kNameColumn is cut (--json has it whole),
        // and what is not "ok" is said under the table.
        constexpr std::size_t kNameColumn = 32;
        std::vector<std::vector<std::string>> rows{
            {"clip", "source", "speed", "skate", "skate %", "p95 %", "const %", "source %", "result"}};
        // m/s, or % of the clip's speed, of one measurement; "-" when there is none.
        auto metres = [](const verify::SkateStats& st, bool measured, double value) {
            char cellText[32];
            std::snprintf(cellText, sizeof cellText, "%.4f", value);
            return measured && st.samples > 0 && std::isfinite(value) ? std::string(cellText) : std::string("-");
        };
        auto share = [](const verify::SkateStats& st, bool measured, double fraction) {
            return measured && st.samples > 0 && std::isfinite(fraction) ? compactPercent(fraction) : std::string("-");
        };
        std::string notes;
        int gated = 0;
        for (const ClipReport& r : reports) {
            gated += r.gated;
            std::string name = printable(r.clip->name);
            if (name.size() > kNameColumn) name = name.substr(0, kNameColumn - 3) + "...";
            char speed[32];
            std::snprintf(speed, sizeof speed, "%.4f", r.skate.averageSpeed);
            const bool ok = r.gated && r.passed;
            const verify::ClipSkate& k = r.skate;
            const bool hasSource = r.measured && k.measuredSource;
            rows.push_back({name, r.clip->source, speed, metres(k.baked, r.measured, k.baked.mean),
                            share(k.baked, r.measured, k.baked.meanFraction), share(k.baked, r.measured, k.baked.p95Fraction),
                            share(k.constant, r.measured, k.constant.meanFraction),
                            share(k.source, hasSource, k.source.meanFraction), ok ? "ok" : r.gated ? "SKATES" : "not gated"});
            if (!ok) notes += textLine("  " + r.clip->name + ": " + r.note);
        }
        std::fputs((tableText(rows, "  ") + notes).c_str(), stdout);
        std::printf("%s: %d of %zu clips gated, %s %.1f%% of their speed\n", failed ? "FAILED" : "ok", gated,
                    reports.size(), failed ? "not all under" : "all under", 100 * args.maxSkate);
    }
    return failed ? kGateFailed : kOk;
}

}  // namespace rootbake::cli

#endif  // ROOTBAKE_WITH_VERIFY
