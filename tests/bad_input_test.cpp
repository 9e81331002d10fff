// Bad input, as one table: fixture -> expected message substring -> refused.
// Every message must start with the file name and name the offending object.
// Corpus rows cover every file of ../shared/corpus/bad that the loader
// refuses; in-memory rows (a small glTF with a data: URI buffer, edited per
// row) cover each validation rule the corpus does not.
#include "gltf/asset.h"
#include "support.h"

#include <doctest/doctest.h>
#include <meshoptimizer.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include <unistd.h>

using namespace rootbake;
using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

using test::base64;

namespace {

using Bytes = std::vector<std::uint8_t>;

struct Case {
    std::string fixture;           // a path under corpus/bad, or the in-memory file's name
    std::function<Bytes()> bytes;  // in-memory rows: the file's bytes (runs before loading)
    std::string expected;          // substring of the message after "<fixture>: "
    gltf::LoadLimits limits{};
    fs::path folder{};  // in-memory rows: where external URIs resolve (empty: none)
};

Case corpus(std::string path, std::string expected) {
    return {std::move(path), nullptr, std::move(expected)};
}


void putFloat(Bytes& bytes, std::size_t index, float v) {
    std::memcpy(bytes.data() + 4 * index, &v, 4);
}

// A valid asset: root -> hips, one clip translating hips over 3 LINEAR keys.
// Buffer: times [0, 0.5, 1] at 0..12, VEC3 translations at 12..48.
Json baseDocument() {
    return {
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes", {{{"name", "root"}, {"children", {1}}}, {{"name", "hips"}, {"translation", {0, 1, 0}}}}},
        {"buffers", {{{"byteLength", 48}}}},
        {"bufferViews",
         {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 12}},
          {{"buffer", 0}, {"byteOffset", 12}, {"byteLength", 36}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", 5126}, {"count", 3}, {"type", "SCALAR"}},
          {{"bufferView", 1}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}}}},
        {"animations",
         {{{"name", "walk"},
           {"samplers", {{{"input", 0}, {"output", 1}}}},
           {"channels", {{{"sampler", 0}, {"target", {{"node", 1}, {"path", "translation"}}}}}}}}}};
}

Bytes baseBuffer() {
    Bytes bytes(48, 0);
    const float values[12] = {0.0f, 0.5f, 1.0f, 0, 0, 0, 1, 0, 0, 2, 0, 0};
    std::memcpy(bytes.data(), values, sizeof values);
    return bytes;
}

using Edit = std::function<void(Json&, Bytes&)>;

