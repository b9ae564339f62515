#pragma once
// Capacity search: the highest throughput a server sustains while a latency
// objective holds ("max ops/s with average latency <= 1 ms"), found by
// varying one dimension of a workload — the open-loop target rate
// (preferred), connections, client threads or pipeline depth.
//
// The search steps up geometrically from `from` until a step fails (the
// objective is crossed, the server answers with errors, an open-loop step
// falls short of its target rate, or the run fails), then bisects between
// the last step that met the objective and the first that did not until the
// gap is within the resolution. A step whose throughput is unsteady (its two
// halves differ by more than the noise tolerance plus what tick sampling
// explains) is run again until a run is steady or two runs agree within the
// tolerance (at most maxAttempts runs; then it is judged on the median run
// and flagged noisy).
//
// The logic is pure: it drives a CapacityStepRunner, which runs the workload
// once at a setting. RunControllerStepRunner runs it on the engine; unit
// tests drive the search with a synthetic latency model.
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config/run_config.h"
#include "engine/run/run_controller.h"
#include "engine/run/run_result.h"
#include "engine/stats/latency_histogram.h"

namespace tacho::engine {

enum class CapacityDimension { Rate, Connections, Threads, Pipeline };

// "rate", "connections", "threads", "pipeline".
const char* capacityDimensionName(CapacityDimension dimension);
// Accepts the names above; false for anything else.
bool parseCapacityDimension(std::string_view text, CapacityDimension* out);
// Connections, threads and pipeline take whole numbers; the rate does not.
bool capacityDimensionIsInteger(CapacityDimension dimension);
// "rate 12,500/s", "64 connections", "4 threads", "pipeline 16".
std::string capacitySettingText(CapacityDimension dimension, double setting);

// "avg <= 1 ms" or "pNN <= limit". The statistic is read from a step's
// latency histogram (open loop: latency from the due time).
struct LatencyObjective {
    bool mean = true;          // the average; otherwise `percentile`
    double percentile = 0;     // 0 < p <= 100 when !mean (100 = the maximum)
    double limitNs = 1e6;      // the statistic must be <= this

