#include "engine/cli/memtier_command.h"
#include "engine/text/number_format.h"

#include "engine/report/atomic_file.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <unistd.h>

#include "engine/cli/fleet_command.h"
#include "engine/cli/memtier_args.h"
#include "engine/cli/secrets.h"
#include "engine/cli/shared_options.h"
#include "engine/cli/telemetry_options.h"
#include "engine/telemetry/bottleneck.h"
#include "engine/report/json_writer.h"
#include "engine/report/memtier_client_stats.h"
#include "engine/report/memtier_report.h"
#include "engine/report/redis_benchmark_report.h"
#include "engine/report/run_file.h"
#include "engine/resp/printable_text.h"
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

// -n allkeys: the keys of the range that no successful request of the primary
// command (SET; GET without SETs; the first --command) covered: error replies
// (CLUSTERDOWN from a cluster not yet ready), requests never answered or never
// sent. nullopt when the counts cannot tell (MGET carries a varying number).
std::optional<std::uint64_t> allKeysMissed(const MemtierInvocation& inv, const TestResult& test)
{
    const MemtierWorkload& w = inv.workload;
    const std::size_t primary = w.arbitrary() || w.setRatio > 0 ? 0 : 1;
    if (primary >= test.commands.size() || (primary == 1 && w.multiKeyGet > 0))
        return std::nullopt;
    const std::uint64_t perRequest = w.arbitrary() ? std::max<std::size_t>(1, w.commands.front().keyCount()) : 1;
    const CommandResult& command = test.commands[primary];
    const std::uint64_t covered = (command.requests - std::min(command.requests, command.errors)) * perRequest;
    return w.keyCount() > covered ? w.keyCount() - covered : 0;
}

