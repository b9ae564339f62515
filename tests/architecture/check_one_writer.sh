#!/usr/bin/env bash
# tests/architecture/check_one_writer.sh [ROOT] - the one writer (issue 28): every file Tacho
# writes goes through engine/report/atomic_file.cpp (temporary file beside the target, umask,
# owner and links handled once), so nothing else in the product (engine/, ui/, report_qt/,
# app/) may create, open for writing or rename a file.
#
# Prints each offending line as "file:line: what" and exits 1; 0 when only the writer writes;
# 2 on bad usage or when there is nothing to check. Writes into memory are not files: a
# QBuffer is opened as `buffer.open(…)` and that line is exempt. The sandbox's scratch folder
# (ui/stores/sandbox_server.cpp, QTemporaryDir for redis-server's own files) is the one
# folder made elsewhere, and writes no output of ours.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ "$#" -le 1 ] || { echo "usage: $0 [ROOT]" >&2; exit 2; }
root=$(cd "${1:-$here/../..}" && pwd)
writer=engine/report/atomic_file.cpp

files=()
for top in engine ui report_qt app; do
  [ -d "$root/$top" ] || continue
  while IFS= read -r -d '' path; do
    files+=("${path#"$root"/}")
  done < <(find "$root/$top" -type f \( -name '*.h' -o -name '*.cpp' \) -print0 | sort -z)
done
[ "${#files[@]}" -gt 0 ] || { echo "check_one_writer: no source files in $root" >&2; exit 2; }

# What makes or writes a file: POSIX open flags and temporary-file calls, C and C++ streams
# opened for writing, Qt's file writers.
pattern='O_WRONLY|O_RDWR|O_CREAT|O_TMPFILE|mkstemp|mkostemp|mkdtemp|tmpfile *\(|tmpnam|ofstream|std::fstream|fopen *\([^)]*"[wa+]|(^|[^A-Za-z0-9_])::rename *\(|std::rename *\(|renameat|linkat|QSaveFile|QTemporaryFile|QTemporaryDir|QLockFile|QFile::(copy|rename|link)|WriteOnly|ReadWrite|Append'

status=0
cd "$root"
for file in "${files[@]}"; do
  [ "$file" = "$writer" ] && continue
  # Comments do not write files: strip // comments before matching.
  while IFS= read -r hit; do
    line=${hit%%:*}
    text=${hit#*:}
    case "$text" in
      *buffer.open\(*) continue ;;
    esac
    if [ "$file" = ui/stores/sandbox_server.cpp ] || [ "$file" = ui/stores/sandbox_server.h ]; then
      case "$text" in *QTemporaryDir*) continue ;; esac
    fi
    echo "$file:$line: writes a file outside $writer: ${text#"${text%%[![:space:]]*}"}"
    status=1
  done < <(sed 's|//.*$||' "$file" | grep -nE "$pattern" || true)
done
if [ "$status" = 0 ]; then
  echo "check_one_writer: ${#files[@]} files, one writer ($writer)"
fi
exit "$status"
