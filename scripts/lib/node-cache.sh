# Sourced by scripts that run an npm package: installs it once into a cache
# folder (ROOTBAKE_NODE_CACHE, default build/node beside the sources), under a
# lock so parallel tests do not install twice at the same time.
#   need_node_package NAME VERSION   -> sets NODE_PATH to the cache's node_modules;
#                                       returns 77 (a skip, for ctest) without node
need_node_package() {
  local name=$1 version=$2
  local cache=${ROOTBAKE_NODE_CACHE:-"$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/node"}
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "skipped: node and npm are needed (apt-get install nodejs npm)" >&2
    return 77
  fi
  mkdir -p "$cache"
  (
    flock 9
    if [ ! -f "$cache/node_modules/$name/package.json" ] ||
       [ "$(node -p "require('$cache/node_modules/$name/package.json').version")" != "$version" ]; then
      npm install --prefix "$cache" --no-audit --no-fund --no-save --silent "$name@$version" >&2 ||
        { echo "npm install $name@$version failed" >&2; exit 1; }
    fi
  ) 9>"$cache/.lock" || return 1
  export NODE_PATH="$cache/node_modules"
}
