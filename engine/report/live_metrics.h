#pragma once
// Live metrics out (issue 19): the running test's figures once a second, as
// a Prometheus text-format file rewritten atomically (for node_exporter's
// textfile collector) and as StatsD gauges over UDP. It lives on the report
// floor: it reads the run floor's snapshots and results and writes files
// through atomic_file.h. It never touches a benchmark connection: it is fed
// on the snapshot callback (the controller's thread, once per tick), does
// arithmetic there, and leaves the file and the datagrams to a thread of its
// own, so a slow disk never delays a tick. Off, nothing of it exists.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/net/socket_address.h"
#include "engine/run/run_controller.h"
#include "engine/run/run_result.h"
#include "engine/telemetry/telemetry.h"

namespace tacho::engine {

struct LiveMetricsOptions {
    std::string prometheusFile;          // --prometheus-file PATH
    std::string statsdHost;              // --statsd HOST:PORT (an IPv6 host in brackets), split
    std::uint16_t statsdPort = 0;
    bool enabled() const { return !prometheusFile.empty() || !statsdHost.empty(); }
};

// What one export shows: the running test so far.
struct LiveMetrics {
    std::string host;                    // this machine
    std::string run;                     // this run: "<UTC start>-<pid>"
    std::string test;
    std::size_t testIndex = 0;
    bool warmup = false;
    bool finished = false;               // the test's final figures (exact counts)
    double elapsedSeconds = 0;           // measured time so far
    std::uint64_t requests = 0;          // measured replies so far
    std::uint64_t errors = 0;            // error replies so far
    double requestsPerSecond = 0;        // over the last window (about a second); finished: the whole test
    std::uint64_t connections = 0;
    double latencyMeanNs = 0;            // over the window; finished: the whole test
    // Highest per-tick percentile in the window; finished: the whole test's.
    std::uint64_t p50Ns = 0, p99Ns = 0, p999Ns = 0, maxNs = 0;
    std::shared_ptr<const TestTelemetry> telemetry;   // null: none yet (or telemetry off)
};

// A Prometheus label value: outside text (test and server names) made
// printable (controls and bad UTF-8 as \xNN, engine/resp/printable_text.h),
// then backslash and double quote escaped, so no value ends a line or a label.
std::string prometheusLabelValue(std::string_view text);

// The text-format exposition (version 0.0.4: what the textfile collector
// parses): HELP and TYPE for every family, one sample per line.
std::string prometheusText(const LiveMetrics& metrics);

// A StatsD name component: anything but letters, digits, '-' and '_' becomes '_'.
std::string statsdComponent(std::string_view text);

// StatsD gauge lines ("tacho.requests_per_second:1234.5|g"), one per line.
std::vector<std::string> statsdLines(const LiveMetrics& metrics, std::string_view prefix = "tacho.");

// Lines packed into datagrams of at most `maxBytes` (a line longer than that
// goes alone), newline-separated as StatsD servers read them.
std::vector<std::string> statsdDatagrams(const std::vector<std::string>& lines, std::size_t maxBytes = 1400);

class LiveMetricsExporter {
public:
    // Checks the file can be written and resolves the StatsD address, then
    // starts the writer thread; nullptr with a message naming the option on
    // failure.
    static std::unique_ptr<LiveMetricsExporter> start(const LiveMetricsOptions& options, std::string* error);
    ~LiveMetricsExporter();   // stop()
    LiveMetricsExporter(const LiveMetricsExporter&) = delete;
    LiveMetricsExporter& operator=(const LiveMetricsExporter&) = delete;

    // The snapshot callback's thread: accumulates the tick, publishes at
    // most once a second (and at a test's first tick).
    void onSnapshot(const IntervalSnapshot& snapshot);
    // The test's final figures (exact counts, whole-test percentiles, its
    // telemetry and verdict), published at once.
    void onTestFinished(const TestResult& test);
    // Writes what is pending, then ends the writer thread; nothing is
    // published after it. Idempotent.
    void stop();
    // The first write or send failure ("--prometheus-file: cannot write …"),
    // empty when none; a failed write does not stop the run.
    std::string firstError() const;

private:
    LiveMetricsExporter(LiveMetricsOptions options, std::vector<SocketAddress> statsd, int socket);
    void publish();
    void writerLoop();

    LiveMetricsOptions m_options;
    std::vector<SocketAddress> m_statsdAddress;   // empty or one
    int m_socket = -1;

    // Accumulation: the controller's thread only.
    LiveMetrics m_metrics;
    std::uint64_t m_lastPublishNs = 0;
    std::uint64_t m_windowRequests = 0;
    double m_windowSeconds = 0;
    double m_windowLatencySum = 0;       // ns × requests
    std::uint64_t m_windowP50 = 0, m_windowP99 = 0, m_windowP999 = 0, m_windowMax = 0;
    bool m_testSeen = false;

    // Hand-over to the writer: the latest export wins.
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_pending = false;
    bool m_stopping = false;
    std::string m_pendingFile;
    std::vector<std::string> m_pendingDatagrams;
    std::string m_firstError;
    std::thread m_writer;
};

} // namespace tacho::engine
