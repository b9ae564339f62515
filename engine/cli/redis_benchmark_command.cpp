#include "engine/cli/redis_benchmark_command.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "engine/cli/fleet_command.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/secrets.h"
#include "engine/cli/shared_options.h"
#include "engine/cli/telemetry_options.h"
#include "engine/report/redis_benchmark_report.h"
#include "engine/report/run_file.h"
#include "engine/resp/printable_text.h"
#include "engine/run/run_controller.h"

namespace tacho::engine {

namespace {

constexpr const char* kPrefix = "tacho-cli redis-benchmark: ";

// The summary line after a human-readable report: the server's count must
// equal ours in every test; tests whose counts could not be read are said
// apart, never counted as disagreeing.
std::string crossCheckSummary(const RunResult& result)
{
    std::size_t agreeing = 0, unchecked = 0;
    std::string problems;
    for (const TestResult& test : result.tests) {
        if (test.crossCheck.agrees())
            ++agreeing;
        else
            problems += "  " + test.name + ": " + formatCrossCheck(test);
        unchecked += test.crossCheck.available ? 0 : 1;
    }
    const std::size_t total = result.tests.size();
    if (problems.empty())
        return "server cross-check: INFO commandstats agrees with the requests sent in all "
            + std::to_string(agreeing) + " tests\n";
    const std::size_t disagreeing = total - agreeing - unchecked;
    std::string line = "server cross-check: ";
    if (disagreeing > 0)
        line += std::to_string(disagreeing) + " of " + std::to_string(total) + " tests disagree"
            + (unchecked > 0 ? ", " + std::to_string(unchecked) + " not checked" : std::string());
    else
        line += std::to_string(unchecked) + " of " + std::to_string(total) + " tests not checked";
    return line + "\n" + problems;
}

} // namespace

namespace {

// A failed or stopped run's lines on standard error; the exit status (1: failed).
int sayHowItEnded(const RunResult& result, std::ostream& err, const char* prefix)
{
    if (result.status == RunStatus::Failed) {
        // redis-benchmark's line for an error reply first: scripts and its
        // test suite look for it.
        if (!result.failureReply.empty())
            err << "Error from server: " << result.failureReply << "\n";
        else if (!result.failureConnectionError.empty())
            err << "Error: " << result.failureConnectionError << "\n";
        err << prefix << "error: " << withAuthAdvice(result.failure, kRedisBenchmarkAuthAdvice) << "\n";
        return 1;
    }
    if (result.status == RunStatus::Stopped)
        err << prefix << "stopped before the end; the results above are partial\n";
    return 0;
}

} // namespace

int runRedisBenchmarkCommand(std::span<const std::string> args, const CommandIo& io)
{
    std::ostream& out = *io.out;
    std::ostream& err = *io.err;

    // --agents / --control: the same line, run by agents (issue 21).
    if (std::find(args.begin(), args.end(), "--agents") != args.end()
        || std::find(args.begin(), args.end(), "--control") != args.end()) {
        std::vector<std::string> rest(args.begin(), args.end());
        try {
            const FleetOptions fleet = takeRedisBenchmarkFleetOptions(rest);
            if (fleet.given)
                return runRedisBenchmarkOnAgents(rest, fleet, io);
        } catch (const UsageError& e) {
            err << kPrefix << hideSecretsIn(e.what(), "redis-benchmark", args)
                << "\nTry 'tacho-cli redis-benchmark --help' for more information.\n";
            return 2;
        }
    }
    RedisBenchmarkInvocation invocation;
    try {
        invocation = parseRedisBenchmarkArgs(args, io.readStdin);
    } catch (const UsageError& e) {
        err << kPrefix << hideSecretsIn(e.what(), "redis-benchmark", args) << "\nTry 'tacho-cli redis-benchmark --help' for more information.\n";
        return 2;
    }
    if (invocation.showHelp) {
        out << redisBenchmarkUsage();
        return 0;
    }
    if (invocation.showVersion) {
        out << "tacho-cli " << TACHO_VERSION << " (redis-benchmark dialect)\n";
        return 0;
    }
    const RunConfig& config = invocation.config;
    // Checked before the run, so that a run file is not lost after it.
    std::string outputError;
    if (!checkOutputFiles(redisBenchmarkOutputFiles(invocation), &outputError)) {
        err << kPrefix << outputError << "\n";
        return 2;
    }

    bool liveMetricsFailed = false;
    auto liveMetrics = startLiveMetrics(invocation.liveMetrics, err, kPrefix, &liveMetricsFailed);
    if (liveMetricsFailed)
        return 2;

    RunController controller(config);
    const ControllerRelease release { io };
    if (io.onController)
        io.onController(&controller);
    controller.onNotice([&](const std::string& text) { err << kPrefix << text << "\n" << std::flush; });

    const ReportStyle style = invocation.style;
    bool progressShown = false;
    auto clearProgress = [&] {
        if (progressShown) {
            out << "\r\033[K" << std::flush;
            progressShown = false;
        }
    };
    auto lastErrorShown = std::chrono::steady_clock::time_point {};
    liveMetrics->attach(controller);
    controller.onSnapshot([&](std::shared_ptr<const IntervalSnapshot> snapshot) {
        liveMetrics->onSnapshot(*snapshot);
        if (config.showErrors && !snapshot->lastError.empty()) {
            const auto now = std::chrono::steady_clock::now();
            if (now - lastErrorShown >= std::chrono::seconds(1)) {   // redis-benchmark's -e rate
                lastErrorShown = now;
                err << "Error from server: " << printable(snapshot->lastError) << "\n";
            }
        }
        if (!io.interactive || style == ReportStyle::Csv)
            return;
        const double interval = snapshot->point.endSeconds - snapshot->point.startSeconds;
        const double rps = interval > 0 ? snapshot->point.requests / interval : 0;
        const double overall = snapshot->elapsedSeconds > 0 ? snapshot->requestsSoFar / snapshot->elapsedSeconds : 0;
        out << "\r\033[K"
            << formatProgress(snapshot->testName, rps, overall, snapshot->point.mean / 1e6, snapshot->overallMeanNs / 1e6)
            << std::flush;
        progressShown = true;
    });

    bool headerPrinted = false;
    controller.onTestFinished([&](const TestResult& test, const Environment& environment) {
        liveMetrics->onTestFinished(test);
        clearProgress();
        // A test that failed before sending anything has no report, only
        // its error (printed once at the end).
        if (config.idle || (test.status == RunStatus::Failed && test.requests == 0))
            return;
        if (style == ReportStyle::Csv && !headerPrinted) {
            out << csvHeader();
            headerPrinted = true;
        }
        out << formatTestReport(test, config, environment, style, invocation.precision) << std::flush;
    });

    if (config.idle)
        out << "Creating " << config.connections << " idle connections and waiting forever (Ctrl+C when done)\n"
            << std::flush;

    const RunResult result = controller.run();
    clearProgress();
    finishLiveMetrics(liveMetrics, err, kPrefix);

    const bool anyMeasured = std::any_of(result.tests.begin(), result.tests.end(),
                                         [](const TestResult& test) { return test.requests > 0; });
    if (style != ReportStyle::Csv && !config.idle && anyMeasured)
        out << crossCheckSummary(result) << bottleneckLines(result);
    out << std::flush;

    int status = sayHowItEnded(result, err, kPrefix);

    std::string runFile;   // written: the clean-up is recorded there too
    if (!invocation.jsonPath.empty()) {
        std::string writeError;
        if (writeRunFile(invocation.jsonPath, result, &writeError)) {
            runFile = invocation.jsonPath;
        } else {
            err << kPrefix << writeError << "\n";
            status = 1;
        }
    }
    if (invocation.cleanup)   // CSV keeps standard output to its rows
        status = std::max(status, cleanUpAfterRun(config, style == ReportStyle::Csv ? err : out, runFile, err,
                                                  io.interrupts));
    return status;
}

} // namespace tacho::engine
