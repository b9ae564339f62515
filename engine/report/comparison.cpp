#include "engine/report/comparison.h"
#include "engine/report/csv_cell.h"
#include "engine/report/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

#include "engine/report/run_file.h"

namespace tacho::engine {

namespace {

constexpr double kNsPerMs = 1e6;

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return out;
}

std::string upper(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'a' && c <= 'z')
            c = char(c - 'a' + 'A');
    return out;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) { return lower(a) == lower(b); }

std::string fixed(double value, int decimals) { return fixedDecimals(value, decimals); }

std::string padRight(std::string s, std::size_t width)
{
    // Width in characters, counting UTF-8 continuation bytes as nothing.
    std::size_t chars = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80)
            ++chars;
    if (chars < width)
        s.append(width - chars, ' ');
    return s;
}

std::string padLeft(const std::string& s, std::size_t width)
{
    std::size_t chars = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80)
            ++chars;
    return chars < width ? std::string(width - chars, ' ') + s : s;
}

// Long test names (a custom MGET of 1000 keys) shortened for text output.
std::string clipName(const std::string& name, std::size_t max = 60)
{
    if (name.size() <= max)
        return name;
    std::size_t cut = max - 3;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
        --cut;   // not inside a UTF-8 sequence
    return name.substr(0, cut) + "...";
}

std::vector<std::string> splitWords(std::string_view line)
{
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i] == ' ')
            ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ')
            ++i;
        if (i > start)
            words.emplace_back(line.substr(start, i - start));
    }
    return words;
}

const TestSpec* specFor(const LoadedRun& run, const std::string& testName)
{
    for (const TestSpec& spec : run.run.config.tests)
        if (spec.name == testName)
            return &spec;
    return nullptr;
}

double connectionsOf(const LoadedRun& run)
{
    return run.known.connections && run.run.config.connections > 0 ? double(run.run.config.connections) : 0;
}

} // namespace

const char* metricKey(Metric metric)
{
    switch (metric) {
    case Metric::Ops: return "ops";
    case Metric::Avg: return "avg";
    case Metric::P50: return "p50";
    case Metric::P95: return "p95";
    case Metric::P99: return "p99";
    case Metric::P999: return "p999";
    case Metric::Max: return "max";
    case Metric::Errors: return "errors";
    case Metric::KBps: return "kbps";
    }
    return "?";
}

std::optional<Metric> metricFromKey(std::string_view key)
{
    const std::string k = lower(key);
    for (Metric m : kAllMetrics)
        if (k == metricKey(m))
            return m;
    if (k == "p99.9")
        return Metric::P999;
    if (k == "mean")
        return Metric::Avg;
    if (k == "rps" || k == "ops/s" || k == "req/s")
        return Metric::Ops;
    if (k == "kb/s")
        return Metric::KBps;
    if (k == "error")
        return Metric::Errors;
    return std::nullopt;
}

bool higherIsBetter(Metric metric) { return metric == Metric::Ops || metric == Metric::KBps; }

bool isLatency(Metric metric)
{
    return metric == Metric::Avg || metric == Metric::P50 || metric == Metric::P95 || metric == Metric::P99
        || metric == Metric::P999 || metric == Metric::Max;
}

const char* normalisationName(Normalisation n)
{
    switch (n) {
    case Normalisation::PerRequest: return "request";
    case Normalisation::PerKey: return "key";
    case Normalisation::PerConnection: return "connection";
    }
    return "?";
}

std::optional<Normalisation> normalisationFromName(std::string_view name)
{
    const std::string n = lower(name);
    if (n == "request" || n == "requests")
        return Normalisation::PerRequest;
    if (n == "key" || n == "keys")
        return Normalisation::PerKey;
    if (n == "connection" || n == "connections" || n == "conn")
        return Normalisation::PerConnection;
    return std::nullopt;
}

std::string metricLabel(Metric metric, Normalisation n)
{
    switch (metric) {
    case Metric::Ops:
        return n == Normalisation::PerKey ? "keys/s" : n == Normalisation::PerConnection ? "req/s/conn" : "req/s";
    case Metric::Avg: return "avg ms";
    case Metric::P50: return "p50 ms";
    case Metric::P95: return "p95 ms";
    case Metric::P99: return "p99 ms";
    case Metric::P999: return "p99.9 ms";
    case Metric::Max: return "max ms";
    case Metric::Errors: return "errors";
    case Metric::KBps: return n == Normalisation::PerConnection ? "KB/s/conn" : "KB/s";
    }
    return "?";
}

