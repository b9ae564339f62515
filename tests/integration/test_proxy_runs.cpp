// What users do through a proxy works (issue 16): Debian's twemproxy
// (nutcracker) in front of two real redis-servers closes the connection on
// INFO, CONFIG, CLIENT, HELLO, SELECT, SCAN, … Both dialects, pipelines, a
// custom command, a timed run, a multi-key command the proxy splits, the
// latency monitor and a capacity search complete; the back ends' own
// commandstats sum to exactly what was sent; the run file lists what the
// proxy refused; nothing suggests TLS.
#include <QtTest>

#include "support/cli_runner.h"
#include "support/nutcracker_proxy.h"
#include "support/run_file_json.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::NutcrackerProxy;
using tacho::test::readRunFileJson;
using tacho::test::runCli;

namespace {

QString both(const CliResult& r) { return QString::fromUtf8(r.out + r.err); }

// Requests the run file says reached the server: measured and warm-up, every test.
quint64 requestsInRunFile(const QJsonObject& run)
{
    quint64 sum = 0;
    for (const QJsonValue& test : run.value("tests").toArray())
        sum += quint64(test.toObject().value("requests").toInteger())
            + quint64(test.toObject().value("warmupRequests").toInteger());
    return sum;
}

QString verdictOf(const QJsonObject& run, const QString& probe)
{
    for (const QJsonValue& item : run.value("environment").toObject().value("capabilities").toArray())
        if (item.toObject().value("probe").toString() == probe)
            return item.toObject().value("verdict").toString();
    return QStringLiteral("(not recorded)");
}

// What every run through the proxy must show.
void checkRanThroughProxy(const CliResult& r, const QJsonObject& run)
{
    QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
    QVERIFY2(!both(r).contains("TLS"), qPrintable(describeCliResult(r)));
    QVERIFY2(!both(r).contains("MISMATCH"), qPrintable(describeCliResult(r)));
    QCOMPARE(verdictOf(run, "PING"), QString("allowed"));
    for (const char* probe : { "INFO server", "INFO replication", "CONFIG GET", "CLIENT ID", "HELLO 3", "SELECT", "CLUSTER INFO" })
        QCOMPARE(verdictOf(run, probe), QString("closed"));
    for (const QJsonValue& test : run.value("tests").toArray()) {
        const QJsonObject t = test.toObject();
        QCOMPARE(t.value("status").toString(), QString("completed"));
        QCOMPARE(t.value("reconnects").toInteger(), 0);      // no benchmark connection was lost
        QCOMPARE(t.value("connectErrors").toInteger(), 0);
        QCOMPARE(t.value("errors").toInteger(), 0);
        const QJsonObject check = t.value("crossCheck").toObject();
        QCOMPARE(check.value("available").toBool(), false);
        QVERIFY2(check.value("unavailable").toString().startsWith("the server closed the connection on INFO server"),
                 qPrintable(check.value("unavailable").toString()));
    }
}

} // namespace

