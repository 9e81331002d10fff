// tinygltf's implementation for the differential fuzz target, from Debian's header; no
// image decoding or writing (TINYGLTF_NO_STB_IMAGE* from CMake, for every file that includes
// the header: its class defaults name the loaders). Built without the project's warning
// flags: it is third-party code.
#define TINYGLTF_IMPLEMENTATION
#include <tiny_gltf.h>
