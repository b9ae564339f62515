#!/usr/bin/env bash
# bench/fleet_overhead.sh - what running through agents (issue 21) costs: the same closed-loop
# workload run by tacho-cli directly, by one agent, and by two agents on this machine, in the
# same sitting (runs interleaved: direct, one, two, direct, …), and the coordinator's own CPU
# per second of run (user + system time, from bash's time).
# On a 2-core machine two agents share the cores with the server: the point is the overhead
# of the coordination, not the scaling.
#
#   bench/fleet_overhead.sh                  5 s per run, 3 rounds, -c 50 -P 16 SET
#   SECS=3 REPS=1 TACHO_CLI=build/release/app/tacho-cli bench/fleet_overhead.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source-path=SCRIPTDIR/.. source=scripts/common.sh
source scripts/common.sh
# shellcheck source-path=SCRIPTDIR/.. source=bench/lib.sh
source bench/lib.sh

SECS=${SECS:-5}
REPS=${REPS:-3}
for v in SECS REPS; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || tacho_die "$v must be a positive integer, not '${!v}'"
done
TACHO_CLI=$(bench_tacho_cli)

tmp=$(mktemp -d -t tacho-fleet-overhead.XXXXXX)
BENCH_DIR=$tmp
agent_pids=()
stop_agents() {
  local pid
  for pid in "${agent_pids[@]}"; do
    kill -INT "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
trap 'stop_agents; bench_stop_servers; rm -rf "$tmp"' EXIT
bench_start_server control
control=redis://$TACHO_HOST:$BENCH_PORT
bench_start_server target
port=$BENCH_PORT

for name in one two; do
  "$TACHO_CLI" agent --control "$control" --name "$name" >"$tmp/agent-$name.log" 2>&1 &
  agent_pids+=("$!")
done
for _ in $(seq 1 100); do
  [ "$(bench_cli "${control##*:}" --raw KEYS 'tacho:fleet:agent:*' | grep -c .)" = 2 ] && break
  sleep 0.1
done

# One run; prints "requests/s coordinator-cpu-seconds" (bash's time: user and system CPU of
# the coordinator, the agents' work is not in it).
run() {
  local out cpu TIMEFORMAT='cpu %U %S'
  out=$( { time timeout $((SECS + 60)) "$TACHO_CLI" redis-benchmark -h "$TACHO_HOST" \
    -p "$port" -t set -c 50 -P 16 -r 1000 --duration "$SECS" -q --no-telemetry "$@" 2>/dev/null; } 2>&1)
  cpu=$(sed -n 's/^cpu \([0-9.]*\) \([0-9.]*\)$/\1 \2/p' <<<"$out" | awk '{ print $1 + $2 }')
  printf '%s %s\n' "$(sed -n 's/^SET: \([0-9.]*\) requests per second.*/\1/p' <<<"$out" | head -n 1)" "$cpu"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
direct=() one=() two=() coordinator=()
for ((rep = 1; rep <= REPS; rep++)); do
  read -r d _ < <(run)
  read -r a c1 < <(run --agents one --control "$control")
  read -r b c2 < <(run --agents one,two --control "$control")
  [ -n "$d" ] && [ -n "$a" ] && [ -n "$b" ] || tacho_die "no 'requests per second' line in an output"
  printf 'round %d: direct %s, one agent %s, two agents %s requests/s; coordinator CPU %s s, %s s\n' \
    "$rep" "$d" "$a" "$b" "$c1" "$c2"
  direct+=("$d") one+=("$a") two+=("$b") coordinator+=("$c1" "$c2")
done
m_direct=$(printf '%s\n' "${direct[@]}" | median)
m_one=$(printf '%s\n' "${one[@]}" | median)
m_two=$(printf '%s\n' "${two[@]}" | median)
m_cpu=$(printf '%s\n' "${coordinator[@]}" | median)
awk -v d="$m_direct" -v a="$m_one" -v b="$m_two" -v c="$m_cpu" -v s="$SECS" 'BEGIN {
  printf "median: direct %.0f, one agent %.0f (%.3f of direct), two agents %.0f (%.3f of one agent) requests/s\n",
    d, a, a / d, b, b / a
  printf "coordinator CPU: %.3f s per run, %.1f ms per second of run\n", c, 1000 * c / s
}'
