// memtier's outputs of a measured line (memtier_outputs.h): the figures of its runs arranged
// as memtier's blocks, then each output in turn — the text report with Tacho's notes,
// --json-out-file, HdrHistogram files, --client-stats files, the run file, the clean-up.
#include "engine/cli/memtier_outputs.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include "engine/cli/memtier_args.h"
#include "engine/cli/shared_options.h"
#include "engine/cli/telemetry_options.h"
#include "engine/config/run_config.h"
#include "engine/report/atomic_file.h"
#include "engine/report/json_writer.h"
#include "engine/report/memtier_client_stats.h"
#include "engine/report/memtier_report.h"
#include "engine/report/redis_benchmark_report.h"
#include "engine/report/run_file.h"
#include "engine/resp/printable_text.h"
#include "engine/telemetry/bottleneck.h"
#include "engine/workload/memtier_generator_factory.h"

namespace tacho::engine {

namespace {

constexpr const char* kPrefix = "tacho-cli memtier: ";

double epochSeconds()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

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

// A block of the report: its header ("ALL STATS", "BEST RUN RESULTS", …) and figures.
struct Block {
    std::string header;
    const MemtierRunStats* stats;
};

// The figures memtier's outputs are written from: a MemtierRunStats per measured run (runs
// that measured nothing left out), the blocks of the report, and the preload's apart. Built in
// place: the blocks point into `runs` and `aggregate`.
struct MemtierReport {
    std::vector<MemtierRunStats> runs;
    MemtierRunStats aggregate;
    std::vector<Block> blocks;
    bool hasPreload = false;
    MemtierRunStats preloadStats;
    std::uint64_t perClient = 0;
    bool anything = false;
    // A run that failed before any test measured anything writes no output file and
    // announces none (an existing file stays as it was): its error says it all (issue 16).
    bool failedEmpty = false;
    std::vector<std::string> commandNames;
    bool setGet = true;
};

void collectRuns(MemtierReport& report, const MemtierInvocation& inv, const MemtierMeasured& measured)
{
    const RunResult& result = measured.result;
    for (std::size_t i = 0; i < result.tests.size(); ++i) {
        const TestResult& test = result.tests[i];
        if (test.status == RunStatus::Failed && test.requests == 0)
            continue;   // nothing measured (e.g. could not connect)
        report.runs.push_back(memtierStatsFromTest(test, report.commandNames, report.setGet, inv.breakdownByLine,
                                                   i < measured.ends.size() ? measured.ends[i] : epochSeconds()));
        if (inv.clientsStart > 0) {   // memtier writes "Active Clients" for a staircase ramp only
            const double end = inv.testTimeSeconds > 0 ? std::min(test.seconds, double(inv.testTimeSeconds)) : test.seconds;
            report.runs.back().activeClients = memtierActiveClients(test, end);
            report.runs.back().threads = inv.threads;
        }
    }
}

// ALL STATS for one run; else each run's (--print-all-runs), the best, the worst and their
// aggregate.
void arrangeBlocks(MemtierReport& report, const MemtierInvocation& inv)
{
    std::vector<MemtierRunStats>& runs = report.runs;
    if (runs.size() == 1 && inv.runCount == 1) {
        report.blocks.push_back({ "ALL STATS", &runs.front() });
    } else if (!runs.empty()) {
        if (inv.printAllRuns)
            for (std::size_t i = 0; i < runs.size(); ++i)
                report.blocks.push_back({ "RUN #" + std::to_string(i + 1) + " RESULTS", &runs[i] });
        report.blocks.push_back({ "BEST RUN RESULTS", &runs[memtierBestRun(runs)] });
        report.blocks.push_back({ "WORST RUN RESULTS", &runs[memtierWorstRun(runs)] });
        std::vector<const MemtierRunStats*> all;
        for (const MemtierRunStats& run : runs)
            all.push_back(&run);
        report.aggregate = memtierAggregate(all);
        report.blocks.push_back({ "AGGREGATED AVERAGE RESULTS (" + std::to_string(runs.size()) + " runs)",
                                  &report.aggregate });
    }
}

void buildReport(MemtierReport& report, const MemtierInvocation& inv, const MemtierMeasured& measured,
                 std::vector<std::string> commandNames)
{
    report.setGet = !inv.workload.arbitrary();
    report.commandNames = std::move(commandNames);
    const std::optional<RunResult>& preload = measured.preload;
    report.hasPreload = preload && !preload->tests.empty();
    if (report.hasPreload)
        report.preloadStats = memtierStatsFromTest(preload->tests.front(), { "SET", "GET" }, true, false,
                                                   measured.preloadEnd);
    collectRuns(report, inv, measured);
    arrangeBlocks(report, inv);
    report.perClient = memtierRequestsPerClient(inv);
    report.anything = !report.runs.empty() || report.hasPreload;
    report.failedEmpty = !report.anything
        && (measured.result.status == RunStatus::Failed || (preload && preload->status == RunStatus::Failed));
}

// --show-config's echo, the run information and the tables (with histograms unless hidden).
std::string reportTables(const MemtierReport& report, const MemtierInvocation& inv)
{
    std::ostringstream text;
    if (inv.showConfig) {
        JsonWriter echo(2);
        echo.beginObject();
        writeConfiguration(echo, inv);
        echo.endObject();
        text << "============== Configuration values: ==============\n" << echo.str()
             << "\n===================================================\n";
    }
    if (report.anything)
        text << formatMemtierRunInfo(inv.threads, inv.clientsPerThread, report.perClient, inv.testTimeSeconds);
    if (report.hasPreload) {
        text << formatMemtierTable(report.preloadStats, "PRELOAD RESULTS", inv.percentiles);
        if (!inv.hideHistogram)
            text << formatMemtierHistogram(report.preloadStats);
    }
    for (const Block& block : report.blocks) {
        text << formatMemtierTable(*block.stats, block.header, inv.percentiles);
        if (!inv.hideHistogram)
            text << formatMemtierHistogram(*block.stats);
    }
    return text.str();
}

// Each line of `lines` under `label` ("ALL STATS: …").
void labelLines(std::ostream& notes, const std::string& label, const std::string& lines)
{
    std::istringstream split(lines);
    for (std::string line; std::getline(split, line);)
        notes << label << ": " << line << "\n";
}

// A test's server cross-check, errors and failure, under `label`.
void testNotes(std::ostream& notes, const TestResult& test, const std::string& label)
{
    std::string lines = formatCrossCheck(test) + errorSummary(test);
    if (test.status == RunStatus::Failed && !test.failure.empty())
        lines += "failed: " + test.failure + "\n";
    labelLines(notes, label, lines);
}

// The preload's keys written, and its notes. False when some key was not written.
bool preloadNotes(std::ostream& notes, const TestResult& test, const MemtierInvocation& inv)
{
    notes << "PRELOAD: " << test.requests - std::min(test.requests, test.errors) << " keys written (" << inv.workload.keys.prefix
          << inv.workload.keys.minimum << " .. " << inv.workload.keys.prefix << inv.workload.keys.maximum << ")\n";
    testNotes(notes, test, "PRELOAD");
    if (test.errors > 0 || test.unanswered > 0) {   // the preload fills every key, or fails
        notes << "PRELOAD: " << test.errors + test.unanswered << " keys not written (" << test.errors
              << " error replies, " << test.unanswered << " unanswered): the key range is incomplete\n";
        return false;
    }
    return true;
}

// -n allkeys with P: every key exactly once, or how many were not covered. False when some
// were not.
bool allKeysNotes(std::ostream& notes, const RunResult& result, const MemtierInvocation& inv, std::uint64_t perClient)
{
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
        return false;
    if (!result.tests.empty())
        notes << "allkeys: " << inv.workload.keyCount() << " keys split over " << inv.config.connections
              << " connections, " << perClient << " or fewer each, every key exactly once\n";
    return true;
}

// Tacho's lines after the report: open loop, the server's count, errors, keys, bottlenecks.
// Sets `status` to 1 when the keys the line promised were not all covered.
std::string tachoNotes(const MemtierReport& report, const MemtierInvocation& inv, const MemtierMeasured& measured,
                       int& status)
{
    std::ostringstream notes;
    if (report.hasPreload && !preloadNotes(notes, measured.preload->tests.front(), inv))
        status = 1;
    const RunResult& result = measured.result;
    for (std::size_t i = 0; i < result.tests.size(); ++i) {
        const TestResult& test = result.tests[i];
        const std::string label = inv.runCount > 1 || result.tests.size() > 1 ? test.name : "ALL STATS";
        if (i < report.runs.size() && report.runs[i].targetRate > 0)
            labelLines(notes, label, formatMemtierOpenLoop(report.runs[i], inv.percentiles));
        testNotes(notes, test, label);
    }
    if (report.anything && inv.workload.allKeys && inv.workload.usesPattern(KeyPattern::Parallel)
        && !allKeysNotes(notes, result, inv, report.perClient))
        status = 1;
    notes << bottleneckLines(result);
    return notes.str();
}

// The text report to standard output, or to --out-file (not for a run that measured nothing).
bool writeTextReport(const std::string& text, const MemtierReport& report, const MemtierInvocation& inv,
                     const CommandIo& io)
{
    if (inv.outFile.empty()) {
        *io.out << text << std::flush;
        return true;
    }
    if (report.failedEmpty)
        return true;
    std::string error;
    if (!writeFileAtomically(inv.outFile, text, &error)) {
        *io.err << kPrefix << error << "\n";
        return false;
    }
    *io.err << "Results written to " << inv.outFile << "\n";
    return true;
}

// The open-loop figures of a run in Tacho's JSON object: from the due time and from the send.
void writeOpenLoopJson(JsonWriter& w, const MemtierRunStats& run, const std::vector<double>& percentiles)
{
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

// Tacho's additions to memtier's JSON, in their own object so memtier readers skip them.
void writeTachoJson(JsonWriter& w, const MemtierReport& report, const MemtierInvocation& inv, const RunResult& result)
{
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
        if (i < report.runs.size() && report.runs[i].targetRate > 0)
            writeOpenLoopJson(w, report.runs[i], inv.percentiles);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

// memtier's --json-out-file: configuration, run information, a block per table, Tacho's object.
bool writeMemtierJson(const MemtierReport& report, const MemtierInvocation& inv, const RunResult& result,
                      const CommandIo& io)
{
    JsonWriter w(1);
    w.beginObject();
    writeConfiguration(w, inv);
    w.key("run information").beginObject();
    w.field("Threads", inv.threads);
    w.field("Connections per thread", inv.clientsPerThread);
    if (inv.testTimeSeconds > 0)
        w.field("Seconds", static_cast<std::uint64_t>(inv.testTimeSeconds));
    else
        w.field("Requests per client", report.perClient);
    w.field("Format version", 2);
    w.endObject();
    if (report.hasPreload) {
        w.key("PRELOAD RESULTS").beginObject();
        writeMemtierStatsJson(w, report.preloadStats, inv.percentiles, !inv.hideHistogram);
        w.endObject();
    }
    for (const Block& block : report.blocks) {
        w.key(block.header).beginObject();
        writeMemtierStatsJson(w, *block.stats, inv.percentiles, !inv.hideHistogram);
        w.endObject();
    }
    writeTachoJson(w, report, inv, result);
    w.endObject();
    std::string error;
    if (!writeFileAtomically(inv.jsonOutFile, w.str() + "\n", &error)) {
        *io.err << kPrefix << error << "\n";
        return false;
    }
    return true;
}

// One HdrHistogram pair: BASE.txt (the percentile distribution) and BASE.hgrm (an interval log).
bool writeHdrPair(const std::string& base, const LatencyHistogram& h, const std::string& what, const MemtierRunStats& run,
                  std::ostream& err)
{
    if (h.count() == 0)
        return true;
    const std::string title = what + " HDR latency histogram results";
    std::string error;
    err << "Writing " << title << " to " << base << ".txt...\n";
    if (!writeFileAtomically(base + ".txt", hdrPercentileDistribution(h, HdrTextStyle::C), &error)) {
        err << kPrefix << error << "\n";
        return false;
    }
    err << "Writing " << title << " in HistogramLogProcessor format to " << base << ".hgrm...\n";
    if (!writeFileAtomically(base + ".hgrm", hdrIntervalLog(h, title, run.startEpochSeconds, run.seconds), &error)) {
        err << kPrefix << error << "\n";
        return false;
    }
    return true;
}

// memtier's names and formats: PREFIX_FULL_RUN_<n>.txt (hdr_percentiles_print's
// distribution) and .hgrm (an interval log for HistogramLogProcessor); the
// same per command as PREFIX_<NAME>_command_run_<n>.
bool writeHdrFilesOfRun(const MemtierRunStats& run, const std::string& prefix, std::size_t number, std::ostream& err)
{
    const std::string n = std::to_string(number);
    bool ok = writeHdrPair(prefix + "FULL_RUN_" + n, run.totals.latency, "Full Run command", run, err);
    if (run.targetRate > 0)
        ok = writeHdrPair(prefix + "FULL_RUN_" + n + "_UNCORRECTED", run.totals.uncorrected,
                          "Full Run command (uncorrected: from the actual send)", run, err) && ok;
    for (const MemtierRow& row : run.rows)
        if (!row.placeholder)
            ok = writeHdrPair(prefix + row.histogramName + "_command_run_" + n, row.latency,
                              row.histogramName + " command", run, err) && ok;
    return ok;
}

bool writeHdrFiles(const MemtierReport& report, const MemtierInvocation& inv, std::ostream& err)
{
    bool ok = true;
    if (report.hasPreload)
        ok = writeHdrFilesOfRun(report.preloadStats, inv.hdrFilePrefix + "_PRELOAD_", 1, err) && ok;
    for (std::size_t i = 0; i < report.runs.size(); ++i)
        ok = writeHdrFilesOfRun(report.runs[i], inv.hdrFilePrefix + "_", i + 1, err) && ok;
    return ok;
}

// memtier's --client-stats files: one per connection and run (a run stops at its first failure).
bool writeClientStatsFiles(const MemtierReport& report, const MemtierInvocation& inv, const RunResult& result,
                           std::ostream& err)
{
    bool ok = true;
    for (std::size_t i = 0; i < result.tests.size(); ++i) {
        if (result.tests[i].clientStats.empty())
            continue;
        err << "[RUN #" << i + 1 << "] Writing client stats files...\n";
        for (const ClientStats& client : result.tests[i].clientStats) {
            std::string error;
            const std::string name
                = memtierClientStatsFileName(inv.clientStatsPrefix, i + 1, client.client, inv.clientsPerThread);
            if (!writeFileAtomically(name, memtierClientStatsCsv(client, report.commandNames, report.setGet, inv.config.cluster),
                                     &error)) {
                err << kPrefix << error << "\n";
                ok = false;
                break;
            }
        }
    }
    return ok;
}

// Tacho's run file (--json): the preload as its first test; secrets removed. Returns the path
// written, or "" (with the error on standard error and `status` 1).
std::string writeTachoRunFile(const MemtierInvocation& inv, MemtierMeasured& measured, std::ostream& err, int& status)
{
    RunResult file = std::move(measured.result);
    std::optional<RunResult>& preload = measured.preload;
    if (preload && !preload->tests.empty()) {
        if (file.tests.empty())
            file.environment = preload->environment;
        file.tests.insert(file.tests.begin(), std::move(preload->tests.front()));
    }
    if (preload && preload->status == RunStatus::Failed) {
        file.status = RunStatus::Failed;
        file.failure = "preload: " + preload->failure;
    }
    file.config = withoutSecrets(std::move(file.config));
    std::string error;
    if (writeRunFile(inv.jsonPath, file, &error))
        return inv.jsonPath;
    err << kPrefix << error << "\n";
    status = 1;
    return {};
}

} // namespace

int writeMemtierOutputs(const MemtierInvocation& inv, MemtierMeasured measured, int status, const CommandIo& io,
                        const std::string& runFileWritten)
{
    std::ostream& err = *io.err;
    auto factory = std::make_shared<const MemtierGeneratorFactory>(inv.workload);
    MemtierReport report;
    buildReport(report, inv, measured, factory->commandNames());
    std::string text = reportTables(report, inv);
    const std::string notes = tachoNotes(report, inv, measured, status);
    if (!notes.empty())
        text += "\n\n" + notes;
    if (!writeTextReport(text, report, inv, io))
        status = 1;
    if (!inv.jsonOutFile.empty() && !report.failedEmpty && !writeMemtierJson(report, inv, measured.result, io))
        status = 1;
    if (!inv.hdrFilePrefix.empty() && !writeHdrFiles(report, inv, err))
        status = 1;
    if (!inv.clientStatsPrefix.empty() && !writeClientStatsFiles(report, inv, measured.result, err))
        status = 1;
    std::string runFile = runFileWritten;   // written: the clean-up is recorded there too
    if (!inv.jsonPath.empty() && runFileWritten.empty())
        runFile = writeTachoRunFile(inv, measured, err, status);
    if (inv.cleanup) {
        RunConfig written = inv.preload ? memtierPreloadConfig(inv) : inv.config;
        TestSpec keys;
        keys.generator = factory;
        written.tests.push_back(keys);
        status = std::max(status, cleanUpAfterRun(written, *io.out, runFile, err, io.interrupts));
    }
    return status;
}

} // namespace tacho::engine
