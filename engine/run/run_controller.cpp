#include "engine/run/run_controller.h"

#include "engine/net/sync_client.h"
#include "engine/run/server_probe.h"
#include "engine/run/target_capabilities.h"
#include "engine/run/test_run.h"
#include "engine/stats/clock.h"

namespace tacho::engine {

RunController::RunController(RunConfig config) : m_config(std::move(config)) {}

RunResult RunController::run()
{
    RunResult result;
    result.config = withoutSecrets(m_config);
    fillLocalEnvironment(result.environment);
    const std::uint64_t runStart = nowNs();

    // The control connection: fails fast with a specific message when the
    // server is unreachable or refuses us, before any worker starts.
    SyncClient probe;
    std::string error;
    m_io = ioBackendFromEnvironment(&error);
    if (!error.empty()) {
        result.status = RunStatus::Failed;
        result.failure = error;
        return result;
    }
    if (!probe.open(m_config, &error) || !probeTarget(probe, m_config, result.environment, &error)) {
        result.status = RunStatus::Failed;
        result.failure = error;
        return result;
    }
    m_capabilities = result.environment.capabilities;
    if (m_onNotice)
        for (const std::string& notice : environmentNotices(m_capabilities))
            m_onNotice(notice);

    std::vector<TestSpec> tests = m_config.tests;
    if (m_config.idle) {
        TestSpec idle;
        idle.name = "IDLE";
        tests = { idle };
    }
    do {
        std::vector<TestResult> round;
        for (std::size_t i = 0; i < tests.size(); ++i) {
            if (m_stop.load() || m_cancel.load())
                break;
            TestResult test = runTest(i, tests[i], &probe);
            if (!m_transport.empty())
                result.environment.ioTransport = m_transport;
            if (m_onTest)
                m_onTest(test, result.environment);
            const RunStatus status = test.status;
            const std::string failure = test.failure;
            const std::string failureReply = test.failureReply;
            const std::string failureConnectionError = test.failureConnectionError;
            round.push_back(std::move(test));
            if (status == RunStatus::Failed) {
                result.status = RunStatus::Failed;
                result.failure = failure;
                result.failureReply = failureReply;
                result.failureConnectionError = failureConnectionError;
                break;
            }
            if (status == RunStatus::Stopped)
                result.status = RunStatus::Stopped;
        }
        // -l keeps only the latest round, so a long loop stays bounded.
        result.tests = std::move(round);
    } while (m_config.loop && result.status == RunStatus::Completed && !m_stop.load() && !m_cancel.load());

    if ((m_stop.load() || m_cancel.load()) && result.status == RunStatus::Completed)
        result.status = RunStatus::Stopped;
    result.totalSeconds = static_cast<double>(nowNs() - runStart) / 1e9;
    return result;
}

TestResult RunController::runTest(std::size_t index, const TestSpec& spec, SyncClient* probe)
{
    return TestRun(*this, index, spec, probe).run();
}

} // namespace tacho::engine
