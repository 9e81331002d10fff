// The README's option and limit tables against the program: every option a table
// names is one a command takes, every option a command takes is in the README, every
// config key a table names is one rootbake.json knows, and the limits table lists
// exactly the limits --limit accepts.
#include "biped.h"
#include "cli/analysis_options.h"
#include "support.h"

#include <doctest/doctest.h>

#include <fstream>
#include <numbers>
#include <regex>
#include <set>
#include <sstream>

using namespace rootbake;
using namespace rootbake::test;

namespace {

std::string readme() {
    std::ifstream in(std::filesystem::path(ROOTBAKE_SOURCE_DIR) / "README.md");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The table rows (lines starting with "| `") of the README section whose heading contains `heading`.
std::vector<std::string> tableRows(const std::string& text, const std::string& heading) {
    std::vector<std::string> rows;
    std::istringstream lines(text);
    std::string line;
    bool inSection = false;
    while (std::getline(lines, line)) {
        if (line.rfind("#", 0) == 0) inSection = line.find(heading) != std::string::npos;
        else if (inSection && line.rfind("| `", 0) == 0) rows.push_back(line);
    }
    return rows;
}

// The long options (--name) in a text.
std::set<std::string> longOptions(const std::string& text) {
    std::set<std::string> options;
    const std::regex option("--[a-z][a-z0-9-]*");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), option); it != std::sregex_iterator(); ++it)
        options.insert(it->str());
    return options;
}

// The text of a table row's column `column` (0-based), trimmed; empty past the last.
std::string columnText(const std::string& row, int column) {
    std::vector<std::string> cells;
    std::string current;
    for (size_t i = 1; i < row.size(); ++i) {
        if (row[i] == '|' && row[i - 1] != '\\') {
            cells.push_back(current);
            current.clear();
        } else {
            current += row[i];
        }
    }
    if (column >= int(cells.size())) return "";
    const std::string& c = cells[column];
    const size_t first = c.find_first_not_of(' '), last = c.find_last_not_of(' ');
    return first == std::string::npos ? "" : c.substr(first, last - first + 1);
}

std::string withoutBackticks(std::string text) {
    std::erase(text, '`');
    return text;
}

// As a range's error prints a number: 1e+06, 0.1, 10.
std::string printed(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

// The first backticked word of a table row's column `column` (0-based).
std::string cell(const std::string& row, int column) {
    const std::string c = columnText(row, column);
    const size_t open = c.find('`');
    const size_t close = c.find('`', open + 1);
    return open == std::string::npos || close == std::string::npos ? "" : c.substr(open + 1, close - open - 1);
}

// A fresh folder in the temp folder holding the biped as biped.glb.
std::filesystem::path folderWithBiped(const std::string& name) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::vector<std::uint8_t> glb = samples::toGlb(samples::makeBiped());
    std::ofstream(dir / "biped.glb", std::ios::binary).write(reinterpret_cast<const char*>(glb.data()), glb.size());
    return dir;
}

const char* const kCommands[] = {"bake", "inspect", "check", "info", "report", "verify"};

}  // namespace

TEST_CASE("readme: every option of the README's tables is one a command takes, and every option is in the README") {
    const std::string text = readme();
    std::set<std::string> taken;
    for (const char* command : kCommands) {
        const Exit help = runExe(std::string(command) + " --help");
        REQUIRE(help.code == 0);
        for (const std::string& option : longOptions(help.output)) taken.insert(option);
    }
    taken.erase("--help");
    // Each table of options: its first column's long options are taken by some command.
    int rows = 0;
    for (const char* heading : {"### bake", "Options of bake", "Analysis options"})
        for (const std::string& row : tableRows(text, heading)) {
            const std::string first = row.substr(0, row.find('|', 1));
            for (const std::string& option : longOptions(first)) {
                CAPTURE(row);
                CHECK(taken.count(option) == 1);
                ++rows;
            }
        }
    CHECK(rows > 25);
    // And every option a command takes is written in the README.
    const std::set<std::string> written = longOptions(text);
    for (const std::string& option : taken) {
        CAPTURE(option);
        CHECK(written.count(option) == 1);
    }
}

TEST_CASE("readme: every config key of the analysis table is one rootbake.json knows") {
    const std::filesystem::path dir = folderWithBiped("rootbake-readme-keys");
    int keys = 0;
    for (const std::string& row : tableRows(readme(), "Analysis options")) {
        const std::string key = cell(row, 1);
        REQUIRE_FALSE(key.empty());
        CAPTURE(key);
        // An object is no key's value: the error must be about the value, not an unknown key.
        std::ofstream(dir / "rootbake.json") << "{\"defaults\": {\"" << key << "\": {\"x\": 1}}}";
        const Exit run = runExe("inspect " + q(dir / "biped.glb") + " --config " + q(dir / "rootbake.json"));
        CHECK(run.code == 1);
        CHECK(contains(run.output, key));
        CHECK_FALSE(contains(run.output, "unknown key"));
        ++keys;
    }
    CHECK(keys >= 12);
    // A key the table does not name is unknown.
    std::ofstream(dir / "rootbake.json") << "{\"defaults\": {\"liftOffSlope\": 0.5}}";
    CHECK(contains(runExe("inspect " + q(dir / "biped.glb") + " --config " + q(dir / "rootbake.json")).output,
                   "unknown key"));
    std::filesystem::remove_all(dir);
}

