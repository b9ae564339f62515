// LatencyHistogram: HDR layout, exact summary values, merge, clamping and the
// HdrHistogram V2 compressed base64 form.
#include <QtTest>

#include <cmath>
#include <random>
#include <vector>

#include "engine/stats/latency_histogram.h"

using tacho::engine::LatencyHistogram;

namespace {

double relativeError(double got, double want)
{
    return std::abs(got - want) / want;
}

// The slot a single recorded value lands in: (highest equivalent, count).
std::vector<std::pair<std::uint64_t, std::uint64_t>> buckets(const LatencyHistogram& h)
{
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
    h.forEachBucket([&](std::uint64_t value, std::uint64_t count) { out.emplace_back(value, count); });
    return out;
}

} // namespace

class TestLatencyHistogram : public QObject {
    Q_OBJECT
private slots:
    void emptyHistogram()
    {
        LatencyHistogram h;
        QCOMPARE(h.count(), 0u);
        QCOMPARE(h.clampedCount(), 0u);
        QCOMPARE(h.min(), 0u);
        QCOMPARE(h.max(), 0u);
        QCOMPARE(h.mean(), 0.0);
        QCOMPARE(h.valueAtPercentile(0), 0u);
        QCOMPARE(h.valueAtPercentile(50), 0u);
        QCOMPARE(h.valueAtPercentile(100), 0u);
        QCOMPARE(h.fractionAtOrBelow(1'000'000), 0.0);
        QVERIFY(buckets(h).empty());
        QCOMPARE(h.bucketSlots(), std::size_t(18432));
    }

    void uniformDistributionPercentiles()
    {
        // 1..N µs, each once: the exact p-th percentile is ceil(p/100*N) µs.
        constexpr std::uint64_t n = 100'000;
        LatencyHistogram h;
        for (std::uint64_t us = 1; us <= n; ++us)
            QVERIFY(h.record(us * 1000));
        QCOMPARE(h.count(), n);
        for (double p : {1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99}) {
            const double want = std::ceil(p / 100.0 * n) * 1000.0;
            const double got = double(h.valueAtPercentile(p));
            QVERIFY2(relativeError(got, want) <= 0.001,
                     qPrintable(QStringLiteral("p%1: got %2 want %3").arg(p).arg(got).arg(want)));
            QVERIFY(got >= want);   // highest-equivalent: never below the true value
        }
        QCOMPARE(h.valueAtPercentile(0), 1000u);
        QCOMPARE(h.valueAtPercentile(100), n * 1000);
        QVERIFY(std::abs(h.fractionAtOrBelow(n * 1000 / 2) - 0.5) < 0.001);
        QCOMPARE(h.fractionAtOrBelow(n * 1000), 1.0);
        QCOMPARE(h.fractionAtOrBelow(999), 0.0);
    }

