#!/usr/bin/env bash
# cmake --install as an engine takes it: the prefix holds the headers, the executable and the
# CMake package; examples/ configured on its own against that prefix alone finds it with
# find_package(rootbake), bakes the sample biped with the prefix's rootbake (rootbake_bake()),
# builds in C++17 and C++20 with warnings as errors, and the built example plays the baked walk.
#   install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR MAKE_BIPED
set -euo pipefail
build=$1 source_dir=$2 work=$(realpath -m "$3") make_biped=$(realpath "$4")
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/art"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/rootbake include/rootbake/runtime.h include/rootbake/sidecar_loader.h include/rootbake/result.h \
         lib/cmake/rootbake/rootbakeConfig.cmake lib/cmake/rootbake/rootbakeConfigVersion.cmake \
         lib/cmake/rootbake/rootbakeTargets.cmake lib/cmake/rootbake/RootbakeBake.cmake; do
  [ -e "$prefix/$f" ] || fail "cmake --install did not install $f"
done
# Every header the installed ones include is installed too: none reaches back into the sources.
for header in "$prefix"/include/rootbake/*.h; do
  for included in $(sed -n 's/^#include "\(rootbake\/[^"]*\)".*/\1/p' "$header"); do
    [ -e "$prefix/include/$included" ] || fail "$(basename "$header") includes $included, which is not installed"
  done
done
"$make_biped" "$work/art/biped.glb" >/dev/null

for standard in 17 20; do
  out=$work/build-cxx$standard
  # The engine's project sees the prefix only (and the system's nlohmann-json), not this build;
  # the installed headers are compiled with its warnings as errors (-I, not -isystem).
  cmake -S "$source_dir/examples" -B "$out" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_CXX_STANDARD=$standard -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_NO_SYSTEM_FROM_IMPORTED=ON \
        -DROOTBAKE_EXAMPLE_ASSETS="$work/art/biped.glb" >"$work/configure-$standard.log" 2>&1 ||
    { cat "$work/configure-$standard.log"; fail "examples/ did not configure against the prefix (C++$standard)"; }
  grep -q "rootbake_DIR:PATH=$prefix/lib/cmake/rootbake" "$out/CMakeCache.txt" ||
    fail "find_package(rootbake) did not take the installed package"
  cmake --build "$out" >"$work/build-$standard.log" 2>&1 ||
    { cat "$work/build-$standard.log"; fail "examples/ did not build against the prefix (C++$standard)"; }
  commands=$(ninja -C "$out" -t commands walk_ten_seconds)
  [[ $commands == *"-std=c++$standard "* ]] || fail "walk_ten_seconds was not compiled as C++$standard"
  [ -s "$out/baked/biped.rootmotion.json" ] || fail "rootbake_bake() of the package baked nothing"
  "$out/walk_ten_seconds" "$out/baked/biped.rootmotion.json" walk >/dev/null ||
    fail "the example built against the prefix does not play the baked walk (C++$standard)"
done
echo "install: find_package(rootbake) from the prefix builds and runs examples/ (C++17, C++20)"
