#!/usr/bin/env bash
# bench/compare.sh - Tacho against its peers, in one sitting, on loopback.
#
# Starts its own redis-servers on free 127.0.0.1 ports (a plain one; a TLS one for TLS; a
# 3-master cluster for CLUSTER; all stopped by PID on exit, also on Ctrl-C), then, REPS times,
# runs each selected scenario with each tool in turn (the order rotates every repetition):
#   P1      SET+GET, 50 connections, pipeline 1,  -d 32, 100k random keys (redis-benchmark form)
#   P16     the same at pipeline 16
#   MT1     memtier form, -t 1 -c 50 --ratio 1:1 -d 32 --key-maximum 100000 --pipeline 1
#   MT16    the same at pipeline 16
#   C1000   SET, 1000 connections, pipeline 1 (memtier: -t 4 -c 250)
#   C10000  SET, 10000 connections, pipeline 1 (memtier: -t 4 -c 2500)
#   TLS     SET, 50 connections, pipeline 1, TLS (certificates made here with openssl)
#   CLUSTER SET, 50 clients, pipeline 1, against a 3-master loopback cluster
# Tools: tacho-cli redis-benchmark (tool "tacho"), tacho-cli memtier ("tacho-mt"),
# redis-benchmark, and memtier_benchmark when $MEMTIER is set or it is on PATH.
# Every client runs under GNU time and a timeout. Prints one line per run, then the medians
# per tool and scenario and Tacho's ratios to each peer, with the targets of bench/README.md.
#
# Env: SCENARIOS ("P1 P16 MT1 MT16 C1000 C10000 TLS CLUSTER"): the scenarios to run
#      REPS (3)  N1 (300000)  N16 (3000000): requests per test (SET, GET) at P1 / P16
#      NSET (300000): requests of the SET-only scenarios (C1000, C10000, TLS, CLUSTER)
#      SECS (8): memtier --test-time   LIMIT (180): seconds per client run before it is killed
#      TACHO_CLI: the tacho-cli to measure (default: build/release/app/tacho-cli, built first)
#      MEMTIER: path of memtier_benchmark (default: from PATH; optional)
#      TACHO_EPOLL=1: also run Tacho on its epoll transport (tools tacho-epoll, tacho-mt-epoll)
#      in the same sitting; "tacho" / "tacho-mt" run on the default transport (io_uring here)
# Exit status: 0 when every run produced a result, 1 otherwise (the summary is printed anyway).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source-path=SCRIPTDIR/.. source=scripts/common.sh
source scripts/common.sh
# shellcheck source-path=SCRIPTDIR/.. source=bench/lib.sh
source bench/lib.sh

ALL_SCENARIOS="P1 P16 MT1 MT16 C1000 C10000 TLS CLUSTER"
SCENARIOS=${SCENARIOS:-$ALL_SCENARIOS}
REPS=${REPS:-3}
N1=${N1:-300000}
N16=${N16:-3000000}
NSET=${NSET:-300000}
SECS=${SECS:-8}
LIMIT=${LIMIT:-180}
MT=${MEMTIER:-$(command -v memtier_benchmark || true)}
TACHO_EPOLL=${TACHO_EPOLL:-0}
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
for var in REPS N1 N16 NSET SECS LIMIT; do
  [[ ${!var} =~ ^[1-9][0-9]*$ ]] || tacho_die "$var must be a positive integer, not '${!var}'"
done
read -r -a scenarios <<<"$SCENARIOS"
[ "${#scenarios[@]}" -gt 0 ] || tacho_die "SCENARIOS is empty; choose from: $ALL_SCENARIOS"
for scenario in "${scenarios[@]}"; do
  [[ " $ALL_SCENARIOS " == *" $scenario "* ]] ||
    tacho_die "unknown scenario '$scenario'; choose from: $ALL_SCENARIOS"