class TestProxyRuns : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_proxy.start(&error), qPrintable(error));
    }

    void init() { m_proxy.flushAll(); }

    void redisBenchmarkPipelined()
    {
        QTemporaryDir dir;
        const QString runFile = dir.filePath("run.json");
        const auto before = m_proxy.commandStatsCallsSum();
        const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_proxy.port()), "-t", "set,get", "-n",
                                     "2000", "-c", "10", "-P", "16", "-r", "500", "--json", runFile },
                                   120000);
        const QJsonObject run = readRunFileJson(runFile);
        checkRanThroughProxy(r, run);
        const auto after = m_proxy.commandStatsCallsSum();
        QCOMPARE(after.value("set") - before.value("set"), quint64(2000));
        QCOMPARE(after.value("get") - before.value("get"), quint64(2000));
        QVERIFY2(both(r).contains("server cross-check: not checked (the server closed the connection on INFO server"),
                 qPrintable(describeCliResult(r)));
        QVERIFY2(r.err.contains("environment: server details not recorded"), qPrintable(describeCliResult(r)));
    }

    void customCommand()
    {
        QTemporaryDir dir;
        const QString runFile = dir.filePath("run.json");
        const auto before = m_proxy.commandStatsCallsSum();
        const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_proxy.port()), "-n", "500", "-c", "5",
                                     "-r", "100", "--json", runFile, "HSET", "h:__rand_int__", "f", "v" },
                                   120000);
        checkRanThroughProxy(r, readRunFileJson(runFile));
        QCOMPARE(m_proxy.commandStatsCallsSum().value("hset") - before.value("hset"), quint64(500));
    }

    // MSET of keys on both back ends: the proxy splits it; every key arrives.
    void multiKeyCommandTheProxySplits()
    {
        QTemporaryDir dir;
        const QString runFile = dir.filePath("run.json");
        constexpr int keys = 200;   // spread over both back ends (the fixture's self-test shows it for these names)
        QStringList args { "redis-benchmark", "-p", QString::number(m_proxy.port()), "-n", "50", "-c", "2", "--json",
                           runFile, "MSET" };
        for (int i = 0; i < keys; ++i)
            args << QStringLiteral("issue16:spread:%1").arg(i) << "v";
        const CliResult r = runCli(args, 120000);
        checkRanThroughProxy(r, readRunFileJson(runFile));
        QCOMPARE(m_proxy.dbSizeSum(), static_cast<long long>(keys));
        QVERIFY2(m_proxy.backend(0).dbSize() > 0 && m_proxy.backend(1).dbSize() > 0, "the keys did not spread");
    }

    // The memtier form, timed: the back ends saw what the run file counts.
    void memtierTimed()
    {
        QTemporaryDir dir;
        const QString runFile = dir.filePath("run.json");
        const auto before = m_proxy.commandStatsCallsSum();
        const CliResult r = runCli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(m_proxy.port()), "-t", "2",
                                     "-c", "2", "--test-time", "1", "--ratio", "1:3", "--pipeline", "4",
                                     "--hide-histogram", "--json", runFile },
                                   120000);
        const QJsonObject run = readRunFileJson(runFile);
        checkRanThroughProxy(r, run);
        const auto after = m_proxy.commandStatsCallsSum();
        const quint64 sent = requestsInRunFile(run);
        QVERIFY(sent > 0);
        QCOMPARE(after.value("set") + after.value("get") - before.value("set") - before.value("get"), sent);
    }

    // Cluster mode asked of a proxy: one clear error, no benchmark traffic.
    void clusterModeSaysTheProxyRefusesIt()
    {
        const auto before = m_proxy.commandStatsCallsSum();
        const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_proxy.port()), "-t", "set", "-n", "100",
                                     "--cluster", "-q" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cluster mode needs the cluster commands, but the server closed the connection on "
                                "CLUSTER INFO"),
                 qPrintable(describeCliResult(r)));
        QVERIFY2(!both(r).contains("TLS"), qPrintable(describeCliResult(r)));
        QCOMPARE(m_proxy.commandStatsCallsSum().value("set"), before.value("set"));
    }

    // --cleanup through a proxy without SCAN: the run's results stand, the
    // clean-up says why it removed nothing, and the keys are still there.
    void cleanupSaysTheProxyRefusesScan()
    {
        const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_proxy.port()), "-t", "set", "-n", "100",
                                     "-r", "10", "-q", "--cleanup" });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("SET: ") && r.out.contains("requests per second"), qPrintable(describeCliResult(r)));
        QVERIFY2(r.out.contains("cleanup: nothing removed (127.0.0.1:" + QString::number(m_proxy.port()).toUtf8()
                                + ": the server closed the connection on SCAN"),
                 qPrintable(describeCliResult(r)));
        QVERIFY(m_proxy.dbSizeSum() > 0);
    }

    void latencyMonitor()
    {
        const CliResult r = runCli({ "latency", "-p", QString::number(m_proxy.port()), "--duration", "0.5", "--raw" });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QStringList fields = QString::fromUtf8(r.out).trimmed().split(' ');
        QCOMPARE(fields.size(), 4);
        QVERIFY2(fields[3].toInt() > 0, qPrintable(describeCliResult(r)));
    }

    // A capacity search steps through connections; each step is a run
    // through the proxy, and the back ends saw every request of every step.
    void capacitySearch()
    {
        QTemporaryDir dir;
        const QString runFile = dir.filePath("capacity.json");
        const auto before = m_proxy.commandStatsCallsSum();
        const CliResult r = runCli({ "capacity", "--dimension", "connections", "--from", "1", "--to", "4",
                                     "--step-seconds", "0.3", "--warmup", "0", "--objective", "avg<=10s", "--json",
                                     runFile, "--", "redis-benchmark", "-p", QString::number(m_proxy.port()), "-t",
                                     "set" },
                                   180000);
        const QJsonObject run = readRunFileJson(runFile);
        checkRanThroughProxy(r, run);
        QVERIFY(run.value("tests").toArray().size() >= 2);
        QCOMPARE(m_proxy.commandStatsCallsSum().value("set") - before.value("set"), requestsInRunFile(run));
    }

private:
    NutcrackerProxy m_proxy;
};

QTEST_GUILESS_MAIN(TestProxyRuns)
#include "test_proxy_runs.moc"
