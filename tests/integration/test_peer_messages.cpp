// Issue 17: the lines the peers' test suites and users' scripts match.
//  - redis-benchmark form: a run failed by the server's error reply (client
//    limit reached, also in idle mode -I) prints
//    redis-benchmark's "Error from server: <reply>" before Tacho's message
//    (the Redis and Valkey suites match "*Error*");
//  - memtier form: Ctrl+C prints memtier's "[RUN #1] Interrupted by user
//    (Ctrl+C) after N secs, stopping threads..." line.
// Real redis-server; what it counted is checked where the run sent anything.
#include <QtTest>

#include <csignal>

#include <QProcess>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

class TestPeerMessages : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void errorFromServer_data()
    {
        QTest::addColumn<QStringList>("args");
        // The Redis and Valkey suites' own line, and the same limit on other runs.
        QTest::newRow("idle -I") << QStringList { "-c", "10", "-I" };
        QTest::newRow("set") << QStringList { "-c", "10", "-n", "1000", "-t", "set" };
        QTest::newRow("set --threads 2") << QStringList { "-c", "10", "--threads", "2", "-n", "1000", "-t", "set" };
        QTest::newRow("select db 3") << QStringList { "-c", "10", "--dbnum", "3", "-n", "1000", "-t", "get" };
    }

    void errorFromServer()
    {
        QFETCH(QStringList, args);
        const QByteArray reply = "ERR max number of clients reached";
        QVERIFY(!m_server.command({ "CONFIG", "SET", "maxclients", "5" }).isError());
        const CliResult r = runCli(QStringList { "redis-benchmark", "-p", QString::number(m_server.port()) } + args, 30000);
        QVERIFY(!m_server.command({ "CONFIG", "SET", "maxclients", "10000" }).isError());
        QCOMPARE(r.exitCode, 1);
        const QList<QByteArray> lines = r.err.split('\n');
        bool found = false;
        for (const QByteArray& line : lines)
            found = found || (line.startsWith("Error from server: ") && line.contains(reply));
        QVERIFY2(found, qPrintable(describeCliResult(r)));
        // Tacho's own explanation follows.
        QVERIFY2(r.err.contains("tacho-cli redis-benchmark: error: "), qPrintable(describeCliResult(r)));
    }

    // A failure that is not an error reply gets no "Error from server" line.
    void otherFailuresNameNoServerReply()
    {
        const CliResult r = runCli({ "redis-benchmark", "-p", "1", "-n", "10", "-t", "set" }, 30000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(!r.err.contains("Error from server"), qPrintable(describeCliResult(r)));
    }

    void ctrlCPrintsMemtiersLine()
    {
        m_server.resetStats();
        QProcess process;
        process.setProgram(tacho::test::cliPath());
        process.setArguments({ "memtier", "-s", "127.0.0.1", "-p", QString::number(m_server.port()), "-t", "2", "-c", "2",
                               "--requests=10000000", "--ratio", "1:0", "--hide-histogram" });
        process.setStandardInputFile(QProcess::nullDevice());
        process.start();
        QVERIFY(process.waitForStarted(10000));
        quint64 seen = 0;   // until the server has seen SETs (bounded: 20 s, 400 polls)
        QElapsedTimer timer;
        timer.start();
        for (int poll = 0; poll < 400 && seen < 1000 && timer.elapsed() < 20000; ++poll) {
            QTest::qWait(50);
            seen = m_server.commandStatsCalls().value("set");
        }
        QVERIFY2(seen >= 1000, "the run did not start sending");
        QCOMPARE(::kill(pid_t(process.processId()), SIGINT), 0);
        const bool ended = process.waitForFinished(30000);
        if (!ended) {
            process.kill();
            process.waitForFinished(5000);
        }
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(ended && process.exitStatus() == QProcess::NormalExit, err.constData());
        const QRegularExpression line(
            QStringLiteral("^\\[RUN #1\\] Interrupted by user \\(Ctrl\\+C\\) after \\d+\\.\\d secs, stopping threads\\.\\.\\.$"),
            QRegularExpression::MultilineOption);
        QVERIFY2(line.match(QString::fromUtf8(err)).hasMatch(), err.constData());
    }

private:
    RedisServer m_server;
};

QTEST_GUILESS_MAIN(TestPeerMessages)
#include "test_peer_messages.moc"
