#include "engine/report/comparison_charts.h"

#include <algorithm>
#include <cmath>

#include "engine/report/memtier_report.h"   // percentileSteps

namespace tacho::engine {

namespace {

constexpr double kNsPerMs = 1e6;

// Requests per second × this = the row's throughput in the chosen unit; 0 when it cannot be known.
double throughputFactor(const Comparison& cmp, const ComparisonRow& row, const LoadedRun& run, std::size_t r)
{
    switch (cmp.normalisation) {
    case Normalisation::PerRequest: return 1;
    case Normalisation::PerKey: return row.keysPerRequest[r];
    case Normalisation::PerConnection:
        return run.known.connections && run.run.config.connections > 0 ? 1.0 / run.run.config.connections : 0;
    }
    return 0;
}

void append(ChartPoints& to, const ChartPoints& from) { to.insert(to.end(), from.begin(), from.end()); }

} // namespace

double testStartOffset(const RunResult& run, std::size_t index)
{
    double offset = 0;
    for (std::size_t i = 0; i < index && i < run.tests.size(); ++i)
        offset += run.tests[i].connectSeconds + run.tests[i].warmupSeconds + run.tests[i].seconds;
    if (index < run.tests.size())
        offset += run.tests[index].connectSeconds + run.tests[index].warmupSeconds;
    return offset;
}

double spectrumX(double percentile)
{
    return std::min(kSpectrumMaxX, std::log10(100.0 / std::max(1e-9, 100.0 - percentile)));
}

ChartPoints spectrumPoints(const LoadedRun& run, std::size_t test, int command)
{
    ChartPoints points;
    if (test >= run.run.tests.size())
        return points;
    const TestResult& t = run.run.tests[test];
    if (command >= 0 && std::size_t(command) >= t.commands.size())
        return points;
    const LatencyHistogram& histogram = command < 0 ? t.latency : t.commands[std::size_t(command)].latency;
    const bool exact = histogram.count() > 0 && (test >= run.tests.size() || run.tests[test].hasHistogram);
    if (exact) {
        for (const PercentileStep& step : percentileSteps(histogram, 5))
            if (step.percentile < 100.0)
                points.emplace_back(spectrumX(step.percentile), double(step.valueNs) / kNsPerMs);
        return points;
    }
    const MetricValues v = runFigures(run, test, command);
    const std::pair<double, Metric> stated[] = { { 50, Metric::P50 }, { 95, Metric::P95 }, { 99, Metric::P99 },
                                                 { 99.9, Metric::P999 } };
    for (const auto& [p, m] : stated)
        if (v[std::size_t(m)])
            points.emplace_back(spectrumX(p), *v[std::size_t(m)]);
    return points;
}

ComparisonCharts comparisonCharts(const Comparison& cmp, const std::vector<const LoadedRun*>& runs, int onlyRow)
{
    ComparisonCharts out;
    out.throughputUnit = metricLabel(Metric::Ops, cmp.normalisation);
    out.timeAxis = onlyRow < 0 ? "seconds since the run's start" : "seconds since the test's start";
    std::size_t wholeTestRows = 0;
    for (const ComparisonRow& row : cmp.rows)
        wholeTestRows += row.command.empty() ? 1 : 0;
    const bool nameTests = onlyRow < 0 && wholeTestRows > 1;

    for (std::size_t r = 0; r < runs.size() && r < cmp.labels.size(); ++r) {
        const LoadedRun& run = *runs[r];
        const std::string runName = "[" + std::to_string(r + 1) + "] " + cmp.labels[r];
        // On the run's clock all tests of a run form one line per chart.
        ChartLine throughput { runName, r, 0, "", {} };
        ChartLine p50 { runName + " p50", r, 0, "p50", {} }, p99 { runName + " p99", r, 0, "p99", {} };
        for (std::size_t i = 0; i < cmp.rows.size(); ++i) {
            const ComparisonRow& row = cmp.rows[i];
            if (!row.command.empty() || (onlyRow >= 0 && std::size_t(onlyRow) != i) || !row.presentIn(r))
                continue;
            const std::size_t t = std::size_t(row.testIndex[r]);
            const TestResult& test = run.run.tests[t];
            const double offset = onlyRow < 0 ? testStartOffset(run.run, t) : 0;
            const double factor = throughputFactor(cmp, row, run, r);
            ChartPoints tp, l50, l99;
            for (const IntervalPoint& p : test.intervals) {
                const double length = p.endSeconds - p.startSeconds;
                if (length <= 0)
                    continue;
                const double mid = offset + (p.startSeconds + p.endSeconds) / 2;
                if (factor > 0)
                    tp.emplace_back(mid, double(p.requests) / length * factor);
                if (p.requests > 0) {
                    l50.emplace_back(mid, double(p.p50) / kNsPerMs);
                    l99.emplace_back(mid, double(p.p99) / kNsPerMs);
                }
            }
            if (throughput.points.empty())
                throughput.row = p50.row = p99.row = i;
            append(throughput.points, tp);
            append(p50.points, l50);
            append(p99.points, l99);
            out.spectrum.push_back(
                ChartLine { nameTests ? runName + " · " + row.test : runName, r, i, "", spectrumPoints(run, t) });
        }
        if (!throughput.points.empty())
            out.throughput.push_back(std::move(throughput));
        if (!p99.points.empty()) {
            out.latency.push_back(std::move(p99));
            out.latency.push_back(std::move(p50));
        }
    }
    return out;
}

} // namespace tacho::engine
