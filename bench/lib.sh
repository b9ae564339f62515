# shellcheck shell=bash disable=SC2034  # the BENCH_* variables are for the caller
# bench/lib.sh - servers and certificates for bench/compare.sh.
# Source it after scripts/common.sh; it defines functions and variables only and runs nothing.
#
#   bench_make_certs DIR                 CA + server certificate (SAN IP:127.0.0.1) in DIR
#   bench_start_server NAME ARG...       a redis-server on a free loopback port, in its own
#                                        directory under $BENCH_DIR (sets BENCH_PORT, BENCH_PID)
#   bench_start_tls_server CERTDIR       the same with TLS only (--port 0 --tls-port P)
#   bench_start_cluster N                N masters with --cluster-enabled yes, slots assigned,
#                                        cluster_state:ok on all (sets BENCH_CLUSTER_PORTS,
#                                        BENCH_CLUSTER_PIDS)
#   bench_stop_servers                   stops every server started here, by PID
#   bench_tacho_cli                      prints the tacho-cli to measure: $TACHO_CLI, or the
#                                        release preset's, built first
#
# Every server binds 127.0.0.1 only, keeps nothing on disk (no RDB, no AOF) and is started in
# the background of the calling shell, so bench_stop_servers can stop and reap it. The caller
# sets BENCH_DIR (a temporary directory it removes) and traps EXIT to call bench_stop_servers.

BENCH_DIR=${BENCH_DIR:-}
BENCH_PIDS=()     # every server started by this file and not yet stopped and reaped
declare -gA BENCH_PID_STARTS=()   # PID → its start time, to tell our server from a later process
                                 # that got the same number once ours was reaped
BENCH_PORT=
BENCH_PID=
BENCH_CLUSTER_PORTS=()
BENCH_CLUSTER_PIDS=()
BENCH_TLS_CLI=()  # redis-cli's TLS options for the TLS server (set by bench_start_tls_server)

# bench_cli PORT ARG... : redis-cli against a server started here, bounded to 5 s.
bench_cli() {
  local port=$1
  shift
  timeout 5 redis-cli -h "$TACHO_HOST" -p "$port" "$@"
}

# bench_make_certs DIR : writes ca.crt/ca.key (a self-signed CA) and server.crt/server.key
# (signed by it, subjectAltName IP:127.0.0.1) into DIR with the openssl command-line tool.
bench_make_certs() {
  local dir=$1
  command -v openssl >/dev/null 2>&1 || tacho_die "openssl not found: apt-get install openssl"
  mkdir -p "$dir"
  printf '%s\n' 'basicConstraints = critical, CA:FALSE' \
    'keyUsage = critical, digitalSignature, keyEncipherment' \
    'extendedKeyUsage = serverAuth' 'subjectAltName = IP:127.0.0.1' >"$dir/server.ext"
  if ! {
    timeout 60 openssl req -x509 -new -nodes -newkey rsa:2048 -sha256 -days 2 \
      -subj '/CN=Tacho bench CA' -keyout "$dir/ca.key" -out "$dir/ca.crt" \
      -addext 'basicConstraints = critical, CA:TRUE' -addext 'keyUsage = critical, keyCertSign, cRLSign' &&
      timeout 60 openssl req -new -nodes -newkey rsa:2048 -sha256 -subj '/CN=127.0.0.1' \
        -keyout "$dir/server.key" -out "$dir/server.csr" &&
      timeout 60 openssl x509 -req -sha256 -days 2 -in "$dir/server.csr" -CA "$dir/ca.crt" \
        -CAkey "$dir/ca.key" -CAcreateserial -extfile "$dir/server.ext" -out "$dir/server.crt"
  } >"$dir/openssl.log" 2>&1; then
    cat "$dir/openssl.log" >&2
    tacho_die "could not make the TLS certificates with openssl"
  fi
  chmod 600 "$dir/ca.key" "$dir/server.key"
}

