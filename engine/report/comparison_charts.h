#pragma once
// The data behind a comparison's charts, computed once here for the HTML
// report, the PDF and the workbench (which only draw it): throughput and
// latency percentiles over time, and the percentile spectrum on a 1/(1−p)
// axis. Throughput follows the comparison's normalisation (per key: × the
// row's keys per request; per connection: ÷ connections); latency is per
// request. A run whose figure cannot be normalised (keys or connections
// unknown) gets no throughput line rather than a wrong one.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "engine/report/comparison.h"

namespace tacho::engine {

using ChartPoints = std::vector<std::pair<double, double>>;   // x, y

struct ChartLine {
    std::string name;        // "[2] b.json", "[2] b.json p99"; with several tests "… · SET"
    std::size_t run = 0;     // index into the compared runs (one colour per run)
    std::size_t row = 0;     // index into Comparison::rows (a whole-test row)
    std::string percentile;  // latency lines: "p50" or "p99"; empty otherwise
    ChartPoints points;
};

struct ComparisonCharts {
    std::string throughputUnit;   // metricLabel(Metric::Ops, normalisation)
    std::string timeAxis;         // what x means on the time charts
    std::vector<ChartLine> throughput, latency, spectrum;
};

// Seconds from the run's start to test `index`'s measured start: connect,
// warm-up and measured time of the tests before it, plus its own connect
// and warm-up.
double testStartOffset(const RunResult& run, std::size_t index);

// The spectrum's x for a percentile (0..100): log10(1 / (1 − p)), capped at
// kSpectrumMaxX (99.999 %). 0 = 0 %, 1 = 90 %, 2 = 99 %, 3 = 99.9 % …
inline constexpr double kSpectrumMaxX = 5;
double spectrumX(double percentile);
// A test's (command < 0) or command's spectrum in ms: from its histogram,
// else from the percentiles the source states (peer imports).
ChartPoints spectrumPoints(const LoadedRun& run, std::size_t test, int command = -1);

// row < 0: every whole-test row, each run's tests on that run's own clock
// from its start (so runs are aligned at their starts); row ≥ 0: that row's
// test only, on the test's clock.
ComparisonCharts comparisonCharts(const Comparison& comparison, const std::vector<const LoadedRun*>& runs, int row = -1);

} // namespace tacho::engine
