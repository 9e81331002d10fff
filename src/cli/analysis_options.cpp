// The analysis options table, and setting its options from values as written.
#include "cli/analysis_options.h"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace rootbake::cli {

namespace {

std::vector<std::string> namesOf(const char* const* names, std::size_t count) {
    return std::vector<std::string>(names, names + count);
}

AnalysisOption option(std::string flag, std::string configKey, OptionField field, std::string help) {
    AnalysisOption row;
    row.flag = std::move(flag);
    row.configKey = std::move(configKey);
    row.field = field;
    row.help = std::move(help);
    return row;
}

AnalysisOption number(std::string flag, std::string configKey, OptionField field, std::string help, std::string unit,
                      NumberRange range, double scale = 1.0) {
    AnalysisOption row = option(std::move(flag), std::move(configKey), field, std::move(help));
    row.unit = std::move(unit);
    row.range = range;
    row.scale = scale;
    return row;
}

AnalysisOption choice(std::string flag, std::string configKey, OptionField field, std::string help,
                      std::vector<std::string> words) {
    AnalysisOption row = option(std::move(flag), std::move(configKey), field, std::move(help));
    row.words = std::move(words);
    return row;
}

AnalysisOption assetWide(AnalysisOption row, std::string why) {
    row.assetWide = std::move(why);
    return row;
}

std::vector<AnalysisOption> makeAnalysisOptions() {
    constexpr double degrees = std::numbers::pi / 180.0;  // rad per degree
    return {
        option("--root", "rootNode", &Options::rootNode, "Root node (name or nodes[N]); default: found"),
        option("--character-node", "characterNode", &Options::characterNode,
               "Ancestor of the root to measure in; default: scene space"),
        option("--contacts", "contactNodes", &Options::contactNodes, "Contact nodes A,B; default: found"),
        choice("--source", "source", &Options::source, "auto, root, footContact or none",
               namesOf(kSourceChoiceNames, std::size(kSourceChoiceNames))),
        choice("--extract-rotation", "extractRotation", &Options::extractRotation, "auto, on or off",
               namesOf(kToggleNames, std::size(kToggleNames))),
        option("--lateral", "extractLateralMotion", &Options::extractLateralMotion,
               "Keep sideways root travel (strafes)"),
        assetWide(option("--up-axis", "upAxis", &Options::upAxis, "Up axis: +Y (default), +Z, ... or x,y,z"),
                  "the up axis is the asset's, not a clip's"),
        number("--min-travel", "minimumTravel", &Options::minimumTravel,
               "Minimum travel per cycle, fraction of height (0.1)", "fraction of the character height",
               {0, 1e6}),
        number("--min-turn", "minimumTurn", &Options::minimumTurn, "Minimum turn per cycle, degrees (10)",
               "degrees", {0, 1e6}, degrees),
        number("--snap-angle", "directionSnapAngle", &Options::directionSnapAngle,
               "Snap the direction to an axis within, degrees", "degrees", {0, 90}, degrees),
        number("--samples-per-second", "samplesPerSecond", &Options::samplesPerSecond,
               "Analysis samples per second (60)", "samples per second", {1, 10000}),
        choice("--contact-rule", "contactRule", &Options::contactRule,
               "stance (default): limb ends in stance; babylon: lowest leaves",
               {contactRuleName(ContactRule::Stance), contactRuleName(ContactRule::Babylon)}),
    };
}

std::size_t indexOf(const AnalysisOption& option) {
    return std::size_t(&option - analysisOptions().data());
}

void markGiven(const AnalysisOption& option, AnalysisArgs& args) {
    args.given |= std::uint32_t(1) << indexOf(option);
}

}  // namespace

const std::vector<AnalysisOption>& analysisOptions() {
    static const std::vector<AnalysisOption> table = [] {
        std::vector<AnalysisOption> options = makeAnalysisOptions();
        // AnalysisArgs::given has a bit per row: a 33rd option would shift past it, silently.
        if (options.size() > 32) throw std::logic_error("more analysis options than AnalysisArgs::given has bits");
        return options;
    }();
    return table;
}

OptionKind kindOf(const AnalysisOption& option) {
    return std::visit(
        [](auto field) {
            using T = std::remove_reference_t<decltype(std::declval<Options&>().*field)>;
            if constexpr (std::is_same_v<T, NodeRef>) return OptionKind::Node;
            else if constexpr (std::is_same_v<T, std::vector<NodeRef>>) return OptionKind::Nodes;
            else if constexpr (std::is_same_v<T, bool>) return OptionKind::Switch;
            else if constexpr (std::is_same_v<T, glm::dvec3>) return OptionKind::Axis;
            else if constexpr (std::is_enum_v<T>) return OptionKind::Choice;
            else return OptionKind::Number;
        },
        option.field);
}

