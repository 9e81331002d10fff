// The loader's parts, grouped by the file that implements them (the header
// reads as the loader's table of contents). Only src/gltf/, the layers above that
// edit and frame the document (src/edit, src/write) and the loader's tests include this.
//
// Why no tinygltf: the brief allowed parsing with nlohmann directly where
// tinygltf 2.7.0 is weaker, and for what we need it is weaker everywhere:
//  - Asset::document must be an ordered_json of the file (key order kept), so
//    the JSON is parsed by nlohmann anyway; tinygltf would parse it a second
//    time into a Model we never use (we need nodes and animations only).
//  - Its errors name no JSON path, and it silently skips optional properties of
//    the wrong type, so its Model and our document could disagree.
//  - It does not range-check animation sampler/target indices (STYLE.md), and
//    its GLB reader does not check the version or length == file size, and
//    bounds the BIN chunk without its 8-byte header.
//  - Every check the brief lists would be ours either way.
// So the whole loader is nlohmann + our own GLB, URI and accessor code, and
// tiny_gltf.h is not included anywhere.
#pragma once

#include "gltf/asset.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rootbake::gltf {

using Json = nlohmann::ordered_json;
using Bytes = std::span<const std::uint8_t>;

// ---- json.cpp: parsing and typed access ------------------------------------

// A JSON path kept on the stack and formatted only for a message:
// Where(Where(Where(root, "animations"), 2), "channels")... -> "animations[2].channels".
class Where {
public:
    explicit Where(const char* top) : key_(top) {}  // a named root: "JSON", "GLB header"
    Where(const Where& parent, const char* key) : parent_(&parent), key_(key) {}
    Where(const Where& parent, std::size_t index) : parent_(&parent), index_(index) {}
    std::string str() const;

private:
    const Where* parent_ = nullptr;
    const char* key_ = nullptr;  // nullptr: an array element
    std::size_t index_ = 0;
};

// The document root: its children print as "nodes", not ".nodes".
inline const Where kRoot{""};

// "<path>: <what>"; loadAssetFromMemory puts the file name in front.
Error fail(const Where& at, const std::string& what);

// A count, index or byte offset as messages print it.
inline std::string n(std::uint64_t v) {
    return std::to_string(v);
}

// Parses a JSON text: refuses a byte order mark, nesting deeper than maxDepth,
// and a top level that is not an object.
Result<Json> parseJson(Bytes text, int maxDepth);

// Typed access. A missing optional property leaves `out` as it was; a missing
// required one, or one of the wrong type, is an error naming parent.key.
const Json* member(const Json& object, const char* key);  // nullptr when absent
Status getObject(const Json& object, const Where& at, const char* key, bool required, const Json*& out);
Status getArray(const Json& object, const Where& at, const char* key, bool required, const Json*& out);
Status getString(const Json& object, const Where& at, const char* key, bool required,
                 const std::string*& out);
Status getBool(const Json& object, const Where& at, const char* key, bool& out);
// A non-negative integer (1.0 written for 1 is accepted, as the validator does).
Status getUint(const Json& object, const Where& at, const char* key, bool required, std::uint64_t& out);
Status toUint(const Json& value, const Where& at, std::uint64_t& out);
// An index into a collection of `count` `noun` ("3 samplers"); -1 when absent.
Status getIndex(const Json& object, const Where& at, const char* key, bool required, std::size_t count,
                const char* noun, int& out);
Status toIndex(const Json& value, const Where& at, std::size_t count, const char* noun, int& out);
// Exactly n finite numbers.
Status getNumbers(const Json& object, const Where& at, const char* key, std::size_t n, double* out);
// A top-level collection: absent, or an array of objects.
Status getCollection(const Json& document, const char* key, const Json*& out);
std::size_t sizeOf(const Json* array);  // 0 for nullptr

// ---- glb.cpp: the binary container -----------------------------------------

bool looksLikeGlb(Bytes bytes);  // starts with the magic "glTF"
struct GlbChunks {
    Bytes json;
    Bytes bin;
    bool hasBin = false;
};
// Checks the header (magic, version 2, length = size), every chunk's length and
// 4-byte alignment, JSON first, at most one BIN and only second.
Result<GlbChunks> splitGlb(Bytes bytes);

// ---- uri.cpp: data: URIs and files beside the asset -------------------------

bool isDataUri(std::string_view uri);
// A base64 data: URI of a buffer (application/octet-stream or gltf-buffer).
Status decodeDataUri(std::string_view uri, const Where& at, std::vector<std::uint8_t>& out);
// A relative URI made into a path inside folder: refuses schemes, absolute
// paths, escapes from the folder (after normalisation, and through symlinks)
// and anything that is not an existing regular file. *missing is set when the
// file is refused only because it does not exist.
Result<std::filesystem::path> resolveUri(std::string_view uri, const std::filesystem::path& folder,
                                         const Where& at, bool* missing = nullptr);