    void percentileTargetCount()
    {
        // 99.9% of 1000 values is the 999th, not the 1000th: the floating-point
        // product must not round the target count up.
        LatencyHistogram h;
        for (std::uint64_t us = 1; us <= 1000; ++us)
            h.record(us * 1000);
        QCOMPARE(h.valueAtPercentile(99.9), 999'423u);   // highest equivalent of 999 µs' slot
        QCOMPARE(h.valueAtPercentile(50), 500'223u);
    }

    void exactMinMaxMean()
    {
        LatencyHistogram h;
        const std::vector<std::uint64_t> values { 1'234, 56'789, 987'654'321, 4'000'001 };
        std::uint64_t sum = 0;
        for (auto v : values) {
            h.record(v);
            sum += v;
        }
        QCOMPARE(h.min(), 1'234u);
        QCOMPARE(h.max(), 987'654'321u);
        QCOMPARE(h.mean(), double(sum) / values.size());
        // Capped at the exact max even though the slot reaches higher.
        QCOMPARE(h.valueAtPercentile(99), 987'654'321u);
        QCOMPARE(h.valueAtPercentile(0), 1'234u);
    }

    void recordN()
    {
        LatencyHistogram h;
        QVERIFY(h.recordN(5'000, 10));
        QVERIFY(h.recordN(7'000, 0));
        QCOMPARE(h.count(), 10u);
        QCOMPARE(h.mean(), 5'000.0);
        QCOMPARE(h.max(), 5'000u);
    }

    void subMicrosecondValues()
    {
        LatencyHistogram h;
        QVERIFY(h.record(0));
        QVERIFY(h.record(500));
        QCOMPARE(h.min(), 0u);
        QCOMPARE(h.max(), 500u);
        QCOMPARE(h.count(), 2u);
    }

    void mergeEqualsRecordingEverything()
    {
        std::mt19937_64 rng(42);
        std::lognormal_distribution<double> dist(13.0, 1.5);   // around 0.4 ms, long tail
        LatencyHistogram a, b, all;
        for (int i = 0; i < 50'000; ++i) {
            const auto v = std::uint64_t(dist(rng));
            (i % 3 ? a : b).record(v);
            all.record(v);
        }
        a.add(b);
        QCOMPARE(a.count(), all.count());
        QCOMPARE(a.min(), all.min());
        QCOMPARE(a.max(), all.max());
        QCOMPARE(a.mean(), all.mean());
        QCOMPARE(a.clampedCount(), all.clampedCount());
        for (std::size_t i = 0; i < a.bucketSlots(); ++i)
            QCOMPARE(a.countAtSlot(i), all.countAtSlot(i));
        for (double p : { 0.0, 50.0, 90.0, 99.0, 99.9, 100.0 })
            QCOMPARE(a.valueAtPercentile(p), all.valueAtPercentile(p));
        // b is unchanged by being merged.
        QVERIFY(b.count() > 0 && b.count() < all.count());

        LatencyHistogram empty;
        a.add(empty);
        QCOMPARE(a.count(), all.count());
        empty.add(all);
        QCOMPARE(empty.min(), all.min());
    }


    // Workers reset and merge their tick histograms over the band between
    // min and max only: a reset must leave no count outside the new band,
    // and merges of disjoint bands must equal recording everything.
    void resetAndMergeOverChangingBands()
    {
        LatencyHistogram tick, total, reference;
        const std::vector<std::vector<std::uint64_t>> ticks = {
            { 50'000, 51'000, 2'000'000 },          // a wide band
            { 700, 1'500 },                          // below it, sub-µs included
            { 30'000'000'000, 90'000'000'000 },     // far above, one clamped
            { 120'000 },                             // a single value inside the first band
        };
        for (const auto& values : ticks) {
            tick.reset();
            QCOMPARE(tick.count(), 0u);
            for (std::size_t i = 0; i < tick.bucketSlots(); ++i)
                QCOMPARE(tick.countAtSlot(i), 0u);   // nothing left from the last band
            for (std::uint64_t v : values) {
                tick.record(v);
                reference.record(v);
            }
            total.add(tick);
        }
        QCOMPARE(total.count(), reference.count());
        QCOMPARE(total.clampedCount(), 1u);
        QCOMPARE(total.min(), reference.min());
        QCOMPARE(total.max(), reference.max());
        for (std::size_t i = 0; i < total.bucketSlots(); ++i)
            QCOMPARE(total.countAtSlot(i), reference.countAtSlot(i));
    }
    void precisionBoundAtManyMagnitudes()
    {
        // Every value from 1 µs to 60 s is reported within 0.1% of itself, or
        // within the 512 ns unit of the first bucket (which is what limits
        // values below 512 µs: still finer than the 1 µs that reports print).
        std::vector<std::uint64_t> values;
        for (double v = 1000; v <= 60e9; v *= 1.37)
            values.push_back(std::uint64_t(v));
        for (std::uint64_t p = 1'000; p <= 10'000'000'000ull; p *= 10)
            for (std::uint64_t k : { p, p + 1, 2 * p - 1, 3 * p + 7 })
                values.push_back(k);
        values.push_back(1'048'575);   // last value of bucket 0
        values.push_back(1'048'576);   // first of bucket 1
        values.push_back(LatencyHistogram::kHighestNs);
        for (std::uint64_t v : values) {
            LatencyHistogram h;
            QVERIFY(h.record(v));
            const auto b = buckets(h);
            QCOMPARE(b.size(), std::size_t(1));
            const std::uint64_t highest = b.front().first;
            QVERIFY2(highest >= v, qPrintable(QString::number(v)));
            QVERIFY2(highest - v < 512 || double(highest - v) <= 0.001 * double(v),
                     qPrintable(QStringLiteral("%1 -> %2").arg(v).arg(highest)));
            if (v >= 512'000)
                QVERIFY2(double(highest - v) <= 0.001 * double(v),
                         qPrintable(QStringLiteral("%1 -> %2").arg(v).arg(highest)));
        }
    }

    void bucketsAscend()
    {
        LatencyHistogram h;
        for (std::uint64_t v : { 3'000'000u, 1'000u, 2'000'000'000u, 45'000u })
            h.record(v);
        const auto b = buckets(h);
        QCOMPARE(b.size(), std::size_t(4));
        for (std::size_t i = 1; i < b.size(); ++i)
            QVERIFY(b[i - 1].first < b[i].first);
    }

    void clamping()
    {
        LatencyHistogram h;
        QVERIFY(h.record(LatencyHistogram::kHighestNs));
        QVERIFY(!h.record(LatencyHistogram::kHighestNs + 1));
        QVERIFY(!h.recordN(100'000'000'000ull, 3));
        QCOMPARE(h.count(), 5u);
        QCOMPARE(h.clampedCount(), 4u);
        QCOMPARE(h.max(), LatencyHistogram::kHighestNs);
        QCOMPARE(h.valueAtPercentile(100), LatencyHistogram::kHighestNs);

        LatencyHistogram other;
        other.add(h);
        QCOMPARE(other.clampedCount(), 4u);
        h.reset();
        QCOMPARE(h.count(), 0u);
        QCOMPARE(h.clampedCount(), 0u);
        QCOMPARE(h.max(), 0u);
    }

    void moveAndClone()
    {
        LatencyHistogram a;
        a.record(10'000);
        a.record(20'000);
        LatencyHistogram b(std::move(a));
        QCOMPARE(b.count(), 2u);
        QCOMPARE(a.count(), 0u);   // moved-from: empty but usable
        QCOMPARE(a.valueAtPercentile(50), 0u);
        QVERIFY(a.record(5'000));
        QCOMPARE(a.count(), 1u);

        LatencyHistogram c;
        c.record(1'000'000);
        c = std::move(b);
        QCOMPARE(c.count(), 2u);
        QCOMPARE(c.max(), 20'000u);

        LatencyHistogram d = c.clone();
        d.record(30'000);
        QCOMPARE(c.count(), 2u);
        QCOMPARE(d.count(), 3u);
        QCOMPARE(d.min(), 10'000u);

        static_assert(!std::is_copy_constructible_v<LatencyHistogram>);
        static_assert(std::is_nothrow_move_constructible_v<LatencyHistogram>);
    }

    void base64StartsWithHistfaaa()
    {
        LatencyHistogram h;
        h.record(250'000);
        const std::string text = h.toCompressedBase64();
        QVERIFY2(text.rfind("HISTFAAA", 0) == 0, text.c_str());
        QVERIFY(LatencyHistogram().toCompressedBase64().rfind("HISTFAAA", 0) == 0);
    }

    void base64RoundTrip()
    {
        std::mt19937_64 rng(7);
        std::lognormal_distribution<double> dist(12.5, 2.0);
        LatencyHistogram h;
        for (int i = 0; i < 20'000; ++i)
            h.record(std::uint64_t(dist(rng)));
        h.record(LatencyHistogram::kHighestNs + 5);   // clamped: still counted
        const std::string text = h.toCompressedBase64();

        LatencyHistogram back;
        std::string error;
        QVERIFY2(LatencyHistogram::fromCompressedBase64(text, back, &error), error.c_str());
        QCOMPARE(back.count(), h.count());
        for (double p : { 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99 }) {
            const double want = double(h.valueAtPercentile(p));
            const double got = double(back.valueAtPercentile(p));
            // Moves by at most one µs slot plus one ns slot: 2 × 0.1%, or
            // about 1 µs where slots are a fixed 1 µs / 512 ns wide.
            QVERIFY2(relativeError(got, want) <= 0.002 || std::abs(got - want) <= 1'024,
                     qPrintable(QStringLiteral("p%1: got %2 want %3").arg(p).arg(got).arg(want)));
        }
    }

    void base64PreservesMicrosecondBuckets()
    {
        // Below 1 ms our ns slots nest inside the 1 µs export slots: every µs
        // count survives exactly, so re-encoding reproduces the same text.
        LatencyHistogram h;
        for (std::uint64_t us = 1; us <= 1000; ++us)
            h.recordN(us * 1000 + 250, us % 7 + 1);
        const std::string text = h.toCompressedBase64();
        LatencyHistogram back;
        QVERIFY(LatencyHistogram::fromCompressedBase64(text, back));
        QCOMPARE(back.count(), h.count());
        QCOMPARE(back.toCompressedBase64(), text);
        QCOMPARE(back.min(), 1'500u);   // recorded at the µs slot's midpoint
        for (double p : { 10.0, 50.0, 99.0 })
            QVERIFY(std::abs(double(back.valueAtPercentile(p)) - double(h.valueAtPercentile(p))) <= 1'024);

        // Above, the count and the value's neighbourhood survive.
        LatencyHistogram big;
        big.recordN(5'000'000, 3);       // 5 ms
        big.recordN(250'000'000, 2);     // 250 ms
        QVERIFY(LatencyHistogram::fromCompressedBase64(big.toCompressedBase64(), back));
        QCOMPARE(back.count(), 5u);
        QVERIFY(relativeError(double(back.min()), 5e6) <= 0.002);
        QVERIFY(relativeError(double(back.max()), 250e6) <= 0.002);

        LatencyHistogram emptyBack;
        emptyBack.record(1);
        QVERIFY(LatencyHistogram::fromCompressedBase64(LatencyHistogram().toCompressedBase64(), emptyBack));
        QCOMPARE(emptyBack.count(), 0u);
    }

    void base64RejectsGarbage()
    {
        LatencyHistogram out;
        out.record(1'000);
        std::string error;
        QVERIFY(!LatencyHistogram::fromCompressedBase64("not base64!", out, &error));
        QVERIFY(!error.empty());
        QVERIFY(!LatencyHistogram::fromCompressedBase64("HISTFAAAAAAA", out, &error));
        QVERIFY(!LatencyHistogram::fromCompressedBase64("", out, &error));
        // A valid envelope with the payload cut short.
        LatencyHistogram h;
        h.record(123'000);
        std::string text = h.toCompressedBase64();
        text.resize(text.size() - 8);
        QVERIFY(!LatencyHistogram::fromCompressedBase64(text, out, &error));
        QCOMPARE(out.count(), 1u);   // untouched on failure
    }
};

QTEST_GUILESS_MAIN(TestLatencyHistogram)
#include "test_latency_histogram.moc"
