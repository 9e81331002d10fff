// Typed command-line analysis options to the core's Options.
#include "cli/cli.h"

#include <cmath>
#include <cstdio>
#include <numbers>

namespace rootbake::cli {
namespace {

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

}  // namespace

bool toOptions(const AnalysisArgs& args, Options& options, std::string& error) {
    constexpr double degrees = std::numbers::pi / 180.0;
    options.rootNode = args.root;
    options.characterNode = args.characterNode;
    options.contactNodes = args.contacts;
    options.extractLateralMotion = args.lateral;
    if (!args.upAxis.empty() && !parseUpAxis(args.upAxis, options.upAxis)) {
        error = "--up-axis: \"" + args.upAxis + "\" is not an axis (+X, -Y, +Z, ... or x,y,z)";
        return false;
    }
    if (args.source == "root") options.forceSource = Source::Root;
    else if (args.source == "footContact") options.forceSource = Source::FootContact;
    else if (!args.source.empty() && args.source != "auto") {
        error = "--source: \"" + args.source + "\" is not one of auto, root, footContact";
        return false;
    }
    if (args.extractRotation == "on") options.extractRotation = 1;
    else if (args.extractRotation == "off") options.extractRotation = 0;
    else if (!args.extractRotation.empty() && args.extractRotation != "auto") {
        error = "--extract-rotation: \"" + args.extractRotation + "\" is not one of auto, on, off";
        return false;
    }
    if (args.minTravel >= 0) options.minimumTravel = args.minTravel;
    if (args.minTurnDegrees >= 0) options.minimumTurn = args.minTurnDegrees * degrees;
    if (args.snapAngleDegrees >= 0) options.directionSnapAngle = args.snapAngleDegrees * degrees;
    if (args.samplesPerSecond >= 0) {
        if (!(args.samplesPerSecond >= 1.0 && args.samplesPerSecond <= 10000.0)) {
            error = "--samples-per-second: must be between 1 and 10000";
            return false;
        }
        options.samplesPerSecond = args.samplesPerSecond;
    }
    return true;
}

}  // namespace rootbake::cli
