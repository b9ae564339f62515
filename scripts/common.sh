# shellcheck shell=bash
# scripts/common.sh - helpers shared by run.sh, test.sh and bench/compare.sh.
# Source it; it defines functions and variables only and runs nothing.
#
#   tacho_repo_root                      prints the repository root
#   tacho_ensure_packages PKG...         installs the missing Debian packages
#   tacho_build_release                  cmake --preset release + build
#   tacho_build_preset PRESET [ARG...]   cmake --preset PRESET [ARG...] + build
#   tacho_export_sanitizer_options       ASAN/UBSAN/TSAN/LSAN_OPTIONS for the sanitizer suites
#   tacho_free_port [LOW HIGH]           prints a loopback port nobody listens on
#   tacho_start_redis [ARG...]           starts a sandbox redis-server (sets TACHO_REDIS_*)
#   tacho_stop_redis                     stops it by PID (SIGTERM, then SIGKILL after 5 s)
#   tacho_has_display                    true when a GUI can open (X11 or Wayland)
#   tacho_with_test_keyring CMD...       runs CMD in a private D-Bus session with an unlocked
#                                        gnome-keyring (for the keychain tests)

# Everything test.sh and run.sh need on a fresh Debian 12, GUI test tools included (universal-ctags
# measures the engine's function lengths for tests/architecture/check_sizes.sh; promtool,
# from the package prometheus, checks the live metrics file, and Prometheus itself with
# prometheus-node-exporter's textfile collector reads it in test_prometheus_scrape, and collectd's
# statsd plugin (collectd-core) reads --statsd in test_statsd_collectd, each started by the test on
# loopback; their services are not needed); the last
# line builds and checks the Debian package (dpkg-shlibdeps, appstreamcli, desktop-file-validate,
# rsvg-convert for the PNG icons, man).
# shellcheck disable=SC2034  # used by the scripts that source this file
TACHO_PACKAGES=(
  cmake ninja-build g++ pkg-config ccache
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libxkbcommon-dev qtkeychain-qt6-dev
  libssl-dev zlib1g-dev libhiredis-dev liburing-dev
  redis-server redis-tools nutcracker prometheus prometheus-node-exporter collectd-core
  xvfb xauth dbus-x11 gnome-keyring
  libqt6svg6 poppler-utils
  dpkg-dev appstream desktop-file-utils librsvg2-bin man-db
  clang libclang-rt-14-dev llvm
  libnss-wrapper universal-ctags
  libhdrhistogram-java default-jre-headless
)

TACHO_HOST=127.0.0.1

# Messages carry the minutes:seconds since the script started, so a CI log shows each phase's
# length.
tacho_log() { printf '%s [%d:%02d]: %s\n' "${0##*/}" $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }
tacho_die() { tacho_log "$*"; exit 1; }

