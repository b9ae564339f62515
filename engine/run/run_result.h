#pragma once
// What a run produced. Values; copied or shared as shared_ptr<const RunResult>.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/resp/reply_scanner.h"
#include "engine/config/run_config.h"
#include "engine/stats/client_stats.h"
#include "engine/stats/latency_histogram.h"
#include "engine/telemetry/telemetry.h"

namespace tacho::engine {

enum class RunStatus { Completed, Stopped, Failed };
const char* runStatusName(RunStatus status);   // "completed", "stopped", "failed"

// One command's share of a tick (a test may mix commands, e.g. SET:GET 1:10).
struct CommandInterval {
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    std::uint64_t p50 = 0, p99 = 0, p999 = 0, max = 0;   // ns
    double mean = 0;                                     // ns
};

// One second of one command, or of all of them (memtier's "Time-Serie"):
// the ticks that start in that second, histograms merged at the tick, so
// min, max and percentiles are exact for exactly the replies counted.
struct SecondSummary {
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    std::uint64_t minNs = 0, maxNs = 0;
    double meanNs = 0;
    std::vector<std::uint64_t> percentileNs;   // at TestResult::perSecondPercentiles
};

struct SecondPoint {
    std::vector<SecondSummary> commands;              // by command index
    std::map<std::string, SecondSummary> byName;      // names that several commands share
    SecondSummary total;
};

// One tick of one test. Times in seconds since the test's measured start.
struct IntervalPoint {
    double startSeconds = 0;
    double endSeconds = 0;
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    std::uint64_t reconnects = 0;
    std::uint64_t connectErrors = 0;
    std::uint64_t unanswered = 0;
    std::uint64_t redirects = 0;         // cluster: MOVED + ASK followed
    std::uint64_t connections = 0;       // benchmark connections open at its start (staircase ramp)
    // Latency of replies completed in this interval, ns.
    std::uint64_t p50 = 0, p99 = 0, p999 = 0, max = 0;
    double mean = 0;
    // Per command, in TestResult::commands order (filled by the engine).
    std::vector<CommandInterval> commands;
};

// One command of a test's mix, over the whole test.
struct CommandResult {
    std::string name;                    // "SET", "GET", or the test name for single-command tests
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    LatencyHistogram latency;            // ns; open loop: from the due time
    LatencyHistogram uncorrectedLatency; // ns; open loop only: from the actual send
};

// One cluster node's share of a test.
struct NodeResult {
    std::string address;                 // "127.0.0.1:7000"
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    LatencyHistogram latency;            // ns
};

// A cluster node a test talked to, and how the run learnt of it.
struct ClusterContact {
    std::string address;                 // "127.0.0.1:7000"
    std::string source;                  // "seed", "CLUSTER SHARDS of 127.0.0.1:7000", "MOVED from 127.0.0.1:7001", …
};

// The server's own count, taken from INFO commandstats before and after,
// less what Tacho itself sent of the same commands in that window (its INFO
// probe, each connection's HELLO/AUTH/SELECT), so that benchmarking INFO or
// running with -3, -a or --dbnum compares like with like.
struct ServerCrossCheck {
    bool available = false;              // false when the counts could not be read
    std::string unavailable;             // why not, when not available ("" for old files)
    std::string command;                 // "set"
    std::uint64_t serverCalls = 0;       // calls + rejected_calls delta, Tacho's own calls taken out
    std::uint64_t serverRejectedCalls = 0;   // of serverCalls: rejected, not executed (CLUSTERDOWN, MOVED, NOAUTH)
    std::uint64_t serverFailedCalls = 0;
    std::uint64_t tachoCalls = 0;        // Tacho's own calls of these commands, taken out of the delta
    std::uint64_t clientRequests = 0;    // what we sent and saw answered
    bool agrees() const { return available && serverCalls == clientRequests; }
    std::uint64_t executedCalls() const { return serverCalls - std::min(serverCalls, serverRejectedCalls); }
};

struct TestResult {
    std::string name;
    std::string commandStatName;
    std::uint64_t requests = 0;          // replies received (including error replies)
    std::uint64_t errors = 0;            // error replies
    std::uint64_t hits = 0;              // non-null replies
    std::uint64_t misses = 0;            // top-level null replies
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    std::uint64_t connectErrors = 0;     // failed connects and lost connections
    std::uint64_t reconnects = 0;
    std::uint64_t unanswered = 0;        // sent, then the connection broke (reconnect on error)
    std::uint64_t replyTimeouts = 0;     // connections lost to the reply timeout (their requests are in unanswered)
    std::uint64_t clampedLatencies = 0;  // latencies above the histogram range
    std::map<std::string, std::uint64_t> errorsByKind;   // "WRONGTYPE" → n
    std::vector<std::string> firstErrors;                // first distinct messages (≤ 5)
    double seconds = 0;                  // measured wall time (warm-up excluded)
    double connectSeconds = 0;           // connect phase: all connections opened and set up
    double warmupSeconds = 0;
    std::uint64_t warmupRequests = 0;
    LatencyHistogram latency;            // request latency, ns (open loop: from the due time)
    // Open loop only: latency from the actual send, which hides queueing
    // behind a stalled server (coordinated omission); kept for comparison.
    LatencyHistogram uncorrectedLatency;
    double targetRate = 0;               // open loop: requests/s asked for (0 = closed loop)
    std::uint64_t maxSendLagNs = 0;      // open loop: worst delay of a send behind its due time
    // Time a connection waited inside the client between a reply and its next
    // send (closed loop), ns; mean latency + mean gap ≈ connections ÷ throughput.
    LatencyHistogram clientGap;
    std::vector<IntervalPoint> intervals;
    // Whole seconds of measured time (index = second), kept in memory for
    // memtier's JSON; not written to run files.
    std::vector<SecondPoint> perSecond;
    std::vector<double> perSecondPercentiles;
    // Per command of the mix; one entry (named like the test) for
    // single-command tests such as redis-benchmark's.
    std::vector<CommandResult> commands;
    // Cluster runs: per node, and how the topology was followed.
    std::vector<NodeResult> nodes;
    std::uint64_t moved = 0;
    std::uint64_t asked = 0;
    std::uint64_t retried = 0;
    std::uint64_t topologyRefreshes = 0;
    std::uint64_t redirectFailures = 0;  // requests that got kMaxRedirects redirects and then failed
    // SCAN iteration (memtier's --scan-incremental-iteration): keys the
    // measured replies returned, and iterations they completed (cursor 0).
    std::uint64_t scanKeys = 0;
    std::uint64_t scanPasses = 0;
    // RunConfig::perClientStats: each client's own counts, by client index.
    std::vector<ClientStats> clientStats;
    std::vector<ClusterContact> clusterNodes;   // every node talked to: seed first, then as learnt
    std::string clusterWait;             // what the test waited for before traffic (empty: nothing)
    ServerCrossCheck crossCheck;
    // The server and this machine per interval, and the bottleneck verdict
    // (issue 19); not recorded() with --no-telemetry and in older files.
    TestTelemetry telemetry;
    RunStatus status = RunStatus::Completed;
    std::string failure;                 // why, when status is Failed
    std::string failureReply;            // the server's error reply behind it, if one (printable)
    // The server closed or reset a connection it had accepted, if that was it:
    // the cause alone ("the server closed the connection"), printable.
    std::string failureConnectionError;

