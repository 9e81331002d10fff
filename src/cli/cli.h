// The commands behind the rootbake executable. main.cpp parses the command line
// (CLI11) into these structs; each command returns an exit code.
#pragma once

#include "rootbake/bake.h"

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

// The analysis options as typed on the command line (README: Options).
struct AnalysisArgs {
    std::string root, characterNode, source, upAxis;
    std::vector<std::string> contacts;
    std::string extractRotation;  // "", "on", "off"
    bool lateral = false;
    double minTravel = -1, minTurnDegrees = -1, snapAngleDegrees = -1, samplesPerSecond = -1;
};

struct InspectArgs {
    std::vector<std::string> inputs;
    bool json = false;
    AnalysisArgs analysis;
};

int inspect(const InspectArgs& args);

// Converts typed options to the core's Options; an error names the option.
bool toOptions(const AnalysisArgs& args, Options& options, std::string& error);

// "rootbake: error: <message>" on stderr.
void printError(const std::string& message);

}  // namespace rootbake::cli