std::uint32_t keysPerRequestFromArgs(const std::vector<std::string>& args)
{
    if (args.empty())
        return 0;
    const std::string command = upper(args[0]);
    const std::size_t n = args.size() - 1;
    static const std::set<std::string> eachArgument = {
        "MGET", "DEL", "UNLINK", "EXISTS", "TOUCH", "WATCH", "SINTER", "SUNION", "SDIFF", "SINTERSTORE",
        "SUNIONSTORE", "SDIFFSTORE", "PFCOUNT", "PFMERGE",
    };
    static const std::set<std::string> pairs = { "MSET", "MSETNX" };
    static const std::set<std::string> allButLast = { "BLPOP", "BRPOP", "BZPOPMIN", "BZPOPMAX" };
    static const std::set<std::string> two = { "RENAME", "RENAMENX", "SMOVE", "RPOPLPUSH", "LMOVE", "BLMOVE",
                                               "BRPOPLPUSH", "COPY" };
    const auto clampKeys = [](std::size_t k) { return std::uint32_t(std::min<std::size_t>(k, UINT32_MAX)); };
    if (eachArgument.count(command))
        return n == 0 ? 0 : clampKeys(n);
    if (pairs.count(command))
        return n < 2 ? 0 : clampKeys(n / 2);
    if (allButLast.count(command))
        return n < 2 ? 0 : clampKeys(n - 1);
    if (two.count(command))
        return 2;
    return 1;
}

std::uint32_t keysPerRequestFromCommandLine(std::string_view line) { return keysPerRequestFromArgs(splitWords(line)); }

MetricValues runFigures(const LoadedRun& run, std::size_t testIndex, int command)
{
    MetricValues v;
    if (testIndex >= run.run.tests.size())
        return v;
    const TestResult& t = run.run.tests[testIndex];
    const LoadedTest* loaded = testIndex < run.tests.size() ? &run.tests[testIndex] : nullptr;
    const bool tachoRun = run.format == kRunFileFormat;

    const LatencyHistogram* histogram = nullptr;
    const StatedFigures* stated = nullptr;
    std::uint64_t requests = 0, errors = 0, bytes = 0;
    if (command < 0) {
        histogram = &t.latency;
        stated = loaded ? &loaded->figures : nullptr;
        requests = t.requests;
        errors = t.errors;
        bytes = t.bytesSent + t.bytesReceived;
    } else {
        if (std::size_t(command) >= t.commands.size())
            return v;
        const CommandResult& c = t.commands[std::size_t(command)];
        histogram = &c.latency;
        stated = loaded && std::size_t(command) < loaded->commands.size() ? &loaded->commands[std::size_t(command)] : nullptr;
        requests = c.requests;
        errors = c.errors;
        bytes = c.bytesSent + c.bytesReceived;
    }
    const bool histogramUsable = histogram->count() > 0 && (!loaded || loaded->hasHistogram);

    auto set = [&](Metric m, std::optional<double> value) { v[std::size_t(m)] = value; };
    // Throughput.
    if (stated && stated->opsPerSec)
        set(Metric::Ops, stated->opsPerSec);
    else if (t.seconds > 0 && (requests > 0 || tachoRun))
        set(Metric::Ops, double(requests) / t.seconds);
    if (stated && stated->kbPerSec)
        set(Metric::KBps, stated->kbPerSec);
    else if (tachoRun && t.seconds > 0)
        set(Metric::KBps, double(bytes) / 1024.0 / t.seconds);
    // Errors: counted by Tacho; unknown for peers that do not count them.
    if (stated && stated->errors)
        set(Metric::Errors, double(*stated->errors));
    else if (tachoRun)
        set(Metric::Errors, double(errors));
    // Latency: stated first (exact), then the histogram.
    auto latency = [&](Metric m, const std::optional<double>& statedMs, auto fromHistogram) {
        if (statedMs)
            set(m, statedMs);
        else if (histogramUsable)
            set(m, fromHistogram());
    };
    latency(Metric::Avg, stated ? stated->avgMs : std::nullopt, [&] { return histogram->mean() / kNsPerMs; });
    latency(Metric::P50, stated ? stated->p50Ms : std::nullopt,
            [&] { return double(histogram->valueAtPercentile(50)) / kNsPerMs; });
    latency(Metric::P95, stated ? stated->p95Ms : std::nullopt,
            [&] { return double(histogram->valueAtPercentile(95)) / kNsPerMs; });
    latency(Metric::P99, stated ? stated->p99Ms : std::nullopt,
            [&] { return double(histogram->valueAtPercentile(99)) / kNsPerMs; });
    latency(Metric::P999, stated ? stated->p999Ms : std::nullopt,
            [&] { return double(histogram->valueAtPercentile(99.9)) / kNsPerMs; });
    latency(Metric::Max, stated ? stated->maxMs : std::nullopt, [&] { return double(histogram->max()) / kNsPerMs; });
    return v;
}

