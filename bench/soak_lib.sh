# shellcheck shell=bash disable=SC2153,SC2154  # globals of soak.sh and bench/lib.sh
# bench/soak_lib.sh - processes, faults, samples and the report of bench/soak.sh.
# Source it after scripts/common.sh and bench/lib.sh; it defines functions only. They work on
# soak.sh's globals: PORT, SERVER_PID, SERVER_ARGS, OUT, WARMUP, CLIENT_NAMES, CLIENT_STATUS,
# FINAL_STATS, and bench/lib.sh's BENCH_PIDS.

KILLED_CALLS=()   # "SET GET" calls (+ rejected) of every killed server, read while it was paused
FAULT_DETAIL=     # what the last soak_fault did, or why it failed
SERVER_GENERATION=0

# soak_running PID : true while PID is a live (not zombie) process. Our clients are reaped only
# at the very end, so their PIDs cannot be reused by another process before that.
soak_running() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat:0:1}" != Z ]
}

# soak_any_alive PID... : true when one of them runs.
soak_any_alive() {
  local pid
  for pid in "$@"; do soak_running "$pid" && return 0; done
  return 1
}

# soak_stop_client PID : SIGTERM (tacho-cli stops cleanly and saves its run file), SIGKILL
# after 10 s. Does not reap it.
soak_stop_client() {
  local pid=$1 i
  soak_running "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    soak_running "$pid" || return 0
    sleep 0.1
  done
  tacho_log "tacho-cli $pid ignored SIGTERM for 10 s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

# soak_sample_rss T PID... : one CSV line "T,KiB,KiB…" of the processes' VmRSS (empty when gone).
soak_sample_rss() {
  local line=$1 pid rss
  shift
  for pid in "$@"; do
    rss=
    if soak_running "$pid"; then
      rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    fi
    line+=",$rss"
  done
  printf '%s\n' "$line"
}

# soak_calls TEXT : "SET GET" from INFO commandstats text: calls + rejected_calls of each.
soak_calls() {
  awk -F'[:,=]' '
    /^cmdstat_(set|get):/ {
      n = 0
      for (i = 2; i < NF; i += 2) if ($i == "calls" || $i == "rejected_calls") n += $(i + 1)
      c[$1] = n
    }
    END { printf "%d %d\n", c["cmdstat_set"], c["cmdstat_get"] }' <<<"$1"
}

# soak_restart : reads the server's counts while every client is paused, kills it with SIGKILL,
# waits a second and starts a new one on the same port.
soak_restart() {
  local old=$SERVER_PID snapshot calls t0 attempt status
  # One transaction: from CLIENT PAUSE on nothing executes, so INFO has the final counts.
  snapshot=$(printf 'MULTI\nCLIENT PAUSE 10000 ALL\nINFO commandstats\nEXEC\n' |
    timeout 5 redis-cli -h "$TACHO_HOST" -p "$PORT" 2>&1 | tr -d '\r') || true
  if [[ $snapshot != *"# Commandstats"* ]]; then
    FAULT_DETAIL="could not read INFO commandstats before the kill: ${snapshot:0:200}"
    return 1
  fi
  calls=$(soak_calls "$snapshot")
  kill -KILL "$old" 2>/dev/null || true
  wait "$old" 2>/dev/null || true
  bench_forget_pid "$old"   # so the final cleanup never signals a process that took its number
  KILLED_CALLS+=("$calls")
  sleep 1
  t0=$SECONDS
  for attempt in 1 2 3 4 5; do
    SERVER_GENERATION=$((SERVER_GENERATION + 1))
    bench_launch "server$SERVER_GENERATION" "$PORT" --port "$PORT" "${SERVER_ARGS[@]}"
    status=0
    bench_wait_ready "server$SERVER_GENERATION" "$BENCH_PID" "$PORT" || status=$?
    if [ "$status" -eq 0 ]; then
      SERVER_PID=$BENCH_PID
      FAULT_DETAIL="pid $old killed (SIGKILL) at SET+rejected, GET+rejected = ${calls/ /, };"
      FAULT_DETAIL+=" pid $SERVER_PID on the same port $((SECONDS - t0 + 1)) s later (attempt $attempt)"
      return 0
    fi
    [ "$status" -eq 2 ] || break
    sleep 0.5
  done
  FAULT_DETAIL="could not restart redis-server on port $PORT (logs in $BENCH_DIR)"
  return 1
}

# soak_fault KIND : injects one fault; sets FAULT_DETAIL; fails when it could not be injected.
soak_fault() {
  local reply
  case $1 in
    restart) soak_restart ;;
    kill)
      # The server is private to this script: every normal client but this redis-cli is ours.
      reply=$(bench_cli "$PORT" client kill type normal skipme yes 2>&1 | tr -d '\r') || true
      FAULT_DETAIL="CLIENT KILL TYPE normal: $reply connections closed"
      [[ $reply =~ ^[0-9]+$ ]] ;;
    stall)
      reply=$(bench_cli "$PORT" debug sleep 2 2>&1 | tr -d '\r') || true
      FAULT_DETAIL="DEBUG SLEEP 2: $reply"
      [ "$reply" = OK ] ;;
    pause)
      reply=$(bench_cli "$PORT" client pause 2000 2>&1 | tr -d '\r') || true
      FAULT_DETAIL="CLIENT PAUSE 2000: $reply"
      [ "$reply" = OK ] ;;
    *) FAULT_DETAIL="unknown fault $1"; return 1 ;;
  esac
}

