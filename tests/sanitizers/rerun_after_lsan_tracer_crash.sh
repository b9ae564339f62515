#!/usr/bin/env bash
# rerun_after_lsan_tracer_crash.sh SUITE [ARG...] - runs a test suite of the AddressSanitizer
# build, and runs it once more when, and only when, it failed because LeakSanitizer's own
# stop-the-world tracer crashed at some process's exit ("Tracer caught signal …" then
# "LeakSanitizer has encountered a fatal error").
#
# Why: that crash is a known fault of the sanitizer runtime (google/sanitizers#1353), roughly
# one process exit in several hundred; the suites start tacho-cli hundreds of times, so a
# clean tree fails now and then with no finding at all. The leak check of that process did not
# run, so the suite is run again whole, and its second result is the result.
#
# Not rerun, and still red: any sanitizer report (AddressSanitizer, a detected leak, UBSan's
# "runtime error:", a SUMMARY line), a failure without the tracer's signature, half the
# signature, and a second tracer crash.
set -uo pipefail

[ $# -ge 1 ] || { echo "usage: $0 SUITE [ARG...]" >&2; exit 2; }

log=$(mktemp "${TMPDIR:-/tmp}/tacho-suite-output.XXXXXX") || exit 2
trap 'rm -f "$log"' EXIT

run_once() {
  "$@" 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
}

run_once "$@"
status=$?
[ "$status" != 0 ] || exit 0

if grep -q '^Tracer caught signal' "$log" &&
   grep -q 'LeakSanitizer has encountered a fatal error' "$log" &&
   ! grep -Eq 'ERROR: (AddressSanitizer|LeakSanitizer: detected)|runtime error:|SUMMARY: [A-Za-z]+Sanitizer' "$log"; then
  echo "rerun_after_lsan_tracer_crash: LeakSanitizer's tracer crashed at a process exit (a fault of the sanitizer runtime, not a finding); running the suite once more"
  run_once "$@"
  exit $?
fi
exit "$status"
