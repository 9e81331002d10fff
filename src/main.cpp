// rootbake: bakes root motion out of glTF 2.0 animations. See README.md.
#include "cli/bake.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "cli/verify.h"
#include "rootbake/version.h"

#include <CLI/CLI.hpp>

#include <clocale>
#include <filesystem>

namespace {

void addAnalysisOptions(CLI::App& cmd, rootbake::cli::AnalysisArgs& a) {
    const char* group = "Analysis";
    cmd.add_option("--root", a.root, "Root node (name or nodes[N]); default: found")->group(group);
    cmd.add_option("--character-node", a.characterNode, "Ancestor of the root to measure in; default: scene space")
        ->group(group);
    cmd.add_option("--contacts", a.contacts, "Contact nodes; default: found")->delimiter(',')->group(group);
    cmd.add_option("--source", a.source, "auto, root or footContact")->group(group);
    cmd.add_option("--extract-rotation", a.extractRotation, "auto, on or off")->group(group);
    cmd.add_flag("--lateral", a.lateral, "Extract sideways root motion too (strafes)")->group(group);
    cmd.add_option("--up-axis", a.upAxis, "Up axis: +Y (default), +Z, ... or x,y,z")->group(group);
    cmd.add_option("--min-travel", a.minTravel, "Minimum travel per cycle, fraction of height (0.1)")->group(group);
    cmd.add_option("--min-turn", a.minTurnDegrees, "Minimum turn per cycle, degrees (10)")->group(group);
    cmd.add_option("--snap-angle", a.snapAngleDegrees, "Snap the direction to an axis within, degrees")->group(group);
    cmd.add_option("--samples-per-second", a.samplesPerSecond, "Analysis samples per second (60)")->group(group);
}

}  // namespace

int main(int argc, char** argv) {
    std::setlocale(LC_ALL, "C");  // numbers print the same on every machine
    using namespace rootbake::cli;

    CLI::App app{"rootbake " ROOTBAKE_VERSION ": bakes root motion out of glTF 2.0 character animations"};
    app.set_version_flag("--version", "rootbake " ROOTBAKE_VERSION);
    app.require_subcommand(1);
    app.footer("Example:\n  rootbake info walk.glb\nExit codes: 0 ok, 1 usage, 2 bad input, 3 cannot write, 4 gate failed");

    InfoArgs infoArgs;
    CLI::App* infoCmd = app.add_subcommand("info", "List the nodes, skins and clips of glTF assets");
    infoCmd->add_option("inputs", infoArgs.inputs, "glTF files (.glb, .gltf)")->required();
    infoCmd->add_flag("--json", infoArgs.json, "Print one JSON document");

    InspectArgs inspectArgs;
    CLI::App* inspectCmd = app.add_subcommand("inspect", "Analyse every clip and print what was found; writes nothing");
    inspectCmd->add_option("inputs", inspectArgs.inputs, "glTF files (.glb, .gltf)")->required();
    inspectCmd->add_flag("--json", inspectArgs.json, "Print the sidecar's clip objects as one JSON document");
    addAnalysisOptions(*inspectCmd, inspectArgs.analysis);
    inspectCmd->footer("Example:\n  rootbake inspect walk.glb --root Hips");

    BakeArgs bakeArgs;
    CLI::App* bakeCmd = app.add_subcommand("bake", "Write the in-place asset and its root-motion sidecar");
    bakeCmd->add_option("input", bakeArgs.input, "glTF file (.glb, .gltf)")->required();
    bakeCmd->add_option("-o,--output", bakeArgs.output, "Output .glb/.gltf; the sidecar is <stem>.rootmotion.json")
        ->required();
    bakeCmd->add_flag("--force", bakeArgs.force, "Overwrite existing outputs");
    bakeCmd->add_flag("--keep-source", bakeArgs.keepSource, "Keep the source clips; append \"<name> (in place)\" ones");
    CLI::Option* glbFlag = bakeCmd->add_flag("--glb", bakeArgs.glb, "Write a GLB (default: the input's container)");
    bakeCmd->add_flag("--gltf", bakeArgs.gltf, "Write a .gltf with a .bin beside it")->excludes(glbFlag);
    bool bakeVerify = false;
    std::string bakeReport;
    bakeCmd->add_option("--report", bakeReport, "Also write the HTML report of the input's clips to this file");
    bakeCmd->add_flag("--verify", bakeVerify, "Then run verify on what was written (exit 4 if it skates)");
    addAnalysisOptions(*bakeCmd, bakeArgs.analysis);
    bakeCmd->footer("Example:\n  rootbake bake walk.glb -o out/walk.glb");

    ReportArgs reportArgs;
    CLI::App* reportCmd = app.add_subcommand("report", "Write one self-contained HTML report of every clip's analysis");
    reportCmd->add_option("inputs", reportArgs.inputs, "glTF files (.glb, .gltf)")->required();
    reportCmd->add_option("-o,--output", reportArgs.output, "The .html file to write")->required();
    reportCmd->add_flag("--force", reportArgs.force, "Overwrite an existing report");
    addAnalysisOptions(*reportCmd, reportArgs.analysis);
    reportCmd->footer("Example:\n  rootbake report walk.glb run.glb -o report.html");

    VerifyArgs verifyArgs;
    CLI::App* verifyCmd = app.add_subcommand("verify", "Replay baked clips with their sidecar's motion; measure foot skate");
    verifyCmd->add_option("baked", verifyArgs.baked, "The in-place .glb/.gltf that bake wrote")->required();
    verifyCmd->add_option("--sidecar", verifyArgs.sidecar, "Its sidecar (<stem>.rootmotion.json)")->required();
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
        app.exit(e);  // prints the message and usage
        return kUsage;  // CLI11's own codes (100+) mapped onto ours
    }

    if (infoCmd->parsed()) return info(infoArgs);
    if (inspectCmd->parsed()) return inspect(inspectArgs);
    if (bakeCmd->parsed()) {
        int status = bake(bakeArgs);
        if (status == kOk && !bakeReport.empty()) {
            ReportArgs page;
            page.inputs = {bakeArgs.input};
            page.output = bakeReport;
            page.force = bakeArgs.force;
            page.analysis = bakeArgs.analysis;
            status = report(page);
        }
        if (status != kOk || !bakeVerify) return status;
        const std::filesystem::path output(bakeArgs.output);
        VerifyArgs check;
        check.baked = bakeArgs.output;
        check.sidecar = (output.parent_path() / (output.stem().string() + ".rootmotion.json")).string();
        check.source = bakeArgs.input;
        return verify(check);
    }
    if (verifyCmd->parsed()) return verify(verifyArgs);
    if (reportCmd->parsed()) return report(reportArgs);
    return kUsage;
}