double keysPerRequestOf(const LoadedRun& run, std::size_t testIndex, int command)
{
    if (testIndex >= run.run.tests.size())
        return 0;
    const TestResult& t = run.run.tests[testIndex];
    const LoadedTest* loaded = testIndex < run.tests.size() ? &run.tests[testIndex] : nullptr;
    auto commandKeys = [&](std::size_t c) -> double {
        if (loaded && c < loaded->commandKeysPerRequest.size() && loaded->commandKeysPerRequest[c] > 0)
            return loaded->commandKeysPerRequest[c];
        return keysPerRequestFromArgs({ t.commands[c].name });
    };
    if (command >= 0)
        return std::size_t(command) < t.commands.size() ? commandKeys(std::size_t(command)) : 0;

    if (loaded && loaded->keysPerRequest > 0)
        return loaded->keysPerRequest;
    if (t.commands.size() > 1) {
        // A mix: the request-weighted mean of its commands'.
        double keys = 0;
        std::uint64_t requests = 0;
        for (std::size_t c = 0; c < t.commands.size(); ++c) {
            const double k = commandKeys(c);
            if (k <= 0)
                return 0;
            keys += k * double(t.commands[c].requests);
            requests += t.commands[c].requests;
        }
        return requests > 0 ? keys / double(requests) : 0;
    }
    if (const TestSpec* spec = specFor(run, t.name)) {
        if (spec->keysPerRequest > 1)
            return spec->keysPerRequest;
        if (!spec->args.empty())
            return keysPerRequestFromArgs(spec->args);
    }
    // redis-benchmark names a custom test after its command line.
    return keysPerRequestFromCommandLine(t.name);
}

const char* verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Baseline: return "baseline";
    case Verdict::Better: return "better";
    case Verdict::Worse: return "worse";
    case Verdict::Same: return "same";
    case Verdict::Unknown: return "n/a";
    }
    return "?";
}

std::string describeServer(const LoadedRun& run)
{
    const auto& info = run.run.environment.serverInfo;
    auto get = [&](const char* key) -> std::string {
        const auto it = info.find(key);
        return it == info.end() ? std::string() : it->second;
    };
    if (!get("valkey_version").empty())
        return "valkey " + get("valkey_version");
    if (!get("dragonfly_version").empty())
        return "dragonfly " + get("dragonfly_version");
    if (!get("redis_version").empty()) {
        const std::string name = get("server_name");
        return (name.empty() ? std::string("redis") : name) + " " + get("redis_version");
    }
    return {};
}

namespace {

std::string loadOf(const RunConfig& c)
{
    if (c.rate > 0)
        return "rate " + fixed(c.rate, 0) + "/s";
    if (c.ratePerConnection > 0)
        return "rate " + fixed(c.ratePerConnection, 0) + "/s per connection";
    return "closed loop";
}

// Everything about what was sent, for equality; and a short form to show.
std::string workloadSignature(const LoadedRun& run)
{
    std::string s;
    for (const TestSpec& spec : run.run.config.tests) {
        s += spec.name + "\x1f";
        for (const std::string& a : spec.args)
            s += a + "\x1e";
        if (spec.generator)
            s += spec.generator->describe();
        s += "\x1d";
    }
    s += "keyspace=" + std::to_string(run.run.config.keyspace);
    return s;
}

std::string workloadShort(const LoadedRun& run)
{
    std::string s;
    std::size_t shown = 0;
    for (const TestResult& t : run.run.tests) {
        if (shown == 6) {
            s += ", …";
            break;
        }
        std::string name = t.name.size() > 40 ? t.name.substr(0, 37) + "..." : t.name;
        s += (shown++ ? ", " : "") + name;
    }
    if (run.run.config.keyspace > 0)
        s += " (keyspace " + std::to_string(run.run.config.keyspace) + ")";
    return s;
}

std::string runDescription(const LoadedRun& run)
{
    const RunResult& r = run.run;
    std::string d = run.format;
    if (!r.environment.startedAtUtc.empty())
        d += ", " + r.environment.startedAtUtc;
    if (run.known.endpoint)
        d += ", " + r.config.endpoint.describe() + (run.known.tls && r.config.endpoint.tls ? " (TLS)" : "");
    const std::string server = describeServer(run);
    if (!server.empty())
        d += ", " + server;
    if (run.known.connections)
        d += ", " + std::to_string(r.config.connections) + " connections";
    if (run.known.pipeline)
        d += ", pipeline " + std::to_string(r.config.pipeline);
    if (run.known.valueSize)
        d += ", " + std::to_string(r.config.valueSize) + " B values";
    if (!run.sources.empty())
        d += ", merged from " + std::to_string(run.sources.size()) + " runs";
    return d;
}

Verdict verdictFor(Metric metric, double base, double value)
{
    if (metric == Metric::Errors) {
        if (value == base)
            return Verdict::Same;
        return value < base ? Verdict::Better : Verdict::Worse;
    }
    const double scale = std::max(std::fabs(base), std::fabs(value));
    if (scale == 0 || std::fabs(value - base) <= kSameBand * scale)
        return Verdict::Same;
    const bool higher = value > base;
    return higher == higherIsBetter(metric) ? Verdict::Better : Verdict::Worse;
}

std::vector<std::string> uniqueLabels(const std::vector<const LoadedRun*>& runs)
{
    std::vector<std::string> labels;
    for (const LoadedRun* r : runs)
        labels.push_back(r->label.empty() ? (r->path.empty() ? std::string("run") : r->path) : r->label);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        bool duplicate = false;
        for (std::size_t j = 0; j < labels.size(); ++j)
            duplicate = duplicate || (i != j && labels[i] == labels[j]);
        if (duplicate && !runs[i]->path.empty() && runs[i]->path != labels[i])
            labels[i] = runs[i]->path;
    }
    for (std::size_t i = 0; i < labels.size(); ++i)
        for (std::size_t j = i + 1; j < labels.size(); ++j)
            if (labels[i] == labels[j])
                labels[j] += " #" + std::to_string(j + 1);
    return labels;
}

