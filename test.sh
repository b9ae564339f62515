#!/usr/bin/env bash
# test.sh - builds Tacho and runs every test suite, on a fresh Debian 12 too.
# Installs the missing Debian packages (apt-get; skipped when all are installed), configures
# and builds the release preset, then runs ctest. The tests start their own servers on free
# loopback ports. Exits non-zero when anything fails. Extra arguments go to ctest
# (e.g. ./test.sh -L integration, ./test.sh -R fixture).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source-path=SCRIPTDIR source=scripts/common.sh
source scripts/common.sh

tacho_ensure_packages "${TACHO_PACKAGES[@]}"
tacho_build_release
ctest --preset release --output-on-failure --timeout 300 --no-tests=error "$@"
