#include "engine/run/interval_series.h"

#include <cmath>

namespace tacho::engine {

IntervalPoint toIntervalPoint(const IntervalStats& stats, double start, double end)
{
    IntervalPoint p;
    p.startSeconds = start;
    p.endSeconds = end;
    p.reconnects = stats.reconnects;
    p.connectErrors = stats.connectErrors;
    p.unanswered = stats.unanswered;
    p.redirects = stats.moved + stats.asked;
    p.connections = stats.openConnections;
    LatencyHistogram all;
    for (const CommandCounters& command : stats.commands) {
        p.requests += command.requests;
        p.errors += command.errors;
        p.hits += command.hits;
        p.misses += command.misses;
        p.bytesSent += command.bytesSent;
        p.bytesReceived += command.bytesReceived;
        all.add(command.latency);
        CommandInterval c;
        c.requests = command.requests;
        c.errors = command.errors;
        c.p50 = command.latency.valueAtPercentile(50);
        c.p99 = command.latency.valueAtPercentile(99);
        c.p999 = command.latency.valueAtPercentile(99.9);
        c.max = command.latency.max();
        c.mean = command.latency.mean();
        p.commands.push_back(c);
    }
    p.p50 = all.valueAtPercentile(50);
    p.p99 = all.valueAtPercentile(99);
    p.p999 = all.valueAtPercentile(99.9);
    p.max = all.max();
    p.mean = all.mean();
    return p;
}

IntervalSeriesBuilder::IntervalSeriesBuilder(std::size_t commandCount)
    : m_pending(commandCount)
{
}

void IntervalSeriesBuilder::add(const IntervalStats& tick, const IntervalPoint& tickPoint, std::vector<IntervalPoint>& series)
{
    if (!m_hasPending && tickPoint.endSeconds <= kFineSpanSeconds) {
        series.push_back(tickPoint);
        return;
    }
    if (!m_hasPending) {
        m_pendingStart = tickPoint.startSeconds;
        m_hasPending = true;
    }
    m_pending.mergeFrom(tick);
    m_pendingEnd = tickPoint.endSeconds;
    // Points end at the first tick past a whole second, so each covers about
    // one second of the clock (per-second reports bin them by their start).
    if (std::floor(m_pendingEnd / kCoarseStepSeconds + 1e-9) > std::floor(m_pendingStart / kCoarseStepSeconds + 1e-9))
        finish(series);
}

void IntervalSeriesBuilder::finish(std::vector<IntervalPoint>& series)
{
    if (!m_hasPending)
        return;
    series.push_back(toIntervalPoint(m_pending, m_pendingStart, m_pendingEnd));
    m_pending.clear();
    m_hasPending = false;
}

} // namespace tacho::engine
