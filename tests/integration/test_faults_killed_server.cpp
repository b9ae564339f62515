// Faults (issue #8), a real server killed under a running tacho-cli: without
// reconnect the run fails at once and saves; with bounded reconnects it gives
// up naming the attempts; restarted on its port, a reconnecting run goes on.
// The server is hurt once it has counted traffic, not after a time, and what
// is checked is what the run file and the servers recorded (issue 18).
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

#include "support/background_cli.h"
#include "support/fault_checks.h"
#include "support/redis_server.h"
#include "support/run_file_json.h"
#include "support/verify_started.h"

using namespace tacho::test;

namespace {

constexpr int kHangMs = 20000;   // only a hang takes this long

// The server has run `atLeast` SETs of the run: its traffic flows.
bool hasSets(const RedisServer& server, quint64 atLeast = 1)
{
    return server.commandStatsCalls().value("set") >= atLeast;
}

} // namespace

class TestFaultsKilledServer : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Without --reconnect-on-error the first lost connection ends the run at
    // once: exit 1, a message naming the server and the reason, the run file
    // (status failed, the partial data) and memtier's JSON on disk. "At once":
    // the test ended before its 6 s, by the failure, not by the clock.
    void killedWithoutReconnectFailsAtOnceAndSaves()
    {
        RedisServer server;
        TACHO_VERIFY_STARTED(server);
        const QString run = path("killed.json");
        const QString memtierJson = path("killed-memtier.json");
        BackgroundCli cli(faultMemtier(server.port()) << "--test-time=6" << "--json" << run << "--json-out-file" << memtierJson);
        QVERIFY(cli.started());
        QVERIFY(cli.waitUntil([&] { return hasSets(server); }, kHangMs));
        QCOMPARE(::kill(static_cast<pid_t>(server.pid()), SIGKILL), 0);
        const CliResult r = cli.finish(kHangMs);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(saysConnectionLost(r.err, server.port()), qPrintable(describeCliResult(r)));

        const QJsonObject file = readRunFileJson(run);
        QCOMPARE(file.value("status").toString(), QString("failed"));
        QVERIFY2(file.value("failure").toString().contains("lost"), qPrintable(file.value("failure").toString()));
        const QJsonObject test = file.value("tests").toArray().at(0).toObject();
        QCOMPARE(test.value("status").toString(), QString("failed"));
        QVERIFY2(test.value("seconds").toDouble() < 6, qPrintable(QString::number(test.value("seconds").toDouble())));
        QVERIFY(integerOf(test, "requests") > 0);
        QCOMPARE(sumOfIntervals(test, "requests"), integerOf(test, "requests"));
        QVERIFY(integerOf(test, "connectErrors") >= 1);

        const QJsonObject memtierRun = readRunFileJson(memtierJson).value("tacho").toObject().value("runs").toArray().at(0).toObject();
        QCOMPARE(memtierRun.value("status").toString(), QString("failed"));
        QVERIFY(memtierRun.value("failure").toString().contains("lost"));
    }

    // With --reconnect-on-error and a bounded number of attempts: the run
    // tries, then fails naming the attempts, before its 6 s are up; the file
    // counts the losses.
    void killedWithBoundedReconnectGivesUp()
    {
        RedisServer server;
        TACHO_VERIFY_STARTED(server);
        const QString run = path("gave-up.json");
        BackgroundCli cli(faultMemtier(server.port()) << "--test-time=6" << "--reconnect-on-error"
                                                      << "--max-reconnect-attempts=3" << "--json" << run);
        QVERIFY(cli.started());
        QVERIFY(cli.waitUntil([&] { return hasSets(server); }, kHangMs));
        QCOMPARE(::kill(static_cast<pid_t>(server.pid()), SIGKILL), 0);
        const CliResult r = cli.finish(kHangMs);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("cannot connect to 127.0.0.1:%1: Connection refused (after 3 reconnect attempts)")
                                    .arg(server.port()).toUtf8()),
                 qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(test.value("status").toString(), QString("failed"));
        QVERIFY2(test.value("seconds").toDouble() < 6, qPrintable(QString::number(test.value("seconds").toDouble())));
        QVERIFY2(integerOf(test, "connectErrors") >= 4, qPrintable(QString::number(integerOf(test, "connectErrors"))));
        QVERIFY(integerOf(test, "reconnects") >= 3);
        QVERIFY(integerOf(test, "requests") > 0);
    }

    // Killed and restarted on the same port while a reconnecting run goes on:
    // the run completes, the losses and reconnects are counted, and in the
    // series the losses come before the traffic the new server answered.
    void killedAndRestartedRunContinues()
    {
        RedisServer server;
        TACHO_VERIFY_STARTED(server);
        const quint16 port = server.port();
        const QString run = path("restarted.json");
        BackgroundCli cli(faultMemtier(port) << "--test-time=4" << "--reconnect-on-error" << "--json" << run);
        QVERIFY(cli.started());
        QVERIFY(cli.waitUntil([&] { return hasSets(server, 100); }, kHangMs));
        QCOMPARE(::kill(static_cast<pid_t>(server.pid()), SIGKILL), 0);
        RedisServer restarted({ .port = port });
        TACHO_VERIFY_STARTED(restarted);
        QVERIFY2(cli.waitUntil([&] { return hasSets(restarted); }, kHangMs), "the run did not come back to the restarted server");
        const CliResult r = cli.finish(kHangMs);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QVERIFY2(QString::fromUtf8(r.out).contains(QRegularExpression(R"(connections: \d+ lost or failed, \d+ reconnects)")),
                 qPrintable(describeCliResult(r)));

        const QJsonObject file = readRunFileJson(run);
        QCOMPARE(file.value("status").toString(), QString("completed"));
        const QJsonObject test = file.value("tests").toArray().at(0).toObject();
        QVERIFY2(integerOf(test, "connectErrors") >= 2, qPrintable(QString::number(integerOf(test, "connectErrors"))));
        QVERIFY2(integerOf(test, "reconnects") >= 2, qPrintable(QString::number(integerOf(test, "reconnects"))));
        QCOMPARE(sumOfIntervals(test, "requests"), integerOf(test, "requests"));
        QCOMPARE(sumOfIntervals(test, "connectErrors"), integerOf(test, "connectErrors"));
        QCOMPARE(sumOfIntervals(test, "reconnects"), integerOf(test, "reconnects"));
        // In order: answered requests (the old server's, up to the interval of the first
        // loss), the losses and failed reconnects, answered requests again. Every request
        // answered after the last loss was the new server's.
        const QJsonArray intervals = test.value("intervals").toArray();
        qsizetype firstLoss = -1, lastLoss = -1;
        for (qsizetype i = 0; i < intervals.size(); ++i) {
            if (integerOf(intervals.at(i).toObject(), "connectErrors") > 0) {
                firstLoss = firstLoss < 0 ? i : firstLoss;
                lastLoss = i;
            }
        }
        QVERIFY(firstLoss >= 0);
        qint64 before = 0, after = 0;
        for (qsizetype i = 0; i < intervals.size(); ++i) {
            if (i <= firstLoss)   // the old server's answers, up to the interval it died in
                before += integerOf(intervals.at(i).toObject(), "requests");
            else if (i > lastLoss)
                after += integerOf(intervals.at(i).toObject(), "requests");
        }
        QVERIFY2(before > 0 && after > 0, qPrintable(QString("%1 up to the first loss, %2 after the last").arg(before).arg(after)));
        const quint64 served = restarted.commandStatsCalls().value("set");
        QVERIFY2(served >= quint64(after) && served <= quint64(integerOf(test, "requests") + integerOf(test, "unanswered")),
                 qPrintable(QString("restarted server counted %1 SETs; %2 answered after the losses, %3 in all")
                                .arg(served).arg(after).arg(integerOf(test, "requests"))));
    }
};

QTEST_GUILESS_MAIN(TestFaultsKilledServer)
#include "test_faults_killed_server.moc"
