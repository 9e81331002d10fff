// The glTF adapter: the only code that parses glTF (with nlohmann; why not
// tinygltf is in gltf/internal.h). loadAsset() reads a .glb
// or .gltf (with its .bin and images), validates everything later code relies
// on, and converts nodes and animations to the core's Rig and Clips. The
// document and buffers are kept as read, for the writer to pass through.
#pragma once

#include "io/read_file.h"
#include "rootbake/bake.h"
#include "rootbake/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace rootbake::gltf {

struct LoadLimits {
    std::uint64_t maxFileBytes = 4ull << 30;       // bytes of the .glb/.gltf itself
    std::uint64_t maxBufferBytes = 4ull << 30;     // decoded buffer bytes, all buffers together
    std::uint64_t maxAccessorElements = 1u << 28;  // count of one accessor
    int maxNodes = 1 << 20;
    int maxDepth = 4096;  // node hierarchy depth
    int maxKeysPerChannel = 1 << 24;
    // decoded key data (4-byte floats) of every node channel together, a shared sampler once per
    // channel naming it (each gets a copy): 128 MiB, 20 minutes of a 100-joint rig keyed in position and
    // rotation at 30 per second; with the file and maxAssetTrackSamples' results, a hostile file stays under
    // 256 MiB
    std::uint64_t maxKeyBytes = 1ull << 27;
    // image files beside the asset, all together, each once: not read but by bake, which copies or
    // embeds them (streamed, 64 KiB at a time)
    std::uint64_t maxImageBytes = 4ull << 30;
    int maxJsonDepth = 128;  // nesting of JSON arrays and objects (nlohmann's dump() recurses)
};

struct Asset {
    std::string fileName;          // as given on the command line, for messages
    std::filesystem::path folder;  // the folder external URIs resolve against
    bool binary = false;           // read from a GLB container

    nlohmann::ordered_json document;  // the JSON as read, key order kept
    // The text the document was parsed from (a GLB's JSON chunk), which the writer splices:
    // whoever edits the document clears it, and the writer then prints the document whole.
    io::SharedBytes jsonText;
    std::vector<io::SharedBytes> buffers;  // bytes of buffers[i] (the GLB BIN chunk for a GLB's buffer 0,
                                           // a slice of the file; empty for a buffer without uri and data)
    // Relative URIs of buffers (read) and images (checked to be regular files
    // inside folder, never read), as written in the document, each once.
    std::vector<std::string> externalUris;
    // What loaded but is doubtful, "<JSON path>: <what>" (repeated key times, a missing image).
    std::vector<std::string> warnings;
    // "images[2].uri: file 'skin.png' not found": images are not read but by bake, which
    // copies or embeds them and so cannot write this asset.
    std::vector<std::string> missingImages;

    Rig rig;
    std::vector<Clip> clips;  // one per animations[i], same order
    int scene = -1;           // the scene the asset shows (scene, else 0), -1 without scenes
};

// Reads and validates a file. Errors name the file and the offending object:
// "walk.glb: animations[2].channels[0].sampler: index 7 out of range (3 samplers)".
Result<Asset> loadAsset(const std::filesystem::path& file, const LoadLimits& limits = {});

// loadAsset in two steps, for a caller that needs the file's bytes too (its hash):
// the file read (the size limit first), then loaded from the bytes, which it takes
// (the asset shares them: a GLB's JSON and BIN chunks are slices of them, not copies).
// progress, when set, is told the bytes in place as the file is read (FileRead::progress).
Result<io::SharedBytes> readAssetFile(const std::filesystem::path& file, const LoadLimits& limits = {},
                                      std::function<void(const io::SharedBytes&)> progress = {});
Result<Asset> loadAssetFile(const io::SharedBytes& bytes, const std::filesystem::path& file,
                            const LoadLimits& limits = {});

// The same from bytes already in memory (the fuzzer's entry point). External
// URIs resolve against folder; an empty folder refuses every external URI.
Result<Asset> loadAssetFromMemory(std::span<const std::uint8_t> bytes, const std::string& fileName,
                                  const std::filesystem::path& folder, const LoadLimits& limits = {});

}  // namespace rootbake::gltf
