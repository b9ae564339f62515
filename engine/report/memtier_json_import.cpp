// memtier_benchmark --json-out-file (memtier's own and Tacho's `memtier`).
#include "engine/report/peer_import.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "engine/report/peer_import_internal.h"

namespace tacho::engine {

using namespace peer_import_detail;

namespace {

std::string lower(std::string s)
{
    for (char& c : s)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return s;
}

std::string upper(std::string s)
{
    for (char& c : s)
        if (c >= 'a' && c <= 'z')
            c = char(c - 'a' + 'A');
    return s;
}

// Minimal typed access with paths, for messages.
struct JNode {
    const JsonValue* v;
    std::string path;

    [[noreturn]] void fail(const std::string& what) const { throw ImportError { path + ": " + what }; }
    const JsonValue* find(std::string_view key) const { return v->isObject() ? v->find(key) : nullptr; }
    std::optional<JNode> get(std::string_view key) const
    {
        if (const JsonValue* c = find(key))
            return JNode { c, path + "." + std::string(key) };
        return std::nullopt;
    }
    JNode at(std::string_view key) const
    {
        if (auto c = get(key))
            return *c;
        throw ImportError { path + "." + std::string(key) + ": missing" };
    }
    double number() const
    {
        if (!v->isNumber())
            fail(std::string("expected a number, found ") + v->typeName());
        if (!std::isfinite(v->number()))
            fail("number " + v->text() + " is out of range");
        return v->number();
    }
    double nonNegative() const
    {
        const double d = number();
        if (d < 0)
            fail("expected a number >= 0, found " + v->text());
        return d;
    }
    std::uint64_t count() const
    {
        if (!v->isNumber())
            fail(std::string("expected a non-negative integer, found ") + v->typeName());
        if (auto u = v->asUint64())
            return *u;
        const double d = v->number();
        if (std::isfinite(d) && d >= 0 && d == std::floor(d) && d <= 9007199254740992.0)
            return std::uint64_t(d);
        fail("expected a non-negative integer, found " + v->text());
    }
    std::string string() const
    {
        if (!v->isString())
            fail(std::string("expected a string, found ") + v->typeName());
        return v->text();
    }
    // memtier writes booleans as "true"/"false" strings; Tacho too. Accept both.
    bool flag() const
    {
        if (v->isBool())
            return v->boolValue();
        if (v->isString() && (v->text() == "true" || v->text() == "false"))
            return v->text() == "true";
        fail(std::string("expected true or false, found ") + v->typeName());
    }
};

// "Sets" → "SET", "Mgets" → "MGET".
std::string commandFromRowType(const std::string& type)
{
    std::string s = type;
    if (s.size() > 1 && s.back() == 's')
        s.pop_back();
    return upper(s);
}

// memtier percentile keys: "p50.00" → 50.
std::optional<double> percentileFromKey(const std::string& key)
{
    if (key.size() < 2 || key[0] != 'p')
        return std::nullopt;
    return parseNumber(std::string_view(key).substr(1));
}

void assignPercentile(StatedFigures& f, double p, double ms)
{
    if (std::fabs(p - 50) < 1e-9)
        f.p50Ms = ms;
    else if (std::fabs(p - 95) < 1e-9)
        f.p95Ms = ms;
    else if (std::fabs(p - 99) < 1e-9)
        f.p99Ms = ms;
    else if (std::fabs(p - 99.9) < 1e-9)
        f.p999Ms = ms;
}

std::uint64_t msToNs(double ms)
{
    if (!(ms > 0))
        return 0;
    const double ns = ms * 1e6 + 0.5;
    return ns >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(ns);
}

// The distribution array [{"<=msec": v, "percent": p}, …] back into counts:
// each step's share of `total` at its value. Approximate by nature.
LatencyHistogram histogramFromSteps(const JNode& steps, std::uint64_t total)
{
    LatencyHistogram h;
    if (!steps.v->isArray())
        steps.fail(std::string("expected an array, found ") + steps.v->typeName());
    double previous = 0;
    std::uint64_t assigned = 0;
    const auto& items = steps.v->items();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const JNode item { &items[i], steps.path + "[" + std::to_string(i) + "]" };
        const double ms = item.at("<=msec").nonNegative();
        const double percent = item.at("percent").nonNegative();
        if (percent > 100.0 + 1e-9)
            item.at("percent").fail("above 100");
        if (percent + 1e-9 < previous)
            item.at("percent").fail("percentiles must not decrease");
        std::uint64_t upTo = std::uint64_t(std::llround(percent / 100.0 * double(total)));
        upTo = std::min(upTo, total);
        if (upTo > assigned) {
            h.recordN(std::max<std::uint64_t>(msToNs(ms), 1), upTo - assigned);
            assigned = upTo;
        }
        previous = percent;
    }
    return h;
}

struct MemtierRowData {
    std::string type;       // "Sets"
    std::string command;    // "SET"
    JNode node;
};

// The block's runtime: the test's seconds (returned) and whether it was interrupted; the run's
// start time from the first block that has one.
double readRuntime(const JNode& block, TestResult& test, LoadedRun& out)
{
    double seconds = 0;
    double startEpoch = 0;
    if (auto runtime = block.get("Runtime")) {
        if (auto d = runtime->get("Total duration"))
            seconds = d->nonNegative() / 1000.0;
        if (auto s = runtime->get("Start time"))
            startEpoch = s->nonNegative() / 1000.0;
        if (auto i = runtime->get("Interrupted"); i && i->flag())
            test.status = RunStatus::Stopped;
    }
    test.seconds = seconds;
    if (startEpoch > 0 && out.run.environment.startedAtUtc.empty())
        out.run.environment.startedAtUtc = formatUtcTimestamp(startEpoch);
    return seconds;
}

// The block's rows per command ("Sets", "Gets", …): every object but "Runtime" and "Totals".
std::vector<MemtierRowData> memtierRows(const JNode& block)
{
    std::vector<MemtierRowData> rows;
    const JsonValue& b = *block.v;
    for (std::size_t i = 0; i < b.memberCount(); ++i) {
        const std::string& key = b.keyAt(i);
        if (key == "Runtime" || key == "Totals" || !b.valueAt(i).isObject())
            continue;
        rows.push_back(MemtierRowData { key, commandFromRowType(key), JNode { &b.valueAt(i), block.path + "." + key } });
    }
    return rows;
}

// A row's stated figures, and its latency histogram into `h`: the HdrHistogram memtier wrote
// (`exact`), else one rebuilt from the block's percentile steps named `histogramName` (for a
// row with requests). False when the row has neither.
bool readRowFigures(const JNode& row, const JNode& block, const std::string& histogramName, StatedFigures& f,
                    LatencyHistogram& h, std::uint64_t count, bool& exact)
{
    f.requests = count;
    if (auto v = row.get("Ops/sec"))
        f.opsPerSec = v->nonNegative();
    if (auto v = row.get("Average Latency"))
        f.avgMs = v->nonNegative();
    if (auto v = row.get("Min Latency"))
        f.minMs = v->nonNegative();
    if (auto v = row.get("Max Latency"))
        f.maxMs = v->nonNegative();
    if (auto v = row.get("KB/sec"))
        f.kbPerSec = v->nonNegative();
    exact = false;
    bool haveHistogram = false;
    if (auto pl = row.get("Percentile Latencies")) {
        const JsonValue& o = *pl->v;
        for (std::size_t i = 0; i < o.memberCount(); ++i)
            if (auto p = percentileFromKey(o.keyAt(i)); p && o.valueAt(i).isNumber())
                assignPercentile(f, *p, JNode { &o.valueAt(i), pl->path + "." + o.keyAt(i) }.nonNegative());
        if (auto log = pl->get("Histogram log format")) {
            if (auto compressed = log->get("Compressed Histogram")) {
                std::string error;
                LatencyHistogram decoded;
                if (!LatencyHistogram::fromCompressedBase64(compressed->string(), decoded, &error))
                    compressed->fail("not a readable HdrHistogram: " + error);
                h = std::move(decoded);
                haveHistogram = exact = true;
            }
        }
    }
    if (!haveHistogram && count > 0) {
        if (auto steps = block.get(histogramName)) {
            h = histogramFromSteps(*steps, count);
            haveHistogram = true;
        }
    }
    return haveHistogram;
}

// What the rows' histograms hold, for judging the test's.
struct HistogramKinds {
    bool allExact = true;
    bool any = false;
    bool everyLatency = true;   // every row's histogram holds one latency per request it counts
    bool anyApproximate = false;
};

// The test's commands from its rows (memtier's always-present empty WAIT row left out).
HistogramKinds readCommands(const std::vector<MemtierRowData>& rows, const JNode& block, TestResult& test,
                            LoadedTest& loaded)
{
    HistogramKinds kinds;
    for (const MemtierRowData& row : rows) {
        const std::uint64_t count = row.node.at("Count").count();
        if (count == 0 && (row.type == "Waits"))
            continue;   // memtier's always-present WAIT row
        CommandResult command;
        command.name = row.command;
        command.requests = count;
        StatedFigures f;
        bool exact = false;
        const bool has = readRowFigures(row.node, block, row.command, f, command.latency, count, exact);
        if (has) {
            kinds.any = true;
            if (!exact)
                kinds.anyApproximate = true;
        }
        if (!has || !exact)
            kinds.allExact = false;
        if (command.latency.count() != count)
            kinds.everyLatency = false;
        test.commands.push_back(std::move(command));
        loaded.commands.push_back(f);
        loaded.commandKeysPerRequest.push_back(0);
    }
    return kinds;
}

// The Totals row's counts and stated figures, and the test's histogram (its commands' added):
// whether it is a distribution of the test at all.
void readTotals(const JNode& totals, const JNode& block, const HistogramKinds& kinds, const std::string& testName,
                TestResult& test, LoadedTest& loaded, LoadedRun& out)
{
    test.requests = totals.at("Count").count();
    if (auto v = totals.get("Connection Errors"))
        test.connectErrors = v->count();
    StatedFigures& f = loaded.figures;
    {
        LatencyHistogram unused;
        bool exact = false;
        readRowFigures(totals, block, "", f, unused, 0, exact);
        f.requests = test.requests;
    }
    // memtier writes 0 as the Totals' average latency; the commands' count-
    // weighted mean is the real one.
    if (f.avgMs && *f.avgMs == 0 && test.requests > 0) {
        double sum = 0;
        std::uint64_t n = 0;
        for (std::size_t i = 0; i < loaded.commands.size(); ++i)
            if (loaded.commands[i].avgMs) {
                sum += *loaded.commands[i].avgMs * double(test.commands[i].requests);
                n += test.commands[i].requests;
            }
        if (n > 0)
            f.avgMs = sum / double(n);
    }
    std::uint64_t latencies = 0;   // checked: wrapped counts must not match by accident (issue 15)
    for (const CommandResult& c : test.commands) {
        if (__builtin_add_overflow(latencies, c.latency.count(), &latencies))
            block.fail("the commands' latency counts add up to more than 18446744073709551615");
        test.latency.add(c.latency);
    }
    // A histogram missing some requests (a row without one, steps that stop
    // short of 100%, a count that disagrees) is no distribution of the test:
    // merged or written as a run file it would claim what it does not hold.
    loaded.hasHistogram = test.requests == 0
        || (kinds.any && kinds.everyLatency && test.latency.count() > 0 && test.latency.count() == test.requests);
    loaded.histogramApproximate = kinds.anyApproximate;
    // The stated percentiles are memtier's own and win over rebuilt ones in
    // comparisons; an exact histogram must hold every request.
    if (kinds.allExact && test.latency.count() != test.requests) {
        out.lacks.push_back("a latency histogram that matches the request count in \"" + testName + "\"");
    }
}

// One command's figures at a second, from its row's own series ("key" is the second).
CommandInterval commandAtSecond(const std::vector<MemtierRowData>& rows, const std::string& command, const std::string& key)
{
    CommandInterval ci;
    for (const MemtierRowData& row : rows) {
        if (row.command != command)
            continue;
        if (auto rs = row.node.get("Time-Serie"))
            if (auto at = rs->get(key)) {
                ci.requests = at->at("Count").count();
                if (auto v = at->get("Average Latency"))
                    ci.mean = v->nonNegative() * 1e6;
                if (auto v = at->get("Max Latency"))
                    ci.max = msToNs(v->nonNegative());
                if (auto v = at->get("p50.00"))
                    ci.p50 = msToNs(v->nonNegative());
                if (auto v = at->get("p99.00"))
                    ci.p99 = msToNs(v->nonNegative());
            }
    }
    return ci;
}

// One second of the Totals' series, cut at the test's end (`seconds`, 0 when unknown).
IntervalPoint readSecond(const JNode& p, long second, double seconds)
{
    IntervalPoint point;
    point.startSeconds = double(second);
    point.endSeconds = seconds > 0 ? std::min(double(second) + 1, std::max(seconds, double(second))) : double(second) + 1;
    point.requests = p.at("Count").count();
    if (auto v = p.get("Bytes RX"))
        point.bytesReceived = v->count();
    if (auto v = p.get("Bytes TX"))
        point.bytesSent = v->count();
    if (auto v = p.get("Average Latency"))
        point.mean = v->nonNegative() * 1e6;
    if (auto v = p.get("Max Latency"))
        point.max = msToNs(v->nonNegative());
    const JsonValue& o = *p.v;
    for (std::size_t i = 0; i < o.memberCount(); ++i) {
        const auto pct = percentileFromKey(o.keyAt(i));
        if (!pct || !o.valueAt(i).isNumber())
            continue;
        const std::uint64_t ns = msToNs(JNode { &o.valueAt(i), p.path + "." + o.keyAt(i) }.nonNegative());
        if (std::fabs(*pct - 50) < 1e-9)
            point.p50 = ns;
        else if (std::fabs(*pct - 99) < 1e-9)
            point.p99 = ns;
        else if (std::fabs(*pct - 99.9) < 1e-9)
            point.p999 = ns;
    }
    return point;
}

// The per-second series of the Totals row, in second order; per command too for a mixed test.
void readTimeSeries(const JNode& totals, const std::vector<MemtierRowData>& rows, double seconds, TestResult& test)
{
    auto series = totals.get("Time-Serie");
    if (!series || !series->v->isObject())
        return;
    const JsonValue& s = *series->v;
    std::vector<std::pair<long, std::size_t>> order;
    for (std::size_t i = 0; i < s.memberCount(); ++i) {
        long second = 0;
        const std::string& key = s.keyAt(i);
        const auto r = std::from_chars(key.data(), key.data() + key.size(), second);
        if (r.ec != std::errc() || r.ptr != key.data() + key.size() || second < 0)
            series->fail("key \"" + key + "\" is not a second number");
        order.emplace_back(second, i);
    }
    std::sort(order.begin(), order.end());
    for (const auto& [second, index] : order) {
        IntervalPoint point = readSecond(JNode { &s.valueAt(index), series->path + "." + s.keyAt(index) }, second, seconds);
        if (test.commands.size() > 1)
            for (const CommandResult& command : test.commands)
                point.commands.push_back(commandAtSecond(rows, command.name, s.keyAt(index)));
        test.intervals.push_back(std::move(point));
    }
}

// What the test sent, described from memtier's configuration block; the MGET's keys per
// request from its multi_key_get.
std::string memtierWorkloadText(const JNode* configuration, const TestResult& test, LoadedTest& loaded)
{
    std::string workload = "memtier_benchmark";
    if (!configuration)
        return workload;
    if (auto ratio = configuration->get("ratio"); ratio && ratio->v->isString())
        workload += " ratio " + ratio->string();
    if (auto kp = configuration->get("key_pattern"); kp && kp->v->isString())
        workload += ", key pattern " + kp->string();
    if (auto kmin = configuration->get("key_minimum"); kmin && kmin->v->isNumber())
        workload += ", keys " + kmin->v->text();
    if (auto kmax = configuration->get("key_maximum"); kmax && kmax->v->isNumber())
        workload += ".." + kmax->v->text();
    if (auto mkg = configuration->get("multi_key_get"); mkg && mkg->v->isNumber()) {
        const std::uint64_t n = mkg->count();
        if (n > 0) {
            workload += ", MGET of " + std::to_string(n) + " keys";
            for (std::size_t i = 0; i < test.commands.size(); ++i)
                if (test.commands[i].name == "MGET")
                    loaded.commandKeysPerRequest[i] = std::uint32_t(std::min<std::uint64_t>(n, UINT32_MAX));
        }
    }
    if (auto cmds = configuration->get("commands"); cmds && cmds->v->isArray())
        for (const JsonValue& c : cmds->v->items())
            if (const JsonValue* line = c.find("command"); line && line->isString())
                workload += "; " + line->text();
    return workload;
}

// Configuration → the test's spec; its INFO commandstats names from its commands.
TestSpec memtierTestSpec(const std::string& testName, const JNode* configuration, TestResult& test, LoadedTest& loaded)
{
    TestSpec spec;
    spec.name = testName;
    spec.generator = describedWorkload(memtierWorkloadText(configuration, test, loaded));
    std::vector<std::string> statNames;
    for (const CommandResult& c : test.commands)
        statNames.push_back(lower(c.name));
    for (std::size_t i = 0; i < statNames.size(); ++i)
        spec.commandStatName += (i ? "," : "") + statNames[i];
    test.commandStatName = spec.commandStatName;
    return spec;
}

// One run's block ("ALL STATS", "RUN #n RESULTS", …) as a test of `out`.
void readMemtierBlock(const JNode& block, const std::string& testName, const JNode* configuration, LoadedRun& out)
{
    if (!block.v->isObject())
        block.fail(std::string("expected an object, found ") + block.v->typeName());
    TestResult test;
    LoadedTest loaded;
    test.name = testName;
    const double seconds = readRuntime(block, test, out);
    const std::vector<MemtierRowData> rows = memtierRows(block);
    const JNode totals = block.at("Totals");
    const HistogramKinds kinds = readCommands(rows, block, test, loaded);
    readTotals(totals, block, kinds, testName, test, loaded, out);
    readTimeSeries(totals, rows, seconds, test);
    out.run.config.tests.push_back(memtierTestSpec(testName, configuration, test, loaded));
    out.run.tests.push_back(std::move(test));
    out.tests.push_back(std::move(loaded));
}

void readMemtierConfiguration(const JNode& c, LoadedRun& out)
{
    RunConfig& config = out.run.config;
    std::uint64_t clients = 0, threads = 0;
    if (auto v = c.get("clients"))
        clients = v->count();
    if (auto v = c.get("threads"))
        threads = v->count();
    if (clients > 0 && threads > 0 && clients * threads <= std::uint64_t(std::numeric_limits<int>::max())) {
        config.connections = int(clients * threads);
        config.threads = int(threads);
    } else {
        out.known.connections = false;
    }
    if (auto v = c.get("pipeline"))
        config.pipeline = int(std::min<std::uint64_t>(v->count(), 1u << 30));
    else
        out.known.pipeline = false;
    if (auto v = c.get("data_size"); v && v->count() > 0)
        config.valueSize = std::uint32_t(std::min<std::uint64_t>(v->count(), UINT32_MAX));
    else
        out.known.valueSize = false;   // a range or list of sizes
    if (auto v = c.get("tls"))
        config.endpoint.tls = v->flag();
    else
        out.known.tls = false;
    if (auto v = c.get("server"); v && v->v->isString())
        config.endpoint.host = v->string();
    if (auto v = c.get("port"); v && v->v->isNumber())
        config.endpoint.port = std::uint16_t(std::min<std::uint64_t>(v->count(), 65535));
    if (auto v = c.get("unix socket"); v && v->v->isString())
        config.endpoint.unixSocket = v->string();
    if (auto v = c.get("requests"); v && v->v->isNumber())
        config.requests = v->count() * std::max<std::uint64_t>(clients * threads, 1);
    if (auto v = c.get("test_time"); v && v->v->isNumber())
        config.durationSeconds = v->nonNegative();
    if (auto v = c.get("select-db"); v && v->v->isNumber())
        config.database = int(std::min<std::uint64_t>(v->count(), 1u << 20));
    if (auto v = c.get("key_maximum"); v && v->v->isNumber())
        config.keyspace = v->count();
    if (auto v = c.get("rate_limit"); v && v->v->isNumber())
        config.ratePerConnection = v->nonNegative();
}

} // namespace

