// redis-benchmark's report layouts (Full, Quiet, CSV) reproduced from
// synthetic results whose histogram buckets are worked out by hand.
#include <QtTest>

#include <string>

#include "engine/report/redis_benchmark_report.h"

using namespace tacho::engine;

namespace {

// 11 values: 0.095 ms, 5 × 0.25 ms, 3 × 0.3 ms, 1.5 ms, 2.5 ms; 0.25 s.
TestResult sampleTest()
{
    TestResult t;
    t.name = "SET";
    t.commandStatName = "set";
    t.requests = 11;
    t.seconds = 0.25;
    t.latency.record(95'000);
    t.latency.recordN(250'000, 5);
    t.latency.recordN(300'000, 3);
    t.latency.record(1'500'000);
    t.latency.record(2'500'000);
    t.clientGap.record(12'000);
    t.clientGap.record(14'000);
    t.crossCheck.available = true;
    t.crossCheck.command = "set";
    t.crossCheck.serverCalls = 11;
    t.crossCheck.clientRequests = 11;
    return t;
}

Environment sampleEnvironment()
{
    Environment e;
    e.serverConfig["save"] = "";
    e.serverConfig["appendonly"] = "no";
    return e;
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

} // namespace

class TestRedisBenchmarkReport : public QObject {
    Q_OBJECT
private slots:
    void fullReportLayout()
    {
        RunConfig config;   // 50 clients, 3 bytes, keep-alive, 1 thread
        const std::string got = formatTestReport(sampleTest(), config, sampleEnvironment(), ReportStyle::Full);
        // Bucket highest-equivalent values (512 ns slots below 1.05 ms, 1 µs
        // and 2 µs slots above), capped at the exact maximum of 2.5 ms.
        const std::string want =
            "====== SET ======\n"
            "  11 requests completed in 0.25 seconds\n"
            "  50 parallel clients\n"
            "  3 bytes payload\n"
            "  keep alive: 1\n"
            "  host configuration \"save\": \n"
            "  host configuration \"appendonly\": no\n"
            "  multi-thread: no\n"
            "\n"
            "Latency by percentile distribution:\n"
            "0.000% <= 0.095 milliseconds (cumulative count 1)\n"
            "50.000% <= 0.250 milliseconds (cumulative count 6)\n"
            "75.000% <= 0.300 milliseconds (cumulative count 9)\n"
            "87.500% <= 1.500 milliseconds (cumulative count 10)\n"
            "93.750% <= 2.500 milliseconds (cumulative count 11)\n"
            "100.000% <= 2.500 milliseconds (cumulative count 11)\n"
            "\n"
            "Cumulative distribution of latencies:\n"
            "9.091% <= 0.100 milliseconds (cumulative count 1)\n"
            "81.818% <= 0.300 milliseconds (cumulative count 9)\n"
            "90.909% <= 1.500 milliseconds (cumulative count 10)\n"
            "100.000% <= 3.101 milliseconds (cumulative count 11)\n"
            "\n"
            "Summary:\n"
            "  throughput summary: 44.00 requests per second\n"
            "  latency summary (msec):\n"
            "          avg       min       p50       p95       p99       max\n"
            "        0.568     0.095     0.250     2.500     2.500     2.500\n"
            "  p99.9 latency (msec): 2.500\n"
            "  client gap between reply and next send (avg msec): 0.013\n"
            "  server cross-check: INFO commandstats agrees (set: 11 calls)\n";
        QCOMPARE(QString::fromStdString(got), QString::fromStdString(want));
    }

    void fullReportExtras()
    {
        RunConfig config;
        config.connections = 8;
        config.valueSize = 100;
        config.keepAlive = false;
        config.threads = 4;
        TestResult t = sampleTest();
        t.errors = 3;
        t.errorsByKind = { { "WRONGTYPE", 2 }, { "ERR", 1 } };
        t.firstErrors = { "WRONGTYPE Operation against a key holding the wrong kind of value" };
        t.connectErrors = 2;
        t.reconnects = 5;
        t.crossCheck.serverCalls = 12;
        Environment environment;   // CONFIG GET unavailable: no host configuration lines
        const std::string got = formatTestReport(t, config, environment, ReportStyle::Full);
        QVERIFY(contains(got, "  8 parallel clients\n  100 bytes payload\n  keep alive: 0\n"
                              "  multi-thread: yes\n  threads: 4\n\n"));
        QVERIFY(!contains(got, "host configuration"));
        QVERIFY(contains(got, "  error replies: 3 (ERR: 1, WRONGTYPE: 2)\n"));
        QVERIFY(contains(got, "  first errors:\n    WRONGTYPE Operation against a key holding the wrong kind of value\n"));
        QVERIFY(contains(got, "  connect errors: 2, reconnects: 5\n"));
        QVERIFY(contains(got, "  server cross-check: MISMATCH — server counted 12 set calls, Tacho counted 11 replies\n"));
        QVERIFY(got.ends_with("replies\n"));
    }

    void cumulativeStartsAtZeroAndWidensAfterTwoMs()
    {
        // All values at 10 ms: the first 0.1 ms step prints a zero count (as
        // redis-benchmark does), then nothing until the 1 ms step that reaches
        // 100% (0.1 ms steps up to 2.0, then 2.1, 3.1, … 10.1 ms).
        TestResult t;
        t.name = "GET";
        t.requests = 4;
        t.seconds = 1;
        t.latency.recordN(10'000'000, 4);
        const std::string got = formatTestReport(t, RunConfig {}, Environment {}, ReportStyle::Full);
        QVERIFY(contains(got, "Cumulative distribution of latencies:\n"
                              "0.000% <= 0.100 milliseconds (cumulative count 0)\n"
                              "100.000% <= 10.101 milliseconds (cumulative count 4)\n\nSummary:\n"));
        QVERIFY(contains(got, "Latency by percentile distribution:\n"
                              "0.000% <= 10.000 milliseconds (cumulative count 4)\n"
                              "100.000% <= 10.000 milliseconds (cumulative count 4)\n\n"));
    }

    void percentileLinesHalveTheDistance()
    {
        // 1..1000 µs: every tick lands in a new bucket, so every tick prints.
        TestResult t;
        t.name = "PING_INLINE";
        t.requests = 1000;
        t.seconds = 1;
        for (std::uint64_t us = 1; us <= 1000; ++us)
            t.latency.record(us * 1000);
        const std::string got = formatTestReport(t, RunConfig {}, Environment {}, ReportStyle::Full);
        for (const char* line : { "\n0.000% <= 0.001 milliseconds (cumulative count 1)\n",
                                  "\n50.000% <= 0.500 milliseconds (cumulative count 500)\n",
                                  "\n75.000% <= 0.750 milliseconds (cumulative count 750)\n",
                                  "\n87.500% <= 0.875 milliseconds (cumulative count 875)\n",
                                  "\n93.750% <= 0.938 milliseconds (cumulative count 938)\n",
                                  "\n99.805% <= 0.999 milliseconds (cumulative count 999)\n"
                                  "99.902% <= 1.000 milliseconds (cumulative count 1000)\n",
                                  "\n100.000% <= 1.000 milliseconds (cumulative count 1000)\n\n" })
            QVERIFY2(contains(got, line), line);
        QVERIFY(contains(got, "\n10.000% <= 0.100 milliseconds (cumulative count 100)\n"
                              "20.000% <= 0.200 milliseconds (cumulative count 200)\n"));
    }

    void emptyResult()
    {
        TestResult t;
        t.name = "LPUSH";
        const std::string got = formatTestReport(t, RunConfig {}, Environment {}, ReportStyle::Full);
        QVERIFY(contains(got, "  0 requests completed in 0.00 seconds\n"));
        QVERIFY(contains(got, "Latency by percentile distribution:\n\nCumulative distribution of latencies:\n\nSummary:\n"));
        QVERIFY(contains(got, "  throughput summary: 0.00 requests per second\n"));
        QVERIFY(contains(got, "        0.000     0.000     0.000     0.000     0.000     0.000\n"));
        QVERIFY(!contains(got, "client gap"));
        QVERIFY(contains(got, "  server cross-check: not checked ("));
        QCOMPARE(QString::fromStdString(formatTestReport(t, RunConfig {}, Environment {}, ReportStyle::Quiet)),
                 QStringLiteral("LPUSH: 0.00 requests per second, p50=0.000 msec\n"));
    }

    void quietLine()
    {
        const std::string got = formatTestReport(sampleTest(), RunConfig {}, sampleEnvironment(), ReportStyle::Quiet);
        QCOMPARE(QString::fromStdString(got), QStringLiteral("SET: 44.00 requests per second, p50=0.250 msec\n"));
        const std::string coarse = formatTestReport(sampleTest(), RunConfig {}, sampleEnvironment(), ReportStyle::Quiet, 1);
        QCOMPARE(QString::fromStdString(coarse), QStringLiteral("SET: 44.00 requests per second, p50=0.3 msec\n"));
    }

    void csvHeaderAndRow()
    {
        QCOMPARE(QString::fromStdString(csvHeader()),
                 QStringLiteral("\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\","
                                "\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"\n"));
        const std::string row = formatTestReport(sampleTest(), RunConfig {}, sampleEnvironment(), ReportStyle::Csv);
        QCOMPARE(QString::fromStdString(row),
                 QStringLiteral("\"SET\",\"44.00\",\"0.568\",\"0.095\",\"0.250\",\"2.500\",\"2.500\",\"2.500\"\n"));
    }

    void csvQuoting()
    {
        TestResult t = sampleTest();
        t.name = "say \"hi\", twice";
        const std::string row = formatTestReport(t, RunConfig {}, Environment {}, ReportStyle::Csv);
        QVERIFY(row.starts_with("\"say \"\"hi\"\", twice\",\"44.00\","));
    }

    void quietAndCsvHaveNoExtras()
    {
        TestResult t = sampleTest();
        t.errors = 1;
        t.errorsByKind = { { "ERR", 1 } };
        for (ReportStyle style : { ReportStyle::Quiet, ReportStyle::Csv }) {
            const std::string got = formatTestReport(t, RunConfig {}, Environment {}, style);
            QVERIFY(!contains(got, "cross-check"));
            QVERIFY(!contains(got, "error"));
            QCOMPARE(std::count(got.begin(), got.end(), '\n'), 1);
        }
    }

    void crossCheckLines()
    {
        TestResult t;
        t.commandStatName = "set";
        t.crossCheck.available = true;
        t.crossCheck.command = "set";
        t.crossCheck.serverCalls = 100'000;
        t.crossCheck.clientRequests = 100'000;
        QCOMPARE(QString::fromStdString(formatCrossCheck(t)),
                 QStringLiteral("server cross-check: INFO commandstats agrees (set: 100000 calls)\n"));
        t.crossCheck.clientRequests = 99'990;
        QCOMPARE(QString::fromStdString(formatCrossCheck(t)),
                 QStringLiteral("server cross-check: MISMATCH — server counted 100000 set calls, "
                                "Tacho counted 99990 replies\n"));
        t.crossCheck.available = false;
        const std::string unavailable = formatCrossCheck(t);
        QVERIFY(unavailable.starts_with("server cross-check: not checked ("));
        QVERIFY(unavailable.ends_with(")\n"));
    }

    void progressLine()
    {
        QCOMPARE(QString::fromStdString(formatProgress("SET", 123456.04, 120000, 0.2451, 0.2509)),
                 QStringLiteral("SET: rps=123456.0 (overall: 120000.0) avg_msec=0.245 (overall: 0.251)"));
    }
};

QTEST_GUILESS_MAIN(TestRedisBenchmarkReport)
#include "test_redis_benchmark_report.moc"
