#!/usr/bin/env bash
# bench/gui_vs_cli.sh - the same workload from the workbench (scripted mode, a real window
# under xvfb-run when there is no display) and from tacho-cli, against one loopback
# redis-server, alternating, REPS times. Prints each run's throughput (from its run file),
# the GUI/CLI ratio of the medians (target: >= 0.95) and the GUI thread's worst timer delay
# during the GUI runs (target: < 50 ms).
#
#   bench/gui_vs_cli.sh                      REPS=3, 50 connections, -P 16, SET+GET, -n 6000000
#   REPS=5 WORKLOAD="-t set -c 50 -n 1000000 -d 32" bench/gui_vs_cli.sh
# A test should last several seconds: a GUI run's fixed costs (the window switching to the
# live page, the first redraws) fall inside the first test, and on two cores they weigh on a
# one-second test more than on a real one.
#   TACHO_GUI=… TACHO_CLI=…                  binaries to measure (default: the release preset's)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source-path=SCRIPTDIR/.. source=scripts/common.sh
source scripts/common.sh
# shellcheck source-path=SCRIPTDIR/.. source=bench/lib.sh
source bench/lib.sh

REPS=${REPS:-3}
WORKLOAD=${WORKLOAD:--t set,get -c 50 -P 16 -n 6000000 -d 32}
[[ $REPS =~ ^[1-9][0-9]*$ ]] || tacho_die "REPS must be a positive integer, not '$REPS'"
TACHO_CLI=$(bench_tacho_cli)
TACHO_GUI=${TACHO_GUI:-build/release/app/tacho}
[ -x "$TACHO_GUI" ] || tacho_die "tacho not found at $TACHO_GUI (cmake --build --preset release)"
gui=("$TACHO_GUI")
if ! tacho_has_display; then
  command -v xvfb-run >/dev/null 2>&1 || tacho_die "no display and no xvfb-run: apt-get install xvfb xauth"
  gui=(xvfb-run -a -s "-screen 0 1600x1000x24" "$TACHO_GUI")
fi

tmp=$(mktemp -d -t tacho-gui-bench.XXXXXX)
BENCH_DIR=$tmp
trap 'bench_stop_servers; rm -rf "$tmp"' EXIT
bench_start_server main
port=$BENCH_PORT

# ops_per_second RUN.json : all tests' requests over all tests' measured seconds.
ops_per_second() {
  python3 - "$1" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
requests = sum(t.get("requests", 0) for t in run["tests"])
seconds = sum(t.get("seconds", 0) for t in run["tests"])
print(f"{requests / seconds:.0f}" if seconds > 0 else "0")
PY
}

read -r -a workload <<<"$WORKLOAD"
line="redis-benchmark -h $TACHO_HOST -p $port ${WORKLOAD}"
cli_ops=() gui_ops=() worst_late=0
for rep in $(seq 1 "$REPS"); do
  "$TACHO_CLI" redis-benchmark -h "$TACHO_HOST" -p "$port" "${workload[@]}" -q --json "$tmp/cli-$rep.json" >/dev/null
  cli_ops+=("$(ops_per_second "$tmp/cli-$rep.json")")
  mkdir -p "$tmp/gui-$rep"
  timeout 600 "${gui[@]}" --config-dir "$tmp/config" --history-dir "$tmp/history-$rep" \
    --command-line "$line" --run --export-dir "$tmp/gui-$rep" --quit 2>"$tmp/gui-$rep.err" >/dev/null ||
    { cat "$tmp/gui-$rep.err" >&2; tacho_die "the GUI run $rep failed"; }
  gui_ops+=("$(ops_per_second "$tmp/gui-$rep/run.json")")
  late=$(sed -n 's/.*at worst \(-\{0,1\}[0-9]*\) ms late.*/\1/p' "$tmp/gui-$rep.err" | tail -n 1)
  [ -n "$late" ] || tacho_die "the GUI did not report its timer delay (see $tmp/gui-$rep.err)"
  [ "$late" -gt "$worst_late" ] && worst_late=$late
  printf 'rep %d: tacho-cli %s ops/s, GUI %s ops/s, GUI timer worst %s ms late\n' \
    "$rep" "${cli_ops[-1]}" "${gui_ops[-1]}" "$late"
done

median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
cli_median=$(median "${cli_ops[@]}")
gui_median=$(median "${gui_ops[@]}")
awk -v g="$gui_median" -v c="$cli_median" -v late="$worst_late" 'BEGIN {
  r = c > 0 ? g / c : 0
  printf "\nworkload: %s\nmedian: tacho-cli %.0f ops/s, GUI %.0f ops/s: GUI/CLI %.3f (target >= 0.95: %s)\n", "'"$WORKLOAD"'", c, g, r, (r >= 0.95 ? "met" : "MISSED")
  printf "GUI thread: worst timer delay %d ms (target < 50 ms: %s)\n", late, (late < 50 ? "met" : "MISSED")
}'
