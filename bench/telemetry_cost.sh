#!/usr/bin/env bash
# bench/telemetry_cost.sh - what telemetry (issue 19) costs a run: throughput with telemetry on
# (default, one plain INFO a second on its own connection, /proc reads) against --no-telemetry,
# in the same sitting, runs interleaved (off, on, off, on, …) so a change in the machine's load
# falls on both alike.
#
#   bench/telemetry_cost.sh                      5 s per run, 5 pairs, -c 50 -P 16 GET
#   SECS=3 REPS=3 bench/telemetry_cost.sh
#   TACHO_CLI=build/dev/app/tacho-cli bench/telemetry_cost.sh   (no build step)
# Target (issue 19): telemetry costs less than 1% of throughput (median on ÷ median off ≥ 0.99).
# Exit 1 when the median ratio misses it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source-path=SCRIPTDIR/.. source=scripts/common.sh
source scripts/common.sh
# shellcheck source-path=SCRIPTDIR/.. source=bench/lib.sh
source bench/lib.sh

SECS=${SECS:-5}
REPS=${REPS:-5}
for v in SECS REPS; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || tacho_die "$v must be a positive integer, not '${!v}'"
done
TACHO_CLI=$(bench_tacho_cli)

tmp=$(mktemp -d -t tacho-telemetry-cost.XXXXXX)
BENCH_DIR=$tmp
trap 'bench_stop_servers; rm -rf "$tmp"' EXIT
bench_start_server main
port=$BENCH_PORT

# One run; prints its requests per second (the -q line "GET: N requests per second, …").
rate() {
  timeout $((SECS + 60)) "$TACHO_CLI" redis-benchmark -h "$TACHO_HOST" -p "$port" -t get -c 50 -P 16 -r 1000 \
    --duration "$SECS" -q "$@" | sed -n 's/^GET: \([0-9.]*\) requests per second.*/\1/p' | head -n 1
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

off=() on=()
for ((rep = 1; rep <= REPS; rep++)); do
  a=$(rate --no-telemetry)
  b=$(rate)
  [ -n "$a" ] && [ -n "$b" ] || tacho_die "no 'requests per second' line in tacho-cli's output"
  printf 'pair %d: off %s, on %s requests/s\n' "$rep" "$a" "$b"
  off+=("$a")
  on+=("$b")
done
m_off=$(printf '%s\n' "${off[@]}" | median)
m_on=$(printf '%s\n' "${on[@]}" | median)
ratio=$(awk -v a="$m_on" -v b="$m_off" 'BEGIN { printf "%.4f", a / b }')
printf 'median off %s, on %s requests/s: on/off = %s\n' "$m_off" "$m_on" "$ratio"
if awk -v r="$ratio" 'BEGIN { exit !(r >= 0.99) }'; then
  echo "telemetry costs less than 1%: met"
else
  echo "telemetry costs 1% or more (or the machine's load moved between runs): MISSED"
  exit 1
fi
