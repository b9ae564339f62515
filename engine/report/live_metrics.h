#pragma once
// Live metrics out (issues 19, 32): the run's figures once a second, as a
// Prometheus text-format file rewritten atomically (for node_exporter's
// textfile collector) and as StatsD lines over UDP; what they hold and their
// rules are in live_metrics_format.h. It lives on the report floor: it reads
// the run floor's ticks, snapshots and results and writes files through
// atomic_file.h. It never touches a benchmark connection: it is fed on the
// controller's callbacks (the run's thread, once per tick), adds the tick's
// counts and histograms there under its lock, and leaves the arithmetic of a
// publication, the file and the datagrams to a thread of its own, which
// publishes at every whole second of the wall clock (one write per second, so
// a 1 s scrape never sees the same file twice) and at once when a test ends.
// Off, it is an inert object: no thread, no socket, every call returns at once.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/net/socket_address.h"
#include "engine/report/live_metrics_format.h"
#include "engine/run/run_controller.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

struct LiveMetricsOptions {
    std::string prometheusFile;          // --prometheus-file PATH
    std::string statsdHost;              // --statsd [SCHEME://]HOST:PORT (an IPv6 host in brackets), split
    std::uint16_t statsdPort = 0;
    StatsdTags statsdTags = StatsdTags::InName;   // the scheme: statsd://, dogstatsd://, graphite://
    bool enabled() const { return !prometheusFile.empty() || !statsdHost.empty(); }
};

class LiveMetricsExporter {
public:
    // Checks the file can be written and resolves the StatsD address, then
    // starts the writer thread, which publishes the run at once; nullptr with
    // a message naming the option on failure. Options not enabled(): the
    // inert exporter.
    static std::unique_ptr<LiveMetricsExporter> start(const LiveMetricsOptions& options, std::string* error);
    ~LiveMetricsExporter();   // stop()
    LiveMetricsExporter(const LiveMetricsExporter&) = delete;
    LiveMetricsExporter& operator=(const LiveMetricsExporter&) = delete;

    // Before the controller runs: feeds onMeasuredTick from it (nothing when inert).
    void attach(RunController& controller);
    // The run's thread. A measured tick: its counts and histograms, per command.
    void onMeasuredTick(const MeasuredTick& tick);
    // A snapshot: warm-up, connections, the telemetry and verdict so far.
    void onSnapshot(const IntervalSnapshot& snapshot);
    // The test's final figures (the run file's), published before it returns
    // (it waits for the writer at most 2 s): the next test starts after them.
    void onTestFinished(const TestResult& test);
    // Publishes the run as ended (tacho_run_active 0), then ends the writer
    // thread; nothing is published after it. Idempotent.
    void stop();
    // The first write or send failure ("--prometheus-file: cannot write …"),
    // empty when none; a failed write does not stop the run.
    std::string firstError() const;
    // How many publications were made (tests, benchmarks).
    std::uint64_t publications() const;

private:
    // The running test's histograms: the test so far and the publish interval.
    struct RunningCommand {
        LatencyHistogram total;
        LatencyHistogram window;
        std::uint64_t windowRequests = 0;
    };

    LiveMetricsExporter(LiveMetricsOptions options, std::vector<SocketAddress> statsd, int socket);
    TestMetrics& openTest(const std::string& name);   // under m_mutex
    LiveMetrics collect(bool last);                   // under m_mutex: the publication, windows restarted
    void publish(const LiveMetrics& metrics);         // the writer thread, unlocked
    void writerLoop();

    LiveMetricsOptions m_options;
    bool m_enabled = false;
    std::vector<SocketAddress> m_statsdAddress;   // empty or one
    int m_socket = -1;
    StatsdProgress m_statsdProgress;              // the writer thread only

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;               // the writer: publish now, or stop
    std::condition_variable m_published;          // onTestFinished: the publication is out
    LiveMetrics m_metrics;
    bool m_testOpen = false;                      // m_metrics.tests.back() is running
    std::vector<RunningCommand> m_running;
    double m_windowSeconds = 0;                   // measured time in the publish interval
    bool m_publishNow = false;
    bool m_stopping = false;
    std::uint64_t m_publications = 0;
    std::size_t m_finishedPublished = 0;          // tests whose final figures a completed publication held
    std::string m_firstError;
    std::thread m_writer;
};

} // namespace tacho::engine
