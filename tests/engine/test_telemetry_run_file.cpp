// Issue 19: a test's telemetry goes into the run file and comes back the
// same; files without it (older ones, --no-telemetry) still load.
#include <QtTest/QtTest>

#include <string>

#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"

using namespace tacho::engine;

namespace {

RunResult runWithTelemetry()
{
    RunResult run;
    TestResult test;
    test.name = "SET";
    TestTelemetry& t = test.telemetry;
    t.intervalSeconds = 0.5;
    ServerTelemetry server;
    server.address = "127.0.0.1:7000";
    ServerPoint p;
    p.startSeconds = -0.5;   // warm-up: negative on the test's time axis
    p.endSeconds = 0.25;
    p.cpuPercent = 97.5;
    p.mainThreadCpuPercent = 96.25;
    p.mainThreadWaitPercent = 3.5;
    p.opsPerSecond = 12345.5;
    p.connectedClients = 52;
    p.blockedClients = 1;
    p.usedMemory = 1 << 20;
    p.usedMemoryRss = 3 << 20;
    p.fragmentation = 3.5;
    p.evictedPerSecond = 1;
    p.expiredPerSecond = 2;
    p.hitsPerSecond = 3;
    p.missesPerSecond = 4;
    p.netInputBytesPerSecond = 5;
    p.netOutputBytesPerSecond = 6;
    p.rejectedConnectionsPerSecond = 7;
    server.points.push_back(p);
    p.mainThreadCpuPercent = -1;   // not reported by this server
    p.mainThreadWaitPercent = -1;
    server.points.push_back(p);
    t.servers.push_back(server);
    ServerTelemetry refused;
    refused.address = "127.0.0.1:7001";
    refused.unavailable = "not available: NOPERM no 'info' for you";
    t.servers.push_back(refused);
    t.client.host = "loadgen";
    t.client.cpuCount = 8;
    ClientPoint c;
    c.startSeconds = 0;
    c.endSeconds = 0.5;
    c.threadCpuPercent = { 41.5, 12 };
    c.threadWaitPercent = { 2, 0.5 };
    c.rssBytes = 9000000;
    c.hostBusyPercent = 63;
    c.hostStealPercent = 4;
    t.client.points.push_back(c);
    t.commandTimes.push_back(ServerCommandTime { "set", 1000, 1.25, "p50=1.003,p99=2.007" });
    t.verdict.kind = Bottleneck::ServerBound;
    t.verdict.reason = "server main thread 96% of a core; engine threads ≤ 42%";
    t.verdict.thresholds.serverThreadPercent = 85;
    t.verdict.inputs.intervalsJudged = 2;
    t.verdict.inputs.serverHotIntervals = 2;
    t.verdict.inputs.serverBusiestPercent = 96.25;
    t.verdict.inputs.serverBusiestWhat = "server main thread on 127.0.0.1:7000";
    t.verdict.inputs.targetRate = 20000;
    t.verdict.rate = "not held";
    run.tests.push_back(std::move(test));
    return run;
}

} // namespace

