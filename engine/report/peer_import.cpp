#include "engine/report/peer_import.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include "engine/report/json_reader.h"
#include "engine/report/run_file.h"

namespace tacho::engine {

namespace {

struct ImportError {
    std::string message;
};

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

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

std::optional<double> parseNumber(std::string_view text)
{
    text = trim(text);
    if (text.empty())
        return std::nullopt;
    double v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// ---- CSV ----

// One CSV line (RFC 4180 quoting, "" inside quotes). False when a quote is
// left open.
bool splitCsvLine(std::string_view line, std::vector<std::string>& fields)
{
    fields.clear();
    std::string field;
    std::size_t i = 0;
    while (true) {
        field.clear();
        if (i < line.size() && line[i] == '"') {
            ++i;
            bool closed = false;
            while (i < line.size()) {
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    closed = true;
                    break;
                }
                field += line[i++];
            }
            if (!closed)
                return false;
            // Text between the closing quote and the comma is not CSV.
            while (i < line.size() && line[i] != ',')
                if (line[i++] != ' ')
                    return false;
        } else {
            while (i < line.size() && line[i] != ',')
                field += line[i++];
        }
        fields.push_back(field);
        if (i >= line.size())
            return true;
        ++i;   // comma
    }
}

std::vector<std::string_view> csvLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        // A progress line overwritten with carriage returns: keep the last part.
        while (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (const auto cr = line.rfind('\r'); cr != std::string_view::npos)
            line = line.substr(cr + 1);
        lines.push_back(line);
        if (end == text.size())
            break;
        start = end + 1;
    }
    return lines;
}

// "MSET (10 keys)" → 10; 0 when the name does not say.
std::uint32_t keysFromBuiltInName(const std::string& name)
{
    const auto open = name.find('(');
    if (open == std::string::npos)
        return 0;
    unsigned n = 0;
    const char* begin = name.c_str() + open + 1;
    const auto r = std::from_chars(begin, name.c_str() + name.size(), n);
    if (r.ec != std::errc() || std::string_view(r.ptr).rfind(" keys)", 0) != 0)
        return 0;
    return n;
}

void markCsvUnknowns(LoadedRun& out, bool v7)
{
    out.known.connections = out.known.pipeline = out.known.valueSize = out.known.tls = false;
    out.known.serverVersion = out.known.endpoint = false;
    out.known.workload = false;
    out.lacks = {
        v7 ? "p99.9 and the latency distribution (only avg, min, p50, p95, p99 and max)"
           : "every latency figure (the two-column form has requests per second only)",
        "request and error counts",
        "the configuration (connections, pipeline, value size, TLS, target)",
        "the server version and the environment",
        "the server cross-check",
        "a time series",
    };
}

bool importCsvImpl(std::string_view text, const std::string& name, LoadedRun& out)
{
    const std::string where = name.empty() ? std::string() : name + ": ";
    out = LoadedRun {};
    out.path = name;
    out.label = fileBaseName(name);
    std::vector<std::string_view> lines = csvLines(text);
    std::vector<std::string> fields;

    // The first non-empty line decides the form.
    std::size_t first = 0;
    while (first < lines.size() && trim(lines[first]).empty())
        ++first;
    if (first == lines.size())
        throw ImportError { where + "empty: no redis-benchmark --csv lines" };
    if (!splitCsvLine(lines[first], fields))
        throw ImportError { where + "line " + std::to_string(first + 1) + ": unterminated quoted field" };
    const bool v7 = !fields.empty() && fields[0] == "test";

    std::map<std::string, std::size_t> column;
    std::size_t expectedFields = 2;
    if (v7) {
        for (std::size_t i = 0; i < fields.size(); ++i)
            column[fields[i]] = i;
        if (!column.count("rps"))
            throw ImportError { where + "line " + std::to_string(first + 1)
                                + ": header has no \"rps\" column (is this redis-benchmark --csv?)" };
        expectedFields = fields.size();
        ++first;
        out.format = runFileKindName(RunFileKind::RedisBenchmarkCsvV7);
    } else {
        out.format = runFileKindName(RunFileKind::RedisBenchmarkCsv);
    }
    markCsvUnknowns(out, v7);

    auto numberAt = [&](std::size_t lineNo, const std::string& col, const std::string& value) -> double {
        const std::optional<double> v = parseNumber(value);
        if (!v || *v < 0)
            throw ImportError { where + "line " + std::to_string(lineNo) + ", column \"" + col
                                + "\": expected a number >= 0, found \"" + value + "\"" };
        return *v;
    };

    for (std::size_t i = first; i < lines.size(); ++i) {
        const std::size_t lineNo = i + 1;
        if (trim(lines[i]).empty())
            continue;
        if (!splitCsvLine(lines[i], fields))
            throw ImportError { where + "line " + std::to_string(lineNo) + ": unterminated quoted field" };
        if (fields.size() != expectedFields)
            throw ImportError { where + "line " + std::to_string(lineNo) + ": expected " + std::to_string(expectedFields)
                                + " fields, found " + std::to_string(fields.size())
                                + (v7 ? "" : " (the two-column form is \"TEST\",\"REQUESTS PER SECOND\")") };
        TestResult test;
        LoadedTest loaded;
        test.name = fields[0];
        if (test.name.empty())
            throw ImportError { where + "line " + std::to_string(lineNo) + ": empty test name" };
        loaded.hasHistogram = false;
        loaded.keysPerRequest = keysFromBuiltInName(test.name);
        StatedFigures& f = loaded.figures;
        if (v7) {
            for (const auto& [col, index] : column) {
                const std::string& value = fields[index];
                if (col == "test")
                    continue;
                std::optional<double>* target = nullptr;
                if (col == "rps")
                    target = &f.opsPerSec;
                else if (col == "avg_latency_ms")
                    target = &f.avgMs;
                else if (col == "min_latency_ms")
                    target = &f.minMs;
                else if (col == "p50_latency_ms")
                    target = &f.p50Ms;
                else if (col == "p95_latency_ms")
                    target = &f.p95Ms;
                else if (col == "p99_latency_ms")
                    target = &f.p99Ms;
                else if (col == "p999_latency_ms" || col == "p99.9_latency_ms")
                    target = &f.p999Ms;
                else if (col == "max_latency_ms")
                    target = &f.maxMs;
                if (target)
                    *target = numberAt(lineNo, col, value);
            }
        } else {
            f.opsPerSec = numberAt(lineNo, "rps", fields[1]);
        }
        TestSpec spec;
        spec.name = test.name;
        if (loaded.keysPerRequest > 0)
            spec.keysPerRequest = loaded.keysPerRequest;
        out.run.config.tests.push_back(std::move(spec));
        out.run.tests.push_back(std::move(test));
        out.tests.push_back(std::move(loaded));
    }
    if (out.run.tests.empty())
        throw ImportError { where + "no test lines" + (v7 ? " after the header" : "") };
    out.run.environment.toolVersion = "redis-benchmark";
    return true;
}

// ---- memtier JSON ----

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

void readMemtierBlock(const JNode& block, const std::string& testName, const JNode* configuration, LoadedRun& out)
{
    if (!block.v->isObject())
        block.fail(std::string("expected an object, found ") + block.v->typeName());
    TestResult test;
    LoadedTest loaded;
    test.name = testName;

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

    std::vector<MemtierRowData> rows;
    const JsonValue& b = *block.v;
    for (std::size_t i = 0; i < b.memberCount(); ++i) {
        const std::string& key = b.keyAt(i);
        if (key == "Runtime" || key == "Totals" || !b.valueAt(i).isObject())
            continue;
        rows.push_back(MemtierRowData { key, commandFromRowType(key), JNode { &b.valueAt(i), block.path + "." + key } });
    }
    const JNode totals = block.at("Totals");

    // Percentiles and the HdrHistogram of one row.
    auto readRow = [&](const JNode& row, const std::string& histogramName, StatedFigures& f, LatencyHistogram& h,
                       std::uint64_t count, bool& exact) {
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
    };

    bool allExact = true;
    bool anyHistogram = false;
    bool everyLatency = true;   // every row's histogram holds one latency per request it counts
    bool anyApproximate = false;
    for (const MemtierRowData& row : rows) {
        const std::uint64_t count = row.node.at("Count").count();
        if (count == 0 && (row.type == "Waits"))
            continue;   // memtier's always-present WAIT row
        CommandResult command;
        command.name = row.command;
        command.requests = count;
        StatedFigures f;
        bool exact = false;
        const bool has = readRow(row.node, row.command, f, command.latency, count, exact);
        if (has) {
            anyHistogram = true;
            if (!exact)
                anyApproximate = true;
        }
        if (!has || !exact)
            allExact = false;
        if (command.latency.count() != count)
            everyLatency = false;
        test.commands.push_back(std::move(command));
        loaded.commands.push_back(f);
        loaded.commandKeysPerRequest.push_back(0);
    }

    test.requests = totals.at("Count").count();
    if (auto v = totals.get("Connection Errors"))
        test.connectErrors = v->count();
    StatedFigures& f = loaded.figures;
    {
        LatencyHistogram unused;
        bool exact = false;
        readRow(totals, "", f, unused, 0, exact);
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
    for (const CommandResult& c : test.commands)
        test.latency.add(c.latency);
    // A histogram missing some requests (a row without one, steps that stop
    // short of 100%, a count that disagrees) is no distribution of the test:
    // merged or written as a run file it would claim what it does not hold.
    loaded.hasHistogram = test.requests == 0
        || (anyHistogram && everyLatency && test.latency.count() > 0 && test.latency.count() == test.requests);
    loaded.histogramApproximate = anyApproximate;
    // The stated percentiles are memtier's own and win over rebuilt ones in
    // comparisons; an exact histogram must hold every request.
    if (allExact && test.latency.count() != test.requests) {
        out.lacks.push_back("a latency histogram that matches the request count in \"" + testName + "\"");
    }

    // Per-second series.
    if (auto series = totals.get("Time-Serie"); series && series->v->isObject()) {
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
            const JNode p { &s.valueAt(index), series->path + "." + s.keyAt(index) };
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
            // Per command, from the rows' own series at the same second.
            if (test.commands.size() > 1) {
                for (const CommandResult& command : test.commands) {
                    CommandInterval ci;
                    for (const MemtierRowData& row : rows) {
                        if (row.command != command.name)
                            continue;
                        if (auto rs = row.node.get("Time-Serie"))
                            if (auto at = rs->get(s.keyAt(index))) {
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
                    point.commands.push_back(ci);
                }
            }
            test.intervals.push_back(std::move(point));
        }
    }

    // Configuration → the test's spec.
    TestSpec spec;
    spec.name = testName;
    std::string workload = "memtier_benchmark";
    if (configuration) {
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
    }
    spec.generator = describedWorkload(workload);
    std::vector<std::string> statNames;
    for (const CommandResult& c : test.commands)
        statNames.push_back(lower(c.name));
    for (std::size_t i = 0; i < statNames.size(); ++i)
        spec.commandStatName += (i ? "," : "") + statNames[i];
    test.commandStatName = spec.commandStatName;
    out.run.config.tests.push_back(std::move(spec));
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

bool importMemtierImpl(const JsonValue& root, const std::string& name, LoadedRun& out)
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

bool looksLikeMemtier(const JsonValue& root)
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

} // namespace

const char* runFileKindName(RunFileKind kind)
{
    switch (kind) {
    case RunFileKind::TachoRun: return kRunFileFormat;
    case RunFileKind::RedisBenchmarkCsv: return "redis-benchmark --csv";
    case RunFileKind::RedisBenchmarkCsvV7: return "redis-benchmark --csv (Redis 7)";
    case RunFileKind::MemtierJson: return "memtier_benchmark --json-out-file";
    case RunFileKind::Unknown: return "unknown";
    }
    return "unknown";
}

RunFileKind sniffRunFile(std::string_view text)
{
    std::string_view t = trim(text);
    if (t.substr(0, 3) == "\xEF\xBB\xBF")
        t.remove_prefix(3);
    if (t.empty())
        return RunFileKind::Unknown;
    if (t.front() == '{') {
        const std::optional<JsonValue> root = parseJson(t);
        if (!root || !root->isObject())
            return RunFileKind::Unknown;
        if (root->find("format"))
            return RunFileKind::TachoRun;
        return looksLikeMemtier(*root) ? RunFileKind::MemtierJson : RunFileKind::Unknown;
    }
    if (t.front() == '"') {
        std::vector<std::string> fields;
        const std::string_view firstLine = t.substr(0, t.find('\n'));
        if (!splitCsvLine(trim(firstLine), fields))
            return RunFileKind::Unknown;
        if (!fields.empty() && fields[0] == "test")
            return RunFileKind::RedisBenchmarkCsvV7;
        if (fields.size() == 2 && parseNumber(fields[1]))
            return RunFileKind::RedisBenchmarkCsv;
    }
    return RunFileKind::Unknown;
}

bool importRedisBenchmarkCsv(std::string_view text, const std::string& name, LoadedRun& out, std::string* error)
{
    try {
        return importCsvImpl(text, name, out);
    } catch (const ImportError& e) {
        if (error)
            *error = e.message;
    } catch (const std::exception& e) {
        if (error)
            *error = name + ": cannot read: " + e.what();
    }
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
    try {
        return importMemtierImpl(*root, name, out);
    } catch (const ImportError& e) {
        if (error)
            *error = e.message;
    } catch (const std::exception& e) {
        if (error)
            *error = name + ": cannot read: " + e.what();
    }
    return false;
}

bool loadRunFromText(std::string_view text, const std::string& name, LoadedRun& out, std::string* error)
{
    const std::string prefix = name.empty() ? std::string() : name + ": ";
    std::string_view t = trim(text);
    if (t.substr(0, 3) == "\xEF\xBB\xBF")
        t = trim(t.substr(3));
    if (t.empty()) {
        if (error)
            *error = prefix + "empty file";
        return false;
    }
    if (t.front() == '{' || t.front() == '[') {
        JsonParseError parseError;
        const std::optional<JsonValue> root = parseJson(text, &parseError);
        if (!root) {
            if (error)
                *error = prefix + "not valid JSON at " + parseError.describe();
            return false;
        }
        if (root->isObject() && root->find("format"))
            return runFileFromJson(text, name, out, error);
        if (looksLikeMemtier(*root)) {
            try {
                return importMemtierImpl(*root, name, out);
            } catch (const ImportError& e) {
                if (error)
                    *error = e.message;
            } catch (const std::exception& e) {
                if (error)
                    *error = prefix + "cannot read: " + e.what();
            }
            return false;
        }
        if (error)
            *error = prefix + "JSON, but neither a Tacho run file (no \"format\" field) nor memtier_benchmark "
                              "--json-out-file (no \"ALL STATS\" block)";
        return false;
    }
    if (t.front() == '"')
        return importRedisBenchmarkCsv(text, name, out, error);
    if (error)
        *error = prefix + "not a run file: expected a Tacho run file (JSON), redis-benchmark --csv output or "
                          "memtier_benchmark --json-out-file";
    return false;
}

bool loadRun(const std::string& path, LoadedRun& out, std::string* error)
{
    std::string text;
    if (!readTextFile(path, text, error))
        return false;
    return loadRunFromText(text, path, out, error);
}

} // namespace tacho::engine
