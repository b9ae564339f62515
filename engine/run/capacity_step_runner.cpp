// CapacityStepRunner on the engine (capacity_search.h): each step a run of
// its own RunController at the step's setting, and the halves of a step's
// measured time for the noise check.
#include "engine/run/capacity_search.h"

#include <algorithm>
#include <cmath>

namespace tacho::engine {

// ---- running steps on the engine ----

bool halfThroughputs(const TestResult& test, double tickSeconds, double* first, double* second, double* uncertainty)
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
    std::uint64_t a = 0, b = 0;
    for (std::size_t k = 0; k < points.size(); ++k)
        (k < split ? a : b) += points[k].requests;
    *first = static_cast<double>(a) / boundary;
    *second = static_cast<double>(b) / (total - boundary);
    *uncertainty = tickSeconds * (1 / boundary + 1 / (total - boundary));
    return true;
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
    if (config.tests.size() > 1)
        config.tests.resize(1);
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
    if (!config.tests.empty())
        config.tests.front().name = capacitySettingText(m_dimension, setting)
            + (attempt > 1 ? " (attempt " + std::to_string(attempt) + ")" : std::string());
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
    TestResult& test = result.tests.front();
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
    double first = 0, second = 0, uncertainty = 0;
    if (halfThroughputs(test, config.tickSeconds, &first, &second, &uncertainty)) {
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
