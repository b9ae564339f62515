#!/usr/bin/env bash
# test.sh - builds Tacho and runs every test suite, on a fresh Debian 12 too.
# Installs the missing Debian packages (apt-get; skipped when all are installed), configures
# and builds the release preset, then runs ctest. The tests start their own servers on free
# loopback ports. ctest runs inside a private D-Bus session with an unlocked test keyring
# (gnome-keyring, temporary HOME), so the ui tests store and read passwords through the real
# keychain. Extra arguments go to that ctest (e.g. ./test.sh -L integration, ./test.sh -R
# fixture, ./test.sh -L ui).
#
# Then the extra passes (TACHO_QUICK_TEST=1 skips them):
#   - asan preset (clang -O1, AddressSanitizer + UBSan, no GUI): the engine and integration
#     suites, and each libFuzzer target for TACHO_FUZZ_SECONDS (default 30) from its seeds;
#   - tsan preset (g++ -O1, ThreadSanitizer, no GUI): the suites labelled `threads`
#     (TACHO_TSAN=0 skips this pass).
# Both are built in the background at low priority while the release suites run (those mostly
# wait on servers), asan first. Then the asan suites run, and beside them the fuzzers (at low
# priority: they run for a fixed time whatever CPU they get) and, once their build is done,
# the tsan suites (which mostly wait on servers too). A sanitizer report or a fuzzer crash fails
# its test; crash inputs stay in build/asan/fuzz-artifacts. Exits non-zero when anything fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source-path=SCRIPTDIR source=scripts/common.sh
source scripts/common.sh

tacho_ensure_packages "${TACHO_PACKAGES[@]}"
tacho_build_release
tacho_log "release build done"

if [ "${TACHO_QUICK_TEST:-0}" = 1 ]; then
  tacho_with_test_keyring ctest --preset release --output-on-failure --timeout 300 --no-tests=error "$@"
  exit
fi

mkdir -p build
run_tsan=1
[ "${TACHO_TSAN:-1}" != 0 ] || run_tsan=0
fuzz_args=()
[ -z "${TACHO_FUZZ_SECONDS:-}" ] || fuzz_args=("-DTACHO_FUZZ_SECONDS=$TACHO_FUZZ_SECONDS")
fuzz_log=build/fuzz.log
tsan_log=build/tsan-suites.log
tacho_log "building the sanitizer presets in the background (logs: build/{asan,tsan}-build.log)"
# One background job builds asan, then tsan, and reports each result as a line on fd 3
# ("asan 0", "tsan 0"), so the asan passes can start while tsan still builds.
# shellcheck disable=SC2016  # expanded by the inner shell
exec 3< <(nice -n 15 bash -c '
  source scripts/common.sh
  status=0
  tacho_build_preset asan "$@" >build/asan-build.log 2>&1 || status=$?
  echo "asan $status"
  [ "$status" = 0 ] && [ "${TACHO_TSAN:-1}" != 0 ] || exit 0
  status=0
  tacho_build_preset tsan >build/tsan-build.log 2>&1 || status=$?
  echo "tsan $status"' sanitizer-builds "${fuzz_args[@]}" </dev/null)

failed=()
# Two at a time: most suites wait on servers and child processes; those that
# judge CPU use run alone (RUN_SERIAL in tests/CMakeLists.txt).
tacho_with_test_keyring ctest --preset release -j 2 --output-on-failure --timeout 300 --no-tests=error "$@" ||
  failed+=("release suites")
tacho_log "release suites done"

# build_status PRESET: waits for the background build of PRESET; prints its log's tail when
# it failed.
build_status() {
  local preset=$1 name status
  if ! read -r -u 3 name status || [ "$name" != "$preset" ]; then
    status=1
  fi
  if [ "$status" != 0 ]; then
    tail -n 60 "build/$preset-build.log" >&2
    tacho_log "the $preset build failed (full log: build/$preset-build.log)"
    return 1
  fi
}

tacho_log "waiting for the asan build"
build_status asan || tacho_die "failed: asan build${failed[*]:+, ${failed[*]}}"

tacho_export_sanitizer_options
tacho_log "fuzzing in the background, ${TACHO_FUZZ_SECONDS:-30} s per target (log: $fuzz_log)"
nice -n 15 ctest --preset asan -L fuzz -j 2 --no-tests=error >"$fuzz_log" 2>&1 &
fuzzers=$!
tsan_suites=
if [ "$run_tsan" = 1 ]; then
  tacho_log "the tsan suites run in the background once built (log: $tsan_log)"
  (build_status tsan && ctest --preset tsan --timeout 600 --no-tests=error) >"$tsan_log" 2>&1 &
  tsan_suites=$!
fi
exec 3<&-

# Two at a time, as the release suites (RUN_SERIAL keeps the CPU-judging suite alone).
ctest --preset asan -L 'engine|integration' -j 2 --timeout 600 --no-tests=error || failed+=("asan suites")
tacho_log "asan suites done"

if [ -n "$tsan_suites" ]; then
  if ! wait "$tsan_suites"; then
    cat "$tsan_log" >&2
    failed+=("tsan suites")
  else
    grep -E 'tests passed|Total Test time' "$tsan_log" >&2 || true
  fi
fi
if ! wait "$fuzzers"; then
  cat "$fuzz_log" >&2
  failed+=("fuzz targets")
else
  grep -E 'tests passed|Total Test time' "$fuzz_log" >&2 || true
fi

if [ "${#failed[@]}" -gt 0 ]; then
  tacho_die "failed: ${failed[*]}"
fi
tacho_log "all passes succeeded"