    double valueNs(const LatencyHistogram& latency) const;
    std::string statisticName() const;   // "avg", "p99", "p99.9"
    std::string describe() const;        // "avg <= 1 ms", "p99.9 <= 500 us"
};

// Parses "avg<=1ms", "p99<=2ms", "p99.9 <= 500us", "mean<=0.5ms" (avg,
// average and mean are the same; units ns, us, µs, ms, s; spaces allowed).
// On failure returns false with a specific message in *error (no option
// name in front: the caller adds it).
bool parseLatencyObjective(std::string_view text, LatencyObjective* out, std::string* error);

struct CapacitySearchOptions {
    CapacityDimension dimension = CapacityDimension::Rate;
    double from = 0;                 // first setting (> 0)
    double to = 0;                   // last setting (>= from)
    LatencyObjective objective;      // default: avg <= 1 ms
    double stepSeconds = 3;          // measured time per step
    double warmupSeconds = 1;        // per step, before measuring (excluded)
    double growthFactor = 2;         // step-up multiplier (> 1)
    // Bisection ends when the gap between the best passing and the first
    // failing setting is <= resolution × the passing one (whole-number
    // dimensions: when they are adjacent).
    double resolution = 0.05;
    double minAchievedRatio = 0.95;  // open loop: achieved / target below this fails the step
    double noiseTolerance = 0.10;    // relative throughput difference counted as noise
    int maxAttempts = 3;             // runs of one step while it stays noisy
    std::uint64_t maxErrors = 0;     // error replies a step may have and still pass
    int maxSteps = 40;               // steps (settings) at most
    double pricePerHour = 0;         // machine price, $/h; 0 = not given
};

// A rejected option: `field` is the option's name without dashes ("from",
// "to", "objective", "step-seconds", …), `message` says what is wrong
// without repeating the name.
struct CapacityOptionError {
    std::string field;
    std::string message;
    std::string describe() const { return field + ": " + message; }
};
std::optional<CapacityOptionError> validateCapacityOptions(const CapacitySearchOptions& options);

// What running the workload once at one setting produced.
struct CapacityMeasurement {
    RunStatus status = RunStatus::Completed;
    std::string failure;                 // when Failed
    double seconds = 0;                  // measured time (warm-up excluded)
    std::uint64_t requests = 0;          // replies, measured
    std::uint64_t errors = 0;            // error replies, measured
    std::string firstError;
    double targetRate = 0;               // open loop: asked for, requests/s; 0 = closed loop
    double throughput = 0;               // achieved, requests/s
    // Throughput of the first and second half of the measured time
    // (negative when unknown): a steadiness check within one run.
    double firstHalfThroughput = -1;
    double secondHalfThroughput = -1;
    // How far apart (relative) the halves may be from sampling alone: the
    // engine counts replies per tick, so each half may gain or lose up to a
    // tick's worth at its ends. The halves count as unsteady only beyond
    // noiseTolerance + this.
    double halvesUncertainty = 0;
    LatencyHistogram latency;            // ns
    std::shared_ptr<const TestResult> test;   // the engine's full result (null from synthetic runners)
};

class CapacityStepRunner {
public:
    virtual ~CapacityStepRunner() = default;
    // Runs the workload once at `setting` of the search's dimension and
    // blocks until done. `attempt` counts from 1 (repeats of a noisy step).
    virtual CapacityMeasurement runStep(double setting, int attempt) = 0;
    // Any thread, async-signal-safe: ends the step under way soon (keeping
    // what it measured, status Stopped) and makes later runStep calls return
    // Stopped at once.
    virtual void requestStop() = 0;
};

enum class CapacityVerdict {
    Met,              // the objective held
    LatencyExceeded,  // the objective's statistic was above the limit
    RateShortfall,    // open loop: achieved < minAchievedRatio × target
    ServerErrors,     // more error replies than maxErrors
    Failed,           // the run failed (connect, lost connections, no replies)
    Stopped,          // stopped before the step ended: neither met nor failed
};
const char* capacityVerdictName(CapacityVerdict verdict);   // "met", "latency", "shortfall", "errors", "failed", "stopped"

// One setting of the search, after its repeats.
struct CapacityStep {
    std::size_t number = 0;              // 1-based, in the order run
    double setting = 0;
    CapacityVerdict verdict = CapacityVerdict::Met;
    std::string reason;                  // why it did not meet the objective, in words
    int attempts = 1;                    // runs made
    bool noisy = false;                  // the runs never agreed within the tolerance
    std::vector<double> attemptThroughputs;   // requests/s of every run, in order
    // The run the verdict is based on:
    double targetRate = 0;               // open loop, requests/s
    double throughput = 0;               // requests/s
    double seconds = 0;
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    double meanNs = 0, p50Ns = 0, p99Ns = 0, p999Ns = 0, maxNs = 0;
    double objectiveNs = 0;              // the objective's statistic
    // The engine's result of every run (null entries from synthetic runners).
    std::vector<std::shared_ptr<const TestResult>> tests;
    std::size_t keptAttempt = 0;         // index into tests / attemptThroughputs of the run used

    bool met() const { return verdict == CapacityVerdict::Met; }
};

enum class CapacityStopReason {
    KneeFound,        // bisected down to the resolution between a met and a failed step
    RangeEnded,       // `to` still met the objective
    NotMetAtStart,    // `from` did not meet it
    StepLimit,        // maxSteps reached first
    Stopped,          // requestStop()
    Failed,           // the first step's run failed (e.g. server unreachable)
    InvalidOptions,   // nothing ran; see stopDetail
};
const char* capacityStopReasonName(CapacityStopReason reason);   // "knee-found", "range-ended", …

struct CapacityResult {
    CapacitySearchOptions options;
    std::vector<CapacityStep> steps;     // in the order run
    CapacityStopReason stopReason = CapacityStopReason::Stopped;
    std::string stopDetail;              // a sentence
    // steps index: the highest throughput that met the objective (on a tie, the higher setting)
    std::optional<std::size_t> best;
    std::optional<std::size_t> nextFailing;   // steps index: the lowest setting above best's that did not

    double maxThroughput() const { return best ? steps[*best].throughput : 0; }
    // Throughput per dollar-hour (ops/s ÷ $/h); 0 without a price or a best step.
    double throughputPerDollarHour() const;
    // Steps indexes ordered by setting (the throughput-vs-latency curve).
    std::vector<std::size_t> curve() const;
    // One paragraph: the maximum, the step that proved it, the next that did not, the price.
    std::string summary() const;
};

class CapacitySearch {
public:
    // Called on the thread that runs run(), after every step (repeats done).
    using StepCallback = std::function<void(const CapacityStep& step, const CapacityResult& soFar)>;
    // Called before a step is run again because it was noisy.
    using RepeatCallback = std::function<void(double setting, int nextAttempt, const std::string& why)>;

