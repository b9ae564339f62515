// Issue 28: the figures quoted for a whole run are the run's, not its worst
// test's. After a SET,GET run against a real redis-server the headline cards,
// the top strip, History's p99 column and the CSV's "All tests" row all show
// one figure, and that figure is what HdrHistogram's own Java library
// (HistogramLogProcessor, which we did not write) computes by merging the
// run file's two histograms. The counts are the server's.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTest>

#include "support/hdr_log_processor.h"
#include "support/redis_server.h"
#include "ui/model/number_format.h"
#include "ui/model/run_csv.h"
#include "ui/run/kpi_strip_widget.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/stores/history_store.h"
#include "ui/window/run_progress_widget.h"
#include "ui_test_support.h"

using namespace tacho::ui;
using tacho::test::closeWithinHistogramPrecision;

class TestWholeRunFigures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void twoTestsQuoteTheirMergedDistribution()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        auto window = tacho::test::windowOn(dir, tacho::test::loopbackProfile(server.host(), server.port()));
        QVERIFY(window->isTargetReady());
        WorkloadSettings settings;
        settings.connections = 20;
        settings.tests = QStringLiteral("set,get");
        settings.keyspace = 10000;
        settings.valueSize = 64;
        settings.requests = 60000;
        window->runPage()->setup()->setSettings(settings);
        auto done = tacho::test::whenRunCompleted(*window);
        QVERIFY2(window->startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 120000);
        const RunRecord& record = **done;
        QCOMPARE(record.status, QStringLiteral("completed"));
        QCOMPARE(record.tests.size(), 2);
        QVERIFY2(!record.filePath.isEmpty(), qPrintable(record.saveError));

        // The run file's histograms, merged by HdrHistogram itself.
        const QJsonObject file = QJsonDocument::fromJson(tacho::test::readAll(record.filePath)).object();
        QStringList histograms;
        quint64 fileRequests = 0;
        for (const QJsonValue& test : file.value(QStringLiteral("tests")).toArray()) {
            histograms << test.toObject().value(QStringLiteral("histogram")).toString();
            fileRequests += quint64(test.toObject().value(QStringLiteral("requests")).toDouble());
        }
        QCOMPARE(histograms.size(), 2);
        const QString jar = tacho::test::hdrHistogramJar();
        if (jar.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("java")).isEmpty())
            QFAIL("needs libhdrhistogram-java and default-jre-headless (scripts/common.sh installs them)");
        const QString log = dir.filePath(QStringLiteral("two-tests.hlog"));
        QVERIFY(tacho::test::writeIntervalLog(log, histograms));
        const tacho::test::ProcessorOutput merged = tacho::test::runLogProcessor(jar, log, dir.filePath(QStringLiteral("merged")));
        QVERIFY2(merged.ok, qPrintable(merged.error));

        // Counted once: the file, the merge and the server agree.
        const QMap<QString, quint64> calls = server.commandStatsCalls();
        QCOMPARE(fileRequests, calls.value(QStringLiteral("set")) + calls.value(QStringLiteral("get")));
        QCOMPARE(merged.totalCount, fileRequests);
        QCOMPARE(record.totalRequests(), fileRequests);

        // The engine's whole-run figures are the merged distribution's.
        QVERIFY(record.allTestsLatency.has_value());
        const LatencySummary& all = *record.allTestsLatency;
        const double hdrP50 = merged.totalPercentiles.at(0), hdrP99 = merged.totalPercentiles.at(2),
                     hdrP999 = merged.totalPercentiles.at(3);
        for (const auto& [name, ours, theirs] : { std::tuple { "p50", all.p50, hdrP50 }, std::tuple { "p99", all.p99, hdrP99 },
                                                  std::tuple { "p99.9", all.p999, hdrP999 } })
            QVERIFY2(closeWithinHistogramPrecision(ours, theirs),
                     qPrintable(QStringLiteral("%1: workbench %2 ms, HdrHistogram's merge %3 ms").arg(QLatin1String(name)).arg(ours).arg(theirs)));

        // Every place a person reads the run's p99 shows that one figure.
        KpiStripWidget* kpis = window->runPage()->kpis();
        QCOMPARE(kpis->tileText(QStringLiteral("p50")), NumberFormat::milliseconds(all.p50));
        QCOMPARE(kpis->tileText(QStringLiteral("p99")), NumberFormat::milliseconds(all.p99));
        QCOMPARE(kpis->tileText(QStringLiteral("p999")), NumberFormat::milliseconds(all.p999));
        QCOMPARE(kpis->tileText(QStringLiteral("avg")), NumberFormat::milliseconds(all.avg));
        const QString strip = window->progress()->numbersText();
        QVERIFY2(strip.contains(NumberFormat::millisecondsWithUnit(all.p99)), qPrintable(strip));

        const HistoryEntry entry = HistoryStore::readEntry(record.filePath);
        QVERIFY2(entry.readable, qPrintable(entry.error));
        QCOMPARE(NumberFormat::milliseconds(entry.p99Ms), NumberFormat::milliseconds(all.p99));
        QCOMPARE(NumberFormat::rate(entry.opsPerSecond), NumberFormat::rate(record.headlineOpsPerSecond()));

        const QStringList lines = RunCsv::text({ record }).trimmed().split(QLatin1Char('\n'));
        const QStringList header = lines.first().split(QLatin1Char(','));
        const QStringList allRows = lines.filter(QStringLiteral(",All tests,ALL,"));
        QCOMPARE(allRows.size(), 1);
        QCOMPARE(lines.size(), 1 + 2 + 1);   // header, SET, GET, All tests
        const QStringList cells = tacho::test::csvCells(allRows.first());
        QCOMPARE(cells.size(), header.size());
        const double csvP99 = cells.at(header.indexOf(QStringLiteral("p99_ms"))).toDouble();
        QVERIFY2(closeWithinHistogramPrecision(csvP99, hdrP99), qPrintable(allRows.first()));
        QCOMPARE(cells.at(header.indexOf(QStringLiteral("p99_ms"))), QString::number(all.p99, 'f', 3));
        QCOMPARE(cells.at(header.indexOf(QStringLiteral("requests"))).toULongLong(), fileRequests);
    }

    void unknownWholeRunLatencyShowsDashes()
    {
        // Rows but no engine figures (a record made by hand): the cards say
        // "–" rather than pick a row.
        RunRecord run;
        run.status = QStringLiteral("completed");
        for (const char* name : { "SET", "GET" }) {
            TestRecord t;
            t.name = QString::fromLatin1(name);
            t.seconds = 1;
            t.requests = 100;
            CommandRecord row;
            row.test = row.command = t.name;
            row.requests = 100;
            row.seconds = 1;
            row.latency.p99 = 9;
            t.commands << row;
            run.tests << t;
        }
        const KpiValues v = KpiValues::wholeRun(run);
        QVERIFY(std::isnan(v.p99Ms));
        QCOMPARE(v.opsPerSecond, 100.0);
        QVERIFY(std::isnan(run.headlineP99()));
    }
};

QTEST_MAIN(TestWholeRunFigures)
#include "test_whole_run_figures.moc"
