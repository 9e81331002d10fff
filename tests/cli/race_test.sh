#!/usr/bin/env bash
# Two bakes of different inputs to one output at once (issue 19, item 5; the reproducer is
# ../shared/hostile/race-force.sh). strace slows one bake down at a chosen rename so that the
# other runs in between, every time:
#   --force: the first is held at its second rename (the sidecar's, after the GLB's); the second
#     must wait for it, then replace both: the files left are the second's, a matching pair.
#   no --force: the first is held at its first rename (holding the output's lock); the second
#     finds no output when it checks, writes its temporaries and waits for the lock; its renames
#     must then refuse to replace the first's files (exit 3, "exists"), leaving the first's pair
#     and no temporary. (Before: both exited 0, the second silently replacing the first.)
#   a bake killed (SIGKILL) while held: its temporaries are removed by the next bake there.
#   race_test.sh ROOTBAKE MAKE_BIPED WORK_DIR       (exit 77: skipped, no strace or no ptrace)
set -uo pipefail
rootbake=$1 make_biped=$2 work=$3
command -v strace >/dev/null || { echo "SKIP: strace is not installed"; exit 77; }
strace -f -qq -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here (ptrace not allowed)"; exit 77; }
# A sanitizer build: LeakSanitizer cannot run under ptrace (it stops the process's threads
# itself); leaks are every other test's business.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
"$make_biped" "$work/a.glb" >/dev/null || fail "make_biped a"
"$make_biped" --clips 2 "$work/b.glb" >/dev/null || fail "make_biped b"
cmp -s "$work/a.glb" "$work/b.glb" && fail "the two inputs are the same"
# What each bake writes alone, to the same output name: the truth for the pair left.
for x in a b; do
  mkdir "$work/ref-$x" && "$rootbake" bake "$work/$x.glb" -o "$work/ref-$x/out.glb" -q || fail "bake $x alone"
done
cmp -s "$work/ref-a/out.glb" "$work/ref-b/out.glb" && fail "the two outputs are the same"

slowed() {  # slowed WHEN ARGS...: rootbake, its WHEN-th rename held for 3 s
  local when=$1; shift
  strace -f -qq -o /dev/null -e trace=rename,renameat,renameat2 \
    -e inject=rename,renameat,renameat2:delay_enter=3000000:when="$when" "$rootbake" "$@"
}
pair_of() {  # pair_of DIR: which reference both files of DIR/out.* are ("a", "b"), else "mixed"
  local x
  for x in a b; do
    if cmp -s "$1/out.glb" "$work/ref-$x/out.glb" && cmp -s "$1/out.rootmotion.json" "$work/ref-$x/out.rootmotion.json"; then
      echo "$x"; return
    fi
  done
  echo mixed
}

for run in 1 2; do
  d="$work/force-$run" && mkdir "$d"
  slowed 2 bake "$work/a.glb" -o "$d/out.glb" --force -q & first=$!
  sleep 1.2
  "$rootbake" bake "$work/b.glb" -o "$d/out.glb" --force -q; second=$?
  wait $first; first=$?
  [ "$first" = 0 ] && [ "$second" = 0 ] || fail "--force run $run: exit codes $first $second, expected 0 0"
  [ "$(pair_of "$d")" = b ] || fail "--force run $run: the files left are $(pair_of "$d"), expected the second bake's pair"
  [ -z "$(find "$d" -name '*.tmp' -o -name '*.bak')" ] || fail "--force run $run: temporaries left: $(ls -A "$d")"

  d="$work/noforce-$run" && mkdir "$d"
  slowed 1 bake "$work/a.glb" -o "$d/out.glb" -q & first=$!
  sleep 1.2
  "$rootbake" bake "$work/b.glb" -o "$d/out.glb" -q 2>"$d.err"; second=$?
  wait $first; first=$?
  [ "$first" = 0 ] && [ "$second" = 3 ] || fail "no --force run $run: exit codes $first $second, expected 0 3"
  grep -q "out.glb: exists: another process wrote it while this bake ran (pass --force to overwrite)" "$d.err" ||
    fail "no --force run $run: message: $(cat "$d.err")"
  [ "$(pair_of "$d")" = a ] || fail "no --force run $run: the files left are $(pair_of "$d"), expected the first bake's"
  [ "$(ls -A "$d" | wc -l)" = 2 ] || fail "no --force run $run: left: $(ls -A "$d")"
done
# A bake killed with SIGKILL while its temporaries exist (held at its first rename): they stay,
# and the next bake into that folder removes them, as their process is gone.
d="$work/killed" && mkdir "$d"
strace -f -qq -o /dev/null -e trace=rename,renameat,renameat2 -e inject=rename,renameat,renameat2:delay_enter=3000000:when=1 \
  "$rootbake" bake "$work/a.glb" -o "$d/out.glb" -q & tracer=$!
sleep 1.2
victim=$(pgrep -P "$tracer")  # strace's child: the bake
[ -n "$victim" ] || fail "no bake under strace"
kill -KILL "$victim"
{ wait "$tracer"; } 2>/dev/null
left=$(ls -A "$d" | grep -c -- "\.rootbake-$victim-[0-9]*\.tmp$")
[ "$left" = 2 ] || fail "the killed bake left $left temporaries, expected 2: $(ls -A "$d")"
"$rootbake" bake "$work/b.glb" -o "$d/out.glb" -q || fail "the bake after the killed one"
[ "$(ls -A "$d")" = "$(printf 'out.glb\nout.rootmotion.json')" ] || fail "left after the next bake: $(ls -A "$d")"
echo "ok: racing bakes leave one bake's pair; without --force the later rename fails; a killed bake's temporaries go"
