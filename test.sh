#!/usr/bin/env bash
# test.sh - builds Tacho and runs every test suite, on a fresh Debian 12 too.
# Installs the missing Debian packages (apt-get; skipped when all are installed), configures
# and builds the release preset, then runs ctest. The tests start their own servers on free
# loopback ports. ctest runs inside a private D-Bus session with an unlocked test keyring
# (gnome-keyring, temporary HOME), so the ui tests store and read passwords through the real
# keychain. Exits non-zero when anything fails. Extra arguments go to ctest
# (e.g. ./test.sh -L integration, ./test.sh -R fixture, ./test.sh -L ui).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source-path=SCRIPTDIR source=scripts/common.sh
source scripts/common.sh

tacho_ensure_packages "${TACHO_PACKAGES[@]}"
tacho_build_release
tacho_with_test_keyring ctest --preset release --output-on-failure --timeout 300 --no-tests=error "$@"