bool isGiven(const AnalysisArgs& args, const AnalysisOption& option) {
    return (args.given >> indexOf(option)) & 1u;
}

std::string rangeError(const NumberRange& range) {
    std::ostringstream text;  // 1e+06, as CLI11 prints a double
    text << "must be between " << range.low << " and " << range.high;
    return text.str();
}

std::string wordList(const std::vector<std::string>& words, bool quoted) {
    std::string list;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i > 0) list += i + 1 < words.size() ? ", " : " or ";
        list += quoted ? "\"" + words[i] + "\"" : words[i];
    }
    return list;
}

bool parseUpAxis(const std::string& text, glm::dvec3& up) {
    static const struct {
        const char* name;
        glm::dvec3 axis;
    } named[] = {{"+X", {1, 0, 0}}, {"-X", {-1, 0, 0}}, {"+Y", {0, 1, 0}},
                 {"-Y", {0, -1, 0}}, {"+Z", {0, 0, 1}}, {"-Z", {0, 0, -1}}};
    for (const auto& n : named)
        if (text == n.name || text == std::string(n.name + 1)) return up = n.axis, true;
    double x, y, z;
    char tail;
    if (std::sscanf(text.c_str(), "%lf,%lf,%lf%c", &x, &y, &z, &tail) == 3 && std::isfinite(x + y + z) &&
        x * x + y * y + z * z > 0.0)
        return up = {x, y, z}, true;
    return false;
}

Status setFromText(const AnalysisOption& option, const std::string& text, AnalysisArgs& args) {
    Status set = std::visit(
        [&](auto field) -> Status {
            auto& into = args.values.*field;
            using T = std::remove_reference_t<decltype(into)>;
            if constexpr (std::is_same_v<T, NodeRef>) {
                into = parseNodeRef(text);
            } else if constexpr (std::is_same_v<T, glm::dvec3>) {
                if (!parseUpAxis(text, into)) return Error{"expected +X, -Y, +Z, ... or x,y,z"};
            } else if constexpr (std::is_enum_v<T>) {
                std::size_t word = 0;
                while (word < option.words.size() && option.words[word] != text) ++word;
                if (word == option.words.size()) return Error{"expected " + wordList(option.words, false)};
                into = T(word);
            } else {
                return Error{"takes no text"};  // not reached: the callers go by kindOf
            }
            return Ok{};
        },
        option.field);
    if (set) markGiven(option, args);
    return set;
}

Status setNumber(const AnalysisOption& option, double value, AnalysisArgs& args) {
    if (!(value >= option.range.low && value <= option.range.high)) return Error{rangeError(option.range)};
    const double inOptions = value * option.scale;
    if (auto* number = std::get_if<double Options::*>(&option.field)) args.values.**number = inOptions;
    else args.values.*std::get<std::optional<double> Options::*>(option.field) = inOptions;
    markGiven(option, args);
    return Ok{};
}

Status setAxis(const AnalysisOption& option, const glm::dvec3& up, AnalysisArgs& args) {
    if (!(std::isfinite(up.x + up.y + up.z) && up.x * up.x + up.y * up.y + up.z * up.z > 0))
        return Error{"not a direction"};
    args.values.*std::get<glm::dvec3 Options::*>(option.field) = up;
    markGiven(option, args);
    return Ok{};
}

void setNodes(const AnalysisOption& option, const std::vector<std::string>& names, AnalysisArgs& args) {
    std::vector<NodeRef>& nodes = args.values.*std::get<std::vector<NodeRef> Options::*>(option.field);
    nodes.clear();
    for (const std::string& name : names) nodes.push_back(parseNodeRef(name));
    markGiven(option, args);
}

void setSwitch(const AnalysisOption& option, bool on, AnalysisArgs& args) {
    args.values.*std::get<bool Options::*>(option.field) = on;
    markGiven(option, args);
}

void overlay(AnalysisArgs& below, const AnalysisArgs& above) {
    applyAnalysisArgs(above, below.values);
    below.given |= above.given;
}

void applyAnalysisArgs(const AnalysisArgs& args, Options& options) {
    for (const AnalysisOption& option : analysisOptions())
        if (isGiven(args, option))
            std::visit([&](auto field) { options.*field = args.values.*field; }, option.field);
}

}  // namespace rootbake::cli