tacho_repo_root() {
  (cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
}

# tacho_missing_packages PKG... : prints the packages that are not installed, one a line.
tacho_missing_packages() {
  local pkg status
  for pkg in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || printf '%s\n' "$pkg"
  done
}

# tacho_ensure_packages PKG... : apt-get installs what is missing; does nothing (no apt at all)
# when everything is installed. Root runs apt-get directly; others need sudo.
tacho_ensure_packages() {
  command -v dpkg-query >/dev/null 2>&1 || tacho_die "dpkg-query not found: this script expects Debian 12"
  local missing=()
  mapfile -t missing < <(tacho_missing_packages "$@")
  if [ "${#missing[@]}" -eq 0 ]; then
    tacho_log "all ${#} required packages are installed"
    return 0
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 ||
      tacho_die "missing packages: ${missing[*]}; run as root or install them: apt-get install ${missing[*]}"
    sudo=(sudo)
  fi
  tacho_log "installing: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
}

# tacho_build_release : configures and builds the release preset in the repository root.
tacho_build_release() {
  # GUI ON explicitly: a build folder configured before the workbench existed caches it OFF.
  tacho_build_preset release -DTACHO_BUILD_GUI=ON
}

# tacho_build_preset PRESET [CMAKE_ARG...] : configures PRESET (with the extra cache arguments)
# and builds it with one job per core, in the repository root.
# Compiles through ccache when it is installed; paths are hashed relative to the repository
# root, so a fresh clone (CI's) reuses what another checkout of the same sources compiled.
tacho_build_preset() {
  local preset=$1 jobs root launcher=()
  shift
  jobs=$(nproc 2>/dev/null || echo 2)
  root=$(tacho_repo_root)
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    # Paths relative to the clone's root, and no working directory in the hash: another clone
    # of the same commit (CI's) hits the cache (CMakeLists.txt adds -ffile-prefix-map).
    export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
    # The test suites share precompiled headers; without this ccache refuses every such compile.
    export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
  fi
  (cd "$root" && cmake --preset "$preset" "${launcher[@]}" "$@" &&
    cmake --build --preset "$preset" -j "$jobs")
}

# tacho_export_sanitizer_options : makes every sanitizer report fatal and readable (the
# suppression files name the third-party code we do not instrument, with the reason).
tacho_export_sanitizer_options() {
  local root
  root=$(tacho_repo_root)
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:check_initialization_order=1"
  export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tests/sanitizers/tsan.supp"
}

# tacho_port_in_use PORT : true when something listens on PORT (any local address) or accepts
# connections on the loopback address.
tacho_port_in_use() {
  local port=$1
  if command -v ss >/dev/null 2>&1 && [ -n "$(ss -Htln "sport = :$port" 2>/dev/null)" ]; then
    return 0
  fi
  # A connect to a closed loopback port is refused at once; the timeout only guards oddities.
  timeout 2 bash -c "exec 3<>/dev/tcp/$TACHO_HOST/$port" 2>/dev/null
}

# tacho_free_port LOW HIGH : prints a free port, trying upwards from a random start in
# [LOW, HIGH] and wrapping around (at most 2000 tries). Fails when none is free.
tacho_free_port() {
  local low=$1 high=$2
  local span=$((high - low + 1))
  local start=$((low + (RANDOM * 32768 + RANDOM) % span))
  local i port
  for ((i = 0; i < span && i < 2000; i++)); do
    port=$((low + (start - low + i) % span))
    if ! tacho_port_in_use "$port"; then
      printf '%s\n' "$port"
      return 0
    fi
  done
  tacho_log "no free port found in $low-$high"
  return 1
}

# Set by tacho_start_redis.
TACHO_REDIS_PID=
TACHO_REDIS_PORT=
TACHO_REDIS_DIR=

# tacho_redis_ping : true when the sandbox server answers PING.
tacho_redis_ping() {
  [ "$(timeout 2 redis-cli -h "$TACHO_HOST" -p "$TACHO_REDIS_PORT" ping 2>/dev/null)" = PONG ]
}

# tacho_start_redis [EXTRA_ARG...] : starts redis-server on a free loopback port with no
# persistence, in a temporary working directory (log: $TACHO_REDIS_DIR/server.log), and waits
# (at most 10 s) until it answers PING. Tries up to 5 ports (another process may take the port
# between the check and the bind). Sets TACHO_REDIS_PID, TACHO_REDIS_PORT, TACHO_REDIS_DIR.
# The caller must arrange `trap tacho_stop_redis EXIT`.
tacho_start_redis() {
  command -v redis-server >/dev/null 2>&1 ||
    tacho_die "redis-server not found (apt-get install redis-server, or run ./test.sh once)"
  command -v redis-cli >/dev/null 2>&1 ||
    tacho_die "redis-cli not found (apt-get install redis-tools, or run ./test.sh once)"
  [ -n "$TACHO_REDIS_DIR" ] || TACHO_REDIS_DIR=$(mktemp -d -t tacho-redis.XXXXXX)
  local attempt i
  for attempt in 1 2 3 4 5; do
    TACHO_REDIS_PORT=$(tacho_free_port 20000 40000) || return 1
    redis-server --port "$TACHO_REDIS_PORT" --bind "$TACHO_HOST" --save '' --appendonly no \
      --daemonize no --dir "$TACHO_REDIS_DIR" "$@" >"$TACHO_REDIS_DIR/server.log" 2>&1 &
    TACHO_REDIS_PID=$!
    for ((i = 0; i < 100; i++)); do
      if ! kill -0 "$TACHO_REDIS_PID" 2>/dev/null; then
        break  # exited: port taken or bad arguments
      fi
      if tacho_redis_ping; then
        tacho_log "redis-server $(redis-server --version | cut -d' ' -f3 | cut -d= -f2)" \
          "pid $TACHO_REDIS_PID on $TACHO_HOST:$TACHO_REDIS_PORT"
        return 0
      fi
      sleep 0.1
    done
    tacho_stop_redis
    if grep -q 'Address already in use' "$TACHO_REDIS_DIR/server.log" 2>/dev/null; then
      tacho_log "port $TACHO_REDIS_PORT was taken (attempt $attempt), trying another"
      continue
    fi
    tacho_log "redis-server did not answer PING within 10 s; its log:"
    tail -n 20 "$TACHO_REDIS_DIR/server.log" >&2 || true
    return 1
  done
  tacho_log "redis-server could not bind a free port after 5 attempts"
  return 1
}

# tacho_stop_redis : stops the sandbox server by its PID and removes its directory when
# called as the final cleanup (TACHO_REDIS_KEEP_DIR unset). Safe to call more than once.
tacho_stop_redis() {
  local pid=$TACHO_REDIS_PID i
  TACHO_REDIS_PID=
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      tacho_log "redis-server $pid ignored SIGTERM for 5 s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  # Reap it when it is our child (it is unless the caller started it elsewhere).
  [ -z "$pid" ] || wait "$pid" 2>/dev/null || true
}

# tacho_cleanup_redis : tacho_stop_redis, then removes the temporary directory. For EXIT traps.
tacho_cleanup_redis() {
  tacho_stop_redis
  if [ -n "$TACHO_REDIS_DIR" ] && [ -d "$TACHO_REDIS_DIR" ]; then
    rm -rf "$TACHO_REDIS_DIR"
  fi
  TACHO_REDIS_DIR=
}

# tacho_has_display : true when the workbench can open a window here.
tacho_has_display() {
  [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]
}

# tacho_with_test_keyring CMD... : runs CMD inside `dbus-run-session` with gnome-keyring's
# secret service unlocked by a test password read on standard input, under a temporary HOME
# and XDG_RUNTIME_DIR (so the user's own keyring is never touched), with TACHO_TEST_KEYRING=1
# so the ui tests check the real keychain. The keyring daemon is stopped by its PID.
tacho_with_test_keyring() {
  command -v dbus-run-session >/dev/null 2>&1 ||
    tacho_die "dbus-run-session not found (apt-get install dbus, or run ./test.sh once)"
  command -v gnome-keyring-daemon >/dev/null 2>&1 ||
    tacho_die "gnome-keyring-daemon not found (apt-get install gnome-keyring, or run ./test.sh once)"
  local tmp status=0
  tmp=$(mktemp -d -t tacho-keyring.XXXXXX)
  mkdir -p "$tmp/home" "$tmp/runtime"
  chmod 700 "$tmp/runtime"
  # shellcheck disable=SC2016  # expanded by the inner shell
  env -u XDG_DATA_HOME -u XDG_CONFIG_HOME HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/runtime" \
    dbus-run-session -- bash -c '
      printf %s tacho-test-keyring |
        gnome-keyring-daemon --foreground --unlock --components=secrets >"$HOME/keyring.log" 2>&1 &
      keyring=$!
      ready=
      for _ in $(seq 100); do
        if dbus-send --session --print-reply --dest=org.freedesktop.DBus / \
             org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null |
           grep -q "boolean true"; then
          ready=1
          break
        fi
        sleep 0.1
      done
      if [ -z "$ready" ]; then
        echo "tacho: gnome-keyring did not start its secret service; its log:" >&2
        cat "$HOME/keyring.log" >&2
        kill "$keyring" 2>/dev/null
        exit 1
      fi
      status=0
      TACHO_TEST_KEYRING=1 "$@" || status=$?
      kill "$keyring" 2>/dev/null
      wait "$keyring" 2>/dev/null
      exit "$status"' tacho-keyring "$@" || status=$?
  rm -rf "$tmp"
  return "$status"
}
