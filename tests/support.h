// Shared test helpers: where the corpus is, and how to skip when it is absent.
#pragma once

#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <vector>
#include <optional>
#include <string>

namespace rootbake::test {

// ../shared beside the checkout, or nothing (a user's clone does not have it).
inline std::optional<std::filesystem::path> sharedDir() {
    std::filesystem::path dir = ROOTBAKE_SHARED_DIR;
    if (std::filesystem::is_directory(dir / "corpus")) return dir;
    return std::nullopt;
}

// Standard base64 (RFC 4648), for data: URIs built in tests.
inline std::string base64(const std::vector<std::uint8_t>& bytes) {
    static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::uint32_t b = (bytes[i] << 16) | (i + 1 < bytes.size() ? bytes[i + 1] << 8 : 0) |
                                (i + 2 < bytes.size() ? bytes[i + 2] : 0);
        out += digits[(b >> 18) & 63];
        out += digits[(b >> 12) & 63];
        out += i + 1 < bytes.size() ? digits[(b >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? digits[b & 63] : '=';
    }
    return out;
}

// Runs the built rootbake with arguments; its exit code and what it printed.
struct Exit {
    int code = -1;
    std::string output;  // stdout and stderr
};

inline Exit runExe(const std::string& args) {
    const std::string command = std::string("\"") + ROOTBAKE_EXE + "\" " + args + " 2>&1";
    Exit out;
    std::FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.output.append(buffer, n);
    const int status = pclose(pipe);
    out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

// A path quoted for the shell.
inline std::string q(const std::filesystem::path& p) { return "\"" + p.string() + "\""; }

}  // namespace rootbake::test

// Use at the top of a test that reads ../shared: skips it, with a message, when absent.
#define ROOTBAKE_REQUIRE_SHARED(var)                                                   \
    const auto var##_opt = ::rootbake::test::sharedDir();                              \
    if (!var##_opt) {                                                                  \
        MESSAGE("skipped: ../shared is not beside the checkout (corpus tests need it)"); \
        return;                                                                        \
    }                                                                                  \
    const std::filesystem::path var = *var##_opt
