// Shared test helpers: temp folders, files, running the executable; where the corpus is, and
// how to skip when it is absent (shared_dir.h).
#pragma once

#include "io/base64.h"
#include "gltf/asset.h"
#include "shared_dir.h"

#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <vector>
#include <optional>
#include <string>

namespace rootbake::test {

// A joint appended to a rig under parent, at `translation` from it at rest, moving no vertex
// of the mesh; its rig index.
inline int addJoint(Rig& rig, int parent, const std::string& name, glm::dvec3 translation) {
    rig.parent.push_back(parent);
    Transform rest;
    rest.translation = translation;
    rig.rest.push_back(rest);
    rig.name.push_back(name);
    rig.gltfIndex.push_back(static_cast<int>(rig.rigIndexOfGltf.size()));
    rig.rigIndexOfGltf.push_back(rig.size() - 1);
    rig.hasMesh.push_back(0);
    if (rig.hasSurface()) rig.surface.emplace_back();
    return rig.size() - 1;
}

// Standard base64, for data: URIs built in tests.
inline std::string base64(const std::vector<std::uint8_t>& bytes) { return rootbake::io::encodeBase64(bytes); }

// A fresh folder under the system's temp folder, removed (made writable first) at the end.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name) {
        path = std::filesystem::temp_directory_path() / ("rootbake-" + name + "-" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

inline std::vector<std::uint8_t> readBytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string readText(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const std::filesystem::path& file, std::span<const std::uint8_t> bytes) {
    std::ofstream out(file, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

inline void writeText(const std::filesystem::path& file, const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
}

// Every entry under a folder (relative path, bytes; empty for a folder), sorted.
inline std::vector<std::pair<std::string, std::vector<std::uint8_t>>> listing(const std::filesystem::path& folder) {
    std::vector<std::pair<std::string, std::vector<std::uint8_t>>> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(folder))
        out.emplace_back(e.path().lexically_relative(folder).string(),
                         e.is_regular_file() ? readBytes(e.path()) : std::vector<std::uint8_t>{});
    std::sort(out.begin(), out.end());
    return out;
}

// Runs a shell command; its exit code (-1 when it did not exit) and its stdout.
inline int runShell(const std::string& command, std::string& output) {
    std::FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
    const int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Runs the built rootbake with arguments; its exit code and what it printed.
struct Exit {
    int code = -1;
    std::string output;  // stdout and stderr
};

inline Exit runExe(const std::string& args) {
    Exit out;
    out.code = runShell(std::string("\"") + ROOTBAKE_EXE + "\" " + args + " 2>&1", out.output);
    return out;
}

// The same with stdout and stderr apart; `environment` is put before the command
// ("CI=1 ").
struct SplitExit {
    int code = -1;
    std::string out, err;
};

inline SplitExit runExeSplit(const std::string& args, const std::string& environment = "") {
    static int calls = 0;
    const std::filesystem::path errFile = std::filesystem::temp_directory_path() /
                                          ("rootbake-stderr-" + std::to_string(::getpid()) + "-" + std::to_string(++calls));
    SplitExit out;
    out.code = runShell(environment + "\"" + ROOTBAKE_EXE + "\" " + args + " 2>\"" + errFile.string() + "\"", out.out);
    out.err = readText(errFile);
    std::filesystem::remove(errFile);
    return out;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
// Messages as one line each: a warning or failed gate longer than 100 columns goes on under
// its place, each line after the first indented by 4 (cli::messageLines); joined back here.
inline std::string unwrapped(std::string text) {
    for (std::size_t at = text.find("\n    "); at != std::string::npos; at = text.find("\n    ", at + 1))
        text.replace(at, 5, " ");
    return text;
}

// A path quoted for the shell.
// A path quoted for the shell whatever it holds ($, `, ", newlines): single quotes.
inline std::string q(const std::filesystem::path& p) {
    std::string out = "'";
    for (char c : p.string()) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace rootbake::test
