// The commands behind the rootbake executable. main.cpp parses the command line
// (CLI11) into these structs; each command returns an exit code.
#pragma once

#include <string>
#include <vector>

namespace rootbake::cli {

// Documented in README.md; stable.
enum ExitCode : int {
    kOk = 0,
    kUsage = 1,        // bad command line
    kBadInput = 2,     // an input could not be read or is not valid glTF
    kCannotWrite = 3,  // an output could not be written
    kGateFailed = 4,   // a --fail-on gate or a check failed
};

struct InfoArgs {
    std::vector<std::string> inputs;
    bool json = false;
};

int info(const InfoArgs& args);

// "rootbake: error: <message>" on stderr.
void printError(const std::string& message);

}  // namespace rootbake::cli
