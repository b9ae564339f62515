#!/usr/bin/env bash
# bench/feature_cost.sh FEATURE - what one feature costs a run: throughput with it against
# without it, in the same sitting, runs interleaved (off, on, off, on, …) so a change in the
# machine's load falls on both alike. REPS pairs (default 5) of SECS-second (default 5) GET runs,
# -c 50 -P 16, against a loopback redis-server of its own; prints each pair and the median ratio
# on/off. Exit 1 when the feature costs 1% or more (median on ÷ median off < 0.99).
#   telemetry   telemetry on (the default) against --no-telemetry (issue 19)
#   metrics     --prometheus-file and --statsd (to a loopback port nobody reads) against none,
#               telemetry on in both (issue 32)
# TACHO_CLI=build/release/app/tacho-cli skips the build step. telemetry_cost.sh and
# metrics_cost.sh run it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source-path=SCRIPTDIR/.. source=scripts/common.sh
source scripts/common.sh
# shellcheck source-path=SCRIPTDIR/.. source=bench/lib.sh
source bench/lib.sh

# makes a temporary folder (BENCH_DIR) and starts the server (BENCH_PORT), both gone at exit.
bench_cost_setup() {
  BENCH_DIR=$(mktemp -d -t tacho-cost.XXXXXX)
  trap 'bench_stop_servers; rm -rf "$BENCH_DIR"' EXIT
  bench_start_server main
}

# bench_cost_pairs WHAT OFF_FLAGS ON_FLAGS: the pairs and the verdict; the flags are split on
# spaces (no flag here holds one).
bench_cost_pairs() {
  local what=$1 off_flags=$2 on_flags=$3
  SECS=${SECS:-5}
  REPS=${REPS:-5}
  local v
  for v in SECS REPS; do
    [[ ${!v} =~ ^[1-9][0-9]*$ ]] || tacho_die "$v must be a positive integer, not '${!v}'"
  done
  local cli port
  cli=$(bench_tacho_cli)
  port=$BENCH_PORT

  # One run; prints its requests per second (the -q line "GET: N requests per second, …").
  rate() {
    # shellcheck disable=SC2086  # the flags are words
    timeout $((SECS + 60)) "$cli" redis-benchmark -h "$TACHO_HOST" -p "$port" -t get -c 50 -P 16 -r 1000 \
      --duration "$SECS" -q $1 | sed -n 's/^GET: \([0-9.]*\) requests per second.*/\1/p' | head -n 1
  }
  median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

  local off=() on=() rep a b
  for ((rep = 1; rep <= REPS; rep++)); do
    a=$(rate "$off_flags")
    b=$(rate "$on_flags")
    if [ -z "$a" ] || [ -z "$b" ]; then
      tacho_die "no 'requests per second' line in tacho-cli's output"
    fi
    printf 'pair %d: off %s, on %s requests/s\n' "$rep" "$a" "$b"
    off+=("$a")
    on+=("$b")
  done
  local m_off m_on ratio
  m_off=$(printf '%s\n' "${off[@]}" | median)
  m_on=$(printf '%s\n' "${on[@]}" | median)
  ratio=$(awk -v a="$m_on" -v b="$m_off" 'BEGIN { printf "%.4f", a / b }')
  printf 'median off %s, on %s requests/s: on/off = %s\n' "$m_off" "$m_on" "$ratio"
  if awk -v r="$ratio" 'BEGIN { exit !(r >= 0.99) }'; then
    echo "$what costs less than 1%: met"
  else
    echo "$what costs 1% or more (or the machine's load moved between runs): MISSED"
    return 1
  fi
}

bench_cost_setup
case ${1:-} in
  telemetry) bench_cost_pairs telemetry "--no-telemetry" "" ;;
  metrics) bench_cost_pairs "live metrics" "" "--prometheus-file $BENCH_DIR/tacho.prom --statsd $TACHO_HOST:$(tacho_free_port 20000 40000)" ;;
  *) tacho_die "usage: bench/feature_cost.sh telemetry|metrics" ;;
esac
