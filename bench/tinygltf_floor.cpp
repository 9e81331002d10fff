// bench_tinygltf: the library floor. Loads a .glb with tinygltf (Debian's libtinygltf, 2.7.0) and saves
// it again as a .glb, doing nothing in between: what any tinygltf-based tool pays to read and write the
// same file. Images are neither decoded nor re-encoded (STYLE.md: tinygltf would, unless told not to).
//
//   bench_tinygltf IN.glb OUT.glb
// Only the benchmark links tinygltf; the product parses glTF itself (src/gltf/internal.h).
#include <tiny_gltf.h>

#include <cstdio>
#include <string>

namespace {

// Keeps an image as it is in the file: no pixel decoding.
bool keepImage(tinygltf::Image* image, const int, std::string*, std::string*, int, int, const unsigned char*,
               int, void*) {
    image->as_is = true;
    return true;
}

// Writes an external image's URI back as it was: no pixel encoding, no file written.
bool keepImageUri(const std::string*, const std::string*, const tinygltf::Image* image, bool,
                  std::string* uri, void*) {
    *uri = image->uri;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: bench_tinygltf IN.glb OUT.glb\n");
        return 1;
    }
    tinygltf::TinyGLTF gltf;
    gltf.SetImageLoader(keepImage, nullptr);
    gltf.SetImageWriter(keepImageUri, nullptr);
    tinygltf::Model model;
    std::string error, warning;
    if (!gltf.LoadBinaryFromFile(&model, &error, &warning, argv[1])) {
        std::fprintf(stderr, "bench_tinygltf: error: %s: %s\n", argv[1], error.c_str());
        return 2;
    }
    // embedImages false: images stay where they were; embedBuffers true: one .glb.
    if (!gltf.WriteGltfSceneToFile(&model, argv[2], false, true, false, true)) {
        std::fprintf(stderr, "bench_tinygltf: error: %s: cannot write\n", argv[2]);
        return 3;
    }
    return 0;
}
