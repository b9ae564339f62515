#!/usr/bin/env bash
# bench/compare.sh - Tacho against its peers, in one sitting, on loopback.
#
# Starts its own redis-server on a free 127.0.0.1 port (stopped by PID on exit), then, REPS
# times, runs each scenario with each tool in turn (the order rotates every repetition):
#   P1   SET+GET, 50 connections, pipeline 1,  -d 32, 100k random keys
#   P16  SET+GET, 50 connections, pipeline 16, -d 32, 100k random keys
# Tools: tacho-cli redis-benchmark --csv, redis-benchmark --csv, and memtier_benchmark
# (--ratio 1:1 --test-time SECS) when $MEMTIER is set or it is on PATH.
# Every client runs under GNU time and a timeout. Prints one line per run, then the medians
# per tool and scenario and Tacho's ratios to each peer, with the targets of bench/README.md.
#
# Env: REPS (3)  N1 (300000)  N16 (3000000): requests per test (SET, GET) at P1 / P16
#      SECS (8): memtier --test-time   LIMIT (180): seconds per client run before it is killed
#      TACHO_CLI: the tacho-cli to measure (default: build/release/app/tacho-cli, built first)
#      MEMTIER: path of memtier_benchmark (default: from PATH; optional)
# Exit status: 0 when every run produced a result, 1 otherwise (the summary is printed anyway).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source-path=SCRIPTDIR/.. source=scripts/common.sh
source scripts/common.sh

REPS=${REPS:-3}
N1=${N1:-300000}
N16=${N16:-3000000}
SECS=${SECS:-8}
LIMIT=${LIMIT:-180}
MT=${MEMTIER:-$(command -v memtier_benchmark || true)}
GNU_TIME=/usr/bin/time

# --- checks -------------------------------------------------------------------------------
need() {  # need COMMAND PACKAGE
  command -v "$1" >/dev/null 2>&1 || tacho_die "$1 not found: apt-get install $2"
}
[ -x "$GNU_TIME" ] || tacho_die "GNU time ($GNU_TIME) not found: apt-get install time"
need timeout coreutils
need redis-server redis-server
need redis-cli redis-tools
need redis-benchmark redis-tools
if [ -n "$MT" ] && [ ! -x "$MT" ]; then
  tacho_die "MEMTIER=$MT is not an executable"
fi

if [ -n "${TACHO_CLI:-}" ]; then
  TACHO=$TACHO_CLI
else
  TACHO=build/release/app/tacho-cli
  tacho_log "building tacho-cli (release preset)"
  build_log=$(mktemp -t tacho-bench-build.XXXXXX)
  if ! { cmake --preset release && cmake --build --preset release --target tacho-cli; } \
    >"$build_log" 2>&1; then
    tail -n 30 "$build_log" >&2
    rm -f "$build_log"
    tacho_die "build failed (./test.sh installs the build dependencies)"
  fi
  rm -f "$build_log"
fi
[ -x "$TACHO" ] || tacho_die "tacho-cli not found at $TACHO"

