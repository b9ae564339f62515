// Faults (issue #8), a real server that refuses work: --maxclients (with and
// without a password), OOM under --maxmemory, a read-only replica, NOAUTH. Each
// run ends with a specific message, its run file on disk and errors counted by
// kind, consistent with the server's own count.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "support/cli_runner.h"
#include "support/fault_checks.h"
#include "support/redis_server.h"
#include "support/run_file_json.h"
#include "support/verify_started.h"

using namespace tacho::test;

class TestFaultsRefusals : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // --maxclients 5 and -c 20: the run fails and says why; the server's
    // refusal ("-ERR max number of clients reached", sent before it closes) is
    // not the answer to a request.
    void maxClientsReachedIsNamed()
    {
        RedisServer server({ .extraArgs = QStringList { "--maxclients", "5" } });
        TACHO_VERIFY_STARTED(server);
        const QString run = path("maxclients.json");
        const CliResult r = runCli(faultRedisBenchmark(server.port()) << "-t" << "set" << "-c" << "20" << "-n" << "2000"
                                                                 << "--json" << run, 20000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(readRunFileJson(run).value("status").toString(), QString("failed"));
        QVERIFY2(r.err.contains("max number of clients reached"), qPrintable(describeCliResult(r)));
        const qint64 served = qint64(server.commandStatsCalls().value("set"));
        const QJsonObject test = firstTestInRunFile(run);
        QVERIFY2(integerOf(test, "requests") <= served,
                 qPrintable(QString("%1 replies counted, the server ran %2 SETs").arg(integerOf(test, "requests")).arg(served)));
    }

    // The same with a password: the refusal is the reply to AUTH.
    void maxClientsReachedIsNotAnAuthenticationFailure()
    {
        RedisServer server({ .extraArgs = QStringList { "--maxclients", "5" }, .password = "pw-maxclients" });
        TACHO_VERIFY_STARTED(server);
        const CliResult r = runCli(faultRedisBenchmark(server.port()) << "-a" << "pw-maxclients" << "-t" << "set" << "-c" << "20"
                                                                 << "-n" << "2000", 20000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describeCliResult(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("max number of clients reached"), qPrintable(describeCliResult(r)));
        QVERIFY2(!r.err.contains("authentication failed"), qPrintable(describeCliResult(r)));
    }

    // OOM under --maxmemory with noeviction: error replies counted by kind,
    // the run completes, the server's count (rejected calls included) agrees.
    void oomRepliesAreCountedByKind()
    {
        RedisServer server({ .extraArgs = QStringList { "--maxmemory", "1mb", "--maxmemory-policy", "noeviction" } });
        TACHO_VERIFY_STARTED(server);
        const QString run = path("oom.json");
        const CliResult r = runCli(faultRedisBenchmark(server.port()) << "-t" << "set" << "-d" << "20000" << "-r" << "100000"
                                                                 << "-n" << "500" << "-c" << "4" << "--json" << run, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(integerOf(test, "requests"), 500);
        const qint64 oom = test.value("errorsByKind").toObject().value("OOM").toInteger();
        QVERIFY2(oom > 0, qPrintable(QJsonDocument(test.value("errorsByKind").toObject()).toJson()));
        QCOMPARE(integerOf(test, "errors"), oom);
        QVERIFY(test.value("firstErrors").toArray().at(0).toString().startsWith("OOM"));
        const QJsonObject check = test.value("crossCheck").toObject();
        QVERIFY2(check.value("agrees").toBool(), qPrintable(QJsonDocument(check).toJson()));
        QCOMPARE(qint64(server.commandStatsCalls().value("set")), 500);
    }

    // SET against a read-only replica: every reply is READONLY, counted.
    void readonlyReplicaRepliesAreCounted()
    {
        RedisServer master;
        TACHO_VERIFY_STARTED(master);
        RedisServer replica({ .extraArgs = QStringList { "--replicaof", "127.0.0.1", QString::number(master.port()) } });
        TACHO_VERIFY_STARTED(replica);
        QTRY_COMPARE_WITH_TIMEOUT(replica.info("replication").value("master_link_status"), QString("up"), 20000);

        const QString run = path("readonly.json");
        const CliResult r = runCli(faultRedisBenchmark(replica.port()) << "-t" << "set" << "-n" << "300" << "-c" << "2"
                                                                  << "--json" << run, 20000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QJsonObject test = firstTestInRunFile(run);
        QCOMPARE(integerOf(test, "requests"), 300);
        QCOMPARE(test.value("errorsByKind").toObject().value("READONLY").toInteger(), 300);
        QVERIFY2(test.value("crossCheck").toObject().value("agrees").toBool(),
                 qPrintable(QJsonDocument(test.value("crossCheck").toObject()).toJson()));
        QCOMPARE(master.commandStatsCalls().value("set"), 0u);
    }

    // NOAUTH: fails before any traffic with a message that says what to do,
    // in the dialect's own words; the failed run is still saved.
    void noauthIsSpecificAndSaved()
    {
        RedisServer server({ .password = "needs-a-password" });
        TACHO_VERIFY_STARTED(server);
        const QString run = path("noauth.json");
        const CliResult r = runCli(faultMemtier(server.port()) << "-n" << "100" << "--json" << run, 20000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("NOAUTH") && r.err.contains("requires authentication") && r.err.contains("-a"),
                 qPrintable(describeCliResult(r)));
        const QJsonObject file = readRunFileJson(run);
        QCOMPARE(file.value("status").toString(), QString("failed"));
        QVERIFY(file.value("failure").toString().contains("NOAUTH"));
        QCOMPARE(server.commandStatsCalls().value("set"), 0u);
        // memtier has no --user: the advice names what it has.
        QVERIFY2(!r.err.contains("--user"), qPrintable(describeCliResult(r)));
        QVERIFY2(r.err.contains("-a USER:PASSWORD"), qPrintable(describeCliResult(r)));
        // redis-benchmark's words are its own.
        const CliResult rb = runCli(faultRedisBenchmark(server.port()) << "-t" << "set" << "-n" << "10", 20000);
        QCOMPARE(rb.exitCode, 1);
        QVERIFY2(rb.err.contains("NOAUTH") && rb.err.contains("give a password with -a") && rb.err.contains("--user"),
                 qPrintable(describeCliResult(rb)));
    }
};

QTEST_GUILESS_MAIN(TestFaultsRefusals)
#include "test_faults_refusals.moc"
