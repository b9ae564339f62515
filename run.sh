#!/usr/bin/env bash
# run.sh - builds Tacho and runs it against a sandbox redis-server.
# Installs the missing Debian packages (apt-get; skipped when all are installed), builds the
# release preset, starts redis-server on a free loopback port (no persistence, stopped again
# on exit), and runs the redis-benchmark suite with tacho-cli against it. Extra arguments go
# to `tacho-cli redis-benchmark` (e.g. ./run.sh -t set,get -n 200000 -P 16).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source-path=SCRIPTDIR source=scripts/common.sh
source scripts/common.sh

tacho_ensure_packages "${TACHO_PACKAGES[@]}"
tacho_build_release

trap tacho_cleanup_redis EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# shellcheck disable=SC2119  # no extra server arguments
tacho_start_redis

status=0
build/release/app/tacho-cli redis-benchmark -h "$TACHO_HOST" -p "$TACHO_REDIS_PORT" "$@" || status=$?
exit "$status"
