// Issue 19 through tacho-cli: `report --pdf --png` of a run file with
// telemetry carries the verdict, "Where the time goes" and the telemetry
// charts; `merge` keeps both machines' client telemetry in the file it
// writes; `compare` prints each side's verdict.
#include <QtTest/QtTest>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "engine/report/run_file.h"
#include "support/cli_runner.h"
#include "support/run_file_json.h"
#include "support/telemetry_run.h"

using namespace tacho::engine;
using namespace tacho::test;

class TestTelemetryReportCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_a, m_b;

    QString write(const QString& name, const RunResult& run)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(runResultToJson(run))) < 0)
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        TelemetryRunSpec a;
        a.serverUnavailable = "not available: NOPERM this user has no permissions to run the 'info' command";
        m_a = write("a.json", telemetryRun(a));
        TelemetryRunSpec b;
        b.host = "loadgen-b";
        b.startedAtUtc = "2024-05-01T10:00:01Z";
        b.kind = Bottleneck::ClientBound;
        b.reason = "engine thread 99% of a core";
        b.advice = "more --threads, or another load machine";
        b.engineThreadPercent = 99;
        m_b = write("b.json", telemetryRun(b));
    }

    void pdfAndPngCarryTheTelemetry()
    {
        const QString pdf = m_dir.filePath("a.pdf"), pngDir = m_dir.filePath("png");
        const CliResult r = runCli({ "report", m_a, "--pdf", pdf, "--png", pngDir });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        // Throughput, latency, spectrum, five server charts and the load machine's.
        QVERIFY2(r.out.contains("PNG charts: 9 in"), r.out.constData());
        for (const char* chart : { "chart-run1-test1-server-cpu.png", "chart-run1-test1-client-1.png" })
            QVERIFY2(QFile::exists(QDir(pngDir).filePath(chart)), chart);

        const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
        QVERIFY2(!pdftotext.isEmpty(), "pdftotext not found: ./test.sh installs it (apt-get install poppler-utils)");
        QProcess p;
        p.start(pdftotext, { pdf, "-" });
        QVERIFY(p.waitForFinished(60000));
        const QByteArray text = p.readAllStandardOutput();
        for (const char* expected : { "Bottleneck", "server-bound", "Where the time goes", "87.5%",
                                      "not available: NOPERM" })
            QVERIFY2(text.contains(expected), expected);
    }

    void mergeKeepsBothMachines()
    {
        const QString merged = m_dir.filePath("merged.json");
        const CliResult r = runCli({ "merge", m_a, m_b, "-o", merged });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject telemetry = firstTestInRunFile(merged).value("telemetry").toObject();
        const QJsonArray clients = telemetry.value("clients").toArray();
        QCOMPARE(clients.size(), 2);
        QCOMPARE(clients.at(0).toObject().value("host").toString(), QString("loadgen-a"));
        QCOMPARE(clients.at(1).toObject().value("host").toString(), QString("loadgen-b"));
        QCOMPARE(telemetry.value("servers").toArray().size(), 2);   // a's: the sampled master and the refusing one
        QCOMPARE(telemetry.value("verdict").toObject().value("kind").toString(), QString("client-bound"));

        // And it opens again: a report draws both machines.
        const CliResult report = runCli({ "report", merged, "--html", m_dir.filePath("merged.html") });
        QVERIFY2(report.exitCode == 0, qPrintable(describeCliResult(report)));
        QFile html(m_dir.filePath("merged.html"));
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray page = html.readAll();
        QVERIFY(page.contains("id=\"chart-run1-test1-client-2\""));
        QVERIFY(page.contains("load machine loadgen-b"));
    }

    void compareNamesTheVerdicts()
    {
        const CliResult r = runCli({ "compare", m_a, m_b });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QVERIFY2(r.out.contains("[1] bottleneck: server-bound ("), r.out.constData());
        QVERIFY2(r.out.contains("[2] bottleneck: client-bound (engine thread 99% of a core): more --threads"), r.out.constData());
        QVERIFY2(r.out.contains("[2] b.json was client-bound in SET"), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestTelemetryReportCli)
#include "test_telemetry_report_cli.moc"
