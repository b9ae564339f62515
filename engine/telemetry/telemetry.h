#pragma once
// What a test's telemetry recorded: the server (plain INFO, once per interval,
// per master) and this machine (engine threads, process, host), as points on
// the test's time axis (seconds since the measured start, as IntervalPoint),
// and the bottleneck verdict drawn from them. Values only; no I/O here.
#include <cstdint>
#include <string>
#include <vector>

namespace tacho::engine {

// One server over one sampling interval. Rates are per second of the
// interval; gauges are the value at its end.
struct ServerPoint {
    double startSeconds = 0;
    double endSeconds = 0;
    double cpuPercent = 0;                // used_cpu_user + used_cpu_sys, % of one core (threads can pass 100)
    double mainThreadCpuPercent = -1;     // used_cpu_*_main_thread; -1: the server does not report it
    // A server on this machine (INFO's process_id, confirmed by its CPU
    // time): its main thread's time runnable but waiting for a CPU, from
    // /proc; -1 elsewhere. CPU + wait is what the thread wanted.
    double mainThreadWaitPercent = -1;
    double opsPerSecond = 0;              // total_commands_processed delta: the server's own count
    std::uint64_t connectedClients = 0;
    std::uint64_t blockedClients = 0;
    std::uint64_t usedMemory = 0;         // bytes
    std::uint64_t usedMemoryRss = 0;      // bytes
    double fragmentation = 0;             // mem_fragmentation_ratio
    double evictedPerSecond = 0;
    double expiredPerSecond = 0;
    double hitsPerSecond = 0;             // keyspace_hits
    double missesPerSecond = 0;
    double netInputBytesPerSecond = 0;
    double netOutputBytesPerSecond = 0;
    double rejectedConnectionsPerSecond = 0;
};

struct ServerTelemetry {
    std::string address;                  // "127.0.0.1:6379"
    std::string unavailable;              // "not available: <the server's own error>"; empty when sampled
    std::vector<ServerPoint> points;
};

// The server's own time per command over the test (INFO all before and
// after, summed over the masters), beside the client's latency.
struct ServerCommandTime {
    std::string command;                  // commandstats name: "set", "config|get"
    std::uint64_t calls = 0;              // calls in the window
    double usecPerCall = 0;               // usec delta / calls delta
    // Redis ≥ 7: INFO latencystats as the server gives it after the test
    // ("p50=1.003,p99=3.007,p99.9=8.031", µs, since start or CONFIG
    // RESETSTAT, first master); empty when not reported.
    std::string latencyPercentiles;
};

// This machine over one sampling interval.
struct ClientPoint {
    double startSeconds = 0;
    double endSeconds = 0;
    std::vector<double> threadCpuPercent;    // per engine thread, % of one core
    std::vector<double> threadWaitPercent;   // per engine thread: runnable but waiting for a CPU, % of the interval
    std::uint64_t rssBytes = 0;              // this process
    double hostBusyPercent = 0;              // all CPUs, steal included, % of the host
    double hostStealPercent = 0;
};

struct ClientTelemetry {
    std::string host;
    int cpuCount = 0;
    std::string unavailable;                 // why not sampled ("" when sampled)
    std::vector<ClientPoint> points;
};

enum class Bottleneck { Unknown, ServerBound, ClientBound, Neither };
const char* bottleneckName(Bottleneck kind);   // "unknown", "server-bound", "client-bound", "neither"
Bottleneck bottleneckFromName(const std::string& name);

// The lines the verdict draws, written with it so a reader can check the call.
struct VerdictThresholds {
    double serverThreadPercent = 90;      // the server's busiest thread, % of a core
    double engineThreadPercent = 90;      // an engine thread's CPU + run-queue wait, % of a core
    double hostBusyPercent = 95;          // the host, steal included: above it, the reason blames the host
    double hostStarvedWaitPercent = 25;   // an engine thread that waited this long for a CPU was held back
    double shareOfSeconds = 0.5;          // "most seconds": at least this share of the judged intervals
    double rateHeldRatio = 0.97;          // open loop: achieved ÷ asked for at least this
};

// What the verdict saw (medians and maxima over the judged intervals).
struct VerdictInputs {
    int intervalsJudged = 0;
    int serverHotIntervals = 0;
    int clientHotIntervals = 0;
    double serverBusiestPercent = -1;     // median of the busiest server thread (CPU + wait where known); -1: no server figures
    double serverWaitPercent = -1;        // of that: median wait for a CPU (server on this machine); -1: unknown
    std::string serverBusiestWhat;        // "main thread of 127.0.0.1:6379", "process of …"
    double engineThreadMaxPercent = -1;   // max CPU of any engine thread
    double engineDemandMaxPercent = -1;   // max CPU + run-queue wait of any engine thread
    double engineWaitMaxPercent = -1;     // max run-queue wait of any engine thread
    double hostBusyMaxPercent = -1;
    double hostStealMaxPercent = -1;
    double targetRate = 0;                // open loop: asked for (0: closed loop)
    double achievedRate = 0;
    int connections = 0;
    int pipeline = 0;
    int threads = 0;
};

struct BottleneckVerdict {
    Bottleneck kind = Bottleneck::Unknown;
    std::string rate;                     // open loop: "held" or "not held"; closed loop: ""
    std::string reason;                   // the numbers behind the call, one line
    std::string advice;                   // what would go faster, when something would
    VerdictThresholds thresholds;
    VerdictInputs inputs;
};

struct TestTelemetry {
    double intervalSeconds = 0;           // 0: not sampled (--no-telemetry, or a file from before telemetry)
    std::vector<ServerTelemetry> servers; // one per master
    ClientTelemetry client;
    // A merged multi-machine run (tacho-cli merge): every load machine's
    // telemetry, in the order of the run's sources; `client` is then the
    // first of them. Empty for a run from one machine.
    std::vector<ClientTelemetry> clients;
    std::vector<ServerCommandTime> commandTimes;
    BottleneckVerdict verdict;
    bool recorded() const { return intervalSeconds > 0; }
};

} // namespace tacho::engine
