// tacho-cli memtier --scan-incremental-iteration against a real redis-server
// (issue 17). With a known key set (DEBUG POPULATE) the test first counts, with
// its own SCANs, how many calls one full iteration takes; a run of exactly k
// such iterations per connection must then show k SCAN 0 and k × (calls − 1)
// SCAN <cursor> requests, return every key k times per connection (the run
// file's scanKeys), complete k iterations per connection (scanPasses), and
// the server's INFO commandstats must count every SCAN. memtier's own test of
// --scan-incremental-max-iterations (COUNT 1, cap 3, 40 requests → 10 + 30)
// holds, and bad combinations exit 2 through the command line too.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "support/run_file_json.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::firstTestInRunFile;
using tacho::test::readRunFileJson;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

constexpr int kKeys = 1000;

// The requests of the command named `name` in a run file's test.
qint64 commandRequests(const QJsonObject& test, const QString& name)
{
    for (const QJsonValue& command : test.value("commands").toArray())
        if (command.toObject().value("name").toString() == name)
            return command.toObject().value("requests").toInteger();
    return -1;
}

} // namespace

class TestMemtierScanIteration : public QObject {
    Q_OBJECT

private:
    RedisServer::Options serverOptions()
    {
        RedisServer::Options options;
        options.extraArgs = QStringList { "--enable-debug-command", "yes" };   // DEBUG POPULATE
        return options;
    }

    // SCAN calls in one full iteration with COUNT `count`, done by the test.
    int callsPerIteration(int count)
    {
        QString cursor = "0";
        for (int calls = 1; calls <= 100000; ++calls) {
            const tacho::test::RedisReply reply
                = m_server.command({ "SCAN", cursor, "COUNT", QString::number(count) });
            if (reply.type != tacho::test::RedisReply::Type::Array || reply.elements.size() != 2)
                return -1;
            cursor = QString::fromUtf8(reply.elements[0].text);
            if (cursor == "0")
                return calls;
        }
        return -1;
    }

    // The same number twice in a row: the table is not being rehashed.
    int stableCallsPerIteration(int count)
    {
        int last = callsPerIteration(count);
        for (int attempt = 0; attempt < 20; ++attempt) {
            const int now = callsPerIteration(count);
            if (now == last)
                return now;
            last = now;
        }
        return -1;
    }

    QStringList target() const
    {
        return { "memtier", "-s", m_server.host(), "-p", QString::number(m_server.port()), "--hide-histogram" };
    }