// Reads the first `bytes` bytes of a file; refuses a shorter file.
Status readFilePrefix(const std::filesystem::path& file, std::string_view uri, std::uint64_t bytes,
                      const Where& at, io::SharedBytes& out);

// ---- validate.cpp, validate_layout.cpp, validate_animations.cpp: structure, indices and byte ranges

struct BufferLayout {
    std::uint64_t byteLength = 0;
    const std::string* uri = nullptr;  // nullptr: the GLB BIN chunk, or no data
    // No bytes behind it: no uri outside a GLB's buffers[0] (an extension such
    // as EXT_meshopt_compression's fallback, or the application, supplies them).
    bool noData = false;
};
struct ViewLayout {
    int buffer = 0;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;
    std::uint32_t stride = 0;  // 0: tightly packed
    bool compressed = false;   // EXT_meshopt_compression: bytes are not in `buffer`
};
struct AccessorLayout {
    int view = -1;  // -1: zeros (then sparse, if any)
    std::uint64_t offset = 0;
    int componentType = 0;
    bool normalized = false;
    std::uint64_t count = 0;
    int components = 0;             // 1 (SCALAR) .. 16 (MAT4)
    int rows = 0;                   // components per column (matrices), else components
    int componentSize = 0;          // bytes
    int columnStride = 0;           // bytes between matrix columns (4-byte padded)
    int elementSize = 0;            // bytes of one element, padding included
    int lastSize = 0;               // bytes the last element needs (no padding after its last column)
    std::uint32_t stride = 0;       // bytes between elements
    std::uint64_t sparseCount = 0;  // 0: not sparse
    int sparseIndexView = -1;
    std::uint64_t sparseIndexOffset = 0;
    int sparseIndexType = 0;
    int sparseValueView = -1;
    std::uint64_t sparseValueOffset = 0;
};
struct SamplerLayout {
    int input = 0;   // accessor
    int output = 0;  // accessor
    Interpolation interpolation = Interpolation::Linear;
};
struct ChannelLayout {
    int sampler = 0;
    int node = -1;     // glTF node index; -1 for channels the analysis does not read
    bool trs = false;  // a node translation/rotation/scale channel (else kept aside)
    Path path = Path::Translation;
};
struct AnimationLayout {
    std::vector<SamplerLayout> samplers;
    std::vector<ChannelLayout> channels;
};
struct Layout {
    std::vector<BufferLayout> buffers;
    std::vector<ViewLayout> views;
    std::vector<AccessorLayout> accessors;
    std::vector<AnimationLayout> animations;
};

// glTF's componentType values (glTF 2.0 section 3.6.2.2).
constexpr int kByte = 5120, kUnsignedByte = 5121, kShort = 5122, kUnsignedShort = 5123, kUnsignedInt = 5125,
              kFloat = 5126;

// validate.cpp: everything that needs no buffer bytes, in document order: the asset object,
// collection types, buffers/bufferViews/accessors (indices and byte ranges
// against declared lengths, overflow-safe), meshes, skins, images, textures,
// materials, and the animations (indices, accessor formats and counts,
// duplicate targets). Nodes and scenes are buildRig's.
Status validateDocument(const Json& document, bool binary, const LoadLimits& limits, Layout& layout);
// validate_layout.cpp: buffers, bufferViews and accessors (indices and byte ranges against
// declared lengths, overflow-safe) into layout's tables; validateDocument's first step.
Status validateLayout(const Json& document, bool binary, const LoadLimits& limits, Layout& layout);
// "VEC3 normalized UNSIGNED_SHORT", for messages.
std::string accessorFormat(const AccessorLayout& a);
// validate_animations.cpp: the animations against layout's accessors (indices, output formats
// and counts, a node path animated twice, the key data within maxKeyBytes) into layout.animations.
Status validateAnimations(const Json* animations, const LoadLimits& limits, std::size_t nodes,
                          Layout& layout);
// Builds the buffer/bufferView/accessor tables alone (no limits, no other
// objects): for decodeAccessor on an Asset already validated.
Status describeAccessors(const Json& document, Layout& layout);
// Checks against the bytes (each buffer already holds byteLength bytes):
// sparse indices are in range and strictly increasing.
Status validateData(const Layout& layout, const std::vector<io::SharedBytes>& buffers);
// The same for one sparse accessor's indices at p (a decoded view's bytes, for one that was not
// in its buffer); errors name accessorAt.sparse.indices[k].
Status checkSparseIndices(const AccessorLayout& a, const std::uint8_t* p, const Where& accessorAt);

// ---- accessor.cpp: decoding ------------------------------------------------

// The views an accessor reads: its own, its sparse indices' and values' (-1: none).
std::array<int, 3> viewsOf(const AccessorLayout& a);
// Whether a view's bytes are in its buffer as they are read: not meshopt-compressed, and in a
// buffer that has data (a compressed view's fallback buffer has none).
bool holdsBytes(const Layout& layout, int view);

