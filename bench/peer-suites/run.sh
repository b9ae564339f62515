#!/usr/bin/env bash
# Runs the peer tools' own test suites against tacho-cli (through shims named like the peers)
# and against the real tools as a control. Fetches nothing: point it at checkouts made
# elsewhere. See README.md beside this file.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

TACHO_CLI=${TACHO_CLI:-$REPO/build/release/app/tacho-cli}
REDIS_SRC=${REDIS_SRC:-}
VALKEY_SRC=${VALKEY_SRC:-}
MEMTIER_SRC=${MEMTIER_SRC:-}
REDIS_SERVER=${REDIS_SERVER:-$(command -v redis-server || true)}
REDIS_CLI=${REDIS_CLI:-$(command -v redis-cli || true)}
REAL_REDIS_BENCHMARK=${REAL_REDIS_BENCHMARK:-$(command -v redis-benchmark || true)}
REAL_VALKEY_BENCHMARK=${REAL_VALKEY_BENCHMARK:-$(command -v valkey-benchmark || true)}
REAL_MEMTIER=${REAL_MEMTIER:-$(command -v memtier_benchmark || true)}
TOOLS=${TOOLS:-"real tacho"}
OUT=${OUT:-$PWD/peer-suites-out}
LIMIT=${LIMIT:-1800}          # seconds for one suite run, then it is killed
NICE=${NICE:-10}
TEST=${TEST:-}                # memtier: one module or module:function (passed to run_tests.sh)
TLS_IP_SAN=${TLS_IP_SAN:-0}   # 1: re-sign the suites' certificates to name 127.0.0.1 (diagnostic)
RUNTEST_ARGS=${RUNTEST_ARGS:-} # Redis/Valkey: more runtest options, e.g. --skiptest /idle
ALL_SUITES="redis redis-tls valkey valkey-tls memtier memtier-cluster memtier-tls"

die() { echo "peer-suites: $*" >&2; exit 2; }
abspath() { (cd "$1" && pwd); }

if [ $# -gt 0 ]; then
    SUITES="$*"
else
    SUITES=""
    [ -n "$REDIS_SRC" ] && SUITES+=" redis redis-tls"
    [ -n "$VALKEY_SRC" ] && SUITES+=" valkey valkey-tls"
    [ -n "$MEMTIER_SRC" ] && SUITES+=" memtier memtier-cluster memtier-tls"
    [ -n "$SUITES" ] || die "give REDIS_SRC, VALKEY_SRC and/or MEMTIER_SRC (see README.md)"
fi
for s in $SUITES; do
    case " $ALL_SUITES " in *" $s "*) ;; *) die "unknown suite '$s' (one of: $ALL_SUITES)";; esac
done
for t in $TOOLS; do
    case $t in real|tacho) ;; *) die "unknown tool '$t' (real, tacho)";; esac
done

need() { command -v "$1" >/dev/null 2>&1 || die "$1 not found (Debian package $2)"; }
need timeout coreutils
[ -x "$TACHO_CLI" ] || die "tacho-cli not found at $TACHO_CLI (build it, or set TACHO_CLI)"
[ -n "$REDIS_SERVER" ] || die "redis-server not found (Debian package redis-server)"
[ -n "$REDIS_CLI" ] || die "redis-cli not found (Debian package redis-tools)"
TACHO_CLI=$(cd "$(dirname "$TACHO_CLI")" && pwd)/$(basename "$TACHO_CLI")
case " $SUITES " in *-tls*) need openssl openssl;; esac
case " $SUITES " in *" redis"*|*" valkey"*) need tclsh8.6 tcl;; esac
case " $SUITES " in *" redis-tls "*|*" valkey-tls "*)
    echo 'package require tls' | tclsh8.6 >/dev/null 2>&1 || die "Tcl's tls package not found (Debian package tcl-tls)";;
