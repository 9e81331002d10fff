// rootbake: the offline API. Plain data in, plain data out; links glm only.
//
// Data flow: a loader (src/gltf) fills a Rig and Clips, the core samples and
// analyses them (analyzeClip), and writers turn the results into files. Nothing
// here reads or writes a file, and nothing here can fail on data the loader
// accepted: every index and range is validated once, at the boundary.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace rootbake {

// ---- rig -------------------------------------------------------------------

struct Transform {
    glm::dvec3 translation{0.0};
    glm::dquat rotation{1.0, 0.0, 0.0, 0.0};  // w, x, y, z
    glm::dvec3 scale{1.0};
};

glm::dmat4 toMatrix(const Transform& t);

// The node hierarchy in parent-first order: parent[i] < i for every node with a
// parent, so local-to-scene is one forward loop. Indices are rig indices; the
// glTF index of rig node i is gltfIndex[i].
struct Rig {
    std::vector<int> parent;            // rig index, -1 for a node without a parent
    std::vector<Transform> rest;        // local TRS from the file (a `matrix` decomposed)
    std::vector<std::string> name;      // may be empty
    std::vector<int> gltfIndex;         // index in the file's nodes[]
    std::vector<std::uint8_t> hasMesh;  // 1 when the node carries a mesh
    std::vector<int> rigIndexOfGltf;    // inverse of gltfIndex

    int size() const { return static_cast<int>(parent.size()); }
};

// A printable name for rig node i: its glTF name, else "nodes[N]".
std::string nodeLabel(const Rig& rig, int node);

// ---- clips -----------------------------------------------------------------

enum class Path : std::uint8_t { Translation, Rotation, Scale };
enum class Interpolation : std::uint8_t { Step, Linear, CubicSpline };

// One animated property of one node. Values are decoded to float (normalized
// integers of KHR_mesh_quantization already divided out); a key holds
// `width()` floats, and a CUBICSPLINE key holds three of those in the glTF
// order (in-tangent, value, out-tangent).
struct Channel {
    int node = 0;  // rig index
    Path path = Path::Translation;
    Interpolation interpolation = Interpolation::Linear;
    std::vector<float> times;   // seconds, finite, non-negative, strictly increasing
    std::vector<float> values;  // times.size() * width() (* 3 for CUBICSPLINE)
    int gltfChannel = 0;        // index in the file's animations[a].channels[]
    int gltfSampler = 0;        // index in the file's animations[a].samplers[]

    int width() const { return path == Path::Rotation ? 4 : 3; }
    int keyCount() const { return static_cast<int>(times.size()); }
};

struct Clip {
    std::string name;  // may be empty
    int gltfIndex = 0;
    std::vector<Channel> channels;  // node TRS channels only
    // Channels the analysis does not read (morph `weights`, channels without a
    // target node, KHR_animation_pointer): kept by the writer, counted here.
    int otherChannels = 0;
    double start = 0.0;  // first key time over all of the clip's samplers, s
    double end = 0.0;    // last key time over all of the clip's samplers, s
};

// ---- sampling and poses -----------------------------------------------------

// A forward cursor: the key interval last used. Sampling at increasing times
// costs amortized O(1); a time before the cursor restarts the search.
struct ChannelCursor {
    int key = 0;
};

// Samples a channel at time t (s), exactly as the glTF 2.0 spec interpolates:
// STEP, LINEAR (shortest-path slerp for rotations), CUBICSPLINE (Hermite with
// tangents scaled by the key interval; rotations normalized), clamped outside
// the keys. Writes width() doubles to out.
void sampleChannel(const Channel& channel, double t, ChannelCursor& cursor, double* out);
void sampleChannel(const Channel& channel, double t, double* out);

// Evaluates local transforms of every node at one time: starts from the rest
// pose and overwrites each animated property. cursors has one entry per channel.
void sampleLocalPose(const Rig& rig, const Clip& clip, double t, std::span<ChannelCursor> cursors,
                     std::span<Transform> local);

// Local-to-scene matrices of every node, one forward pass.
void localToScene(const Rig& rig, std::span<const Transform> local, std::span<glm::dmat4> scene);

}  // namespace rootbake
