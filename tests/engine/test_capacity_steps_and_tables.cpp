// Capacity search and sweep (issue #7), around the search: the step
// configurations the engine runner makes, the CLI's numbers, the sweep table's
// text and CSV.
#include <QtTest>

#include <cmath>
#include <map>

#include "engine/cli/capacity_command.h"
#include "engine/report/sweep_table.h"
#include "engine/run/capacity_search.h"

using namespace tacho::engine;

class TestCapacityStepsAndTables : public QObject {
    Q_OBJECT

private slots:
    void runnerConfiguresEachStep()
    {
        RunConfig base;
        base.connections = 50;
        base.threads = 4;
        base.pipeline = 1;
        base.requests = 100000;
        base.ratePerConnection = 10;
        base.rampStartConnections = 5;
        base.rampStep = 5;
        base.rampStepSeconds = 1;
        base.tests.resize(3);
        base.tests[0].name = "SET";

        RunControllerStepRunner rate(base, CapacityDimension::Rate, 2.5, 0.5);
        RunConfig c = rate.configFor(12000);
        QCOMPARE(c.rate, 12000.0);
        QCOMPARE(c.ratePerConnection, 0.0);
        QCOMPARE(c.requests, std::uint64_t(0));
        QCOMPARE(c.durationSeconds, 2.5);
        QCOMPARE(c.warmupSeconds, 0.5);
        QCOMPARE(c.tests.size(), std::size_t(3));   // every test of the workload, judged together (issue 28)
        QCOMPARE(QString::fromStdString(c.tests[0].name), QStringLiteral("SET"));
        QCOMPARE(c.rampStep, 0);

        RunControllerStepRunner connections(base, CapacityDimension::Connections, 1, 0);
        c = connections.configFor(2);
        QCOMPARE(c.connections, 2);
        QCOMPARE(c.threads, 2);   // never more threads than connections

        RunControllerStepRunner threads(base, CapacityDimension::Threads, 1, 0);
        QCOMPARE(threads.configFor(8).threads, 8);
        QCOMPARE(threads.configFor(8).connections, 50);
        threads.setConnectionsPerThread(25);   // memtier: threads × clients
        QCOMPARE(threads.configFor(8).connections, 200);

        RunControllerStepRunner pipeline(base, CapacityDimension::Pipeline, 1, 0);
        QCOMPARE(pipeline.configFor(16).pipeline, 16);

        // A stop before anything ran: every step returns Stopped at once.
        rate.requestStop();
        const CapacityMeasurement m = rate.runStep(1000, 1);
        QCOMPARE(m.status, RunStatus::Stopped);
        QVERIFY(rate.stepTests().empty());
    }

    void scaledNumbers()
    {
        double v = 0;
        QVERIFY(parseScaledNumber("2.5k", &v));
        QCOMPARE(v, 2500.0);
        QVERIFY(parseScaledNumber("1M", &v));
        QCOMPARE(v, 1e6);
        QVERIFY(parseScaledNumber("40", &v));
        QCOMPARE(v, 40.0);
        QVERIFY(!parseScaledNumber("k", &v));
        QVERIFY(!parseScaledNumber("12x", &v));
        QVERIFY(!parseScaledNumber("", &v));
    }

    // ---- sweep tables ----

    void sweepTableHasTheSeedsShape()
    {
        SweepTable table;
        table.settingColumns = { "Connections", "TLS" };
        const auto row = [](std::string connections, std::string tls, double qps, double avg, double p99, double p999) {
            SweepRow r;
            r.settings = { std::move(connections), std::move(tls) };
            r.test = "SET";
            r.qps = qps;
            r.avgMs = avg;
            r.p99Ms = p99;
            r.p999Ms = p999;
            r.requests = 1000;
            r.crossCheck.available = true;
            r.crossCheck.serverCalls = 1000;
            r.crossCheck.clientRequests = 1000;
            return r;
        };
        table.rows.push_back(row("1000", "off", 322899.21, 2.661, 4.319, 8.511));
        table.rows.push_back(row("10000", "on", 111913.19, 57.537, 96.767, 121.343));
        SweepRow failed;
        failed.settings = { "3000", "on" };
        failed.status = RunStatus::Failed;
        failed.failure = "TLS handshake failed, \"bad\"";
        table.rows.push_back(failed);

        const QString text = QString::fromStdString(formatSweepTable(table));
        const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].startsWith("Connections  TLS"));
        QVERIFY(lines[0].contains("QPS"));
        QVERIFY(lines[0].contains("Average Latency (ms)"));
        QVERIFY(lines[0].contains("99th-Percentile Latency (ms)"));
        QVERIFY(lines[0].contains("99.9th-Percentile Latency (ms)"));
        QVERIFY(lines[1].contains("322,899.21"));
        QVERIFY(lines[1].contains("2.661"));
        QVERIFY(lines[1].contains("8.511"));
        QVERIFY(lines[1].contains("agrees"));
        QVERIFY(lines[2].startsWith("10000"));
        QVERIFY(lines[2].contains("111,913.19"));
        QVERIFY(lines[3].contains("failed: TLS handshake failed"));
        QVERIFY(!lines[0].contains("Test"));   // one test per setting: no Test column

        const QString csv = QString::fromStdString(sweepTableCsv(table));
        const QStringList rows = csv.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 4);
        QVERIFY(rows[0].startsWith("connections,tls,qps,avg_ms,p50_ms,p99_ms,p999_ms,max_ms,requests"));
        QVERIFY(rows[1].startsWith("1000,off,322899.21,2.661,"));
        QVERIFY(rows[1].contains(",1000,true,completed,"));
        QVERIFY(rows[3].endsWith("\"TLS handshake failed, \"\"bad\"\"\""));

        table.showTest = true;
        QVERIFY(QString::fromStdString(formatSweepTable(table)).split('\n')[0].contains("Test"));
        QVERIFY(QString::fromStdString(sweepTableCsv(table)).startsWith("connections,tls,test,qps"));
    }

    void sweepRowFromATest()
    {
        TestResult t;
        t.name = "GET";
        t.requests = 2000;
        t.seconds = 2;
        t.warmupRequests = 10;
        for (int i = 0; i < 100; ++i)
            t.latency.record(1'000'000);   // 1 ms
        const SweepRow row = sweepRowFromTest({ "50" }, t);
        QCOMPARE(row.qps, 1000.0);
        QVERIFY(std::fabs(row.avgMs - 1.0) < 0.01);
        QVERIFY(std::fabs(row.p99Ms - 1.0) < 0.01);
        QCOMPARE(row.warmupRequests, std::uint64_t(10));
        QCOMPARE(QString::fromStdString(row.test), QStringLiteral("GET"));
    }
};

QTEST_APPLESS_MAIN(TestCapacityStepsAndTables)
#include "test_capacity_steps_and_tables.moc"