# --- server ---------------------------------------------------------------------------------
tmp=$(mktemp -d -t tacho-bench.XXXXXX)
CLIENT_PID=
cleanup() {
  if [ -n "$CLIENT_PID" ]; then  # timeout passes the signal on to the client it runs
    kill -TERM "$CLIENT_PID" 2>/dev/null || true
    wait "$CLIENT_PID" 2>/dev/null || true
  fi
  tacho_cleanup_redis
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# shellcheck disable=SC2119  # no extra server arguments
tacho_start_redis
HOST=$TACHO_HOST
PORT=$TACHO_REDIS_PORT
CLK_TCK=$(getconf CLK_TCK)
: >"$tmp/results"
failures=0

# server_ticks : utime+stime of the server process, in clock ticks.
server_ticks() {
  # Fields after the ")" that ends the command name: state is 3rd, utime 14th, stime 15th.
  sed 's/^.*) //' "/proc/$TACHO_REDIS_PID/stat" | awk '{ print $12 + $13 }'
}

# run TOOL SCENARIO CMD... : runs CMD under timeout and GNU time; output in $tmp/out and
# $tmp/err, client user/sys/RSS in USR SYS RSS, server CPU ticks in SRV_TICKS.
run() {
  local tool=$1 scenario=$2 status=0 before after
  shift 2
  before=$(server_ticks)
  # In the background so that a signal to this script is handled at once (bash defers traps
  # while a foreground child runs); cleanup() stops it by PID.
  timeout -k 5 "$LIMIT" "$GNU_TIME" -f '%U %S %M' -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" &
  CLIENT_PID=$!
  wait "$CLIENT_PID" || status=$?
  CLIENT_PID=
  after=$(server_ticks)
  SRV_TICKS=$((after - before))
  if [ "$status" -ne 0 ]; then
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      printf '%-16s %-5s FAILED: no result within %s s (LIMIT)\n' "$tool" "$scenario" "$LIMIT"
    else
      printf '%-16s %-5s FAILED: exit status %s\n' "$tool" "$scenario" "$status"
    fi
    tail -n 3 "$tmp/err" | sed 's/^/    /' >&2
    failures=$((failures + 1))
    return 1
  fi
  # GNU time writes "Command exited with non-zero status N" first when it applies.
  read -r USR SYS RSS < <(tail -n 1 "$tmp/time")
}

# record TOOL SCENARIO REQUESTS OPS_PER_SEC : prints the run's line and keeps it for the summary.
record() {
  local line
  line=$(awk -v t="$1" -v s="$2" -v n="$3" -v o="$4" -v u="$USR" -v y="$SYS" -v r="$RSS" \
    -v k="$SRV_TICKS" -v hz="$CLK_TCK" \
    'BEGIN { printf "%s %s %.0f %.3f %d %.3f %d\n", t, s, o, (u + y) * 1e6 / n, r, k * 1e6 / hz / n, n }')
  echo "$line" >>"$tmp/results"
  # shellcheck disable=SC2086  # split the fields on purpose
  print_row $line
}

print_row() {  # tool scenario ops cpu rss_kb srv requests
  awk -v t="$1" -v s="$2" -v o="$3" -v c="$4" -v r="$5" -v v="$6" -v n="$7" \
    'BEGIN { printf "%-16s %-5s %12.0f %12.2f %10.1f %12.2f %10d\n", t, s, o, c, r / 1024, v, n }'
}

# csv_ops N : ops/s from redis-benchmark --csv output in $tmp/out (total requests / total
# seconds over the SET and GET rows); fails unless exactly those two rows are there.
csv_ops() {
  awk -F'"' -v n="$1" '
    NR == 1 { if ($2 != "test" || $4 != "rps") bad = 1; next }
    NF >= 4 { rows++; names = names $2 ","; if ($4 + 0 <= 0) bad = 1; tot += n; secs += n / $4 }
    END { if (bad || rows != 2 || names != "SET,GET,") exit 1; printf "%.2f\n", tot / secs }
  ' "$tmp/out"
}

# csv_tool TOOL SCENARIO N PIPELINE CMD... : a tool that speaks redis-benchmark's flags and --csv.
csv_tool() {
  local tool=$1 scenario=$2 n=$3 pipeline=$4 ops
  shift 4
  run "$tool" "$scenario" "$@" -h "$HOST" -p "$PORT" -t set,get -n "$n" -c 50 -P "$pipeline" \
    -d 32 -r 100000 --csv || return 0
  if ! ops=$(csv_ops "$n"); then
    printf '%-16s %-5s NO RESULT: expected the CSV header and SET, GET rows; got:\n' "$tool" "$scenario"
    head -n 5 "$tmp/out" | sed 's/^/    /'
    failures=$((failures + 1))
    return 0
  fi
  record "$tool" "$scenario" $((2 * n)) "$ops"
}

memtier() {  # memtier SCENARIO PIPELINE
  local scenario=$1 pipeline=$2 n=0 ops=0
  run memtier "$scenario" "$MT" -s "$HOST" -p "$PORT" -t 1 -c 50 --pipeline "$pipeline" -d 32 \
    --key-maximum 100000 --ratio 1:1 --test-time "$SECS" --hide-histogram \
    --json-out-file "$tmp/mt.json" || return 0
  # The first "Count" / "Ops/sec" after the "Totals" key are the totals.
  read -r n ops < <(awk -F': ' '/"Totals"/ { t = 1 } t && /"Count"/ && !n { n = $2 + 0 }
    t && /"Ops\/sec"/ { print n, $2 + 0; exit }' "$tmp/mt.json") || true
  if [ "${n:-0}" -le 0 ]; then
    printf '%-16s %-5s NO RESULT (no Totals in its JSON)\n' memtier "$scenario"
    failures=$((failures + 1))
    return 0
  fi
  record memtier "$scenario" "$n" "$ops"
}

one() {  # one TOOL SCENARIO
  local n=$N1 pipeline=1
  if ! kill -0 "$TACHO_REDIS_PID" 2>/dev/null; then
    tail -n 20 "$TACHO_REDIS_DIR/server.log" >&2 || true
    tacho_die "redis-server is gone (its log is above)"
  fi
  if [ "$2" = P16 ]; then n=$N16 pipeline=16; fi
  case $1 in
    tacho) csv_tool tacho "$2" "$n" "$pipeline" "$TACHO" redis-benchmark ;;
    redis-benchmark) csv_tool redis-benchmark "$2" "$n" "$pipeline" redis-benchmark ;;
    memtier) memtier "$2" "$pipeline" ;;
  esac
}

