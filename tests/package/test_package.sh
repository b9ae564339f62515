#!/usr/bin/env bash
# tests/package/test_package.sh BUILD_DIR CMAKE CPACK VERSION - the Debian package, end to end (issue 8).
#
# Builds the .deb from BUILD_DIR with CPACK (into a temporary folder), checks its contents and
# control fields and that `DESTDIR=… cmake --install` yields the same files, validates the AppStream metainfo and the .desktop file, installs it with
# dpkg, runs the installed tacho-cli (--version, and a short run against a redis-server of its
# own on a free loopback port, counted with INFO commandstats) and tacho --version, renders
# both man pages with `man -l`, and removes the package again. An EXIT trap removes the
# package on any failure. It refuses to run where a tacho package is installed already or
# where one of the package's files exists, so a developer's own installation is never touched.
# Needs root or password-less sudo; without either it fails and says so.
set -euo pipefail

[ "$#" -eq 4 ] || { echo "usage: $0 BUILD_DIR CMAKE CPACK VERSION" >&2; exit 2; }
BUILD_DIR=$1
CMAKE=$2
CPACK=$3
VERSION=$4

# shellcheck source-path=SCRIPTDIR/../.. source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/common.sh"

fail() { printf 'test_package: FAIL: %s\n' "$*" >&2; exit 1; }
step() { printf 'test_package: %s\n' "$*"; }

need() {  # need COMMAND PACKAGE
  command -v "$1" >/dev/null 2>&1 || fail "$1 not found: apt-get install $2 (./test.sh installs it)"
}
need dpkg-deb dpkg
need dpkg-shlibdeps dpkg-dev
need appstreamcli appstream
need desktop-file-validate desktop-file-utils
need man man-db
need redis-server redis-server
need redis-cli redis-tools
[ -x "$CMAKE" ] || fail "cmake not found at $CMAKE"
[ -x "$CPACK" ] || fail "cpack not found at $CPACK"
[ -f "$BUILD_DIR/CPackConfig.cmake" ] || fail "$BUILD_DIR/CPackConfig.cmake not found: configure the build first"

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    fail "installing the package needs root: run the tests as root or with password-less sudo" \
      "(this test installs tacho with dpkg -i and removes it again)"
  fi
fi

WORK=$(mktemp -d -t tacho-package.XXXXXX)
INSTALLED_BY_US=0
cleanup() {
  local status=$?
  if [ "$INSTALLED_BY_US" -eq 1 ]; then
    step "removing the package (cleanup)"
    "${SUDO[@]}" dpkg -r tacho >"$WORK/dpkg-remove-trap.log" 2>&1 ||
      { cat "$WORK/dpkg-remove-trap.log" >&2; echo "test_package: could not remove tacho" >&2; }
  fi
  tacho_cleanup_redis
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT

# --- build the package ----------------------------------------------------------------------
step "cpack"
if ! "$CPACK" --config "$BUILD_DIR/CPackConfig.cmake" -B "$WORK/cpack" >"$WORK/cpack.log" 2>&1; then
  tail -n 30 "$WORK/cpack.log" >&2
  fail "cpack failed (are all targets built? cmake --build $BUILD_DIR)"
fi
mapfile -t debs < <(find "$WORK/cpack" -maxdepth 1 -name 'tacho_*.deb')
[ "${#debs[@]}" -eq 1 ] || fail "expected one tacho_*.deb from cpack, found ${#debs[@]}"
DEB=${debs[0]}
step "built ${DEB##*/} ($(du -k "$DEB" | cut -f1) KiB)"

# --- contents -------------------------------------------------------------------------------
dpkg-deb -c "$DEB" >"$WORK/contents.txt"
# Paths as "/usr/…", one a line; symbolic links as "path -> target" are not expected here.
awk '{ sub(/^\./, "", $6); print $6 }' "$WORK/contents.txt" >"$WORK/paths.txt"
ICON_SIZES="16 24 32 48 64 128 256"
expected=(
  /usr/bin/tacho
  /usr/bin/tacho-cli
  /usr/share/applications/dev.tacho.Tacho.desktop
  /usr/share/metainfo/dev.tacho.Tacho.metainfo.xml
  /usr/share/icons/hicolor/scalable/apps/dev.tacho.Tacho.svg
  /usr/share/man/man1/tacho.1.gz
  /usr/share/man/man1/tacho-cli.1.gz
  /usr/lib/systemd/system/tacho-agent@.service
  /usr/share/tacho/grafana/tacho-dashboard.json
)
for size in $ICON_SIZES; do
  expected+=("/usr/share/icons/hicolor/${size}x${size}/apps/dev.tacho.Tacho.png")
done
for path in "${expected[@]}"; do
  grep -qxF "$path" "$WORK/paths.txt" || fail "the package lacks $path; it holds:$(printf '\n  %s' "$(cat "$WORK/paths.txt")")"
done
# tacho-cli's Qt module for report --pdf/--png, in the package's private library folder.
REPORT_MODULE=$(grep -xE '/usr/lib/([^/]+/)?tacho/tacho-report-qt\.so' "$WORK/paths.txt" || true)
[ -n "$REPORT_MODULE" ] || fail "the package lacks tacho-cli's report module (/usr/lib/…/tacho/tacho-report-qt.so)"
for binary in tacho tacho-cli; do
  grep -qE "^-rwxr-xr-x .* \./usr/bin/$binary\$" "$WORK/contents.txt" ||
    fail "/usr/bin/$binary is not an executable file with mode 0755 in the package"
done

field() { dpkg-deb -f "$DEB" "$1"; }
[ "$(field Package)" = tacho ] || fail "Package is '$(field Package)', not tacho"
[ "$(field Version)" = "$VERSION" ] || fail "Version is '$(field Version)', not $VERSION"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] ||
  fail "Architecture is '$(field Architecture)', not $(dpkg --print-architecture)"
