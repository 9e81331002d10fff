// The JSON sidecar (docs/sidecar.md, schema/sidecar.schema.json): one document
// per asset with each clip's analysis, motion track and loop seam. `inspect
// --json` prints the same clip objects.
#pragma once

#include "rootbake/bake.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rootbake {

inline constexpr const char* kSidecarSchema = "rootbake.sidecar/1";

// One clip object of the sidecar. animationIndex and name are the clip's in
// the output (with --keep-source, the "<name> (in place)" copy's).
nlohmann::ordered_json clipToJson(const Rig& rig, const ClipAnalysis& analysis, const LoopSeam& loop,
                                  int animationIndex, const std::string& name);

// A node reference: {"name", "index"} (glTF index; the name nodeLabel's, "nodes[N]"
// for a node without one), or null for -1.
nlohmann::ordered_json nodeRef(const Rig& rig, int node);

// What the document says about the files, besides the clips.
struct SidecarHeader {
    std::string generator;    // "rootbake <version>"
    std::string input;        // file name only
    std::string inputSha256;  // hex of the input file's bytes
    std::string output;       // file name only
    nlohmann::ordered_json rootBone;  // the node bake --root-bone inserted, {"name", "index"}; null: none
    glm::dvec3 upAxis{0.0, 1.0, 0.0};
};

nlohmann::ordered_json sidecarToJson(const SidecarHeader& header, nlohmann::ordered_json clips);

}  // namespace rootbake
