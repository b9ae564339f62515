#include "engine/run/interval_series.h"

#include <cmath>
#include <map>

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

namespace {

SecondSummary countsOf(const CommandCounters& c)
{
    SecondSummary s;
    s.requests = c.requests;
    s.errors = c.errors;
    s.hits = c.hits;
    s.misses = c.misses;
    s.bytesSent = c.bytesSent;
    s.bytesReceived = c.bytesReceived;
    return s;
}

void addCounts(SecondSummary& into, const SecondSummary& from)
{
    into.requests += from.requests;
    into.errors += from.errors;
    into.hits += from.hits;
    into.misses += from.misses;
    into.bytesSent += from.bytesSent;
    into.bytesReceived += from.bytesReceived;
}

} // namespace

SecondSeriesBuilder::SecondSeriesBuilder(std::vector<std::string> commandNames, std::vector<double> percentiles)
    : m_names(std::move(commandNames))
    , m_percentiles(std::move(percentiles))
    , m_pending(std::max<std::size_t>(1, m_names.size()))
{
}

void SecondSeriesBuilder::add(const IntervalStats& tick, double startSeconds, std::vector<SecondPoint>& series)
{
    if (m_percentiles.empty())
        return;   // not asked for
    const auto second = static_cast<std::size_t>(std::max(0.0, std::floor(startSeconds + 1e-9)));
    if (m_hasPending && second != m_second)
        finish(series);
    for (std::size_t i = 0; i < m_pending.size() && i < tick.commands.size(); ++i)
        m_pending[i].mergeFrom(tick.commands[i]);
    m_second = second;
    m_hasPending = true;
}

SecondSummary SecondSeriesBuilder::summarize(const LatencyHistogram& latency, SecondSummary counts) const
{
    SecondSummary& s = counts;
    if (latency.count() == 0)
        return s;
    s.minNs = latency.min();
    s.maxNs = latency.max();
    s.meanNs = latency.mean();
    for (double p : m_percentiles)
        s.percentileNs.push_back(latency.valueAtPercentile(p));
    return s;
}

void SecondSeriesBuilder::finish(std::vector<SecondPoint>& series)
{
    if (!m_hasPending)
        return;
    // Seconds without a tick (a stalled controller) stay as empty points.
    SecondPoint empty;
    empty.commands.resize(m_pending.size());
    if (series.size() < m_second)
        series.resize(m_second, empty);
    // The total and the shared names reuse one scratch histogram: no
    // allocation per second.
    SecondPoint point;
    SecondSummary total;
    m_scratch.reset();
    std::map<std::string, std::vector<std::size_t>> byName;
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        const CommandCounters& c = m_pending[i];
        point.commands.push_back(summarize(c.latency, countsOf(c)));
        addCounts(total, countsOf(c));
        m_scratch.add(c.latency);
        if (i < m_names.size())
            byName[m_names[i]].push_back(i);
    }
    point.total = summarize(m_scratch, total);
    for (const auto& [name, indices] : byName) {
        if (indices.size() < 2)
            continue;
        SecondSummary group;
        m_scratch.reset();
        for (std::size_t i : indices) {
            addCounts(group, countsOf(m_pending[i]));
            m_scratch.add(m_pending[i].latency);
        }
        point.byName[name] = summarize(m_scratch, group);
    }
    // Tick starts never go back, so the point lands at the end.
    if (series.size() == m_second)
        series.push_back(std::move(point));
    else
        series[m_second] = std::move(point);
    for (CommandCounters& c : m_pending)
        c.clear();
    m_hasPending = false;
}

} // namespace tacho::engine
