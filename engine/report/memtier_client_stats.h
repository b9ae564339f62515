#pragma once
// memtier_benchmark's --client-stats files: one CSV per client (connection),
// named PREFIX-<run>-<thread>-<client>.csv (run from 1; thread and the
// client's place in its thread from 0, as memtier numbers them), holding
// "Per-Second Benchmark Data" (or "… Arbitrary Commands Data" with
// --command) and a "Full-Test <command> Latency" percentile table per
// command; cluster runs add "Per-Second Benchmark Cluster Data".
//
// memtier's formats are kept, quirks included: a per-second average latency
// is in seconds with six decimals (microseconds / 10^6), percentile tables
// are in milliseconds; rows exist for second 0 and each second with replies;
// the arbitrary-command rows end with a comma.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/stats/client_stats.h"

namespace tacho::engine {

std::string memtierClientStatsFileName(const std::string& prefix, std::size_t run, std::size_t clientIndex,
                                       std::size_t clientsPerThread);

// `commandNames` by command index. SET/GET layout: index 0 is SET, 1 GET (or
// MGET, counted as memtier counts --multi-key-get: in the GET columns).
std::string memtierClientStatsCsv(const ClientStats& stats, const std::vector<std::string>& commandNames,
                                  bool setGetLayout, bool cluster);

} // namespace tacho::engine