# soak_run_summary FILE : the first test of a memtier-form run file, as
# "status requests errors unanswered connectErrors reconnects SET GET KIND=N,…|none".
# The run file is pretty-printed: test fields are indented by 6 spaces, commands' by 10.
soak_run_summary() {
  awk '
    function value(line) { sub(/^ *"[^"]*": */, "", line); sub(/,$/, "", line); gsub(/"/, "", line); return line }
    function key(line) { sub(/^ *"/, "", line); sub(/".*/, "", line); return line }
    !tests && /^  "status": / { status = value($0) }
    /^  "tests": \[/ { tests = 1; next }
    !tests { next }
    /^    \}/ { exit }
    /^      "commands": \[/ { commands = 1; next }
    commands && /^      \]/ { commands = 0; next }
    commands && /^          "name": / { name = value($0) }
    commands && /^          "requests": / { n[name] = value($0) }
    /^      "errorsByKind": \{$/ { kinds = 1; next }
    kinds && /^      \}/ { kinds = 0; next }
    kinds { list = list (list == "" ? "" : ",") key($0) "=" value($0) }
    !commands && !kinds && /^      "[a-zA-Z]+": / { f[key($0)] = value($0) }
    END {
      printf "%s %d %d %d %d %d %d %d %s\n", status == "" ? "none" : status, f["requests"], f["errors"],
        f["unanswered"], f["connectErrors"], f["reconnects"], n["SET"], n["GET"], list == "" ? "none" : list
    }' "$1"
}

