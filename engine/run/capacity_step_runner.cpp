// CapacityStepRunner on the engine (capacity_search.h): each step a run of
// its own RunController at the step's setting — every test of the workload,
// judged together (test_sequence.h) — and the halves of a step's measured
// time for the noise check.
#include "engine/run/capacity_search.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "engine/run/test_sequence.h"

namespace tacho::engine {

// ---- running steps on the engine ----

namespace {

// Requests before and after the interval boundary nearest a test's middle,
// and the seconds on each side, added over tests.
struct Halves {
    std::uint64_t first = 0, second = 0;
    double firstSeconds = 0, secondSeconds = 0;
};

bool addSplitAtMiddle(const TestResult& test, Halves* halves)
{
    const std::vector<IntervalPoint>& points = test.intervals;
    if (points.size() < 2)
        return false;
    const double total = points.back().endSeconds;
    const double middle = total / 2;
    std::size_t split = 1;   // intervals [0, split) form the first half
    double bestDistance = std::fabs(points[0].endSeconds - middle);
    for (std::size_t k = 2; k < points.size(); ++k) {
        const double distance = std::fabs(points[k - 1].endSeconds - middle);
        if (distance < bestDistance) {
            bestDistance = distance;
            split = k;
        }
    }
    const double boundary = points[split - 1].endSeconds;
    if (!(boundary > 0) || !(total - boundary > 0))
        return false;
    for (std::size_t k = 0; k < points.size(); ++k)
        (k < split ? halves->first : halves->second) += points[k].requests;
    halves->firstSeconds += boundary;
    halves->secondSeconds += total - boundary;
    return true;
}

// The step's tests, each split at its own middle and the halves added (a SET
// test beside a GET test is not a change of speed within the step).
bool halfThroughputs(std::span<const TestResult> tests, double tickSeconds, double* first, double* second,
                     double* uncertainty)
{
    Halves sum;
    for (const TestResult& test : tests)
        if (!addSplitAtMiddle(test, &sum))
            return false;
    if (tests.empty())
        return false;
    *first = static_cast<double>(sum.first) / sum.firstSeconds;
    *second = static_cast<double>(sum.second) / sum.secondSeconds;
    // Each test's halves may gain or lose a tick's worth at each end.
    *uncertainty = tickSeconds * double(tests.size()) * (1 / sum.firstSeconds + 1 / sum.secondSeconds);
    return true;
}

} // namespace

bool halfThroughputs(const TestResult& test, double tickSeconds, double* first, double* second, double* uncertainty)
{
    return halfThroughputs(std::span<const TestResult>(&test, 1), tickSeconds, first, second, uncertainty);
}

RunControllerStepRunner::RunControllerStepRunner(RunConfig base, CapacityDimension dimension, double stepSeconds,
                                                 double warmupSeconds)
    : m_base(std::move(base)), m_dimension(dimension), m_stepSeconds(stepSeconds), m_warmupSeconds(warmupSeconds)
{
}

RunConfig RunControllerStepRunner::configFor(double setting) const
{
    RunConfig config = m_base;
    config.requests = 0;
    config.durationSeconds = m_stepSeconds;
    config.warmupSeconds = m_warmupSeconds;
    config.loop = false;
    config.idle = false;
    config.rampStartConnections = 0;
    config.rampStep = 0;
    config.rampStepSeconds = 0;
    const int whole = static_cast<int>(std::lround(setting));
    switch (m_dimension) {
    case CapacityDimension::Rate:
        config.rate = setting;
        config.ratePerConnection = 0;
        break;
    case CapacityDimension::Connections:
        config.connections = whole;
        config.threads = std::min(config.threads, whole);
        break;
    case CapacityDimension::Threads:
        config.threads = whole;
        if (m_connectionsPerThread > 0)
            config.connections = whole * m_connectionsPerThread;
        break;
    case CapacityDimension::Pipeline:
        config.pipeline = whole;
        break;
    }
    return config;
}

RunResult RunControllerStepRunner::runConfig(const RunConfig& config)
{
    if (m_stop.load()) {
        RunResult stopped;
        stopped.config = withoutSecrets(config);
        stopped.status = RunStatus::Stopped;
        return stopped;
    }
    RunResult result = m_runElsewhere ? m_runElsewhere(config) : runOnController(config);
    // The step's name (its setting), as a run here has it.
    if (!result.tests.empty() && !config.tests.empty())
        result.tests.front().name = config.tests.front().name;
    if (!m_hasEnvironment) {
        m_environment = result.environment;
        m_hasEnvironment = !result.environment.serverInfo.empty();
    }
    return result;
}

RunResult RunControllerStepRunner::runOnController(const RunConfig& config)
{
    m_controllers.push_back(std::make_unique<RunController>(config));
    RunController* controller = m_controllers.back().get();
    if (m_onSnapshot)
        controller->onSnapshot(m_onSnapshot);
    m_current.store(controller);
    // A stop that arrived while the controller was being made.
    if (m_cancel.load())
        controller->requestCancel();
    else if (m_stop.load())
        controller->requestStop();
    return controller->run();
}

std::vector<TestResult> RunControllerStepRunner::takeStepTests()
{
    std::vector<TestResult> tests;
    tests.reserve(m_stepTests.size());
    for (const std::shared_ptr<TestResult>& test : m_stepTests)
        tests.push_back(std::move(*test));
    m_stepTests.clear();
    return tests;
}

CapacityMeasurement RunControllerStepRunner::runStep(double setting, int attempt)
{
    RunConfig config = configFor(setting);
    // The step's name (its setting); a workload of several tests keeps their
    // names while they run (the progress line says which) and takes it when
    // they are put together.
    const std::string stepName = capacitySettingText(m_dimension, setting)
        + (attempt > 1 ? " (attempt " + std::to_string(attempt) + ")" : std::string());
    if (config.tests.size() == 1)
        config.tests.front().name = stepName;
    RunResult result = runConfig(config);
    CapacityMeasurement m;
    m.status = result.status;
    m.failure = result.failure;
    if (result.tests.empty()) {
        if (m.status == RunStatus::Completed)
            m.status = m_stop.load() ? RunStatus::Stopped : RunStatus::Failed;
        if (m.status == RunStatus::Failed && m.failure.empty())
            m.failure = "the step did not run";
        return m;
    }
    double first = 0, second = 0, uncertainty = 0;
    const bool halvesKnown = halfThroughputs(result.tests, config.tickSeconds, &first, &second, &uncertainty);
    TestResult test = result.tests.size() == 1 ? std::move(result.tests.front())
                                               : testsInSequence(std::move(result.tests), stepName);
    test.name = stepName;
    if (test.status != RunStatus::Completed) {
        m.status = test.status;
        if (!test.failure.empty())
            m.failure = test.failure;
    }
    m.seconds = test.seconds;
    m.requests = test.requests;
    m.errors = test.errors;
    if (!test.firstErrors.empty())
        m.firstError = test.firstErrors.front();
    m.targetRate = test.targetRate;
    m.throughput = test.requestsPerSecond();
    if (halvesKnown) {
        m.firstHalfThroughput = first;
        m.secondHalfThroughput = second;
        m.halvesUncertainty = uncertainty;
    }
    m.latency = test.latency.clone();
    auto shared = std::make_shared<TestResult>(std::move(test));
    m_stepTests.push_back(shared);
    m.test = shared;
    return m;
}

void RunControllerStepRunner::requestStop()
{
    m_stop.store(true);
    if (RunController* controller = m_current.load())
        controller->requestStop();
}

void RunControllerStepRunner::requestCancel()
{
    m_cancel.store(true);
    m_stop.store(true);
    if (RunController* controller = m_current.load())
        controller->requestCancel();
}

} // namespace tacho::engine
