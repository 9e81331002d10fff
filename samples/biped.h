// A procedural biped with clips whose root motion is known in closed form.
// The truth of each clip is documented in samples/README.md and returned with
// the asset, so tests compare the analysis with the formula, not with itself.
#pragma once

#include <glm/vec3.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace rootbake::samples {

struct ClipTruth {
    std::string name;
    std::string source;         // "root", "footContact" or "none"
    double duration = 0.0;      // s
    glm::dvec3 stride{0.0};     // net travel over one cycle, scene space, m
    double strideLength = 0.0;  // m, along the direction of travel
    double turn = 0.0;          // rad per cycle, about +Y (+Z turns towards +X)
    double averageSpeed = 0.0;  // m/s, strideLength / duration
    bool extractsRotation = false;
    glm::dvec3 travelDirection{0.0, 0.0, 1.0};  // unit, scene space; +Z where there is no travel
    std::vector<std::string> contactNodes;      // the planted leaves, for footContact clips only
};

struct BipedOptions {
    int extraJoints = 0;          // animated finger joints added to the hands (the bench's wide rigs)
    int clipCopies = 1;           // each clip written this many times (the bench's many-clip assets)
    int clipCount = 0;            // > 0: exactly this many clips, the seven in turn (overrides clipCopies)
    double durationScale = 1.0;   // slows every clip down: same stride and turn, duration x this
    std::uint64_t meshBytes = 0;  // opaque vertex bytes added as a mesh (the bench's large asset)
    bool runStudy = false;        // the clips are the run study's 54 in-place runs (samples/README.md), not the seven
    bool gaitStudy = false;       // the clips are the gait study's 24 in-place gaits (samples/README.md)
};

// The asset as a glTF document (JSON text) and one binary buffer.
struct Biped {
    std::string json;               // buffers[0] has no uri: the GLB BIN chunk
    std::vector<std::uint8_t> bin;  // buffers[0] bytes
    std::vector<ClipTruth> truth;   // one per animation, same order
    std::string rootNode = "Hips";  // the position-animated joint with the most animated descendants
    double height = 1.7;            // m, rest pose: toes at y = 0, HeadTop at y = 1.7
};

Biped makeBiped(const BipedOptions& options = {});

// The same asset in the three containers a loader must accept.
std::vector<std::uint8_t> toGlb(const Biped& biped);
std::string toGltfWithDataUri(const Biped& biped);
// Returns the .gltf text whose buffers[0].uri is binFileName; the .bin bytes are biped.bin.
std::string toGltfWithBin(const Biped& biped, const std::string& binFileName);

}  // namespace rootbake::samples