int findTest(const RunResult& r, const std::string& name)
{
    for (std::size_t i = 0; i < r.tests.size(); ++i)
        if (r.tests[i].name == name)
            return int(i);
    for (std::size_t i = 0; i < r.tests.size(); ++i)
        if (equalsIgnoreCase(r.tests[i].name, name))
            return int(i);
    return -1;
}

int findCommand(const TestResult& t, const std::string& name)
{
    for (std::size_t i = 0; i < t.commands.size(); ++i)
        if (equalsIgnoreCase(t.commands[i].name, name))
            return int(i);
    return -1;
}

} // namespace

std::vector<FairnessWarning> fairnessWarnings(const std::vector<const LoadedRun*>& runs,
                                              const std::vector<std::string>& labels)
{
    std::vector<FairnessWarning> warnings;
    if (runs.size() < 2)
        return warnings;
    // value(run) → shown text, or nullopt when the run does not record it.
    auto check = [&](const std::string& field, auto known, auto value, auto equalKey, const char* notRecorded) {
        std::vector<std::string> unknownIn;
        std::set<std::string> keys;
        std::string listing;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (!known(*runs[i])) {
                unknownIn.push_back("[" + std::to_string(i + 1) + "] " + labels[i] + " (" + runs[i]->format + ")");
                continue;
            }
            keys.insert(equalKey(*runs[i]));
            listing += std::string(listing.empty() ? "" : " · ") + "[" + std::to_string(i + 1) + "] " + labels[i] + " "
                + value(*runs[i]);
        }
        if (keys.size() > 1)
            warnings.push_back({ field, field + " differs: " + listing });
        if (!unknownIn.empty()) {
            std::string names;
            for (const std::string& n : unknownIn)
                names += (names.empty() ? "" : ", ") + n;
            warnings.push_back({ field, field + " unknown for " + names + ": " + notRecorded });
        }
    };
    check(
        "server version", [](const LoadedRun& r) { return r.known.serverVersion && !describeServer(r).empty(); },
        [](const LoadedRun& r) { return describeServer(r); }, [](const LoadedRun& r) { return describeServer(r); },
        "not recorded, so the runs may have measured different servers");
    check(
        "workload", [](const LoadedRun& r) { return r.known.workload; }, [](const LoadedRun& r) { return workloadShort(r); },
        [](const LoadedRun& r) { return workloadSignature(r); }, "the commands sent are not recorded");
    check(
        "value size", [](const LoadedRun& r) { return r.known.valueSize; },
        [](const LoadedRun& r) { return std::to_string(r.run.config.valueSize) + " B"; },
        [](const LoadedRun& r) { return std::to_string(r.run.config.valueSize); }, "not recorded");
    check(
        "connections", [](const LoadedRun& r) { return r.known.connections; },
        [](const LoadedRun& r) { return std::to_string(r.run.config.connections); },
        [](const LoadedRun& r) { return std::to_string(r.run.config.connections); }, "not recorded");
    check(
        "pipeline", [](const LoadedRun& r) { return r.known.pipeline; },
        [](const LoadedRun& r) { return std::to_string(r.run.config.pipeline); },
        [](const LoadedRun& r) { return std::to_string(r.run.config.pipeline); }, "not recorded");
    check(
        "TLS", [](const LoadedRun& r) { return r.known.tls; },
        [](const LoadedRun& r) { return std::string(r.run.config.endpoint.tls ? "on" : "off"); },
        [](const LoadedRun& r) { return std::string(r.run.config.endpoint.tls ? "on" : "off"); }, "not recorded");
    check(
        "load", [](const LoadedRun& r) { return r.format == kRunFileFormat || r.format.rfind("memtier", 0) == 0; },
        [](const LoadedRun& r) { return loadOf(r.run.config); }, [](const LoadedRun& r) { return loadOf(r.run.config); },
        "not recorded (closed loop or rate-limited)");
    return warnings;
}

