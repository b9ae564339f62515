// Issue 30: a reading missing is unknown, not zero. A server whose INFO has
// no "# CPU" section (some managed services) was judged "server process 0% of
// a core … more connections would go faster" and Prometheus got
// tacho_server_cpu_ratio 0. Generated over the family: every INFO field a
// point is made from, removed in turn; every reading the verdict or a live
// metric uses, made unknown in turn over a grid of situations.
#include <QtTest/QtTest>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/report/live_metrics.h"
#include "engine/telemetry/bottleneck.h"
#include "engine/telemetry/readings.h"

using namespace tacho::engine;

namespace {

constexpr std::uint64_t kSecond = 1000000000ULL;

// Each INFO field a server point is made from, with the readings it gives.
struct InfoField {
    const char* key;
    const char* before;   // value in the first reading
    const char* after;    // in the second, one second later
    std::vector<const char*> readings;   // kServerReadingFields names it feeds
};

const std::vector<InfoField>& infoFields()
{
    static const std::vector<InfoField> fields = {
        { "used_cpu_sys", "1.0", "1.5", { "cpuPercent" } },
        { "used_cpu_user", "1.0", "1.25", { "cpuPercent" } },
        { "used_cpu_sys_main_thread", "0.5", "0.75", { "mainThreadCpuPercent" } },
        { "used_cpu_user_main_thread", "0.5", "0.6", { "mainThreadCpuPercent" } },
        { "total_commands_processed", "1000", "3000", { "opsPerSecond" } },
        { "connected_clients", "3", "51", { "connectedClients" } },
        { "blocked_clients", "0", "2", { "blockedClients" } },
        { "used_memory", "1048576", "2097152", { "usedMemory" } },
        { "used_memory_rss", "4194304", "4194304", { "usedMemoryRss" } },
        { "mem_fragmentation_ratio", "4.00", "2.00", { "fragmentation" } },
        { "evicted_keys", "0", "10", { "evictedPerSecond" } },
        { "expired_keys", "0", "20", { "expiredPerSecond" } },
        { "keyspace_hits", "0", "30", { "hitsPerSecond" } },
        { "keyspace_misses", "0", "40", { "missesPerSecond" } },
        { "total_net_input_bytes", "0", "50", { "netInputBytesPerSecond" } },
        { "total_net_output_bytes", "0", "60", { "netOutputBytesPerSecond" } },
        { "rejected_connections", "0", "1", { "rejectedConnectionsPerSecond" } },
    };
    return fields;
}

std::string infoText(bool second, const char* without)
{
    std::string text = "# Server\r\nredis_version:7.2.4\r\n# Stats\r\n";
    for (const InfoField& f : infoFields())
        if (std::string(f.key) != (without ? without : ""))
            text += std::string(f.key) + ":" + (second ? f.after : f.before) + "\r\n";
    return text;
}

ServerPoint pointWithout(const char* key)
{
    const auto points = serverPoints({ parseServerReading(infoText(false, key), kSecond),
                                       parseServerReading(infoText(true, key), 2 * kSecond) },
                                     kSecond);
    return points.size() == 1 ? points[0] : ServerPoint {};
}

// ---- a grid of situations for the verdict ----

struct Situation {
    double serverCpu;     // main thread and process alike (a single-threaded server)
    double threadCpu;     // the busiest engine thread
    double threadWait;
    double hostBusy;
};

std::vector<Situation> situations()
{
    std::vector<Situation> out;
    for (double server : { 5.0, 70.0, 97.0 })
        for (double thread : { 4.0, 50.0, 99.0 })
            for (double wait : { 0.0, 45.0 })
                for (double host : { 10.0, 97.0 })
                    out.push_back({ server, thread, wait, host });
    return out;
}

TestTelemetry telemetryFor(const Situation& s)
{
    TestTelemetry t;
    t.intervalSeconds = 1;
    ServerTelemetry server;
    server.address = "127.0.0.1:6379";
    ClientTelemetry client;
    client.cpuCount = 2;
    for (int i = 0; i < 5; ++i) {
        ServerPoint p;
        p.startSeconds = i;
        p.endSeconds = i + 1;
        p.cpuPercent = p.mainThreadCpuPercent = s.serverCpu;
        p.opsPerSecond = 50000;
        p.connectedClients = 51;
        p.usedMemory = 1 << 20;
        server.points.push_back(p);
        ClientPoint c;
        c.startSeconds = i;
        c.endSeconds = i + 1;
        c.threadCpuPercent = { s.threadCpu, 5 };
        c.threadWaitPercent = { s.threadWait, 0 };
        c.rssBytes = 9 << 20;
        c.hostBusyPercent = s.hostBusy;
        c.hostStealPercent = 1;
        client.points.push_back(c);
    }
    t.servers = { server };
    t.client = client;
    return t;
}

VerdictContext closedLoop()
{
    VerdictContext c;
    c.connections = 50;
    c.achievedRate = 100000;
    return c;
}

// One reading of the verdict's inputs, set to a value in every point.
struct Reading {
    std::string name;
    std::function<void(TestTelemetry&, double)> set;
};

// Every reading of the family: each ServerPoint and ClientPoint scalar (the
// engine's own lists) and each engine thread's CPU. The server's CPU is one
// reading with two sources (main thread, else process): both go unknown
// together, and each alone. Waits for a CPU only add to CPU where read (a
// server elsewhere never gives one), and the main thread alone falls back on
// the process figure: those two are checked apart, below.
std::vector<Reading> readings()
{
    std::vector<Reading> out;
    for (const ServerReadingField& f : kServerReadingFields) {
        const std::string name = f.name;
        if (name == "mainThreadCpuPercent" || name == "mainThreadWaitPercent")
            continue;
        const auto member = f.member;
        out.push_back({ "server " + name, [member](TestTelemetry& t, double v) {
                           for (ServerPoint& p : t.servers[0].points)
                               p.*member = v;
                       } });
    }
    out.push_back({ "server CPU (both sources)", [](TestTelemetry& t, double v) {
                       for (ServerPoint& p : t.servers[0].points)
                           p.cpuPercent = p.mainThreadCpuPercent = v;
                   } });
    for (const ClientReadingField& f : kClientReadingFields) {
        const auto member = f.member;
        out.push_back({ std::string("client ") + f.name, [member](TestTelemetry& t, double v) {
                           for (ClientPoint& p : t.client.points)
                               p.*member = v;
                       } });
    }
    for (std::size_t thread = 0; thread < 2; ++thread)
        out.push_back({ "engine thread " + std::to_string(thread) + " CPU", [thread](TestTelemetry& t, double v) {
                           for (ClientPoint& p : t.client.points)
                               p.threadCpuPercent[thread] = v;
                       } });
    return out;
}

// A negative figure printed ("-1%"): an unknown read as a number.
bool printsAnUnknown(const std::string& text)
{
    return text.find("-1%") != std::string::npos || text.find("-0%") != std::string::npos
        || text.find("-1 ") != std::string::npos;
}

} // namespace

