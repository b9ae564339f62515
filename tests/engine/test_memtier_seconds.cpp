// Issue 17: memtier's output files as their readers read them. The engine's
// per-second summaries (exact percentiles from histograms merged at the
// tick), the JSON "Time-Serie" entries built from them, memtier's fixed
// decimals, and HdrHistogram_c's percentile text (memtier's .txt).
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include "engine/report/json_writer.h"
#include "engine/report/memtier_report.h"
#include "engine/run/interval_series.h"

using namespace tacho::engine;

namespace {

// A tick whose command `index` replied `values` (ns), with some bytes.
IntervalStats tick(std::size_t commands, std::size_t index, const std::vector<std::uint64_t>& values)
{
    IntervalStats t(commands);
    for (std::uint64_t v : values) {
        t.commands[index].latency.record(v);
        ++t.commands[index].requests;
        t.commands[index].bytesSent += 10;
        t.commands[index].bytesReceived += 3;
    }
    return t;
}

QJsonObject parse(const std::string& text)
{
    QJsonParseError error;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error).object();
    if (error.error != QJsonParseError::NoError)
        qWarning("%s", qPrintable(error.errorString()));
    return o;
}

} // namespace

class TestMemtierSeconds : public QObject {
    Q_OBJECT

private slots:
    // Ten ticks of one second, each with its own latencies: the second's
    // percentiles are those of all its replies together, not of any tick.
    void secondsAreExactFromMergedTicks()
    {
        const std::vector<double> percentiles { 0, 50, 90, 99, 100 };
        SecondSeriesBuilder builder({ "SET", "GET" }, percentiles);
        std::vector<SecondPoint> series;
        LatencyHistogram first, firstSet, second;   // references: every reply of second 0, its SETs
        for (int t = 0; t < 10; ++t) {
            std::vector<std::uint64_t> values;
            for (int i = 0; i < 20; ++i)
                values.push_back(std::uint64_t(50'000 + t * 97'000 + i * 1'300));   // each tick its own band
            for (std::uint64_t v : values) {
                first.record(v);
                if (t % 2 == 0)
                    firstSet.record(v);
            }
            builder.add(tick(2, t % 2, values), t * 0.1, series);
        }
        QVERIFY(series.empty());   // the second is summarized when a later one starts
        // Second 1 has no tick; second 2 has one.
        builder.add(tick(2, 1, { 7'000'000, 9'000'000 }), 2.05, series);
        for (std::uint64_t v : { 7'000'000, 9'000'000 })
            second.record(v);
        builder.finish(series);

        QCOMPARE(series.size(), std::size_t(3));
        const SecondSummary& total = series[0].total;
        QCOMPARE(total.requests, std::uint64_t(200));
        QCOMPARE(total.bytesSent, std::uint64_t(2000));
        QCOMPARE(total.bytesReceived, std::uint64_t(600));
        QCOMPARE(total.minNs, first.min());
        QCOMPARE(total.maxNs, first.max());
        QCOMPARE(total.percentileNs.size(), percentiles.size());
        for (std::size_t i = 0; i < percentiles.size(); ++i)
            QCOMPARE(total.percentileNs[i], first.valueAtPercentile(percentiles[i]));
        // The SET line alone (even ticks).
        QCOMPARE(series[0].commands[0].requests, std::uint64_t(100));
        for (std::size_t i = 0; i < percentiles.size(); ++i)
            QCOMPARE(series[0].commands[0].percentileNs[i], firstSet.valueAtPercentile(percentiles[i]));
        // The empty second stays, with zero counts and one entry per command.
        QCOMPARE(series[1].total.requests, std::uint64_t(0));
        QCOMPARE(series[1].commands.size(), std::size_t(2));
        QCOMPARE(series[2].total.requests, std::uint64_t(2));
        QCOMPARE(series[2].total.percentileNs[1], second.valueAtPercentile(50));
        QCOMPARE(series[2].commands[1].maxNs, second.max());
    }

    // Runs that do not ask (every dialect but memtier's) keep no seconds.
    void noPercentilesKeepsNothing()
    {
        SecondSeriesBuilder builder({ "SET" }, {});
        std::vector<SecondPoint> series;
        builder.add(tick(1, 0, { 100'000 }), 0.0, series);
        builder.add(tick(1, 0, { 100'000 }), 1.0, series);
        builder.finish(series);
        QVERIFY(series.empty());
    }

    // Lines that share a name (memtier groups them into one row) get the
    // exact percentiles of their merged histograms.
    void linesSharingANameAreMergedExactly()
    {
        SecondSeriesBuilder builder({ "SET", "GET", "SET" }, { 50, 100 });
        std::vector<SecondPoint> series;
        IntervalStats t(3);
        LatencyHistogram sets;
        for (std::uint64_t v : { 10'000, 20'000, 30'000 }) {
            t.commands[0].latency.record(v);
            ++t.commands[0].requests;
            sets.record(v);
        }
        for (std::uint64_t v : { 900'000, 950'000 }) {
            t.commands[2].latency.record(v);
            ++t.commands[2].requests;
            sets.record(v);
        }
        builder.add(t, 0.3, series);
        builder.finish(series);
        QCOMPARE(series.size(), std::size_t(1));
        QVERIFY(series[0].byName.count("SET") == 1);
        QVERIFY(series[0].byName.count("GET") == 0);   // one line: its own entry is exact already
        const SecondSummary& set = series[0].byName.at("SET");
        QCOMPARE(set.requests, std::uint64_t(5));
        QCOMPARE(set.percentileNs[0], sets.valueAtPercentile(50));
        QCOMPARE(set.maxNs, sets.max());
    }

    // Every key memtier's run_stats writes per second, the percentiles as
    // --print-percentiles asks (sorted, "p%.2f" cut to six characters), and
    // memtier's fixed decimals, zeros included.
    void timeSerieCarriesMemtiersKeys()
    {
        const std::vector<double> printed { 99.9, 50, 90 };   // memtier's JSON sorts them
        TestResult test;
        test.seconds = 2;
        test.perSecondPercentiles = printed;
        SecondSeriesBuilder builder({ "SET", "GET" }, printed);
        builder.add(tick(2, 0, { 100'000, 200'000, 300'000 }), 0.0, test.perSecond);
        builder.add(tick(2, 1, { 400'000 }), 1.0, test.perSecond);
        builder.finish(test.perSecond);
        for (std::size_t i = 0; i < 2; ++i) {
            CommandResult c;
            c.name = i ? "GET" : "SET";
            for (const SecondPoint& p : test.perSecond)
                c.requests += p.commands[i].requests;
            c.latency.recordN(100'000, c.requests);
            test.commands.push_back(std::move(c));
        }
        const MemtierRunStats stats = memtierStatsFromTest(test, { "SET", "GET" }, true, false, 100.0);
        JsonWriter w(1);
        w.beginObject();
        w.key("ALL STATS").beginObject();
        writeMemtierStatsJson(w, stats, printed, false);
        w.endObject();
        w.endObject();
        const QString text = QString::fromStdString(w.str());
        const QJsonObject all = parse(w.str())["ALL STATS"].toObject();

        const QJsonObject sets0 = all["Sets"].toObject()["Time-Serie"].toObject()["0"].toObject();
        const QStringList keys { "Bytes RX", "Bytes TX", "Count", "Average Latency", "Accumulated Latency",
                                 "Min Latency", "Max Latency", "p50.00", "p90.00", "p99.90" };
        for (const QString& key : keys)
            QVERIFY2(sets0.contains(key), qPrintable(key));
        QCOMPARE(sets0["Count"].toInt(), 3);
        QCOMPARE(sets0["Bytes TX"].toInt(), 30);
        QCOMPARE(sets0["Bytes RX"].toInt(), 9);
        QCOMPARE(sets0["Min Latency"].toDouble(), 0.1);
        QCOMPARE(sets0["Max Latency"].toDouble(), 0.3);
        QCOMPARE(sets0["Average Latency"].toDouble(), 0.2);
        // Sets in second 1: nothing, so no latency keys, bytes still there.
        const QJsonObject sets1 = all["Sets"].toObject()["Time-Serie"].toObject()["1"].toObject();
        QCOMPARE(sets1.keys(), QStringList({ "Bytes RX", "Bytes TX", "Count" }));
        const QJsonObject totals1 = all["Totals"].toObject()["Time-Serie"].toObject()["1"].toObject();
        QCOMPARE(totals1["Count"].toInt(), 1);
        QVERIFY(std::abs(totals1["p99.90"].toDouble() - 0.4) < 0.001);
        // The percentile keys come sorted, as memtier's.
        const qsizetype p50 = text.indexOf("\"p50.00\"");
        const qsizetype p90 = text.indexOf("\"p90.00\"");
        const qsizetype p999 = text.indexOf("\"p99.90\"");
        QVERIFY(p50 > 0 && p50 < p90 && p90 < p999);
        // Fixed decimals: the empty Waits row reads 0.00 and 0.000, as memtier's.
        QVERIFY2(text.contains(QRegularExpression(R"("Waits":\s*\{[^}]*"Ops/sec":\s*0\.00,)")), qPrintable(text));
        QVERIFY(text.contains(QRegularExpression(R"("Waits":\s*\{[^}]*"Average Latency":\s*0\.000,)")));
        QVERIFY(text.contains(QRegularExpression(R"("Min Latency":\s*0\.100,)")));
        QVERIFY(!text.contains(QRegularExpression(R"(":\s*0,\s*"(Hits|Misses)/sec)")));
    }

    // memtier's .txt is HdrHistogram_c's hdr_percentiles_print: "%12s" heads,
    // "%12.3f %12f %12d %12.2f" lines, inf on the 100 % line, the footer.
    void cPercentileText()
    {
        LatencyHistogram h;
        h.recordN(1'000'000, 99);
        h.record(5'000'000);
        const QStringList lines = QString::fromStdString(hdrPercentileDistribution(h, HdrTextStyle::C)).split('\n');
        QCOMPARE(lines[0], QString("       Value   Percentile   TotalCount 1/(1-Percentile)"));
        QCOMPARE(lines[1], QString());
        QVERIFY2(lines[2].startsWith("       1.000     0.000000           99         1.00"), qPrintable(lines[2]));
        QVERIFY(lines.contains("       5.000     1.000000          100          inf"));
        QVERIFY(lines.contains("#[Max     =        5.000, Total count    =          100]"));
        const QRegularExpression row(R"(^\s+\d+\.\d{3}\s+\d\.\d{6}\s+\d+\s+(\d+\.\d{2}|inf)$)");
        int rows = 0;
        for (const QString& line : lines)
            rows += row.match(line).hasMatch() ? 1 : 0;
        QVERIFY(rows > 10);   // 10 steps per half distance, as memtier asks
    }
};

QTEST_APPLESS_MAIN(TestMemtierSeconds)
#include "test_memtier_seconds.moc"
