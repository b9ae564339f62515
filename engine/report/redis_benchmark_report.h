#pragma once
// redis-benchmark's output formats, reproduced from results.
#include <string>

#include "engine/run/run_result.h"

namespace tacho::engine {

enum class ReportStyle { Full, Quiet, Csv };

// The block redis-benchmark prints for one finished test:
//  Full:  "====== SET ======" header (requests, seconds, clients, payload,
//         keep alive, host configuration, multi-thread), "Latency by
//         percentile distribution:", "Cumulative distribution of latencies:",
//         "Summary:" with throughput and avg/min/p50/p95/p99/max; then Tacho's
//         lines: p99.9, client gap, errors by kind, and the server cross-check.
//  Quiet: "SET: 12345.67 requests per second, p50=0.123 msec"
//  Csv:   one row "\"SET\",\"12345.67\",…" matching csvHeader().
std::string formatTestReport(const TestResult& test, const RunConfig& config,
                             const Environment& environment, ReportStyle style, int precision = 3);

// Redis 7's CSV header line (with trailing newline).
std::string csvHeader();

// "server cross-check: INFO commandstats agrees (set: 100000 calls)" or the
// disagreement, with trailing newline.
std::string formatCrossCheck(const TestResult& test);

// One live progress line (no newline, no carriage return):
// "SET: rps=123456.0 (overall: 120000.0) avg_msec=0.245 (overall: 0.251)".
std::string formatProgress(const std::string& testName, double intervalRps, double overallRps,
                           double intervalAvgMs, double overallAvgMs);

} // namespace tacho::engine
