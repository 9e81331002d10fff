// rootbake.json: parsing with paths in every error, discovery, and the layering
// of defaults, clip rules and the command line.
#include "cli/config.h"
#include "io/json_parse.h"
#include "io/read_file.h"

#include <nlohmann/json.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <sstream>

namespace rootbake::cli {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;  // clip rules apply in file order

namespace {

const std::vector<std::string> kTopKeys = {"defaults", "clips", "root"};

struct Failure {
    std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw Failure{path + ": " + what}; }

std::string unknownKey(const std::string& key, const std::vector<std::string>& known) {
    const std::string near = closestName(key, known);
    return near.empty() ? "unknown key" : "unknown key; did you mean " + near + "?";
}

std::string text(const Json& value, const std::string& path) {
    if (!value.is_string()) fail(path, "expected a string");
    return value.get<std::string>();
}

// One option's value, as its kind is written in JSON.
void readOption(const AnalysisOption& option, const Json& value, const std::string& at, bool defaults,
                AnalysisArgs& args) {
    auto check = [&](const Status& set) {
        if (!set) fail(at, set.error().message);
    };
    switch (kindOf(option)) {
    case OptionKind::Node:
        check(setFromText(option, text(value, at), args));
        break;
    case OptionKind::Nodes: {
        if (!value.is_array()) fail(at, "expected an array of node names");
        std::vector<std::string> names;
        for (std::size_t i = 0; i < value.size(); ++i) names.push_back(text(value[i], at + "[" + std::to_string(i) + "]"));
        setNodes(option, names, args);
        break;
    }
    case OptionKind::Switch:
        if (!value.is_boolean()) fail(at, "expected true or false");
        setSwitch(option, value.get<bool>(), args);
        break;
    case OptionKind::Number:
        if (!value.is_number()) fail(at, "expected a number");
        check(setNumber(option, value.get<double>(), args));
        break;
    case OptionKind::Axis:
        if (!defaults && !option.assetWide.empty()) fail(at, option.assetWide + ": set it in defaults");
        if (value.is_array() && value.size() == 3 && value[0].is_number() && value[1].is_number() &&
            value[2].is_number())
            check(setAxis(option, {value[0].get<double>(), value[1].get<double>(), value[2].get<double>()}, args));
        else if (!value.is_string() || !setFromText(option, value.get<std::string>(), args))
            fail(at, "expected \"+X\", \"-Y\", \"+Z\", ... or [x, y, z]");
        break;
    case OptionKind::Choice: {
        // A switch the analysis may decide (Toggle) is also true or false.
        const bool toggle = std::holds_alternative<Toggle Options::*>(option.field);
        if (toggle && value.is_boolean())
            check(setFromText(option, kToggleNames[int(value.get<bool>() ? Toggle::On : Toggle::Off)], args));
        else if (!value.is_string() || !setFromText(option, value.get<std::string>(), args))
            fail(at, "expected " + std::string(toggle ? "true, false, " : "") + wordList(option.words, true));
        break;
    }
    }
}

AnalysisArgs readOptions(const Json& object, const std::string& path, bool defaults) {
    if (!object.is_object()) fail(path, "expected an object of options");
    std::vector<std::string> keys;
    for (const AnalysisOption& option : analysisOptions()) keys.push_back(option.configKey);
    AnalysisArgs args;
    for (const auto& [key, value] : object.items()) {
        const auto option = std::find(keys.begin(), keys.end(), key);
        if (option == keys.end()) fail(path + "." + key, unknownKey(key, keys));
        readOption(analysisOptions()[std::size_t(option - keys.begin())], value, path + "." + key, defaults, args);
    }
    return args;
}

}  // namespace

Result<ConfigFile> parseConfig(std::string_view bytes, const std::string& fileName) {
    Result<Json> parsed = io::parseOrderedJson(bytes);
    if (!parsed) return Error{fileName + ": not JSON: " + parsed.error().message};
    const Json document = std::move(*parsed);
    ConfigFile config;
    config.path = fileName;
    try {
        if (!document.is_object()) fail("(top)", "expected an object with defaults and clips");
        for (const auto& [key, value] : document.items()) {
            if (key == "defaults") {
                config.defaults = readOptions(value, "defaults", true);
            } else if (key == "root") {
                // As .editorconfig's: the top of the search (the nearest config ends it anyway).
                if (!value.is_boolean()) fail("root", "expected true or false");
            } else if (key == "clips") {
                if (!value.is_object()) fail("clips", "expected an object of glob: options");
                for (const auto& [glob, options] : value.items())
                    config.clips.push_back({glob, readOptions(options, "clips[\"" + glob + "\"]", false)});
            } else {
                fail(key, unknownKey(key, kTopKeys));
            }
        }
    } catch (const Failure& f) {
        return Error{fileName + ": " + f.message};
    }
    return config;
}

Result<ConfigFile> readConfig(const fs::path& file) {
    // A config is a few rules; 16 MiB is far past any, and bounds what a stray file costs.
    constexpr std::uint64_t kMaxConfigBytes = 16ull << 20;
    auto text = io::readFileText(file, {kMaxConfigBytes, ""});
    if (!text) return Error{file.string() + ": cannot read the config file: " + text.error().message};
    return parseConfig(*text, file.string());
}

fs::path findConfig(const fs::path& input) {
    std::error_code error;
    fs::path folder = fs::absolute(input, error).parent_path();
    if (error) return {};
    for (;;) {
        // A folder anyone may write to (/tmp, a shared drop folder): whoever wrote a rootbake.json
        // there is not the art's owner. The search ends before it.
        const fs::perms perms = fs::status(folder, error).permissions();
        if (!error && (perms & fs::perms::others_write) != fs::perms::none) return {};
        const fs::path candidate = folder / "rootbake.json";
        if (fs::is_regular_file(candidate, error)) {
            // Named as the input is: relative inputs give relative config paths in messages.
            const fs::path relative = fs::relative(candidate, fs::current_path(error), error);
            return error || relative.empty() ? candidate : relative;
        }
        // The top of a repository ends the search: a rootbake.json above it (in /tmp, in a home
        // folder) is not the art's, and must not change every bake below it.
        if (fs::exists(folder / ".git", error)) return {};
        if (!folder.has_relative_path()) return {};
        folder = folder.parent_path();
    }
}

bool matchesClip(const ClipRule& rule, const std::string& clipName) {
    return fnmatch(rule.glob.c_str(), clipName.c_str(), 0) == 0;
}

Options clipOptions(const ConfigFile* config, const AnalysisArgs& commandLine, const std::string& clipName) {
    AnalysisArgs layered;
    if (config) {
        overlay(layered, config->defaults);
        for (const ClipRule& rule : config->clips)
            if (matchesClip(rule, clipName)) overlay(layered, rule.args);
    }
    overlay(layered, commandLine);
    Options options;
    applyAnalysisArgs(layered, options);
    return options;
}

std::string closestName(std::string_view word, const std::vector<std::string>& known) {
    // Levenshtein distance, case-insensitive; a match also when one contains the other.
    const std::string lw = lowerAscii(std::string(word));
    std::string best;
    std::size_t bestDistance = std::max<std::size_t>(2, word.size() / 3) + 1;
    for (const std::string& candidate : known) {
        const std::string lc = lowerAscii(candidate);
        std::vector<std::size_t> row(candidate.size() + 1);
        for (std::size_t j = 0; j < row.size(); ++j) row[j] = j;
        for (std::size_t i = 1; i <= word.size(); ++i) {
            std::size_t diagonal = row[0];
            row[0] = i;
            for (std::size_t j = 1; j <= candidate.size(); ++j) {
                const std::size_t above = row[j];
                const bool same = lw[i - 1] == lc[j - 1];
                row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
                diagonal = above;
            }
        }
        const bool contains = lw.size() >= 4 && lc.find(lw) != std::string::npos;
        const std::size_t distance = contains ? 1 : row.back();
        if (distance < bestDistance) {
            bestDistance = distance;
            best = candidate;
        }
    }
    return best;
}

}  // namespace rootbake::cli
