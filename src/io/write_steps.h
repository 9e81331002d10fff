// The steps of writeFiles that write_files.cpp and temp_file.cpp share. Only src/io includes this.
#pragma once

#include "io/write_files.h"

#include <filesystem>
#include <string>

namespace rootbake::io {

// A step's error when a signal came (SIGINT, SIGTERM, SIGHUP): the write stops and is undone.
constexpr int kInterrupted = -1;

// Before each step: the test hook's errno, or kInterrupted once a signal came; 0 runs the step.
int beforeStep(const WriteHook& hook, WriteStage stage, const std::filesystem::path& path);
// strerror's text, or "interrupted".
std::string errnoText(int error);

struct TempResult {
    bool created = false;  // the temporary exists (ours: "x" never opens an existing name)
    std::string error;     // empty: complete
};
// Writes file's content (or its copy of copyFrom) to the new file temp.
TempResult writeTemp(const std::filesystem::path& temp, const PlannedFile& file, const WriteHook& hook);

// ".walk.glb.rootbake-1234-0.tmp" beside path, for suffix ".tmp" (".bak": an output moved aside).
std::filesystem::path siblingName(const std::filesystem::path& path, const char* suffix);

}  // namespace rootbake::io
