// Writing a bake's files all or nothing: each to a temporary name in its
// destination folder, renamed only when every one is complete; on any failure
// the temporary files (and folders made for copies) are removed again, and
// outputs that --force was replacing get their old bytes back.
//
// Guaranteed, when writeFiles returns a failure, or the process gets SIGINT,
// SIGTERM or SIGHUP after installInterruptCleanup(): every destination path of
// a call that did not complete holds what it held before (the same bytes, or
// nothing), and no temporary or backup file and no folder made for a copy is
// left. A call that completed keeps its outputs. Also with several calls at
// once on different threads (bake's -j).
// Two calls (processes, or threads) writing the same outputs at once: each
// commits its renames under an exclusive flock of the first output's folder, so
// one call's renames never interleave with another's. Without force a rename
// never replaces a file (RENAME_NOREPLACE, else link + unlink): an output that
// appeared after the check fails the call ("exists"), and its files stay the
// other call's. With force the last call to commit leaves its files, all of them.
// Temporaries left in a folder by a process that is gone (SIGKILL) are removed by
// the next call writing into that folder; a live process's are kept.
// Not guaranteed: a crash of the machine or of the process (SIGKILL, a second
// signal, a power cut) mid-write or mid-rename may leave temporaries
// (".<name>.rootbake-<pid>-<n>.tmp", removed by a later call as above), an
// existing output moved aside (".<name>.rootbake-<pid>-<n>.bak", kept: it may be
// the only copy), or, after the renames, files whose bytes are not yet on disk
// (nothing is fsync'd). The lock holds between processes of one machine on a
// filesystem with flock (not every network filesystem); the pid of a temporary
// means a process of this machine (a folder shared by several machines or PID
// namespaces can have a live process's temporary taken for a leftover).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace rootbake::io {

// A file streamed into another at an offset, 64 KiB at a time (a GLB's embedded image).
struct AppendedFile {
    std::filesystem::path from;
    std::uint64_t offset = 0;  // in the destination, at or after the end of bytes
    std::uint64_t size = 0;    // bytes; a file of another size now is an error (it changed)
};

struct PlannedFile {
    // Not an aggregate, so that {path, bytes, copyFrom} leaves the streamed members out unwarned.
    PlannedFile() = default;
    PlannedFile(std::filesystem::path to, std::vector<std::uint8_t> content, std::filesystem::path from = {})
        : path(std::move(to)), bytes(std::move(content)), copyFrom(std::move(from)) {}

    std::filesystem::path path;       // destination
    std::vector<std::uint8_t> bytes;  // the content, when copyFrom is empty
    std::filesystem::path copyFrom;   // else: a copy of this file
    // After bytes: each of these in order, written from where they are (a gather write: a GLB's
    // mesh bytes straight from the input's); the caller keeps them alive until writeFiles returns.
    std::vector<std::span<const std::uint8_t>> gathered;
    // After them: each of these at its offset (in order), zeros between and up to size.
    std::vector<AppendedFile> appended;
    std::uint64_t size = 0;  // with appended: the whole file's bytes
};

struct FileFailure {
    bool refused = false;  // the plan itself is wrong (an output is an input): a usage error
    std::string message;   // "<file>: <what>", one line
};

// The steps of writeFiles, in the order they run: all folders, then each
// file's temporary (create, write or copy, close), then each file's commit
// (move aside, rename).
enum class WriteStage {
    MakeFolder,  // a folder a copy goes into ("textures/" under the output's folder)
    CreateTemp,  // creating a file's temporary
    WriteBytes,  // writing its bytes; an injected error comes after half of them (a short write)
    CopyFile,    // copying a side file (copyFrom) into it; likewise after half
    CloseTemp,   // flushing and closing it
    MoveAside,   // --force over an existing output: renaming that output to its backup name
    Rename,      // renaming the temporary onto its destination
};

// For tests: called before each step with its destination (the folder, for
// MakeFolder). Returning 0 runs the step; an errno value (ENOSPC, EACCES...)
// makes the step fail as if its system call had. The CLI passes none.
using WriteHook = std::function<int(WriteStage stage, const std::filesystem::path& path)>;

// Two paths naming one file: through symlinks, "..", or hard links.
bool sameFile(const std::filesystem::path& a, const std::filesystem::path& b);

// Checks, then writes. Refused: an output that is one of `reads` (the input
// first, then the files it reads), two outputs at one path. Cannot write: an
// existing output without `force`, an output that is a folder or another
// non-regular file (a device: never replaced), a destination folder that is
// missing or not a folder, any I/O error ("<file>: cannot write: <strerror>").
// A copy onto its own source, or onto a file with the same bytes, is skipped.
std::optional<FileFailure> writeFiles(std::vector<PlannedFile> files,
                                      const std::vector<std::filesystem::path>& reads, bool force,
                                      const WriteHook& hook = {});

// Installs handlers for SIGINT, SIGTERM and SIGHUP. With no writeFiles in
// progress the process dies of the signal at once, as it would without them;
// otherwise each writeFiles in progress stops at its next step, undoes what it
// made (removes its temporaries and the outputs it renamed in, renames the
// outputs it moved aside back, removes the folders it made), and the last one
// to stop dies of the signal, so the exit status is the signal's. The undoing
// is not done in the handler itself: another thread may be mid-rename. A
// second signal kills at once; an ignored signal (nohup) stays ignored.
// Call once, early in main().
// message, when given, is written to stderr when the first signal comes ("rootbake:
// interrupted"), before the undo; it must outlive the process's use of the handler.
void installInterruptCleanup(const char* message = nullptr);

}  // namespace rootbake::io
