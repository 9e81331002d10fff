// make_biped: writes the procedural biped (samples/README.md).
//
//   make_biped [options] OUT.glb           one GLB
//   make_biped [options] --gltf OUT.gltf   OUT.gltf and, beside it, OUT.bin
//   make_biped [options] --gltf --embed OUT.gltf   one OUT.gltf, the buffer a data: URI
//
// Options are the benchmark's knobs (BipedOptions): --extra-joints N,
// --clip-copies N, --clips N, --duration-scale X, --mesh-bytes N.
// Exit codes: 0 written, 1 bad usage, 3 a file could not be written (nothing is
// left behind: each file goes to OUT.tmp first and is renamed into place). The
// output's missing folders are made.
#include "biped.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace {

constexpr const char* kUsage =
    "usage: make_biped [--extra-joints N] [--clip-copies N] [--clips N] [--duration-scale X] [--mesh-bytes "
    "N] "
    "(OUT.glb | --gltf [--embed] OUT.gltf)\n";

// Makes the output's folder first: CMake's Makefiles generator does not make a custom
// command's output folder (Ninja does), and a build runs make_biped into build/samples.
bool writeFile(const std::filesystem::path& path, const void* data, std::size_t size) {
    std::error_code made;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), made);
    const std::filesystem::path temp = path.string() + ".tmp";
    std::FILE* file = std::fopen(temp.string().c_str(), "wb");
    if (file == nullptr) return false;
    const bool written = std::fwrite(data, 1, size, file) == size;
    if (std::fclose(file) != 0 || !written) {
        std::filesystem::remove(temp);
        return false;
    }
    std::error_code error;
    std::filesystem::rename(temp, path, error);
    if (error) std::filesystem::remove(temp, error);
    return !error;
}

// A whole argument as a number, or false.
bool parseNumber(const char* text, double& value) {
    char* end = nullptr;
    value = std::strtod(text, &end);
    return end != text && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
    rootbake::samples::BipedOptions options;
    bool gltf = false;
    bool embed = false;
    std::filesystem::path out;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        double value = 0.0;
        const bool knob = arg == "--extra-joints" || arg == "--clip-copies" || arg == "--clips" ||
                          arg == "--duration-scale" || arg == "--mesh-bytes";
        if (knob) {
            if (i + 1 >= argc || !parseNumber(argv[i + 1], value) || value < 0.0) {
                std::fprintf(stderr, "make_biped: error: %s needs a non-negative number\n%s", argv[i],
                             kUsage);
                return 1;
            }
            ++i;
            if (arg == "--extra-joints") options.extraJoints = static_cast<int>(value);
            if (arg == "--clip-copies") options.clipCopies = static_cast<int>(value);
            if (arg == "--clips") options.clipCount = static_cast<int>(value);
            if (arg == "--duration-scale") options.durationScale = value;
            if (arg == "--mesh-bytes") options.meshBytes = static_cast<std::uint64_t>(value);
        } else if (arg == "--gltf") {
            gltf = true;
        } else if (arg == "--embed") {
            embed = true;
        } else if (!arg.empty() && arg[0] != '-' && out.empty()) {
            out = arg;
        } else {
            std::fprintf(stderr, "make_biped: error: unexpected argument '%s'\n%s", argv[i], kUsage);
            return 1;
        }
    }
    if (out.empty() || (embed && !gltf)) {
        std::fprintf(stderr, "%s", kUsage);
        return 1;
    }

    const rootbake::samples::Biped biped = rootbake::samples::makeBiped(options);
    if (!gltf) {
        const std::vector<std::uint8_t> glb = rootbake::samples::toGlb(biped);
        if (!writeFile(out, glb.data(), glb.size())) {
            std::fprintf(stderr, "make_biped: error: %s: cannot write\n", out.string().c_str());
            return 3;
        }
        return 0;
    }
    if (embed) {
        const std::string text = rootbake::samples::toGltfWithDataUri(biped);
        if (!writeFile(out, text.data(), text.size())) {
            std::fprintf(stderr, "make_biped: error: %s: cannot write\n", out.string().c_str());
            return 3;
        }
        return 0;
    }
    std::filesystem::path bin = out;
    bin.replace_extension(".bin");
    const std::string text = rootbake::samples::toGltfWithBin(biped, bin.filename().string());
    if (!writeFile(bin, biped.bin.data(), biped.bin.size())) {
        std::fprintf(stderr, "make_biped: error: %s: cannot write\n", bin.string().c_str());
        return 3;
    }
    if (!writeFile(out, text.data(), text.size())) {
        std::fprintf(stderr, "make_biped: error: %s: cannot write\n", out.string().c_str());
        return 3;
    }
    return 0;
}