esac
src_of() {
    case $1 in
        redis*) [ -n "$REDIS_SRC" ] || die "suite $1 needs REDIS_SRC"; abspath "$REDIS_SRC";;
        valkey*) [ -n "$VALKEY_SRC" ] || die "suite $1 needs VALKEY_SRC"; abspath "$VALKEY_SRC";;
        memtier*) [ -n "$MEMTIER_SRC" ] || die "suite $1 needs MEMTIER_SRC"; abspath "$MEMTIER_SRC";;
    esac
}
for s in $SUITES; do src_of "$s" >/dev/null; done

# memtier's tests need python3 with redis-py (Debian: python3-redis); the first python3 that has it
PYTHON_WITH_REDIS=""
case " $SUITES " in *" memtier"*)
    for p in ${PYTHON:-} python3 /usr/bin/python3; do
        if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import redis' 2>/dev/null; then
            PYTHON_WITH_REDIS=$(command -v "$p"); break
        fi
    done
    [ -n "$PYTHON_WITH_REDIS" ] || die "no python3 with the redis module (Debian package python3-redis)";;
esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/peer-suites.XXXXXX")
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$OUT" "$WORK/shims" "$WORK/bin"
OUT=$(abspath "$OUT")

# The shims: the peers' names, tacho-cli's dialects. exec keeps the PID (memtier's crash
# test signals the PID it started).
# With CHAIN_ONLY=1 they add --tls-skip-hostname-verify to TLS command lines: the peers verify
# the certificate chain only, Tacho also the host name, and the suites' certificates name none
# (README: deliberate differences).
chain_only=""
[ "${CHAIN_ONLY:-0}" = 1 ] && chain_only='case " $* " in *" --tls "*|*rediss://*|*valkeys://*) set -- --tls-skip-hostname-verify "$@";; esac\n'
printf "#!/bin/sh\n$chain_only"'exec "%s" redis-benchmark "$@"\n' "$TACHO_CLI" > "$WORK/shims/redis-benchmark"
printf "#!/bin/sh\n$chain_only"'exec "%s" redis-benchmark "$@"\n' "$TACHO_CLI" > "$WORK/shims/valkey-benchmark"
printf "#!/bin/sh\n$chain_only"'exec "%s" memtier "$@"\n' "$TACHO_CLI" > "$WORK/shims/memtier_benchmark"
chmod +x "$WORK/shims/"*
[ -n "$PYTHON_WITH_REDIS" ] && ln -s "$PYTHON_WITH_REDIS" "$WORK/bin/python3"

# binary_for SUITE TOOL: what to put where the suite looks for its benchmark ("" = none)
binary_for() {
    local name
    case $1 in redis*) name=redis-benchmark;; valkey*) name=valkey-benchmark;; memtier*) name=memtier_benchmark;; esac
    if [ "$2" = tacho ]; then echo "$WORK/shims/$name"; return; fi
    case $name in
        redis-benchmark) echo "$REAL_REDIS_BENCHMARK";;
        valkey-benchmark) echo "$REAL_VALKEY_BENCHMARK";;
        memtier_benchmark) echo "$REAL_MEMTIER";;
    esac
}

# The suites' certificates name no host; the peers verify only the chain. With TLS_IP_SAN=1
# the server-capable ones are signed again, same keys and CA, adding IP:127.0.0.1, to tell
# host-name verification apart from everything else TLS does.
add_ip_san() {
    local tls=$1 name subj
    printf '[server]\nkeyUsage = digitalSignature, keyEncipherment\nnsCertType = server\nsubjectAltName = IP:127.0.0.1\n[generic]\nsubjectAltName = IP:127.0.0.1\n' >"$tls/ipsan.cnf"
    for name in server redis; do
        [ -f "$tls/$name.crt" ] || continue
        subj=$(openssl x509 -in "$tls/$name.crt" -noout -subject -nameopt compat | sed 's/^subject=//')
        openssl req -new -sha256 -subj "$subj" -key "$tls/$name.key" |
            openssl x509 -req -sha256 -CA "$tls/ca.crt" -CAkey "$tls/ca.key" -CAserial "$tls/ca.txt" \
                -CAcreateserial -days 365 -extfile "$tls/ipsan.cnf" \
                -extensions "$([ $name = server ] && echo server || echo generic)" -out "$tls/$name.crt"
    done
}

