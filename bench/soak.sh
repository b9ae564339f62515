#!/usr/bin/env bash
# bench/soak.sh - Tacho under a long mixed load with a fault every minute (issue 8).
#
# Starts its own redis-server on a free 127.0.0.1 port (--enable-debug-command local, nothing
# persisted) and two tacho-cli memtier clients with --reconnect-on-error for DURATION seconds:
#   plain      4 connections, pipeline 1,  SET:GET 1:3, 64-byte values, 100k keys
#   pipelined  4 connections, pipeline 16, the same mix
# each at RATE requests/s (open loop; 0: as fast as it goes). Every FAULT_EVERY seconds it
# injects the next fault of the rotation
#   restart   redis-server killed (SIGKILL) and restarted on the same port
#   kill      CLIENT KILL of the clients' connections
#   stall     DEBUG SLEEP 2 (the server stops for 2 s)
#   pause     CLIENT PAUSE 2000
# and every SAMPLE_EVERY seconds it samples the clients' resident memory (VmRSS). At the end it
# prints the faults, RSS over time and whether it grew after the warm-up, errors by kind from
# the run files, and the INFO commandstats cross-check summed over every server incarnation.
#
# The commandstats of a killed server are read at the last moment: one MULTI runs
# CLIENT PAUSE (so nothing executes any more) and INFO commandstats, then SIGKILL follows.
# A request the server executed but whose reply died with a connection is counted by the
# server and is an unanswered request for the client, so the check is
#   answered <= server calls (calls + rejected_calls of SET and GET) <= answered + unanswered.
#
# Env: DURATION (600)  FAULT_EVERY (60)  SAMPLE_EVERY (5)  RATE (10000 per client)
#      WARMUP (60, at most DURATION/4): RSS growth is judged on the samples after it
#      OUT (a new temporary folder, kept): run files, client outputs, rss.csv, faults.log
#      TACHO_CLI: the tacho-cli to run (default: build/release/app/tacho-cli, built first)
# Everything is bounded: each client is stopped by its PID if it is not done 60 s after
# DURATION; servers are stopped by PID on exit, also on Ctrl-C.
# Exit status: 0 when both runs completed, the cross-check holds and RSS did not grow; else 1.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source-path=SCRIPTDIR/.. source=scripts/common.sh
source scripts/common.sh
# shellcheck source-path=SCRIPTDIR/.. source=bench/lib.sh
source bench/lib.sh
# shellcheck source-path=SCRIPTDIR/.. source=bench/soak_lib.sh
source bench/soak_lib.sh

DURATION=${DURATION:-600}
FAULT_EVERY=${FAULT_EVERY:-60}
SAMPLE_EVERY=${SAMPLE_EVERY:-5}
RATE=${RATE:-10000}
for var in DURATION FAULT_EVERY SAMPLE_EVERY; do
  [[ ${!var} =~ ^[1-9][0-9]*$ ]] || tacho_die "$var must be a positive integer, not '${!var}'"
done
[[ $RATE =~ ^[0-9]+$ ]] || tacho_die "RATE must be a whole number of requests/s (0: unlimited), not '$RATE'"
[ "$DURATION" -ge 20 ] || tacho_die "DURATION must be at least 20 seconds (got $DURATION)"
WARMUP=${WARMUP:-60}
[[ $WARMUP =~ ^[0-9]+$ ]] || tacho_die "WARMUP must be a whole number of seconds, not '$WARMUP'"
if [ "$WARMUP" -gt $((DURATION / 4)) ]; then WARMUP=$((DURATION / 4)); fi
for tool in redis-server:redis-server redis-cli:redis-tools timeout:coreutils; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || tacho_die "${tool%%:*} not found: apt-get install ${tool#*:}"
done

