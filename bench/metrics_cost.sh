#!/usr/bin/env bash
# bench/metrics_cost.sh - what live metrics (issue 32) cost a run: throughput with
# --prometheus-file and --statsd against without them, telemetry on in both;
# bench/feature_cost.sh says how.
#
#   bench/metrics_cost.sh                        5 s per run, 5 pairs, -c 50 -P 16 GET
#   SECS=3 REPS=3 bench/metrics_cost.sh
#   TACHO_CLI=build/release/app/tacho-cli bench/metrics_cost.sh   (no build step)
# Target (issue 32): live metrics cost less than 1% of throughput. Exit 1 when they miss.
exec "$(dirname "${BASH_SOURCE[0]}")/feature_cost.sh" metrics
