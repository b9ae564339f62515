#pragma once
// What a test's telemetry recorded: the server (plain INFO, once per interval,
// per master) and this machine (engine threads, process, host), as points on
// the test's time axis (seconds since the measured start, as IntervalPoint),
// and the bottleneck verdict drawn from them. Values only; no I/O here.
#include <cstdint>
#include <string>
#include <vector>

namespace tacho::engine {

// A reading is a figure or unknown. kUnknown (-1) is what a reading holds
// when it was not read: a field the server's INFO lacks (a managed service
// without "# CPU", an old server, a proxy), a counter that went backwards (a
// restart) or a /proc file this machine could not read. It is never 0: 0 is
// an idle server or thread, and a verdict or a metric would take it for one.
constexpr double kUnknown = -1;
inline bool known(double reading) { return reading >= 0; }

// One server over one sampling interval. Rates are per second of the
// interval; gauges are the value at its end. Every figure: kUnknown when
// not read.
struct ServerPoint {
    double startSeconds = 0;
    double endSeconds = 0;
    double cpuPercent = kUnknown;            // used_cpu_user + used_cpu_sys, % of one core (threads can pass 100)
    double mainThreadCpuPercent = kUnknown;  // used_cpu_*_main_thread (Redis >= 6.2)
    // A server on this machine (INFO's process_id, confirmed by its CPU
    // time): its main thread's time runnable but waiting for a CPU, from
    // /proc; unknown elsewhere. CPU + wait is what the thread wanted.
    double mainThreadWaitPercent = kUnknown;
    double opsPerSecond = kUnknown;          // total_commands_processed delta: the server's own count
    double connectedClients = kUnknown;
    double blockedClients = kUnknown;
    double usedMemory = kUnknown;            // bytes
    double usedMemoryRss = kUnknown;         // bytes
    double fragmentation = kUnknown;         // mem_fragmentation_ratio
    double evictedPerSecond = kUnknown;
    double expiredPerSecond = kUnknown;
    double hitsPerSecond = kUnknown;         // keyspace_hits
    double missesPerSecond = kUnknown;
    double netInputBytesPerSecond = kUnknown;
    double netOutputBytesPerSecond = kUnknown;
    double rejectedConnectionsPerSecond = kUnknown;
};

// A reading of a point, by the name the run file gives it.
template <class Point>
struct ReadingField {
    const char* name;
    double Point::*member;
};
using ServerReadingField = ReadingField<ServerPoint>;

// Every reading of a ServerPoint: the one list the run file's writer and
// reader and the tests walk, so a new reading is written, read and checked
// for "unknown" by adding it here.
inline constexpr ServerReadingField kServerReadingFields[] = {
    { "cpuPercent", &ServerPoint::cpuPercent },
    { "mainThreadCpuPercent", &ServerPoint::mainThreadCpuPercent },
    { "mainThreadWaitPercent", &ServerPoint::mainThreadWaitPercent },
    { "opsPerSecond", &ServerPoint::opsPerSecond },
    { "connectedClients", &ServerPoint::connectedClients },
    { "blockedClients", &ServerPoint::blockedClients },
    { "usedMemory", &ServerPoint::usedMemory },
    { "usedMemoryRss", &ServerPoint::usedMemoryRss },
    { "fragmentation", &ServerPoint::fragmentation },
    { "evictedPerSecond", &ServerPoint::evictedPerSecond },
    { "expiredPerSecond", &ServerPoint::expiredPerSecond },
    { "hitsPerSecond", &ServerPoint::hitsPerSecond },
    { "missesPerSecond", &ServerPoint::missesPerSecond },
    { "netInputBytesPerSecond", &ServerPoint::netInputBytesPerSecond },
    { "netOutputBytesPerSecond", &ServerPoint::netOutputBytesPerSecond },
    { "rejectedConnectionsPerSecond", &ServerPoint::rejectedConnectionsPerSecond },
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

// This machine over one sampling interval; every figure kUnknown when not
// read (a thread's entry too: the vectors keep one entry per engine thread).
struct ClientPoint {
    double startSeconds = 0;
    double endSeconds = 0;
    std::vector<double> threadCpuPercent;    // per engine thread, % of one core
    std::vector<double> threadWaitPercent;   // per engine thread: runnable but waiting for a CPU, % of the interval (schedstat)
    double rssBytes = kUnknown;              // this process
    double hostBusyPercent = kUnknown;       // all CPUs, steal included, % of the host
    double hostStealPercent = kUnknown;
};

// Every scalar reading of a ClientPoint, as kServerReadingFields.
using ClientReadingField = ReadingField<ClientPoint>;
inline constexpr ClientReadingField kClientReadingFields[] = {
    { "rssBytes", &ClientPoint::rssBytes },
    { "hostBusyPercent", &ClientPoint::hostBusyPercent },
    { "hostStealPercent", &ClientPoint::hostStealPercent },
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