TACHO=$(bench_tacho_cli)
OUT=${OUT:-$(mktemp -d -t tacho-soak.XXXXXX)}
mkdir -p "$OUT"
tmp=$(mktemp -d -t tacho-soak-servers.XXXXXX)
BENCH_DIR=$tmp
CLIENT_NAMES=(plain pipelined)
CLIENT_PIDS=()
cleanup() {
  trap '' INT TERM
  local pid
  for pid in "${CLIENT_PIDS[@]}"; do soak_stop_client "$pid"; done
  bench_stop_servers
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

SERVER_ARGS=(--enable-debug-command local --maxclients 1000)
bench_start_server server0 "${SERVER_ARGS[@]}" || tacho_die "could not start redis-server"
PORT=$BENCH_PORT
SERVER_PID=$BENCH_PID
tacho_log "redis-server pid $SERVER_PID on $TACHO_HOST:$PORT; results in $OUT"

# --- clients --------------------------------------------------------------------------------
rate_args=()
if [ "$RATE" -gt 0 ]; then rate_args=(--rate="$RATE"); fi
start_client() {  # start_client NAME PIPELINE
  "$TACHO" memtier -s "$TACHO_HOST" -p "$PORT" -t 1 -c 4 --pipeline="$2" --ratio=1:3 \
    --key-maximum=100000 -d 64 --randomize --test-time="$DURATION" --reconnect-on-error \
    "${rate_args[@]}" --hide-histogram --json="$OUT/$1.json" -o "$OUT/$1.txt" \
    </dev/null 2>"$OUT/$1.err" &
  CLIENT_PIDS+=("$!")
}
start_client plain 1
start_client pipelined 16
tacho_log "clients: plain pid ${CLIENT_PIDS[0]}, pipelined pid ${CLIENT_PIDS[1]}; $DURATION s," \
  "a fault every $FAULT_EVERY s"

# --- the run: samples and faults ------------------------------------------------------------
FAULTS=(restart kill stall pause)
fault_index=0
next_fault=$FAULT_EVERY
next_sample=0
started=$SECONDS
printf 't_s,%s\n' "$(IFS=,; echo "${CLIENT_NAMES[*]}")" >"$OUT/rss.csv"
: >"$OUT/faults.log"
deadline=$((DURATION + 60))
while soak_any_alive "${CLIENT_PIDS[@]}"; do
  now=$((SECONDS - started))
  if [ "$now" -ge "$deadline" ]; then
    tacho_log "the clients are not done $deadline s after the start; stopping them"
    break
  fi
  if ! soak_running "$SERVER_PID"; then
    tail -n 20 "$BENCH_DIR/server$SERVER_GENERATION/server.log" >&2 || true
    tacho_die "redis-server pid $SERVER_PID ended by itself at $now s (its log is above)"
  fi
  if [ "$now" -ge "$next_sample" ]; then
    soak_sample_rss "$now" "${CLIENT_PIDS[@]}" >>"$OUT/rss.csv"
    next_sample=$((next_sample + SAMPLE_EVERY))
  fi
  # No fault in the last 10 s: the final counts come from a server that is up and calm.
  if [ "$now" -ge "$next_fault" ] && [ "$now" -le $((DURATION - 10)) ]; then
    kind=${FAULTS[fault_index % ${#FAULTS[@]}]}
    fault_index=$((fault_index + 1))
    next_fault=$((next_fault + FAULT_EVERY))
    if ! soak_fault "$kind"; then
      printf '%5d s  %-8s %s\n' "$now" "$kind" "$FAULT_DETAIL" >>"$OUT/faults.log"
      tacho_die "fault $kind failed: $FAULT_DETAIL"
    fi
    printf '%5d s  %-8s %s\n' "$now" "$kind" "$FAULT_DETAIL" | tee -a "$OUT/faults.log" >&2
  fi
  sleep 1
done
for pid in "${CLIENT_PIDS[@]}"; do soak_stop_client "$pid"; done
CLIENT_STATUS=()
for pid in "${CLIENT_PIDS[@]}"; do
  status=0
  wait "$pid" 2>/dev/null || status=$?
  CLIENT_STATUS+=("$status")
done
CLIENT_PIDS=()
FINAL_STATS=$(bench_cli "$PORT" info commandstats | tr -d '\r') || FINAL_STATS=

soak_report
