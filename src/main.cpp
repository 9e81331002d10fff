// rootbake: bakes root motion out of glTF 2.0 animations. See README.md.
#include "cli/bake.h"
#include "cli/check.h"
#include "cli/cli.h"
#include "cli/config.h"
#include "cli/report.h"
#include "cli/verify.h"
#include "rootbake/version.h"
#include "write/files.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <clocale>

#include <unistd.h>

namespace {

using namespace rootbake;
using namespace rootbake::cli;

// Each analysis option of the table, by its kind; it sets its field only when given, so it
// overrides a config file.
void addAnalysisOptions(CLI::App& cmd, AnalysisArgs& args) {
    for (const AnalysisOption& option : analysisOptions()) {
        const AnalysisOption* o = &option;
        auto orThrow = [o](const Status& set) {
            if (!set) throw CLI::ValidationError(o->flag, set.error().message);
        };
        CLI::Option* added = nullptr;
        switch (kindOf(option)) {
        case OptionKind::Switch:
            added = cmd.add_flag_function(o->flag, [o, &args](std::int64_t) { setSwitch(*o, true, args); }, o->help);
            break;
        case OptionKind::Number:
            added = cmd.add_option_function<double>(
                           o->flag, [o, &args, orThrow](const double& v) { orThrow(setNumber(*o, v, args)); }, o->help)
                        ->type_name("F");
            break;
        case OptionKind::Nodes:
            added = cmd.add_option_function<std::vector<std::string>>(
                           o->flag, [o, &args](const std::vector<std::string>& v) { setNodes(*o, v, args); }, o->help)
                        ->delimiter(',');
            break;
        case OptionKind::Node:
        case OptionKind::Axis:
        case OptionKind::Choice:
            added = cmd.add_option_function<std::string>(
                o->flag, [o, &args, orThrow](const std::string& v) { orThrow(setFromText(*o, v, args)); }, o->help);
            break;
        }
        added->group("Analysis (override rootbake.json)");
    }
}

// Inputs and the options of every command that reads assets.
void addCommonOptions(CLI::App& cmd, CommonArgs& c, bool analysis, bool parallel) {
    cmd.add_option("inputs", c.inputs, "glTF files (.glb, .gltf) and folders of them")->required();
    cmd.add_flag("-r,--recursive", c.recursive, "Walk folders into their subfolders");
    cmd.add_flag("--json", c.json, "Print one JSON document on stdout (messages go to stderr)");
    cmd.add_flag("-q,--quiet", c.quiet, "Print errors only");
    if (analysis) {
        cmd.add_flag("-v,--verbose", c.verbose, "Print each decision's reason");
        cmd.add_option("--config", c.config, "Settings file; default: the nearest rootbake.json");
        cmd.add_option("--fail-on", c.failOn, "Gates: no-motion,loop-gap[=F],no-root,warnings (exit 4)");
        addAnalysisOptions(cmd, c.analysis);
    }
    if (parallel) cmd.add_option("-j,--jobs", c.jobs, "Assets in parallel (default: the machine's cores)");
    cmd.add_option("--limit", c.limits, "Raise a limit an error names: NAME=N (maxNodes=2000000)");
}

// What a parse error most likely was, said so the user can fix it: an unknown command or
// option, with the nearest known one ("unknown option '--output-dir'; did you mean --out-dir?").
// Empty when every word is known (CLI11's own message then says what is wrong).
std::string unknownWord(const CLI::App& app, int argc, char** argv) {
    std::vector<std::string> commands;
    for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
    if (argc < 2 || argv[1][0] == '-') return "";
    const std::string command = argv[1];
    const CLI::App* sub = nullptr;
    for (const CLI::App* s : app.get_subcommands({}))
        if (s->get_name() == command) sub = s;
    auto suggest = [](const std::string& near, const std::string& prefix) {
        return near.empty() ? std::string() : "; did you mean " + prefix + near + "?";
    };
    if (!sub) return "unknown command '" + command + "'" + suggest(closestName(command, commands), "");
    std::vector<std::string> longNames;
    for (const CLI::Option* o : sub->get_options())
        for (const std::string& name : o->get_lnames()) longNames.push_back(name);
    for (int i = 2; i < argc; ++i) {
        const std::string word = argv[i];
        if (word == "--") break;
        if (word.rfind("--", 0) != 0 || word.size() == 2) continue;
        const std::string name = word.substr(2, word.find('=') - 2);
        if (std::find(longNames.begin(), longNames.end(), name) == longNames.end())
            return "unknown option '--" + name + "'" + suggest(closestName(name, longNames), "--");
    }
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    std::setlocale(LC_ALL, "C");  // numbers print the same on every machine
    // SIGINT/SIGTERM/SIGHUP mid-write leave no partial file; the progress line, if any, gives way.
    rootbake::installInterruptCleanup(isatty(STDERR_FILENO) ? "\r\033[Krootbake: interrupted\n"
                                                            : "rootbake: interrupted\n");

    CLI::App app{"rootbake " ROOTBAKE_VERSION ": bakes root motion out of glTF 2.0 character animations"};
    app.set_version_flag("--version", "rootbake " ROOTBAKE_VERSION);
    app.require_subcommand(1);
    app.footer(
        "Example:\n"
        "  rootbake bake walk.glb -o out/walk.glb     # out/walk.glb in place + out/walk.rootmotion.json\n"
        "  rootbake bake assets/ -r --out-dir out/    # every .glb/.gltf below assets/\n"
        "  rootbake check assets/ -r --against out/   # CI: fail when a stride, turn or speed moved\n"
        "Run rootbake COMMAND --help for a command's options.\n"
        "Exit codes: 0 ok, 1 usage, 2 bad input, 3 cannot write, 4 a gate or check failed");

    BakeArgs bakeArgs;
    CLI::App* bakeCmd = app.add_subcommand("bake", "Write the in-place assets and their root-motion sidecars");
    addCommonOptions(*bakeCmd, bakeArgs.common, true, true);
    bakeCmd->add_option("-o,--output", bakeArgs.output, "Output .glb/.gltf of one input (sidecar: <stem>.rootmotion.json)");
    bakeCmd->add_option("--out-dir", bakeArgs.outDir, "Output folder; outputs keep the inputs' layout below it");
    bakeCmd->add_flag("--force", bakeArgs.force, "Overwrite existing outputs");
    bakeCmd->add_flag("--keep-source", bakeArgs.keepSource, "Keep the source clips; append \"<name> (in place)\" ones");
    bakeCmd->add_flag("--glb", bakeArgs.glb, "Write GLBs (default: the input's container)");
    bakeCmd->add_flag("--gltf", bakeArgs.gltf, "Write .gltf files with a .bin beside each");
    bakeCmd->add_option("--depfile", bakeArgs.depfile, "Write a Make-style list of the files each output was made from");
    bakeCmd->add_option("--report", bakeArgs.report, "Also write the HTML report of the input's clips");
    bakeCmd->add_flag("--verify", bakeArgs.verify, "Then run verify on what was written (exit 4 if it skates)");
    CLI::Option* rootBone = bakeCmd->add_option("--root-bone", bakeArgs.rootBone,
                                                "Insert a root bone (default name: root) over the root, carrying the motion")
                                ->expected(0, 1);
    bakeCmd->footer("Example:\n  rootbake bake walk.glb -o out/walk.glb\n  rootbake bake assets/ -r --out-dir out/ -j 4 --fail-on no-motion");

    InspectArgs inspectArgs;
    CLI::App* inspectCmd = app.add_subcommand("inspect", "Analyse every clip and print what was found; writes nothing");
    addCommonOptions(*inspectCmd, inspectArgs.common, true, true);
    inspectCmd->footer("Example:\n  rootbake inspect walk.glb --root Hips -v");

    CheckArgs checkArgs;
    CLI::App* checkCmd = app.add_subcommand("check", "Re-analyse and compare with committed sidecars (exit 4 on a change)");
    addCommonOptions(*checkCmd, checkArgs.common, true, true);
    checkCmd->add_option("--against", checkArgs.against, "A sidecar, or the folder bake --out-dir wrote")->required();
    checkCmd->add_option("--tolerance", checkArgs.tolerance, "Relative change of stride, turn, speed allowed (0.01)");
    checkCmd->footer("Example:\n  rootbake check assets/ -r --against baked/ --tolerance 0.02");

    InfoArgs infoArgs;
    CLI::App* infoCmd = app.add_subcommand("info", "List the nodes, skins and clips of glTF assets");
    addCommonOptions(*infoCmd, infoArgs.common, false, false);
    infoCmd->footer("Example:\n  rootbake info walk.glb --json");

    ReportArgs reportArgs;
    CLI::App* reportCmd = app.add_subcommand("report", "Write one self-contained HTML report of every clip's analysis");
    addCommonOptions(*reportCmd, reportArgs.common, true, false);
    reportCmd->add_option("-o,--output", reportArgs.output, "The .html file to write")->required();
    reportCmd->add_flag("--force", reportArgs.force, "Overwrite an existing report");
    reportCmd->footer("Example:\n  rootbake report walk.glb run.glb -o report.html");

    VerifyArgs verifyArgs;
    CLI::App* verifyCmd = app.add_subcommand("verify", "Replay baked clips with their sidecar's motion; measure foot skate");
    verifyCmd->add_option("baked", verifyArgs.baked, "The in-place .glb/.gltf that bake wrote")->required();
    verifyCmd->add_option("--sidecar", verifyArgs.sidecar, "Its sidecar; default: <stem>.rootmotion.json beside it");
    verifyCmd->add_option("--source", verifyArgs.source, "The original asset: adds the source clips' skate");
    verifyCmd->add_option("--max-skate", verifyArgs.maxSkate,
                          "Mean planted-contact speed allowed, fraction of the clip's speed (0.05)");
    verifyCmd->add_option("--loops", verifyArgs.loops, "Loops replayed per clip (3)");
    verifyCmd->add_flag("--json", verifyArgs.json, "Print one JSON document");
    verifyCmd->footer("Example:\n  rootbake verify out/walk.glb --sidecar out/walk.rootmotion.json --source walk.glb");

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);  // --help, --version
    } catch (const CLI::ParseError& e) {
        // One line, as every other error; CLI11's own codes (100+) mapped onto ours.
        std::string command;
        for (const CLI::App* sub : app.get_subcommands()) command = sub->get_name() + " ";
        if (command.empty() && argc > 1 && argv[1][0] != '-') command = std::string(argv[1]) + " ";
        const std::string unknown = unknownWord(app, argc, argv);
        if (unknown.rfind("unknown command", 0) == 0) command.clear();
        printError((unknown.empty() ? std::string(e.what()) : unknown) + " (rootbake " + command +
                   "--help lists the " + (command.empty() ? "commands" : "options") + ")");
        return kUsage;
    }

    if (bakeCmd->parsed()) {
        if (rootBone->count() > 0 && bakeArgs.rootBone.empty()) bakeArgs.rootBone = "root";
        return bake(bakeArgs);
    }
    if (inspectCmd->parsed()) return inspect(inspectArgs);
    if (checkCmd->parsed()) return check(checkArgs);
    if (infoCmd->parsed()) return info(infoArgs);
    if (reportCmd->parsed()) return report(reportArgs);
    if (verifyCmd->parsed()) return verify(verifyArgs);
    return kUsage;
}
