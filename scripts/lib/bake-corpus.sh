# Sourced by the corpus sweeps: bakes every corpus file outside bad/ with the
# given rootbake, each into a folder of its own (their images may share names).
#   bake_corpus ROOTBAKE CORPUS OUT   -> OUT/list: "input output sidecar" per line
bake_corpus() {
  local exe=$1 corpus=$2 out=$3 n=0 file name stem
  : >"$out/list"
  while IFS= read -r file; do
    n=$((n + 1))
    name=$(basename "$file")
    stem=${name%.*}
    mkdir -p "$out/$n"
    "$exe" bake "$file" -o "$out/$n/$name" >/dev/null || { echo "bake failed: $file" >&2; return 1; }
    printf '%s\t%s\t%s\n' "$file" "$out/$n/$name" "$out/$n/$stem.rootmotion.json" >>"$out/list"
  done < <(find "$corpus" -path "$corpus/bad" -prune -o -type f \( -name '*.glb' -o -name '*.gltf' \) -print | LC_ALL=C sort)
}