// memtier's "configuration" object, with our values; secrets are never written.
void writeConfiguration(JsonWriter& w, const MemtierInvocation& inv)
{
    const RunConfig& c = inv.config;
    const MemtierWorkload& wl = inv.workload;
    const MemtierValueOptions& v = wl.values;
    w.key("configuration").beginObject();
    w.field("server", c.endpoint.unixSocket.empty() ? inv.server : std::string());
    w.field("port", c.endpoint.port);
    w.field("uri", inv.uri);
    if (c.endpoint.unixSocket.empty())
        w.key("unix socket").null();
    else
        w.field("unix socket", c.endpoint.unixSocket);
    w.field("address family", "Unspecified");
    w.field("protocol", inv.protocolName);
    if (inv.outFile.empty())
        w.key("out_file").null();
    else
        w.field("out_file", inv.outFile);
    const TlsSettings& tls = c.endpoint.tlsSettings;
    const auto fileOrNull = [&](const char* name, const std::string& value) {
        if (value.empty())
            w.key(name).null();
        else
            w.field(name, value);
    };
    w.field("tls", c.endpoint.tls ? "true" : "false");
    fileOrNull("cert", tls.cert);
    fileOrNull("key", tls.key);
    fileOrNull("cacert", tls.caCert);
    w.field("tls_skip_verify", tls.insecure ? "true" : "false");
    fileOrNull("sni", tls.sni);
    // Options Tacho refuses (--data-verify, the WAIT options, …) are echoed
    // with memtier's values for "not given".
    fileOrNull("client_stats", inv.clientStatsPrefix);
    w.field("run_count", inv.runCount);
    w.field("debug", 0);
    w.field("requests", memtierRequestsPerClient(inv));
    w.field("rate_limit", inv.rateLimitPerConnection);
    w.field("clients", inv.clientsPerThread);
    w.field("threads", inv.threads);
    w.field("test_time", static_cast<std::uint64_t>(inv.testTimeSeconds));
    w.field("ratio", inv.ratioText);
    w.field("pipeline", c.pipeline);
    w.field("data_size", v.sizeKind == MemtierValueOptions::SizeKind::Fixed ? v.fixedSize : 0u);
    w.field("data_offset", 0);
    w.field("random_data", v.randomData ? "true" : "false");
    w.field("data_size_range", std::to_string(v.rangeMin) + ":" + std::to_string(v.rangeMax));
    std::string list;
    for (const auto& [size, weight] : v.sizeList)
        list += (list.empty() ? "" : ",") + std::to_string(size) + ":" + std::to_string(weight);
    w.field("data_size_list", list);
    w.field("data_size_pattern", v.sizeFollowsKey ? "S" : "R");
    w.field("expiry_range", std::to_string(v.expiryMin) + ":" + std::to_string(v.expiryMax));
    fileOrNull("data_import", inv.inputFiles.dataImport);
    w.field("data_verify", "false");
    w.field("verify_only", "false");
    w.field("generate_keys", inv.inputFiles.generateKeys ? "true" : "false");
    w.field("key_prefix", wl.keys.prefix);
    w.field("key_minimum", wl.keys.minimum);
    w.field("key_maximum", wl.keys.maximum);
    w.field("key_pattern", inv.keyPatternText);
    w.key("key_stddev").fixed(wl.keys.stddev, 6);   // memtier's "%f"
    w.key("key_median").fixed(wl.keys.medianGiven ? wl.keys.median : 0.0, 6);
    w.key("key_zipf_exp").fixed(wl.usesPattern(KeyPattern::Zipf) ? wl.keys.zipfExponent : 0.0, 6);
    w.field("reconnect_interval", c.reconnectInterval);
    w.field("connection_timeout", inv.connectionTimeoutSeconds);
    w.field("thread_conn_start_min_jitter_micros", 0);
    w.field("thread_conn_start_max_jitter_micros", 0);
    w.field("multi_key_get", wl.multiKeyGet);
    w.field("authenticate", c.password.empty() ? "" : "(hidden)");
    w.field("select-db", c.database);
    w.field("no-expiry", inv.inputFiles.noExpiry ? "true" : "false");
    w.field("wait-ratio", "0:0");
    w.field("num-slaves", "0:0");
    w.field("wait-timeout", "0-0");
    w.field("print-all-runs", inv.printAllRuns ? "true" : "false");
    if (inv.clientsStart > 0) {
        w.field("clients_start", inv.clientsStart);
        w.field("clients_step", inv.clientsStep);
        w.field("step_duration", inv.stepDurationSeconds);
    }
    if (wl.arbitrary()) {
        w.key("commands").beginArray();
        for (const MemtierCommand& command : wl.commands) {
            std::string line;
            for (const std::string& arg : command.args)
                line += (line.empty() ? "" : " ") + arg;
            w.beginObject();
            w.field("command", line);
            w.field("ratio", command.ratio);
            w.field("key_pattern", std::string(1, keyPatternLetter(command.keyPattern)));
            w.endObject();
        }
        w.endArray();
    }
    w.field("rate", c.rate);
    w.field("preload", inv.preload ? "true" : "false");
    w.endObject();
}

std::string errorSummary(const TestResult& test)
{
    std::string out;
    if (test.errors > 0) {
        out += "errors: " + std::to_string(test.errors) + " error replies";
        std::string kinds;
        for (const auto& [kind, count] : test.errorsByKind)
            kinds += (kinds.empty() ? "" : ", ") + kind + ": " + std::to_string(count);
        if (!kinds.empty())
            out += " (" + kinds + ")";
        if (!test.firstErrors.empty())
            out += "; first: " + printable(test.firstErrors.front());
        out += "\n";
    }
    if (test.connectErrors > 0 || test.reconnects > 0)
        out += "connections: " + std::to_string(test.connectErrors) + " lost or failed, " +
            std::to_string(test.reconnects) + " reconnects"
            + (test.replyTimeouts ? ", " + std::to_string(test.replyTimeouts) + " reply timeouts" : std::string()) + "\n";
    return out;
}

