# Sourced by the corpus sweeps: bakes every corpus file outside bad/ with the
# given rootbake, each into a folder of its own (their images may share names).
#   bake_corpus ROOTBAKE CORPUS OUT [--root-bone]   -> OUT/list: "input output sidecar" per line
# With --root-bone each file is baked with a root bone: named rootbake_root where
# the asset has a node called root already; a file refused for the reasons
# --root-bone gives (no clip with a root, clips with different roots) is left out,
# with a line saying so.
bake_corpus() {
  local exe=$1 corpus=$2 out=$3 mode=${4:-} n=0 file name stem message
  : >"$out/list"
  while IFS= read -r file; do
    n=$((n + 1))
    name=$(basename "$file")
    stem=${name%.*}
    mkdir -p "$out/$n"
    if [ "$mode" = --root-bone ]; then
      if ! message=$("$exe" bake "$file" -o "$out/$n/$name" --root-bone 2>&1 >/dev/null); then
        case $message in
          *"exists already"*)
            "$exe" bake "$file" -o "$out/$n/$name" --root-bone=rootbake_root >/dev/null ||
              { echo "bake failed: $file" >&2; return 1; } ;;
          *"no clip animates a root"* | *"one root bone over one root"*)
            echo "no root bone: $message"
            continue ;;
          *) echo "bake failed: $message" >&2; return 1 ;;
        esac
      fi
    else
      "$exe" bake "$file" -o "$out/$n/$name" >/dev/null || { echo "bake failed: $file" >&2; return 1; }
    fi
    printf '%s\t%s\t%s\n' "$file" "$out/$n/$name" "$out/$n/$stem.rootmotion.json" >>"$out/list"
  done < <(find "$corpus" -path "$corpus/bad" -prune -o -type f \( -name '*.glb' -o -name '*.gltf' \) -print | LC_ALL=C sort)
}