    explicit CapacitySearch(CapacitySearchOptions options);

    void onStep(StepCallback callback) { m_onStep = std::move(callback); }
    void onRepeat(RepeatCallback callback) { m_onRepeat = std::move(callback); }

    // Blocking; validates the options first (InvalidOptions, nothing run).
    CapacityResult run(CapacityStepRunner& runner);

    // Any thread, async-signal-safe: no further step starts, the one under
    // way is stopped through the runner; the steps so far are kept.
    void requestStop();

private:
    CapacityStep measureStep(CapacityStepRunner& runner, double setting, std::size_t stepNumber);
    double nextUp(double setting) const;
    double midpoint(double low, double high) const;
    bool converged(double low, double high) const;

    CapacitySearchOptions m_options;
    StepCallback m_onStep;
    RepeatCallback m_onRepeat;
    std::atomic<bool> m_stop { false };
    std::atomic<CapacityStepRunner*> m_runner { nullptr };
};

// Runs steps on the engine: a RunController per run, the base workload with
// the dimension set to the step's setting, time-limited to stepSeconds after
// warmupSeconds. Also runs whole configurations for sweeps (runConfig).
class RunControllerStepRunner final : public CapacityStepRunner {
public:
    // `base` is the workload; its request count, duration and warm-up are
    // replaced per step. A step runs every test of the workload at the
    // setting and is judged on all of them together (testsInSequence: the
    // run file holds one test per step, with a row per command).
    RunControllerStepRunner(RunConfig base, CapacityDimension dimension, double stepSeconds, double warmupSeconds);

    // Threads dimension: connections follow threads × this (memtier's
    // clients per thread); 0 (default) keeps the workload's connections.
    void setConnectionsPerThread(int clientsPerThread) { m_connectionsPerThread = clientsPerThread; }
    // Called on the running thread with each run's snapshots.
    void onSnapshot(RunController::SnapshotCallback callback) { m_onSnapshot = std::move(callback); }

    // The configuration one step runs.
    RunConfig configFor(double setting) const;

    CapacityMeasurement runStep(double setting, int attempt) override;
    // Runs `config` as it is on a fresh controller, honouring stop requests.
    RunResult runConfig(const RunConfig& config);
    // Every run from now on goes to `run` instead of a controller here (a
    // series on agents); its result is measured as a local run's. `run`
    // stops on its own signal: requestStop only keeps later runs from starting.
    void runElsewhere(std::function<RunResult(const RunConfig&)> run) { m_runElsewhere = std::move(run); }

    // The test of every step run so far, in order, named after its setting
    // ("rate 400/s", "rate 400/s (attempt 2)"); the measurements share them.
    const std::vector<std::shared_ptr<TestResult>>& stepTests() const { return m_stepTests; }
    // Moves them out (for a run file), leaving the shared objects moved-from
    // (empty histograms): call it once, after everything else has read them.
    std::vector<TestResult> takeStepTests();

    // From the first run that reached the server (for the run file).
    const Environment& environment() const { return m_environment; }
    bool hasEnvironment() const { return m_hasEnvironment; }

    void requestStop() override;     // any thread, async-signal-safe
    void requestCancel();            // any thread, async-signal-safe: abandon in-flight requests too
    bool stopRequested() const { return m_stop.load(); }

private:
    RunResult runOnController(const RunConfig& config);   // a fresh controller here

    RunConfig m_base;
    CapacityDimension m_dimension;
    double m_stepSeconds;
    double m_warmupSeconds;
    int m_connectionsPerThread = 0;
    RunController::SnapshotCallback m_onSnapshot;
    Environment m_environment;
    bool m_hasEnvironment = false;
    std::vector<std::shared_ptr<TestResult>> m_stepTests;
    // Every controller lives as long as the runner, so a signal handler
    // holding m_current never reaches a destroyed one.
    std::function<RunResult(const RunConfig&)> m_runElsewhere;
    std::deque<std::unique_ptr<RunController>> m_controllers;
    std::atomic<RunController*> m_current { nullptr };
    std::atomic<bool> m_stop { false };
    std::atomic<bool> m_cancel { false };
};

// Throughput of the two halves of a test's measured time, from its
// intervals, and the relative difference tick sampling alone may put between
// them (tickSeconds × (1/first half's seconds + 1/second half's seconds));
// false when there are fewer than two intervals.
bool halfThroughputs(const TestResult& test, double tickSeconds, double* first, double* second, double* uncertainty);

} // namespace tacho::engine
