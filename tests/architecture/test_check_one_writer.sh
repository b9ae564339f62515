#!/usr/bin/env bash
# tests/architecture/test_check_one_writer.sh - the one-writer checker itself (issue 28): on a
# small tree made here it must name each way of writing a file outside the writer, by
# file:line, and nothing else (comments, in-memory buffers, the writer itself); a clean tree
# passes.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
check=$here/check_one_writer.sh
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT

put() {  # put PATH LINE... : writes the lines into $tree/PATH
  mkdir -p "$(dirname "$tree/$1")"
  local path=$tree/$1
  shift
  printf '%s\n' "$@" >"$path"
}

put engine/report/atomic_file.cpp 'const int fd = ::open(temp, O_WRONLY | O_CREAT | O_EXCL, 0666);' '::rename(temp, path);'
put engine/ok.cpp '// mkstemp would give 0600' 'std::ifstream in("/proc/stat");' 'bool HistoryStore::rename(int);'
put ui/ok.cpp 'if (!buffer.open(QIODevice::WriteOnly)) return;'
status=0
out=$("$check" "$tree") || status=$?
if [ "$status" != 0 ]; then
  echo "FAIL: a clean tree: status $status"
  echo "$out"
  exit 1
fi

put engine/cli/step.cpp 'int x;' 'const int fd = ::mkstemp(temp.data());'
put ui/model/meta.cpp 'QSaveFile file(path);'
put ui/a.cpp 'std::ofstream out(path);'
put app/b.cpp 'FILE* f = std::fopen(path, "w");'
put report_qt/c.cpp 'if (std::rename(a, b) != 0) return;' 'file.open(QIODevice::WriteOnly);'
status=0
out=$("$check" "$tree") || status=$?
want='app/b.cpp:1
engine/cli/step.cpp:2
report_qt/c.cpp:1
report_qt/c.cpp:2
ui/a.cpp:1
ui/model/meta.cpp:1'
got=$(printf '%s\n' "$out" | cut -d: -f1,2 | sort)
if [ "$status" != 1 ] || [ "$got" != "$want" ]; then
  echo "FAIL: writers outside the writer: status $status (expected 1)"
  diff -u <(echo "$want") <(echo "$got") || true
  exit 1
fi
echo "check_one_writer: 2 trees as expected"
