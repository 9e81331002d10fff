#include "io/read_file.h"

#include <sys/mman.h>

#include <algorithm>
#include <fstream>

namespace rootbake::io {

namespace fs = std::filesystem;

namespace {

// The bytes to read, after the checks.
Result<std::uint64_t> sizeToRead(const fs::path& file, const FileRead& read) {
    std::error_code ec;
    const fs::file_status status = fs::status(file, ec);
    if (!fs::exists(status)) return Error{"file not found"};
    if (!fs::is_regular_file(status)) return Error{"not a regular file"};
    const std::uint64_t size = fs::file_size(file, ec);
    if (ec) return Error{ec.message()};
    const std::uint64_t wanted = read.prefix == UINT64_MAX ? size : read.prefix;
    if (size < wanted)
        return Error{"has " + std::to_string(size) + " bytes, fewer than " + read.prefixName + " " +
                     std::to_string(wanted)};
    if (wanted > read.maxBytes)
        return Error{"file: " + std::to_string(wanted) + " bytes, more than " +
                     (*read.limitName ? std::string(read.limitName) + " (" : std::string("the limit of ")) +
                     std::to_string(read.maxBytes) + (*read.limitName ? ")" : " bytes")};
    return wanted;
}

// The chunk a read with progress reports after: small enough that a hash follows close
// behind (4 MiB take ~1 ms to read, ~4 ms to hash), large enough to cost few calls.
constexpr std::uint64_t kProgressChunk = std::uint64_t(4) << 20;

// chunkRead, when set, is told the bytes in place after each chunk.
Status readExactly(const fs::path& file, std::uint64_t size, void* to,
                   const std::function<void(std::uint64_t)>& chunkRead = {}) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return Error{"cannot open"};
    auto* bytes = static_cast<char*>(to);
    for (std::uint64_t done = 0; done < size;) {
        const std::uint64_t chunk = chunkRead ? std::min(size - done, kProgressChunk) : size - done;
        in.read(bytes + done, static_cast<std::streamsize>(chunk));
        if (static_cast<std::uint64_t>(in.gcount()) != chunk) return Error{"cannot read (short read)"};
        done += chunk;
        if (chunkRead) chunkRead(done);
    }
    return Ok{};
}

}  // namespace

SharedBytes::SharedBytes(std::vector<std::uint8_t> bytes) {
    auto owned = std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
    data_ = owned->data();
    size_ = owned->size();
    storage_ = std::move(owned);
}

namespace {

// Above this, storage is mapped in 2 MiB pages where the kernel allows them (transparent
// huge pages on request): a 100 MB file then faults 50 times, not 25,000, as it is read.
// From 1 MiB: a 2 MB pack's `info` takes 32 ms of CPU instead of 45 (page faults are dear
// in a virtual machine); below, the rounding up to 2 MiB would cost more than it saves.
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kMapAbove = kHugePage / 2;

std::shared_ptr<std::uint8_t> mappedStorage(std::size_t size) {
    const std::size_t length = (size + kHugePage - 1) / kHugePage * kHugePage;
    void* map = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) throw std::bad_alloc();
    madvise(map, length, MADV_HUGEPAGE);  // a hint: refused, the pages are 4 KiB
    return {static_cast<std::uint8_t*>(map), [length](std::uint8_t* p) { munmap(p, length); }};
}

}  // namespace

SharedBytes SharedBytes::forOverwrite(std::size_t size, std::uint8_t*& writable) {
    // new[] of a trivial type without () leaves the bytes as they are: no zero fill.
    std::shared_ptr<std::uint8_t> storage =
        size > kMapAbove
            ? mappedStorage(size)
            : std::shared_ptr<std::uint8_t>(new std::uint8_t[size], std::default_delete<std::uint8_t[]>());
    writable = storage.get();
    SharedBytes bytes;
    bytes.data_ = storage.get();
    bytes.size_ = size;
    bytes.storage_ = std::move(storage);
    return bytes;
}

SharedBytes SharedBytes::slice(std::size_t offset, std::size_t size) const {
    SharedBytes part = *this;
    part.data_ = data_ + offset;
    part.size_ = size;
    return part;
}

Result<SharedBytes> readFileBytes(const fs::path& file, const FileRead& read) {
    auto size = sizeToRead(file, read);
    if (!size) return size.error();
    std::uint8_t* writable = nullptr;
    SharedBytes bytes = SharedBytes::forOverwrite(static_cast<std::size_t>(*size), writable);
    std::function<void(std::uint64_t)> chunkRead;
    if (read.progress)
        chunkRead = [&](std::uint64_t done) { read.progress(bytes.slice(0, std::size_t(done))); };
    if (Status done = readExactly(file, *size, writable, chunkRead); !done) return done.error();
    return bytes;
}

Result<std::string> readFileText(const fs::path& file, const FileRead& read) {
    auto size = sizeToRead(file, read);
    if (!size) return size.error();
    std::string text(static_cast<std::size_t>(*size), '\0');
    if (Status done = readExactly(file, *size, text.data()); !done) return done.error();
    return text;
}

}  // namespace rootbake::io
