#pragma once
// Results of the peer tools, opened as runs for comparison (and reports):
//
//   redis-benchmark --csv, the old two-column form (Redis ≤ 6.0):
//       "SET","41562.76"
//     → one test per line with its requests per second, nothing else.
//   redis-benchmark --csv, Redis 7's form with a header:
//       "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms",…
//     → requests per second and the latency columns present (p99.9 and the
//       distribution are not in it).
//   memtier_benchmark --json-out-file (memtier's own and Tacho's `memtier`):
//     → one test per run block ("ALL STATS" → "RUN #1"; with
//       --print-all-runs "RUN #k RESULTS" → "RUN #k"; otherwise the
//       "AGGREGATED AVERAGE RESULTS (N runs)" block), one command per row
//       (Sets → SET, Gets → GET, Mgets → MGET, …), the configuration
//       (connections = clients × threads, pipeline, data size, TLS, ratio),
//       the per-second "Time-Serie" as intervals, and the latency histogram
//       from "Histogram log format" (HdrHistogram, exact) or, in files
//       without it, rebuilt from the percentile steps (marked approximate).
//
// What a source does not record is listed in LoadedRun::lacks and flagged
// in LoadedRun::known / LoadedTest, so comparisons print "n/a" and warn,
// rather than compare against made-up zeros.
#include <string>
#include <string_view>

#include "engine/report/run_file_reader.h"

namespace tacho::engine {

enum class RunFileKind {
    TachoRun,               // {"format": "tacho-run/…", …}
    RedisBenchmarkCsv,      // "SET","41562.76"
    RedisBenchmarkCsvV7,    // "test","rps",… header
    MemtierJson,            // {"configuration": …, "ALL STATS": …}
    Unknown,
};

// Guesses the kind from the text (JSON keys, CSV shape); Unknown otherwise.
RunFileKind sniffRunFile(std::string_view text);
const char* runFileKindName(RunFileKind kind);   // "tacho-run/1", "redis-benchmark --csv", …

// Each returns false with a message naming `name` and the line or field.
bool importRedisBenchmarkCsv(std::string_view text, const std::string& name, LoadedRun& out, std::string* error);
bool importMemtierJson(std::string_view text, const std::string& name, LoadedRun& out, std::string* error);

// Any of the above, by sniffing; `name` for messages and the label.
bool loadRunFromText(std::string_view text, const std::string& name, LoadedRun& out, std::string* error);
// Reads the file at `path` and loads it by sniffing.
bool loadRun(const std::string& path, LoadedRun& out, std::string* error);

} // namespace tacho::engine