Comparison compareRuns(const std::vector<const LoadedRun*>& runs, std::size_t baseline, Normalisation normalisation)
{
    Comparison cmp;
    cmp.normalisation = normalisation;
    cmp.baseline = runs.empty() ? 0 : std::min(baseline, runs.size() - 1);
    cmp.labels = uniqueLabels(runs);
    for (const LoadedRun* r : runs)
        cmp.descriptions.push_back(runDescription(*r));
    if (runs.empty())
        return cmp;
    const std::size_t n = runs.size();
    const std::size_t b = cmp.baseline;

    // ---- match tests into rows ----
    struct TestRow {
        std::string name;
        std::vector<int> index;
    };
    std::vector<TestRow> testRows;
    for (std::size_t i = 0; i < runs[b]->run.tests.size(); ++i) {
        TestRow row { runs[b]->run.tests[i].name, std::vector<int>(n, -1) };
        row.index[b] = int(i);
        testRows.push_back(std::move(row));
    }
    std::vector<std::string> positionPairs;
    for (std::size_t r = 0; r < n; ++r) {
        if (r == b)
            continue;
        const RunResult& run = runs[r]->run;
        std::size_t byName = 0;
        for (const TestResult& t : run.tests)
            if (findTest(runs[b]->run, t.name) >= 0)
                ++byName;
        const bool byPosition = byName == 0 && !run.tests.empty() && run.tests.size() == runs[b]->run.tests.size();
        for (std::size_t i = 0; i < run.tests.size(); ++i) {
            const TestResult& t = run.tests[i];
            TestRow* target = nullptr;
            if (byPosition) {
                target = &testRows[i];
                positionPairs.push_back("[" + std::to_string(b + 1) + "] " + clipName(testRows[i].name) + " ↔ ["
                                        + std::to_string(r + 1) + "] " + clipName(t.name));
            } else {
                for (TestRow& row : testRows)
                    if (row.index[r] < 0 && row.name == t.name) {
                        target = &row;
                        break;
                    }
                if (!target)
                    for (TestRow& row : testRows)
                        if (row.index[r] < 0 && equalsIgnoreCase(row.name, t.name)) {
                            target = &row;
                            break;
                        }
            }
            if (!target) {
                testRows.push_back(TestRow { t.name, std::vector<int>(n, -1) });
                target = &testRows.back();
            }
            target->index[r] = int(i);
        }
    }

    // ---- rows with cells ----
    auto fill = [&](ComparisonRow& row) {
        row.cells.assign(n, {});
        row.keysPerRequest.assign(n, 0);
        row.testNames.assign(n, std::string());
        std::vector<MetricValues> values(n);
        for (std::size_t r = 0; r < n; ++r) {
            if (row.testIndex[r] < 0)
                continue;
            const LoadedRun& run = *runs[r];
            const std::size_t t = std::size_t(row.testIndex[r]);
            row.testNames[r] = run.run.tests[t].name;
            if (!row.presentIn(r))
                continue;
            const int c = row.command.empty() ? -1 : row.commandIndex[r];
            MetricValues v = runFigures(run, t, c);
            row.keysPerRequest[r] = keysPerRequestOf(run, t, c);
            const double connections = connectionsOf(run);
            auto& ops = v[std::size_t(Metric::Ops)];
            auto& kb = v[std::size_t(Metric::KBps)];
            if (normalisation == Normalisation::PerKey) {
                if (ops)
                    ops = row.keysPerRequest[r] > 0 ? std::optional<double>(*ops * row.keysPerRequest[r]) : std::nullopt;
            } else if (normalisation == Normalisation::PerConnection) {
                if (ops)
                    ops = connections > 0 ? std::optional<double>(*ops / connections) : std::nullopt;
                if (kb)
                    kb = connections > 0 ? std::optional<double>(*kb / connections) : std::nullopt;
            }
            values[r] = v;
        }
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            const Metric metric = kAllMetrics[m];
            const std::optional<double> base = values[b][m];
            for (std::size_t r = 0; r < n; ++r) {
                ComparisonCell& cell = row.cells[r][m];
                cell.value = values[r][m];
                if (r == b) {
                    cell.verdict = cell.value ? Verdict::Baseline : Verdict::Unknown;
                    continue;
                }
                if (!cell.value || !base)
                    continue;
                cell.change = *cell.value - *base;
                if (*base != 0)
                    cell.percent = *cell.change / std::fabs(*base) * 100.0;
                cell.verdict = verdictFor(metric, *base, *cell.value);
            }
        }
    };

    for (const TestRow& tr : testRows) {
        ComparisonRow row;
        row.test = tr.name;
        row.testIndex = tr.index;
        row.commandIndex.assign(n, -1);
        fill(row);
        cmp.rows.push_back(std::move(row));

        // A mixed test: a row per command too.
        bool mixed = false;
        for (std::size_t r = 0; r < n; ++r)
            if (tr.index[r] >= 0 && runs[r]->run.tests[std::size_t(tr.index[r])].commands.size() > 1)
                mixed = true;
        if (!mixed)
            continue;
        std::vector<std::string> commands;
        for (std::size_t r0 = 0; r0 < n; ++r0) {
            const std::size_t r = r0 == 0 ? b : (r0 <= b ? r0 - 1 : r0);   // baseline's order first
            if (tr.index[r] < 0)
                continue;
            for (const CommandResult& c : runs[r]->run.tests[std::size_t(tr.index[r])].commands) {
                bool seen = false;
                for (const std::string& known : commands)
                    seen = seen || equalsIgnoreCase(known, c.name);
                if (!seen)
                    commands.push_back(c.name);
            }
        }
        for (const std::string& command : commands) {
            ComparisonRow crow;
            crow.test = tr.name;
            crow.command = command;
            crow.testIndex = tr.index;
            crow.commandIndex.assign(n, -1);
            for (std::size_t r = 0; r < n; ++r)
                if (tr.index[r] >= 0)
                    crow.commandIndex[r] = findCommand(runs[r]->run.tests[std::size_t(tr.index[r])], command);
            fill(crow);
            cmp.rows.push_back(std::move(crow));
        }
    }

    cmp.warnings = fairnessWarnings(runs, cmp.labels);
    if (!positionPairs.empty()) {
        std::string pairs;
        for (const std::string& p : positionPairs)
            pairs += (pairs.empty() ? "" : "; ") + p;
        cmp.warnings.push_back({ "workload", "tests matched by position (no names in common): " + pairs });
    }
    for (std::size_t r = 0; r < n; ++r) {
        if (runs[r]->lacks.empty())
            continue;
        std::string lacks;
        for (const std::string& l : runs[r]->lacks)
            lacks += (lacks.empty() ? "" : "; ") + l;
        cmp.notes.push_back("[" + std::to_string(r + 1) + "] " + cmp.labels[r] + " (" + runs[r]->format
                            + ") does not record: " + lacks);
    }
    if (normalisation == Normalisation::PerKey)
        for (const ComparisonRow& row : cmp.rows)
            for (std::size_t r = 0; r < n; ++r)
                if (row.presentIn(r) && row.keysPerRequest[r] <= 0)
                    cmp.notes.push_back("[" + std::to_string(r + 1) + "] " + cmp.labels[r] + ": keys per request of "
                                        + (row.command.empty() ? row.test : row.test + " / " + row.command)
                                        + " unknown, so keys/s is n/a");
    return cmp;
}

