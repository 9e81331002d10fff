// The one way rootbake reads a file into memory: a size limit first, then the bytes.
// Assets (maxFileBytes), buffers beside a .gltf (their byteLength), sidecars and configs
// all go through it, so no reader follows what a file's size says past a limit.
#pragma once

#include "rootbake/result.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace rootbake {

// What to read and how much is too much. A limit with a name is one the user may raise
// (`--limit NAME=N`); the error says so.
struct FileRead {
    std::uint64_t maxBytes = 0;
    const char* limitName = "";  // "" for a fixed limit
    // Read only the first `prefix` bytes (a buffer's byteLength, so named in the error);
    // the file must have them.
    std::uint64_t prefix = UINT64_MAX;
    const char* prefixName = "byteLength";
};

// A regular file's bytes. The error names no file (callers put the file or its URI first):
// "file not found", "not a regular file", "file: N bytes, more than maxFileBytes (M)",
// "has N bytes, fewer than byteLength M", "cannot open", "cannot read (short read)".
Result<std::vector<std::uint8_t>> readFileBytes(const std::filesystem::path& file, const FileRead& read);

// The same as text (a sidecar, a config file).
Result<std::string> readFileText(const std::filesystem::path& file, const FileRead& read);

}  // namespace rootbake