struct Block {
    std::string header;
    const MemtierRunStats* stats;
};

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

int writeMemtierOutputs(const MemtierInvocation& inv, MemtierMeasured measured, int status, const CommandIo& io,
                        const std::string& runFileWritten)
{
    std::ostream& out = *io.out;
    std::ostream& err = *io.err;
    const std::vector<double>& percentiles = inv.percentiles;
    const bool setGet = !inv.workload.arbitrary();
    auto factory = std::make_shared<const MemtierGeneratorFactory>(inv.workload);
    const std::vector<std::string> commandNames = factory->commandNames();
    RunResult& result = measured.result;
    std::optional<RunResult>& preloadResult = measured.preload;
    const std::vector<double>& ends = measured.ends;
    MemtierRunStats preloadStats;
    if (preloadResult && !preloadResult->tests.empty())
        preloadStats = memtierStatsFromTest(preloadResult->tests.front(), { "SET", "GET" }, true, false,
                                            measured.preloadEnd);
    std::ostringstream text;
    if (inv.showConfig) {
        JsonWriter echo(2);
        echo.beginObject();
        writeConfiguration(echo, inv);
        echo.endObject();
        text << "============== Configuration values: ==============\n" << echo.str()
             << "\n===================================================\n";
    }

    // ---- text report ----
    std::vector<MemtierRunStats> runs;
    for (std::size_t i = 0; i < result.tests.size(); ++i) {
        const TestResult& test = result.tests[i];
        if (test.status == RunStatus::Failed && test.requests == 0)
            continue;   // nothing measured (e.g. could not connect)
        runs.push_back(memtierStatsFromTest(test, commandNames, setGet, inv.breakdownByLine,
                                            i < ends.size() ? ends[i] : epochSeconds()));
        if (inv.clientsStart > 0) {   // memtier writes "Active Clients" for a staircase ramp only
            const double end = inv.testTimeSeconds > 0 ? std::min(test.seconds, double(inv.testTimeSeconds)) : test.seconds;
            runs.back().activeClients = memtierActiveClients(test, end);
            runs.back().threads = inv.threads;
        }
    }
    std::vector<Block> blocks;
    MemtierRunStats aggregate;
    if (runs.size() == 1 && inv.runCount == 1) {
        blocks.push_back({ "ALL STATS", &runs.front() });
    } else if (!runs.empty()) {
        if (inv.printAllRuns)
            for (std::size_t i = 0; i < runs.size(); ++i)
                blocks.push_back({ "RUN #" + std::to_string(i + 1) + " RESULTS", &runs[i] });
        blocks.push_back({ "BEST RUN RESULTS", &runs[memtierBestRun(runs)] });
        blocks.push_back({ "WORST RUN RESULTS", &runs[memtierWorstRun(runs)] });
        std::vector<const MemtierRunStats*> all;
        for (const MemtierRunStats& run : runs)
            all.push_back(&run);
        aggregate = memtierAggregate(all);
        blocks.push_back({ "AGGREGATED AVERAGE RESULTS (" + std::to_string(runs.size()) + " runs)", &aggregate });
    }

    const std::uint64_t perClient = memtierRequestsPerClient(inv);
    const bool anything = !runs.empty() || (preloadResult && !preloadResult->tests.empty());
    // A run that failed before any test measured anything writes no output file and
    // announces none (an existing file stays as it was): its error says it all (issue 16).
    const bool failedEmpty = !anything
        && (result.status == RunStatus::Failed || (preloadResult && preloadResult->status == RunStatus::Failed));
    if (anything)
        text << formatMemtierRunInfo(inv.threads, inv.clientsPerThread, perClient, inv.testTimeSeconds);
    if (preloadResult && !preloadResult->tests.empty()) {
        text << formatMemtierTable(preloadStats, "PRELOAD RESULTS", percentiles);
        if (!inv.hideHistogram)
            text << formatMemtierHistogram(preloadStats);
    }
    for (const Block& block : blocks) {
        text << formatMemtierTable(*block.stats, block.header, percentiles);
        if (!inv.hideHistogram)
            text << formatMemtierHistogram(*block.stats);
    }

    // Tacho's lines: open loop, the server's count, errors.
    std::ostringstream notes;
    const auto testNotes = [&](const TestResult& test, const std::string& label) {
        std::string lines = formatCrossCheck(test) + errorSummary(test);
        if (test.status == RunStatus::Failed && !test.failure.empty())
            lines += "failed: " + test.failure + "\n";
        std::istringstream split(lines);
        for (std::string line; std::getline(split, line);)
            notes << label << ": " << line << "\n";
    };
    if (preloadResult && !preloadResult->tests.empty()) {
        const TestResult& test = preloadResult->tests.front();
        notes << "PRELOAD: " << test.requests - std::min(test.requests, test.errors) << " keys written (" << inv.workload.keys.prefix
              << inv.workload.keys.minimum << " .. " << inv.workload.keys.prefix << inv.workload.keys.maximum << ")\n";
        testNotes(test, "PRELOAD");
        if (test.errors > 0 || test.unanswered > 0) {   // the preload fills every key, or fails
            notes << "PRELOAD: " << test.errors + test.unanswered << " keys not written (" << test.errors
                  << " error replies, " << test.unanswered << " unanswered): the key range is incomplete\n";
            status = 1;
        }
    }
    for (std::size_t i = 0; i < result.tests.size(); ++i) {
        const TestResult& test = result.tests[i];
        const std::string label = inv.runCount > 1 || result.tests.size() > 1 ? test.name : "ALL STATS";
        if (i < runs.size() && runs[i].targetRate > 0) {
            std::istringstream split(formatMemtierOpenLoop(runs[i], percentiles));
            for (std::string line; std::getline(split, line);)
                notes << label << ": " << line << "\n";
        }
        testNotes(test, label);
    }
    if (anything && inv.workload.allKeys && inv.workload.usesPattern(KeyPattern::Parallel)) {
        // The claim holds only for a run whose every request succeeded.
        bool incomplete = false;
        for (const TestResult& test : result.tests) {
            if (test.errors == 0 && test.unanswered == 0 && test.status == RunStatus::Completed)
                continue;
            incomplete = true;
            const std::optional<std::uint64_t> missed = allKeysMissed(inv, test);
            const char* verb = inv.workload.arbitrary() || inv.workload.setRatio > 0 ? "written" : "read";
            notes << "allkeys: " << (result.tests.size() > 1 ? test.name + ": " : std::string())
                  << (missed ? std::to_string(*missed) : std::string("some")) << " of " << inv.workload.keyCount()
                  << " keys not " << verb << " (" << test.errors << " error replies, " << test.unanswered
                  << " unanswered" << (test.status == RunStatus::Completed ? "" : ", run not completed")
                  << "): the key range is incomplete\n";
        }
        if (incomplete)
            status = 1;
        else if (!result.tests.empty())
            notes << "allkeys: " << inv.workload.keyCount() << " keys split over " << inv.config.connections
                  << " connections, " << perClient << " or fewer each, every key exactly once\n";
    }
    notes << bottleneckLines(result);
    if (!notes.str().empty())
        text << "\n\n" << notes.str();

    if (inv.outFile.empty()) {
        out << text.str() << std::flush;
    } else if (!failedEmpty) {
        std::string error;
        if (!writeFileAtomically(inv.outFile, text.str(), &error)) {
            err << kPrefix << error << "\n";
            status = 1;
        } else {
            err << "Results written to " << inv.outFile << "\n";
        }
    }

    // ---- memtier's JSON ----
    if (!inv.jsonOutFile.empty() && !failedEmpty) {
        JsonWriter w(1);
        w.beginObject();
        writeConfiguration(w, inv);
        w.key("run information").beginObject();
        w.field("Threads", inv.threads);
        w.field("Connections per thread", inv.clientsPerThread);
        if (inv.testTimeSeconds > 0)
            w.field("Seconds", static_cast<std::uint64_t>(inv.testTimeSeconds));
        else
            w.field("Requests per client", perClient);
        w.field("Format version", 2);
        w.endObject();
        if (preloadResult && !preloadResult->tests.empty()) {
            w.key("PRELOAD RESULTS").beginObject();
            writeMemtierStatsJson(w, preloadStats, percentiles, !inv.hideHistogram);
            w.endObject();
        }
        for (const Block& block : blocks) {
            w.key(block.header).beginObject();
            writeMemtierStatsJson(w, *block.stats, percentiles, !inv.hideHistogram);
            w.endObject();
        }
        // Tacho's additions, in their own object so memtier readers skip them.
        w.key("tacho").beginObject();
        w.field("version", TACHO_VERSION);
        w.key("runs").beginArray();
        for (std::size_t i = 0; i < result.tests.size(); ++i) {
            const TestResult& test = result.tests[i];
            w.beginObject();
            w.field("name", test.name);
            w.field("status", runStatusName(test.status));
            if (!test.failure.empty())
                w.field("failure", test.failure);
            w.field("requests", test.requests);
            w.field("errors", test.errors);
            w.field("connection errors", test.connectErrors);
            w.field("reconnects", test.reconnects);
            if (inv.workload.scanIteration) {
                w.field("scan keys returned", test.scanKeys);
                w.field("scan iterations completed", test.scanPasses);
            }
            w.key("server cross-check").beginObject();
            w.field("available", test.crossCheck.available);
            if (!test.crossCheck.available && !test.crossCheck.unavailable.empty())
                w.field("not checked", test.crossCheck.unavailable);
            w.field("commands", test.crossCheck.command);
            w.field("server calls", test.crossCheck.serverCalls);
            w.field("client requests", test.crossCheck.clientRequests);
            w.field("agrees", test.crossCheck.agrees());
            w.endObject();
            if (test.telemetry.recorded())
                w.field("bottleneck", describeVerdict(test.telemetry.verdict));
            if (i < runs.size() && runs[i].targetRate > 0) {
                const MemtierRunStats& run = runs[i];
                w.key("open loop").beginObject();
                w.field("target ops/sec", run.targetRate);
                w.field("achieved ops/sec", run.totals.opsPerSec);
                w.field("max send lag msec", double(run.maxSendLagNs) / 1e6);
                w.key("corrected latency (from due time)").beginObject();
                w.field("Average Latency", run.totals.latency.mean() / 1e6);
                for (double p : percentiles)
                    w.field(memtierPercentileLabel(p), double(run.totals.latency.valueAtPercentile(p)) / 1e6);
                w.endObject();
                w.key("uncorrected latency (from actual send)").beginObject();
                w.field("Average Latency", run.totals.uncorrected.mean() / 1e6);
                for (double p : percentiles)
                    w.field(memtierPercentileLabel(p), double(run.totals.uncorrected.valueAtPercentile(p)) / 1e6);
                w.field("Compressed Histogram", run.totals.uncorrected.toCompressedBase64());
                w.endObject();
                w.endObject();
            }
            w.endObject();
        }
        w.endArray();
        w.endObject();
        w.endObject();
        std::string error;
        if (!writeFileAtomically(inv.jsonOutFile, w.str() + "\n", &error)) {
            err << kPrefix << error << "\n";
            status = 1;
        }
    }

    // ---- HdrHistogram files ----
    // memtier's names and formats: PREFIX_FULL_RUN_<n>.txt (hdr_percentiles_print's
    // distribution) and .hgrm (an interval log for HistogramLogProcessor); the
    // same per command as PREFIX_<NAME>_command_run_<n>.
    if (!inv.hdrFilePrefix.empty()) {
        const auto writeHdr = [&](const std::string& base, const LatencyHistogram& h, const std::string& what,
                                  const MemtierRunStats& run) {
            if (h.count() == 0)
                return;
            const std::string title = what + " HDR latency histogram results";
            std::string error;
            err << "Writing " << title << " to " << base << ".txt...\n";
            if (!writeFileAtomically(base + ".txt", hdrPercentileDistribution(h, HdrTextStyle::C), &error)) {
                err << kPrefix << error << "\n";
                status = 1;
                return;
            }
            err << "Writing " << title << " in HistogramLogProcessor format to " << base << ".hgrm...\n";
            if (!writeFileAtomically(base + ".hgrm", hdrIntervalLog(h, title, run.startEpochSeconds, run.seconds),
                                     &error)) {
                err << kPrefix << error << "\n";
                status = 1;
            }
        };
        const auto writeRun = [&](const MemtierRunStats& run, const std::string& infix, std::size_t number) {
            const std::string n = std::to_string(number);
            writeHdr(inv.hdrFilePrefix + "_" + infix + "FULL_RUN_" + n, run.totals.latency, "Full Run command", run);
            if (run.targetRate > 0)
                writeHdr(inv.hdrFilePrefix + "_" + infix + "FULL_RUN_" + n + "_UNCORRECTED", run.totals.uncorrected,
                         "Full Run command (uncorrected: from the actual send)", run);
            for (const MemtierRow& row : run.rows)
                if (!row.placeholder)
                    writeHdr(inv.hdrFilePrefix + "_" + infix + row.histogramName + "_command_run_" + n, row.latency,
                             row.histogramName + " command", run);
        };
        if (preloadResult && !preloadResult->tests.empty())
            writeRun(preloadStats, "PRELOAD_", 1);
        for (std::size_t i = 0; i < runs.size(); ++i)
            writeRun(runs[i], "", i + 1);
    }

    // ---- memtier's --client-stats files: one per connection and run ----
    if (!inv.clientStatsPrefix.empty()) {
        for (std::size_t i = 0; i < result.tests.size(); ++i) {
            if (result.tests[i].clientStats.empty())
                continue;
            err << "[RUN #" << i + 1 << "] Writing client stats files...\n";
            for (const ClientStats& client : result.tests[i].clientStats) {
                std::string error;
                const std::string name
                    = memtierClientStatsFileName(inv.clientStatsPrefix, i + 1, client.client, inv.clientsPerThread);
                if (!writeFileAtomically(name, memtierClientStatsCsv(client, commandNames, setGet, inv.config.cluster),
                                         &error)) {
                    err << kPrefix << error << "\n";
                    status = 1;
                    break;
                }
            }
        }
    }

    // ---- Tacho's run file ----
    std::string runFile = runFileWritten;   // written: the clean-up is recorded there too
    if (!inv.jsonPath.empty() && runFileWritten.empty()) {
        RunResult file = std::move(result);
        if (preloadResult && !preloadResult->tests.empty()) {
            if (file.tests.empty())
                file.environment = preloadResult->environment;
            file.tests.insert(file.tests.begin(), std::move(preloadResult->tests.front()));
        }
        if (preloadResult && preloadResult->status == RunStatus::Failed) {
            file.status = RunStatus::Failed;
            file.failure = "preload: " + preloadResult->failure;
        }
        file.config = withoutSecrets(std::move(file.config));
        std::string error;
        if (writeRunFile(inv.jsonPath, file, &error)) {
            runFile = inv.jsonPath;
        } else {
            err << kPrefix << error << "\n";
            status = 1;
        }
    }
    if (inv.cleanup) {
        RunConfig written = inv.preload ? memtierPreloadConfig(inv) : inv.config;
        TestSpec keys;
        keys.generator = factory;
        written.tests.push_back(keys);
        status = std::max(status, cleanUpAfterRun(written, out, runFile, err, io.interrupts));
    }
    return status;
}

} // namespace tacho::engine
