# shellcheck shell=bash
# Sourced by scripts that run an npm package: installs it once into a cache
# folder (ROOTBAKE_NODE_CACHE, default build/node beside the sources), under a
# lock so parallel runs do not install twice at the same time.
#   need_node_package NAME   -> sets NODE_PATH to the cache's node_modules;
#                               returns 77 (a skip, for ctest) without node, or
#                               when the package is missing and ROOTBAKE_NO_INSTALL
#                               is set (ctest sets it: scripts/setup --clients
#                               installs before the tests, never during them)
# The packages and their versions, for every script and scripts/setup --clients:
declare -A node_package_versions=([gltf-validator]=2.0.0-dev.3.10 [ajv]=8.17.1)
need_node_package() {
  local name=$1 version=${node_package_versions[$1]:?"no version for npm package $1"}
  local cache=${ROOTBAKE_NODE_CACHE:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/node"}
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "skipped: node and npm are needed (apt-get install nodejs npm)" >&2
    return 77
  fi
  have() { [ -f "$cache/node_modules/$name/package.json" ] &&
           [ "$(node -p "require('$cache/node_modules/$name/package.json').version")" = "$version" ]; }
  if [ -n "${ROOTBAKE_NO_INSTALL:-}" ] && ! have; then
    echo "skipped: npm $name@$version is not in $cache (scripts/setup --clients installs it)" >&2
    return 77
  fi
  mkdir -p "$cache"
  # Every package of the table in one install: npm prunes from the folder what a --no-save
  # install does not name, so installing one would remove the others.
  local all=() package
  for package in "${!node_package_versions[@]}"; do all+=("$package@${node_package_versions[$package]}"); done
  (
    flock 9
    have || npm install --prefix "$cache" --no-audit --no-fund --no-save --silent "${all[@]}" >&2 ||
      { echo "npm install ${all[*]} failed" >&2; exit 1; }
  ) 9>"$cache/.lock" || return 1
  export NODE_PATH="$cache/node_modules"
}
