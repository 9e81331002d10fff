// What `rootbake verify` replays, however it got it: the baked files read back and checked
// against each other (verify), or the bake just made, in memory (bake --verify). Per sidecar
// clip: the in-place clip as the baked asset plays it, the source clip and the motion track with
// its nodes found in the baked rig; then each clip measured (measureSkate) and judged (judge).
// The command (src/cli/verify.cpp) only checks its arguments and prints.
#pragma once

#include "pipeline/bake.h"
#include "verify/verify.h"

#include <optional>
#include <string>
#include <vector>

namespace rootbake::verify {

// The files verify reads, named as its messages name them.
struct Files {
    std::string baked;           // the in-place asset bake wrote
    std::string sidecar;         // its sidecar
    std::string source;          // the original asset; empty: none
    bool sidecarBeside = false;  // not given but found beside the asset: a read error says to give it
};

// The three files, each checked against the others: the source is the sidecar's input by its
// sha256, with as many animations as the sidecar has clips.
struct Inputs {
    gltf::Asset baked;
    Sidecar sidecar;
    std::optional<gltf::Asset> source;
};
Result<Inputs> loadInputs(const Files& files);

// What verify says of one sidecar clip.
struct ClipReport {
    ClipMotion motion;           // the sidecar's clip (name, animation, source...), nodes in the baked rig
    bool contactsFound = false;  // the sidecar names no contact: the analysis's candidates
    bool hasRoot = false;        // the sidecar names a root node
    ClipSkate skate;
    bool measured = false;
    bool gated = false;  // travels: its mean is held to the limit
    bool passed = true;
    std::string note;
};

// Per sidecar clip: the in-place clip as the baked asset plays it, the source clip (null
// without one) and the report, whose motion views the sidecar's clip. The source clips point
// into `sources` when the replay owns them (bake --verify), else into the Inputs; the Inputs
// (or the Baked) outlive the replay.
struct Replay {
    const Rig* rig = nullptr;
    std::vector<Clip> played;
    std::vector<Clip> sources;
    std::vector<const Clip*> source;
    std::vector<ClipReport> reports;
};

// verify: every sidecar clip checked against the baked asset before anything is measured. With
// a root bone (Sidecar::hasRootBone), which carries the motion the runtime applies, the baked
// clips play without its keys and the source's clips play on the baked rig (playUnderRootBone):
// `inputs` is changed so. Errors name the sidecar and the clip's path in it.
Result<Replay> replayFiles(Inputs& inputs, const Files& files);

// bake --verify, from memory: the asset as loaded, its clips made in place as the output holds
// them, moved by the tracks of the typed sidecar the bake wrote (Baked::document). A root bone
// bake found in the asset already plays at rest, its children's source keys moved under it.
// sidecarName is for messages.
Result<Replay> replayBake(const gltf::Asset& asset, const pipeline::Baked& baked, const std::string& sidecarName);

// Replays clip i and judges it (judge, with maxDrift); a single pose is not replayed. The error
// names the sidecar's clip.
Status measureClip(Replay& replay, std::size_t i, const Settings& settings, double maxDrift,
                   const std::string& sidecarName);

}  // namespace rootbake::verify
