// rootbake: bakes root motion out of glTF 2.0 animations. See README.md.
#include "cli/cli.h"
#include "rootbake/version.h"

#include <CLI/CLI.hpp>

#include <clocale>

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

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);  // --help, --version
    } catch (const CLI::ParseError& e) {
        app.exit(e);  // prints the message and usage
        return kUsage;  // CLI11's own codes (100+) mapped onto ours
    }

    if (infoCmd->parsed()) return info(infoArgs);
    return kUsage;
}
