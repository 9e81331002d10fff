// Reads rootbake's JSON sidecar (docs/sidecar.md) back into plain data: per clip
// its name, animation index, duration, up axis and the motion track, in owned
// storage a runtime::Track points into. Everything the runtime relies on is
// validated here, once; an error names the file and the JSON path:
// "walk.rootmotion.json: clips[2].track.translation[5]: expected 3 numbers".
#pragma once

#include "rootbake/result.h"
#include "rootbake/runtime.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace rootbake {

// A node of the output file: {"name", "index"} in the sidecar.
struct SidecarNode {
    std::string name;  // may be empty
    int index = -1;    // glTF index in the output's nodes[]
};

struct SidecarContact {
    SidecarNode node;
    std::vector<std::array<double, 2>> planted;  // s, [start, end] from the clip start
};

struct SidecarClip {
    std::string name;
    int animation = 0;                                   // index in the output file's animations[]
    std::string source;                                  // "root", "footContact" or "none"
    bool hasRootNode = false, hasCharacterNode = false;  // false: null in the sidecar
    SidecarNode rootNode, characterNode;                 // characterNode absent: the glTF scene space
    std::vector<SidecarNode> contactNodes;
    double from = 0, to = 0;     // s, the range analysed
    double duration = 0;         // s, the loop length; 0 for a clip of one pose (then the track is empty)
    double characterHeight = 0;  // scene units
    std::array<double, 3> upAxis{0, 1, 0};           // the document's, unit, character space
    std::array<double, 3> travelDirection{0, 0, 1};  // unit, character space
    std::array<double, 3> stride{0, 0, 0};           // per cycle, character space
    double strideLength = 0;                         // along travelDirection, per cycle
    double turn = 0;                                 // rad per cycle about upAxis
    bool extractsRotation = false;
    double averageSpeed = 0;          // units/s
    double averageAngularSpeed = 0;   // rad/s
    double sampleRate = 0;            // track samples per second of clip time
    std::vector<double> times;        // s, strictly increasing, first 0, last = duration
    std::vector<double> translation;  // x, y, z per key, flat
    std::vector<double> yaw;          // rad per key; empty when the sidecar gives none
    std::vector<SidecarContact> contacts;

    // Spans into this clip's vectors: valid while the clip lives and its vectors are
    // not reassigned (moving the clip keeps them). Passes runtime::validateTrack
    // unless duration is 0.
    runtime::Track track() const {
        runtime::Track t;
        t.times = times;
        t.translation = translation;
        t.yaw = yaw;
        t.upAxis = {upAxis[0], upAxis[1], upAxis[2]};
        t.duration = duration;
        return t;
    }
};

struct Sidecar {
    std::string schema, generator, input, inputSha256, output, units;
    std::array<double, 3> upAxis{0, 1, 0};  // normalized
    std::vector<SidecarClip> clips;         // the input's animation order
};

// Parses and validates a sidecar document. fileName is only for messages.
// Fields rootbake writes and this returns are required; unknown fields are
// ignored (a later minor version may add some). The schema must be
// "rootbake.sidecar/1".
Result<Sidecar> parseSidecar(std::string_view text, const std::string& fileName);

}  // namespace rootbake