# The install tree holds the same files as the package.
DESTDIR="$WORK/destdir" "$CMAKE" --install "$BUILD_DIR" --prefix /usr >"$WORK/install.log" 2>&1 ||
  { tail -n 20 "$WORK/install.log" >&2; fail "DESTDIR=… cmake --install failed"; }
(cd "$WORK/destdir" && find . -type f | sed 's/^\.//' | sort) >"$WORK/destdir-files.txt"
awk '/^-/ { sub(/^\./, "", $6); print $6 }' "$WORK/contents.txt" | sort >"$WORK/package-files.txt"
if ! diff -u "$WORK/package-files.txt" "$WORK/destdir-files.txt" >"$WORK/tree.diff"; then
  cat "$WORK/tree.diff" >&2
  fail "the files of DESTDIR=… cmake --install differ from the package's (- package, + install tree)"
fi

depends=$(field Depends)
# dpkg-shlibdeps fills in the linked libraries; the plugins are listed by hand.
for dep in libc6 libstdc++6 libssl3 libqt6core6 libqt6widgets6 libqt6charts6 libqt6svg6 qt6-qpa-plugins; do
  [[ ", $depends," == *", $dep "* || ", $depends," == *", $dep,"* ]] ||
    fail "Depends lacks $dep: $depends"
done
[[ "$(field Recommends)" == *redis-server* ]] || fail "Recommends lacks redis-server: $(field Recommends)"
step "contents: $(wc -l <"$WORK/paths.txt") paths, the same files as the install tree; Depends: $depends; Recommends: $(field Recommends)"

# --- metadata -------------------------------------------------------------------------------
dpkg-deb -x "$DEB" "$WORK/root"
# PNG sizes from the IHDR chunk (width and height, big-endian, at bytes 16-23).
for size in $ICON_SIZES; do
  png=$WORK/root/usr/share/icons/hicolor/${size}x${size}/apps/dev.tacho.Tacho.png
  read -r w h < <(od -An -tu1 -j16 -N8 "$png" |
    awk '{ print ($1 * 16777216 + $2 * 65536 + $3 * 256 + $4), ($5 * 16777216 + $6 * 65536 + $7 * 256 + $8) }')
  if [ "$w" != "$size" ] || [ "$h" != "$size" ]; then fail "the ${size}x${size} icon is ${w}x${h}"; fi
done
appstreamcli validate --no-net "$WORK/root/usr/share/metainfo/dev.tacho.Tacho.metainfo.xml" \
  >"$WORK/appstream.log" 2>&1 || { cat "$WORK/appstream.log" >&2; fail "appstreamcli validate failed"; }
desktop-file-validate "$WORK/root/usr/share/applications/dev.tacho.Tacho.desktop" \
  >"$WORK/desktop.log" 2>&1 || { cat "$WORK/desktop.log" >&2; fail "desktop-file-validate failed"; }
[ ! -s "$WORK/desktop.log" ] || { cat "$WORK/desktop.log" >&2; fail "desktop-file-validate warned"; }
step "metainfo and desktop file valid; icons ${ICON_SIZES// /, } px"

# --- install, refusing to touch what is there -----------------------------------------------
status=$(dpkg-query -W -f='${Status} ${Version}' tacho 2>/dev/null || true)
if [[ "$status" == *" installed "* ]]; then
  fail "a tacho package is installed already ($status); this test does not replace it." \
    "Remove it (dpkg -r tacho) or run the test on another machine"
fi
# Regular files only: the directories (/usr, /usr/bin, …) exist on every system.
while read -r path; do
  if [ -e "$path" ] || [ -L "$path" ]; then
    fail "$path exists already (not from a tacho package); this test will not overwrite it"
  fi
