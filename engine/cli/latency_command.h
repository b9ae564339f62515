#pragma once
// `tacho-cli latency …`: redis-cli --latency / --latency-history on the
// LatencyMonitor, printing redis-cli's lines.
//
// Output, by where standard output goes:
//   terminal, no --history: one line rewritten in place after every sample
//       (redis-cli's "\x1b[0G\x1b[2K" prefix), ended with a newline at exit;
//   terminal, --history: the same, and each window's line is ended with
//       " -- 15.01 seconds range" and a newline when the window closes;
//   pipe or file (or --raw), no --history: one line when the run ends
//       (--duration, Ctrl+C), so a script reads exactly one result;
//   pipe or file (or --raw), --history: one line per window.
// At exit a history window still open is printed too, with its real range.
// --raw prints redis-cli's raw fields "MIN MAX AVG SAMPLES" instead.
// Exit status: 0 ended by --duration or Ctrl+C, 1 connection or server
// error (message on standard error), 2 usage error.
#include <functional>
#include <iosfwd>
#include <span>
#include <string>

#include "engine/cli/usage_error.h"
#include "engine/run/latency_monitor.h"
#include "engine/config/run_config.h"

namespace tacho::engine {

struct LatencyInvocation {
    RunConfig target;
    LatencyMonitorOptions monitor;
    bool raw = false;        // --raw
    bool showHelp = false;   // --help
};

// Parses the arguments after "latency". Throws UsageError naming the option.
LatencyInvocation parseLatencyArgs(std::span<const std::string> args);
std::string latencyUsage();

// redis-cli's line: "min: 0, max: 18, avg: 0.40 (4591 samples)". min and max
// are whole milliseconds (rounded to nearest), as redis-cli prints them; avg
// has two decimals. raw: "0 18 0.40 4591".
std::string formatLatencyLine(const LatencyWindowStats& stats, bool raw = false);
// " -- 15.01 seconds range"
std::string formatLatencyRange(double seconds);

struct LatencyCommandIo {
    std::ostream* out = nullptr;
    std::ostream* err = nullptr;
    bool interactive = false;   // standard output is a terminal
    // Called with the monitor before it runs (and with nullptr after), so a
    // signal handler can call requestStop().
    std::function<void(LatencyMonitor*)> onMonitor;
};

int runLatencyCommand(std::span<const std::string> args, const LatencyCommandIo& io);

} // namespace tacho::engine