# bench_tacho_cli : prints the tacho-cli to measure. $TACHO_CLI when set (no build step);
# otherwise configures the release preset and builds tacho-cli, and prints its path.
bench_tacho_cli() {
  local tacho=${TACHO_CLI:-} build_log
  if [ -z "$tacho" ]; then
    tacho=build/release/app/tacho-cli
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
  [ -x "$tacho" ] || tacho_die "tacho-cli not found at $tacho"
  printf '%s\n' "$tacho"
}

# bench_port_pair_free PORT : true when PORT and PORT + 10000 (a cluster node's bus) are free.
bench_port_pair_free() {
  ! tacho_port_in_use "$1" && ! tacho_port_in_use $(($1 + 10000))
}

# bench_launch NAME PORT ARG... : starts redis-server in $BENCH_DIR/NAME in the background;
# sets BENCH_PID and adds it to BENCH_PIDS. The caller passes the port options in ARG.
bench_launch() {
  local name=$1 port=$2 dir=$BENCH_DIR/$1
  shift 2
  mkdir -p "$dir"
  redis-server --bind "$TACHO_HOST" --save '' --appendonly no --daemonize no --dir "$dir" \
    "$@" >"$dir/server.log" 2>&1 &
  BENCH_PID=$!
  BENCH_PIDS+=("$BENCH_PID")
  BENCH_PID_STARTS[$BENCH_PID]=$(bench_proc_start "$BENCH_PID" || echo gone)
  BENCH_PORT=$port
}

# bench_proc_start PID : the process's start time (clock ticks since boot, /proc/PID/stat field
# 22); fails when there is no such process.
bench_proc_start() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }   # after "PID (COMMAND) ": the name may hold spaces and parentheses
  # shellcheck disable=SC2086  # split into fields on purpose
  set -- $stat
  printf '%s\n' "${20}"
}

# bench_pid_is_ours PID : true while PID is still the server bench_launch started (bash reaps
# background children by itself, so a number alone may by now belong to another process).
bench_pid_is_ours() {
  local started=${BENCH_PID_STARTS[$1]:-}
  [ -n "$started" ] && [ "$(bench_proc_start "$1" 2>/dev/null)" = "$started" ]
}

# bench_forget_pid PID : drops a stopped and reaped server from BENCH_PIDS.
bench_forget_pid() {
  local keep=() pid
  for pid in "${BENCH_PIDS[@]}"; do [ "$pid" = "$1" ] || keep+=("$pid"); done
  BENCH_PIDS=("${keep[@]}")
  unset "BENCH_PID_STARTS[$1]"
}

# bench_wait_ready NAME PID PORT REDIS_CLI_ARG... : waits (at most 10 s) until the server
# answers PING. Returns 2 when it lost the race for its port, 1 on any other failure.
bench_wait_ready() {
  local name=$1 pid=$2 port=$3 i
  shift 3
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    if [ "$(bench_cli "$port" "$@" ping 2>/dev/null)" = PONG ]; then
      return 0
    fi
    sleep 0.1
  done
  bench_stop_pid "$pid"
  if grep -q 'Address already in use' "$BENCH_DIR/$name/server.log" 2>/dev/null; then
    return 2
  fi
  tacho_log "redis-server $name did not answer PING within 10 s; its log:"
  tail -n 20 "$BENCH_DIR/$name/server.log" >&2 || true
  return 1
}

# bench_start_server NAME ARG... : a plain server on a free port (up to 5 tries: another
# process may take the port between the check and the bind).
bench_start_server() {
  local name=$1 attempt port status
  shift
  for attempt in 1 2 3 4 5; do
    port=$(tacho_free_port 20000 40000) || return 1
    bench_launch "$name" "$port" --port "$port" "$@"
    status=0
    bench_wait_ready "$name" "$BENCH_PID" "$port" || status=$?
    [ "$status" -ne 0 ] || return 0
    [ "$status" -eq 2 ] || return 1
    tacho_log "port $port was taken (attempt $attempt), trying another"
  done
  return 1
}

