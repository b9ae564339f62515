#!/usr/bin/env bash
# tests/architecture/check_sizes.sh [--budget FILE] [ROOT] - functions nobody can hold in their
# head (issue 28): no function under engine/ longer than 120 lines and no file longer than 650,
# except the debts listed in the budget file (default: size_budget.txt beside this script), each
# at most as long as listed. A debt may shrink, never grow; one paid off (now within the limits)
# must leave the list, so the list is always the true state.
#
# Functions are measured by Universal Ctags (their first and last line). Prints each breach as
# "file: what" and exits 1; 0 when all is within budget; 2 on bad usage or a missing tool.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
budget=$here/size_budget.txt
if [ "${1:-}" = --budget ]; then
  [ "$#" -ge 2 ] || { echo "usage: $0 [--budget FILE] [ROOT]" >&2; exit 2; }
  budget=$2
  shift 2
fi
[ "$#" -le 1 ] || { echo "usage: $0 [--budget FILE] [ROOT]" >&2; exit 2; }
root=$(cd "${1:-$here/../..}" && pwd)
command -v ctags >/dev/null 2>&1 || { echo "check_sizes: needs Universal Ctags (apt-get install universal-ctags)" >&2; exit 2; }
ctags --version 2>/dev/null | grep -q "Universal Ctags" || { echo "check_sizes: ctags is not Universal Ctags" >&2; exit 2; }
[ -r "$budget" ] || { echo "check_sizes: cannot read the budget $budget" >&2; exit 2; }
[ -d "$root/engine" ] || { echo "check_sizes: no engine/ in $root" >&2; exit 2; }

max_function=120
max_file=650
measured=$(mktemp)
trap 'rm -f "$measured"' EXIT
cd "$root"
# "function FILE NAME LINES" for every function over the limit, "file FILE LINES" likewise.
ctags -R --languages=C++ --kinds-C++=f --fields=+ne -o - engine 2>/dev/null |
  awk -F'\t' -v max="$max_function" '{
    line = ""; end = ""
    for (i = 4; i <= NF; ++i) { if ($i ~ /^line:/) line = substr($i, 6); if ($i ~ /^end:/) end = substr($i, 5) }
    if (end != "" && end - line + 1 > max) print "function", $2, $1, end - line + 1
  }' >"$measured"
find engine -type f \( -name '*.cpp' -o -name '*.h' \) -print0 | xargs -0 wc -l |
  awk -v max="$max_file" '$2 != "total" && $1 > max { print "file", $2, $1 }' >>"$measured"

awk -v budgetFile="$budget" '
  FNR == NR {   # the budget: "function FILE NAME LINES" / "file FILE LINES"; # comments
    if ($0 ~ /^[[:space:]]*(#|$)/) next
    key = ($1 == "function") ? $1 " " $2 " " $3 : $1 " " $2
    allowed[key] = ($1 == "function") ? $4 : $3
    next
  }
  {
    key = ($1 == "function") ? $1 " " $2 " " $3 : $1 " " $2
    size = ($1 == "function") ? $4 : $3
    seen[key] = 1
    what = ($1 == "function") ? $3 "() is " size " lines" : "the file is " size " lines"
    if (!(key in allowed)) { print $2 ": " what " (limit " ($1 == "function" ? 120 : 650) "): split it along its steps"; bad = 1 }
    else if (size + 0 > allowed[key] + 0) { print $2 ": " what ", more than its listed debt of " allowed[key] ": it may only shrink"; bad = 1 }
  }
  END {
    for (key in allowed) if (!(key in seen)) {
      split(key, p, " ")
      print p[2] ": " (p[1] == "function" ? p[3] "() is" : "the file is") " within the limit now: remove it from " budgetFile; bad = 1
    }
    exit bad
  }' "$budget" "$measured" && status=0 || status=$?
if [ "$status" = 0 ]; then
  echo "check_sizes: engine functions <= $max_function lines and files <= $max_file, but for $(grep -cvE '^[[:space:]]*(#|$)' "$budget") listed debts"
fi
exit "$status"
