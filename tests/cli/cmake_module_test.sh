#!/usr/bin/env bash
# cmake/RootbakeBake.cmake in a project of its own: rootbake_bake() bakes every
# input, a second build does nothing, and touching a .gltf's .bin (known only from
# rootbake's depfile) re-bakes that asset alone.
#   cmake_module_test.sh ROOTBAKE MAKE_BIPED SOURCE_DIR WORK_DIR
set -euo pipefail
rootbake=$1 make_biped=$2 source_dir=$3 work=$4
rm -rf "$work" && mkdir -p "$work/project/art"
"$make_biped" "$work/project/art/walk.glb" >/dev/null
"$make_biped" --gltf "$work/project/art/run.gltf" >/dev/null
cat >"$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(baking NONE)
list(APPEND CMAKE_MODULE_PATH "$source_dir/cmake")
include(RootbakeBake)
rootbake_bake(TARGET characters INPUTS art/walk.glb art/run.gltf OUT_DIR baked ROOTBAKE "$rootbake"
              OPTIONS --fail-on no-root)
CMAKE

fail() { echo "FAIL: $*"; exit 1; }
for generator in Ninja "Unix Makefiles"; do
  tag=${generator// /-}
  cmake -S "$work/project" -B "$work/build-$tag" -G "$generator" >/dev/null
  first=$(cmake --build "$work/build-$tag")
  for f in walk.glb walk.rootmotion.json run.gltf run.rootmotion.json; do
    [ -s "$work/build-$tag/baked/$f" ] || fail "baked/$f was not written"
  done
  grep -q '"schema": "rootbake.sidecar/2"' "$work/build-$tag/baked/walk.rootmotion.json" || fail "no sidecar schema"
  echo "$first" | grep -q "baking walk.glb" || fail "walk.glb was not baked: $first"

  again=$(cmake --build "$work/build-$tag")
  echo "$again" | grep -q "baking" && fail "$generator: a second build re-baked: $again"

  sleep 1  # file times tick coarsely: run.bin must be newer than the outputs, not as new
  touch "$work/project/art/run.bin"
  third=$(cmake --build "$work/build-$tag")
  echo "$third" | grep -q "baking run.gltf" || fail "touching run.bin did not re-bake run.gltf: $third"
  echo "$third" | grep -q "baking walk.glb" && fail "touching run.bin re-baked walk.glb: $third"
  echo "ok ($generator): rootbake_bake bakes, does nothing when nothing changed, and follows the depfile"
done