# --- runs -------------------------------------------------------------------------------------
tools=(tacho redis-benchmark)
[ -z "$MT" ] || tools+=(memtier)
scenarios=(P1 P16)

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ)  $(nproc) cpus  redis-server $(redis-server --version | cut -d' ' -f3 | cut -d= -f2) on $HOST:$PORT"
echo "# tacho-cli: $TACHO   memtier: ${MT:-not found (set MEMTIER=... to include it)}"
echo "# REPS=$REPS N1=$N1 N16=$N16 SECS=$SECS LIMIT=$LIMIT; scenarios: SET+GET -c 50 -d 32 -r 100000, P1 and P16"
if [ -n "$MT" ]; then  # fill memtier's keyspace so its GETs hit, as redis-benchmark's SETs do for it
  timeout "$LIMIT" "$MT" -s "$HOST" -p "$PORT" -t 1 -c 10 -d 32 --ratio 1:0 --key-pattern P:P \
    --key-maximum 100000 -n allkeys --hide-histogram >/dev/null 2>&1 || true
fi
printf '%-16s %-5s %12s %12s %10s %12s %10s\n' tool scen ops/s cli_us/req rss_MiB srv_us/req requests

for ((rep = 0; rep < REPS; rep++)); do
  for scenario in "${scenarios[@]}"; do
    for ((i = 0; i < ${#tools[@]}; i++)); do
      one "${tools[(i + rep) % ${#tools[@]}]}" "$scenario"
    done
  done
done

# --- summary ----------------------------------------------------------------------------------
median() {  # median of the numbers on standard input; "nan" when there are none
  sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2];
    else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
column_median() {  # column_median TOOL SCENARIO FIELD
  awk -v t="$1" -v s="$2" -v f="$3" '$1 == t && $2 == s { print $f }' "$tmp/results" | median
}

echo
echo "# medians of $REPS"
printf '%-16s %-5s %12s %12s %10s %12s %10s\n' tool scen ops/s cli_us/req rss_MiB srv_us/req runs
for scenario in "${scenarios[@]}"; do
  for tool in "${tools[@]}"; do
    runs=$(awk -v t="$tool" -v s="$scenario" '$1 == t && $2 == s' "$tmp/results" | wc -l)
    [ "$runs" -gt 0 ] || { printf '%-16s %-5s %12s\n' "$tool" "$scenario" "no result"; continue; }
    print_row "$tool" "$scenario" "$(column_median "$tool" "$scenario" 3)" \
      "$(column_median "$tool" "$scenario" 4)" "$(column_median "$tool" "$scenario" 5)" \
      "$(column_median "$tool" "$scenario" 6)" "$runs"
  done
done

echo
echo "# tacho / peer (medians): throughput ratio (higher is better), client CPU per request ratio (lower is better)"
for scenario in "${scenarios[@]}"; do
  t_ops=$(column_median tacho "$scenario" 3)
  t_cpu=$(column_median tacho "$scenario" 4)
  t_rss=$(column_median tacho "$scenario" 5)
  best='' best_ops=0 best_cpu=''
  for tool in "${tools[@]}"; do
    [ "$tool" != tacho ] || continue
    p_ops=$(column_median "$tool" "$scenario" 3)
    p_cpu=$(column_median "$tool" "$scenario" 4)
    [ "$p_ops" != nan ] || continue
    awk -v s="$scenario" -v p="$tool" -v to="$t_ops" -v tc="$t_cpu" -v po="$p_ops" -v pc="$p_cpu" \
      'BEGIN { if (to == "nan") { printf "%-5s vs %-16s  no tacho result\n", s, p; exit }
               printf "%-5s vs %-16s  throughput %5.2fx   cpu/req %5.2fx\n", s, p, to / po, tc / pc }'
    if awk -v a="$p_ops" -v b="$best_ops" 'BEGIN { exit !(a > b) }'; then
      best=$tool best_ops=$p_ops best_cpu=$p_cpu
    fi
  done
  if [ -z "$best" ] || [ "$t_ops" = nan ]; then continue; fi
  # Targets (bench/README.md): P1 >= 1.3x the best peer's throughput at <= 0.5x its CPU/request;
  # P16 >= 1.1x at <= 0.7x; RSS < 10 MiB at 50 connections.
  if [ "$scenario" = P1 ]; then want_ops=1.3 want_cpu=0.5; else want_ops=1.1 want_cpu=0.7; fi
  awk -v s="$scenario" -v b="$best" -v to="$t_ops" -v tc="$t_cpu" -v tr="$t_rss" -v bo="$best_ops" \
    -v bc="$best_cpu" -v wo="$want_ops" -v wc="$want_cpu" '
    function verdict(ok) { return ok ? "met" : "MISSED" }
    BEGIN {
      printf "%-5s target vs best peer (%s): throughput %.2fx (want >= %.1fx) %s; cpu/req %.2fx (want <= %.1fx) %s; rss %.1f MiB (want < 10) %s\n",
        s, b, to / bo, wo, verdict(to / bo >= wo), tc / bc, wc, verdict(tc / bc <= wc),
        tr / 1024, verdict(tr < 10240)
    }'
done

if [ "$failures" -gt 0 ]; then
  echo "# $failures run(s) failed or gave no result" >&2
  exit 1
fi
