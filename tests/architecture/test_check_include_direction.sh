#!/usr/bin/env bash
# tests/architecture/test_check_include_direction.sh - the include-direction checker itself
# (issue 18): on small trees made here it must name every kind of broken rule, by file:line,
# and only those, and pass a clean tree; the repository's own rules must catch an upward
# include between engine floors.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
check=$here/check_include_direction.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

put() {  # put PATH LINE... : writes the lines into $tree/PATH
  local path=$tree/$1
  shift
  mkdir -p "$(dirname "$path")"
  printf '%s\n' "$@" >"$path"
}

# expect NAME STATUS RULES : runs the checker on $tree, compares its status and its lines
# (sorted, the summary line included) with the expected lines on standard input.
expect() {
  local name=$1 status=$2 rules=$3 got=0
  "$check" --rules "$rules" "$tree" >"$work/out" 2>&1 || got=$?
  sort "$work/out" >"$work/got"
  sort >"$work/want"
  if [ "$got" != "$status" ] || ! diff -u "$work/want" "$work/got"; then
    echo "FAIL: $name: status $got (expected $status)"
    cat "$work/out"
    failures=$((failures + 1))
  else
    echo "ok: $name"
  fi
}

cat >"$work/rules.txt" <<'EOF'
# a root, an engine with floors, a ui with floors of its own
floors .: engine | ui | app
  floors engine: config | net stats | run
floors ui: widgets | pages | .
forbid engine: ^Q -- the engine is Qt-free
EOF

# A clean tree: every include goes down or stays in its folder; comments, system and
# generated headers are not project includes.
tree=$work/clean
put engine/config/run_config.h '#pragma once' '#include <string>'
put engine/net/client.h '#include "engine/config/run_config.h"' '#include "engine/net/loop.h"'
put engine/net/loop.h '#pragma once'
put engine/stats/histogram.cpp '  #  include "engine/config/run_config.h"' '// #include "engine/run/runner.h"'
put engine/run/runner.cpp '#include "../net/client.h"' '#include <engine/stats/histogram.cpp>' '#include "runner.moc"'
put ui/widgets/chart.h '#include "engine/run/runner.cpp"' '#include <QString>'
put ui/pages/run_page.cpp '#include "ui/widgets/chart.h"' '#include "ui_run_page.h"'
put ui/main_window.cpp '#include "pages/run_page.cpp"'
put app/main.cpp '#include "ui/main_window.cpp"' '#include "engine/run/runner.cpp"'
put tests/test_x.cpp '#include "app/main.cpp"'
expect "a clean tree passes" 0 "$work/rules.txt" <<'EOF'
include rule kept: 9 files, 14 includes
EOF

# One tree with each kind of broken rule.
tree=$work/broken
cp -r "$work/clean/." "$tree"
put engine/net/up.h '#include "engine/run/runner.cpp"'
put engine/net/sibling.h '#pragma once' '#include "engine/stats/histogram.cpp"'
put engine/config/relative.h '#include "../net/loop.h"'
put engine/config/angle.h '#include <engine/run/runner.cpp>'
put engine/run/qt.cpp '#include <QString>' '#include "QObject"' '#include <QtCore/qglobal.h>' '#include <queue>'
put engine/extra/new.h '#include "engine/config/run_config.h"'
put engine/run/uses_new.h '#include "engine/extra/new.h"'
put engine/loose.h '#pragma once' '#include "engine/config/run_config.h"'
put engine/run/uses_tests.h '#include "tests/test_x.cpp"'
put engine/run/uses_ui.h '#include "ui/widgets/chart.h"'
put ui/widgets/uses_page.h '#include "ui/pages/run_page.cpp"'
put ui/pages/uses_window.h '#include "ui/main_window.cpp"'
put ui/pages/uses_app.h '#include "../../app/main.cpp"'
expect "every broken rule is named" 1 "$work/rules.txt" <<'EOF'
engine/net/up.h:1: includes engine/run/runner.cpp: net (floor 1 of engine/) may include only folders on lower floors, and run is on floor 2
engine/net/sibling.h:2: includes engine/stats/histogram.cpp: net (floor 1 of engine/) may include only folders on lower floors, and stats is on the same floor
engine/config/relative.h:1: includes engine/net/loop.h: config (floor 0 of engine/) may include only folders on lower floors, and net is on floor 1
engine/config/angle.h:1: includes engine/run/runner.cpp: config (floor 0 of engine/) may include only folders on lower floors, and run is on floor 2
engine/run/qt.cpp:1: includes <QString>: the engine is Qt-free
engine/run/qt.cpp:2: includes "QObject": the engine is Qt-free
engine/run/qt.cpp:3: includes <QtCore/qglobal.h>: the engine is Qt-free
engine/extra/new.h:1: engine/extra/ is on no floor of engine/: give it its place in rules.txt
engine/run/uses_new.h:1: includes engine/extra/new.h, which is on no floor of engine/: give it its place in rules.txt
engine/loose.h:2: the files directly in engine/ are on no floor of engine/: list "." in rules.txt
engine/run/uses_tests.h:1: includes tests/test_x.cpp, which is on no floor of the repository root: give it its place in rules.txt
engine/run/uses_ui.h:1: includes ui/widgets/chart.h: engine (floor 0 of the repository root) may include only folders on lower floors, and ui is on floor 1
ui/widgets/uses_page.h:1: includes ui/pages/run_page.cpp: widgets (floor 0 of ui/) may include only folders on lower floors, and pages is on floor 1
ui/pages/uses_window.h:1: includes ui/main_window.cpp: pages (floor 1 of ui/) may include only folders on lower floors, and . is on floor 2
ui/pages/uses_app.h:1: includes app/main.cpp: ui (floor 1 of the repository root) may include only folders on lower floors, and app is on floor 2
15 include(s) break the include rule (docs/architecture.md; rules: rules.txt)
EOF

# The repository's own table: net below run, the engine free of Qt.
tree=$work/real
put engine/net/client.h '#include "engine/run/worker.h"' '#include <QByteArray>'
put engine/run/worker.h '#include "engine/net/client.h"' '#include "engine/config/run_config.h"'
put engine/config/run_config.h '#pragma once'
expect "the repository's rules keep net below run" 1 "$here/include_rules.txt" <<'EOF'
engine/net/client.h:1: includes engine/run/worker.h: net (floor 3 of engine/) may include only folders on lower floors, and run is on floor 7
engine/net/client.h:2: includes <QByteArray>: the engine is Qt-free (Qt headers: <QString>, <QtCore/…>)
2 include(s) break the include rule (docs/architecture.md; rules: include_rules.txt)
EOF

# A rules file it cannot read is a usage error, not a pass.
printf 'floors .: engine\nfloors engine config | net\n' >"$work/bad-rules.txt"
expect "a malformed rules line is refused" 2 "$work/bad-rules.txt" <<'EOF'
bad-rules.txt:2: not a floors or forbid line: floors engine config | net
EOF

[ "$failures" = 0 ] || { echo "$failures case(s) failed"; exit 1; }
echo "all cases passed"
