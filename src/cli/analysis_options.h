// The analysis options, each declared once: its flag, its rootbake.json key, the Options
// field it sets, its range, unit and help. The command line (main.cpp), rootbake.json
// (config.cpp) and the README's test (tests/readme_test.cpp) iterate this one table.
#pragma once

#include "rootbake/bake.h"
#include "rootbake/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace rootbake::cli {

// The Options field an option sets; its type says how its value is written (OptionKind).
using OptionField = std::variant<NodeRef Options::*, std::vector<NodeRef> Options::*, bool Options::*,
                                 double Options::*, std::optional<double> Options::*, glm::dvec3 Options::*,
                                 SourceChoice Options::*, Toggle Options::*, ContactRule Options::*>;

enum class OptionKind : std::uint8_t {
    Node,    // a node name or nodes[N]
    Nodes,   // nodes: A,B or the flag repeated; a JSON array of names
    Switch,  // a flag; true or false
    Number,  // a number within the option's range
    Axis,    // +X, -Y, ... or x,y,z; also [x, y, z] in JSON
    Choice,  // one of the option's words (an enum); a Toggle also true or false in JSON
};

struct NumberRange {
    double low = 0.0, high = 0.0;  // both accepted
};

struct AnalysisOption {
    std::string flag;       // "--min-turn"
    std::string configKey;  // "minimumTurn"
    OptionField field;
    std::string help;        // the line of `rootbake COMMAND --help`
    std::string unit;        // of the value as written; empty: none
    NumberRange range;       // numbers: the values accepted, in `unit`
    double scale = 1.0;      // numbers: Options' unit per `unit` (degrees to rad)
    std::vector<std::string> words;  // choices: the words, in the enum's order
    std::string assetWide;   // not empty: why a clip rule may not set it (the asset's, not a clip's)
};

// Every analysis option, in the order of the README's table and of --help.
const std::vector<AnalysisOption>& analysisOptions();

OptionKind kindOf(const AnalysisOption& option);

// The analysis options one source sets (the command line, a config file's defaults or one
// of its clip rules): the values in Options' units, and which are set; the others leave
// the value below them alone.
struct AnalysisArgs {
    Options values;
    std::uint32_t given = 0;  // bit i: analysisOptions()[i] is set
};

bool isGiven(const AnalysisArgs& args, const AnalysisOption& option);

// Setting one option (a row of analysisOptions(), by reference) from a value as written.
// An error says what was expected ("must be between 0 and 90"), without the option's name.
Status setFromText(const AnalysisOption& option, const std::string& text, AnalysisArgs& args);  // Node, Axis, Choice
Status setNumber(const AnalysisOption& option, double value, AnalysisArgs& args);
Status setAxis(const AnalysisOption& option, const glm::dvec3& up, AnalysisArgs& args);  // not a zero vector
void setNodes(const AnalysisOption& option, const std::vector<std::string>& names, AnalysisArgs& args);
void setSwitch(const AnalysisOption& option, bool on, AnalysisArgs& args);

// "must be between 0 and 90": the error of a number out of the option's range.
std::string rangeError(const NumberRange& range);
// "auto, on or off"; quoted as JSON strings: "\"auto\", \"on\" or \"off\"".
std::string wordList(const std::vector<std::string>& words, bool quoted);

// An axis +X..-Z (or X..Z) or x,y,z; false: not one.
bool parseUpAxis(const std::string& text, glm::dvec3& up);

// The options above override those below: above's set fields over below's.
void overlay(AnalysisArgs& below, const AnalysisArgs& above);
// Applies the fields that are set.
void applyAnalysisArgs(const AnalysisArgs& args, Options& options);

}  // namespace rootbake::cli