std::string formatMetricValue(Metric metric, double value)
{
    if (metric == Metric::Errors)
        return fixed(value, 0);
    if (isLatency(metric))
        return fixed(value, 3);
    return fixed(value, 2);
}

std::string formatChange(Metric metric, const ComparisonCell& cell)
{
    if (!cell.change)
        return {};
    const auto sign = [](double v) { return v > 0 ? "+" : v < 0 ? "-" : ""; };
    std::string s = sign(*cell.change) + formatMetricValue(metric, std::fabs(*cell.change));
    if (cell.percent) {
        const double p = *cell.percent;
        s += " (" + std::string(sign(p)) + fixed(std::fabs(p), std::fabs(p) < 0.1 && p != 0 ? 2 : 1) + "%)";
    }
    return s;
}

std::string formatComparison(const Comparison& cmp)
{
    std::string out;
    const std::size_t n = cmp.labels.size();
    out += "Comparison of " + std::to_string(n) + " runs, per " + normalisationName(cmp.normalisation)
        + " (latency per request), baseline [" + std::to_string(cmp.baseline + 1) + "] "
        + (n ? cmp.labels[cmp.baseline] : std::string()) + "\n";
    for (std::size_t r = 0; r < n; ++r)
        out += "  [" + std::to_string(r + 1) + "] " + cmp.labels[r] + ": " + cmp.descriptions[r] + "\n";
    if (!cmp.warnings.empty()) {
        out += "\nWarning: the runs differ in ways that can make this comparison unfair:\n";
        for (const FairnessWarning& w : cmp.warnings)
            out += "  - " + w.message + "\n";
    }
    if (!cmp.notes.empty()) {
        out += "\nNotes:\n";
        for (const std::string& note : cmp.notes)
            out += "  - " + note + "\n";
    }

    for (const ComparisonRow& row : cmp.rows) {
        out += "\n" + clipName(row.test, 100) + (row.command.empty() ? std::string() : " / " + row.command) + "\n";
        // Names of matched tests where they differ from the row's.
        for (std::size_t r = 0; r < n; ++r)
            if (!row.testNames[r].empty() && row.testNames[r] != row.test)
                out += "  [" + std::to_string(r + 1) + "] as \"" + clipName(row.testNames[r], 100) + "\"\n";
        if (cmp.normalisation == Normalisation::PerKey) {
            std::string keys = "  keys per request:";
            for (std::size_t r = 0; r < n; ++r)
                keys += " [" + std::to_string(r + 1) + "] "
                    + (!row.presentIn(r) ? std::string("-")
                                         : row.keysPerRequest[r] > 0 ? fixed(row.keysPerRequest[r], row.keysPerRequest[r] == std::floor(row.keysPerRequest[r]) ? 0 : 2)
                                                                     : std::string("unknown"));
            out += keys + "\n";
        }
        // Grid: metric | run values (| change verdict for non-baseline runs).
        std::vector<std::vector<std::string>> grid;
        std::vector<std::string> header { "metric" };
        for (std::size_t r = 0; r < n; ++r) {
            header.push_back("[" + std::to_string(r + 1) + "] " + cmp.labels[r]);
            if (r != cmp.baseline)
                header.push_back("change");
        }
        grid.push_back(header);
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            const Metric metric = kAllMetrics[m];
            std::vector<std::string> line { metricLabel(metric, cmp.normalisation) };
            bool any = false;
            for (std::size_t r = 0; r < n; ++r) {
                const ComparisonCell& cell = row.cells[r][m];
                any = any || cell.value.has_value();
                line.push_back(!row.presentIn(r) ? "-" : cell.value ? formatMetricValue(metric, *cell.value) : "n/a");
                if (r != cmp.baseline) {
                    std::string change = formatChange(metric, cell);
                    if (cell.verdict == Verdict::Better || cell.verdict == Verdict::Worse || cell.verdict == Verdict::Same)
                        change += std::string(change.empty() ? "" : " ") + verdictName(cell.verdict);
                    line.push_back(change);
                }
            }
            if (any)
                grid.push_back(line);
        }
        std::vector<std::size_t> widths(grid[0].size(), 0);
        for (const auto& line : grid)
            for (std::size_t c = 0; c < line.size(); ++c) {
                std::size_t chars = 0;
                for (unsigned char ch : line[c])
                    if ((ch & 0xC0) != 0x80)
                        ++chars;
                widths[c] = std::max(widths[c], chars);
            }
        for (const auto& line : grid) {
            std::string text = "  " + padRight(line[0], widths[0]);
            for (std::size_t c = 1; c < line.size(); ++c) {
                // Values right-aligned, change columns left-aligned.
                const bool changeColumn = grid[0][c] == "change";
                text += "  " + (changeColumn ? padRight(line[c], widths[c]) : padLeft(line[c], widths[c]));
            }
            while (!text.empty() && text.back() == ' ')
                text.pop_back();
            out += text + "\n";
        }
    }
    return out;
}

