#!/usr/bin/env bash
# tests/sanitizers/test_rerun_after_lsan_tracer_crash.sh - the AddressSanitizer suites'
# launcher reruns a suite only after LeakSanitizer's tracer crashed, once, and keeps every
# real finding red. Fake suites made here print what the sanitizer runtime prints.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
launcher=$here/rerun_after_lsan_tracer_crash.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

tracer_crash='Tracer caught signal 11: addr=0xf0 pc=0x55846fa5f4ca sp=0x7f0ae8ff7d40
==29307==LeakSanitizer has encountered a fatal error.'

# suite NAME STATUS OUTPUT...: a fake suite whose Nth run prints OUTPUT[N] and exits with
# STATUS[N] (the last one repeats); it counts its runs in $work/NAME.runs.
suite() {
  local name=$1
  shift
  local script=$work/$name
  {
    echo '#!/usr/bin/env bash'
    echo "runs=\$(( \$(cat '$work/$name.runs' 2>/dev/null || echo 0) + 1 )); echo \$runs >'$work/$name.runs'"
    local n=1
    while [ $# -ge 2 ]; do
      printf 'if [ $runs -le %d ] || [ %d -eq 0 ]; then printf "%%s\\n" %q; exit %d; fi\n' "$n" $(($# > 2)) "$2" "$1"
      shift 2
      n=$((n + 1))
    done
  } >"$script"
  chmod +x "$script"
}

# expect NAME STATUS RUNS: the launcher on suite NAME exits with STATUS after RUNS runs.
expect() {
  local name=$1 status=$2 runs=$3 got=0
  "$launcher" "$work/$name" >"$work/$name.out" 2>&1 || got=$?
  local ran
  ran=$(cat "$work/$name.runs")
  if [ "$got" != "$status" ] || [ "$ran" != "$runs" ]; then
    echo "FAIL: $name: status $got after $ran runs (expected $status after $runs)"
    cat "$work/$name.out"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}

suite passes 0 "Totals: 3 passed, 0 failed"
expect passes 0 1

suite plain_failure 1 "FAIL!  : Suite::case() 'x' returned FALSE."
expect plain_failure 1 1

suite tracer_crash_then_pass 1 "$tracer_crash" 0 "Totals: 3 passed, 0 failed"
expect tracer_crash_then_pass 0 2

suite tracer_crash_twice 1 "$tracer_crash"
expect tracer_crash_twice 1 2

suite tracer_crash_then_real_failure 1 "$tracer_crash" 1 "FAIL!  : Suite::case() 'x' returned FALSE."
expect tracer_crash_then_real_failure 1 2

suite tracer_crash_and_leak 1 "$tracer_crash
==1==ERROR: LeakSanitizer: detected memory leaks" 0 ok
expect tracer_crash_and_leak 1 1

suite tracer_crash_and_asan 1 "$tracer_crash
==1==ERROR: AddressSanitizer: heap-use-after-free" 0 ok
expect tracer_crash_and_asan 1 1

suite tracer_crash_and_ubsan 1 "$tracer_crash
engine/x.cpp:1:2: runtime error: signed integer overflow" 0 ok
expect tracer_crash_and_ubsan 1 1

suite half_signature 1 "==1==LeakSanitizer has encountered a fatal error." 0 ok
expect half_signature 1 1

# The launcher passes the suite's arguments through and shows the suite's output.
printf '#!/usr/bin/env bash\nprintf "<%%s>" "$@"; echo\n' >"$work/echo_args"
chmod +x "$work/echo_args"
if [ "$("$launcher" "$work/echo_args" "a b" -c)" != "<a b><-c>" ]; then
  echo "FAIL: arguments"
  failures=$((failures + 1))
else
  echo "ok: arguments"
fi

[ "$failures" = 0 ] || { echo "$failures case(s) failed"; exit 1; }
echo "all cases passed"
