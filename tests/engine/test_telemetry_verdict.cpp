// Issue 19: telemetry readings → points, and the bottleneck verdict as a pure
// function of them (every branch, without a server).
#include <QtTest/QtTest>

#include <string>
#include <vector>

#include "engine/telemetry/bottleneck.h"
#include "engine/telemetry/readings.h"

using namespace tacho::engine;

namespace {

constexpr std::uint64_t kSecond = 1000000000ULL;

// `seconds` one-second server points with the main thread at `mainPercent`.
ServerTelemetry serverAt(double mainPercent, int seconds, double cpuPercent = -1)
{
    ServerTelemetry server;
    server.address = "127.0.0.1:6379";
    for (int i = 0; i < seconds; ++i) {
        ServerPoint p;
        p.startSeconds = i;
        p.endSeconds = i + 1;
        p.mainThreadCpuPercent = mainPercent;
        p.cpuPercent = cpuPercent >= 0 ? cpuPercent : mainPercent;
        server.points.push_back(p);
    }
    return server;
}

ClientTelemetry clientAt(double threadCpu, double threadWait, double hostBusy, int seconds)
{
    ClientTelemetry client;
    client.cpuCount = 2;
    for (int i = 0; i < seconds; ++i) {
        ClientPoint p;
        p.startSeconds = i;
        p.endSeconds = i + 1;
        p.threadCpuPercent = { threadCpu, 5 };
        p.threadWaitPercent = { threadWait, 0 };
        p.hostBusyPercent = hostBusy;
        client.points.push_back(p);
    }
    return client;
}

TestTelemetry telemetryOf(std::vector<ServerTelemetry> servers, ClientTelemetry client)
{
    TestTelemetry t;
    t.intervalSeconds = 1;
    t.servers = std::move(servers);
    t.client = std::move(client);
    return t;
}

VerdictContext closedLoop()
{
    VerdictContext c;
    c.connections = 50;
    c.threads = 1;
    c.achievedRate = 100000;
    return c;
}

} // namespace

class TestTelemetryVerdict : public QObject {
    Q_OBJECT

private slots:
    void infoFieldsParse()
    {
        const std::string info = "# Server\r\nredis_version:7.0.15\r\nserver_time_usec:1000000\r\n"
                                 "# Stats\r\ntotal_commands_processed:100\r\nexpired_keys:3\r\n"
                                 "used_cpu_sys:1.500000\r\nused_cpu_user:0.500000\r\n"
                                 "used_cpu_sys_main_thread:1.000000\r\nused_cpu_user_main_thread:0.250000\r\n"
                                 "used_memory:1024\r\nused_memory_rss:4096\r\nmem_fragmentation_ratio:4.00\r\n";
        const ServerReading r = parseServerReading(info, 7);
        QCOMPARE(r.atNs, std::uint64_t(7));
        QCOMPARE(r.cpuSeconds, 2.0);
        QCOMPARE(r.mainThreadCpuSeconds, 1.25);
        QCOMPARE(r.commands.value_or(0), std::uint64_t(100));
        QCOMPARE(r.usedMemory.value_or(0), std::uint64_t(1024));   // not used_memory_rss's value
        QCOMPARE(r.usedMemoryRss.value_or(0), std::uint64_t(4096));
        QCOMPARE(r.expired.value_or(0), std::uint64_t(3));
        QCOMPARE(r.serverTimeSeconds, 1.0);
        // A server that gives no main-thread figures says so (-1), not 0 %.
        const ServerReading old = parseServerReading("used_cpu_sys:1.0\r\nused_cpu_user:1.0\r\n", 0);
        QCOMPARE(old.mainThreadCpuSeconds, -1.0);
    }

    void serverPointsUseTheServersClock()
    {
        ServerReading a = parseServerReading("server_time_usec:10000000\r\nused_cpu_user:1\r\nused_cpu_sys:0\r\n"
                                             "total_commands_processed:1000\r\n", 5 * kSecond);
        // Our clock says 1.2 s (the reply was late); the server's says 2 s.
        ServerReading b = parseServerReading("server_time_usec:12000000\r\nused_cpu_user:2\r\nused_cpu_sys:0.5\r\n"
                                             "total_commands_processed:5000\r\n", 5 * kSecond + 1200000000ULL);
        const auto points = serverPoints({ a, b }, 4 * kSecond);
        QCOMPARE(points.size(), std::size_t(1));
        QCOMPARE(points[0].startSeconds, 1.0);
        QCOMPARE(points[0].endSeconds, 2.2);
        QCOMPARE(points[0].cpuPercent, 75.0);       // 1.5 s of CPU in 2 s
        QCOMPARE(points[0].opsPerSecond, 2000.0);
        QCOMPARE(points[0].mainThreadCpuPercent, -1.0);
    }