done
selected() {  # selected SCENARIO... : true when one of them is in SCENARIOS
  local s
  for s in "$@"; do [[ " ${scenarios[*]} " == *" $s "* ]] && return 0; done
  return 1
}
if selected TLS; then need openssl openssl; fi

# 10,000 connections need that many descriptors in the client and the server (which sets its
# own limit from --maxclients); raise the soft limit to the hard one for everything started here.
hard_nofile=$(ulimit -Hn)
if [ "$hard_nofile" = unlimited ] || [ "$hard_nofile" -gt 1048576 ]; then hard_nofile=1048576; fi
soft_nofile=$(ulimit -Sn)
if [ "$soft_nofile" != unlimited ] && [ "$soft_nofile" -lt "$hard_nofile" ]; then
  ulimit -Sn "$hard_nofile"
fi
if selected C10000 && [ "$hard_nofile" -lt 10300 ]; then
  tacho_die "C10000 needs an open-files limit above 10300 (the hard limit is $hard_nofile)"
fi

TACHO=$(bench_tacho_cli)

# --- servers --------------------------------------------------------------------------------
tmp=$(mktemp -d -t tacho-bench.XXXXXX)
BENCH_DIR=$tmp/servers
mkdir -p "$BENCH_DIR"
CLIENT_PID=
cleanup() {
  # A second Ctrl-C (or the TERM that follows an INT) must not cut the cleanup short; it is
  # bounded anyway: timeout -k kills the client 5 s after the TERM, servers get SIGKILL after 5 s.
  trap '' INT TERM
  if [ -n "$CLIENT_PID" ]; then  # timeout passes the signal on to the client it runs
    kill -TERM "$CLIENT_PID" 2>/dev/null || true
    wait "$CLIENT_PID" 2>/dev/null || true
  fi
  bench_stop_servers
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# bounded CMD... : runs CMD in the background (so that a signal to this script is handled at
# once: bash defers traps while a foreground child runs) and waits for it; cleanup() stops it.
bounded() {
  local status=0
  "$@" &
  CLIENT_PID=$!
  wait "$CLIENT_PID" || status=$?
  CLIENT_PID=
  return "$status"
}

PLAIN_PORT='' PLAIN_PID='' TLS_PORT='' TLS_PID=''
if selected P1 P16 MT1 MT16 C1000 C10000; then
  plain_args=()
  # 10,000 client connections plus the odd redis-cli; same server for every plain scenario.
  if selected C1000 C10000; then plain_args=(--maxclients 10100); fi
  bench_start_server plain "${plain_args[@]}" || tacho_die "could not start redis-server"
  PLAIN_PORT=$BENCH_PORT PLAIN_PID=$BENCH_PID
fi
if selected TLS; then
  bench_make_certs "$tmp/certs"
  bench_start_tls_server "$tmp/certs" || tacho_die "could not start the TLS redis-server"
  TLS_PORT=$BENCH_PORT TLS_PID=$BENCH_PID
fi
if selected CLUSTER; then
  bench_start_cluster 3 || tacho_die "could not set up the 3-master cluster"
fi
HOST=$TACHO_HOST
CLK_TCK=$(getconf CLK_TCK)
: >"$tmp/results"
failures=0

# use_server SCENARIO : the scenario's server: SRV_PIDS (whose CPU is counted), SRV_NAME, and
# the connection options in redis-benchmark's (CONN_RB) and memtier's (CONN_MT) form.
use_server() {
  case $1 in
    TLS)
      SRV_PIDS=("$TLS_PID") SRV_NAME=tls
      CONN_RB=(-h "$HOST" -p "$TLS_PORT" --tls --cacert "$tmp/certs/ca.crt")
      CONN_MT=(-s "$HOST" -p "$TLS_PORT" --tls --cacert "$tmp/certs/ca.crt") ;;
    CLUSTER)
      SRV_PIDS=("${BENCH_CLUSTER_PIDS[@]}") SRV_NAME=cluster
      CONN_RB=(-h "$HOST" -p "${BENCH_CLUSTER_PORTS[0]}" --cluster)
      CONN_MT=(-s "$HOST" -p "${BENCH_CLUSTER_PORTS[0]}" --cluster-mode) ;;
    *)
      SRV_PIDS=("$PLAIN_PID") SRV_NAME=plain
      CONN_RB=(-h "$HOST" -p "$PLAIN_PORT")
      CONN_MT=(-s "$HOST" -p "$PLAIN_PORT") ;;
  esac
}