bool peer_import_detail::importMemtierRoot(const JsonValue& root, const std::string& name, LoadedRun& out)
{
    const std::string where = name.empty() ? std::string("memtier") : name;
    out = LoadedRun {};
    out.path = name;
    out.label = fileBaseName(name);
    out.format = runFileKindName(RunFileKind::MemtierJson);
    if (!root.isObject())
        throw ImportError { where + ": not memtier_benchmark JSON: the document is a JSON " + root.typeName() };
    const JNode top { &root, where };
    out.known.serverVersion = false;
    std::optional<JNode> configuration = top.get("configuration");
    if (configuration) {
        if (!configuration->v->isObject())
            configuration->fail(std::string("expected an object, found ") + configuration->v->typeName());
        readMemtierConfiguration(*configuration, out);
    } else {
        out.known = KnownConfig { false, false, false, false, false, false, false };
        out.lacks.push_back("the configuration block");
    }

    // Which blocks are runs.
    std::vector<std::pair<std::string, std::string>> blocks;   // key, test name
    for (std::size_t i = 0; i < root.memberCount(); ++i) {
        const std::string& key = root.keyAt(i);
        if (key.rfind("RUN #", 0) == 0 && key.size() > 13 && key.substr(key.size() - 8) == " RESULTS")
            blocks.emplace_back(key, key.substr(0, key.size() - 8));
    }
    if (blocks.empty() && root.find("ALL STATS"))
        blocks.emplace_back("ALL STATS", "RUN #1");
    if (blocks.empty()) {
        for (std::size_t i = 0; i < root.memberCount(); ++i)
            if (root.keyAt(i).rfind("AGGREGATED AVERAGE RESULTS", 0) == 0) {
                const std::string& label = root.keyAt(i);
                const std::string rest(trim(std::string_view(label).substr(std::string_view("AGGREGATED AVERAGE RESULTS").size())));
                blocks.emplace_back(label, rest.empty() ? std::string("AGGREGATED") : "AGGREGATED " + rest);
                out.lacks.push_back("the individual runs (only memtier's average of them; use --print-all-runs)");
                break;
            }
    }
    if (blocks.empty())
        throw ImportError { where + ": no \"ALL STATS\", \"RUN #n RESULTS\" or \"AGGREGATED AVERAGE RESULTS\" block "
                                    "(is this memtier_benchmark --json-out-file?)" };
    for (const auto& [key, testName] : blocks) {
        const JNode block = top.at(key);
        readMemtierBlock(block, testName, configuration ? &*configuration : nullptr, out);
    }

    out.run.environment.toolVersion = "memtier_benchmark";
    if (auto info = top.get("run information"); info && info->v->isObject())
        if (auto v = info->get("Format version"); v && v->v->isNumber())
            out.run.environment.toolVersion += " (JSON format " + v->v->text() + ")";
    out.run.totalSeconds = 0;
    for (const TestResult& t : out.run.tests)
        out.run.totalSeconds += t.seconds;
    if (std::any_of(out.run.tests.begin(), out.run.tests.end(), [](const TestResult& t) { return t.status == RunStatus::Stopped; }))
        out.run.status = RunStatus::Stopped;

    out.lacks.push_back("the server version and the environment");
    out.lacks.push_back("the server cross-check");
    out.lacks.push_back("error-reply counts (memtier does not count them)");
    bool p95 = false;
    for (const LoadedTest& t : out.tests)
        p95 = p95 || t.figures.p95Ms.has_value();
    if (!p95)
        out.lacks.push_back("stated p95 (not among --print-percentiles)");
    bool approximate = false, none = false;
    for (const LoadedTest& t : out.tests) {
        approximate = approximate || t.histogramApproximate;
        none = none || !t.hasHistogram;
    }
    if (none)
        out.lacks.push_back("a latency distribution for some tests");
    else if (approximate)
        out.lacks.push_back("an exact latency histogram (rebuilt from memtier's percentile steps; approximate)");
    // Error replies are not counted by memtier: unknown, not zero.
    for (LoadedTest& t : out.tests) {
        t.figures.errors.reset();
        for (StatedFigures& c : t.commands)
            c.errors.reset();
    }
    return true;
}

bool peer_import_detail::looksLikeMemtier(const JsonValue& root)
{
    if (!root.isObject())
        return false;
    if (root.find("ALL STATS") || root.find("run information"))
        return true;
    for (std::size_t i = 0; i < root.memberCount(); ++i)
        if (root.keyAt(i).find("RESULTS") != std::string::npos)
            return true;
    return false;
}

bool importMemtierJson(std::string_view text, const std::string& name, LoadedRun& out, std::string* error)
{
    JsonParseError parseError;
    const std::optional<JsonValue> root = parseJson(text, &parseError);
    if (!root) {
        if (error)
            *error = name + ": not valid JSON at " + parseError.describe();
        return false;
    }
    return reportingImportErrors([&] { return importMemtierRoot(*root, name, out); }, name + ": ", error);
}

} // namespace tacho::engine
