# shellcheck shell=bash
# Sourced by the scripts that run Babylon.js in node (scripts/bench, scripts/babylon-root-bone).
#   babylon_install DIR   -> installs bench/babylon/package.json's packages (@babylonjs/core 9.31.0,
#                            @babylonjs/loaders 9.28.0, meshoptimizer 0.18.1: the decoder Babylon's
#                            MeshoptCompression is given offline) into DIR/node_modules with npm, when they are not
#                            there at those versions; never into the sources. Prints nothing on success;
#                            on failure prints "skipped: why" on stdout and returns 1. With
#                            ROOTBAKE_NO_INSTALL set (ctest sets it) it installs nothing: missing
#                            packages are a skip (scripts/setup --clients installs them).
babylon_install() {
  local dir=$1 sources
  sources=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "skipped: node and npm are needed (apt-get install nodejs npm)"
    return 1
  fi
  mkdir -p "$dir"
  cp "$sources/bench/babylon/package.json" "$dir/"
  version() { node -p "require('$dir/node_modules/$1/package.json').version" 2>/dev/null || true; }
  if [ "$(version @babylonjs/core)" != 9.31.0 ] || [ "$(version @babylonjs/loaders)" != 9.28.0 ] ||
     [ "$(version meshoptimizer)" != 0.18.1 ]; then
    if [ -n "${ROOTBAKE_NO_INSTALL:-}" ]; then
      echo "skipped: Babylon.js is not in $dir/node_modules (scripts/setup --clients installs it)"
      return 1
    fi
    echo "npm install @babylonjs/core@9.31.0 @babylonjs/loaders@9.28.0 meshoptimizer@0.18.1 into $dir" >&2
    (cd "$dir" && npm install --no-audit --no-fund --silent >&2) || { echo "skipped: npm install failed"; return 1; }
  fi
}