done < <(awk '/^-/ { sub(/^\./, "", $6); print $6 }' "$WORK/contents.txt")

step "dpkg -i ${DEB##*/}"
INSTALLED_BY_US=1
if ! "${SUDO[@]}" dpkg -i "$DEB" >"$WORK/dpkg-install.log" 2>&1; then
  cat "$WORK/dpkg-install.log" >&2
  fail "dpkg -i failed (unmet Depends? they are: $depends)"
fi
[ "$(dpkg-query -W -f='${Status}' tacho)" = "install ok installed" ] || fail "tacho is not 'install ok installed'"

# --- the installed programs -----------------------------------------------------------------
[ "$(/usr/bin/tacho-cli --version)" = "tacho-cli $VERSION" ] ||
  fail "/usr/bin/tacho-cli --version says '$(/usr/bin/tacho-cli --version)'"
gui_version=$(QT_QPA_PLATFORM=offscreen timeout 30 /usr/bin/tacho --version 2>"$WORK/tacho.err") ||
  { cat "$WORK/tacho.err" >&2; fail "/usr/bin/tacho --version failed"; }
[ "$gui_version" = "tacho $VERSION" ] || fail "/usr/bin/tacho --version says '$gui_version'"

# shellcheck disable=SC2119  # no extra server arguments
tacho_start_redis
REQUESTS=2000
if ! timeout 60 /usr/bin/tacho-cli redis-benchmark -h "$TACHO_HOST" -p "$TACHO_REDIS_PORT" \
  -t set,get -n "$REQUESTS" -c 4 -q --json "$WORK/run.json" >"$WORK/run.out" 2>&1; then
  cat "$WORK/run.out" >&2
  fail "the installed tacho-cli's run failed"
fi
commandstats=$(redis-cli -h "$TACHO_HOST" -p "$TACHO_REDIS_PORT" info commandstats | tr -d '\r')
for command in set get; do
  calls=$(sed -n "s/^cmdstat_$command:calls=\([0-9]*\),.*/\1/p" <<<"$commandstats")
  [ "$calls" = "$REQUESTS" ] || fail "the server counted ${calls:-no} ${command^^} calls, not $REQUESTS"
done
grep -q 'commandstats agrees' "$WORK/run.out" || { cat "$WORK/run.out" >&2; fail "the run's cross-check did not agree"; }
[ -s "$WORK/run.json" ] || fail "the installed tacho-cli wrote no run file"
tacho_stop_redis
# Benchmarks run without Qt in the process (memory); report --png loads the installed module.
if readelf -d /usr/bin/tacho-cli | grep -q 'NEEDED.*libQt6'; then
  fail "/usr/bin/tacho-cli links Qt: $(readelf -d /usr/bin/tacho-cli | grep NEEDED | tr -s ' ')"
fi
if ! timeout 60 /usr/bin/tacho-cli report "$WORK/run.json" --png "$WORK/png" >"$WORK/report.out" 2>&1; then
  cat "$WORK/report.out" >&2
  fail "the installed tacho-cli's report --png failed (module $REPORT_MODULE)"
fi
pngs=$(find "$WORK/png" -name '*.png' -size +1k | wc -l)
[ "$pngs" -ge 2 ] || { cat "$WORK/report.out" >&2; fail "report --png wrote $pngs charts"; }
step "installed tacho-cli: $REQUESTS SET + $REQUESTS GET, server counted the same; no Qt linked, report --png drew $pngs charts through $REPORT_MODULE; tacho --version ok"

# --- man pages ------------------------------------------------------------------------------
for page in tacho tacho-cli; do
  file=/usr/share/man/man1/$page.1.gz
  MANWIDTH=80 man --warnings -l "$file" >"$WORK/$page.txt" 2>"$WORK/$page.warn" ||
    { cat "$WORK/$page.warn" >&2; fail "man -l $file failed"; }
  [ ! -s "$WORK/$page.warn" ] || { cat "$WORK/$page.warn" >&2; fail "man -l $file warned"; }
  if ! grep -q "^NAME" "$WORK/$page.txt" || ! grep -q "^ *$page - " "$WORK/$page.txt"; then
    fail "man -l $file shows no NAME section for $page"
  fi
  grep -q "$VERSION" "$WORK/$page.txt" || fail "man page $page does not name version $VERSION"
done
step "man pages render without warnings"

# --- remove ---------------------------------------------------------------------------------
"${SUDO[@]}" dpkg -r tacho >"$WORK/dpkg-remove.log" 2>&1 ||
  { cat "$WORK/dpkg-remove.log" >&2; fail "dpkg -r tacho failed"; }
INSTALLED_BY_US=0
if [ -e /usr/bin/tacho-cli ] || [ -e /usr/bin/tacho ]; then fail "the binaries are still there after dpkg -r"; fi
step "removed; PASS"
