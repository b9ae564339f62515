// `tacho-cli memtier …` (memtier_command.h): the line parsed, handed to agents when it names
// them, else the preload and the measured runs here with a progress line; the outputs are
// memtier_outputs.cpp's.
#include "engine/cli/memtier_command.h"
#include "engine/text/number_format.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <ostream>

#include "engine/cli/fleet_command.h"
#include "engine/cli/memtier_args.h"
#include "engine/cli/secrets.h"
#include "engine/cli/shared_options.h"
#include "engine/cli/telemetry_options.h"
#include "engine/run/run_controller.h"
#include "engine/workload/memtier_generator_factory.h"

namespace tacho::engine {

namespace {

constexpr const char* kPrefix = "tacho-cli memtier: ";

double epochSeconds()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string decimal(double value, int decimals) { return fixedDecimals(value, decimals); }

// Runs one controller to the end, with a progress line on a terminal.
RunResult runWithProgress(RunController& controller, const CommandIo& io, const std::string& label,
                          std::vector<double>& endTimes, LiveMetricsExporter& liveMetrics)
{
    std::ostream& err = *io.err;
    bool shown = false;
    controller.onNotice([&](const std::string& text) { err << kPrefix << text << "\n" << std::flush; });
    liveMetrics.attach(controller);
    controller.onSnapshot([&](std::shared_ptr<const IntervalSnapshot> snapshot) {
        liveMetrics.onSnapshot(*snapshot);
        if (!io.interactive)
            return;
        const double interval = snapshot->point.endSeconds - snapshot->point.startSeconds;
        const double rate = interval > 0 ? double(snapshot->point.requests) / interval : 0;
        const double overall = snapshot->elapsedSeconds > 0 ? double(snapshot->requestsSoFar) / snapshot->elapsedSeconds : 0;
        std::string progress = snapshot->progress >= 0 ? decimal(100 * snapshot->progress, 0) + "%, " : "";
        err << "\r\033[K[" << label << " " << snapshot->testName << " " << progress
            << decimal(snapshot->elapsedSeconds, 0) << " secs] " << snapshot->requestsSoFar << " ops, "
            << decimal(rate, 0) << " (avg: " << decimal(overall, 0) << ") ops/sec, "
            << decimal(snapshot->point.mean / 1e6, 2) << " (avg: " << decimal(snapshot->overallMeanNs / 1e6, 2)
            << ") msec latency" << std::flush;
        shown = true;
    });
    controller.onTestFinished([&](const TestResult& test, const Environment&) {
        liveMetrics.onTestFinished(test);
        endTimes.push_back(epochSeconds());
    });
    RunResult result = controller.run();
    if (shown)
        err << "\r\033[K" << std::flush;
    return result;
}

} // namespace

int runMemtierCommand(std::span<const std::string> args, const CommandIo& io)
{
    std::ostream& out = *io.out;
    std::ostream& err = *io.err;

    // --agents / --control: the same line, run by agents (issue 21).
    if (std::find_if(args.begin(), args.end(), [](const std::string& a) {
            return a.rfind("--agents", 0) == 0 || a.rfind("--control", 0) == 0;
        }) != args.end()) {
        std::vector<std::string> rest(args.begin(), args.end());
        try {
            const FleetOptions fleet = takeMemtierFleetOptions(rest);
            if (fleet.given)
                return runMemtierOnAgents(rest, fleet, io);
        } catch (const UsageError& e) {
            err << kPrefix << "error: " << hideSecretsIn(e.what(), "memtier", args)
                << "\nTry 'tacho-cli memtier --help' for more information.\n";
            return 2;
        }
    }
    MemtierInvocation inv;
    try {
        inv = parseMemtierArgs(args);
    } catch (const UsageError& e) {
        // "error:" as memtier prints it: its users' scripts and tests look for the word.
        err << kPrefix << "error: " << hideSecretsIn(e.what(), "memtier", args)
            << "\nTry 'tacho-cli memtier --help' for more information.\n";
        return 2;
    }
    if (inv.showHelp) {
        out << memtierUsage();
        return 0;
    }
    if (inv.showVersion) {
        out << "tacho-cli " << TACHO_VERSION << " (memtier_benchmark dialect)\n";
        return 0;
    }
    for (const std::string& note : inv.inputFiles.notes)   // what --monitor-input / --data-import read
        err << kPrefix << note << "\n";

    std::string outputError;
    if (!checkMemtierOutputFiles(inv, &outputError)) {
        err << kPrefix << outputError << "\n";
        return 2;
    }
    auto factory = std::make_shared<const MemtierGeneratorFactory>(inv.workload);
    std::string statNames;
    for (const std::string& name : factory->commandStatNames())
        statNames += (statNames.empty() ? "" : "+") + name;

    bool liveMetricsFailed = false;
    auto liveMetrics = startLiveMetrics(inv.liveMetrics, err, kPrefix, &liveMetricsFailed);
    if (liveMetricsFailed)
        return 2;

    int status = 0;
    // Both controllers live until the end: the interrupt handler may hold a
    // pointer to either.
    std::unique_ptr<RunController> preloadController;
    std::unique_ptr<RunController> mainController;
    const ControllerRelease release { io };

    // ---- preload: SET every key once (P:P, allkeys), reported apart ----
    std::optional<RunResult> preloadResult;
    double preloadEnd = 0;
    if (inv.preload) {
        const RunConfig config = memtierPreloadConfig(inv);
        preloadController = std::make_unique<RunController>(config);
        if (io.onController)
            io.onController(preloadController.get());
        std::vector<double> ends;
        preloadResult = runWithProgress(*preloadController, io, "PRELOAD", ends, *liveMetrics);
        preloadEnd = ends.empty() ? epochSeconds() : ends.front();
        if (preloadResult->status == RunStatus::Failed) {
            err << kPrefix << "error: preload failed: " << withAuthAdvice(preloadResult->failure, kMemtierAuthAdvice) << "\n";
            status = 1;
        }
    }

    // ---- the measured runs (-x) ----
    RunResult result;
    std::vector<double> ends;
    const bool preloadOk = !preloadResult || preloadResult->status == RunStatus::Completed;
    if (preloadOk) {
        RunConfig config = inv.config;
        for (std::uint32_t run = 1; run <= inv.runCount; ++run) {
            TestSpec spec;
            spec.name = "RUN #" + std::to_string(run);
            spec.commandStatName = statNames;
            spec.generator = factory;
            config.tests.push_back(spec);
        }
        mainController = std::make_unique<RunController>(config);
        if (io.onController)
            io.onController(mainController.get());
        result = runWithProgress(*mainController, io, "memtier", ends, *liveMetrics);
        if (result.status == RunStatus::Failed) {
            err << kPrefix << "error: " << withAuthAdvice(result.failure, kMemtierAuthAdvice) << "\n";
            status = 1;
        } else if (result.status == RunStatus::Stopped) {
            // memtier's own line first: its users and tests look for it.
            const double seconds = result.tests.empty() ? result.totalSeconds : result.tests.back().seconds;
            err << "[RUN #" << std::max<std::size_t>(1, result.tests.size()) << "] Interrupted by user (Ctrl+C) after "
                << fixedDecimals(seconds, 1) << " secs, stopping threads...\n";
            err << kPrefix << "stopped before the end; the results below are partial\n";
        }
    } else if (preloadResult->status == RunStatus::Stopped) {
        err << kPrefix << "stopped during the preload; the measured run did not start\n";
    }

    finishLiveMetrics(liveMetrics, err, kPrefix);
    MemtierMeasured measured { std::move(result), std::move(preloadResult), preloadEnd, std::move(ends) };
    return writeMemtierOutputs(inv, std::move(measured), status, io, {});
}

bool checkMemtierOutputFiles(const MemtierInvocation& inv, std::string* error)
{
    // memtier_benchmark refuses to start when it cannot open --out-file; every
    // output of the option table is checked too, so that no report is lost
    // after the run and no named pipe holds it (issue 30).
    std::vector<OutputFile> outputs;
    const std::vector<MemtierOutputFile> files = memtierOutputFiles(inv);
    for (const MemtierOutputFile& file : files)
        outputs.push_back({ file.option.c_str(), file.path });
    return checkOutputFiles(outputs, error);
}

} // namespace tacho::engine
