// Faults (issue #8) a real server will not produce on demand, from a FakeServer
// (tests/support/fake_server.h): a server that never answers (during a run, a
// count-limited run, the session setup), answers garbage or half a reply,
// resets connections, closes right after accepting, answers LOADING, or
// answers slowly. Every run is bounded (runCli's limit only guards against a
// hang); each ends with a specific message and its counts in the run file.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "support/cli_runner.h"
#include "support/fake_server.h"
#include "support/fault_checks.h"
#include "support/run_file_json.h"
#include "support/verify_started.h"

using namespace tacho::test;
using Behaviour = FakeServer::Behaviour;

class TestFaultsFakeServer : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Never answers (duration run): the run ends after the drain window with
    // the number of requests that got no reply, and the file counts them.
    void silentServerEndsAfterTheDrainWindow()
    {
        FakeServer fake({ .behaviour = Behaviour::Silent });
        TACHO_VERIFY_STARTED(fake);
        const QString run = path("silent.json");
        const CliResult r = runCli(faultMemtier(fake.port()) << "--test-time=1" << "--connection-timeout=1" << "--json" << run, 30000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        // Ended by the drain window (the message says so), not by runCli's limit (a hang).
        QVERIFY2(r.err.contains(QString("got no reply from 127.0.0.1:%1 within 2 s of the end of the test").arg(fake.port()).toUtf8()),
                 qPrintable(describeCliResult(r)));
        const qint64 noReply = noReplyCount(r.err);
        QCOMPARE(noReply, 2);   // two connections, one request in flight each
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(test.value("status").toString(), QString("failed"));
        QCOMPARE(integerOf(test, "requests"), 0);
        QCOMPARE(integerOf(test, "unanswered"), noReply);
    }

    // Never answers (count-limited run, no duration): must still end in
    // bounded time rather than wait forever — by the default reply timeout
    // (5 s) in memtier's dialect, by --reply-timeout in redis-benchmark's. The
    // lost requests are counted, and the timeout by its kind.
    void silentServerCountRunDoesNotHang_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("memtier, default timeout") << QStringList { "-n", "100", "--connection-timeout=1" }
                                                  << "no reply within 5000 ms (1 request in flight)";
        QTest::newRow("redis-benchmark --reply-timeout 0.5")
            << QStringList { "-t", "set", "-c", "2", "-P", "3", "-n", "100", "--reply-timeout", "0.5" }
            << "no reply within 500 ms (3 requests in flight)";
    }
    void silentServerCountRunDoesNotHang()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        FakeServer fake({ .behaviour = Behaviour::Silent });
        TACHO_VERIFY_STARTED(fake);
        const QString run = path("silent-count.json");
        const bool memtierDialect = QString(QTest::currentDataTag()).startsWith("memtier");
        const QStringList base = memtierDialect ? faultMemtier(fake.port()) : QStringList { "redis-benchmark", "-p", QString::number(fake.port()) };
        const CliResult r = runCli(base + args + QStringList { "--json", run }, 30000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("connection to 127.0.0.1:%1 lost: ").arg(fake.port()).toUtf8() + message.toUtf8()),
                 qPrintable(describeCliResult(r)));
        const QJsonObject file = readRunFileJson(run);
        QCOMPARE(file.value("status").toString(), QString("failed"));
        const QJsonObject test = file.value("tests").toArray().at(0).toObject();
        QCOMPARE(integerOf(test, "requests"), 0);
        QVERIFY2(integerOf(test, "replyTimeouts") >= 1, qPrintable(QJsonDocument(test).toJson()));
        // Every request sent is accounted for: one (memtier) or three (-P 3) per connection.
        QCOMPARE(integerOf(test, "unanswered"), memtierDialect ? 2 : 6);
    }

    // Never answers the session setup (SELECT) or the control connection:
    // bounded by the connect timeout, with a message that says so.
    void silentServerDuringSetupTimesOut()
    {
        {
            FakeServer fake({ .behaviour = Behaviour::Silent });
            TACHO_VERIFY_STARTED(fake);
            const CliResult r = runCli(faultMemtier(fake.port()) << "-n" << "10" << "--select-db=1" << "--connection-timeout=1", 30000);
            QVERIFY2(!r.timedOut && r.exitCode == 1, qPrintable(describeCliResult(r)));
            QVERIFY2(r.err.contains("timed out after 1000 ms"), qPrintable(describeCliResult(r)));
        }
        {
            FakeServer fake({ .behaviour = Behaviour::Silent, .healthyConnections = 0 });
            TACHO_VERIFY_STARTED(fake);
            const CliResult r = runCli(faultMemtier(fake.port()) << "-n" << "10" << "--connection-timeout=1", 30000);
            QVERIFY2(!r.timedOut && r.exitCode == 1, qPrintable(describeCliResult(r)));
            // The whole reply counts (issue 15), so the message names the command it waited for.
            QVERIFY2(r.err.contains(QString("no complete reply to PING from 127.0.0.1:%1 within 1000 ms").arg(fake.port()).toUtf8()),
                     qPrintable(describeCliResult(r)));
        }
    }

    // Garbage instead of a reply: a protocol error, named, at once.
    void garbageReplyIsAProtocolError()
    {
        FakeServer fake({ .behaviour = Behaviour::Garbage, .healthyReplies = 20 });
        TACHO_VERIFY_STARTED(fake);
        const QString run = path("garbage.json");
        const CliResult r = runCli(faultRedisBenchmark(fake.port()) << "-t" << "set" << "-c" << "2" << "-n" << "100000"
                                                               << "--json" << run, 30000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("connection to 127.0.0.1:%1 lost: protocol error").arg(fake.port()).toUtf8()),
                 qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(test.value("status").toString(), QString("failed"));
        QVERIFY2(integerOf(test, "requests") >= 20 && integerOf(test, "requests") <= 40,
                 qPrintable(QString::number(integerOf(test, "requests"))));
    }

    // Half a reply, then the server closes: a loss, named; the request whose
    // reply was cut off is counted as unanswered.
    void truncatedReplyThenCloseIsALoss()
    {
        FakeServer fake({ .behaviour = Behaviour::Truncated, .healthyReplies = 10 });
        TACHO_VERIFY_STARTED(fake);
        const QString run = path("truncated.json");
        const CliResult r = runCli(faultRedisBenchmark(fake.port()) << "-t" << "get" << "-c" << "1" << "-n" << "1000"
                                                               << "--json" << run, 30000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("connection to 127.0.0.1:%1 lost: server closed the connection").arg(fake.port()).toUtf8()),
                 qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(integerOf(test, "requests"), 10);
        QCOMPARE(integerOf(test, "unanswered"), 1);
    }

    // TCP reset mid-run without reconnect: named, and the requests on the
    // wire are accounted for (answered + unanswered = what was sent).
    void resetWithoutReconnectCountsUnanswered()
    {
        FakeServer fake({ .behaviour = Behaviour::Reset, .healthyReplies = 50 });
        TACHO_VERIFY_STARTED(fake);
        const QString run = path("reset.json");
        const CliResult r = runCli(faultRedisBenchmark(fake.port()) << "-t" << "set" << "-c" << "1" << "-P" << "4" << "-n" << "100000"
                                                               << "--json" << run, 30000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("connection to 127.0.0.1:%1 lost: Connection reset by peer").arg(fake.port()).toUtf8()),
                 qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        const qint64 requests = integerOf(test, "requests");
        QVERIFY2(requests >= 48 && requests <= 50, qPrintable(QString::number(requests)));
        QVERIFY(fake.trafficCommandsReceived() >= quint64(requests));
        QVERIFY2(quint64(requests + integerOf(test, "unanswered")) >= fake.trafficCommandsReceived(),
                 qPrintable(QString("server read %1 commands; %2 answered + %3 unanswered")
                                .arg(fake.trafficCommandsReceived()).arg(requests).arg(integerOf(test, "unanswered"))));
    }

    // TCP resets with --reconnect-on-error: the run goes on to its end; losses,
    // reconnects and the requests lost on the wire are counted.
    void resetWithReconnectContinues()
    {
        FakeServer fake({ .behaviour = Behaviour::Reset, .healthyReplies = 200 });
        TACHO_VERIFY_STARTED(fake);
        const QString run = path("reset-reconnect.json");
        const CliResult r = runCli(faultMemtier(fake.port()) << "--test-time=1" << "--pipeline=4" << "--reconnect-on-error"
                                                        << "--json" << run, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(test.value("status").toString(), QString("completed"));
        const qint64 losses = integerOf(test, "connectErrors");
        QVERIFY2(losses >= 2, qPrintable(QString::number(losses)));
        QVERIFY2(integerOf(test, "reconnects") >= losses - 2, qPrintable(QString::number(integerOf(test, "reconnects"))));
        QVERIFY2(integerOf(test, "unanswered") >= losses, qPrintable(QString::number(integerOf(test, "unanswered"))));
        const qint64 requests = integerOf(test, "requests");
        QVERIFY(fake.trafficCommandsReceived() >= quint64(requests));
        QVERIFY2(quint64(requests + integerOf(test, "unanswered")) >= fake.trafficCommandsReceived(),
                 qPrintable(QString("server read %1 commands; %2 answered + %3 unanswered")
                                .arg(fake.trafficCommandsReceived()).arg(requests).arg(integerOf(test, "unanswered"))));
        QVERIFY(r.out.contains("lost or failed"));
    }

    // Accepts, then closes at once: named; for the control connection too.
    void acceptThenCloseIsNamed()
    {
        {
            FakeServer fake({ .behaviour = Behaviour::AcceptClose });
            TACHO_VERIFY_STARTED(fake);
            const CliResult r = runCli(faultRedisBenchmark(fake.port()) << "-t" << "set" << "-c" << "2" << "-n" << "1000", 30000);
            QVERIFY2(!r.timedOut && !r.crashed && r.exitCode == 1, qPrintable(describeCliResult(r)));
            // Closed before answering the first SET of the connection: named as such (issue 16).
            QVERIFY2(r.err.contains(QString("server 127.0.0.1:%1 closed the connection without answering SET").arg(fake.port()).toUtf8())
                         || r.err.contains(QString("lost connection to 127.0.0.1:%1 without an answer to SET: ").arg(fake.port()).toUtf8())
                         || saysConnectionLost(r.err, fake.port()),
                     qPrintable(describeCliResult(r)));
        }
        {
            FakeServer fake({ .behaviour = Behaviour::AcceptClose, .healthyConnections = 0 });
            TACHO_VERIFY_STARTED(fake);
            const CliResult r = runCli(faultRedisBenchmark(fake.port()) << "-t" << "set" << "-n" << "1000", 30000);
            QVERIFY2(!r.timedOut && !r.crashed && r.exitCode == 1, qPrintable(describeCliResult(r)));
            QVERIFY2(r.err.contains(QString("server 127.0.0.1:%1 closed the connection without answering").arg(fake.port()).toUtf8())
                         || r.err.contains(QString("lost connection to 127.0.0.1:%1 without an answer to PING: Connection reset by peer").arg(fake.port()).toUtf8()),
                     qPrintable(describeCliResult(r)));
        }
    }

    // LOADING replies (a server loading its dataset): counted by kind.
    void loadingRepliesAreCountedByKind()
    {
        FakeServer fake({ .behaviour = Behaviour::ErrorReply });
        TACHO_VERIFY_STARTED(fake);
        const QString run = path("loading.json");
        const CliResult r = runCli(faultRedisBenchmark(fake.port()) << "-t" << "set" << "-c" << "2" << "-n" << "200" << "--json" << run, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(integerOf(test, "requests"), 200);
        QCOMPARE(integerOf(test, "errors"), 200);
        QCOMPARE(test.value("errorsByKind").toObject().value("LOADING").toInteger(), 200);
        QCOMPARE(fake.trafficCommandsReceived(), 200u);
    }

    // Slow replies (300 ms each) stay below every timeout: the run completes and
    // the latency shows the delay.
    void slowRepliesCompleteWithTheirLatency()
    {
        FakeServer fake({ .behaviour = Behaviour::Slow, .delayMs = 300 });
        TACHO_VERIFY_STARTED(fake);
        const QString run = path("slow.json");
        const CliResult r = runCli(faultRedisBenchmark(fake.port()) << "-t" << "set" << "-c" << "2" << "-n" << "8" << "--json" << run, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(integerOf(test, "requests"), 8);
        const QJsonObject latency = test.value("latencyMs").toObject();
        QVERIFY2(latency.value("min").toDouble() >= 290,
                 qPrintable(QJsonDocument(latency).toJson()));
    }
};

QTEST_GUILESS_MAIN(TestFaultsFakeServer)
#include "test_faults_fake_server.moc"