# server_ticks : utime+stime of the scenario's server processes (summed), in clock ticks.
server_ticks() {
  local pid total=0 t
  for pid in "${SRV_PIDS[@]}"; do
    # Fields after the ")" that ends the command name: state is 3rd, utime 14th, stime 15th.
    t=$(sed 's/^.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')
    total=$((total + t))
  done
  echo "$total"
}

# run TOOL SCENARIO CMD... : runs CMD under timeout and GNU time; output in $tmp/out and
# $tmp/err, client user/sys/RSS/elapsed in USR SYS RSS WALL, server CPU ticks in SRV_TICKS.
run() {
  local tool=$1 scenario=$2 status=0 before after
  shift 2
  before=$(server_ticks)
  bounded timeout -k 5 "$LIMIT" "$GNU_TIME" -f '%U %S %M %e' -o "$tmp/time" "$@" \
    >"$tmp/out" 2>"$tmp/err" || status=$?
  after=$(server_ticks)
  SRV_TICKS=$((after - before))
  if [ "$status" -ne 0 ]; then
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      printf '%-16s %-7s FAILED: no result within %s s (LIMIT)\n' "$tool" "$scenario" "$LIMIT"
    else
      printf '%-16s %-7s FAILED: exit status %s\n' "$tool" "$scenario" "$status"
    fi
    tail -n 3 "$tmp/err" | sed 's/^/    /' >&2
    failures=$((failures + 1))
    return 1
  fi
  # GNU time writes "Command exited with non-zero status N" first when it applies.
  read -r USR SYS RSS WALL < <(tail -n 1 "$tmp/time")
}