    RedisServer m_server { serverOptions() };
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
        QVERIFY(m_server.command({ "DEBUG", "POPULATE", QString::number(kKeys), "scankey" }).type
                == tacho::test::RedisReply::Type::Status);
        QCOMPARE(m_server.dbSize(), kKeys);
    }

    void fullIterationsVisitEveryKey_data()
    {
        QTest::addColumn<int>("clients");
        QTest::addColumn<int>("iterations");
        QTest::addColumn<QString>("command");
        QTest::addColumn<int>("count");
        QTest::newRow("1 client, COUNT 10, 3 iterations") << 1 << 3 << "SCAN 0 COUNT 10" << 10;
        QTest::newRow("3 clients, COUNT 100, 2 iterations") << 3 << 2 << "SCAN 0 COUNT 100" << 100;
        QTest::newRow("2 clients, MATCH and TYPE") << 2 << 2 << "SCAN 0 MATCH scankey:* COUNT 50 TYPE string" << 50;
    }

    void fullIterationsVisitEveryKey()
    {
        QFETCH(int, clients);
        QFETCH(int, iterations);
        QFETCH(QString, command);
        QFETCH(int, count);
        const int calls = stableCallsPerIteration(count);
        // (COUNT is a hint: Redis may return fewer keys per call, so the
        // calls are measured, not derived from the key count.)
        QVERIFY2(calls > 1, "the key set needs more than one SCAN call per iteration");

        const QString runFile = m_dir.filePath(QStringLiteral("scan-%1.json").arg(QTest::currentDataTag()).replace(' ', '_'));
        const QString memtierJson = runFile + ".memtier";
        m_server.resetStats();
        const CliResult r = runCli(target() + QStringList {
            "-t", "1", "-c", QString::number(clients), "-n", QString::number(calls * iterations),
            "--command", command, "--scan-incremental-iteration", "--pipeline", "1",
            "--json", runFile, "--json-out-file", memtierJson });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));

        const QJsonObject test = firstTestInRunFile(runFile);
        const qint64 perClientContinuations = qint64(calls - 1) * iterations;
        QCOMPARE(commandRequests(test, "SCAN 0"), qint64(iterations) * clients);
        QCOMPARE(commandRequests(test, "SCAN <cursor>"), perClientContinuations * clients);
        QCOMPARE(test.value("scanPasses").toInteger(), qint64(iterations) * clients);
        QCOMPARE(test.value("scanKeys").toInteger(), qint64(kKeys) * iterations * clients);
        // What the server counted: every SCAN, and nothing else of ours.
        QCOMPARE(m_server.commandStatsCalls().value("scan"), quint64(calls) * iterations * clients);
        QVERIFY2(test.value("crossCheck").toObject().value("agrees").toBool(),
                 qPrintable(QString::fromUtf8(QJsonDocument(test.value("crossCheck").toObject()).toJson())));

        // memtier's names: "SCAN 0" / "SCAN <cursor>" rows, "Scan 0s" / "Scan <cursor>s" in the JSON.
        QVERIFY(r.out.contains("Scan 0s") && r.out.contains("Scan <cursor>s"));
        const QJsonObject all = readRunFileJson(memtierJson).value("ALL STATS").toObject();
        QCOMPARE(all.value("Scan 0s").toObject().value("Count").toInteger(), qint64(iterations) * clients);
        QCOMPARE(all.value("Scan <cursor>s").toObject().value("Count").toInteger(), perClientContinuations * clients);
    }

    // memtier's tests/test_scan.py test_scan_incremental_max_iterations.
    void maxIterationsCapsContinuations()
    {
        const QString memtierJson = m_dir.filePath("max-iterations.json");
        m_server.resetStats();
        const CliResult r = runCli(target() + QStringList {
            "-t", "1", "-c", "1", "-n", "40", "--command", "SCAN 0 COUNT 1", "--scan-incremental-iteration",
            "--scan-incremental-max-iterations", "3", "--json-out-file", memtierJson });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject all = readRunFileJson(memtierJson).value("ALL STATS").toObject();
        QCOMPARE(all.value("Scan 0s").toObject().value("Count").toInteger(), qint64(10));
        QCOMPARE(all.value("Scan <cursor>s").toObject().value("Count").toInteger(), qint64(30));
        QCOMPARE(all.value("Totals").toObject().value("Count").toInteger(), qint64(40));
        QCOMPARE(m_server.commandStatsCalls().value("scan"), quint64(40));
    }

    // An error reply restarts the iteration (memtier does the same): a TYPE
    // the server rejects makes every request a SCAN 0.
    void errorRepliesRestartTheIteration()
    {
        const QString runFile = m_dir.filePath("errors.json");
        m_server.resetStats();
        const CliResult r = runCli(target() + QStringList {
            "-t", "1", "-c", "2", "-n", "5", "--command", "SCAN 0 COUNT notanumber", "--scan-incremental-iteration",
            "--json", runFile });
        const QJsonObject test = firstTestInRunFile(runFile);
        QVERIFY2(!test.isEmpty(), qPrintable(describeCliResult(r)));
        QCOMPARE(commandRequests(test, "SCAN 0"), qint64(10));
        QCOMPARE(commandRequests(test, "SCAN <cursor>"), qint64(0));
        QCOMPARE(test.value("errors").toInteger(), qint64(10));
        QCOMPARE(m_server.commandStatsCalls().value("scan"), quint64(10));
    }

    void badCombinationsExitWithUsageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no command") << QStringList { "--scan-incremental-iteration" }
                                    << "needs --command with a SCAN command";
        QTest::newRow("not SCAN") << QStringList { "--scan-incremental-iteration", "--command", "GET __key__" }
                                  << "must be a SCAN command";
        QTest::newRow("pipeline") << QStringList { "--scan-incremental-iteration", "--command", "SCAN 0", "--pipeline", "2" }
                                  << "needs --pipeline 1";
        QTest::newRow("cluster") << QStringList { "--scan-incremental-iteration", "--command", "SCAN 0", "--cluster-mode" }
                                 << "not supported with --cluster-mode";
    }

    void badCombinationsExitWithUsageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        m_server.resetStats();
        const CliResult r = runCli(target() + args + QStringList { "-n", "10" });
        QVERIFY2(r.exitCode == 2, qPrintable(describeCliResult(r)));
        QVERIFY2(r.err.contains(message.toUtf8()), qPrintable(describeCliResult(r)));
        QCOMPARE(m_server.commandStatsCalls().value("scan"), quint64(0));
    }
};

QTEST_GUILESS_MAIN(TestMemtierScanIteration)
#include "test_memtier_scan_iteration.moc"
