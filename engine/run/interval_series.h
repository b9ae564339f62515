#pragma once
// A test's interval series, built from the controller's ticks.
//
// Points keep tick resolution (0.1 s) for the first minute, where ramps and
// warm-up effects live, then one point per second of the clock: a soak of hours keeps
// its memory flat (a point with its per-command entries is ~260 bytes, so
// 0.1 s points alone would grow ~9 MiB an hour) and charts stay readable.
// Each coarse point is built from the merged histograms of its ticks, so its
// percentiles are exact for its window, not averages of percentiles.

#include <cstddef>
#include <string>
#include <vector>

#include "engine/run/run_result.h"
#include "engine/stats/interval_stats.h"

namespace tacho::engine {

// The point for [start, end] seconds of measured time.
IntervalPoint toIntervalPoint(const IntervalStats& stats, double start, double end);

class IntervalSeriesBuilder {
public:
    static constexpr double kFineSpanSeconds = 60;
    static constexpr double kCoarseStepSeconds = 1;

    explicit IntervalSeriesBuilder(std::size_t commandCount);

    // Adds one tick (`tickPoint` is toIntervalPoint of `tick`); appends to
    // `series` when a point is complete.
    void add(const IntervalStats& tick, const IntervalPoint& tickPoint, std::vector<IntervalPoint>& series);
    // Appends the partly filled coarse point, if any (at the end of the test).
    void finish(std::vector<IntervalPoint>& series);

private:
    IntervalStats m_pending;
    double m_pendingStart = 0;
    double m_pendingEnd = 0;
    bool m_hasPending = false;
};

// Whole seconds (TestResult::perSecond): each tick's per-command histograms
// are merged into the second the tick starts in, and the second is
// summarized when a tick of a later second arrives. All of it runs at the
// tick on the controller's thread, none per request.
class SecondSeriesBuilder {
public:
    // No percentiles: builds nothing.
    SecondSeriesBuilder(std::vector<std::string> commandNames, std::vector<double> percentiles);

    void add(const IntervalStats& tick, double startSeconds, std::vector<SecondPoint>& series);
    void finish(std::vector<SecondPoint>& series);

private:
    SecondSummary summarize(const LatencyHistogram& latency, SecondSummary counts) const;

    std::vector<std::string> m_names;
    std::vector<double> m_percentiles;
    std::vector<CommandCounters> m_pending;
    LatencyHistogram m_scratch;
    std::size_t m_second = 0;
    bool m_hasPending = false;
};

} // namespace tacho::engine
