// The one way rootbake reads a file into memory: a size limit first, then the bytes.
// Assets (maxFileBytes), buffers beside a .gltf (their byteLength), sidecars and configs
// all go through it, so no reader follows what a file's size says past a limit.
#pragma once

#include "rootbake/result.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace rootbake::io {

// Read-only bytes whose storage is shared: a file as read, a part of it (a GLB's BIN chunk
// is a slice of the file, not a copy), or a vector given up. A file is read into storage
// that is never zero-filled first: the read writes every byte.
class SharedBytes {
public:
    SharedBytes() = default;
    explicit SharedBytes(std::vector<std::uint8_t> bytes);
    // size bytes for a reader to fill through `writable` before anyone reads them.
    static SharedBytes forOverwrite(std::size_t size, std::uint8_t*& writable);

    const std::uint8_t* data() const { return data_; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const std::uint8_t* begin() const { return data_; }
    const std::uint8_t* end() const { return data_ + size_; }
    std::uint8_t operator[](std::size_t i) const { return data_[i]; }
    operator std::span<const std::uint8_t>() const { return {data_, size_}; }
    // Bytes [offset, offset + size) of these, sharing their storage.
    SharedBytes slice(std::size_t offset, std::size_t size) const;

private:
    std::shared_ptr<const void> storage_;
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

// What to read and how much is too much. A limit with a name is one the user may raise
// (`--limit NAME=N`); the error says so.
struct FileRead {
    std::uint64_t maxBytes = 0;
    const char* limitName = "";  // "" for a fixed limit
    // Read only the first `prefix` bytes (a buffer's byteLength, so named in the error);
    // the file must have them.
    std::uint64_t prefix = UINT64_MAX;
    const char* prefixName = "byteLength";
    // When set, readFileBytes reads in chunks and gives it, after each, the bytes in place
    // so far (from the first, sharing the storage): a hash can follow the read instead of
    // waiting for its end.
    std::function<void(const SharedBytes&)> progress = {};
};

// A regular file's bytes. The error names no file (callers put the file or its URI first):
// "file not found", "not a regular file", "file: N bytes, more than maxFileBytes (M)",
// "has N bytes, fewer than byteLength M", "cannot open", "cannot read (short read)".
Result<SharedBytes> readFileBytes(const std::filesystem::path& file, const FileRead& read);

// The same as text (a sidecar, a config file).
Result<std::string> readFileText(const std::filesystem::path& file, const FileRead& read);

}  // namespace rootbake::io