# certs KIND SCRIPT: the suite's own certificate script, run once, in a scratch root
certs() {
    local dir="$WORK/certs-$1"
    if [ ! -d "$dir/tests/tls" ]; then
        mkdir -p "$dir"
        (cd "$dir" && bash "$2") >"$dir.log" 2>&1 || { cat "$dir.log" >&2; die "certificate script $2 failed"; }
        [ "$TLS_IP_SAN" = 1 ] && add_ip_san "$dir/tests/tls" >>"$dir.log" 2>&1
    fi
    echo "$dir/tests/tls"
}

# Directives of the suite's default.conf that this redis-server refuses (Valkey-only ones when
# the Valkey suite runs against Redis 7.0): found by starting the server on the file, one
# refused line at a time, each start bounded.
drop_refused_directives() {
    local conf=$1 probe="$WORK/probe" i line
    mkdir -p "$probe"
    for i in $(seq 1 20); do
        line=$(cd "$probe" && timeout 5 "$REDIS_SERVER" "$conf" --port 0 --pidfile "$probe/pid" \
               --daemonize no --logfile '' 2>&1 | sed -n "s/^>>> '\([^ ']*\).*/\1/p" | head -1)
        [ -n "$line" ] || return 0
        echo "  dropped from tests/assets/default.conf: $line (refused by $(basename "$REDIS_SERVER"))"
        sed -i "/^$line[[:space:]]/d" "$conf"
    done
}

# run_tcl SUITE TOOL LOG: Redis' / Valkey's runtest --single on a copy of the suite's tests
run_tcl() {
    local suite=$1 tool=$2 log=$3 src kind bin root tls=""
    src=$(src_of "$suite"); kind=${suite%-tls}
    [ "$suite" != "$kind" ] && tls=--tls
    bin=$(binary_for "$suite" "$tool")
    root="$WORK/$suite-$tool"
    mkdir -p "$root/src"
    cp -r "$src/tests" "$src/runtest" "$root/"
    ln -s "$REDIS_SERVER" "$root/src/$kind-server"
    ln -s "$REDIS_CLI" "$root/src/$kind-cli"
    ln -s "$bin" "$root/src/$kind-benchmark"
    if [ -n "$tls" ]; then
        rm -rf "$root/tests/tls"
        cp -r "$(certs "$kind" "$src/utils/gen-test-certs.sh")" "$root/tests/tls"
    fi
    {
        echo "suite $suite, tool $tool: $bin"
        if [ "$kind" = valkey ]; then
            # the suite's server is Redis 7.0 here: its own config names and no Valkey-only ones
            drop_refused_directives "$root/tests/assets/default.conf"
            sed -i 's/config set primaryauth /config set masterauth /' "$root/tests/integration/valkey-benchmark.tcl"
            echo "  'config set primaryauth' read as 'config set masterauth' (Redis 7.0's name)"
        fi
        (cd "$root" && nice -n "$NICE" timeout -k 10 "$LIMIT" ./runtest --single "integration/$kind-benchmark" --clients 1 $tls $RUNTEST_ARGS)
        echo "exit status $?"
    } >"$log" 2>&1 </dev/null
    # one line per test: PASS/FAIL name (runtest colours its output even into a file); a run
    # that failed without naming a failed test (timeout, crash) counts as one failure
    local parsed
    parsed=$(sed -e 's/\x1b\[[0-9;]*m//g' "$log" | sed -n -e 's/^\[ok\]: \(.*\) ([0-9]* ms)$/PASS \1/p' \
           -e 's/^\[err\]: \(.*\) in tests\/.*/FAIL \1/p' \
           -e 's/^\[exception\]: \(.*\)/FAIL \1/p')
    [ -n "$parsed" ] && echo "$parsed"
    if ! grep -q '^exit status 0$' "$log" && ! grep -q '^FAIL ' <<<"$parsed"; then
        echo "FAIL (runtest exited non-zero without a failed test: see the log)"
    fi
}

