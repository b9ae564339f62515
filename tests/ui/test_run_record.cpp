// The workbench's run value: the same numbers whether made from the engine's
// RunResult or read back from the run file the engine wrote; the spectrum;
// specific reasons for files that cannot be read.
#include <QTest>

#include <cmath>

#include "engine/report/run_file.h"
#include "ui/run_record.h"
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
        QTest::newRow("array") << QByteArray("[]") << QStringLiteral("not a JSON object");
        QTest::newRow("other format") << QByteArray("{\"format\": \"memtier/2\"}") << QStringLiteral("unsupported format \"memtier/2\"");
        QTest::newRow("no tests") << QByteArray("{\"format\": \"tacho-run/1\", \"status\": \"completed\"}") << QStringLiteral("\"tests\" is missing");
        QTest::newRow("bad histogram")
            << QByteArray("{\"format\": \"tacho-run/1\", \"status\": \"completed\", \"tests\": [{\"name\": \"SET\", \"histogram\": \"HISTFAAAnot-base64!\"}]}")
            << QStringLiteral("cannot be decoded");
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
