// Where ../shared is, and how a case that needs it skips when it is absent: ctest reports the
// case as skipped (tests/main.cpp), never as passed.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

namespace rootbake::test {

// ../shared beside the checkout, or nothing (a user's clone does not have it). The environment's
// ROOTBAKE_SHARED_DIR, when set, replaces it: a run can hide the corpus to see the skips.
inline std::optional<std::filesystem::path> sharedDir() {
    const char* fromEnvironment = std::getenv("ROOTBAKE_SHARED_DIR");
    const std::filesystem::path dir = fromEnvironment ? fromEnvironment : ROOTBAKE_SHARED_DIR;
    if (std::filesystem::is_directory(dir / "corpus")) return dir;
    return std::nullopt;
}

// Marks the running case as skipped: a run whose every case did so exits 77 (tests/main.cpp).
void markCaseSkipped();

}  // namespace rootbake::test

// At the top of a case that reads ../shared: skips it, with a message, when absent.
#define ROOTBAKE_REQUIRE_SHARED(var)                                                     \
    const auto var##_opt = ::rootbake::test::sharedDir();                                \
    if (!var##_opt) {                                                                    \
        MESSAGE("skipped: ../shared is not beside the checkout (corpus tests need it)"); \
        ::rootbake::test::markCaseSkipped();                                             \
        return;                                                                          \
    }                                                                                    \
    const std::filesystem::path var = *var##_opt
