// The workbench's run value: the same numbers whether made from the engine's
// RunResult or read back from the run file the engine wrote; the spectrum;
// specific reasons for files that cannot be read.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

#include "engine/report/run_file.h"
#include "ui/results/results_page.h"
#include "ui/model/run_record.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestRunRecord : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fileAndResultAgree()
    {
        const tacho::engine::RunResult result = tacho::test::syntheticResult(5000);
        const RunRecord direct = RunRecord::fromRunResult(result);
        QString error;
        const auto read = RunRecord::fromJson(QByteArray::fromStdString(tacho::engine::runResultToJson(result)), &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->status, direct.status);
        QCOMPARE(read->target, direct.target);
        QCOMPARE(read->tests.size(), direct.tests.size());
        const TestRecord& a = direct.tests.first();
        const TestRecord& b = read->tests.first();
        QCOMPARE(b.requests, a.requests);
        QCOMPARE(b.intervals.size(), a.intervals.size());
        QCOMPARE(b.latency.p99, a.latency.p99);
        QVERIFY(b.crossCheck.agrees());
        QCOMPARE(read->serverDescription(), QStringLiteral("redis 7.0.15 standalone"));
        // The spectrum from the decoded histogram matches the live one to a bucket (µs encoding).
        QVERIFY(!b.spectrum.isEmpty());
        QCOMPARE(b.spectrum.size(), a.spectrum.size());
        for (qsizetype i = 0; i < a.spectrum.size(); ++i)
            QVERIFY2(std::abs(a.spectrum[i].ms - b.spectrum[i].ms) <= 0.002 + a.spectrum[i].ms * 0.002,
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(a.spectrum[i].percentile).arg(a.spectrum[i].ms).arg(b.spectrum[i].ms)));
    }

    void cleanupIsReadBackAndShown()
    {
        // The run file's "cleanup" section (added after the run) reads back
        // in tacho-cli's words, and the Results page shows it.
        tacho::engine::RunResult result = tacho::test::syntheticResult(1000);
        tacho::engine::CleanupResult cleanup;
        cleanup.patterns = { "key:[0-9]*" };
        cleanup.removed = 732;
        cleanup.nodes = { { "127.0.0.1:7001", 500 }, { "127.0.0.1:7002", 232 } };
        result.cleanup = cleanup;
        QString error;
        const auto read = RunRecord::fromJson(QByteArray::fromStdString(tacho::engine::runResultToJson(result)), &error);
        QVERIFY2(read, qPrintable(error));
        QVERIFY2(read->cleanup.startsWith(QLatin1String("cleanup: removed 732 keys")), qPrintable(read->cleanup));
        QVERIFY2(read->cleanup.contains(QLatin1String("127.0.0.1:7002")), qPrintable(read->cleanup));

        ResultsPage page;
        page.showRun(*read);
        QVERIFY2(page.detailsText().contains(QLatin1String("Clean-up after the run: removed 732 keys")), qPrintable(page.detailsText()));

        // A damaged section says so instead of failing the whole file.
        QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(tacho::engine::runResultToJson(result))).object();
        QJsonObject damaged = root.value(QStringLiteral("cleanup")).toObject();
        damaged.insert(QStringLiteral("removed"), 5);
        root.insert(QStringLiteral("cleanup"), damaged);
        const auto reread = RunRecord::fromJson(QJsonDocument(root).toJson(), &error);
        QVERIFY2(reread, qPrintable(error));
        QVERIFY2(reread->cleanup.contains(QLatin1String("not readable")), qPrintable(reread->cleanup));
    }

    void spectrumRisesToTheMaximum()
    {
        const tacho::engine::RunResult result = tacho::test::syntheticResult(100000);
        const QVector<SpectrumPoint> s = RunRecord::spectrumOf(result.tests.front().latency);
        QVERIFY(s.size() >= 40);   // ten points per decade, 5 decades of 1/(1-p)
        for (qsizetype i = 1; i < s.size(); ++i) {
            QVERIFY(s[i].percentile > s[i - 1].percentile);
            QVERIFY(s[i].ms >= s[i - 1].ms);
        }
        QCOMPARE(s.last().ms, result.tests.front().latency.max() / 1e6);
        QCOMPARE(s.first().percentile, 0.0);
    }

    void unreadableFilesSayWhy_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << QByteArray("  \n") << QStringLiteral("the file is empty");
        QTest::newRow("truncated") << QByteArray("{\"format\": \"tacho-run/1\", \"tests\": [") << QStringLiteral("not valid JSON");
        QTest::newRow("array") << QByteArray("[]") << QStringLiteral("not a Tacho run file: the document is a JSON array, not an object");
        QTest::newRow("other format") << QByteArray("{\"format\": \"memtier/2\"}") << QStringLiteral("format: \"memtier/2\" is not a Tacho run file format");
        QTest::newRow("no tests") << QByteArray("{\"format\": \"tacho-run/1\", \"status\": \"completed\"}") << QStringLiteral("config: missing");
        // A whole run file as the engine writes it, but for its histogram.
        tacho::engine::RunResult run;
        run.tests.emplace_back().name = "SET";
        QJsonObject file = QJsonDocument::fromJson(QByteArray::fromStdString(tacho::engine::runResultToJson(run))).object();
        QJsonArray tests = file.value("tests").toArray();
        QJsonObject first = tests.at(0).toObject();
        first.insert("histogram", "HISTFAAAnot-base64!");
        tests.replace(0, first);
        file.insert("tests", tests);
        QTest::newRow("bad histogram") << QJsonDocument(file).toJson()
                                       << QStringLiteral("tests[0].histogram: not a readable HdrHistogram");
    }

    void unreadableFilesSayWhy()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, reason);
        QString error;
        QVERIFY(!RunRecord::fromJson(json, &error));
        QVERIFY2(error.contains(reason), qPrintable(error));
    }
};

QTEST_MAIN(TestRunRecord)
#include "test_run_record.moc"
