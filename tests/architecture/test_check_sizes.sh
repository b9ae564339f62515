#!/usr/bin/env bash
# tests/architecture/test_check_sizes.sh - the size checker itself (issue 28): on a tree made
# here it must name a new long function, a long file, a listed debt that grew and one that was
# paid off, and pass the tree when the budget states it as it is.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
check=$here/check_sizes.sh
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/engine/run"

# function NAME BODYLINES : a C++ function of BODYLINES + 3 lines
function_of() {
  printf 'int %s()\n{\n' "$1"
  for ((i = 0; i < $2; ++i)); do printf '    int x%d = %d;\n' "$i" "$i"; done
  printf '}\n'
}
{ function_of shortOne 10; function_of longOne 130; } >"$tree/engine/run/a.cpp"   # longOne: 133 lines
{ for ((i = 0; i < 700; ++i)); do printf '// line %d\n' "$i"; done; } >"$tree/engine/run/big.h"
{ function_of grown 140; function_of paid 20; } >"$tree/engine/run/b.cpp"

printf '%s\n' '# test budget' 'function engine/run/b.cpp grown 125' 'function engine/run/b.cpp paid 200' >"$tree/budget"
status=0
out=$("$check" --budget "$tree/budget" "$tree") || status=$?
fail=0
for want in 'engine/run/a.cpp: longOne() is 133 lines (limit 120)' 'engine/run/big.h: the file is 700 lines (limit 650)' \
            'engine/run/b.cpp: grown() is 143 lines, more than its listed debt of 125' 'engine/run/b.cpp: paid() is within the limit now'; do
  grep -qF "$want" <<<"$out" || { echo "FAIL: missing: $want"; fail=1; }
done
[ "$status" = 1 ] || { echo "FAIL: status $status (expected 1)"; fail=1; }
[ "$(grep -c . <<<"$out")" = 4 ] || { echo "FAIL: expected exactly 4 lines"; fail=1; }
[ "$fail" = 0 ] || { echo "$out"; exit 1; }

printf '%s\n' 'function engine/run/a.cpp longOne 133' 'file engine/run/big.h 700' 'function engine/run/b.cpp grown 143' >"$tree/budget"
status=0
out=$("$check" --budget "$tree/budget" "$tree") || status=$?
[ "$status" = 0 ] || { echo "FAIL: a tree within its budget: status $status"; echo "$out"; exit 1; }
echo "check_sizes: 2 trees as expected"