# soak_rss_report : RSS every 30 s (and the last sample), then per client the growth after
# the warm-up: medians of the first and last three samples, least-squares slope, and a verdict
# (growth above 1 MiB and above 10% is "GROWS"). Returns 1 when a client's RSS grows.
soak_rss_report() {
  local column verdicts=0
  printf '\n## client RSS (KiB), every 30 s; warm-up %d s\n' "$WARMUP"
  awk -F, '
    NR == 1 { printf "%6s", "t_s"; for (i = 2; i <= NF; i++) printf " %10s", $i; print ""; next }
    { last = $0; if ($1 % 30 < '"$SAMPLE_EVERY"') { print_line($0); printed = $0 } }
    function print_line(line,   f, i, k) { k = split(line, f, ","); printf "%6d", f[1]; for (i = 2; i <= k; i++) printf " %10s", f[i]; print "" }
    END { if (last != printed) print_line(last) }' "$OUT/rss.csv"
  for ((column = 2; column <= ${#CLIENT_NAMES[@]} + 1; column++)); do
    # The run keeps its interval series (one point per tick) in memory for the run file; the
    # growth per point recorded after the warm-up tells that cost from a leak.
    local name=${CLIENT_NAMES[column - 2]} points=0
    if [ -s "$OUT/$name.json" ]; then
      points=$(awk -v warm="$WARMUP" '/^          "start": / { v = $2; sub(/,$/, "", v); if (v + 0 >= warm) n++ }
        END { print n + 0 }' "$OUT/$name.json")
    fi
    awk -F, -v col="$column" -v warm="$WARMUP" -v name="$name" -v points="$points" '
      function med3(a, b, c) { return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b)) }
      NR > 1 && $1 >= warm && $col != "" { n++; t[n] = $1; r[n] = $col; if ($col > max) max = $col }
      END {
        if (n < 6) { printf "%-10s too few samples after the warm-up (%d) to judge growth\n", name, n; exit 0 }
        first = med3(r[1], r[2], r[3]); last = med3(r[n - 2], r[n - 1], r[n])
        for (i = 1; i <= n; i++) { st += t[i]; sr += r[i] }
        mt = st / n; mr = sr / n
        for (i = 1; i <= n; i++) { num += (t[i] - mt) * (r[i] - mr); den += (t[i] - mt) ^ 2 }
        slope = den > 0 ? num / den * 60 : 0
        limit = first * 0.10 > 1024 ? first * 0.10 : 1024
        grows = last - first > limit
        printf "%-10s after warm-up %d KiB -> %d KiB (%+d KiB), slope %+.1f KiB/min, max %d KiB: %s\n",
          name, first, last, last - first, slope, max, grows ? "GROWS" : "no growth"
        if (points > 0)
          printf "%-10s %d interval points after the warm-up: %+.0f bytes of growth per point\n",
            "", points, (last - first) * 1024 / points
        exit grows ? 1 : 0
      }' "$OUT/rss.csv" || verdicts=1
  done
  return "$verdicts"
}

# soak_report : prints the summary; exits 0 when both runs completed, the cross-check holds
# and no client's RSS grew, else 1.
soak_report() {
  local ok=1 i name status requests errors unanswered connect reconnects set get kinds
  local answered=0 lost=0 client_set=0 client_get=0 server_set=0 server_get=0 s g
  printf '\n# soak: %d s, a fault every %d s, RATE %s per client, tacho-cli %s\n' "$DURATION" \
    "$FAULT_EVERY" "$RATE" "$("$TACHO" --version | cut -d' ' -f2)"
  printf '\n## faults\n'
  if [ -s "$OUT/faults.log" ]; then cat "$OUT/faults.log"; else echo "  none (DURATION shorter than FAULT_EVERY + 10 s)"; fi
  soak_rss_report || ok=0

  printf '\n## errors by kind (run files)\n'
  for i in "${!CLIENT_NAMES[@]}"; do
    name=${CLIENT_NAMES[i]}
    if [ ! -s "$OUT/$name.json" ]; then
      printf '%-10s no run file (exit status %s); standard error:\n' "$name" "${CLIENT_STATUS[i]}"
      tail -n 5 "$OUT/$name.err" | sed 's/^/    /'
      ok=0
      continue
    fi
    read -r status requests errors unanswered connect reconnects set get kinds < <(soak_run_summary "$OUT/$name.json")
    printf '%-10s exit %s, %s: %d answered (SET %d, GET %d), %d error replies [%s], %d unanswered,' \
      "$name" "${CLIENT_STATUS[i]}" "$status" "$requests" "$set" "$get" "$errors" "$kinds" "$unanswered"
    printf ' %d connect errors, %d reconnects\n' "$connect" "$reconnects"
    if [ "${CLIENT_STATUS[i]}" -ne 0 ] || [ "$status" != completed ]; then ok=0; fi
    answered=$((answered + requests)); lost=$((lost + unanswered))
    client_set=$((client_set + set)); client_get=$((client_get + get))
  done

  printf '\n## INFO commandstats cross-check (SET and GET, calls + rejected, every server)\n'
  for i in "${!KILLED_CALLS[@]}"; do
    read -r s g <<<"${KILLED_CALLS[i]}"
    printf 'server %d (killed)  SET %d  GET %d\n' "$i" "$s" "$g"
    server_set=$((server_set + s)); server_get=$((server_get + g))
  done
  if [[ $FINAL_STATS != *"# Commandstats"* ]]; then
    echo "the last server did not answer INFO commandstats: no cross-check"
    ok=0
  fi
  read -r s g < <(soak_calls "$FINAL_STATS")
  printf 'server %d (last)    SET %d  GET %d\n' "${#KILLED_CALLS[@]}" "$s" "$g"
  server_set=$((server_set + s)); server_get=$((server_get + g))
  local served=$((server_set + server_get))
  printf 'servers: SET %d, GET %d; clients answered: SET %d, GET %d; unanswered %d\n' \
    "$server_set" "$server_get" "$client_set" "$client_get" "$lost"
  if [ "$served" -ge "$answered" ] && [ "$served" -le $((answered + lost)) ]; then
    printf 'consistent: answered %d <= served %d <= answered + unanswered %d (executed, reply lost: %d)\n' \
      "$answered" "$served" $((answered + lost)) $((served - answered))
  else
    printf 'NOT CONSISTENT: served %d is outside [answered %d, answered + unanswered %d]\n' \
      "$served" "$answered" $((answered + lost))
    ok=0
  fi
  printf '\nfiles: %s (run files, client outputs, rss.csv, faults.log)\n' "$OUT"
  if [ "$ok" -eq 1 ]; then echo "soak: PASS"; else echo "soak: FAIL"; return 1; fi
}
