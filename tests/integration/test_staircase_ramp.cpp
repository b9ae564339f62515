// Issue 17: a staircase ramp (memtier's --clients-start/--clients-step/
// --step-duration) opens each step's connections when the step starts, as
// memtier does, instead of opening all of them at the start and only holding
// back their requests. Checked against what the engine recorded per interval
// and what a real redis-server counted; no elapsed-time assertions.
#include <QtTest>

#include <mutex>

#include "engine/run/run_controller.h"
#include "engine/workload/benchmark_suite.h"
#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "support/run_config_for.h"
#include "support/run_file_json.h"

using namespace tacho::engine;
using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

class TestStaircaseRamp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    // 3 connections, then +2 every 0.5 s up to 7. The connections recorded
    // per interval climb from 3 to 7 and never fall while the test runs, and
    // never exceed the steps begun by the interval's start (the two threads
    // open a step's connections a moment apart, so 6 can show between 5
    // and 7); the
    // server's own client count (INFO clients, sampled at each snapshot)
    // starts below the full 7 and never falls either; the server accepted
    // exactly 7 benchmark connections.
    void connectionsOpenStepByStep()
    {
        RunConfig config = tacho::test::runConfigFor(m_server);
        config.tests = redisBenchmarkSuite("set", 3, 0);
        config.connections = 7;
        config.threads = 2;
        config.requests = 0;
        config.durationSeconds = 1.5;
        config.rampStartConnections = 3;
        config.rampStep = 2;
        config.rampStepSeconds = 0.5;

        const quint64 acceptedBefore = m_server.info("stats").value("total_connections_received").toULongLong();
        std::mutex mutex;
        std::vector<qint64> serverClients;   // INFO clients at each snapshot, minus the probe and this INFO
        int infoCalls = 0;
        RunController controller(config);
        controller.onSnapshot([&](std::shared_ptr<const IntervalSnapshot> snapshot) {
            if (snapshot->warmup || snapshot->elapsedSeconds >= config.durationSeconds || infoCalls >= 100)
                return;
            const qint64 connected = m_server.info("clients").value("connected_clients").toLongLong();
            std::lock_guard lock(mutex);
            ++infoCalls;
            serverClients.push_back(connected - 2);
        });
        const RunResult result = controller.run();
        QVERIFY2(result.status == RunStatus::Completed, result.failure.c_str());
        const TestResult& test = result.tests.at(0);

        std::vector<std::uint64_t> recorded;
        std::vector<std::uint64_t> scheduled;   // connections whose step began by the interval's start
        for (const IntervalPoint& point : test.intervals) {
            if (point.startSeconds >= config.durationSeconds)
                break;   // the drain closes connections
            recorded.push_back(point.connections);
            scheduled.push_back(std::min<std::uint64_t>(7, 3 + 2 * std::uint64_t(point.startSeconds / 0.5 + 1e-9)));
        }
        QVERIFY(!recorded.empty());
        QString sequence;
        for (std::size_t i = 0; i < recorded.size(); ++i)
            sequence += QString("%1/%2 ").arg(recorded[i]).arg(scheduled[i]);
        QVERIFY2(recorded.front() == 3, qPrintable(sequence));
        QVERIFY2(recorded.back() == 7, qPrintable(sequence));
        for (std::size_t i = 0; i < recorded.size(); ++i) {
            QVERIFY2(recorded[i] >= 3 && recorded[i] <= scheduled[i], qPrintable(sequence));
            if (i > 0)
                QVERIFY2(recorded[i] >= recorded[i - 1], qPrintable(sequence));
        }

        QVERIFY(!serverClients.empty());
        QString seen;
        for (qint64 n : serverClients)
            seen += QString::number(n) + " ";
        QVERIFY2(serverClients.front() < 7, qPrintable(seen));
        for (std::size_t i = 1; i < serverClients.size(); ++i)
            QVERIFY2(serverClients[i] >= serverClients[i - 1] && serverClients[i] <= 7, qPrintable(seen));

        // 7 benchmark connections, the control connection, and our INFO calls
        // (this test's helper opens one connection per call).
        const quint64 accepted = m_server.info("stats").value("total_connections_received").toULongLong();
        QCOMPARE(accepted - acceptedBefore, quint64(7 + 1 + infoCalls + 1));
        QCOMPARE(m_server.commandStatsCalls().value("set"), test.requests + test.warmupRequests);
    }

    // memtier's JSON: "ALL STATS" has an "Active Clients" section per second
    // with "Clients per thread" and "Total clients" for a ramp (from what
    // the engine recorded), none without one. 2 threads, 1 → 3 clients each.
    void memtierJsonHasActiveClients()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList base { "memtier", "-s", "127.0.0.1", "-p", QString::number(m_server.port()), "-t", "2", "-c", "3",
                                 "--ratio", "1:1", "--hide-histogram" };
        const QString ramped = dir.filePath("ramp.json");
        const quint64 acceptedBefore = m_server.info("stats").value("total_connections_received").toULongLong();
        CliResult r = runCli(base + QStringList { "--test-time", "3", "--clients-start", "1", "--clients-step", "1", "--step-duration", "1",
                                                  "--json-out-file", ramped });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const quint64 accepted = m_server.info("stats").value("total_connections_received").toULongLong() - acceptedBefore;
        const QJsonObject all = tacho::test::readRunFileJson(ramped).value("ALL STATS").toObject();
        const QJsonObject active = all.value("Active Clients").toObject();
        QVERIFY2(!active.isEmpty(), qPrintable(describeCliResult(r)));
        QCOMPARE(active.size(), all.value("Totals").toObject().value("Time-Serie").toObject().size());
        qint64 previous = 0;
        qint64 most = 0;
        for (int second = 0; second < active.size(); ++second) {
            const QJsonObject entry = active.value(QString::number(second)).toObject();
            const qint64 perThread = entry.value("Clients per thread").toInteger(-1);
            const qint64 total = entry.value("Total clients").toInteger(-1);
            QVERIFY2(total == 2 * perThread, qPrintable(QString("second %1: %2 total").arg(second).arg(total)));
            QVERIFY2(perThread >= previous && perThread >= 1 && perThread <= 3,
                     qPrintable(QString("second %1: %2 after %3").arg(second).arg(perThread).arg(previous)));
            previous = perThread;
            most = std::max(most, perThread);
        }
        QCOMPARE(active.value("0").toObject().value("Clients per thread").toInteger(), 1);
        QCOMPARE(most, 3);
        // 6 benchmark connections, Tacho's control connection and the INFO above.
        QCOMPARE(accepted, quint64(6 + 1 + 1));

        const QString flat = dir.filePath("flat.json");
        r = runCli(base + QStringList { "--test-time", "1", "--json-out-file", flat });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QVERIFY(!tacho::test::readRunFileJson(flat).value("ALL STATS").toObject().contains("Active Clients"));
    }

private:
    RedisServer m_server;
};

QTEST_GUILESS_MAIN(TestStaircaseRamp)
#include "test_staircase_ramp.moc"