    void clientPointsPerThread()
    {
        ClientReading a;
        a.atNs = 0;
        a.threadCpuNs = { 0, 0 };
        a.threadWaitNs = { 0, 0 };
        a.hostTotal = 200;
        a.hostBusy = 100;
        ClientReading b = a;
        b.atNs = kSecond;
        b.threadCpuNs = { 500000000, 100000000 };
        b.threadWaitNs = { 400000000, 0 };
        b.hostTotal = 400;
        b.hostBusy = 290;
        b.hostSteal = 20;
        const auto points = clientPoints({ a, b }, 0);
        QCOMPARE(points.size(), std::size_t(1));
        QCOMPARE(points[0].threadCpuPercent, (std::vector<double> { 50, 10 }));
        QCOMPARE(points[0].threadWaitPercent, (std::vector<double> { 40, 0 }));
        QCOMPARE(points[0].hostBusyPercent, 95.0);
        QCOMPARE(points[0].hostStealPercent, 10.0);
    }

    void serverBound()
    {
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ serverAt(97, 5) }, clientAt(41, 0, 60, 5)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::ServerBound);
        QCOMPARE(describeVerdict(v), std::string("server-bound (server main thread 97% of a core; engine threads ≤ 41%)"));
        QCOMPARE(v.inputs.serverHotIntervals, 5);
        QCOMPARE(v.inputs.intervalsJudged, 5);
    }

    void aLocalServerWaitingForACpuIsServerBound()
    {
        // 70 % on a CPU and 25 % runnable but waiting (a neighbour's build): it wanted 95 %.
        ServerTelemetry server = serverAt(70, 4);
        for (ServerPoint& p : server.points)
            p.mainThreadWaitPercent = 25;
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ server }, clientAt(10, 0, 100, 4)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::ServerBound);
        QCOMPARE(v.inputs.serverWaitPercent, 25.0);
        QVERIFY(v.reason.find("server main thread 95% of a core (25% of it waiting for a CPU)") == 0);
        // Without the wait (a remote server) the same CPU is not enough.
        QCOMPARE(judgeBottleneck(telemetryOf({ serverAt(70, 4) }, clientAt(10, 0, 100, 4)), closedLoop()).kind,
                 Bottleneck::Neither);
    }

    void serverBoundNeedsMostSeconds()
    {
        // Two hot seconds of five: not "most seconds".
        ServerTelemetry server = serverAt(30, 5);
        server.points[0].mainThreadCpuPercent = 99;
        server.points[1].mainThreadCpuPercent = 99;
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ server }, clientAt(20, 0, 30, 5)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::Neither);
        QCOMPARE(v.inputs.serverHotIntervals, 2);
    }

    void processCpuWithoutMainThreadFigures()
    {
        ServerTelemetry server = serverAt(-1, 4, 95);
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ server }, clientAt(20, 0, 30, 4)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::ServerBound);
        QVERIFY(v.reason.find("server process 95%") != std::string::npos);
    }

    void clusterNamesTheBusiestMaster()
    {
        ServerTelemetry quiet = serverAt(20, 4);
        ServerTelemetry busy = serverAt(96, 4);
        busy.address = "127.0.0.1:7001";
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ quiet, busy }, clientAt(20, 0, 30, 4)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::ServerBound);
        QCOMPARE(v.inputs.serverBusiestWhat, std::string("server main thread on 127.0.0.1:7001"));
    }

    void clientBoundByAThreadThatWaitsForACpu()
    {
        // 50 % on a CPU and 45 % runnable but waiting: the thread wanted a whole core.
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ serverAt(40, 5) }, clientAt(50, 45, 80, 5)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::ClientBound);
        QCOMPARE(v.advice, std::string("more --threads, or another load machine"));
        QVERIFY(v.reason.find("95%") != std::string::npos);
    }

    void clientBoundByTheHost()
    {
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ serverAt(40, 5) }, clientAt(30, 30, 97, 5)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::ClientBound);
        QCOMPARE(v.advice, std::string("another load machine"));
    }

    // The engine pinned to a CPU others use (or a cgroup's share): it waits
    // for a CPU most of the time while the host as a whole has room.
    void clientBoundByTheCpusItMayUse()
    {
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ serverAt(35, 5) }, clientAt(15, 60, 74, 4)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::ClientBound);
        QVERIFY2(v.reason.find("the CPUs it may run on were taken") != std::string::npos, v.reason.c_str());
        QCOMPARE(v.advice, std::string("another load machine"));
    }

    void aBusyHostThatDoesNotHoldTheEngineBackIsNotTheLimit()
    {
        // Someone else's build keeps the host busy; the engine sleeps on round trips.
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ serverAt(5, 5) }, clientAt(3, 2, 100, 5)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::Neither);
        QCOMPARE(v.inputs.hostBusyMaxPercent, 100.0);
    }

    void clientBoundWithEveryCpuTaken()
    {
        VerdictContext context = closedLoop();
        context.threads = 2;
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ serverAt(40, 3) }, clientAt(99, 0, 80, 3)), context);
        QCOMPARE(v.kind, Bottleneck::ClientBound);
        QVERIFY(v.advice.find("another load machine") == 0);
    }

    void neither()
    {
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ serverAt(8, 5) }, clientAt(4, 0, 10, 5)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::Neither);
        QCOMPARE(v.advice, std::string("more connections or a deeper pipeline would go faster"));
    }

    void warmupAndSliversAreNotJudged()
    {
        ServerTelemetry server = serverAt(10, 4);
        ServerPoint warm;   // a hot warm-up second
        warm.startSeconds = -1;
        warm.endSeconds = 0;
        warm.mainThreadCpuPercent = 100;
        server.points.insert(server.points.begin(), warm);
        ServerPoint sliver;   // a hot sliver at the end
        sliver.startSeconds = 4;
        sliver.endSeconds = 4.1;
        sliver.mainThreadCpuPercent = 100;
        server.points.push_back(sliver);
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ server }, clientAt(4, 0, 10, 4)), closedLoop());
        QCOMPARE(v.inputs.intervalsJudged, 4);
        QCOMPARE(v.kind, Bottleneck::Neither);
    }

    void serverRefusedInfo()
    {
        ServerTelemetry refused;
        refused.address = "127.0.0.1:6379";
        refused.unavailable = "not available: NOPERM this user has no permissions to run the 'info' command";
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ refused }, clientAt(10, 0, 20, 3)), closedLoop());
        QCOMPARE(v.kind, Bottleneck::Unknown);
        QVERIFY(v.reason.find("NOPERM") != std::string::npos);
        QVERIFY(v.reason.find("not client-bound") != std::string::npos);
        // …but a saturated client is still judged, and the verdict says the server could not be.
        const BottleneckVerdict busy = judgeBottleneck(telemetryOf({ refused }, clientAt(99, 0, 20, 3)), closedLoop());
        QCOMPARE(busy.kind, Bottleneck::ClientBound);
        QVERIFY2(busy.reason.find("server telemetry not available: NOPERM") != std::string::npos, busy.reason.c_str());
    }

    void openLoopRate()
    {
        VerdictContext context = closedLoop();
        context.targetRate = 10000;
        context.achievedRate = 9990;
        BottleneckVerdict v = judgeBottleneck(telemetryOf({ serverAt(8, 5) }, clientAt(4, 0, 10, 5)), context);
        QCOMPARE(v.rate, std::string("held"));
        QVERIFY(v.advice.empty());
        context.achievedRate = 6000;
        v = judgeBottleneck(telemetryOf({ serverAt(99, 5) }, clientAt(4, 0, 10, 5)), context);
        QCOMPARE(v.rate, std::string("not held"));
        QVERIFY(v.reason.find("because the server ran out of CPU") != std::string::npos);
        v = judgeBottleneck(telemetryOf({ serverAt(8, 5) }, clientAt(4, 0, 10, 5)), context);
        QVERIFY(v.reason.find("because too few connections") != std::string::npos);
        QCOMPARE(v.advice, std::string("more connections"));
    }

    void tooShortToSample()
    {
        ServerTelemetry server;
        server.address = "127.0.0.1:6379";
        const BottleneckVerdict v = judgeBottleneck(telemetryOf({ server }, ClientTelemetry {}), closedLoop());
        QCOMPARE(v.kind, Bottleneck::Unknown);
        QCOMPARE(v.reason, std::string("too short to sample (shorter than the 1 s interval)"));
    }

    void nothingRecorded()
    {
        QCOMPARE(judgeBottleneck(TestTelemetry {}, closedLoop()).kind, Bottleneck::Unknown);
        QCOMPARE(bottleneckFromName("client-bound"), Bottleneck::ClientBound);
        QCOMPARE(bottleneckFromName("garbage"), Bottleneck::Unknown);
    }
};

QTEST_APPLESS_MAIN(TestTelemetryVerdict)
#include "test_telemetry_verdict.moc"
