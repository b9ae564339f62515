#pragma once
// Runs a RunConfig: for each test, spawns the worker threads, releases them
// together once every connection is set up, gathers their interval data
// every tick into immutable snapshots, and assembles the RunResult.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/net/io_loop.h"
#include "engine/config/run_config.h"
#include "engine/run/run_result.h"
#include "engine/stats/latency_spectrum.h"

namespace tacho::engine {

// Published once per tick; immutable once handed out.
struct IntervalSnapshot {
    std::size_t testIndex = 0;
    std::string testName;
    bool warmup = false;                 // still inside the warm-up
    IntervalPoint point;                 // this tick
    std::uint64_t requestsSoFar = 0;     // measured, this test
    double elapsedSeconds = 0;           // since the measured start
    double overallMeanNs = 0;            // this test so far
    double progress = -1;                // 0..1, or -1 when unbounded
    std::string lastError;               // most recent error reply this tick
    // The test so far (measured, all its commands together) as a percentile
    // spectrum, about 10 points per decade of 1/(1-p): one pass over the
    // histogram per tick. Empty during the warm-up.
    std::vector<SpectrumSample> spectrum;
    // The test's telemetry so far (points up to the latest sample, the
    // verdict judged over them with the rate so far); the same object until
    // the next sample; null with telemetry off or before the first sample.
    std::shared_ptr<const TestTelemetry> telemetry;
};

struct IntervalStats;

// One tick's measured counts as the controller took them from the workers
// (warm-up excluded): the ticks of a test add up to its totals exactly. The
// last call of each test has testEnded set (its stats may be empty).
struct MeasuredTick {
    std::size_t testIndex = 0;
    const std::string* testName = nullptr;
    const IntervalStats* stats = nullptr;
    double startSeconds = 0;             // since the test's measured start
    double endSeconds = 0;
    bool testEnded = false;
    // The test's commands, in IntervalStats::commands order (may be shorter:
    // a command past its end is named like the test).
    const std::vector<std::string>* commandNames = nullptr;
};

class RunController {
public:
    using SnapshotCallback = std::function<void(std::shared_ptr<const IntervalSnapshot>)>;
    // Receives the run's environment too (filled by the probe before the first test).
    using TestCallback = std::function<void(const TestResult&, const Environment&)>;
    // One line worth showing the user now (e.g. waiting for a cluster to be ready).
    using NoticeCallback = std::function<void(const std::string&)>;
    using TickCallback = std::function<void(const MeasuredTick&)>;

    explicit RunController(RunConfig config);

    // Called on the thread that runs run().
    void onSnapshot(SnapshotCallback callback) { m_onSnapshot = std::move(callback); }
    void onTestFinished(TestCallback callback) { m_onTest = std::move(callback); }
    void onNotice(NoticeCallback callback) { m_onNotice = std::move(callback); }
    // Beside the snapshots (which carry percentiles, not histograms): for a
    // consumer that forwards the raw ticks elsewhere (an agent's streamed
    // intervals). Called on the run() thread; keep it quick.
    void onMeasuredTick(TickCallback callback) { m_onTick = std::move(callback); }

    // Blocking. Never throws for server or network problems: they end up in
    // the result's status and failure.
    RunResult run();

    // Any thread, async-signal-safe (atomic stores only).
    void requestStop() { m_stop.store(true, std::memory_order_relaxed); }
    void requestCancel() { m_cancel.store(true, std::memory_order_relaxed); }

private:
    TestResult runTest(std::size_t index, const TestSpec& spec, class SyncClient* probe);
    friend class TestRun;   // one test, step by step (test_run.h): reads the settings, callbacks and flags below

    RunConfig m_config;
    IoBackend m_io = IoBackend::Auto;   // TACHO_IO
    std::string m_transport;            // what the last test's workers ran on
    std::vector<Capability> m_capabilities;   // what the target allowed the control connection
    SnapshotCallback m_onSnapshot;
    TestCallback m_onTest;
    NoticeCallback m_onNotice;
    TickCallback m_onTick;
    std::atomic<bool> m_stop { false };
    std::atomic<bool> m_cancel { false };
};

} // namespace tacho::engine
