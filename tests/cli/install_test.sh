#!/usr/bin/env bash
# cmake --install puts every header an engine reads under the prefix: the example game loop
# (runtime.h and the optional sidecar_loader.h) compiles against the installed prefix alone,
# in C++17 and C++20, as an engine's build would.
#   install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source_dir=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for standard in c++17 c++20; do
  c++ -std=$standard -fsyntax-only -I"$work/prefix/include" "$source_dir/examples/walk_ten_seconds.cpp"
done
echo "install: runtime.h and sidecar_loader.h compile from the installed prefix (C++17, C++20)"
