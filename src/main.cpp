// rootbake: bakes root motion out of glTF 2.0 animations. See README.md.
#include "cli/bake.h"
#include "cli/check.h"
#include "cli/cli.h"
#include "cli/config.h"
#include "cli/report.h"
#include "cli/verify.h"
#include "io/write_files.h"
#include "rootbake/version.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <clocale>

#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

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
    cmd.add_option("inputs", c.inputs, "glTF files (.glb, .gltf, .vrma) and folders of them")->required();
    cmd.add_flag("-r,--recursive", c.recursive, "Walk folders into their subfolders");
    cmd.add_flag("--json", c.json, "Print one JSON document on stdout (messages go to stderr)");
    cmd.add_flag("-q,--quiet", c.quiet, "Print errors only");
    cmd.add_flag("-v,--verbose", c.verbose,
                 analysis ? "Print each decision's reason and every warning" : "Print every warning");
    if (analysis) {
        cmd.add_option("--config", c.config, "Settings file; default: the nearest rootbake.json");
        cmd.add_option("--fail-on", c.failOn, "Gates: no-motion,loop-gap[=F],no-root,warnings (exit 4)");
        addAnalysisOptions(cmd, c.analysis);
    }
    if (parallel)
        cmd.add_option("-j,--jobs", c.jobs,
                       "Threads for assets, then clips; 0 (the default): the machine's cores");
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

// Every command's arguments, filled by CLI11.
struct CommandLine {
    BakeArgs bake;
    InspectArgs inspect;
    CheckArgs check;
    InfoArgs info;
    ReportArgs report;
    VerifyArgs verify;
    CLI::Option* rootBone = nullptr;  // bake --root-bone, which may come without its name
};

void addBake(CLI::App& app, CommandLine& c) {
    CLI::App* cmd = app.add_subcommand("bake", "Write the in-place assets and their root-motion sidecars");
    BakeArgs& a = c.bake;
    addCommonOptions(*cmd, a.common, true, true);
    cmd->add_option("-o,--output", a.output, "Output .glb/.gltf of one input (sidecar: <stem>.rootmotion.json)");
    cmd->add_option("--out-dir", a.outDir, "Output folder; outputs keep the inputs' layout below it");
    cmd->add_flag("--force", a.force, "Overwrite existing outputs");
    cmd->add_flag("--keep-source", a.keepSource, "Keep the source clips; append \"<name> (in place)\" ones");
    cmd->add_flag("--glb", a.glb, "Write GLBs (default: -o's extension, else the input's container)");
    cmd->add_flag("--gltf", a.gltf, "Write .gltf files with a .bin beside each");
    cmd->add_option("--depfile", a.depfile, "Write a Make-style list of the files each output was made from");
    cmd->add_option("--report", a.report, "Also write the HTML report of the input's clips");
    cmd->add_flag("--verify", a.verify, "Then run verify on what was written (exit 4 if it skates)");
    c.rootBone = cmd->add_option("--root-bone", a.rootBone,
                                 "Add a root bone (default name: root) above the root, for the motion")
                     ->expected(0, 1);
    cmd->footer("Example:\n  rootbake bake walk.glb -o out/walk.glb\n  rootbake bake assets/ -r --out-dir out/ -j 4 --fail-on no-motion");
}

void addInspectCheckInfo(CLI::App& app, CommandLine& c) {
    CLI::App* inspect = app.add_subcommand("inspect", "Analyse every clip and print what was found; writes nothing");
    addCommonOptions(*inspect, c.inspect.common, true, true);
    inspect->footer("Example:\n  rootbake inspect walk.glb --root Hips -v");

    CLI::App* check = app.add_subcommand("check", "Re-analyse and compare with committed sidecars (exit 4 on a change)");
    addCommonOptions(*check, c.check.common, true, true);
    check->add_option("--against", c.check.against, "A sidecar, or the folder bake --out-dir wrote")->required();
    check->add_option("--tolerance", c.check.tolerance, "Relative change of stride, turn, speed allowed (0.01)");
    check->footer("Example:\n  rootbake check assets/ -r --against baked/ --tolerance 0.02");

    CLI::App* info = app.add_subcommand("info", "List the nodes, skins and clips of glTF assets");
    addCommonOptions(*info, c.info.common, false, false);
    info->footer("Example:\n  rootbake info walk.glb --json");
}

