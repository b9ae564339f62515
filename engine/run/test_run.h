#pragma once
// One test of a run, step by step (RunController::runTest): where the
// traffic goes, the server's counts before, the workers planned, connected
// and started, the measured ticks (series, live snapshots, telemetry), the
// totals, and the server's counts after. Run on the controller's thread;
// only the workers run elsewhere.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/telemetry/readings.h"
#include "engine/run/interval_series.h"
#include "engine/run/run_controller.h"
#include "engine/run/server_counts.h"
#include "engine/run/worker.h"
#include "engine/stats/interval_stats.h"
#include "engine/telemetry/bottleneck.h"

namespace tacho::engine {

class TelemetrySampler;
class SyncClient;

class TestRun {
public:
    TestRun(RunController& controller, std::size_t index, const TestSpec& spec, SyncClient* probe);
    ~TestRun();
    TestRun(const TestRun&) = delete;
    TestRun& operator=(const TestRun&) = delete;

    TestResult run();

private:
    // Each step returns false when the test ends there (status and failure set).
    bool locateTargets();
    bool prepareTransport();
    void startWorkers();
    bool connectWorkers();
    void startTelemetry();
    void measure();
    std::shared_ptr<IntervalSnapshot> snapshotOf(const IntervalStats& interval, bool warmup, double elapsed);
    void collectRest();
    void fillCounters();
    void fillWorkerFacts();
    void fillCrossCheckAfter();
    void fillTelemetry();

    bool fail(std::string failure);
    void stopWorkers(bool cancel);
    void joinWorkers();
    std::uint64_t openConnections() const;
    VerdictContext verdictContext(double achievedRate) const;

    RunController& m_controller;
    const RunConfig& m_config;
    const std::size_t m_index;
    const TestSpec& m_spec;
    SyncClient* const m_probe;
    TestResult m_test;

    std::shared_ptr<const RequestGeneratorFactory> m_generators;
    std::vector<std::string> m_commandNames;
    std::size_t m_commandCount = 1;
    std::shared_ptr<const SlotMap> m_slots;   // null: one server, not a cluster
    std::vector<Endpoint> m_targets;          // the server, or every node of the cluster
    std::vector<SocketAddress> m_addresses;
    std::vector<std::string> m_hosts;
    std::shared_ptr<TlsContext> m_tls;
    std::unique_ptr<ServerCounts> m_counts;
    std::optional<CommandCounts> m_countsBefore;
    std::uint64_t m_infosBefore = 0;
    std::string m_countsBeforeError;

    int m_connections = 1;
    int m_workerCount = 1;
    bool m_countLimited = false;
    CompletionSignal m_completion;
    std::vector<std::unique_ptr<Worker>> m_workers;
    std::vector<std::thread> m_threads;
    std::vector<EngineThread> m_engineThreads;
    std::unique_ptr<TelemetrySampler> m_sampler;

    // The measured part: from the end of the warm-up.
    std::uint64_t m_warmupEndNs = 0;
    IntervalStats m_total;
    std::unique_ptr<IntervalSeriesBuilder> m_series;   // the test's intervals
    std::unique_ptr<SecondSeriesBuilder> m_seconds;    // and its seconds
    std::uint64_t m_openAtIntervalStart = 0;
    double m_lastEnd = 0;
    bool m_cancelled = false;
    std::shared_ptr<const TestTelemetry> m_liveTelemetry;   // rebuilt when the sampler read again
    std::uint64_t m_liveSamples = 0;
    LatencyHistogram m_spectrumScratch;   // the commands merged, for the snapshots' spectrum
};

} // namespace tacho::engine
