// Comparing runs: their tests matched into rows, each cell's change and
// verdict against the baseline, and the fairness warnings and notes that go
// with them. The figures come from comparison_metrics.cpp; text, CSV and
// thresholds from comparison_output.cpp.
#include "engine/report/comparison.h"
#include "engine/report/comparison_names.h"
#include "engine/text/number_format.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/report/run_file.h"
#include "engine/workload/request_generator.h"

namespace tacho::engine {

using comparison_names::clipName;
using comparison_names::equalsIgnoreCase;

namespace {

std::string fixed(double value, int decimals) { return fixedDecimals(value, decimals); }

double connectionsOf(const LoadedRun& run)
{
    return run.known.connections && run.run.config.connections > 0 ? double(run.run.config.connections) : 0;
}

} // namespace

const char* verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Baseline: return "baseline";
    case Verdict::Better: return "better";
    case Verdict::Worse: return "worse";
    case Verdict::Same: return "same";
    case Verdict::Noise: return "noise";
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
            s += storedArgument(a) + "\x1e";   // as run files keep it, older ones included
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
    if (r.status != RunStatus::Completed)
        d += std::string(" — ") + (r.status == RunStatus::Failed ? "FAILED" : "stopped")
            + (r.failure.empty() ? "" : ": " + r.failure);
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

// Runs made as repeats of one setup share a group in their files; every
// other run is a setup of its own (a before/after pair on one server may
// differ in what no run file records: the server's configuration, a build).
std::vector<std::size_t> setupsOf(const std::vector<const LoadedRun*>& runs)
{
    std::vector<std::string> groups;
    std::vector<std::size_t> setups;
    for (const LoadedRun* run : runs) {
        const std::string& group = run->run.environment.repeatGroup;
        const auto known = group.empty() ? groups.end() : std::find(groups.begin(), groups.end(), group);
        setups.push_back(std::size_t(known - groups.begin()));
        if (known == groups.end())
            groups.push_back(group.empty() ? "\x1f" + std::to_string(setups.size()) : group);
    }
    return setups;
}

struct Range {
    double low = 0, high = 0;
    int runs = 0;
    void add(double v)
    {
        low = runs ? std::min(low, v) : v;
        high = runs ? std::max(high, v) : v;
        ++runs;
    }
};

// A run against the baseline when either setup was repeated: inside the
// noise unless the two setups' ranges are clear of each other (by more than
// the histograms' precision).
Verdict verdictWithSpread(Metric metric, const Range& base, const Range& run, bool sameSetup)
{
    const double scale = std::max({ std::fabs(base.low), std::fabs(base.high), std::fabs(run.low), std::fabs(run.high) });
    const double margin = metric == Metric::Errors ? 0 : kSameBand * scale;
    const bool higher = run.low > base.high + margin;
    const bool lower = run.high < base.low - margin;
    if (sameSetup || (!higher && !lower))
        return Verdict::Noise;
    return higher == higherIsBetter(metric) ? Verdict::Better : Verdict::Worse;
}

// What the reader should know about the noise: each repeated setup's spread
// (of the first row that has it), or that runs of one workload ran once each.
std::vector<std::string> noiseNotes(const Comparison& cmp, const std::vector<const LoadedRun*>& runs)
{
    std::vector<std::string> notes;
    const std::size_t n = runs.size();
    std::size_t setupCount = 0;
    for (std::size_t s : cmp.setups)
        setupCount = std::max(setupCount, s + 1);
    bool repeated = false;
    for (std::size_t setup = 0; setup < setupCount; ++setup) {
        std::string members;
        for (std::size_t r = 0; r < n; ++r)
            if (cmp.setups[r] == setup)
                members += (members.empty() ? "[" : " [") + std::to_string(r + 1) + "]";
        if (std::count(cmp.setups.begin(), cmp.setups.end(), setup) < 2)
            continue;
        repeated = true;
        std::string spread;
        for (const ComparisonRow& row : cmp.rows) {
            const std::size_t r = std::size_t(std::find(cmp.setups.begin(), cmp.setups.end(), setup) - cmp.setups.begin());
            for (Metric metric : { Metric::Ops, Metric::P99 }) {
                const ComparisonCell& cell = row.cells[r][std::size_t(metric)];
                if (!cell.spreadLow || !cell.spreadHigh || *cell.spreadHigh <= 0)
                    continue;
                const double mid = (*cell.spreadLow + *cell.spreadHigh) / 2;
                spread += (spread.empty() ? "" : ", ") + metricLabel(metric, cmp.normalisation) + " ±"
                    + fixedDecimals((*cell.spreadHigh - *cell.spreadLow) / 2 / mid * 100, 1) + "%";
            }
            if (!spread.empty()) {
                spread = " (" + spread + " in " + (row.command.empty() ? row.test : row.test + " / " + row.command) + ")";
                break;
            }
        }
        notes.push_back(members + " repeat one setup: their spread is the measurement's noise" + spread
                        + "; a difference inside it is marked \"noise\", not better or worse");
    }
    if (!repeated) {
        for (std::size_t r = 0; r < n; ++r)
            if (r != cmp.baseline && workloadSignature(*runs[r]) == workloadSignature(*runs[cmp.baseline])) {
                notes.push_back("[" + std::to_string(cmp.baseline + 1) + "] and [" + std::to_string(r + 1)
                                + "] ran the same workload once each: a small difference may be noise; repeat each run "
                                  "a few times to measure the spread");
                break;
            }
    }
    return notes;
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

namespace {

// A row of tests matched across the runs: per run the index of its test, −1 when absent.
struct TestRow {
    std::string name;
    std::vector<int> index;
};

// The tests matched into rows: the baseline's tests first, in its order; another run's test
// joins the row of the same name (exactly, else ignoring case) or starts one of its own. A run
// with no test name in common with the baseline but as many tests is matched by position, and
// each such pair is named in `positionPairs`.
std::vector<TestRow> matchTests(const std::vector<const LoadedRun*>& runs, std::size_t b,
                                std::vector<std::string>& positionPairs)
{
    const std::size_t n = runs.size();
    std::vector<TestRow> testRows;
    for (std::size_t i = 0; i < runs[b]->run.tests.size(); ++i) {
        TestRow row { runs[b]->run.tests[i].name, std::vector<int>(n, -1) };
        row.index[b] = int(i);
        testRows.push_back(std::move(row));
    }
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
    return testRows;
}

// What limited run `r`'s test in `row` (issue 19), when recorded: whole-test rows only.
std::string bottleneckOf(const ComparisonRow& row, const TestTelemetry& telemetry)
{
    if (!row.command.empty() || !telemetry.recorded())
        return {};
    const BottleneckVerdict& v = telemetry.verdict;
    return bottleneckName(v.kind) + (v.rate.empty() ? std::string() : ", rate " + v.rate) + " (" + v.reason + ")"
        + (v.advice.empty() ? std::string() : ": " + v.advice);
}

// Throughput per key or per connection instead of per request; n/a when the divisor is unknown.
void normalise(MetricValues& v, Normalisation normalisation, double keysPerRequest, double connections)
{
    auto& ops = v[std::size_t(Metric::Ops)];
    auto& kb = v[std::size_t(Metric::KBps)];
    if (normalisation == Normalisation::PerKey) {
        if (ops)
            ops = keysPerRequest > 0 ? std::optional<double>(*ops * keysPerRequest) : std::nullopt;
    } else if (normalisation == Normalisation::PerConnection) {
        if (ops)
            ops = connections > 0 ? std::optional<double>(*ops / connections) : std::nullopt;
        if (kb)
            kb = connections > 0 ? std::optional<double>(*kb / connections) : std::nullopt;
    }
}

// The row's per-run facts (test names, failures, bottlenecks, keys per request) and its
// figures, normalised; no figures for a run the row is absent from.
std::vector<MetricValues> rowFigures(ComparisonRow& row, const std::vector<const LoadedRun*>& runs,
                                     Normalisation normalisation)
{
    const std::size_t n = runs.size();
    row.keysPerRequest.assign(n, 0);
    row.testNames.assign(n, std::string());
    row.failures.assign(n, std::string());
    row.bottlenecks.assign(n, std::string());
    std::vector<MetricValues> values(n);
    for (std::size_t r = 0; r < n; ++r) {
        if (row.testIndex[r] < 0)
            continue;
        const LoadedRun& run = *runs[r];
        const std::size_t t = std::size_t(row.testIndex[r]);
        row.testNames[r] = run.run.tests[t].name;
        row.failures[r] = testFailure(run, t);
        row.bottlenecks[r] = bottleneckOf(row, run.run.tests[t].telemetry);
        if (!row.presentIn(r))
            continue;
        const int c = row.command.empty() ? -1 : row.commandIndex[r];
        MetricValues v = runFigures(run, t, c);
        row.keysPerRequest[r] = keysPerRequestOf(run, t, c);
        normalise(v, normalisation, row.keysPerRequest[r], connectionsOf(run));
        values[r] = v;
    }
    return values;
}

// Each cell's value, its setup's spread, its change against the baseline and its verdict
// (outside the noise when either side was repeated).
void judgeCells(ComparisonRow& row, const std::vector<MetricValues>& values, const Comparison& cmp)
{
    const std::size_t n = values.size();
    const std::size_t b = cmp.baseline;
    row.cells.assign(n, {});
    for (std::size_t m = 0; m < kMetricCount; ++m) {
        const Metric metric = kAllMetrics[m];
        const std::optional<double> base = values[b][m];
        std::vector<Range> spread(n);   // per setup
        for (std::size_t r = 0; r < n; ++r)
            if (values[r][m])
                spread[cmp.setups[r]].add(*values[r][m]);
        for (std::size_t r = 0; r < n; ++r) {
            ComparisonCell& cell = row.cells[r][m];
            cell.value = values[r][m];
            const Range& own = spread[cmp.setups[r]];
            if (cell.value && own.runs > 1) {
                cell.spreadLow = own.low;
                cell.spreadHigh = own.high;
            }
            if (r == b) {
                cell.verdict = cell.value ? Verdict::Baseline : Verdict::Unknown;
                continue;
            }
            if (!cell.value || !base)
                continue;
            cell.change = *cell.value - *base;
            if (*base != 0)
                cell.percent = *cell.change / std::fabs(*base) * 100.0;
            const Range& baseSetup = spread[cmp.setups[b]];
            cell.verdict = own.runs > 1 || baseSetup.runs > 1
                ? verdictWithSpread(metric, baseSetup, own, cmp.setups[r] == cmp.setups[b])
                : verdictFor(metric, *base, *cell.value);
        }
    }
}

void fillRow(ComparisonRow& row, const std::vector<const LoadedRun*>& runs, const Comparison& cmp)
{
    judgeCells(row, rowFigures(row, runs, cmp.normalisation), cmp);
}

// The commands of a mixed test (one with more than one command in some run), the baseline's
// order first, each once (ignoring case); empty for a test of one command.
std::vector<std::string> commandsOfMixedTest(const TestRow& tr, const std::vector<const LoadedRun*>& runs,
                                             std::size_t b)
{
    const std::size_t n = runs.size();
    bool mixed = false;
    for (std::size_t r = 0; r < n; ++r)
        if (tr.index[r] >= 0 && runs[r]->run.tests[std::size_t(tr.index[r])].commands.size() > 1)
            mixed = true;
    std::vector<std::string> commands;
    if (!mixed)
        return commands;
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
    return commands;
}

// A row per test, and for a mixed test a row per command after it.
void addRows(Comparison& cmp, const std::vector<TestRow>& testRows, const std::vector<const LoadedRun*>& runs)
{
    const std::size_t n = runs.size();
    for (const TestRow& tr : testRows) {
        ComparisonRow row;
        row.test = tr.name;
        row.testIndex = tr.index;
        row.commandIndex.assign(n, -1);
        fillRow(row, runs, cmp);
        cmp.rows.push_back(std::move(row));
        for (const std::string& command : commandsOfMixedTest(tr, runs, cmp.baseline)) {
            ComparisonRow crow;
            crow.test = tr.name;
            crow.command = command;
            crow.testIndex = tr.index;
            crow.commandIndex.assign(n, -1);
            for (std::size_t r = 0; r < n; ++r)
                if (tr.index[r] >= 0)
                    crow.commandIndex[r] = findCommand(runs[r]->run.tests[std::size_t(tr.index[r])], command);
            fillRow(crow, runs, cmp);
            cmp.rows.push_back(std::move(crow));
        }
    }
}

// The fairness warnings, a side limited by its load machine, and tests matched by position.
void addWarnings(Comparison& cmp, const std::vector<const LoadedRun*>& runs,
                 const std::vector<std::string>& positionPairs)
{
    cmp.warnings = fairnessWarnings(runs, cmp.labels);
    // A side that was not limited by the server measured something else.
    for (const ComparisonRow& row : cmp.rows)
        for (std::size_t r = 0; r < runs.size(); ++r)
            if (row.command.empty() && row.testIndex[r] >= 0
                && runs[r]->run.tests[std::size_t(row.testIndex[r])].telemetry.verdict.kind == Bottleneck::ClientBound)
                cmp.warnings.push_back({ "bottleneck", "[" + std::to_string(r + 1) + "] " + cmp.labels[r] + " was client-bound in "
                                                           + row.test + ": its figures are the load machine's limit, not the server's" });
    if (!positionPairs.empty()) {
        std::string pairs;
        for (const std::string& p : positionPairs)
            pairs += (pairs.empty() ? "" : "; ") + p;
        cmp.warnings.push_back({ "workload", "tests matched by position (no names in common): " + pairs });
    }
}

// What each source does not record, the noise notes, and keys per request unknown per key.
void addNotes(Comparison& cmp, const std::vector<const LoadedRun*>& runs)
{
    const std::size_t n = runs.size();
    for (std::size_t r = 0; r < n; ++r) {
        if (runs[r]->lacks.empty())
            continue;
        std::string lacks;
        for (const std::string& l : runs[r]->lacks)
            lacks += (lacks.empty() ? "" : "; ") + l;
        cmp.notes.push_back("[" + std::to_string(r + 1) + "] " + cmp.labels[r] + " (" + runs[r]->format
                            + ") does not record: " + lacks);
    }
    for (std::string& note : noiseNotes(cmp, runs))
        cmp.notes.push_back(std::move(note));
    if (cmp.normalisation == Normalisation::PerKey)
        for (const ComparisonRow& row : cmp.rows)
            for (std::size_t r = 0; r < n; ++r)
                if (row.presentIn(r) && row.keysPerRequest[r] <= 0)
                    cmp.notes.push_back("[" + std::to_string(r + 1) + "] " + cmp.labels[r] + ": keys per request of "
                                        + (row.command.empty() ? row.test : row.test + " / " + row.command)
                                        + " unknown, so keys/s is n/a");
}

} // namespace

Comparison compareRuns(const std::vector<const LoadedRun*>& runs, std::size_t baseline, Normalisation normalisation)
{
    Comparison cmp;
    cmp.normalisation = normalisation;
    cmp.baseline = runs.empty() ? 0 : std::min(baseline, runs.size() - 1);
    cmp.labels = uniqueLabels(runs);
    for (const LoadedRun* r : runs) {
        cmp.descriptions.push_back(runDescription(*r));
        cmp.runFailures.push_back(r->run.status != RunStatus::Failed ? std::string()
                                      : "the run failed" + (r->run.failure.empty() ? "" : ": " + r->run.failure));
    }
    if (runs.empty())
        return cmp;
    cmp.setups = setupsOf(runs);
    std::vector<std::string> positionPairs;
    const std::vector<TestRow> testRows = matchTests(runs, cmp.baseline, positionPairs);
    addRows(cmp, testRows, runs);
    addWarnings(cmp, runs, positionPairs);
    addNotes(cmp, runs);
    return cmp;
}

} // namespace tacho::engine
