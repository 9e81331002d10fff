// The main of every test binary. A case that needs ../shared and finds it absent marks itself
// skipped (ROOTBAKE_REQUIRE_SHARED); a run whose every case did so, with nothing failed, exits 77,
// which ctest reports as skipped (SKIP_RETURN_CODE) rather than passed. ctest runs one case per
// process; a run of many cases, some of which skip, passes or fails as doctest says.
// ctest's entries also pass --rootbake-one-case: their filter must select exactly one case, or a
// name that the discovery mangled would pass having run nothing.
#define DOCTEST_CONFIG_IMPLEMENT
#include "shared_dir.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace {

constexpr int kSkippedExitCode = 77;
int casesRun = 0;
int casesSkipped = 0;
bool skipping = false;  // the running case marked itself skipped

// Counts the cases a run enters and those that marked themselves skipped.
struct SkipCounter : doctest::IReporter {
    explicit SkipCounter(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData&) override {
        ++casesRun;
        skipping = false;
    }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override { casesSkipped += skipping; }
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

REGISTER_LISTENER("skip_counter", 1, SkipCounter);

void rootbake::test::markCaseSkipped() {
    skipping = true;
}

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    const int result = context.run();
    if (context.shouldExit() || result != 0) return result;
    const auto isFlag = [](const char* a) { return std::strcmp(a, "--rootbake-one-case") == 0; };
    const bool oneCase = std::any_of(argv, argv + argc, isFlag);
    if (oneCase && casesRun != 1) {
        std::fprintf(stderr,
                     "error: the --test-case filter selected %d cases, not one (ctest's discovery "
                     "cannot pass a name with ';' whole)\n",
                     casesRun);
        return 1;
    }
    return casesRun > 0 && casesSkipped == casesRun ? kSkippedExitCode : 0;
}
