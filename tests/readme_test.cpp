// The README's option and limit tables against the program: every option a table
// names is one a command takes, every option a command takes is in the README, every
// config key a table names is one rootbake.json knows, and the limits table lists
// exactly the limits --limit accepts.
#include "biped.h"
#include "support.h"

#include <doctest/doctest.h>

#include <fstream>
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

// The n-th (0-based) backticked word of a table row's column `column`.
std::string cell(const std::string& row, int column) {
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
    const size_t open = c.find('`');
    const size_t close = c.find('`', open + 1);
    return open == std::string::npos || close == std::string::npos ? "" : c.substr(open + 1, close - open - 1);
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
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "rootbake-readme-keys";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::vector<std::uint8_t> glb = samples::toGlb(samples::makeBiped());
    std::ofstream(dir / "biped.glb", std::ios::binary).write(reinterpret_cast<const char*>(glb.data()), glb.size());
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
