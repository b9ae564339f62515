#!/usr/bin/env bash
# run.sh - builds Tacho and opens the workbench with the Local sandbox selected (the
# workbench starts a redis-server of its own on a free loopback port and stops it on exit).
# Installs the missing Debian packages first (apt-get; skipped when all are installed).
#
#   ./run.sh                 open the workbench
#   ./run.sh --demo          run "Quick SET/GET" against the sandbox in the visible workbench,
#                            export charts, table and run file into a folder, and quit
#   ./run.sh -t set -P 16    open the workbench and run this redis-benchmark command line
#   ./run.sh --cli [ARGS]    no GUI: tacho-cli redis-benchmark ARGS against a sandbox server
#
# With no display (no DISPLAY or WAYLAND_DISPLAY) it says so and runs the scripted demo under
# a virtual display (xvfb-run) instead, writing the exports into a folder it names.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source-path=SCRIPTDIR source=scripts/common.sh
source scripts/common.sh

tacho_ensure_packages "${TACHO_PACKAGES[@]}"
tacho_build_release

if [ "${1:-}" = "--cli" ]; then
  shift
  trap tacho_cleanup_redis EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  # shellcheck disable=SC2119  # no extra server arguments
  tacho_start_redis
  status=0
  build/release/app/tacho-cli redis-benchmark -h "$TACHO_HOST" -p "$TACHO_REDIS_PORT" "$@" || status=$?
  exit "$status"
fi

tacho=build/release/app/tacho
[ -x "$tacho" ] || tacho_die "$tacho was not built (is TACHO_BUILD_GUI off in build/release?)"

demo=
args=(--profile sandbox)
if [ "${1:-}" = "--demo" ]; then
  shift
  demo=1
fi
if [ "$#" -gt 0 ]; then
  # A redis-benchmark command line: the workbench runs it.
  line="redis-benchmark"
  for word in "$@"; do line+=" $(printf '%q' "$word")"; done
  args+=(--command-line "$line" --run)
elif [ -n "$demo" ]; then
  args+=(--preset "Quick SET/GET" --run)
fi

if [ -n "$demo" ] || ! tacho_has_display; then
  out="$PWD/build/demo/$(date +%Y%m%d-%H%M%S)"
  mkdir -p "$out"
  [ "$#" -gt 0 ] || [ -n "$demo" ] || args+=(--preset "Quick SET/GET" --run)
  args+=(--export-dir "$out" --screenshot "$out/live.png" --quit)
  if tacho_has_display; then
    tacho_log "scripted demo in the workbench; exports go to $out"
    exec "$tacho" "${args[@]}"
  fi
  command -v xvfb-run >/dev/null 2>&1 || tacho_die "no display and no xvfb-run (apt-get install xvfb xauth)"
  tacho_log "no display (DISPLAY and WAYLAND_DISPLAY are unset): running the scripted demo under" \
    "xvfb-run instead; charts (PNG), table (CSV), run file and screenshots go to $out"
  status=0
  xvfb-run -a -s "-screen 0 1600x1000x24" "$tacho" "${args[@]}" || status=$?
  ls -1 "$out" >&2 || true
  exit "$status"
fi

exec "$tacho" "${args[@]}"
