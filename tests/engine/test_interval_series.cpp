// The interval series of a test: tick points for the first minute, then one
// point a second whose percentiles come from the merged histograms of its
// ticks; nothing is lost in the coarsening.

#include <QtTest>

#include "engine/run/interval_series.h"

using namespace tacho::engine;

namespace {

constexpr double kTick = 0.1;

// A tick with `requests` GETs whose latencies are k µs (k = 1..requests)
// plus `offsetUs`, and one reconnect every 50th tick.
IntervalStats makeTick(std::uint64_t requests, std::uint64_t offsetUs, bool reconnect)
{
    IntervalStats stats(2);
    CommandCounters& get = stats.commands[1];
    for (std::uint64_t k = 1; k <= requests; ++k)
        get.latency.record((k + offsetUs) * 1000);
    get.requests = requests;
    get.hits = requests / 2;
    stats.reconnects = reconnect ? 1 : 0;
    return stats;
}

} // namespace

class TestIntervalSeries : public QObject {
    Q_OBJECT
private slots:
    void fineForAMinuteThenOneASecond()
    {
        IntervalSeriesBuilder builder(2);
        std::vector<IntervalPoint> series;
        LatencyHistogram secondSeventy;   // the ticks of [70, 71) merged by hand
        std::uint64_t requests = 0;
        std::uint64_t reconnects = 0;
        double start = 0;
        const int ticks = 905;            // 90.5 s: ends inside a coarse point
        for (int k = 1; k <= ticks; ++k) {
            const double end = k * kTick;
            const IntervalStats tick = makeTick(100 + k % 7, static_cast<std::uint64_t>(k % 13), k % 50 == 0);
            requests += tick.requests();
            reconnects += tick.reconnects;
            if (start >= 70 - 1e-9 && end <= 71 + 1e-9)
                secondSeventy.add(tick.commands[1].latency);
            builder.add(tick, toIntervalPoint(tick, start, end), series);
            start = end;
        }
        builder.finish(series);

        // 600 tick points up to 60 s, then 30 whole seconds and the last half second.
        QCOMPARE(series.size(), std::size_t(600 + 30 + 1));
        QCOMPARE(series[599].endSeconds, 60.0);
        QVERIFY(std::fabs(series[600].endSeconds - series[600].startSeconds - 1.0) < 1e-6);
        QVERIFY(std::fabs(series.back().endSeconds - 90.5) < 1e-6);
        std::uint64_t seenRequests = 0, seenReconnects = 0;
        double previousEnd = 0;
        for (const IntervalPoint& p : series) {
            QVERIFY(std::fabs(p.startSeconds - previousEnd) < 1e-6);   // contiguous, no gaps
            previousEnd = p.endSeconds;
            seenRequests += p.requests;
            seenReconnects += p.reconnects;
            QCOMPARE(p.commands.size(), std::size_t(2));
            QCOMPARE(p.commands[1].requests, p.requests);
        }
        QCOMPARE(seenRequests, requests);
        QCOMPARE(seenReconnects, reconnects);

        // The coarse point of [70, 71) has the percentiles of its merged ticks.
        const auto at70 = std::find_if(series.begin(), series.end(),
                                       [](const IntervalPoint& p) { return std::fabs(p.startSeconds - 70) < 1e-6; });
        QVERIFY(at70 != series.end());
        QCOMPARE(at70->requests, secondSeventy.count());
        QCOMPARE(at70->p99, secondSeventy.valueAtPercentile(99));
        QCOMPARE(at70->commands[1].p999, secondSeventy.valueAtPercentile(99.9));
        QCOMPARE(at70->max, secondSeventy.max());
    }

    // Real ticks wake a little late; coarse points still start in distinct
    // whole seconds, so a per-second report gets one point per second.
    void jitteredTicksGiveOnePointPerSecond()
    {
        IntervalSeriesBuilder builder(2);
        std::vector<IntervalPoint> series;
        double start = 0;
        for (int k = 0; k < 1000; ++k) {
            const double end = start + kTick + 0.0007 * (k % 5);
            const IntervalStats tick = makeTick(10, 0, false);
            builder.add(tick, toIntervalPoint(tick, start, end), series);
            start = end;
        }
        builder.finish(series);
        std::vector<long> seconds;
        for (const IntervalPoint& p : series)
            if (p.startSeconds > 61)
                seconds.push_back(static_cast<long>(std::floor(p.startSeconds)));
        QVERIFY(seconds.size() > 30);
        for (std::size_t k = 1; k < seconds.size(); ++k)
            QCOMPARE(seconds[k], seconds[k - 1] + 1);
    }

    void shortTestKeepsEveryTick()
    {
        IntervalSeriesBuilder builder(2);
        std::vector<IntervalPoint> series;
        for (int k = 0; k < 30; ++k) {
            const IntervalStats tick = makeTick(10, 0, false);
            builder.add(tick, toIntervalPoint(tick, k * kTick, (k + 1) * kTick), series);
        }
        builder.finish(series);
        QCOMPARE(series.size(), std::size_t(30));
    }
};

QTEST_GUILESS_MAIN(TestIntervalSeries)
#include "test_interval_series.moc"
