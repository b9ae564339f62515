#!/usr/bin/env bash
# bench/telemetry_cost.sh - what telemetry (issue 19) costs a run: throughput with telemetry on
# (default, one plain INFO a second on its own connection, /proc reads) against --no-telemetry;
# bench/feature_cost.sh says how.
#
#   bench/telemetry_cost.sh                      5 s per run, 5 pairs, -c 50 -P 16 GET
#   SECS=3 REPS=3 bench/telemetry_cost.sh
#   TACHO_CLI=build/dev/app/tacho-cli bench/telemetry_cost.sh   (no build step)
# Target (issue 19): telemetry costs less than 1% of throughput. Exit 1 when it misses.
exec "$(dirname "${BASH_SOURCE[0]}")/feature_cost.sh" telemetry