std::string comparisonCsv(const Comparison& cmp)
{
    std::string out = "test,command,metric,unit,run,label,value,baseline,change,change_percent,verdict\n";
    const std::size_t n = cmp.labels.size();
    auto num = [](const std::optional<double>& v, int decimals) { return v ? fixed(*v, decimals) : std::string(); };
    for (const ComparisonRow& row : cmp.rows)
        for (std::size_t m = 0; m < kMetricCount; ++m) {
            const Metric metric = kAllMetrics[m];
            const int decimals = metric == Metric::Errors ? 0 : isLatency(metric) ? 3 : 2;
            for (std::size_t r = 0; r < n; ++r) {
                if (!row.presentIn(r))
                    continue;
                const ComparisonCell& cell = row.cells[r][m];
                const ComparisonCell& base = row.cells[cmp.baseline][m];
                out += csvCell(row.test) + "," + csvCell(row.command) + "," + metricKey(metric) + ","
                    + csvCell(metricLabel(metric, cmp.normalisation)) + "," + std::to_string(r + 1) + ","
                    + csvCell(cmp.labels[r]) + "," + num(cell.value, decimals) + "," + num(base.value, decimals) + ","
                    + num(cell.change, decimals) + "," + num(cell.percent, 2) + "," + verdictName(cell.verdict) + "\n";
            }
        }
    return out;
}

