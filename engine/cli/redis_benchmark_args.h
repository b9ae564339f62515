#pragma once
// redis-benchmark's command line (as redis-benchmark 7 accepts it), plus
// Tacho's additions (--duration, --warmup, --json), into a RunConfig.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "engine/cli/shared_options.h"
#include "engine/cli/usage_error.h"
#include "engine/report/live_metrics.h"
#include "engine/report/redis_benchmark_report.h"
#include "engine/config/run_config.h"

namespace tacho::engine {

struct RedisBenchmarkInvocation {
    RunConfig config;
    ReportStyle style = ReportStyle::Full;   // -q → Quiet, --csv → Csv
    int precision = 3;                        // --precision: decimals in latency output
    std::string jsonPath;                     // --json FILE: write the run file there
    bool cleanup = false;                     // --cleanup: remove the tests' keys after the run
    LiveMetricsOptions liveMetrics;           // --prometheus-file, --statsd
    bool showHelp = false;                    // --help
    bool showVersion = false;                 // --version
};

// The files the invocation writes (option, path; empty: not given): the
// options redis_benchmark_options.h marks kRoleOutputFile. What is checked
// before a run, and what an agent refuses to write for an order (issue 29).
std::vector<OutputFile> redisBenchmarkOutputFiles(const RedisBenchmarkInvocation& invocation);

// Parses the arguments that follow "redis-benchmark". Throws UsageError with
// a message naming the option on unknown options, missing or malformed
// values, out-of-range values and impossible combinations. `readStdin` is
// called for -x (read last argument from standard input).
RedisBenchmarkInvocation parseRedisBenchmarkArgs(std::span<const std::string> args,
                                                 const std::function<std::string()>& readStdin = {});

// -x's argument from `in`: at most `maxBytes` (512 MiB, Redis's own limit for
// one bulk string), else UsageError naming -x (issue 15).
inline constexpr std::uint64_t kMaxStdinArgumentBytes = 512ull << 20;
std::string readStdinArgument(std::istream& in, std::uint64_t maxBytes = kMaxStdinArgumentBytes);

std::string redisBenchmarkUsage();   // the --help text

} // namespace tacho::engine
