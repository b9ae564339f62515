#pragma once
// Sweep tables: the same workload run at a list of settings (connections
// 1000 / 3000 / 10000, TLS off and on, …), one row per setting and test,
// with QPS, average, p99 and p99.9 latency — the layout of published cloud
// benchmark tables — as aligned text and as CSV. Values; no I/O.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/run/run_result.h"

namespace tacho::engine {

struct SweepRow {
    std::vector<std::string> settings;   // one cell per SweepTable::settingColumns
    std::string test;                    // test name (shown when the table has several)
    double qps = 0;                      // replies per second, measured
    double avgMs = 0, p50Ms = 0, p99Ms = 0, p999Ms = 0, maxMs = 0;
    std::uint64_t requests = 0;          // replies, measured (warm-up excluded)
    std::uint64_t warmupRequests = 0;
    std::uint64_t errors = 0;            // error replies
    std::uint64_t connectErrors = 0;
    double seconds = 0;
    ServerCrossCheck crossCheck;         // the server's count (warm-up included on both sides)
    RunStatus status = RunStatus::Completed;
    std::string failure;
};

struct SweepTable {
    std::vector<std::string> settingColumns;   // "Connections", "TLS", …
    std::vector<SweepRow> rows;
    // Shows the Test column (several tests per setting).
    bool showTest = false;
};

// A row from one test of one setting.
SweepRow sweepRowFromTest(std::vector<std::string> settings, const TestResult& test);

// Aligned columns: the settings, [Test,] QPS, Average Latency (ms), p99 and
// p99.9 Latency (ms), then Errors and the server check. QPS with thousands
// separators and two decimals, latencies with three (as in the seed tables).
std::string formatSweepTable(const SweepTable& table);

// CSV with a header (RFC 4180 quoting, "\n" line ends): the setting columns (lower case, spaces as
// '_'), [test,] qps, avg_ms, p50_ms, p99_ms, p999_ms, max_ms, requests,
// warmup_requests, errors, connect_errors, seconds, server_calls,
// server_agrees, status, failure. Numbers in plain decimal ("." point).
std::string sweepTableCsv(const SweepTable& table);

} // namespace tacho::engine
