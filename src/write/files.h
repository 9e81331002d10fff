// Writing a bake's files all or nothing: each to a temporary name in its
// destination folder, renamed only when every one is complete; on any failure
// the temporary files (and folders made for copies) are removed again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rootbake {

struct PlannedFile {
    std::filesystem::path path;       // destination
    std::vector<std::uint8_t> bytes;  // the content, when copyFrom is empty
    std::filesystem::path copyFrom;   // else: a copy of this file
};

struct FileFailure {
    bool refused = false;  // the plan itself is wrong (an output is an input): a usage error
    std::string message;   // "<file>: <what>"
};

// Two paths naming one file: through symlinks, "..", or hard links.
bool sameFile(const std::filesystem::path& a, const std::filesystem::path& b);

// Checks, then writes. Refused: an output that is one of `reads` (the input
// first, then the files it reads), two outputs at one path. Cannot write: an
// existing output without `force`, an output that is a folder, a destination
// folder that is missing or not a folder, any I/O error. A copy onto its own
// source, or onto a file with the same bytes, is skipped.
std::optional<FileFailure> writeFiles(std::vector<PlannedFile> files,
                                      const std::vector<std::filesystem::path>& reads, bool force);

}  // namespace rootbake
