// memtier_benchmark's report layouts from synthetic results (issue #3): the
// ALL STATS table byte for byte, percentile labels as memtier computes them,
// the latency distribution, the JSON blocks (Totals average is the
// count-weighted mean, not memtier's 0.0), BEST/WORST/AGGREGATED, the open
// loop lines, and HdrHistogram's .hgrm and .hlog formats.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include "engine/report/memtier_report.h"

using namespace tacho::engine;

namespace {

CommandResult command(const char* name, std::uint64_t count, std::uint64_t latencyNs, std::uint64_t hits,
                      std::uint64_t bytesOut, std::uint64_t bytesIn)
{
    CommandResult c;
    c.name = name;
    c.requests = count;
    c.hits = hits;
    c.misses = count - hits;
    c.bytesSent = bytesOut;
    c.bytesReceived = bytesIn;
    c.latency.recordN(latencyNs, count);
    return c;
}

// SET 100 × 100 µs, GET 300 × 200 µs (30 hits), over 2 seconds.
TestResult setGetTest(double seconds = 2.0, double scale = 1.0)
{
    TestResult t;
    t.name = "RUN #1";
    t.seconds = seconds;
    t.commands.push_back(command("SET", std::uint64_t(100 * scale), 100'000, 100, 7000, 500));
    t.commands.push_back(command("GET", std::uint64_t(300 * scale), 200'000, 30, 9000, 3000));
    for (int s = 0; s < 2; ++s) {
        IntervalPoint p;
        p.startSeconds = s;
        p.endSeconds = s + 1;
        p.requests = 200;
        p.bytesSent = 8000;
        p.bytesReceived = 1750;
        p.mean = 175'000;
        p.p50 = p.p99 = p.p999 = p.max = 200'000;
        p.commands = { CommandInterval { 50, 0, 100'000, 100'000, 100'000, 100'000, 100'000 },
                       CommandInterval { 150, 0, 200'000, 200'000, 200'000, 200'000, 200'000 } };
        t.intervals.push_back(p);
        // The engine's per-second summaries: 50 SETs of 100 µs, 150 GETs of 200 µs.
        const auto summary = [](std::uint64_t n, std::uint64_t ns, std::uint64_t tx, std::uint64_t rx) {
            SecondSummary x;
            x.requests = n;
            x.bytesSent = tx;
            x.bytesReceived = rx;
            x.minNs = x.maxNs = ns;
            x.meanNs = double(ns);
            x.percentileNs = { ns, ns, ns };
            return x;
        };
        SecondPoint second;
        second.commands = { summary(50, 100'000, 3500, 250), summary(150, 200'000, 4500, 1500) };
        second.total = summary(200, 200'000, 8000, 1750);
        second.total.minNs = 100'000;
        second.total.meanNs = 175'000;
        t.perSecond.push_back(second);
    }
    t.perSecondPercentiles = { 50, 99, 99.9 };
    return t;
}

const std::vector<double> kDefault { 50, 99, 99.9 };
const std::vector<std::string> kSetGet { "SET", "GET" };

} // namespace

class TestMemtierReport : public QObject {
    Q_OBJECT

private slots:
    void percentileLabelsAsMemtier()
    {
        QCOMPARE(memtierPercentileLabel(50), std::string("p50 Latency"));
        QCOMPARE(memtierPercentileLabel(99.9), std::string("p99.9 Latency"));
        QCOMPARE(memtierPercentileLabel(99.99), std::string("p99.990 Latency"));   // memtier's float arithmetic
        QCOMPARE(memtierPercentileLabel(100), std::string("p100 Latency"));
        QCOMPARE(memtierPercentileLabel(5), std::string("p5 Latency"));
    }

    void allStatsTableLayout()
    {
        const MemtierRunStats stats = memtierStatsFromTest(setGetTest(), kSetGet, true, false, 1000.0);
        const std::string table = formatMemtierTable(stats, "ALL STATS", kDefault);
        // Copied from memtier_benchmark's output.
        const std::string expected =
            "\n\nALL STATS\n"
            "============================================================================================================================\n"
            "Type         Ops/sec     Hits/sec   Misses/sec    Avg. Latency     p50 Latency     p99 Latency   p99.9 Latency       KB/sec \n"
            "----------------------------------------------------------------------------------------------------------------------------\n"
            "Sets           50.00          ---          ---         0.10000         0.10000         0.10000         0.10000         3.66 \n"
            "Gets          150.00        15.00       135.00         0.20000         0.20000         0.20000         0.20000         5.86 \n"
            "Waits           0.00          ---          ---             ---             ---             ---             ---          --- \n"
            "Totals        200.00        15.00       135.00         0.17500         0.20000         0.20000         0.20000         9.52 \n";
        QCOMPARE(QString::fromStdString(table), QString::fromStdString(expected));
    }

    void commandRowsLayout()
    {
        TestResult t = setGetTest();
        t.commands[0].name = "HSET";
        t.commands[1].name = "ZRANGEBYSCORE";
        t.commands.push_back(command("HSET", 100, 300'000, 100, 100, 100));
        const MemtierRunStats grouped = memtierStatsFromTest(t, { "HSET", "ZRANGEBYSCORE", "HSET" }, false, false, 0);
        QCOMPARE(grouped.rows.size(), std::size_t(2));
        QCOMPARE(grouped.rows[0].count, std::uint64_t(200));
        const QString table = QString::fromStdString(formatMemtierTable(grouped, "ALL STATS", kDefault));
        const QStringList lines = table.split('\n');
        // Type column: the longest command name (13) + 1, no hit/miss columns.
        QCOMPARE(lines[4], QString("Type") + QString(16, ' ')
                     + "Ops/sec    Avg. Latency     p50 Latency     p99 Latency   p99.9 Latency       KB/sec ");
        QCOMPARE(lines[3], QString(15 + 13 + 16 * 4 + 13, '='));
        QVERIFY(lines[6].startsWith("Hsets          "));
        QVERIFY(lines[7].startsWith("Zrangebyscores "));
        QVERIFY(lines[8].startsWith("Totals         "));
        const MemtierRunStats byLine = memtierStatsFromTest(t, { "HSET", "ZRANGEBYSCORE", "HSET" }, false, true, 0);
        QCOMPARE(byLine.rows.size(), std::size_t(3));
    }

    void latencyDistribution()
    {
        const MemtierRunStats stats = memtierStatsFromTest(setGetTest(), kSetGet, true, false, 0);
        const QStringList lines = QString::fromStdString(formatMemtierHistogram(stats)).split('\n');
        QCOMPARE(lines[2], QString("Request Latency Distribution"));
        QCOMPARE(lines[3], QString("Type     <= msec         Percent"));
        QCOMPARE(lines[4], QString(72, '-'));
        QCOMPARE(lines[5], QString("SET       0.100        0.000"));
        QVERIFY(lines.contains("SET       0.100      100.000"));
        QVERIFY(lines.contains("GET       0.200      100.000"));
        QVERIFY(lines.contains("WAIT      0.000      100.000"));
        QCOMPARE(lines.count("---"), 2);   // after SET and GET, not after WAIT
    }

    void percentileStepsFollowHdrHistogram()
    {
        LatencyHistogram h;
        for (std::uint64_t us = 1; us <= 1000; ++us)
            h.record(us * 1000);
        const auto steps = percentileSteps(h, 10);
        QCOMPARE(steps.front().percentile, 0.0);
        QCOMPARE(steps.back().percentile, 100.0);
        QCOMPARE(steps.back().cumulativeCount, std::uint64_t(1000));
        double previous = -1;
        for (const PercentileStep& s : steps) {
            QVERIFY(s.percentile > previous || s.percentile == 100.0);
            previous = s.percentile;
        }
        // 10 ticks between 0 and 50 %: 5 % apart; then 2.5 % apart up to 75 %.
        QCOMPARE(steps[1].percentile, 5.0);
        QCOMPARE(steps[10].percentile, 50.0);
        QCOMPARE(steps[11].percentile, 52.5);
        QVERIFY(std::llabs(std::int64_t(steps[10].valueNs) - 500'000) < 2'000);
    }

    void jsonTotalsAreTheWeightedMean()
    {
        const MemtierRunStats stats = memtierStatsFromTest(setGetTest(), kSetGet, true, false, 1000.0);
        JsonWriter w;
        w.beginObject();
        w.key("ALL STATS").beginObject();
        writeMemtierStatsJson(w, stats, kDefault, true);
        w.endObject();
        w.endObject();
        QJsonParseError error;
        const QJsonObject all = QJsonDocument::fromJson(QByteArray::fromStdString(w.str()), &error).object()["ALL STATS"].toObject();
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject totals = all["Totals"].toObject();
        QCOMPARE(totals["Count"].toInt(), 400);
        QCOMPARE(totals["Average Latency"].toDouble(), 0.175);   // memtier: 0.0
        QCOMPARE(totals["Latency"].toDouble(), 0.175);
        QCOMPARE(totals["Ops/sec"].toDouble(), 200.0);
        QCOMPARE(totals["Hits/sec"].toDouble(), 15.0);
        QCOMPARE(totals["Accumulated Latency"].toInt(), 70);   // ms
        QCOMPARE(totals["Percentile Latencies"].toObject()["p99.90"].toDouble(), 0.2);
        QVERIFY(totals["Percentile Latencies"].toObject()["Histogram log format"].toObject()["Compressed Histogram"]
                    .toString().startsWith("HISTFAAA"));
        const QJsonObject second = totals["Time-Serie"].toObject()["1"].toObject();
        QCOMPARE(second["Count"].toInt(), 200);
        QCOMPARE(second["Bytes TX"].toInt(), 8000);
        QCOMPARE(second["p50.00"].toDouble(), 0.2);
        QCOMPARE(all["Sets"].toObject()["Average Latency"].toDouble(), 0.1);
        QCOMPARE(all["Gets"].toObject()["Misses/sec"].toDouble(), 135.0);
        QCOMPARE(all["Runtime"].toObject()["Total duration"].toInt(), 2000);
        QCOMPARE(all["Runtime"].toObject()["Finish time"].toInteger(), 1000000);
        QVERIFY(all["SET"].isArray());
        QCOMPARE(all["SET"].toArray().last().toObject()["percent"].toDouble(), 100.0);
    }

    void bestWorstAggregate()
    {
        std::vector<MemtierRunStats> runs;
        runs.push_back(memtierStatsFromTest(setGetTest(2.0), kSetGet, true, false, 10.0));   // 200 ops/sec
        runs.push_back(memtierStatsFromTest(setGetTest(1.0), kSetGet, true, false, 20.0));   // 400 ops/sec
        runs.push_back(memtierStatsFromTest(setGetTest(4.0), kSetGet, true, false, 30.0));   // 100 ops/sec
        QCOMPARE(memtierBestRun(runs), std::size_t(1));
        QCOMPARE(memtierWorstRun(runs), std::size_t(2));
        const MemtierRunStats aggregate = memtierAggregate({ &runs[0], &runs[1], &runs[2] });
        QCOMPARE(aggregate.totals.count, std::uint64_t(1200));
        QVERIFY(std::abs(aggregate.totals.opsPerSec - 700.0 / 3) < 1e-9);
        QCOMPARE(aggregate.totals.latency.count(), std::uint64_t(1200));
        QCOMPARE(aggregate.runs, std::uint64_t(3));
        QVERIFY(std::abs(aggregate.seconds - 7.0 / 3) < 1e-9);
    }

    void openLoopLines()
    {
        TestResult t = setGetTest();
        QCOMPARE(formatMemtierOpenLoop(memtierStatsFromTest(t, kSetGet, true, false, 0), kDefault), std::string());
        t.targetRate = 250;
        t.maxSendLagNs = 1'000'000'000;
        t.commands[0].uncorrectedLatency.recordN(50'000, 100);
        t.commands[1].uncorrectedLatency.recordN(70'000, 300);
        const QString text
            = QString::fromStdString(formatMemtierOpenLoop(memtierStatsFromTest(t, kSetGet, true, false, 0), kDefault));
        QVERIFY2(text.contains("target 250.00 ops/sec, achieved 200.00 ops/sec (80.00% of target)"), qPrintable(text));
        QVERIFY(text.contains("1000.000 msec behind"));
        QVERIFY(text.contains(QRegularExpression(R"(corrected\s+Totals\s+0\.175\s+0\.200)")));
        QVERIFY(text.contains(QRegularExpression(R"(uncorrected\s+Totals\s+0\.065\s+0\.070)")));
    }

    void hdrFiles()
    {
        LatencyHistogram h;
        h.recordN(1'000'000, 99);
        h.record(5'000'000);
        const QStringList hgrm = QString::fromStdString(hdrPercentileDistribution(h)).split('\n');
        QCOMPARE(hgrm[0], QString("       Value     Percentile TotalCount 1/(1-Percentile)"));
        QCOMPARE(hgrm[1], QString());
        QVERIFY(hgrm[2].startsWith("       1.000 0.000000000000         99           1.00"));
        QVERIFY(hgrm.contains("       5.000 1.000000000000        100"));
        QVERIFY(hgrm.contains("#[Max     =        5.000, Total count    =          100]"));
        QVERIFY(hgrm.contains("#[Buckets =           16, SubBuckets     =         2048]"));
        const QStringList log = QString::fromStdString(hdrIntervalLog(h, "Full Run", 1700000000.25, 3.5)).split('\n');
        QVERIFY(log.contains("#[Histogram log format version 1.3]"));
        QVERIFY(log.contains("#[BaseTime: 1700000000.250 (seconds since epoch)]"));
        QVERIFY(log.contains("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\""));
        QVERIFY(log.filter(QRegularExpression("^0\\.000,3\\.500,5\\.000,HISTFAAA")).size() == 1);
        LatencyHistogram decoded;
        const QString encoded = log.filter(QRegularExpression("^0\\.000")).first().section(',', 3);
        QVERIFY(LatencyHistogram::fromCompressedBase64(encoded.toStdString(), decoded));
        QCOMPARE(decoded.count(), std::uint64_t(100));
    }
};

QTEST_APPLESS_MAIN(TestMemtierReport)
#include "test_memtier_report.moc"