class TestUnknownReadings : public QObject {
    Q_OBJECT

private slots:
    // Every INFO field removed in turn: the readings it feeds are unknown,
    // every other reading is known.
    void eachInfoFieldMissingGivesUnknownNotZero()
    {
        std::set<std::string> covered;
        for (const InfoField& field : infoFields()) {
            const ServerPoint p = pointWithout(field.key);
            QVERIFY2(p.endSeconds > p.startSeconds, field.key);
            for (const ServerReadingField& f : kServerReadingFields) {
                const std::string name = f.name;
                const bool fed = std::find(field.readings.begin(), field.readings.end(), name) != field.readings.end();
                if (name == "mainThreadWaitPercent")
                    continue;   // from /proc, not INFO
                const std::string what = std::string("without ") + field.key + ": " + name;
                if (fed)
                    QVERIFY2(!known(p.*f.member), what.c_str());
                else
                    QVERIFY2(known(p.*f.member), what.c_str());
                if (fed)
                    covered.insert(name);
            }
        }
        // The generator covers the family: a reading added to the engine's
        // list without an INFO field here fails.
        for (const ServerReadingField& f : kServerReadingFields)
            if (std::string(f.name) != "mainThreadWaitPercent")
                QVERIFY2(covered.count(f.name) == 1, f.name);
    }

    void aCounterThatWentBackwardsIsUnknown()
    {
        const auto points = serverPoints({ parseServerReading("total_commands_processed:5000\r\n", kSecond),
                                           parseServerReading("total_commands_processed:10\r\n", 2 * kSecond) },
                                         kSecond);
        QCOMPARE(points.size(), std::size_t(1));
        QVERIFY(!known(points[0].opsPerSecond));   // a restart, not an idle server
    }

    void anUnreadableThreadIsUnknown()
    {
        ClientReading a;
        a.threadCpuNs = { Count(0), Count() };
        a.threadWaitNs = { Count(0), Count() };
        ClientReading b = a;
        b.atNs = kSecond;
        b.threadCpuNs = { Count(500000000), Count() };
        const auto points = clientPoints({ a, b }, 0);
        QCOMPARE(points.size(), std::size_t(1));
        QCOMPARE(points[0].threadCpuPercent[0], 50.0);
        QVERIFY(!known(points[0].threadCpuPercent[1]));
        QVERIFY(!known(points[0].hostBusyPercent));   // /proc/stat not read
        QVERIFY(!known(points[0].rssBytes));
    }

