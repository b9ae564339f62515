#pragma once
// Pieces of memtier's report formats (memtier_report.h) shared by the files that write them: the
// text tables and HdrHistogram files (memtier_report.cpp) and the --json-out-file blocks
// (memtier_report_json.cpp). Internal to engine/report.
#include <cstdint>
#include <string>

#include "engine/stats/latency_histogram.h"

namespace tacho::engine::memtier_parts {

inline constexpr double kNsPerMs = 1e6;
inline constexpr int kMemtierTicksPerHalfDistance = 10;   // memtier's LATENCY_HDR_GRANULARITY

inline double ms(std::uint64_t ns) { return double(ns) / kNsPerMs; }

// Locale-independent fixed notation, as memtier's printf writes it ("0.279").
std::string fixed(double value, int decimals);
// memtier's JSON percentile key for `percentile` ("p99.90").
std::string truncatedKey(double percentile, int decimals);
// The histogram's value at `percentile`, in milliseconds.
double percentileMs(const LatencyHistogram& h, double percentile);

} // namespace tacho::engine::memtier_parts
