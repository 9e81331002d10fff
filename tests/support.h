// Shared test helpers: where the corpus is, and how to skip when it is absent.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <optional>
#include <string>

namespace rootbake::test {

// ../shared beside the checkout, or nothing (a user's clone does not have it).
inline std::optional<std::filesystem::path> sharedDir() {
    std::filesystem::path dir = ROOTBAKE_SHARED_DIR;
    if (std::filesystem::is_directory(dir / "corpus")) return dir;
    return std::nullopt;
}

}  // namespace rootbake::test

// Use at the top of a test that reads ../shared: skips it, with a message, when absent.
#define ROOTBAKE_REQUIRE_SHARED(var)                                                   \
    const auto var##_opt = ::rootbake::test::sharedDir();                              \
    if (!var##_opt) {                                                                  \
        MESSAGE("skipped: ../shared is not beside the checkout (corpus tests need it)"); \
        return;                                                                        \
    }                                                                                  \
    const std::filesystem::path var = *var##_opt