// Bytes that stand in for bufferViews whose own cannot be read: decoded[v], when not empty,
// is bufferViews[v]'s content (byteLength bytes, meshopt-decoded), read instead of its buffer.
using DecodedViews = std::span<const std::vector<std::uint8_t>>;
// Why the accessor's bytes cannot be read (a meshopt-compressed view not decoded, a buffer
// without data), or nullptr when they can.
const char* missingBytes(const Layout& layout, const AccessorLayout& accessor, DecodedViews decoded = {});
// Decodes an accessor validated by validateDocument/validateData to floats:
// byteStride applied, matrix column padding skipped, normalized integers
// divided out (glTF 2.0 section 3.11), sparse values substituted. out gets
// count * components floats; its storage is reused.
void decodeAccessor(const Layout& layout, const AccessorLayout& accessor,
                    const std::vector<io::SharedBytes>& buffers, std::vector<float>& out,
                    DecodedViews decoded = {});
// The same for accessors[index] of a loaded Asset (tests, writers).
Result<std::vector<float>> decodeAccessor(const Asset& asset, int index);

// ---- rig.cpp, clips.cpp: Rig and Clips ----------------------------------------

// Decomposes a column-major glTF matrix into TRS; false when it is not one
// (projection row, shear, non-finite).
bool decomposeMatrix(const double m[16], Transform& out);
// Nodes -> Rig (validates the node objects, two parents, cycles, depth, scene roots).
Status buildRig(const Json& document, const LoadLimits& limits, Rig& rig);
// The nodes a VRM animation's expressions read (VRMC_vrm_animation), marked on the rig.
Status readExpressionNodes(const Json& document, Rig& rig);
// clips.cpp: animations -> Clips (key data: times, counts, finiteness).
// Repeated key times are kept (a step to the later key) with a warning.
Status buildClips(const Json& document, const Layout& layout, const std::vector<io::SharedBytes>& buffers,
                  const Rig& rig, std::vector<Clip>& clips, std::vector<std::string>& warnings);

// ---- surface.cpp: the body's mesh for the analysis ---------------------------

// Rig::skins, and Rig::surface from the meshes' vertices (skinned: each vertex with its
// heaviest joint; rigid: with the joint it hangs from), Draco and meshopt meshes decoded.
// A mesh that cannot be read leaves the surface empty with a note (and a warning when a
// compressed stream fails); a vertex weighted to a joint the skin lacks is left out with a
// warning.
Status buildSurface(const Json& document, const Layout& layout, const std::vector<io::SharedBytes>& buffers,
                    Rig& rig, std::vector<std::string>& warnings);

// ---- draco.cpp: KHR_draco_mesh_compression, for the analysis -------------------

struct DecodedVertices {
    std::vector<float> positions;        // 3 per vertex
    std::vector<float> joints, weights;  // 4 per vertex, when `weighted`
    bool weighted = false;
};
// A Draco-compressed primitive's POSITION, JOINTS_0 and WEIGHTS_0 (the extension object given),
// at most maxPoints vertices; nullptr, or why they cannot be read.
const char* decodeDracoVertices(const Json& extension, const Layout& layout,
                                const std::vector<io::SharedBytes>& buffers, std::uint64_t maxPoints,
                                DecodedVertices& out);

// ---- meshopt.cpp: EXT_meshopt_compression / KHR_meshopt_compression, for the analysis --

// A bufferView's meshopt extension object (its name in *name), or nullptr.
const Json* meshoptOf(const Json& view, const char** name = nullptr);
// bufferViews[view]'s bytes (its byteLength) decoded from the extension object given, its filter
// applied; at most maxCount elements, and never more than the stream could hold. nullptr, or
// why they cannot be read (out is then empty). Any stream is safe: the library checks its bounds.
const char* decodeMeshoptView(const Json& extension, const Layout& layout,
                              const std::vector<io::SharedBytes>& buffers, std::size_t view,
                              std::uint64_t maxCount, std::vector<std::uint8_t>& out);
// Decodes into decoded[v] (sized as bufferViews) each meshopt-compressed view that `accessor` reads
// and decoded does not hold yet; views whose bytes are in their buffer are left empty. Empty, or
// why one cannot be read ("bufferViews[3].extensions.EXT_meshopt_compression does not decode").
std::string decodeMeshoptViewsOf(const Json& document, const Layout& layout,
                                 const std::vector<io::SharedBytes>& buffers, const AccessorLayout& accessor,
                                 std::uint64_t maxCount, std::vector<std::vector<std::uint8_t>>& decoded);

// clips.cpp: a warning when every animation moves one node of its own, all joints of one
// skin: an exporter's split of one animation (COLLADA2GLTF).
void warnOfSplitAnimation(const Rig& rig, const std::vector<Clip>& clips, std::vector<std::string>& warnings);

}  // namespace rootbake::gltf

// Returns early with the error of a failed Status or Result.
#define ROOTBAKE_TRY(expr)                                       \
    do {                                                         \
        if (auto try_ = (expr); !try_.ok()) return try_.error(); \
    } while (0)
