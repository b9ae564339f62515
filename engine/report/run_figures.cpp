#include "engine/report/run_figures.h"

#include <algorithm>

#include "engine/report/comparison.h"
#include "engine/report/run_file.h"

namespace tacho::engine {

namespace {

constexpr double kNsPerMs = 1e6;

double ms(std::uint64_t ns) { return double(ns) / kNsPerMs; }

// The merged distribution's percentiles; avg, min and max are set by the
// callers, which know better ones than a re-bucketed histogram's.
void setPercentiles(StatedFigures& f, const LatencyHistogram& merged)
{
    f.p50Ms = ms(merged.valueAtPercentile(50));
    f.p95Ms = ms(merged.valueAtPercentile(95));
    f.p99Ms = ms(merged.valueAtPercentile(99));
    f.p999Ms = ms(merged.valueAtPercentile(99.9));
}

struct Totals {
    std::uint64_t requests = 0, errors = 0, bytes = 0;
    double seconds = 0;
};

Totals totalsOf(const RunResult& run)
{
    Totals t;
    for (const TestResult& test : run.tests) {
        t.requests += test.requests;
        t.errors += test.errors;
        t.bytes += test.bytesSent + test.bytesReceived;
        t.seconds += test.seconds;
    }
    return t;
}

void setCounts(StatedFigures& f, const Totals& t)
{
    f.requests = t.requests;
    f.errors = t.errors;
    if (t.seconds > 0) {
        f.opsPerSec = double(t.requests) / t.seconds;
        f.kbPerSec = double(t.bytes) / 1024.0 / t.seconds;
    }
}

StatedFigures fromMetrics(const MetricValues& v)
{
    StatedFigures f;
    const auto at = [&](Metric m) { return v[std::size_t(m)]; };
    f.opsPerSec = at(Metric::Ops);
    f.kbPerSec = at(Metric::KBps);
    f.avgMs = at(Metric::Avg);
    f.p50Ms = at(Metric::P50);
    f.p95Ms = at(Metric::P95);
    f.p99Ms = at(Metric::P99);
    f.p999Ms = at(Metric::P999);
    f.maxMs = at(Metric::Max);
    if (const auto errors = at(Metric::Errors))
        f.errors = std::uint64_t(*errors);
    return f;
}

// A file's counts and rates, for the formats that count requests.
StatedFigures countedFromFile(const LoadedRun& run)
{
    StatedFigures f;
    const bool countsKnown = run.format == kRunFileFormat || run.format.rfind("memtier", 0) == 0;
    if (countsKnown)
        setCounts(f, totalsOf(run.run));
    return f;
}

// A file without "allTests" (older, merged elsewhere, or a peer's) with
// several tests: its counts, and its histograms merged.
StatedFigures computedFromFile(const LoadedRun& run)
{
    StatedFigures f = countedFromFile(run);
    LatencyHistogram merged;
    double weightedAvg = 0;
    bool avgStated = true;
    std::optional<double> minMs, maxMs;
    for (std::size_t i = 0; i < run.run.tests.size(); ++i) {
        const TestResult& t = run.run.tests[i];
        if (t.requests == 0 && t.latency.count() == 0)
            continue;
        const LoadedTest* loaded = i < run.tests.size() ? &run.tests[i] : nullptr;
        if ((loaded && !loaded->hasHistogram) || t.latency.count() == 0)
            return f;   // a test with replies but no distribution: no merged percentile
        merged.add(t.latency);
        const StatedFigures* stated = loaded ? &loaded->figures : nullptr;
        if (stated && stated->avgMs)
            weightedAvg += *stated->avgMs * double(t.latency.count());
        else
            avgStated = false;
        const double testMin = stated && stated->minMs ? *stated->minMs : ms(t.latency.min());
        const double testMax = stated && stated->maxMs ? *stated->maxMs : ms(t.latency.max());
        minMs = std::min(minMs.value_or(testMin), testMin);
        maxMs = std::max(maxMs.value_or(testMax), testMax);
    }
    if (merged.count() == 0)
        return f;
    setPercentiles(f, merged);
    f.avgMs = avgStated ? weightedAvg / double(merged.count()) : merged.mean() / kNsPerMs;
    f.minMs = minMs;
    f.maxMs = maxMs;
    return f;
}

} // namespace

StatedFigures wholeRunFigures(const RunResult& run)
{
    StatedFigures f;
    setCounts(f, totalsOf(run));
    LatencyHistogram merged;
    for (const TestResult& t : run.tests)
        merged.add(t.latency);
    if (merged.count() == 0)
        return f;
    setPercentiles(f, merged);
    f.avgMs = merged.mean() / kNsPerMs;   // exact: the sum of every latency over their count
    f.minMs = ms(merged.min());
    f.maxMs = ms(merged.max());
    return f;
}

StatedFigures wholeRunFigures(const LoadedRun& run)
{
    if (run.allTests)
        return *run.allTests;
    std::size_t answered = 0, only = 0;
    for (std::size_t i = 0; i < run.run.tests.size(); ++i)
        if (run.run.tests[i].requests > 0 || run.run.tests[i].latency.count() > 0) {
            ++answered;
            only = i;
        }
    if (run.run.tests.size() == 1 || answered == 1) {
        // One test: its own figures, as its row states them (a peer's summary included).
        StatedFigures f = fromMetrics(runFigures(run, only));
        const StatedFigures* stated = only < run.tests.size() ? &run.tests[only].figures : nullptr;
        if (f.p50Ms)
            f.minMs = stated && stated->minMs ? stated->minMs : std::optional<double>(ms(run.run.tests[only].latency.min()));
        const StatedFigures counted = countedFromFile(run);
        f.requests = counted.requests;
        if (counted.opsPerSec)   // over every test's seconds, as for several tests
            f.opsPerSec = counted.opsPerSec;
        if (counted.kbPerSec)
            f.kbPerSec = counted.kbPerSec;
        return f;
    }
    return computedFromFile(run);
}

} // namespace tacho::engine