void addReportVerify(CLI::App& app, CommandLine& c) {
    CLI::App* report = app.add_subcommand("report", "Write one self-contained HTML report of every clip's analysis");
    addCommonOptions(*report, c.report.common, true, false);
    report->add_option("-o,--output", c.report.output, "The .html file to write")->required();
    report->add_flag("--force", c.report.force, "Overwrite an existing report");
    report->footer("Example:\n  rootbake report walk.glb run.glb -o report.html");

    VerifyArgs& v = c.verify;
    CLI::App* verify = app.add_subcommand("verify", "Replay baked clips with their sidecar's motion; measure foot skate");
    verify->add_option("baked", v.baked, "The in-place .glb/.gltf that bake wrote")->required();
    verify->add_option("--sidecar", v.sidecar, "Its sidecar; default: <stem>.rootmotion.json beside it");
    verify->add_option("--source", v.source, "The original asset: adds the source clips' skate");
    // --max-skate: its former name, from when the gate held the mean speed rather than the drift.
    verify->add_option("--max-drift,--max-skate", v.maxDrift,
                       "Drift allowed a travelling clip, fraction of its speed (0.05)");
    verify->add_option("--loops", v.loops, "Loops replayed per clip (3)");
    verify->add_flag("--json", v.json, "Print one JSON document");
    verify->footer("Example:\n  rootbake verify out/walk.glb --sidecar out/walk.rootmotion.json --source walk.glb");
}

// What is missing, in our words, for CLI11's "inputs is required" and "A subcommand is
// required"; empty for another error.
std::string missingText(const CLI::ParseError& e) {
    if (dynamic_cast<const CLI::RequiredError*>(&e) == nullptr) return "";
    const std::string what = e.what();
    if (what == "A subcommand is required")
        return "no command given: bake, inspect, check, info, report or verify";
    const std::string name = what.substr(0, what.find(' '));
    if (name == "inputs") return "no input given: name .glb/.gltf files or folders of them";
    if (name == "baked") return "no baked asset given: name the .glb/.gltf that bake wrote";
    if (name == "--against") return "--against is missing: a sidecar, or the folder bake --out-dir wrote";
    if (name == "--output") return "-o is missing: the .html file to write";
    return name + " is missing";
}

// A parse error as one line, as every other error; CLI11's own codes (100+) mapped onto ours.
int usageError(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
    std::string command;
    for (const CLI::App* sub : app.get_subcommands()) command = sub->get_name() + " ";
    if (command.empty() && argc > 1 && argv[1][0] != '-') command = std::string(argv[1]) + " ";
    std::string message = unknownWord(app, argc, argv);
    if (message.rfind("unknown command", 0) == 0) command.clear();
    if (message.empty()) message = missingText(e);
    if (message.empty()) message = e.what();
    printError(message + " (rootbake " + command + "--help lists the " +
               (command.empty() ? "commands" : "options") + ")");
    return kUsage;
}

int runCommand(const CLI::App& app, CommandLine& c) {
    const std::string command = app.get_subcommands().front()->get_name();
    if (command == "bake") {
        if (c.rootBone->count() > 0 && c.bake.rootBone.empty()) c.bake.rootBone = "root";
        return bake(c.bake);
    }
    if (command == "inspect") return inspect(c.inspect);
    if (command == "check") return check(c.check);
    if (command == "info") return info(c.info);
    if (command == "report") return cli::report(c.report);
    if (command == "verify") return verify(c.verify);
    return kUsage;
}

}  // namespace

namespace {

// Each clip's analysis allocates its frames (megabytes) and frees them. By default glibc
// serves blocks from 128 KiB up with fresh mappings and unmaps them on free, so every clip
// faults its pages in again (a page fault is dear, more so in a virtual machine). Kept in
// the heap up to 32 MiB a block, the next clip reuses them: a 30-clip bake faults 1980
// pages instead of 3923 (perf stat). Peak memory grows little (a 2 MB pack's inspect 14.0 -> 16.3 MB).
void keepFreedBlocksForReuse() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace

int main(int argc, char** argv) {
    std::setlocale(LC_ALL, "C");  // numbers print the same on every machine
    keepFreedBlocksForReuse();
    // SIGINT/SIGTERM/SIGHUP mid-write leave no partial file; the progress line, if any, gives way.
    rootbake::io::installInterruptCleanup(isatty(STDERR_FILENO) ? "\r\033[Krootbake: interrupted\n"
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
    CommandLine commandLine;
    addBake(app, commandLine);
    addInspectCheckInfo(app, commandLine);
    addReportVerify(app, commandLine);
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);  // --help, --version
    } catch (const CLI::ParseError& e) {
        return usageError(app, e, argc, argv);
    }
    return runCommand(app, commandLine);
}
