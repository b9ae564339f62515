#!/usr/bin/env bash
# tests/architecture/check_include_direction.sh [--rules FILE] [ROOT] - the include rule
# (docs/architecture.md): no folder includes a folder above it, and what the rules forbid
# (Qt in the engine) is not included.
#
# Reads the rules (default: include_rules.txt beside this script; its comments say the format)
# and every C/C++ source under the folders they name in ROOT (default: the repository this
# script is in), and prints each #include that breaks a rule as "file:line: …" naming the rule.
# Exit status: 0 all kept, 1 a rule broken, 2 bad usage, unreadable rules or nothing to check.
# Plain bash, find and POSIX awk (Debian's mawk): nothing to install, nothing to build.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rules=$here/include_rules.txt
if [ "${1:-}" = --rules ]; then
  [ "$#" -ge 2 ] || { echo "usage: $0 [--rules FILE] [ROOT]" >&2; exit 2; }
  rules=$2
  shift 2
fi
[ "$#" -le 1 ] || { echo "usage: $0 [--rules FILE] [ROOT]" >&2; exit 2; }
root=$(cd "${1:-$here/../..}" && pwd)
[ -r "$rules" ] || { echo "check_include_direction: cannot read the rules $rules" >&2; exit 2; }

# The top folders the rules name (floors of "." and the first part of every other scope).
mapfile -t tops < <(awk '
  $1 == "floors" && $2 == ".:" { for (i = 3; i <= NF; ++i) if ($i != "|" && $i != ".") print $i; next }
  ($1 == "floors" || $1 == "forbid") && $2 ~ /:$/ { s = substr($2, 1, length($2) - 1); sub(/\/.*/, "", s); if (s != ".") print s }
' "$rules" | sort -u)
[ "${#tops[@]}" -gt 0 ] || { echo "check_include_direction: no floors or forbid lines in $rules" >&2; exit 2; }

files=()
for top in "${tops[@]}"; do
  [ -d "$root/$top" ] || continue
  while IFS= read -r -d '' path; do
    files+=("${path#"$root"/}")
  done < <(find "$root/$top" -type f \( -name '*.h' -o -name '*.hh' -o -name '*.hpp' -o -name '*.hxx' \
             -o -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.ipp' \
             -o -name '*.inl' -o -name '*.tpp' \) -print0 | sort -z)
done
[ "${#files[@]}" -gt 0 ] || { echo "check_include_direction: no source files under ${tops[*]} in $root" >&2; exit 2; }

printf '%s\n' "${files[@]}" | awk -v root="$root" -v rules="$rules" '
function fail(msg) { print msg; ++broken }

# "a/./b/../c" -> "a/c"; a path that climbs out of the root stays as it is (and matches no rule).
function normalise(path,    n, parts, out, k, i) {
  n = split(path, parts, "/")
  k = 0
  for (i = 1; i <= n; ++i) {
    if (parts[i] == "" || parts[i] == ".") continue
    if (parts[i] == "..") { if (k == 0) return path; --k; continue }
    out[++k] = parts[i]
  }
  path = ""
  for (i = 1; i <= k; ++i) path = path (i > 1 ? "/" : "") out[i]
  return path
}

function exists(path,    line, status) {
  status = (getline line < (root "/" path))
  close(root "/" path)
  return status >= 0
}

function dirOf(path) { return sub(/\/[^\/]*$/, "", path) ? path : "." }

# The folder `path` is in, one level inside `scope` ("." for a file directly in it).
function partIn(scope, path,    rest) {
  rest = scope == "." ? path : substr(path, length(scope) + 2)
  return index(rest, "/") ? substr(rest, 1, index(rest, "/") - 1) : "."
}

function under(scope, path) { return scope == "." || index(path, scope "/") == 1 }

# The floors rules for `file` (line `lineNo`) including `target`, from the root down.
function checkFloors(file, lineNo, target,    scope, a, b, where) {
  scope = "."
  while (scope in hasFloors) {
    a = partIn(scope, file)
    b = partIn(scope, target)
    where = scope == "." ? "the repository root" : scope "/"
    if (!((scope, a) in floor)) {
      if (scope == ".") return   # not a folder the rules cover
      fail(file ":" lineNo ": " (a == "." ? "the files directly in " where " are on no floor of " where \
           ": list \".\" in " : scope "/" a "/ is on no floor of " where ": give it its place in ") rulesName)
      return
    }
    if (!((scope, b) in floor)) {
      if (scope == "." && !exists(target)) return   # a system or generated header
      fail(file ":" lineNo ": includes " target ", which is on no floor of " where \
           ": give it its place in " rulesName)
      return
    }
    if (a != b) {
      if (floor[scope, b] < floor[scope, a]) return
      fail(file ":" lineNo ": includes " target ": " a " (floor " floor[scope, a] " of " where \
           ") may include only folders on lower floors, and " b " is on " \
           (floor[scope, b] == floor[scope, a] ? "the same floor" : "floor " floor[scope, b]))
      return
    }
    if (a == ".") return
    scope = scope == "." ? a : scope "/" a
  }
}

BEGIN {
  rulesName = rules
  sub(/.*\//, "", rulesName)
  while ((status = (getline line < rules)) > 0) {
    ++ruleLine
    if (line ~ /^[ \t]*(#|$)/) continue
    n = split(line, word, /[ \t]+/)
    if (word[1] == "") { for (i = 1; i < n; ++i) word[i] = word[i + 1]; --n }
    if ((word[1] != "floors" && word[1] != "forbid") || word[2] !~ /.:$/ || n < 3) {
      print rulesName ":" ruleLine ": not a floors or forbid line: " line > "/dev/stderr"
      badRules = 1
      exit 2
    }
    scope = normalise(substr(word[2], 1, length(word[2]) - 1))
    if (scope == "") scope = "."
    if (word[1] == "floors") {
      hasFloors[scope] = 1
      level = 0
      for (i = 3; i <= n; ++i) {
        if (word[i] == "|") { ++level; continue }
        floor[scope, word[i]] = level
      }
    } else {
      rest = line
      sub(/^[ \t]*forbid[ \t]+[^ \t]+[ \t]+/, "", rest)
      why = index(rest, " -- ") ? substr(rest, index(rest, " -- ") + 4) : "forbidden"
      if (index(rest, " -- ")) rest = substr(rest, 1, index(rest, " -- ") - 1)
      ++forbids
      forbidScope[forbids] = scope
      forbidRegex[forbids] = rest
      forbidWhy[forbids] = why
    }
  }
  if (status < 0) { print "cannot read " rules > "/dev/stderr"; badRules = 1; exit 2 }
}

{
  file = $0
  ++checked
  lineNo = 0
  while ((getline text < (root "/" file)) > 0) {
    ++lineNo
    if (text !~ /^[ \t]*#[ \t]*include[ \t]*[<"]/) continue
    name = text
    sub(/^[ \t]*#[ \t]*include[ \t]*/, "", name)
    quoted = substr(name, 1, 1) == "\""
    name = substr(name, 2)
    sub(quoted ? "\".*" : ">.*", "", name)
    ++includes
    for (i = 1; i <= forbids; ++i)
      if (under(forbidScope[i], file) && name ~ forbidRegex[i])
        fail(file ":" lineNo ": includes " (quoted ? "\"" name "\"" : "<" name ">") ": " forbidWhy[i])
    # As the compiler looks: a quoted name beside the including file first, then (both
    # forms) from the include root, the repository root.
    target = quoted ? normalise(dirOf(file) "/" name) : ""
    if (!quoted || !exists(target)) target = normalise(name)
    if (quoted || exists(target)) checkFloors(file, lineNo, target)
  }
  close(root "/" file)
}

END {
  if (badRules) exit 2
  if (broken) {
    print broken " include(s) break the include rule (docs/architecture.md; rules: " rulesName ")"
    exit 1
  }
  print "include rule kept: " checked " files, " includes " includes"
}
'