Bytes text(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

// The edited base as .gltf text; buffers[0] gets the data: URI unless the edit gave it a uri.
Bytes gltfBytes(const Edit& edit) {
    Json document = baseDocument();
    Bytes buffer = baseBuffer();
    if (edit) edit(document, buffer);
    if (document.contains("buffers") && !document["buffers"].empty() &&
        !document["buffers"][0].contains("uri"))
        document["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(buffer);
    return text(document.dump());
}

void putU32(Bytes& bytes, std::uint32_t v) {
    const std::uint8_t raw[4] = {std::uint8_t(v), std::uint8_t(v >> 8), std::uint8_t(v >> 16),
                                 std::uint8_t(v >> 24)};
    bytes.insert(bytes.end(), raw, raw + 4);
}

// The base as a GLB with its buffer in the BIN chunk.
Bytes glbBytes() {
    std::string json = baseDocument().dump();
    while (json.size() % 4) json += ' ';
    const Bytes bin = baseBuffer();
    Bytes out;
    putU32(out, 0x46546C67);
    putU32(out, 2);
    putU32(out, static_cast<std::uint32_t>(12 + 8 + json.size() + 8 + bin.size()));
    putU32(out, static_cast<std::uint32_t>(json.size()));
    putU32(out, 0x4E4F534A);
    out.insert(out.end(), json.begin(), json.end());
    putU32(out, static_cast<std::uint32_t>(bin.size()));
    putU32(out, 0x004E4942);
    out.insert(out.end(), bin.begin(), bin.end());
    return out;
}

void setU32(Bytes& bytes, std::size_t offset, std::uint32_t v) {
    std::memcpy(bytes.data() + offset, &v, 4);
}

// bufferViews[0] (the 3 key times) as gltfpack -c writes it: its EXT_meshopt_compression stream
// (ATTRIBUTES, no filter) after the keys in buffers[0], the view moved to a fallback buffer without
// data; `breakIt` edits the extension object and the stream before they are written.
Edit meshoptTimes(std::function<void(Json& extension, Bytes& stream)> breakIt) {
    return [breakIt](Json& d, Bytes& b) {
        Bytes stream(meshopt_encodeVertexBufferBound(3, 4));
        stream.resize(meshopt_encodeVertexBuffer(stream.data(), stream.size(), b.data(), 3, 4));
        Json extension{
            {"buffer", 0}, {"byteOffset", b.size()}, {"byteLength", stream.size()}, {"byteStride", 4},
            {"count", 3},  {"mode", "ATTRIBUTES"}};
        breakIt(extension, stream);
        b.insert(b.end(), stream.begin(), stream.end());
        d["buffers"][0]["byteLength"] = b.size();
        d["buffers"].push_back({{"byteLength", 12}});
        d["bufferViews"][0] = {
            {"buffer", 1}, {"byteLength", 12}, {"extensions", {{"EXT_meshopt_compression", extension}}}};
        d["extensionsUsed"] = {"EXT_meshopt_compression"};
    };
}

Case memory(std::string name, Edit edit, std::string expected, gltf::LoadLimits limits = {},
            fs::path folder = {}) {
    return {std::move(name), [edit] { return gltfBytes(edit); }, std::move(expected), limits,
            std::move(folder)};
}

Case raw(std::string name, std::function<Bytes()> bytes, std::string expected) {
    return {std::move(name), std::move(bytes), std::move(expected)};
}

Edit uri(const char* value) {
    return [value](Json& d, Bytes&) { d["buffers"][0]["uri"] = value; };
}

gltf::LoadLimits limit(std::function<void(gltf::LoadLimits&)> set) {
    gltf::LoadLimits l;
    set(l);
    return l;
}

const fs::path kData = fs::path(ROOTBAKE_SOURCE_DIR) / "tests" / "data";

// A folder with a symlink that points outside it (made when the row runs).
fs::path symlinkFolder() {
    static const fs::path folder =
        fs::temp_directory_path() / ("rootbake-bad-input-" + std::to_string(::getpid()));
    return folder;
}

Bytes withSymlink() {
    std::error_code ec;
    fs::create_directories(symlinkFolder(), ec);
    fs::remove(symlinkFolder() / "escape.bin", ec);
    fs::create_symlink(kData / "four.bin", symlinkFolder() / "escape.bin", ec);
    return gltfBytes([](Json& d, Bytes&) {
        for (const char* key : {"animations", "accessors", "bufferViews"}) d.erase(key);
        d["buffers"][0] = {{"byteLength", 4}, {"uri", "escape.bin"}};
    });
}

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// clang-format off
const std::vector<Case>& table() {
    static const std::vector<Case> cases = {
        // ---- corpus/bad: every file the loader refuses ----
        corpus("assimp-testmodels/IncorrectVertexArrays/Cube.gltf", "bufferViews[2]: byteOffset 504 + byteLength 432 runs past"),
        corpus("assimp-testmodels/MissingBin/BoxTextured.gltf", "buffers[0].uri: file 'BoxTextured0.bin' not found"),
        corpus("assimp-testmodels/RecursiveNodes/RecursiveNodes.gltf", "nodes[0]: cycle in the node hierarchy: nodes[0] ->"),
        corpus("assimp-testmodels/SchemaFailures/sceneWrongType.gltf", "scene: expected a non-negative integer, got a"),
        corpus("assimp-testmodels/TestNoRootNode/NoScene.gltf", "scene: index 0 out of range (0 scenes)"),
        corpus("assimp-testmodels/wrongTypes/badArray.gltf", "meshes[0].primitives: expected an array, got an object"),
        corpus("assimp-testmodels/wrongTypes/badNumber.gltf", "materials[0].normalTexture.index: missing (required)"),
        corpus("assimp-testmodels/wrongTypes/badObject.gltf", "materials[0].pbrMetallicRoughness: expected an object, got an array"),
        corpus("assimp-testmodels/wrongTypes/badString.gltf", "scenes[0].name: expected a string, got an integer"),
        corpus("assimp-testmodels/wrongTypes/badUint.gltf", "materials[0].pbrMetallicRoughness.baseColorTexture.index: negative (-1)"),
        corpus("gltf-validator/base/data/accessor/alignment.gltf", "accessors[2]: 1 element of 12 bytes from byte 32: past bufferViews[0]'s 16 bytes"),
        corpus("gltf-validator/base/data/accessor/byteoffset_no_bufferview.gltf", "accessors[0].byteOffset: given without a bufferView"),
        corpus("gltf-validator/base/data/accessor/empty_object.gltf", "accessors[0].componentType: missing (required)"),
        corpus("gltf-validator/base/data/accessor/float_normalized.gltf", "accessors[0].normalized: true for FLOAT (only byte and short types"),
        corpus("gltf-validator/base/data/accessor/invalid_sparse_count_and_stride.gltf", "accessors[0].sparse.count: 2 (from 1 to the accessor's count 1)"),
        corpus("gltf-validator/base/data/accessor/matrix_alignment.gltf", "accessors[0]: 2 elements of 8 bytes from byte 1: past bufferViews[0]'s 14 bytes"),
        corpus("gltf-validator/base/data/accessor/small_stride.gltf", "accessors[0]: bufferViews[0].byteStride 4 is smaller than"),
        corpus("gltf-validator/base/data/accessor/unknown_type.gltf", "accessors[0].type: 'NotaVEC3' is not an accessor type"),
        corpus("gltf-validator/base/data/accessor/unresolved_bufferviews.gltf", "accessors[0].bufferView: index 0 out of range (0 bufferViews)"),
        corpus("gltf-validator/base/data/animation/channel_duplicate_targets.gltf", "animations[0].channels[1].target: nodes[0] scale is already animated by"),
        corpus("gltf-validator/base/data/animation/empty_objects.gltf", "animations[0].samplers: missing (required)"),
        corpus("gltf-validator/base/data/animation/sampler_bufferview_bytestride.gltf", "animations[0].samplers[0].input: accessors[0]: its buffer has no data (no"),
        corpus("gltf-validator/base/data/animation/sampler_input_format_invalid.gltf", "animations[0].samplers[0].input: accessors[0] is SCALAR UNSIGNED_INT, not FLOAT"),
        corpus("gltf-validator/base/data/animation/sampler_output_count_invalid.gltf", "animations[0].channels[0].sampler: output accessors[1]: 2 elements for 1 key"),
        corpus("gltf-validator/base/data/animation/sampler_output_format_invalid.gltf", "animations[0].channels[0].sampler: output accessors[1] is VEC4 FLOAT, not VEC3"),
        corpus("gltf-validator/base/data/animation/sampler_too_few_cubic_frames.gltf", "animations[0].samplers[0].input: CUBICSPLINE needs at least 2 keys,"),
        corpus("gltf-validator/base/data/animation/unresolved_channel_sampler.gltf", "animations[0].channels[0].sampler: index 1 out of range (1 samplers)"),
        corpus("gltf-validator/base/data/animation/unresolved_channel_target.gltf", "animations[0].channels[0].target.node: index 0 out of range (0 nodes)"),
        corpus("gltf-validator/base/data/animation/unresolved_sampler_input.gltf", "animations[0].samplers[0].input: index 1 out of range (1 accessors)"),
        corpus("gltf-validator/base/data/animation/unresolved_sampler_output.gltf", "animations[0].samplers[0].output: index 1 out of range (1 accessors)"),
        corpus("gltf-validator/base/data/animation/valid.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/base/data/animation_data/invalid_input_values.gltf", "animations[0].samplers[0].input: accessors[0] key 0: time -1 is negative"),
        corpus("gltf-validator/base/data/animation_data/quaternion_cubic_non_unit_values.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/base/data/animation_data/quaternion_non_unit_values.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/base/data/buffer/empty_object.gltf", "buffers[0].byteLength: missing (required)"),
        corpus("gltf-validator/base/data/buffer/invalid_object.gltf", "buffers[0]: expected an object, got an array"),
        corpus("gltf-validator/base/data/buffer/invalid_uri_data.glb", "buffers[0].uri: data: URI without a ',' before its data"),
        corpus("gltf-validator/base/data/buffer/invalid_uri_data.gltf", "buffers[0].uri: malformed data: URI parameter ''"),
        corpus("gltf-validator/base/data/buffer/invalid_uri_data_bytelength.gltf", "buffers[1].byteLength: missing (required)"),
        corpus("gltf-validator/base/data/buffer/invalid_uri_data_mime.gltf", "buffers[0].uri: data: URI media type"),
        corpus("gltf-validator/base/data/buffer/invalid_uri_scheme.gltf", "buffers[0].uri: file ':' not found"),
        corpus("gltf-validator/base/data/buffer/no_bin_chunk.glb", "buffers[0]: no uri, and the GLB has no BIN chunk"),
        corpus("gltf-validator/base/data/buffer/non_relative_uri.gltf", "buffers[0].uri: URI 'http://example.com/buffer.bin' has a"),
        corpus("gltf-validator/base/data/buffer/not_found.gltf", "buffers[0].uri: file 'not_found.bin' not found"),
        corpus("gltf-validator/base/data/buffer/wrong_bytelength.glb", "buffers[0]: byteLength 17 is more than the BIN chunk's"),
        corpus("gltf-validator/base/data/buffer/zero_bytelength.gltf", "buffers[0].byteLength: 0 (at least 1)"),
        corpus("gltf-validator/base/data/buffer_view/empty_object.gltf", "bufferViews[0].buffer: missing (required)"),
        corpus("gltf-validator/base/data/buffer_view/invalid_length.gltf", "bufferViews[0]: byteOffset 0 + byteLength 5 runs past"),
        corpus("gltf-validator/base/data/buffer_view/invalid_stride_multiple.gltf", "bufferViews[0].byteStride: 5 (a multiple of 4 from 4 to 252)"),
        corpus("gltf-validator/base/data/buffer_view/invalid_stride_too_big.gltf", "bufferViews[0].byteStride: 4 is more than byteLength 1"),
        corpus("gltf-validator/base/data/buffer_view/unresolved_buffer.gltf", "bufferViews[0].buffer: index 1 out of range (1 buffers)"),
        corpus("gltf-validator/base/data/buffer_view/zero_bytelength.gltf", "bufferViews[0].byteLength: 0 (at least 1)"),
        corpus("gltf-validator/base/data/glb/bom.glb", "JSON: starts with a UTF-8 byte order mark (glTF"),
        corpus("gltf-validator/base/data/glb/chunk_too_big.glb", "GLB header: length 13 does not match the file size (48"),
        corpus("gltf-validator/base/data/glb/empty_file.glb", "GLB header: magic is not 'glTF' (not a GLB file)"),
        corpus("gltf-validator/base/data/glb/empty_json_chunk.glb", "GLB chunk 0: empty JSON chunk"),
        corpus("gltf-validator/base/data/glb/empty_json_object.glb", "asset: missing (required)"),
        corpus("gltf-validator/base/data/glb/extra_data.glb", "GLB header: length 48 does not match the file size (49"),
        corpus("gltf-validator/base/data/glb/invalid_json_chunk.glb", "JSON: line 1, column 2: object key: unexpected ']'; expected string literal"),
        corpus("gltf-validator/base/data/glb/invalid_magic.glb", "GLB header: magic is not 'glTF' (not a GLB file)"),
        corpus("gltf-validator/base/data/glb/invalid_version.glb", "GLB header: version 0 (only 2 is supported)"),
        corpus("gltf-validator/base/data/glb/json_and_two_buffers.glb", "GLB chunk 2: a second BIN chunk"),
        corpus("gltf-validator/base/data/glb/length_mismatch.glb", "GLB header: length 49 does not match the file size (48"),
        corpus("gltf-validator/base/data/glb/misplaced_bin_chunk.glb", "GLB chunk 2: BIN chunk after another chunk (it must"),
        corpus("gltf-validator/base/data/glb/no_header.glb", "GLB header: magic is not 'glTF' (not a GLB file)"),
        corpus("gltf-validator/base/data/glb/only_bin_chunk.glb", "GLB chunk 0: type 0x004E4942: the first chunk must be"),
        corpus("gltf-validator/base/data/glb/only_header.glb", "GLB header: no chunks (a JSON chunk is required)"),
        corpus("gltf-validator/base/data/glb/truncated_chunk_data.glb", "GLB header: length 48 does not match the file size (47"),
        corpus("gltf-validator/base/data/glb/truncated_chunk_header.glb", "GLB chunk 0: header truncated at byte 12"),
        corpus("gltf-validator/base/data/glb/two_bin_chunks.glb", "GLB chunk 0: type 0x004E4942: the first chunk must be"),
        corpus("gltf-validator/base/data/glb/two_empty_bin_chunks.glb", "GLB chunk 0: type 0x004E4942: the first chunk must be"),
        corpus("gltf-validator/base/data/glb/two_empty_json_chunks.glb", "GLB chunk 0: empty JSON chunk"),
        corpus("gltf-validator/base/data/glb/two_valid_json_chunks.glb", "GLB chunk 1: a second JSON chunk"),
        corpus("gltf-validator/base/data/glb/unaligned_chunk.glb", "GLB chunk 0: length 27 is not a multiple of 4"),
        corpus("gltf-validator/base/data/glb/unknown_chunk.glb", "GLB chunk 0: type 0x4E4B4E55: the first chunk must be"),
        corpus("gltf-validator/base/data/glb/zero_chunk_header.glb", "GLB chunk 0: type 0x00000000: the first chunk must be"),
        corpus("gltf-validator/base/data/glb/zero_length.glb", "GLB header: length 0 does not match the file size (12"),
        corpus("gltf-validator/base/data/json/bom.gltf", "JSON: starts with a UTF-8 byte order mark (glTF"),
        corpus("gltf-validator/base/data/json/empty_file.gltf", "JSON: empty"),
        corpus("gltf-validator/base/data/json/invalid_object.gltf", "JSON: expected an object at the top level, got an"),
        corpus("gltf-validator/base/data/json/invalid_syntax.gltf", "JSON: line 1, column 2: object key: unexpected ']'; expected string literal"),
        corpus("gltf-validator/base/data/node/infinite_transform.gltf", "JSON: number overflow parsing '1e309'"),
        corpus("gltf-validator/base/data/node/matrix_indecomposable.gltf", "nodes[0].matrix: not a TRS matrix (shear, projection or overflow)"),
        corpus("gltf-validator/base/data/node/matrix_trs.gltf", "nodes[0].matrix: given with translation/rotation/scale (a"),
        corpus("gltf-validator/base/data/node/node_loop.gltf", "nodes[0]: cycle in the node hierarchy: nodes[0] ->"),
        corpus("gltf-validator/base/data/node/node_loop_scene.gltf", "nodes[5].children[0]: nodes[4] is nodes[3]'s child already (one parent at most)"),
        corpus("gltf-validator/base/data/node/node_parent_override.gltf", "nodes[1].children[0]: nodes[2] is nodes[0]'s child already (one parent at most)"),
        corpus("gltf-validator/base/data/node/rotation_non_unit.gltf", "nodes[0].rotation: length 2 (a unit quaternion expected)"),
        corpus("gltf-validator/base/data/node/unresolved_camera.gltf", "nodes[0].camera: index 0 out of range (0 cameras)"),
        corpus("gltf-validator/base/data/node/unresolved_child_node.gltf", "nodes[0].children[0]: index 1 out of range (1 nodes)"),
        corpus("gltf-validator/base/data/node/unresolved_mesh.gltf", "nodes[0].mesh: index 0 out of range (0 meshes)"),
        corpus("gltf-validator/base/data/node/unresolved_skin.gltf", "nodes[0].skin: index 0 out of range (0 skins)"),
        corpus("gltf-validator/base/data/root/empty_object.gltf", "asset: missing (required)"),
        corpus("gltf-validator/base/data/root/invalid_array_elements.gltf", "samplers[0]: expected an object, got a string"),
        corpus("gltf-validator/base/data/root/invalid_collection_type.gltf", "samplers: expected an array, got an object"),
        corpus("gltf-validator/base/data/scene/non_root_node.gltf", "scenes[0].nodes[0]: nodes[1] is not a root (it is a child of"),
        corpus("gltf-validator/base/data/scene/unresolved_child_node.gltf", "nodes[0].children[0]: index 5 out of range (1 nodes)"),
        corpus("gltf-validator/base/data/scene/unresolved_default_scene.gltf", "scene: index 0 out of range (0 scenes)"),
        corpus("gltf-validator/base/data/scene/unresolved_node.gltf", "scenes[0].nodes[0]: index 0 out of range (0 nodes)"),
        corpus("gltf-validator/base/data/skin/empty_object.gltf", "skins[0].joints: missing (required)"),
        corpus("gltf-validator/base/data/skin/ignored_animated_transform.gltf", "animations[0].samplers[0].input: accessors[3] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/base/data/skin/unresolved_ibm.gltf", "skins[0].inverseBindMatrices: index 0 out of range (0 accessors)"),
        corpus("gltf-validator/base/data/skin/unresolved_joint.gltf", "skins[0].joints[0]: index 0 out of range (0 nodes)"),
        corpus("gltf-validator/base/data/skin/unresolved_skeleton.gltf", "skins[0].skeleton: index 1 out of range (1 nodes)"),
        corpus("gltf-validator/ext/KHR_animation_pointer/data/animation/channel/target/custom_property.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/ext/KHR_animation_pointer/data/animation/channel/target/invalid_channel_target_node.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/ext/KHR_animation_pointer/data/animation/channel/target/invalid_channel_target_path.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/ext/KHR_animation_pointer/data/animation/channel/target/invalid_pointer_syntax.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/ext/KHR_animation_pointer/data/animation/channel/target/missing_extension_declaration.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/ext/KHR_animation_pointer/data/animation/channel/target/missing_pointer.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/ext/KHR_animation_pointer/data/animation/channel/target/unexpected_extension.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("gltf-validator/ext/KHR_animation_pointer/data/animation/channel/target/valid.gltf", "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
        corpus("misnamed-html/facecap.glb", "GLB header: magic is not 'glTF' (not a GLB file)"),
        corpus("tinygltf/BoundsChecking/integer-out-of-bounds.gltf", "bufferViews[0].byteLength: too large (1e+300)"),
        corpus("tinygltf/BoundsChecking/invalid-buffer-index.gltf", "bufferViews[1].buffer: index 1 out of range (1 buffers)"),
        corpus("tinygltf/BoundsChecking/invalid-buffer-view-index.gltf", "bufferViews[0].buffer: index 0 out of range (0 buffers)"),
        corpus("tinygltf/BoundsChecking/invalid-primitive-indices.gltf", "bufferViews[0].buffer: index 0 out of range (0 buffers)"),
        corpus("tinygltf/issue-416.gltf", "asset.version: '' is not a glTF 2.x version"),

        // ---- GLB framing ----
        raw("truncated.glb", [] { Bytes b = glbBytes(); b.erase(b.end() - 8, b.end()); return b; },
            "GLB header: length 628 does not match the file size (620 bytes)"),
        raw("short.glb", [] { Bytes b = glbBytes(); b.resize(10); return b; }, "GLB header: truncated (10 bytes, 12 needed)"),
        raw("version1.glb", [] { Bytes b = glbBytes(); setU32(b, 4, 1); return b; }, "GLB header: version 1 (only 2 is supported)"),
        raw("json-chunk-too-long.glb", [] { Bytes b = glbBytes(); setU32(b, 12, 0x7FFFFFF0); return b; },
            "GLB chunk 0: length 2147483632 runs past the end of the file"),
        raw("bin-chunk-too-long.glb", [] { Bytes b = glbBytes(); setU32(b, b.size() - 56, 0xFFFFFFF0); return b; },
            "GLB chunk 1: length 4294967280 runs past the end of the file"),
        raw("bin-chunk-short.glb", [] { Bytes b = glbBytes(); setU32(b, b.size() - 56, 40); return b; },
            "buffers[0]: byteLength 48 is more than the BIN chunk's 40 bytes"),

        // ---- JSON and types ----
        raw("deep.gltf", [] { return text(std::string(200, '[') + std::string(200, ']')); }, "JSON: nested deeper than 128 levels"),
        raw("bom-in-memory.gltf", [] { return text("\xEF\xBB\xBF{}"); }, "JSON: starts with a UTF-8 byte order mark"),
        memory("no-asset.gltf", [](Json& d, Bytes&) { d.erase("asset"); }, "asset: missing (required)"),
        memory("version-1.gltf", [](Json& d, Bytes&) { d["asset"]["version"] = "1.0"; }, "asset.version: '1.0' is not a glTF 2.x version"),
        memory("path-number.gltf", [](Json& d, Bytes&) { d["animations"][0]["channels"][0]["target"]["path"] = 5; },
               "animations[0].channels[0].target.path: expected a string, got an integer"),
        memory("index-half.gltf", [](Json& d, Bytes&) { d["animations"][0]["channels"][0]["sampler"] = 0.5; },
               "animations[0].channels[0].sampler: not an integer (0.5)"),
        memory("index-negative.gltf", [](Json& d, Bytes&) { d["nodes"][0]["children"][0] = -1; },
               "nodes[0].children[0]: negative (-1)"),
        memory("name-number.gltf", [](Json& d, Bytes&) { d["animations"][0]["name"] = 3; },
               "animations[0].name: expected a string, got an integer"),
        memory("translation-2.gltf", [](Json& d, Bytes&) { d["nodes"][1]["translation"] = {1, 2}; },
               "nodes[1].translation: 2 numbers (3 expected)"),

        // ---- indices ----
        memory("sampler-7.gltf", [](Json& d, Bytes&) { d["animations"][0]["channels"][0]["sampler"] = 7; },
               "animations[0].channels[0].sampler: index 7 out of range (1 samplers)"),
        memory("target-node-9.gltf", [](Json& d, Bytes&) { d["animations"][0]["channels"][0]["target"]["node"] = 9; },
               "animations[0].channels[0].target.node: index 9 out of range (2 nodes)"),
        memory("input-5.gltf", [](Json& d, Bytes&) { d["animations"][0]["samplers"][0]["input"] = 5; },
               "animations[0].samplers[0].input: index 5 out of range (2 accessors)"),
        memory("view-3.gltf", [](Json& d, Bytes&) { d["accessors"][1]["bufferView"] = 3; },
               "accessors[1].bufferView: index 3 out of range (2 bufferViews)"),
        memory("buffer-1.gltf", [](Json& d, Bytes&) { d["bufferViews"][1]["buffer"] = 1; },
               "bufferViews[1].buffer: index 1 out of range (1 buffers)"),
        memory("mesh-0.gltf", [](Json& d, Bytes&) { d["nodes"][1]["mesh"] = 0; }, "nodes[1].mesh: index 0 out of range (0 meshes)"),
        memory("skin-joint.gltf", [](Json& d, Bytes&) { d["skins"] = {{{"joints", {1, 2}}}}; },
               "skins[0].joints[1]: index 2 out of range (2 nodes)"),
        memory("scene-3.gltf", [](Json& d, Bytes&) { d["scene"] = 3; }, "scene: index 3 out of range (1 scenes)"),

        // ---- images: bytes from exactly one place (the schema's oneOf) ----
        memory("image-without-source.gltf", [](Json& d, Bytes&) { d["images"] = {{{"mimeType", "image/png"}}}; },
               "images[0]: neither uri nor bufferView (one of them is required)"),
        memory("image-two-sources.gltf", [](Json& d, Bytes&) { d["images"] = {{{"uri", "a.png"}, {"bufferView", 0}, {"mimeType", "image/png"}}}; },
               "images[0]: both uri and bufferView (only one is allowed)"),

        // ---- node graph ----
        memory("two-parents.gltf", [](Json& d, Bytes&) { d["nodes"].push_back({{"children", {1}}}); },
               "nodes[2].children[0]: nodes[1] is nodes[0]'s child already"),
        memory("cycle.gltf", [](Json& d, Bytes&) { d["nodes"][1]["children"] = {0}; },
               "nodes[0]: cycle in the node hierarchy: nodes[0] -> nodes[1] -> nodes[0]"),
        memory("self-child.gltf", [](Json& d, Bytes&) { d["nodes"][0]["children"] = {0}; },
               "nodes[0]: cycle in the node hierarchy: nodes[0] -> nodes[0]"),
        memory("scene-root-has-parent.gltf", [](Json& d, Bytes&) { d["scenes"][0]["nodes"] = {1}; },
               "scenes[0].nodes[0]: nodes[1] is not a root (it is a child of nodes[0])"),
        memory("too-deep.gltf", nullptr, "nodes[1]: deeper than maxDepth (0 levels)", limit([](gltf::LoadLimits& l) { l.maxDepth = 0; })),
        memory("too-many-nodes.gltf", nullptr, "nodes: 2 nodes, more than maxNodes (1)", limit([](gltf::LoadLimits& l) { l.maxNodes = 1; })),
        memory("matrix-and-trs.gltf", [](Json& d, Bytes&) { d["nodes"][1]["matrix"] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; },
               "nodes[1].matrix: given with translation/rotation/scale"),
        memory("matrix-shear.gltf", [](Json& d, Bytes&) { d["nodes"][0]["matrix"] = {1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}; },
               "nodes[0].matrix: not a TRS matrix (shear, projection or overflow)"),
        memory("rotation-length-2.gltf", [](Json& d, Bytes&) { d["nodes"][1]["rotation"] = {0, 0, 0, 2}; },
               "nodes[1].rotation: length 2 (a unit quaternion expected)"),

        // ---- URIs: a security boundary ----
        memory("dotdot.gltf", uri("../x.bin"), "buffers[0].uri: URI '../x.bin' escapes the asset's folder", {}, kData),
        memory("dotdot-deep.gltf", uri("a/../../x.bin"), "buffers[0].uri: URI 'a/../../x.bin' escapes the asset's folder", {}, kData),
        memory("dotdot-encoded.gltf", uri("%2e%2e/x.bin"), "buffers[0].uri: URI '%2e%2e/x.bin' escapes the asset's folder", {}, kData),
        memory("absolute.gltf", uri("/etc/passwd"), "buffers[0].uri: absolute URI '/etc/passwd' refused", {}, kData),
        memory("absolute-encoded.gltf", uri("%2Fetc/passwd"), "buffers[0].uri: absolute URI '%2Fetc/passwd' refused", {}, kData),
        memory("file-scheme.gltf", uri("file:///etc/passwd"), "buffers[0].uri: URI 'file:///etc/passwd' has a scheme", {}, kData),
        memory("drive-letter.gltf", uri("C:\\x.bin"), "buffers[0].uri: URI 'C:\\x.bin' has a scheme", {}, kData),
        memory("image-escape.gltf", [](Json& d, Bytes&) { d["images"] = {{{"uri", "../../secret.png"}}}; },
               "images[0].uri: URI '../../secret.png' escapes the asset's folder", {}, kData),
        memory("missing-bin.gltf", uri("missing.bin"), "buffers[0].uri: file 'missing.bin' not found", {}, kData),
        memory("directory-uri.gltf", uri("data"), "buffers[0].uri: 'data' is not a regular file", {}, kData.parent_path()),
        {"symlink.gltf", withSymlink, "buffers[0].uri: URI 'escape.bin' escapes the asset's folder (through a symlink)", {}, symlinkFolder()},
        memory("no-folder.gltf", uri("four.bin"), "buffers[0].uri: URI 'four.bin' cannot be read: the asset was loaded from memory"),
        memory("short-file.gltf", [](Json& d, Bytes&) { d["buffers"][0] = {{"byteLength", 3ull << 30}, {"uri", "four.bin"}}; },
               "buffers[0].uri: file 'four.bin' has 4 bytes, fewer than byteLength 3221225472", {}, kData),
        memory("bad-base64.gltf", [](Json& d, Bytes&) { d["buffers"][0]["uri"] = "data:application/octet-stream;base64,AA*A"; },
               "buffers[0].uri: data: URI has a non-base64 character"),
        memory("data-uri-short.gltf", [](Json& d, Bytes&) { d["buffers"][0]["byteLength"] = 4800; },
               "buffers[0]: byteLength 4800 is more than its data: URI's 48 bytes"),

        // ---- byte ranges and claimed sizes (refused before allocating) ----
        memory("past-view.gltf", [](Json& d, Bytes&) { d["accessors"][1]["count"] = 4; },
               "accessors[1]: 4 elements of 12 bytes from byte 0: past bufferViews[1]'s 36 bytes"),
        memory("offset-past-view.gltf", [](Json& d, Bytes&) { d["accessors"][1]["byteOffset"] = 4; },
               "accessors[1]: 3 elements of 12 bytes from byte 4: past bufferViews[1]"),
        memory("offset-overflow.gltf", [](Json& d, Bytes&) { d["accessors"][1]["byteOffset"] = std::numeric_limits<std::uint64_t>::max(); },
               "accessors[1]: 3 elements of 12 bytes from byte 18446744073709551615: past"),
        memory("stride-past-view.gltf", [](Json& d, Bytes&) { d["bufferViews"][1]["byteStride"] = 16; },
               "accessors[1]: 3 elements of 12 bytes, stride 16, from byte 0: past bufferViews[1]"),
        memory("huge-count.gltf", [](Json& d, Bytes&) { d["accessors"][1]["count"] = 1ull << 40; },
               "accessors[1].count: 1099511627776 elements, more than maxAccessorElements (268435456)"),
        memory("large-count.gltf", [](Json& d, Bytes&) { d["accessors"][1]["count"] = 200000000; },
               "accessors[1]: 200000000 elements of 12 bytes from byte 0: past bufferViews[1]"),
        memory("view-past-buffer.gltf", [](Json& d, Bytes&) { d["bufferViews"][1]["byteLength"] = 400; },
               "bufferViews[1]: byteOffset 12 + byteLength 400 runs past buffers[0] (byteLength 48)"),
        memory("huge-buffer.gltf", [](Json& d, Bytes&) { d["buffers"][0]["byteLength"] = 1ull << 50; },
               "buffers: more than maxBufferBytes (4294967296) bytes in all"),
        memory("too-many-keys.gltf", nullptr, "animations[0].samplers[0].input: accessors[0] has 3 keys, more than maxKeysPerChannel (2)",
               limit([](gltf::LoadLimits& l) { l.maxKeysPerChannel = 2; })),
        memory("too-big-file.gltf", nullptr, "file: ", limit([](gltf::LoadLimits& l) { l.maxFileBytes = 10; })),
        memory("too-much-key-data.gltf", nullptr,
               "animations[0].channels[0]: the key data of animations[0..0] decodes to more than maxKeyBytes (47 bytes in all)",
               limit([](gltf::LoadLimits& l) { l.maxKeyBytes = 47; })),
        memory("sparse-index-range.gltf",
               [](Json& d, Bytes&) {
                   d["accessors"][1]["sparse"] = {{"count", 1}, {"indices", {{"bufferView", 0}, {"componentType", 5121}, {"byteOffset", 11}}},
                                                  {"values", {{"bufferView", 1}}}};  // byte 11 of the times: 0x3F = 63
               },
               "accessors[1].sparse.indices[0]: index 63 out of range (3 elements)"),
        memory("sparse-index-order.gltf",
               [](Json& d, Bytes& b) {
                   b[0] = 2, b[1] = 1;  // times[0] = a tiny positive float, and the sparse indices [2, 1]
                   d["accessors"][1]["sparse"] = {{"count", 2}, {"indices", {{"bufferView", 0}, {"componentType", 5121}}},
                                                  {"values", {{"bufferView", 1}}}};
               },
               "accessors[1].sparse.indices[1]: index 1 after 2 (sparse indices must strictly increase)"),

        // ---- animation data ----
        memory("nan-key.gltf", [](Json&, Bytes& b) { putFloat(b, 1, kNaN); },
               "animations[0].samplers[0].input: accessors[0] key 1: time is not finite"),
        memory("decreasing-times.gltf", [](Json&, Bytes& b) { putFloat(b, 1, 1.0f), putFloat(b, 2, 0.5f); },
               "animations[0].samplers[0].input: accessors[0] key 2: time 0.5 is not after the previous key's 1"),
        memory("negative-time.gltf", [](Json&, Bytes& b) { putFloat(b, 0, -1.0f); },
               "animations[0].samplers[0].input: accessors[0] key 0: time -1 is negative"),
        memory("infinite-value.gltf", [](Json&, Bytes& b) { putFloat(b, 3 + 7, kInf); },
               "animations[0].samplers[0].output: accessors[1] element 2: value is not finite"),
        memory("cubic-count.gltf", [](Json& d, Bytes&) { d["animations"][0]["samplers"][0]["interpolation"] = "CUBICSPLINE"; },
               "animations[0].channels[0].sampler: output accessors[1]: 3 elements for 3 keys (CUBICSPLINE: 3 a key)"),
        memory("linear-count.gltf", [](Json& d, Bytes&) { d["accessors"][1]["count"] = 2; },
               "animations[0].channels[0].sampler: output accessors[1]: 2 elements for 3 keys"),
        memory("input-vec3.gltf", [](Json& d, Bytes&) { d["animations"][0]["samplers"][0]["input"] = 1; },
               "animations[0].samplers[0].input: accessors[1] is VEC3 FLOAT, not SCALAR"),
        memory("rotation-vec3.gltf", [](Json& d, Bytes&) { d["animations"][0]["channels"][0]["target"]["path"] = "rotation"; },
               "animations[0].channels[0].sampler: output accessors[1] is VEC3 FLOAT, not VEC4"),
        memory("rotation-not-normalized.gltf",
               [](Json& d, Bytes&) {
                   d["accessors"][1] = {{"bufferView", 1}, {"componentType", 5122}, {"count", 3}, {"type", "VEC4"}};
                   d["animations"][0]["channels"][0]["target"]["path"] = "rotation";
               },
               "animations[0].channels[0].sampler: output accessors[1] is VEC4 SHORT, not FLOAT or normalized BYTE/SHORT"),
        memory("uint-translation.gltf", [](Json& d, Bytes&) { d["accessors"][1]["componentType"] = 5125; },
               "animations[0].channels[0].sampler: output accessors[1] is VEC3 UNSIGNED_INT, not FLOAT, BYTE or SHORT"),
        memory("interpolation.gltf", [](Json& d, Bytes&) { d["animations"][0]["samplers"][0]["interpolation"] = "SMOOTH"; },
               "animations[0].samplers[0].interpolation: 'SMOOTH' (LINEAR, STEP or CUBICSPLINE expected)"),
        memory("duplicate-target.gltf", [](Json& d, Bytes&) { d["animations"][0]["channels"].push_back(d["animations"][0]["channels"][0]); },
               "animations[0].channels[1].target: nodes[1] translation is already animated by channels[0]"),
        memory("weights-count.gltf",
               [](Json& d, Bytes&) {
                   d["accessors"].push_back({{"bufferView", 1}, {"componentType", 5126}, {"count", 8}, {"type", "SCALAR"}});
                   d["animations"][0]["samplers"].push_back({{"input", 0}, {"output", 2}});
                   d["animations"][0]["channels"].push_back({{"sampler", 1}, {"target", {{"node", 1}, {"path", "weights"}}}});
               },
               "animations[0].channels[1].sampler: samplers[1].output (accessors[2]) has 8 elements, not a multiple of 3"),
        memory("meshopt-times.gltf", [](Json& d, Bytes&) { d["bufferViews"][0]["extensions"] = {{"EXT_meshopt_compression", Json::object()}}; },
               "animations[0].samplers[0].input: accessors[0]: bufferViews[0].extensions.EXT_meshopt_compression buffer is not an index of buffers"),
        memory("meshopt-truncated.gltf", meshoptTimes([](Json& e, Bytes& s) { s.resize(s.size() - 4); e["byteLength"] = s.size(); }),
               "animations[0].samplers[0].input: accessors[0]: bufferViews[0].extensions.EXT_meshopt_compression does not decode"),
        memory("meshopt-count.gltf", meshoptTimes([](Json& e, Bytes&) { e["count"] = 4; }),
               "animations[0].samplers[0].input: accessors[0]: bufferViews[0].extensions.EXT_meshopt_compression count x byteStride is not the bufferView's byteLength"),
        memory("meshopt-filter.gltf", meshoptTimes([](Json& e, Bytes&) { e["filter"] = "QUATERNION"; }),
               "animations[0].samplers[0].input: accessors[0]: bufferViews[0].extensions.EXT_meshopt_compression filter is not NONE"),
        memory("meshopt-header.gltf", meshoptTimes([](Json&, Bytes& s) { s[0] = 0x10; }),
               "animations[0].samplers[0].input: accessors[0]: bufferViews[0].extensions.EXT_meshopt_compression does not decode"),
        // Sparse indices in a compressed view are checked once decoded, as uncompressed ones are at load.
        memory("meshopt-sparse.gltf",
               [](Json& d, Bytes& b) {
                   const Bytes raw = {5, 0, 0, 0};  // one UNSIGNED_BYTE index, 5, padded to the stride
                   Bytes stream(meshopt_encodeVertexBufferBound(1, 4));
                   stream.resize(meshopt_encodeVertexBuffer(stream.data(), stream.size(), raw.data(), 1, 4));
                   const std::size_t at = b.size();
                   b.insert(b.end(), stream.begin(), stream.end());
                   d["buffers"][0]["byteLength"] = b.size();
                   d["buffers"].push_back({{"byteLength", 4}});
                   d["bufferViews"].push_back(
                       {{"buffer", 1}, {"byteLength", 4},
                        {"extensions", {{"EXT_meshopt_compression", {{"buffer", 0}, {"byteOffset", at}, {"byteLength", stream.size()},
                                                                     {"byteStride", 4}, {"count", 1}, {"mode", "ATTRIBUTES"}}}}}});
                   d["bufferViews"].push_back({{"buffer", 0}, {"byteLength", 4}});
                   d["accessors"][0]["sparse"] = {{"count", 1},
                                                  {"indices", {{"bufferView", 2}, {"componentType", 5121}}},
                                                  {"values", {{"bufferView", 3}}}};
               },
               "accessors[0].sparse.indices[0]: index 5 out of range (3 elements)"),
        // The decoded view counts against maxKeyBytes with the floats (48 bytes of them here).
        memory("meshopt-key-bytes.gltf", meshoptTimes([](Json&, Bytes&) {}),
               "animations[0].channels[0]: the key data of animations[0..0] decodes to more than maxKeyBytes (50 bytes in all)",
               [] { gltf::LoadLimits l; l.maxKeyBytes = 50; return l; }()),
        memory("times-without-data.gltf", [](Json& d, Bytes&) { d["buffers"].push_back({{"byteLength", 12}}); d["bufferViews"][0]["buffer"] = 1; },
               "animations[0].samplers[0].input: accessors[0]: its buffer has no data (no uri)"),
        memory("times-all-zero.gltf", [](Json& d, Bytes&) { d["accessors"][0].erase("bufferView"); },
               "animations[0].samplers[0].input: accessors[0] has no bufferView: time 0 repeats"),
    };
    return cases;
}
// clang-format on

}  // namespace

namespace {

// A refusal: one line, starting with the file's name, that names the object and the reason.
void checkRefused(const Case& c, const std::string& fileName, const Result<gltf::Asset>& asset) {
    CAPTURE(c.fixture);
    REQUIRE_FALSE(asset.ok());
    const std::string& message = asset.error().message;
    CAPTURE(message);
    CHECK(message.rfind(fileName + ": ", 0) == 0);
    CHECK(message.find(c.expected, fileName.size()) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
}

}  // namespace

TEST_CASE("bad input: each fixture made in memory is refused, naming the file and the object") {
    int rows = 0;
    for (const Case& c : table()) {
        if (!c.bytes) continue;
        const Bytes bytes = c.bytes();
        checkRefused(c, c.fixture, gltf::loadAssetFromMemory(bytes, c.fixture, c.folder, c.limits));
        ++rows;
    }
    CHECK(rows > 0);
    std::error_code ec;
    fs::remove_all(symlinkFolder(), ec);
}

TEST_CASE("bad input: each file of the corpus's bad/ is refused, naming the file and the object") {
    ROOTBAKE_REQUIRE_SHARED(shared);
    int rows = 0;
    for (const Case& c : table()) {
        if (c.bytes) continue;
        const std::string fileName = (shared / "corpus" / "bad" / c.fixture).string();
        checkRefused(c, fileName, gltf::loadAsset(fileName, c.limits));
        ++rows;
    }
    CHECK(rows == 118);
    std::error_code ec;
    fs::remove_all(symlinkFolder(), ec);
}
