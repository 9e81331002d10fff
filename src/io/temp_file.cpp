// One output's temporary: created (never over an existing name), its bytes, gathered pieces
// and appended files written, or a side file copied, then closed; each step asks the test hook
// and the interrupt first (write_files.cpp does the plan, the commit and the undo).
#include "io/write_steps.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>  // NAME_MAX
#include <cstdio>
#include <system_error>

#include <unistd.h>

namespace rootbake::io {

namespace fs = std::filesystem;

namespace {

// Copies `in` to `out`; with `error` (an errno, for tests), stops after `limit`
// bytes and fails with it.
bool copyStream(std::FILE* in, std::FILE* out, std::size_t limit, int error, std::string& message) {
    char buffer[1 << 16];
    std::size_t n, copied = 0;
    while (copied < limit && (n = std::fread(buffer, 1, sizeof buffer, in)) > 0) {
        const std::size_t take = std::min(n, limit - copied);
        if (std::fwrite(buffer, 1, take, out) != take) return message = errnoText(errno), false;
        copied += take;
    }
    if (std::ferror(in)) return message = errnoText(errno), false;
    if (error) return message = errnoText(error), false;
    return true;
}

// Zeros up to `to` bytes into out, from `at`.
bool writeZeros(std::FILE* out, std::uint64_t at, std::uint64_t to, std::string& message) {
    static const char zeros[4096] = {};
    for (; at < to;) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(sizeof zeros, to - at));
        if (std::fwrite(zeros, 1, n, out) != n) return message = errnoText(errno), false;
        at += n;
    }
    return true;
}

// bytes, then the gathered pieces; with `error` (an errno, for tests), stops after half of
// them and fails with it. at: the bytes written.
bool writeContent(std::FILE* out, const PlannedFile& file, int error, std::uint64_t& at,
                  std::string& message) {
    std::uint64_t total = file.bytes.size();
    for (const auto& piece : file.gathered) total += piece.size();
    const std::uint64_t limit = error ? total / 2 : total;
    auto put = [&](std::span<const std::uint8_t> piece) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(piece.size(), limit - at));
        if (n > 0 && std::fwrite(piece.data(), 1, n, out) != n) return message = errnoText(errno), false;
        at += n;
        return true;
    };
    if (!put(file.bytes)) return false;
    for (const auto& piece : file.gathered)
        if (!put(piece)) return false;
    if (error) return message = errnoText(error), false;
    return true;
}

// The appended files after the content (at bytes): each exactly its size, else it changed since it was
// planned.
bool writeAppended(std::FILE* out, const PlannedFile& file, std::uint64_t at, std::string& message) {
    for (const AppendedFile& a : file.appended) {
        if (!writeZeros(out, at, a.offset, message)) return false;
        std::FILE* in = std::fopen(a.from.c_str(), "rb");
        if (!in) return message = a.from.string() + ": " + errnoText(errno), false;
        const bool copied = copyStream(in, out, std::size_t(a.size), 0, message);
        const bool ended = copied && std::fgetc(in) == EOF;
        const bool whole = copied && ended && std::uint64_t(std::ftell(in)) == a.size;
        std::fclose(in);
        if (!copied) return false;
        if (!whole)
            return message =
                       a.from.string() + ": changed while baking (not " + std::to_string(a.size) + " bytes)",
                   false;
        at = a.offset + a.size;
    }
    return writeZeros(out, at, file.size, message);
}

}  // namespace

TempResult writeTemp(const fs::path& temp, const PlannedFile& file, const WriteHook& hook) {
    TempResult r;
    if (int e = beforeStep(hook, WriteStage::CreateTemp, file.path)) return r.error = errnoText(e), r;
    std::FILE* out = std::fopen(temp.c_str(), "wbx");
    if (!out) return r.error = errnoText(errno), r;
    r.created = true;
    if (file.copyFrom.empty()) {
        const int e = beforeStep(hook, WriteStage::WriteBytes, file.path);
        std::uint64_t at = 0;
        if (writeContent(out, file, e, at, r.error) && !file.appended.empty())
            writeAppended(out, file, at, r.error);
    } else if (std::FILE* in = std::fopen(file.copyFrom.c_str(), "rb")) {
        const int e = beforeStep(hook, WriteStage::CopyFile, file.path);
        std::error_code ec;
        const std::size_t limit = e ? std::size_t(fs::file_size(file.copyFrom, ec) / 2) : SIZE_MAX;
        copyStream(in, out, limit, e, r.error);
        std::fclose(in);
    } else {
        r.error = file.copyFrom.string() + ": " + errnoText(errno);
    }
    if (r.error.empty()) {
        if (int e = beforeStep(hook, WriteStage::CloseTemp, file.path)) r.error = errnoText(e);
    }
    // fclose flushes: on a full disk this is where a buffered write fails.
    if (std::fclose(out) != 0 && r.error.empty()) r.error = errnoText(errno);
    return r;
}

// ".walk.glb.rootbake-1234-0.tmp": unique within the process too, as calls on two threads may
// write into one folder. The output's name is cut (at a UTF-8 letter's start) so that the
// temporary fits in NAME_MAX bytes whenever the output's own name does.
fs::path siblingName(const fs::path& path, const char* suffix) {
    static std::atomic<unsigned long> serial{0};
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false positive) on
    // "." + std::string, which inserts at the front of the right-hand string.
    std::string tag = ".rootbake-";
    tag += std::to_string(::getpid());
    tag += '-';
    tag += std::to_string(serial.fetch_add(1));
    tag += suffix;
    std::string name = path.filename().string();
    const std::size_t room = NAME_MAX - 1 - tag.size();
    if (name.size() > room) {
        std::size_t cut = room;
        while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
        name.resize(cut);
    }
    std::string sibling = ".";
    sibling += name;
    sibling += tag;
    fs::path out = path;
    out.replace_filename(sibling);
    return out;
}

}  // namespace rootbake::io
