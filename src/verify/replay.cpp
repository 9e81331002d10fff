#include "verify/replay.h"

#include "io/read_file.h"
#include "io/sha256.h"
#include "pipeline/pipeline.h"
#include "pipeline/sidecar.h"
#include "edit/edit.h"

#include <algorithm>

namespace rootbake::verify {

namespace {

std::string counted(std::size_t count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

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

// The original asset: the sidecar's input by its sha256, with as many animations as it has clips.
Result<gltf::Asset> loadSource(const Files& files, const Sidecar& sidecar) {
    // Read once: hashed, then loaded from the same bytes.
    auto bytes = gltf::readAssetFile(files.source);
    if (!bytes) return bytes.error();
    if (io::sha256Hex(*bytes) != sidecar.inputSha256)
        return Error{files.source + ": not the input of " + files.sidecar +
                     " (its sha256 is not the sidecar's inputSha256)"};
    auto loaded = pipeline::loadAssetBytes(*bytes, files.source, {});
    if (!loaded) return loaded.error();
    // The sidecar's clips are in the input's animation order.
    if (loaded->clips.size() != sidecar.clips.size())
        return Error{files.sidecar + ": " + counted(sidecar.clips.size(), "clip", "clips") + ", but " +
                     files.source + " has " + counted(loaded->clips.size(), "animation", "animations")};
    return loaded;
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
Status playUnderRootBone(const std::string& sidecarName, Inputs& inputs) {
    const Rig& rig = inputs.baked.rig;
    auto bone = rigNode(rig, inputs.sidecar.rootBone, sidecarName, "rootBone");
    if (!bone) return bone.error();
    for (Clip& clip : inputs.baked.clips)
        std::erase_if(clip.channels, [&](const Channel& channel) { return channel.node == *bone; });
    if (!inputs.source) return Ok{};
    const bool reused = reusedFromSource(inputs.source->rig, inputs.sidecar);
    for (Clip& clip : inputs.source->clips)
        for (Channel& channel : clip.channels) {
            channel.node = rig.rigIndexOfGltf[inputs.source->rig.gltfIndex[channel.node]];
            if (!reused && channel.path == Path::Translation && rig.parent[channel.node] == *bone)
                edit::moveUnderRootBone(channel.values, channel.interpolation, rig.rest[*bone].translation);
        }
    return Ok{};
}

// A sidecar clip as the replay takes it, its nodes found in the baked rig, with the contacts
// the analysis's candidates when the sidecar names none. `played` is the baked clip it moves;
// path: "clips[i]", for messages.
Result<ClipReport> reportOf(const Rig& rig, const SidecarClip& c, const Clip& played,
                            const std::string& sidecarName, const std::string& path) {
    ClipReport report;
    ClipMotion& m = report.motion;
    m.clip = &c;
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
    report.hasRoot = root >= 0;
    if (m.contacts.empty() && c.duration > 0) {
        m.contacts = findContactCandidates(rig, played, root, m.character, m.upAxis());
        report.contactsFound = true;
    }
    return report;
}

// The baked clip sidecar clip i moves: its animation, checked against the baked asset.
Result<const Clip*> playedClip(const Files& files, const Inputs& inputs, std::size_t i) {
    const SidecarClip& c = inputs.sidecar.clips[i];
    const std::string path = "clips[" + std::to_string(i) + "]";
    if (c.animation >= static_cast<int>(inputs.baked.clips.size()))
        return Error{files.sidecar + ": " + path + ".animation: " + std::to_string(c.animation) +
                     " out of range (" + files.baked + " has " + std::to_string(inputs.baked.clips.size()) +
                     " animations)"};
    // An unnamed clip is "animations[N]" (N the input's index, which is the output's unless
    // --keep-source names the copy); blank in sidecars of rootbake 0.1.0.
    const Clip& played = inputs.baked.clips[c.animation];
    if (clipName(played) != c.name && !(c.name.empty() && played.name.empty()))
        return Error{files.sidecar + ": " + path + ": animation " + std::to_string(c.animation) + " of " +
                     files.baked + " is \"" + clipName(played) + "\", not \"" + c.name + "\""};
    return &played;
}

// The root bone bake found in the asset already (--root-bone naming the root): its keys carry
// the motion, so the baked clip plays without them, and the source's keys under it move as
// playUnderRootBone moves them. -1: none, or a new bone (the source rig plays the same motion).
int rootBoneAlready(const gltf::Asset& asset, const pipeline::Baked& baked) {
    if (baked.rootBone < 0 || !baked.rootBoneWasPresent) return -1;
    return asset.rig.rigIndexOfGltf[baked.rootBone];
}

}  // namespace

Result<Inputs> loadInputs(const Files& files) {
    auto baked = pipeline::loadAsset(files.baked, {}, false);
    if (!baked) return baked.error();
    auto text = io::readFileText(files.sidecar, {pipeline::kMaxSidecarBytes, ""});
    if (!text)
        return Error{files.sidecar + ": " + text.error().message +
                     (files.sidecarBeside ? " (give the sidecar with --sidecar)" : "")};
    auto sidecar = parseSidecar(*text, files.sidecar);
    if (!sidecar) return sidecar.error();
    Inputs inputs{std::move(baked->asset), std::move(*sidecar), std::nullopt};
    if (!files.source.empty()) {
        auto source = loadSource(files, inputs.sidecar);
        if (!source) return source.error();
        inputs.source = std::move(*source);
    }
    return inputs;
}

Result<Replay> replayFiles(Inputs& inputs, const Files& files) {
    if (inputs.sidecar.hasRootBone)
        if (Status played = playUnderRootBone(files.sidecar, inputs); !played) return played.error();
    const std::size_t clips = inputs.sidecar.clips.size();
    Replay replay;
    replay.rig = &inputs.baked.rig;
    for (std::size_t i = 0; i < clips; ++i) {
        auto played = playedClip(files, inputs, i);
        if (!played) return played.error();
        auto report = reportOf(inputs.baked.rig, inputs.sidecar.clips[i], **played, files.sidecar,
                               "clips[" + std::to_string(i) + "]");
        if (!report) return report.error();
        replay.reports.push_back(std::move(*report));
    }
    for (std::size_t i = 0; i < clips; ++i) {
        replay.played.push_back(inputs.baked.clips[inputs.sidecar.clips[i].animation]);
        replay.source.push_back(inputs.source ? &inputs.source->clips[i] : nullptr);
    }
    return replay;
}

Result<Replay> replayBake(const gltf::Asset& asset, const pipeline::Baked& baked, const std::string& sidecarName) {
    Replay replay;
    replay.rig = &asset.rig;
    const int bone = rootBoneAlready(asset, baked);
    for (std::size_t i = 0; i < asset.clips.size(); ++i) {
        const Clip& clip = asset.clips[i];
        Clip played = applyInPlace(clip, baked.clips[i].channels);
        std::erase_if(played.channels, [&](const Channel& channel) { return channel.node == bone; });
        auto report = reportOf(asset.rig, baked.document.sidecar.clips[i], played, sidecarName,
                               "clips[" + std::to_string(i) + "]");
        if (!report) return report.error();
        replay.played.push_back(std::move(played));
        replay.reports.push_back(std::move(*report));
        replay.sources.push_back(clip);  // with a root bone found in the asset: its children's keys under it
        if (bone >= 0)
            for (Channel& channel : replay.sources.back().channels)
                if (channel.path == Path::Translation && asset.rig.parent[channel.node] == bone)
                    edit::moveUnderRootBone(channel.values, channel.interpolation,
                                      asset.rig.rest[bone].translation);
    }
    for (const Clip& clip : replay.sources) replay.source.push_back(&clip);
    return replay;
}

Status measureClip(Replay& replay, std::size_t i, const Settings& settings, double maxDrift,
                   const std::string& sidecarName) {
    ClipReport& r = replay.reports[i];
    const SidecarClip& clip = *r.motion.clip;
    if (clip.duration == 0) {
        r.note = "a single pose: nothing to replay";
        return Ok{};
    }
    auto skate = measureSkate(*replay.rig, replay.played[i], r.motion, replay.source[i], settings);
    if (!skate) return Error{sidecarName + ": clips[" + std::to_string(i) + "]: " + skate.error().message};
    r.skate = std::move(*skate);
    r.measured = true;
    const ClipFacts facts{.travels = clip.source != "none" && r.skate.averageSpeed > 0,
                          .rootKeys = clip.source == "root",
                          .hasRoot = r.hasRoot,
                          .hasContacts = !r.motion.contacts.empty()};
    const Verdict verdict = judge(r.skate, facts, maxDrift);
    r.gated = verdict.gated;
    r.passed = verdict.passed;
    r.note = verdict.note;
    return Ok{};
}

}  // namespace rootbake::verify
