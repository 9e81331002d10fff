#!/usr/bin/env bash
# A case that needs ../shared is reported as skipped when it is absent, never as passed: with
# ROOTBAKE_SHARED_DIR pointing at a folder that is not there, a corpus case alone exits 77 (ctest's
# SKIP_RETURN_CODE, which every discovered case has), a case that does not need the corpus passes,
# and a run of both passes (tests/main.cpp).
#   skip_test.sh GLTF_TESTS BUILD_DIR
set -uo pipefail
tests=$1 build=$2
corpus_case='load: every corpus file outside bad/ loads'
plain_case='load: the rig is parent-first whatever the node order'
export ROOTBAKE_SHARED_DIR=/nonexistent/rootbake-shared
status=0

expect() {  # expect CODE WHAT ARGS...: runs the binary with ARGS, fails unless it exits CODE
  local code=$1 what=$2
  shift 2
  local output got=0
  output=$("$tests" "$@" 2>&1) || got=$?
  if [ "$got" -eq "$code" ]; then echo "ok: $what: exit $got"; else
    echo "FAIL: $what: exit $got, expected $code"; echo "$output"; status=1
  fi
  LAST_OUTPUT=$output
}

expect 77 "a corpus case without ../shared" "--test-case=$corpus_case"
grep -q "skipped: ../shared is not beside the checkout" <<<"$LAST_OUTPUT" ||
  { echo "FAIL: the skipped case printed no reason"; status=1; }
expect 0 "a case that needs no corpus" "--test-case=$plain_case"
expect 0 "both in one run" "--test-case=$corpus_case,$plain_case"
expect 0 "listing the cases" --list-test-cases

# ctest runs each case with 77 meaning skipped.
if ! ctest --test-dir "$build" --show-only=json-v1 -R '^load: every corpus file outside bad/ loads$' |
  tr -d ' \n' | grep -q '"name":"SKIP_RETURN_CODE","value":77'; then
  echo "FAIL: ctest does not take 77 as a skip for '$corpus_case'"; status=1
else
  echo "ok: ctest takes 77 as a skip"
fi
exit $status