TEST_CASE("readme: the analysis options table is the program's options table, row for row") {
    using namespace rootbake::cli;
    const std::vector<std::string> rows = tableRows(readme(), "Analysis options");
    const std::vector<AnalysisOption>& options = analysisOptions();
    REQUIRE(rows.size() == options.size());
    CHECK(options.size() <= 32);  // AnalysisArgs::given has a bit per option
    const Options defaults;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const AnalysisOption& option = options[i];
        const std::string& row = rows[i];
        CAPTURE(row);
        // The flag, with its value: the words of a choice, nothing for a switch.
        const std::string written = cell(row, 0);
        CHECK(written.rfind(option.flag, 0) == 0);
        CHECK((written == option.flag) == (kindOf(option) == OptionKind::Switch));
        if (kindOf(option) == OptionKind::Choice) {
            std::string words;
            for (const std::string& word : option.words) words += (words.empty() ? "" : "\\|") + word;
            CHECK(written == option.flag + " " + words);
        }
        CHECK(cell(row, 1) == option.configKey);
        // The unit and the range, where there are, in the meaning.
        const std::string meaning = columnText(row, 2);
        if (!option.unit.empty()) CHECK(contains(meaning, option.unit));
        if (kindOf(option) == OptionKind::Number)
            CHECK(contains(meaning, "(" + printed(option.range.low) + " to " + printed(option.range.high) + ")"));
        // The default, where it is a value: as Options has it, in the unit written.
        const std::string byDefault = withoutBackticks(columnText(row, 3));
        std::visit(
            [&](auto field) {
                const auto& value = defaults.*field;
                using T = std::remove_cvref_t<decltype(value)>;
                if constexpr (std::is_same_v<T, double>) {
                    CHECK(byDefault == printed(value / option.scale));
                } else if constexpr (std::is_same_v<T, bool>) {
                    CHECK(byDefault == (value ? "on" : "off"));
                } else if constexpr (std::is_enum_v<T>) {
                    CHECK(byDefault.rfind(option.words.at(std::size_t(value)), 0) == 0);
                } else if constexpr (std::is_same_v<T, glm::dvec3>) {
                    glm::dvec3 up;
                    REQUIRE(parseUpAxis(byDefault, up));
                    CHECK(up == value);
                }
            },
            option.field);
    }
}

TEST_CASE("readme: a number out of its option's range is refused alike on the command line and in rootbake.json") {
    using namespace rootbake::cli;
    const std::filesystem::path dir = folderWithBiped("rootbake-readme-ranges");
    int numbers = 0;
    for (const AnalysisOption& option : analysisOptions()) {
        if (kindOf(option) != OptionKind::Number) continue;
        ++numbers;
        for (const double outside : {option.range.low - 1, option.range.high * 2}) {
            CAPTURE(option.flag);
            CAPTURE(outside);
            const std::string error = "must be between " + printed(option.range.low) + " and " + printed(option.range.high);
            const Exit cli = runExe("inspect " + q(dir / "biped.glb") + " " + option.flag + " " + printed(outside));
            CHECK(cli.code == 1);
            CHECK(contains(cli.output, option.flag + ": " + error));
            std::ofstream(dir / "rootbake.json") << "{\"defaults\": {\"" << option.configKey << "\": " << printed(outside) << "}}";
            const Exit config = runExe("inspect " + q(dir / "biped.glb") + " --config " + q(dir / "rootbake.json"));
            CHECK(config.code == 1);
            CHECK(contains(config.output, "defaults." + option.configKey + ": " + error));
        }
    }
    CHECK(numbers == 4);
    std::filesystem::remove_all(dir);
}

TEST_CASE("readme: the limits table lists exactly the limits --limit accepts") {
    std::set<std::string> documented;
    for (const std::string& row : tableRows(readme(), "### Limits")) documented.insert(cell(row, 0));
    // The program names every limit it has when it is given one it does not.
    const Exit unknown = runExe("inspect none.glb --limit noSuchLimit=1");
    CHECK(unknown.code == 1);
    const size_t open = unknown.output.find('('), close = unknown.output.find(')', open);
    REQUIRE(open != std::string::npos);
    std::set<std::string> known;
    std::istringstream names(unknown.output.substr(open + 1, close - open - 1));
    std::string name;
    while (std::getline(names, name, ',')) known.insert(name.substr(name.find_first_not_of(' ')));
    CHECK(known.size() >= 10);
    CHECK(documented == known);
}
