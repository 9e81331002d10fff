// rootbake bake IN -o OUT: load, bake in memory, then write every file or none.
#include "cli/bake.h"

#include "rootbake/version.h"
#include "write/bake.h"
#include "write/files.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace rootbake::cli {

namespace fs = std::filesystem;

namespace {

std::string lowerExtension(const fs::path& p) {
    std::string ext = p.extension().string();
    for (char& c : ext) c = c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
    return ext;
}

bool readFile(const fs::path& file, std::vector<std::uint8_t>& out) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

}  // namespace

int bake(const BakeArgs& args) {
    BakeSettings settings;
    std::string error;
    if (!toOptions(args.analysis, settings.analysis, error)) {
        printError(error);
        return kUsage;
    }
    const fs::path out = args.output;
    if (out.filename().empty() || out.filename() == "." || out.filename() == "..") {
        printError(args.output + ": not a file name");
        return kUsage;
    }

    auto asset = loadAsset(args.input);
    if (!asset) {
        printError(asset.error().message);
        return kBadInput;
    }
    std::vector<std::uint8_t> inputBytes;
    if (!readFile(args.input, inputBytes)) {
        printError(args.input + ": cannot read");
        return kBadInput;
    }

    const Container container = args.glb        ? Container::Glb
                                : args.gltf     ? Container::Gltf
                                : asset->binary ? Container::Glb
                                                : Container::Gltf;
    const std::string ext = lowerExtension(out);
    if ((ext == ".glb" && container == Container::Gltf) || (ext == ".gltf" && container == Container::Glb)) {
        printError(args.output + ": a " + (container == Container::Glb ? "GLB" : ".gltf") +
                   " would be written under this name; pass --" +
                   (container == Container::Glb ? "gltf" : "glb") + " or rename the output");
        return kUsage;
    }

    const std::string stem = out.stem().string();
    settings.rewrite.keepSource = args.keepSource;
    settings.rewrite.container = container;
    settings.rewrite.binName = stem + ".bin";
    // A .gltf written on one line stays on one line; anything else is indented.
    const bool oneLine =
        !asset->binary && std::find(inputBytes.begin(), inputBytes.end(), '\n') == inputBytes.end();
    settings.rewrite.indent = oneLine ? -1 : 2;
    settings.generator = "rootbake " ROOTBAKE_VERSION;
    settings.inputName = fs::path(args.input).filename().string();
    settings.outputName = out.filename().string();

    auto baked = bakeAsset(*asset, inputBytes, settings);
    if (!baked) {
        printError(baked.error().message);
        return kBadInput;
    }

    // The output first: writeFiles checks its folder.
    const fs::path folder = out.parent_path();
    std::vector<PlannedFile> files;
    files.push_back({out, std::move(baked->asset.main), {}});
    const std::string sidecar = baked->sidecar.dump(2) + "\n";
    files.push_back({folder / (stem + ".rootmotion.json"),
                     std::vector<std::uint8_t>(sidecar.begin(), sidecar.end()),
                     {}});
    for (SideFile& f : baked->asset.files)
        files.push_back({folder / f.relativePath, std::move(f.bytes), f.copyFrom});

    std::vector<fs::path> reads{args.input};
    reads.insert(reads.end(), baked->asset.reads.begin(), baked->asset.reads.end());
    if (auto failure = writeFiles(std::move(files), reads, args.force)) {
        printError(failure->message);
        return failure->refused ? kUsage : kCannotWrite;
    }

    int inPlace = 0;
    for (const BakedClip& c : baked->clips) inPlace += !c.channels.empty();
    std::printf("%s: %d of %zu clips made in place -> %s, %s\n", args.input.c_str(), inPlace,
                baked->clips.size(), args.output.c_str(),
                (folder / (stem + ".rootmotion.json")).string().c_str());
    return kOk;
}

}  // namespace rootbake::cli