    // The property, over the grid and every reading: with a reading unknown,
    // the verdict is "unknown" (saying what was not read), or the one it
    // would be whatever that reading's value — never one it rests on.
    void aVerdictNeverRestsOnAnUnknown()
    {
        int judged = 0, unknownSaid = 0;
        for (const Situation& s : situations())
            for (const Reading& r : readings()) {
                TestTelemetry t = telemetryFor(s);
                r.set(t, kUnknown);
                const BottleneckVerdict v = judgeBottleneck(t, closedLoop());
                const std::string what = r.name + " unknown, server " + std::to_string(s.serverCpu) + " thread "
                    + std::to_string(s.threadCpu) + " wait " + std::to_string(s.threadWait) + " host "
                    + std::to_string(s.hostBusy) + ": " + describeVerdict(v);
                QVERIFY2(!printsAnUnknown(v.reason), what.c_str());
                if (v.kind == Bottleneck::Unknown) {
                    QVERIFY2(v.reason.find("not read") != std::string::npos, what.c_str());
                    ++unknownSaid;
                    continue;
                }
                bool same = true;
                for (double value : { 0.0, 25.0, 50.0, 89.0, 91.0, 100.0, 150.0 }) {
                    TestTelemetry at = telemetryFor(s);
                    r.set(at, value);
                    const BottleneckVerdict w = judgeBottleneck(at, closedLoop());
                    same = same && w.kind == v.kind;
                    // "neither" denies both limits: it holds only if it holds whatever the reading.
                    QVERIFY2(v.kind != Bottleneck::Neither || w.kind == v.kind,
                             (what + " — but at " + std::to_string(value) + ": " + describeVerdict(w)).c_str());
                }
                // A limit found in what was read stands, and says what was not read.
                if (!same) {
                    QVERIFY2(v.reason.find("not read") != std::string::npos, what.c_str());
                    ++unknownSaid;
                }
                ++judged;
            }
        // Both kinds of answer occurred: the grid reaches the property's two sides.
        QVERIFY(judged > 0);
        QVERIFY(unknownSaid > 0);
    }

    // The symptom itself: a managed service's INFO without "# CPU".
    void aServerWithoutCpuFiguresIsNotJudgedIdle()
    {
        Situation quiet { 5, 4, 0, 10 };
        TestTelemetry t = telemetryFor(quiet);
        for (ServerPoint& p : t.servers[0].points)
            p.cpuPercent = p.mainThreadCpuPercent = kUnknown;
        const BottleneckVerdict v = judgeBottleneck(t, closedLoop());
        QCOMPARE(v.kind, Bottleneck::Unknown);
        QVERIFY2(v.reason.find("server CPU not read") != std::string::npos, v.reason.c_str());
        QVERIFY2(v.reason.find("0% of a core") == std::string::npos, v.reason.c_str());
        QVERIFY(v.advice.empty());

        LiveMetrics m;
        TestMetrics running;
        running.name = "GET";
        t.verdict = v;
        running.telemetry = std::make_shared<const TestTelemetry>(t);
        m.tests.push_back(running);
        const std::string text = prometheusText(m);
        QVERIFY2(text.find("tacho_server_cpu_ratio") == std::string::npos, text.c_str());
        QVERIFY(text.find("tacho_server_requests_per_second{") != std::string::npos);   // what was read, still there
        StatsdProgress progress;
        for (const std::string& line : statsdLines(m, StatsdTags::InName, progress))
            QVERIFY2(line.find("server_cpu_percent") == std::string::npos, line.c_str());
    }

    // The two readings checked apart: a main thread not reported falls back
    // on the process figure and says so; a wait not read adds nothing.
    void fallbacksSayWhatTheyUsed()
    {
        TestTelemetry t = telemetryFor({ 97, 4, 0, 10 });
        for (ServerPoint& p : t.servers[0].points)
            p.mainThreadCpuPercent = kUnknown;
        const BottleneckVerdict v = judgeBottleneck(t, closedLoop());
        QCOMPARE(v.kind, Bottleneck::ServerBound);
        QVERIFY2(v.reason.find("server process 97%") != std::string::npos, v.reason.c_str());
        for (ClientPoint& p : t.client.points)
            p.hostStealPercent = kUnknown;
        TestTelemetry starved = telemetryFor({ 5, 30, 45, 97 });
        for (ClientPoint& p : starved.client.points)
            p.hostStealPercent = kUnknown;
        const BottleneckVerdict s = judgeBottleneck(starved, closedLoop());
        QCOMPARE(s.kind, Bottleneck::ClientBound);
        QVERIFY2(s.reason.find("steal not read") != std::string::npos, s.reason.c_str());
    }
};

QTEST_APPLESS_MAIN(TestUnknownReadings)
#include "test_unknown_readings.moc"
