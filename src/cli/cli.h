// The commands behind the rootbake executable. main.cpp parses the command line
// (CLI11) into these structs; each command returns an exit code.
#pragma once

#include "cli/analysis_options.h"
#include "cli/printable.h"
#include "gltf/asset.h"
#include "pipeline/bake.h"
#include "rootbake/bake.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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

// The exit status of a run over many assets, whatever their order: an error (usage,
// bad input, cannot write: the first of those by code) outranks a failed gate.
int combineExitCodes(int a, int b);

// Rows of cells as table lines: each cell printable, each column as wide as its widest
// cell (the header row's too), two spaces apart, each line starting with indent, without
// its newline.
std::vector<std::string> tableLines(const std::vector<std::vector<std::string>>& rows,
                                    const std::string& indent);
// The same joined, one line each.
std::string tableText(const std::vector<std::vector<std::string>>& rows, const std::string& indent);

// ASCII letters lowered: file extensions and clip names compare so on every locale.
std::string lowerAscii(std::string text);
// "1 clip", "7 clips": the count and the noun that agrees with it.
std::string counted(std::size_t count, const char* one, const char* many);

// What rootbake prints is built of lines: these, tableLines, and errorLine/warningLine
// (run.h), each passing its text through printable (cli/printable.h) once, so a name from
// a file cannot break a line or reach the terminal as a control.
std::string textLine(std::string_view text);  // printable(text) + "\n"
// Text in lines of at most kColumns (printable, each ending in "\n"): the first after
// `first`, the others after `indent` spaces, broken at spaces but those inside `whole` (node
// names); a word longer than a line (a file or node name) stays where it falls.
inline constexpr std::size_t kColumns = 100;
std::string wrappedLines(std::string_view first, std::string_view text, std::size_t indent,
                         const std::vector<std::string>& whole = {});
// A reason's facts ("; "-separated, not within brackets), one each.
std::vector<std::string> reasonFacts(std::string_view reason);
// A clip's reason under its line (-v): one fact a line, the first after "      reason: ", the
// others under it, each wrapped within kColumns but for long names (`whole`, kept whole).
std::string reasonLines(std::string_view reason, const std::vector<std::string>& whole);
// "rootbake: <kind>: <message>\n": kind is warning, failed or changed (errors: errorLine).
std::string messageLine(std::string_view kind, std::string_view message);
// A warning or a failed gate at a place ("walk.glb: animations[0] \"walk\""): messageLine of
// "<place>: <text>" when it fits kColumns; else the place ends the first line and the text
// follows in wrappedLines indented by 4, so that the text wraps the same whatever the file's
// name. Joining each "\n    " back with a space gives the one line. An error stays one line.
std::string messageLines(std::string_view kind, std::string_view place, std::string_view text,
                         const std::vector<std::string>& whole = {});
// A --json document for stdout (dump(2) and a newline). JSON text is UTF-8, and a file
// name may be any bytes: those that are not UTF-8 become U+FFFD rather than an abort.
std::string jsonText(const nlohmann::ordered_json& document);

// Every limit of loading and analysis, by the name its error gives ("more than maxNodes").
struct Limits {
    gltf::LoadLimits load;
    std::uint64_t maxSamples = Options{}.maxSamples;
    std::uint64_t maxAssetNodeSamples = pipeline::kMaxAssetNodeSamples;
    std::uint64_t maxAssetTrackSamples = pipeline::kMaxAssetTrackSamples;
};

// "NAME=VALUE" of --limit; an error names the flag and lists the names.
bool parseLimit(const std::string& text, Limits& limits, std::string& error);

// Options every command that reads assets shares.
struct CommonArgs {
    std::vector<std::string> inputs;  // files and folders
    bool recursive = false;           // walk folders into their subfolders
    bool json = false;                // one JSON document on stdout; messages on stderr
    bool quiet = false;               // errors only
    bool verbose = false;             // each decision's reason
    std::string config;               // rootbake.json; empty: found beside each input
    std::string failOn;               // --fail-on gates
    std::vector<std::string> limits;  // --limit NAME=VALUE
    int jobs = 0;                     // threads (assets, then clips, in parallel); 0: the machine's cores
    AnalysisArgs analysis;
};

struct InfoArgs {
    CommonArgs common;
};

int info(const InfoArgs& args);

struct InspectArgs {
    CommonArgs common;
};

int inspect(const InspectArgs& args);

// "rootbake: error: <message>" on stderr.
void printError(const std::string& message);

}  // namespace rootbake::cli
