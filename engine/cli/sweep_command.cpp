#include "engine/cli/sweep_command.h"
#include "engine/cli/shared_options.h"
#include "engine/text/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "engine/cli/quoted.h"
#include "engine/report/json_writer.h"
#include "engine/report/sweep_table.h"
#include "engine/run/capacity_search.h"

namespace tacho::engine {

namespace {

using detail::quoted;

std::string fixed(double value, int decimals) { return fixedDecimals(value, decimals); }

// One swept dimension and its values, in the order given.
struct SweepList {
    std::string option;    // "--connections"
    std::string column;    // "Connections"
    std::vector<double> values;
};

struct SweepInvocation {
    std::vector<SweepList> lists;        // in the order given on the command line
    bool tlsBoth = false;
    std::optional<std::uint16_t> tlsPort;
    std::optional<std::uint16_t> plainPort;
    std::optional<double> duration;
    std::optional<double> warmup;
    StepOptions files;                   // --json, --csv, --help
    StepWorkload workload;
};

std::vector<double> parseList(const std::string& option, const std::string& text, bool integer, double max)
{
    if (text.empty())
        throw UsageError(option + ": the list is empty (e.g. " + option + " 50,100,200)");
    std::vector<double> values;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        double value = 0;
        if (item.empty())
            throw UsageError(option + ": " + quoted(text) + " has an empty item");
        if (!parseScaledNumber(item, &value))
            throw UsageError(option + ": " + quoted(item) + " is not a number");
        if (integer && (value < 1 || value != std::floor(value)))
            throw UsageError(option + ": " + quoted(item) + " must be a whole number of at least 1");
        if (!integer && !(value > 0))
            throw UsageError(option + ": " + quoted(item) + " must be greater than 0");
        if (option == "--rate")
            checkedRate(option, value, item);
        if (value > max)
            throw UsageError(option + ": " + quoted(item) + " is above the limit of " + plainNumber(max));
        values.push_back(value);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return values;
}

std::uint16_t parsePort(const std::string& option, const std::string& text)
{
    double value = 0;
    if (!parseScaledNumber(text, &value) || value != std::floor(value) || value < 1 || value > 65535)
        throw UsageError(option + ": " + quoted(text) + " is not a port (1 to 65535)");
    return static_cast<std::uint16_t>(value);
}

double parseSecondsOption(const std::string& option, const std::string& text, bool allowZero)
{
    double value = 0;
    if (!parseScaledNumber(text, &value))
        throw UsageError(option + ": " + quoted(text) + " is not a number of seconds");
    if (allowZero ? value < 0 : !(value > 0))
        throw UsageError(option + ": must be " + (allowZero ? "0 or more" : "greater than 0") + " seconds (got " + text
                         + ")");
    return checkedDuration(option, value, text, allowZero);
}

SweepInvocation parseSweepArgs(std::span<const std::string> args)
{
    SweepInvocation inv;
    const std::size_t separator = readStepOptions(args, &inv.files, [&](OptionReader& reader) {
        const std::string& name = reader.name;
        const auto addList = [&](const char* column, bool integer, double max) {
            for (const SweepList& list : inv.lists)
                if (list.option == name)
                    throw UsageError(name + ": given twice; list every value once (e.g. " + name + " 50,100)");
            inv.lists.push_back({ name, column, parseList(name, reader.value(), integer, max) });
        };
        if (name == "--connections") {
            addList("Connections", true, 100000);
        } else if (name == "--threads") {
            addList("Threads", true, 1024);
        } else if (name == "--pipeline") {
            addList("Pipeline", true, 100000);
        } else if (name == "--rate") {
            addList("Rate", false, 1e9);
        } else if (name == "--tls-both") {
            reader.flag();
            inv.tlsBoth = true;
        } else if (name == "--tls-port") {
            inv.tlsPort = parsePort(name, reader.value());
        } else if (name == "--plain-port") {
            inv.plainPort = parsePort(name, reader.value());
        } else if (name == "--duration") {
            inv.duration = parseSecondsOption(name, reader.value(), false);
        } else if (name == "--warmup") {
            inv.warmup = parseSecondsOption(name, reader.value(), true);
        } else {
            return false;
        }
        return true;
    });
    if (inv.files.showHelp)
        return inv;
    if (inv.lists.empty() && !inv.tlsBoth)
        throw UsageError("nothing to sweep: give --connections, --threads, --pipeline or --rate with a list of values, "
                         "or --tls-both");
    if ((inv.tlsPort || inv.plainPort) && !inv.tlsBoth)
        throw UsageError(std::string(inv.tlsPort ? "--tls-port" : "--plain-port") + ": only applies with --tls-both");
    inv.workload = stepWorkloadAfter(args, separator);
    if (inv.tlsBoth && !inv.workload.config.endpoint.unixSocket.empty())
        throw UsageError("--tls-both: the workload connects over a Unix socket, which has no TLS");
    if (inv.files.fleet.given && inv.tlsBoth)
        throw UsageError("--tls-both: not available on agents yet (sweep the TLS rows and the plain ones apart)");
    return inv;
}

// The settings a row's words carry on agents: those swept, and the row's length and warm-up when given.
StepSettings rowSettings(const SweepInvocation& inv)
{
    const auto swept = [&](const char* option) {
        return std::any_of(inv.lists.begin(), inv.lists.end(), [&](const SweepList& l) { return l.option == option; });
    };
    StepSettings which;
    which.connections = swept("--connections");
    which.threads = swept("--threads");
    which.pipeline = swept("--pipeline");
    which.rate = swept("--rate");
    which.duration = inv.duration.has_value();
    which.warmup = inv.warmup.has_value();
    return which;
}

// Every combination, the first list varying slowest; TLS (off, on) outermost.
struct Combination {
    std::vector<std::string> cells;      // one per column
    std::string label;                   // "connections 5, TLS off"
    RunConfig config;
};

std::vector<Combination> combinations(const SweepInvocation& inv)
{
    const StepWorkload& w = inv.workload;
    std::vector<Combination> out;
    const bool connectionsSwept = std::any_of(inv.lists.begin(), inv.lists.end(),
                                              [](const SweepList& l) { return l.option == "--connections"; });
    std::size_t total = 1;
    for (const SweepList& list : inv.lists)
        total *= list.values.size();
    for (int tls = 0; tls < (inv.tlsBoth ? 2 : 1); ++tls) {
        for (std::size_t number = 0; number < total; ++number) {
            // The last list varies fastest.
            std::vector<std::size_t> index(inv.lists.size(), 0);
            std::size_t rest = number;
            for (std::size_t k = inv.lists.size(); k-- > 0;) {
                index[k] = rest % inv.lists[k].values.size();
                rest /= inv.lists[k].values.size();
            }
            Combination c;
            c.config = w.config;
            RunConfig& config = c.config;
            if (inv.duration) {
                config.requests = 0;
                config.durationSeconds = *inv.duration;
            }
            if (inv.warmup)
                config.warmupSeconds = *inv.warmup;
            for (std::size_t k = 0; k < inv.lists.size(); ++k) {
                const SweepList& list = inv.lists[k];
                const double value = list.values[index[k]];
                const int whole = static_cast<int>(std::lround(value));
                c.cells.push_back(list.option == "--rate" ? plainNumber(value) : std::to_string(whole));
                c.label += (c.label.empty() ? "" : ", ") + list.option.substr(2) + " " + c.cells.back();
                if (list.option == "--connections") {
                    config.connections = whole;
                } else if (list.option == "--threads") {
                    config.threads = whole;
                    if (!connectionsSwept && w.clientsPerThread > 0)
                        config.connections = whole * w.clientsPerThread;   // memtier: threads x clients
                } else if (list.option == "--pipeline") {
                    config.pipeline = whole;
                } else if (list.option == "--rate") {
                    config.rate = value;
                    config.ratePerConnection = 0;
                }
            }
            if (inv.tlsBoth) {
                config.endpoint.tls = tls == 1;
                if (tls == 1 && inv.tlsPort)
                    config.endpoint.port = *inv.tlsPort;
                if (tls == 0 && inv.plainPort)
                    config.endpoint.port = *inv.plainPort;
                c.cells.push_back(tls == 1 ? "on" : "off");
                c.label += std::string(c.label.empty() ? "" : ", ") + "TLS " + c.cells.back();
            }
            // The workload's threads beyond a swept connection count: one connection each.
            const bool threadsSwept = std::any_of(inv.lists.begin(), inv.lists.end(),
                                                  [](const SweepList& l) { return l.option == "--threads"; });
            if (!threadsSwept && config.threads > config.connections)
                config.threads = config.connections;
            out.push_back(std::move(c));
        }
    }
    return out;
}

std::string sweepJson(const SweepTable& table, const std::vector<std::optional<std::size_t>>& testIndexes,
                      const StepWorkload& workload, std::optional<std::size_t> preloadTest, const FleetOptions& fleet)
{
    JsonWriter w(2);
    w.beginObject();
    w.field("workload", workload.commandLine());
    // On agents: how many, and which when named (the control URL may hold a password).
    if (fleet.given) {
        w.key("agents").beginObject();
        w.field("count", fleet.agentCount);
        w.key("names").beginArray();
        for (const std::string& name : fleet.names)
            w.value(name);
        w.endArray();
        w.endObject();
    }
    if (preloadTest)
        w.field("preloadTest", *preloadTest);
    else
        w.key("preloadTest").null();
    w.key("columns").beginArray();
    for (const std::string& column : table.settingColumns)
        w.value(column);
    w.endArray();
    w.key("rows").beginArray();
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const SweepRow& row = table.rows[i];
        w.beginObject();
        w.key("settings").beginObject();
        for (std::size_t c = 0; c < table.settingColumns.size() && c < row.settings.size(); ++c)
            w.field(table.settingColumns[c], row.settings[c]);
        w.endObject();
        w.field("test", row.test);
        if (i < testIndexes.size() && testIndexes[i])
            w.field("testIndex", *testIndexes[i]);
        else
            w.key("testIndex").null();
        w.field("qps", row.qps);
        w.field("avgMs", row.avgMs);
        w.field("p50Ms", row.p50Ms);
        w.field("p99Ms", row.p99Ms);
        w.field("p999Ms", row.p999Ms);
        w.field("maxMs", row.maxMs);
        w.field("requests", row.requests);
        w.field("errors", row.errors);
        w.field("status", runStatusName(row.status));
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return w.str();
}

// Every row's load within the limits, and on agents every row's words divisible among them,
// before anything runs.
void checkCombinations(const SweepInvocation& inv, const std::vector<Combination>& combos, const StepSettings& onAgents)
{
    for (const Combination& c : combos) {
        if (c.config.threads > c.config.connections)
            throw UsageError("--threads: more threads than connections in " + c.label);
        checkRequestsInFlight(std::uint64_t(c.config.connections), std::uint64_t(c.config.pipeline),
                              "--connections " + std::to_string(c.config.connections) + " x --pipeline "
                                  + std::to_string(c.config.pipeline) + " (" + c.label + ")");
        // On agents: every row's words divided once before anything runs.
        if (inv.files.fleet.given) {
            try {
                checkWordsOnAgents(inv.workload, inv.workload.wordsFor(c.config, onAgents), inv.files.fleet.agentCount);
            } catch (const UsageError& e) {
                throw UsageError(c.label + " on agents: " + e.what());
            }
        }
    }
    if (inv.files.fleet.given && inv.workload.preload)
        checkWordsOnAgents(inv.workload, inv.workload.preloadWords(), inv.files.fleet.agentCount);
}

// What the sweep has gathered so far: the table, the run file's tests (a table row's test by
// index, the preload's apart), and how it is going.
struct SweepProgress {
    SweepTable table;
    RunResult file;
    std::vector<std::optional<std::size_t>> testIndexes;   // per table row
    std::optional<std::size_t> preloadIndex;
    int status = 0;
    bool stopped = false;
};

// memtier --preload: fill the key range once, before the rows; reported apart. False when the
// rows must not run (the preload failed or was stopped).
bool runPreload(StepSession& session, const SweepInvocation& inv, SweepProgress& progress)
{
    RunResult preload = session.runPreload(inv.workload);
    for (TestResult& test : preload.tests) {
        progress.preloadIndex = progress.file.tests.size();
        session.err() << "preload: " << test.requests << " keys written in " << fixed(test.seconds, 2) << " s"
                      << (test.errors ? ", " + std::to_string(test.errors) + " errors" : std::string()) << "\n";
        progress.file.tests.push_back(std::move(test));
    }
    if (preload.status == RunStatus::Failed) {
        session.error("error: preload failed: " + preload.failure);
        progress.status = 1;
        return false;
    }
    if (preload.status == RunStatus::Stopped) {
        progress.stopped = true;
        return false;
    }
    return true;
}

// One row of settings (`n` of `total`, from 0): its tests in the table and the run file, a line
// each. False when the sweep stops here.
bool runCombination(StepSession& session, const Combination& combo, std::size_t n, std::size_t total,
                    SweepProgress& progress)
{
    SweepTable& table = progress.table;
    RunResult result = session.run(combo.config);
    if (result.tests.empty()) {
        SweepRow row;
        row.settings = combo.cells;
        row.status = result.status;
        row.failure = result.failure;
        if (result.status != RunStatus::Stopped) {
            table.rows.push_back(row);
            progress.testIndexes.push_back(std::nullopt);
        }
    }
    for (TestResult& test : result.tests) {
        SweepRow row = sweepRowFromTest(combo.cells, test);
        session.err() << "[" << n + 1 << "/" << total << "] " << combo.label << (table.showTest ? ", " + test.name : "")
                      << ": " << fixed(row.qps, 2) << " ops/s, avg " << fixed(row.avgMs, 3) << " ms, p99 "
                      << fixed(row.p99Ms, 3) << " ms, p99.9 " << fixed(row.p999Ms, 3) << " ms"
                      << (test.crossCheck.available ? (test.crossCheck.agrees() ? ", server agrees" : ", server disagrees")
                                                    : "")
                      << "\n";
        table.rows.push_back(std::move(row));
        test.name = combo.label + ": " + test.name;
        progress.testIndexes.push_back(progress.file.tests.size());
        progress.file.tests.push_back(std::move(test));
    }
    if (result.status == RunStatus::Failed) {
        session.error("error: " + combo.label + ": " + result.failure);
        progress.status = 1;
    } else if (result.status == RunStatus::Stopped) {
        progress.stopped = true;
        return false;
    }
    return true;
}

// The table (standard output), --csv and the run file (--json).
int writeSweepOutputs(StepSession& session, const SweepInvocation& inv, SweepProgress& progress)
{
    int status = progress.status;
    session.err() << std::flush;
    session.out() << formatSweepTable(progress.table) << std::flush;
    if (progress.stopped)
        session.error("stopped; the rows above are the ones that ran");

    if (!inv.files.csvPath.empty() && !session.writeFile(inv.files.csvPath, sweepTableCsv(progress.table)))
        status = 1;
    if (!inv.files.jsonPath.empty()) {
        RunResult& file = progress.file;
        file.environment = session.runner().environment();
        file.status = status != 0 ? RunStatus::Failed : progress.stopped ? RunStatus::Stopped : RunStatus::Completed;
        if (status != 0)
            file.failure = "a row failed";
        for (const TestResult& test : file.tests)
            file.totalSeconds += test.connectSeconds + test.warmupSeconds + test.seconds;
        if (!session.writeRunFile(inv.files.jsonPath, file, "sweep",
                                  sweepJson(progress.table, progress.testIndexes, inv.workload, progress.preloadIndex,
                                            inv.files.fleet)))
            status = 1;
    }
    return status;
}

} // namespace

std::string sweepUsage()
{
    return R"(Usage: tacho-cli sweep [settings] [options] -- WORKLOAD

Runs the same workload at a list of settings and prints one table row per
setting (and test): QPS, average, p99 and p99.9 latency, errors, and whether
the server's INFO commandstats agrees with the requests counted.

Settings (comma-separated lists, k/M suffixes allowed; several lists run
every combination, the first one varying slowest):
 --connections LIST   e.g. 1000,3000,10000
 --threads LIST       worker threads; with a memtier workload and no
                      --connections: connections = threads x --clients
 --pipeline LIST      requests in flight per connection
 --rate LIST          open loop, total requests/s
 --tls-both           every combination without TLS, then with TLS (TLS
                      settings such as --cacert come from the workload)
 --tls-port N         port of the TLS rows (default: the workload's)
 --plain-port N       port of the rows without TLS (default: the workload's)

Options:
 --duration S         run each row for S seconds (default: the workload's
                      own request count or test time)
 --warmup S           warm-up before each row, left out of the numbers
 --csv FILE           the table as CSV
 --json FILE          run file: every row's test, and a "sweep" section
 --agents N|a,b,c     run every row on N agents (or the named ones), each
                      row's load divided among them (tacho-cli agent)
 --control URL        the control server the agents watch (with --agents)
 --help               this text

WORKLOAD, after "--", in redis-benchmark's or memtier_benchmark's words
(memtier's --preload fills the key range once, before the first row):
  tacho-cli sweep --connections 50,100,200 --duration 10 -- redis-benchmark -t set,get
  tacho-cli sweep --connections 1000,3000 --tls-both --tls-port 6380 --csv t.csv \
      -- memtier -s 10.0.0.5 -p 6379 --ratio 1:0 -d 32 --test-time 60 --cacert ca.crt
)";
}

int runSweepCommand(std::span<const std::string> args, const StepCommandIo& io)
{
    SweepInvocation inv;
    std::vector<Combination> combos;
    StepSettings onAgents;   // what a row's words carry on agents
    try {
        inv = parseSweepArgs(args);
        onAgents = rowSettings(inv);
        if (!inv.files.showHelp) {
            combos = combinations(inv);
            checkCombinations(inv, combos, onAgents);
        }
    } catch (const UsageError& e) {
        return reportStepUsageError("sweep", e, args, io);
    }
    if (inv.files.showHelp) {
        *io.out << sweepUsage();
        return 0;
    }

    StepSession session("sweep", io, inv.workload.config, CapacityDimension::Connections, 0, 0);
    RunControllerStepRunner& runner = session.runner();
    std::string currentLabel;
    session.showProgress([&](const IntervalSnapshot& snapshot) {
        return "[" + currentLabel + ": " + snapshot.testName + (snapshot.warmup ? ", warming up" : "") + " "
            + fixed(snapshot.elapsedSeconds, 1) + " s] " + std::to_string(snapshot.requestsSoFar) + " replies, avg "
            + fixed(snapshot.overallMeanNs / 1e6, 3) + " ms";
    });

    SweepProgress progress;
    for (const SweepList& list : inv.lists)
        progress.table.settingColumns.push_back(list.column);
    if (inv.tlsBoth)
        progress.table.settingColumns.push_back("TLS");
    progress.table.showTest = inv.workload.config.tests.size() > 1;
    progress.file.config = withoutSecrets(inv.workload.config);

    if (inv.files.fleet.given)
        session.runOnAgents(inv.workload, inv.files.fleet, onAgents);
    if (inv.workload.preload) {
        currentLabel = "preload";
        if (!runPreload(session, inv, progress))
            combos.clear();
    }
    for (std::size_t n = 0; n < combos.size(); ++n) {
        if (runner.stopRequested()) {
            progress.stopped = true;
            break;
        }
        currentLabel = combos[n].label;
        if (!runCombination(session, combos[n], n, combos.size(), progress))
            break;
    }
    return writeSweepOutputs(session, inv, progress);
}

} // namespace tacho::engine
