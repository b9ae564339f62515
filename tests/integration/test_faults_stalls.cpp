// Faults (issue #8), a real server that stalls or drops our connections while
// tacho-cli runs: DEBUG SLEEP, CLIENT PAUSE, CLIENT KILL with and without
// reconnect, a stall beyond --reply-timeout. The server is hurt once it has
// counted traffic; latencies are checked from below only (a loaded machine
// only adds to them), counts against the server's own (issue 18).
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "support/background_cli.h"
#include "support/fault_checks.h"
#include "support/redis_server.h"
#include "support/run_file_json.h"
#include "support/verify_started.h"

using namespace tacho::test;

namespace {

constexpr int kHangMs = 20000;   // only a hang takes this long

RedisServer::Options debugOptions()
{
    return { .extraArgs = QStringList { "--enable-debug-command", "yes" } };
}

} // namespace

class TestFaultsStalls : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

    // Starts tacho-cli and waits until `server` has run a `command` of it.
    static bool startAndWaitForTraffic(BackgroundCli& cli, const RedisServer& server, const char* command)
    {
        return cli.started() && cli.waitUntil([&] { return server.commandStatsCalls().value(command) > 0; }, kHangMs);
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // DEBUG SLEEP 1 mid-run: no failure, the stall is the maximum latency (at
    // least the second), intervals without a reply show it, the server's
    // count agrees.
    void debugSleepStallShowsInMaxLatency()
    {
        RedisServer server(debugOptions());
        TACHO_VERIFY_STARTED(server);
        const QString run = path("sleep.json");
        BackgroundCli cli(faultRedisBenchmark(server.port()) << "-t" << "set" << "-c" << "4" << "--duration" << "2.5" << "--json" << run);
        QVERIFY(startAndWaitForTraffic(cli, server, "set"));
        const auto reply = server.command({ "DEBUG", "SLEEP", "1" });
        QVERIFY2(reply.type == RedisReply::Type::Status, qPrintable(reply.describe()));
        const CliResult r = cli.finish(kHangMs);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(test.value("status").toString(), QString("completed"));
        const double maxMs = test.value("latencyMs").toObject().value("max").toDouble();
        QVERIFY2(maxMs >= 900, qPrintable(QString("max latency %1 ms").arg(maxMs)));
        QVERIFY2(zeroRequestIntervals(test) >= 1, "the stall is not visible in the intervals");
        const QJsonObject check = test.value("crossCheck").toObject();
        QVERIFY2(check.value("agrees").toBool(), qPrintable(QJsonDocument(check).toJson()));
        QCOMPARE(qint64(server.commandStatsCalls().value("set")), integerOf(test, "requests"));
    }

    // CLIENT KILL TYPE normal without reconnect: the run fails saying the
    // server closed the connection; the file keeps the partial counts, which
    // the surviving server's count bounds.
    void clientKillWithoutReconnectFails()
    {
        RedisServer server;
        TACHO_VERIFY_STARTED(server);
        const QString run = path("client-kill.json");
        BackgroundCli cli(faultRedisBenchmark(server.port()) << "-t" << "set" << "-c" << "4" << "--duration" << "4" << "--json" << run);
        QVERIFY(startAndWaitForTraffic(cli, server, "set"));
        const long long killed = server.commandInteger({ "CLIENT", "KILL", "TYPE", "normal" });
        QVERIFY2(killed >= 4, qPrintable(QString::number(killed)));
        const CliResult r = cli.finish(kHangMs);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(saysConnectionLost(r.err, server.port()), qPrintable(describeCliResult(r)));
        const QJsonObject file = readRunFileJson(run);
        QCOMPARE(file.value("status").toString(), QString("failed"));
        const QJsonObject test = file.value("tests").toArray().at(0).toObject();
        const qint64 requests = integerOf(test, "requests");
        const qint64 served = qint64(server.commandStatsCalls().value("set"));
        QVERIFY(requests > 0);
        QVERIFY2(served >= requests, qPrintable(QString("server %1, answered %2").arg(served).arg(requests)));
        // (Whether the server also ran requests whose replies were lost depends on timing;
        // the deterministic check of unanswered requests is resetWithoutReconnectCountsUnanswered.)
        if (served > requests + integerOf(test, "unanswered"))
            qInfo("server ran %lld SETs, run file: %lld answered + %lld unanswered", served, requests,
                  integerOf(test, "unanswered"));
    }

    // CLIENT KILL with --reconnect-on-error: the run goes on; losses and
    // reconnects counted; answered <= server count <= answered + unanswered.
    void clientKillWithReconnectContinues()
    {
        RedisServer server;
        TACHO_VERIFY_STARTED(server);
        const QString run = path("client-kill-reconnect.json");
        BackgroundCli cli(QStringList { "memtier", "-s", "127.0.0.1", "-p", QString::number(server.port()), "-t", "2", "-c", "2",
                                        "--ratio=1:0", "--key-maximum=1000", "--hide-histogram", "--test-time=2",
                                        "--reconnect-on-error", "--json", run });
        QVERIFY(startAndWaitForTraffic(cli, server, "set"));
        const long long killed = server.commandInteger({ "CLIENT", "KILL", "TYPE", "normal" });
        QVERIFY2(killed >= 4, qPrintable(QString::number(killed)));
        const CliResult r = cli.finish(kHangMs);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(test.value("status").toString(), QString("completed"));
        QVERIFY2(integerOf(test, "connectErrors") >= 4, qPrintable(QString::number(integerOf(test, "connectErrors"))));
        QVERIFY2(integerOf(test, "reconnects") >= 4, qPrintable(QString::number(integerOf(test, "reconnects"))));
        const qint64 requests = integerOf(test, "requests");
        const qint64 unanswered = integerOf(test, "unanswered");
        const qint64 served = qint64(server.commandStatsCalls().value("set"));
        QVERIFY2(served >= requests && served <= requests + unanswered,
                 qPrintable(QString("server %1, answered %2, unanswered %3").arg(served).arg(requests).arg(unanswered)));
        // The server survived, so Tacho's own cross-check is still there: the
        // control connection, killed too, was opened again. Its figures are
        // the server's, and bracketed like the test's own.
        const QJsonObject check = test.value("crossCheck").toObject();
        QVERIFY2(check.value("available").toBool(), qPrintable(QJsonDocument(check).toJson()));
        QCOMPARE(check.value("serverCalls").toInteger(), served);
    }

    // CLIENT PAUSE 500 mid-run: no failure, the pause is the maximum latency
    // (at least the 500 ms).
    void clientPauseShowsInMaxLatency()
    {
        RedisServer server;
        TACHO_VERIFY_STARTED(server);
        const QString run = path("pause.json");
        BackgroundCli cli(faultRedisBenchmark(server.port()) << "-t" << "get" << "-c" << "4" << "--duration" << "2" << "--json" << run);
        QVERIFY(startAndWaitForTraffic(cli, server, "get"));
        QCOMPARE(server.commandString({ "CLIENT", "PAUSE", "500" }), std::optional<QString>("OK"));
        const CliResult r = cli.finish(kHangMs);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        const double maxMs = test.value("latencyMs").toObject().value("max").toDouble();
        QVERIFY2(maxMs >= 400, qPrintable(QString("max latency %1 ms").arg(maxMs)));
        QVERIFY2(test.value("crossCheck").toObject().value("agrees").toBool(),
                 qPrintable(QJsonDocument(test.value("crossCheck").toObject()).toJson()));
    }

    // A stall longer than --reply-timeout with --reconnect-on-error: the
    // stalled connections are given up, counted, and reconnected; the run
    // completes, and the server's count is bracketed by ours.
    void stallBeyondReplyTimeoutReconnects()
    {
        RedisServer server(debugOptions());
        TACHO_VERIFY_STARTED(server);
        const QString run = path("stall-reconnect.json");
        BackgroundCli cli(faultMemtier(server.port()) << "--test-time=3" << "--reply-timeout=0.4" << "--reconnect-on-error"
                                                      << "--json" << run);
        QVERIFY(startAndWaitForTraffic(cli, server, "set"));
        const auto slept = server.command({ "DEBUG", "SLEEP", "1.2" });
        QVERIFY2(!slept.isError(), qPrintable(slept.describe()));
        const CliResult r = cli.finish(kHangMs);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QVERIFY2(r.out.contains("reply timeouts"), qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(test.value("status").toString(), QString("completed"));
        const qint64 timeouts = integerOf(test, "replyTimeouts");
        QVERIFY2(timeouts >= 2, qPrintable(QJsonDocument(test).toJson()));
        QVERIFY(integerOf(test, "connectErrors") >= timeouts);
        QVERIFY(integerOf(test, "reconnects") >= timeouts);
        QVERIFY(integerOf(test, "unanswered") >= timeouts);
        const qint64 requests = integerOf(test, "requests");
        const qint64 served = qint64(server.commandStatsCalls().value("set"));
        QVERIFY2(served >= requests && served <= requests + integerOf(test, "unanswered"),
                 qPrintable(QString("server %1, answered %2, unanswered %3").arg(served).arg(requests).arg(integerOf(test, "unanswered"))));
    }
};

QTEST_GUILESS_MAIN(TestFaultsStalls)
#include "test_faults_stalls.moc"