bool parseThreshold(std::string_view text, Threshold& out, std::string* error)
{
    const auto failWith = [&](const std::string& what) {
        if (error)
            *error = what;
        return false;
    };
    out = Threshold {};
    out.text = std::string(text);
    const std::size_t op = text.find_first_of("<>");
    if (op == std::string_view::npos)
        return failWith("expected [TEST:]METRIC>VALUE or [TEST:]METRIC<VALUE, e.g. \"p99>+10%\"");
    out.above = text[op] == '>';
    std::string_view left = text.substr(0, op);
    std::string_view right = text.substr(op + 1);
    if (!right.empty() && right.front() == '=')
        return failWith("'>=' and '<=' are not supported; use '>' or '<'");
    const std::size_t colon = left.rfind(':');
    if (colon != std::string_view::npos) {
        out.scope = std::string(left.substr(0, colon));
        left = left.substr(colon + 1);
        if (out.scope.empty())
            return failWith("empty test name before ':'");
    }
    while (!left.empty() && left.front() == ' ')
        left.remove_prefix(1);
    while (!left.empty() && left.back() == ' ')
        left.remove_suffix(1);
    const std::optional<Metric> metric = metricFromKey(left);
    if (!metric)
        return failWith("unknown metric \"" + std::string(left)
                        + "\" (one of ops, avg, p50, p95, p99, p999, max, errors, kbps)");
    out.metric = *metric;

    std::string value(right);
    while (!value.empty() && value.front() == ' ')
        value.erase(value.begin());
    while (!value.empty() && value.back() == ' ')
        value.pop_back();
    if (value.empty())
        return failWith(std::string("expected a number after '") + text[op] + "'");
    const bool signedValue = value.front() == '+' || value.front() == '-';
    double scale = 1;
    if (value.back() == '%') {
        out.kind = Threshold::Kind::Percent;
        value.pop_back();
    } else {
        out.kind = signedValue ? Threshold::Kind::Change : Threshold::Kind::Absolute;
        // Units for latency: ms (default), us, s.
        auto strip = [&](std::string_view unit, double factor) {
            if (value.size() > unit.size() && value.compare(value.size() - unit.size(), unit.size(), unit) == 0) {
                if (!isLatency(out.metric))
                    return false;
                value.resize(value.size() - unit.size());
                scale = factor;
                return true;
            }
            return false;
        };
        if (!strip("ms", 1) && !strip("us", 0.001) && !strip("µs", 0.001) && !strip("s", 1000)) {
            // A number followed by letters: a unit we do not take.
            std::string_view digits = value;
            if (!digits.empty() && (digits.front() == '+' || digits.front() == '-'))
                digits.remove_prefix(1);
            double ignored = 0;
            const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), ignored);
            if (r.ec == std::errc() && r.ptr != digits.data() + digits.size()
                && std::isalpha(static_cast<unsigned char>(*r.ptr)))
                return failWith("unexpected unit in \"" + std::string(right) + "\""
                                + (isLatency(out.metric) ? " (latency takes ms, us or s)" : " (only latency takes a unit)"));
        }
    }
    std::string_view number = value;
    if (!number.empty() && number.front() == '+')
        number.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(number.data(), number.data() + number.size(), v);
    if (number.empty() || r.ec != std::errc() || r.ptr != number.data() + number.size() || !std::isfinite(v))
        return failWith("expected a number after '" + std::string(1, text[op]) + "', found \"" + std::string(right) + "\"");
    out.value = v * scale;
    return true;
}

ThresholdOutcome evaluateThresholds(const Comparison& cmp, const std::vector<Threshold>& thresholds)
{
    ThresholdOutcome outcome;
    const std::size_t n = cmp.labels.size();
    for (const Threshold& th : thresholds) {
        const std::size_t m = std::size_t(th.metric);
        bool matched = false;
        for (const ComparisonRow& row : cmp.rows) {
            bool applies = false;
            if (th.scope.empty()) {
                applies = row.command.empty();
            } else if (!row.command.empty()) {
                applies = equalsIgnoreCase(row.command, th.scope);
            } else {
                applies = equalsIgnoreCase(row.test, th.scope);
                for (const std::string& name : row.testNames)
                    applies = applies || (!name.empty() && equalsIgnoreCase(name, th.scope));
            }
            if (!applies)
                continue;
            matched = true;
            const std::string where = row.test + (row.command.empty() ? std::string() : " / " + row.command);
            for (std::size_t r = 0; r < n; ++r) {
                if (r == cmp.baseline || !row.presentIn(r))
                    continue;
                const ComparisonCell& cell = row.cells[r][m];
                const ComparisonCell& base = row.cells[cmp.baseline][m];
                std::optional<double> x;
                switch (th.kind) {
                case Threshold::Kind::Absolute: x = cell.value; break;
                case Threshold::Kind::Change: x = cell.change; break;
                case Threshold::Kind::Percent: x = cell.percent; break;
                }
                const std::string run = "[" + std::to_string(r + 1) + "] " + cmp.labels[r];
                if (!x) {
                    std::string why = !cell.value ? "not recorded in " + run
                        : !base.value            ? "not recorded in the baseline"
                                                 : "the baseline is 0, so there is no relative change";
                    if (!row.presentIn(cmp.baseline) && th.kind != Threshold::Kind::Absolute)
                        why = "the baseline has no such test";
                    outcome.notEvaluated.push_back(th.text + ": " + where + " in " + run + ": " + why);
                    continue;
                }
                const bool crossed = th.above ? *x > th.value : *x < th.value;
                if (!crossed)
                    continue;
                std::string line = th.text + " crossed: " + where + " in " + run + ": "
                    + metricLabel(th.metric, cmp.normalisation) + " " + formatMetricValue(th.metric, *cell.value);
                if (base.value && th.kind != Threshold::Kind::Absolute)
                    line += " against " + formatMetricValue(th.metric, *base.value) + ", " + formatChange(th.metric, cell);
                outcome.crossed.push_back(line);
            }
        }
        if (!matched)
            outcome.unmatched.push_back(th.text + (th.scope.empty() ? std::string(": the runs have no tests")
                                                                    : ": no test or command named \"" + th.scope + "\""));
    }
    return outcome;
}

} // namespace tacho::engine