# record TOOL SCENARIO REQUESTS OPS_PER_SEC MEASURED_SECONDS [CONNECT_SECONDS] : prints the
# run's line and keeps it for the summary. setup = wall clock - measured time.
record() {
  local line
  line=$(awk -v t="$1" -v s="$2" -v n="$3" -v o="$4" -v m="$5" -v c="${6:-nan}" -v u="$USR" \
    -v y="$SYS" -v r="$RSS" -v w="$WALL" -v k="$SRV_TICKS" -v hz="$CLK_TCK" '
    BEGIN { printf "%s %s %.0f %.3f %d %.3f %d %s %s\n", t, s, o, (u + y) * 1e6 / n, r,
              k * 1e6 / hz / n, n, (m == "nan" ? m : sprintf("%.2f", w - m)),
              (c == "nan" ? c : sprintf("%.2f", c)) }')
  echo "$line" >>"$tmp/results"
  # shellcheck disable=SC2086  # split the fields on purpose
  print_row $line
}

header() {  # header LAST_COLUMN_TITLE
  printf '%-16s %-7s %12s %11s %9s %11s %10s %8s %7s\n' tool scen ops/s cli_us/req rss_MiB \
    srv_us/req "$1" setup_s conn_s
}

print_row() {  # tool scenario ops cpu rss_kb srv requests setup conn
  awk -v t="$1" -v s="$2" -v o="$3" -v c="$4" -v r="$5" -v v="$6" -v n="$7" -v w="$8" -v k="$9" '
    function opt(x) { return x == "nan" ? "n/a" : sprintf("%.2f", x) }
    BEGIN { printf "%-16s %-7s %12.0f %11.2f %9.1f %11.2f %10d %8s %7s\n", t, s, o, c, r / 1024,
              v, n, opt(w), opt(k) }'
}

# csv_ops N TESTS : "ops/s measured_seconds" from redis-benchmark --csv output in $tmp/out
# (total requests / total seconds over the rows); fails unless exactly the rows TESTS
# ("SET,GET," or "SET,") are there.
csv_ops() {
  awk -F'"' -v n="$1" -v want="$2" '
    # redis-benchmark --cluster first prints the masters it found; the CSV starts at its header.
    !seen { if ($2 == "test" && $4 == "rps") seen = 1; next }
    NF >= 4 { names = names $2 ","; if ($4 + 0 <= 0) { bad = 1; next } tot += n; secs += n / $4 }
    END { if (!seen || bad || names != want) exit 1; printf "%.2f %.6f\n", tot / secs, secs }
  ' "$tmp/out"
}

# run_file_connect FILE : the sum of tests[].connectSeconds in a Tacho run file, or nan.
run_file_connect() {
  grep -o '"connectSeconds": *[0-9.eE+-]*' "$1" 2>/dev/null |
    awk -F: '{ s += $2; n++ } END { if (n) printf "%.6f\n", s; else print "nan" }'
}

# csv_tool TOOL SCENARIO N TESTS CMD... : a tool that speaks redis-benchmark's flags and --csv;
# TESTS is the -t list. CMD ends with the load options.
csv_tool() {
  local tool=$1 scenario=$2 n=$3 tests=$4 ops secs conn=nan want
  shift 4
  rm -f "$tmp/run.json"
  run "$tool" "$scenario" "$@" --csv || return 0
  want=$(tr '[:lower:]' '[:upper:]' <<<"$tests,")
  if ! read -r ops secs < <(csv_ops "$n" "$want"); then
    printf '%-16s %-7s NO RESULT: expected the CSV header and %s rows; got:\n' "$tool" "$scenario" \
      "${want%,}"
    head -n 5 "$tmp/out" | sed 's/^/    /'
    failures=$((failures + 1))
    return 0
  fi
  [ ! -f "$tmp/run.json" ] || conn=$(run_file_connect "$tmp/run.json")
  local count=$(($(tr -cd , <<<"$tests" | wc -c) + 1))
  record "$tool" "$scenario" $((count * n)) "$ops" "$secs" "$conn"
}

# mt_tool TOOL SCENARIO CMD... : a tool that speaks memtier's flags and writes its JSON to
# $tmp/mt.json; requests and ops/s are its Totals, measured time its Runtime duration.
mt_tool() {
  local tool=$1 scenario=$2 n=0 ops=0 ms=0
  shift 2
  rm -f "$tmp/mt.json"
  run "$tool" "$scenario" "$@" --hide-histogram --json-out-file "$tmp/mt.json" || return 0
  # The first "Count" / "Ops/sec" after the "Totals" key are the totals.
  read -r n ops ms < <(awk -F': ' '/"Total duration"/ && !ms { ms = $2 + 0 }
    /"Totals"/ { t = 1 } t && /"Count"/ && !n { n = $2 + 0 }
    t && /"Ops\/sec"/ { print n, $2 + 0, ms; exit }' "$tmp/mt.json" 2>/dev/null) || true
  if [ "${n:-0}" -le 0 ]; then
    printf '%-16s %-7s NO RESULT (no Totals in its JSON)\n' "$tool" "$scenario"
    failures=$((failures + 1))
    return 0
  fi
  local secs=nan
  if [ "${ms:-0}" -gt 0 ]; then secs=$(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }'); fi
  record "$tool" "$scenario" "$n" "$ops" "$secs"
}

one() {  # one TOOL SCENARIO
  local tool=$1 scenario=$2 pid
  use_server "$scenario"
  for pid in "${SRV_PIDS[@]}"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 20 "$BENCH_DIR"/*/server.log >&2 || true
      tacho_die "a redis-server ($SRV_NAME, pid $pid) is gone (the logs are above)"
    fi
  done
  local rb=() mt=() tests=set n=$NSET tacho_extra=()
  case $scenario in
    P1 | P16)
      local p=${scenario#P}
      n=$N1
      [ "$p" = 1 ] || n=$N16
      tests=set,get
      # shellcheck disable=SC2054  # set,get is one argument
      rb=(-t set,get -n "$n" -c 50 -P "$p" -d 32 -r 100000)
      mt=(-t 1 -c 50 --pipeline "$p" -d 32 --key-maximum 100000 --ratio 1:1 --test-time "$SECS") ;;
    MT1 | MT16)
      mt=(-t 1 -c 50 --ratio 1:1 -d 32 --key-maximum 100000 --pipeline "${scenario#MT}"
        --test-time "$SECS") ;;
    C1000 | C10000)
      local c=${scenario#C}
      rb=(-t set -n "$n" -c "$c" -P 1 -d 32 -r 100000)
      mt=(-t 4 -c $((c / 4)) --ratio 1:0 -d 32 --key-maximum 100000 --test-time "$SECS")
      tacho_extra=(--json "$tmp/run.json") ;;
    TLS | CLUSTER)
      rb=(-t set -n "$n" -c 50 -P 1 -d 32 -r 100000)
      mt=(-t 1 -c 50 --ratio 1:0 -d 32 --key-maximum 100000 --test-time "$SECS") ;;
  esac
  case $tool in
    tacho)
      csv_tool tacho "$scenario" "$n" "$tests" "$TACHO" redis-benchmark "${CONN_RB[@]}" \
        "${rb[@]}" "${tacho_extra[@]}" ;;
    redis-benchmark) csv_tool redis-benchmark "$scenario" "$n" "$tests" redis-benchmark \
      "${CONN_RB[@]}" "${rb[@]}" ;;
    tacho-mt) mt_tool tacho-mt "$scenario" "$TACHO" memtier "${CONN_MT[@]}" "${mt[@]}" ;;
    tacho-epoll)
      csv_tool tacho-epoll "$scenario" "$n" "$tests" env TACHO_IO=epoll "$TACHO" redis-benchmark \
        "${CONN_RB[@]}" "${rb[@]}" "${tacho_extra[@]}" ;;
    tacho-mt-epoll) mt_tool tacho-mt-epoll "$scenario" env TACHO_IO=epoll "$TACHO" memtier \
      "${CONN_MT[@]}" "${mt[@]}" ;;
    memtier) mt_tool memtier "$scenario" "$MT" "${CONN_MT[@]}" "${mt[@]}" ;;
  esac
}

# scenario_tools SCENARIO : the tools that run it, one a line.
scenario_tools() {
  local ours
  case $1 in
    MT1 | MT16) ours=(tacho-mt) ;;
    CLUSTER) ours=(tacho tacho-mt) ;;
    *) ours=(tacho) ;;
  esac
  printf '%s\n' "${ours[@]}"
  [ "$TACHO_EPOLL" = 0 ] || printf '%s-epoll\n' "${ours[@]}"
  case $1 in MT1 | MT16) ;; *) echo redis-benchmark ;; esac
  [ -z "$MT" ] || echo memtier
}

# --- runs -------------------------------------------------------------------------------------
servers=
[ -z "$PLAIN_PORT" ] || servers+=", plain $PLAIN_PORT"
[ -z "$TLS_PORT" ] || servers+=", TLS $TLS_PORT"
[ "${#BENCH_CLUSTER_PORTS[@]}" -eq 0 ] || servers+=", cluster ${BENCH_CLUSTER_PORTS[*]}"
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ)  $(nproc) cpus  redis-server $(redis-server --version | cut -d' ' -f3 | cut -d= -f2) on $HOST: ${servers#, }"
echo "# tacho-cli: $TACHO   memtier: ${MT:-not found (set MEMTIER=... to include it)}"
echo "# REPS=$REPS N1=$N1 N16=$N16 NSET=$NSET SECS=$SECS LIMIT=$LIMIT open-files=$(ulimit -Sn)"
echo "# SCENARIOS=\"${scenarios[*]}\"${plain_args:+; the plain server runs with ${plain_args[*]}}"
if selected CLUSTER; then
  echo "# CLUSTER: redis-benchmark's -c 50 is spread over the 3 masters (50 connections in all);" \
    "memtier's -c 50 is per node (150); Tacho's 50 clients each hold a connection to every" \
    "master (150), in both forms"
fi
echo "# setup_s = wall clock - measured time (start-up, connecting, exit); conn_s = Tacho's" \
  "connect phase from its run file (C1000, C10000)"
if selected P1 P16 MT1 MT16; then
  # Fill memtier's keyspace so its GETs hit, as redis-benchmark's SETs do for it.
  fill=("$TACHO" memtier)
  [ -z "$MT" ] || fill=("$MT")
  bounded timeout -k 5 "$LIMIT" "${fill[@]}" -s "$HOST" -p "$PLAIN_PORT" -t 1 -c 10 -d 32 \
    --ratio 1:0 --key-pattern P:P --key-maximum 100000 -n allkeys --hide-histogram \
    >/dev/null 2>&1 || tacho_log "filling memtier's keyspace failed; its GETs will miss"
fi
header requests

for ((rep = 0; rep < REPS; rep++)); do
  for scenario in "${scenarios[@]}"; do
    mapfile -t tools < <(scenario_tools "$scenario")
    for ((i = 0; i < ${#tools[@]}; i++)); do
      one "${tools[(i + rep) % ${#tools[@]}]}" "$scenario"
    done
  done
done

# --- summary ----------------------------------------------------------------------------------
median() {  # median of the numbers on standard input; "nan" when there are none
  { grep -v '^nan$' || true; } | sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan";
    else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
column_median() {  # column_median TOOL SCENARIO FIELD
  awk -v t="$1" -v s="$2" -v f="$3" '$1 == t && $2 == s { print $f }' "$tmp/results" | median
}

echo
echo "# medians of $REPS"
header runs
for scenario in "${scenarios[@]}"; do
  mapfile -t tools < <(scenario_tools "$scenario")
  for tool in "${tools[@]}"; do
    runs=$(awk -v t="$tool" -v s="$scenario" '$1 == t && $2 == s' "$tmp/results" | wc -l)
    [ "$runs" -gt 0 ] || { printf '%-16s %-7s %12s\n' "$tool" "$scenario" "no result"; continue; }
    row=("$tool" "$scenario")
    for field in 3 4 5 6; do row+=("$(column_median "$tool" "$scenario" "$field")"); done
    row+=("$runs")
    for field in 8 9; do row+=("$(column_median "$tool" "$scenario" "$field")"); done
    print_row "${row[@]}"
  done
done

echo
echo "# tacho / peer (medians): throughput (higher is better), client CPU per request, client RSS" \
  "and setup time (lower is better)"
for scenario in "${scenarios[@]}"; do
  mapfile -t tools < <(scenario_tools "$scenario")
  for me in tacho tacho-mt tacho-epoll tacho-mt-epoll; do
    [[ " ${tools[*]} " == *" $me "* ]] || continue
    t_ops=$(column_median "$me" "$scenario" 3)
    t_cpu=$(column_median "$me" "$scenario" 4)
    t_rss=$(column_median "$me" "$scenario" 5)
    t_setup=$(column_median "$me" "$scenario" 8)
    t_conn=$(column_median "$me" "$scenario" 9)
    best='' best_ops=0 best_cpu='' min_setup=nan rb_rss=nan
    for tool in "${tools[@]}"; do
      [[ $tool != tacho* ]] || continue
      p_ops=$(column_median "$tool" "$scenario" 3)
      p_cpu=$(column_median "$tool" "$scenario" 4)
      p_rss=$(column_median "$tool" "$scenario" 5)
      p_setup=$(column_median "$tool" "$scenario" 8)
      [ "$p_ops" != nan ] || continue
      awk -v s="$scenario" -v me="$me" -v p="$tool" -v to="$t_ops" -v tc="$t_cpu" -v tr="$t_rss" \
        -v ts="$t_setup" -v po="$p_ops" -v pc="$p_cpu" -v pr="$p_rss" -v ps="$p_setup" '
        BEGIN { if (to == "nan") { printf "%-7s %-8s vs %-16s no %s result\n", s, me, p, me; exit }
                printf "%-7s %-8s vs %-16s throughput %5.2fx   cpu/req %5.2fx   rss %5.2fx", s, me,
                  p, to / po, tc / pc, tr / pr
                if (s ~ /^C[0-9]/ && ts != "nan" && ps != "nan" && ps > 0) printf "   setup %5.2fx", ts / ps
                printf "\n" }'
      if awk -v a="$p_ops" -v b="$best_ops" 'BEGIN { exit !(a > b) }'; then
        best=$tool best_ops=$p_ops best_cpu=$p_cpu
      fi
      if [ "$p_setup" != nan ] && { [ "$min_setup" = nan ] ||
        awk -v a="$p_setup" -v b="$min_setup" 'BEGIN { exit !(a < b) }'; }; then
        min_setup=$p_setup
      fi
      [ "$tool" != redis-benchmark ] || rb_rss=$p_rss
    done
    if [ -z "$best" ] || [ "$t_ops" = nan ]; then continue; fi
    # Targets (bench/README.md), against the best peer (highest median throughput):
    #   P1 (and MT1): >= 1.3x throughput at <= 0.5x CPU/request, RSS < 10 MiB at 50 connections;
    #   P16 (and MT16): >= 1.1x at <= 0.7x, RSS < 10 MiB;
    #   C1000, TLS, CLUSTER: >= 1.2x throughput;
    #   C10000: >= 1.2x throughput, RSS <= redis-benchmark's, setup <= half the fastest peer's.
    want_ops=1.2 want_cpu=nan want_rss=nan rel_rss=nan want_setup=nan
    case $scenario in
      P1 | MT1) want_ops=1.3 want_cpu=0.5 want_rss=10240 ;;
      P16 | MT16) want_ops=1.1 want_cpu=0.7 want_rss=10240 ;;
      C10000) rel_rss=$rb_rss want_setup=$min_setup ;;
    esac
    awk -v s="$scenario" -v me="$me" -v b="$best" -v to="$t_ops" -v tc="$t_cpu" -v tr="$t_rss" \
      -v ts="$t_setup" -v tk="$t_conn" -v bo="$best_ops" -v bc="$best_cpu" -v wo="$want_ops" \
      -v wc="$want_cpu" -v wr="$want_rss" -v rr="$rel_rss" -v ws="$want_setup" '
      function verdict(ok) { return ok ? "met" : "MISSED" }
      BEGIN {
        printf "%-7s %-8s target vs best peer (%s): throughput %.2fx (want >= %.1fx) %s", s, me, b,
          to / bo, wo, verdict(to / bo >= wo)
        if (wc != "nan")
          printf "; cpu/req %.2fx (want <= %.1fx) %s", tc / bc, wc, verdict(tc / bc <= wc)
        if (wr != "nan")
          printf "; rss %.1f MiB (want < %d) %s", tr / 1024, wr / 1024, verdict(tr < wr)
        if (rr != "nan")
          printf "; rss %.1f MiB (want <= redis-benchmark %.1f) %s", tr / 1024, rr / 1024,
            verdict(tr <= rr)
        if (ws != "nan")
          printf "; setup %s s (want <= half the fastest peer: %.2f) %s%s",
            (ts == "nan" ? "n/a" : sprintf("%.2f", ts)), ws / 2,
            verdict(ts != "nan" && ts <= ws / 2),
            (tk != "nan" ? sprintf(" [connect phase %.2f s]", tk) : "")
        printf "\n"
      }'
  done
done

if [ "$failures" -gt 0 ]; then
  echo "# $failures run(s) failed or gave no result" >&2
  exit 1
fi