# bench_start_tls_server CERTDIR [ARG...] : a server that speaks TLS only, with the certificates
# of bench_make_certs; clients need not present one. Sets BENCH_TLS_CLI.
bench_start_tls_server() {
  local certs=$1 attempt port status
  shift
  BENCH_TLS_CLI=(--tls --cacert "$certs/ca.crt")
  for attempt in 1 2 3 4 5; do
    port=$(tacho_free_port 20000 40000) || return 1
    bench_launch tls "$port" --port 0 --tls-port "$port" --tls-cert-file "$certs/server.crt" \
      --tls-key-file "$certs/server.key" --tls-ca-cert-file "$certs/ca.crt" \
      --tls-auth-clients no "$@"
    status=0
    bench_wait_ready tls "$BENCH_PID" "$port" "${BENCH_TLS_CLI[@]}" || status=$?
    [ "$status" -ne 0 ] || return 0
    [ "$status" -eq 2 ] || return 1
    tacho_log "port $port was taken (attempt $attempt), trying another"
  done
  return 1
}

# bench_start_cluster N [ARG...] : N masters on ports <= 45535 (the cluster bus is port + 10000),
# joined with redis-cli --cluster create (no replicas); waits at most 30 s for cluster_state:ok
# on every node.
bench_start_cluster() {
  local n=$1 k attempt port status ok i state
  shift
  BENCH_CLUSTER_PORTS=()
  BENCH_CLUSTER_PIDS=()
  for ((k = 0; k < n; k++)); do
    status=1
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
      port=$(tacho_free_port 20000 35535) || return 1
      if ! bench_port_pair_free "$port" || [[ " ${BENCH_CLUSTER_PORTS[*]} " == *" $port "* ]]; then
        continue
      fi
      bench_launch "node$k" "$port" --port "$port" --cluster-enabled yes \
        --cluster-config-file "$BENCH_DIR/node$k/nodes.conf" --cluster-node-timeout 5000 "$@"
      status=0
      bench_wait_ready "node$k" "$BENCH_PID" "$port" || status=$?
      [ "$status" -ne 0 ] || break
      [ "$status" -eq 2 ] || return 1
    done
    [ "$status" -eq 0 ] || { tacho_log "no free port pair for cluster node $k"; return 1; }
    BENCH_CLUSTER_PORTS+=("$port")
    BENCH_CLUSTER_PIDS+=("$BENCH_PID")
  done
  local addrs=()
  for port in "${BENCH_CLUSTER_PORTS[@]}"; do addrs+=("$TACHO_HOST:$port"); done
  if ! timeout 30 redis-cli --cluster create "${addrs[@]}" --cluster-replicas 0 --cluster-yes \
    >"$BENCH_DIR/cluster-create.log" 2>&1; then
    tail -n 20 "$BENCH_DIR/cluster-create.log" >&2
    tacho_log "redis-cli --cluster create failed"
    return 1
  fi
  for ((i = 0; i < 300; i++)); do
    ok=1
    for port in "${BENCH_CLUSTER_PORTS[@]}"; do
      state=$(bench_cli "$port" cluster info 2>/dev/null | tr -d '\r' | grep '^cluster_state:' || true)
      [ "$state" = cluster_state:ok ] || { ok=0; break; }
    done
    [ "$ok" -eq 0 ] || return 0
    sleep 0.1
  done
  tacho_log "the cluster did not reach cluster_state:ok on every node within 30 s"
  return 1
}

# bench_stop_pid PID : SIGTERM, SIGKILL after 5 s, then reap and forget it. Signals only a
# server of ours that is still running (never a process that reused its number).
bench_stop_pid() {
  local pid=$1 i
  if bench_pid_is_ours "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      bench_pid_is_ours "$pid" || break
      sleep 0.1
    done
    if bench_pid_is_ours "$pid"; then
      tacho_log "redis-server $pid ignored SIGTERM for 5 s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  wait "$pid" 2>/dev/null || true
  bench_forget_pid "$pid"
}

# bench_stop_servers : stops every server started here (all get SIGTERM first, together).
bench_stop_servers() {
  local pid
  for pid in "${BENCH_PIDS[@]}"; do
    if bench_pid_is_ours "$pid"; then kill -TERM "$pid" 2>/dev/null || true; fi
  done
  for pid in "${BENCH_PIDS[@]}"; do bench_stop_pid "$pid"; done
  BENCH_PIDS=()
}
