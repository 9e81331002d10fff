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
    std::string source;        // "root", "footContact" or "none"
    double duration = 0.0;     // s
    glm::dvec3 stride{0.0};    // net travel over one cycle, scene space, m
    double strideLength = 0.0; // m, along the direction of travel
    double turn = 0.0;         // rad per cycle, about +Y
    double averageSpeed = 0.0; // m/s
    bool extractsRotation = false;
};

struct BipedOptions {
    int extraJoints = 0;          // joints added to the spine and fingers (the bench's wide rigs)
    int clipCopies = 1;           // each clip written this many times (the bench's many-clip assets)
    double durationScale = 1.0;   // stretches every clip (the bench's long clips)
    std::uint64_t meshBytes = 0;  // opaque vertex bytes added as a mesh (the bench's large asset)
};

// The asset as a glTF document (JSON text) and one binary buffer.
struct Biped {
    std::string json;               // buffers[0] has no uri: the GLB BIN chunk
    std::vector<std::uint8_t> bin;  // buffers[0] bytes
    std::vector<ClipTruth> truth;   // one per animation, same order
};

Biped makeBiped(const BipedOptions& options = {});

// The same asset in the three containers a loader must accept.
std::vector<std::uint8_t> toGlb(const Biped& biped);
std::string toGltfWithDataUri(const Biped& biped);
// Returns the .gltf text whose buffers[0].uri is binFileName; the .bin bytes are biped.bin.
std::string toGltfWithBin(const Biped& biped, const std::string& binFileName);

}  // namespace rootbake::samples
