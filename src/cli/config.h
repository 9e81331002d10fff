// rootbake.json: analysis defaults plus per-clip overrides matched by glob on the
// clip name (README: Config file). Given with --config, or found like
// .editorconfig: the nearest rootbake.json beside the input or in a parent folder.
#pragma once

#include "cli/cli.h"
#include "rootbake/result.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace rootbake::cli {

struct ClipRule {
    std::string glob;  // fnmatch pattern on the clip name: "strafe*", "turn_?"
    AnalysisArgs args;
};

struct ConfigFile {
    std::string path;  // as found, for messages
    AnalysisArgs defaults;
    std::vector<ClipRule> clips;  // in file order: a later match overrides an earlier one
};

// Errors name the file and the JSON path:
// "rootbake.json: clips[\"strafe*\"].lateral: unknown key; did you mean extractLateralMotion?"
Result<ConfigFile> parseConfig(std::string_view text, const std::string& fileName);
Result<ConfigFile> readConfig(const std::filesystem::path& file);

// The nearest rootbake.json in the input's folder or above it, up to the top of the repository
// the input is in (the first folder with a .git, file or folder) and below any folder anyone may
// write to (/tmp); empty path when none.
std::filesystem::path findConfig(const std::filesystem::path& input);

// The rule's glob matches the clip name (fnmatch).
bool matchesClip(const ClipRule& rule, const std::string& clipName);

// Options for one clip: the defaults, then the config's defaults, then every clip
// rule whose glob matches, then the command line.
Options clipOptions(const ConfigFile* config, const AnalysisArgs& commandLine, const std::string& clipName);

// The closest of `known` to `word` within a few edits, or empty: for "did you mean".
std::string closestName(std::string_view word, const std::vector<std::string>& known);

}  // namespace rootbake::cli