    double requestsPerSecond() const { return seconds > 0 ? requests / seconds : 0; }
};

// What the target answered to one command of the capability probe
// (engine/run/target_capabilities.h), asked on the control connection
// before any benchmark traffic.
enum class CapabilityVerdict {
    Allowed,     // an answer: not an error, or the command's own (MOVED, "cluster support disabled")
    Refused,     // an error reply: unknown command, NOPERM, renamed away, …
    Closed,      // the server closed the connection instead (what proxies such as twemproxy do)
    NoAnswer,    // no reply within the connect timeout
};
const char* capabilityVerdictName(CapabilityVerdict verdict);   // "allowed", "refused", "closed", "no answer"
std::optional<CapabilityVerdict> capabilityVerdictFromName(std::string_view name);

struct Capability {
    std::string probe;                   // what was asked, without arguments: "INFO server", "SCAN", "HELLO 3"
    CapabilityVerdict verdict = CapabilityVerdict::Allowed;
    std::string reply;                   // an error reply's text as the server sent it, or why no answer came (escape when printing)
};

struct Environment {
    std::string toolVersion;
    std::string hostName;
    std::string cpuModel;
    int cpuCount = 0;
    std::string startedAtUtc;                       // ISO 8601
    std::string ioTransport;                        // the workers' transport: "io_uring" or "epoll"
    std::map<std::string, std::string> serverInfo;  // INFO server fields
    std::map<std::string, std::string> serverConfig; // CONFIG GET save / appendonly
    std::vector<Capability> capabilities;           // in the order asked; empty for runs made before they were probed
    // Runs made as repeats of one setup ("repeat N times") share the group;
    // their spread is the measurement's noise (comparison.h). Index 1-based.
    std::string repeatGroup;
    int repeatIndex = 0;
    int repeatCount = 0;
};

// One server the clean-up visited (the server, or one master of a cluster).
struct CleanupNode {
    std::string address;                 // "127.0.0.1:7000"
    std::uint64_t removed = 0;           // keys UNLINK removed there
};

// The optional clean-up after a run (--cleanup): the keys matching the run's
// key patterns, found with SCAN and removed with UNLINK.
struct CleanupResult {
    std::vector<std::string> patterns;   // the key names, described ("memtier-<0..10000000>"); empty when the tests wrote no keys (a read-only run)
    std::uint64_t removed = 0;           // keys removed, all nodes together
    std::vector<CleanupNode> nodes;      // in the order visited; a failure leaves the rest out
    std::string error;                   // empty when every pattern was scanned to the end everywhere
    bool completed() const { return error.empty(); }
};

struct RunResult {
    RunConfig config;                    // password must be cleared before storing
    Environment environment;
    std::vector<TestResult> tests;
    RunStatus status = RunStatus::Completed;
    std::string failure;
    std::string failureReply;            // as TestResult::failureReply
    std::string failureConnectionError;  // as TestResult::failureConnectionError
    double totalSeconds = 0;
    std::optional<CleanupResult> cleanup;   // only when a clean-up ran
};

} // namespace tacho::engine
