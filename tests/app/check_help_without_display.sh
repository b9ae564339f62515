#!/bin/bash
# `tacho --help` and `tacho --version` answer without a display: no X11,
# no Wayland, no offscreen platform named. Argument: the tacho binary.
set -u
tacho=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$tacho" --version 2>&1) || fail "--version exited $?: $out"
[[ $out == "tacho "[0-9]* ]] || fail "--version printed: $out"

out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$tacho" --help 2>&1) || fail "--help exited $?: $out"
[[ $out == *"Usage:"* && $out == *"--command-line"* ]] || fail "--help printed: $out"
[[ $out != *"could not connect to display"* ]] || fail "--help tried a display: $out"

echo "ok: --help and --version without a display"