class TestTelemetryRunFile : public QObject {
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const RunResult written = runWithTelemetry();
        LoadedRun loaded;
        std::string error;
        QVERIFY2(runFileFromJson(runResultToJson(written), "run.json", loaded, &error), error.c_str());
        QCOMPARE(loaded.run.tests.size(), std::size_t(1));
        const TestTelemetry& a = written.tests[0].telemetry;
        const TestTelemetry& b = loaded.run.tests[0].telemetry;
        QVERIFY(b.recorded());
        QCOMPARE(b.intervalSeconds, a.intervalSeconds);
        QCOMPARE(b.servers.size(), std::size_t(2));
        QCOMPARE(b.servers[1].unavailable, a.servers[1].unavailable);
        QCOMPARE(b.servers[0].address, a.servers[0].address);
        QCOMPARE(b.servers[0].points.size(), std::size_t(2));
        const ServerPoint& p = b.servers[0].points[0];
        const ServerPoint& q = a.servers[0].points[0];
        QCOMPARE(p.startSeconds, q.startSeconds);
        QCOMPARE(p.endSeconds, q.endSeconds);
        QCOMPARE(p.cpuPercent, q.cpuPercent);
        QCOMPARE(p.mainThreadCpuPercent, q.mainThreadCpuPercent);
        QCOMPARE(p.mainThreadWaitPercent, q.mainThreadWaitPercent);
        QCOMPARE(p.opsPerSecond, q.opsPerSecond);
        QCOMPARE(p.connectedClients, q.connectedClients);
        QCOMPARE(p.blockedClients, q.blockedClients);
        QCOMPARE(p.usedMemory, q.usedMemory);
        QCOMPARE(p.usedMemoryRss, q.usedMemoryRss);
        QCOMPARE(p.fragmentation, q.fragmentation);
        QCOMPARE(p.evictedPerSecond, q.evictedPerSecond);
        QCOMPARE(p.expiredPerSecond, q.expiredPerSecond);
        QCOMPARE(p.hitsPerSecond, q.hitsPerSecond);
        QCOMPARE(p.missesPerSecond, q.missesPerSecond);
        QCOMPARE(p.netInputBytesPerSecond, q.netInputBytesPerSecond);
        QCOMPARE(p.netOutputBytesPerSecond, q.netOutputBytesPerSecond);
        QCOMPARE(p.rejectedConnectionsPerSecond, q.rejectedConnectionsPerSecond);
        QCOMPARE(b.servers[0].points[1].mainThreadCpuPercent, -1.0);
        QCOMPARE(b.servers[0].points[1].mainThreadWaitPercent, -1.0);
        QCOMPARE(b.client.host, a.client.host);
        QCOMPARE(b.client.cpuCount, a.client.cpuCount);
        QCOMPARE(b.client.points.size(), std::size_t(1));
        QCOMPARE(b.client.points[0].threadCpuPercent, a.client.points[0].threadCpuPercent);
        QCOMPARE(b.client.points[0].threadWaitPercent, a.client.points[0].threadWaitPercent);
        QCOMPARE(b.client.points[0].rssBytes, a.client.points[0].rssBytes);
        QCOMPARE(b.client.points[0].hostBusyPercent, a.client.points[0].hostBusyPercent);
        QCOMPARE(b.client.points[0].hostStealPercent, a.client.points[0].hostStealPercent);
        QCOMPARE(b.commandTimes.size(), std::size_t(1));
        QCOMPARE(b.commandTimes[0].command, std::string("set"));
        QCOMPARE(b.commandTimes[0].calls, std::uint64_t(1000));
        QCOMPARE(b.commandTimes[0].usecPerCall, 1.25);
        QCOMPARE(b.commandTimes[0].latencyPercentiles, std::string("p50=1.003,p99=2.007"));
        QCOMPARE(b.verdict.kind, Bottleneck::ServerBound);
        QCOMPARE(b.verdict.rate, std::string("not held"));
        QCOMPARE(b.verdict.reason, a.verdict.reason);
        QCOMPARE(b.verdict.thresholds.serverThreadPercent, 85.0);
        QCOMPARE(b.verdict.thresholds.hostStarvedWaitPercent, a.verdict.thresholds.hostStarvedWaitPercent);
        QCOMPARE(b.verdict.inputs.intervalsJudged, 2);
        QCOMPARE(b.verdict.inputs.serverHotIntervals, 2);
        QCOMPARE(b.verdict.inputs.serverBusiestPercent, 96.25);
        QCOMPARE(b.verdict.inputs.serverBusiestWhat, a.verdict.inputs.serverBusiestWhat);
        QCOMPARE(b.verdict.inputs.targetRate, 20000.0);
    }

    void filesWithoutTelemetryStillLoad()
    {
        RunResult run = runWithTelemetry();
        run.tests[0].telemetry = TestTelemetry {};
        const std::string json = runResultToJson(run);
        QVERIFY(json.find("\"telemetry\"") == std::string::npos);   // nothing written when not recorded
        LoadedRun loaded;
        std::string error;
        QVERIFY2(runFileFromJson(json, "old.json", loaded, &error), error.c_str());
        QVERIFY(!loaded.run.tests[0].telemetry.recorded());
        QCOMPARE(loaded.run.tests[0].telemetry.verdict.kind, Bottleneck::Unknown);
    }

    void aMalformedTelemetryNamesTheField()
    {
        std::string json = runResultToJson(runWithTelemetry());
        const std::string field = "\"cpuPercent\": 97.5";
        const auto at = json.find(field);
        QVERIFY(at != std::string::npos);
        json.replace(at, field.size(), "\"cpuPercent\": \"hot\"");
        LoadedRun loaded;
        std::string error;
        QVERIFY(!runFileFromJson(json, "bad.json", loaded, &error));
        QVERIFY2(error.find("telemetry.servers[0].points[0].cpuPercent: expected a number") != std::string::npos,
                 error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestTelemetryRunFile)
#include "test_telemetry_run_file.moc"