# run_memtier SUITE TOOL LOG: memtier's tests/run_tests.sh with the RLTest stand-in
run_memtier() {
    local suite=$1 tool=$2 log=$3 src bin root mode=${1#memtier} standalone=1 cluster=0 tls=0
    src=$(src_of "$suite")
    case $mode in -cluster) standalone=0; cluster=1;; -tls) tls=1;; esac
    bin=$(binary_for "$suite" "$tool")
    root="$WORK/$suite-$tool"
    mkdir -p "$root/tmp"
    cp -r "$src/tests" "$root/"
    ln -s "$bin" "$root/memtier_benchmark"
    if [ $tls = 1 ]; then
        rm -rf "$root/tests/tls"
        cp -r "$(certs memtier "$src/tests/gen-test-certs.sh")" "$root/tests/tls"
    fi
    {
        echo "suite $suite, tool $tool: $bin"
        (cd "$root" && PATH="$WORK/bin:$PATH" PYTHONPATH="$HERE/rltest" PYTHONDONTWRITEBYTECODE=1 TMPDIR="$root/tmp" \
            OSS_STANDALONE=$standalone OSS_CLUSTER=$cluster TLS=$tls SHARDS=3 TEST="$TEST" \
            REDIS_SERVER="$REDIS_SERVER" nice -n "$NICE" timeout -k 10 "$LIMIT" bash tests/run_tests.sh)
        echo "exit status $?"
    } >"$log" 2>&1 </dev/null
    sed -n 's/^RESULT \(PASS\|FAIL\) \([^ ]*\) .*/\1 \2/p' "$log"
}

count() { # count FILE: "passed/total" (skips not counted, as the suites' own summaries)
    local p f
    p=$(grep -c '^PASS ' "$1"); f=$(grep -c '^FAIL ' "$1")
    if [ $((p + f)) = 0 ]; then echo "no result (see log)"; else echo "$p/$((p + f))"; fi
}

TAG=""; [ "$TLS_IP_SAN" = 1 ] && TAG=-ipsan; [ "${CHAIN_ONLY:-0}" = 1 ] && TAG="$TAG-chainonly"
declare -A CELL
for suite in $SUITES; do
    for tool in $TOOLS; do
        bin=$(binary_for "$suite" "$tool")
        if [ -z "$bin" ]; then CELL[$suite,$tool]="–"; continue; fi
        log="$OUT/$suite$TAG-$tool.log"; res="$OUT/$suite$TAG-$tool.results"
        echo "== $suite with $tool ($(basename "$bin"))"
        case $suite in
            memtier*) run_memtier "$suite" "$tool" "$log" >"$res";;
            *) run_tcl "$suite" "$tool" "$log" >"$res";;
        esac
        CELL[$suite,$tool]=$(count "$res")
        echo "   ${CELL[$suite,$tool]}; failing: $(grep -c '^FAIL ' "$res"); log: $log"
        rm -rf "$WORK/$suite-$tool"
    done
done

{
    echo "| suite | real tool | tacho-cli |"
    echo "|---|---|---|"
    for suite in $SUITES; do
        echo "| $suite$TAG | ${CELL[$suite,real]:-not run} | ${CELL[$suite,tacho]:-not run} |"
    done
} | tee "$OUT/summary$TAG.md"
if command -v python3 >/dev/null 2>&1; then
    python3 "$HERE/failures.py" "$OUT" ${MEMTIER_SRC:+"$(abspath "$MEMTIER_SRC")/tests"} >"$OUT/failures.md"
fi
echo "results: $OUT (summary$TAG.md, failures.md; per run: SUITE-TOOL.log and SUITE-TOOL.results)"
