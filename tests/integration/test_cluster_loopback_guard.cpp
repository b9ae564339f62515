// A cluster run confirmed for this machine only (issue 15: the workbench asks
// before writing to a remote seed, not to a loopback one) stays on this
// machine: with RunConfig::clusterStaysOnLoopback, a node off loopback named
// by CLUSTER SHARDS/SLOTS fails the test before any traffic, and a MOVED/ASK
// to one fails the request (counted) without connecting. Fake nodes from
// ScriptedServer. The off-machine addresses (TEST-NET 192.0.2.1, …) are only
// ever named, never connected to: only the guarded path is run with them.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "engine/cluster/loopback_guard.h"
#include "engine/run/run_controller.h"
#include "engine/workload/benchmark_suite.h"
#include "support/resp_wire.h"
#include "support/scripted_server.h"

using namespace tacho::engine;
using tacho::test::Conversation;
using tacho::test::ScriptedServer;
using tacho::test::respBulk;
using tacho::test::upperAscii;

namespace {

const std::string kNodeId(40, 'a');

// Addresses a cluster may announce that are not this machine, and how a
// message names each (port 7000).
struct OffMachine {
    const char* host;
    const char* address;
};
const OffMachine kOffMachine[] = {
    { "192.0.2.1", "192.0.2.1:7000" },
    { "10.1.2.3", "10.1.2.3:7000" },
    { "128.0.0.1", "128.0.0.1:7000" },
    { "2001:db8::1", "[2001:db8::1]:7000" },
    { "::ffff:192.0.2.1", "[::ffff:192.0.2.1]:7000" },
    { "node7.example", "node7.example:7000" },
    { "127.0.0.1.example", "127.0.0.1.example:7000" },
};

std::string slotsEntry(int first, int last, const std::string& host, quint16 port)
{
    return "*3\r\n:" + std::to_string(first) + "\r\n:" + std::to_string(last) + "\r\n*3\r\n" + respBulk(host) + ":"
        + std::to_string(port) + "\r\n" + respBulk(kNodeId);
}

std::string shardsNode(const std::string& host, quint16 port, const char* role)
{
    return "*12\r\n" + respBulk("id") + respBulk(kNodeId) + respBulk("port") + ":" + std::to_string(port) + "\r\n"
        + respBulk("ip") + respBulk(host) + respBulk("endpoint") + respBulk(host) + respBulk("role") + respBulk(role)
        + respBulk("health") + respBulk("online");
}

std::string shard(int first, int last, const std::string& nodes, int nodeCount)
{
    return "*4\r\n" + respBulk("slots") + "*2\r\n:" + std::to_string(first) + "\r\n:" + std::to_string(last) + "\r\n"
        + respBulk("nodes") + "*" + std::to_string(nodeCount) + "\r\n" + nodes;
}

// A node whose CLUSTER SLOTS / SHARDS reply is fixed, answering SET with
// `onSet` (empty: +OK) and anything else like a tiny healthy Redis.
ScriptedServer::Script clusterNode(const std::string* slotsReply, const std::string* shards, const std::string* onSet)
{
    return [=](Conversation& c) {
        std::vector<std::string> args;
        while (c.readCommand(&args)) {
            const std::string name = upperAscii(args.empty() ? std::string() : args[0]);
            if (name == "CLUSTER" && args.size() > 1) {
                const std::string sub = upperAscii(args[1]);
                if (sub == "SLOTS")
                    c.send(*slotsReply);
                else if (sub == "SHARDS" && !shards->empty())
                    c.send(*shards);
                else if (sub == "INFO")
                    c.send(respBulk("cluster_state:ok\r\ncluster_slots_assigned:16384\r\n"));
                else
                    c.send("-ERR unknown subcommand '" + args[1] + "'. Try CLUSTER HELP.\r\n");
            } else if (name == "SET" && !onSet->empty()) {
                c.send(*onSet);
            } else {
                c.send(tacho::test::healthyReply(args));
            }
        }
    };
}

RunConfig clusterConfig(quint16 seedPort, bool staysOnLoopback)
{
    RunConfig config;
    config.endpoint.host = "127.0.0.1";
    config.endpoint.port = seedPort;
    config.cluster = true;
    config.clusterStaysOnLoopback = staysOnLoopback;
    config.tests = redisBenchmarkSuite("set", 3, 0);
    config.connections = 2;
    config.pipeline = 3;
    config.requests = 30;
    config.connectTimeoutMs = 2000;
    config.replyTimeoutMs = 10000;
    return config;
}

int countOf(const ScriptedServer& server, const char* command)
{
    const std::vector<std::string> names = server.commandNames();
    return static_cast<int>(std::count(names.begin(), names.end(), std::string(command)));
}

} // namespace

class TestClusterLoopbackGuard : public QObject {
    Q_OBJECT

private slots:
    void loopbackHosts_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("loopback");
        for (const char* host : { "127.0.0.1", "127.255.255.254", "127.0.0.2", "::1", "[::1]", "0:0:0:0:0:0:0:1",
                                  "localhost", "LocalHost", "::ffff:127.0.0.1" })
            QTest::newRow(host) << QString(host) << true;
        for (const OffMachine& off : kOffMachine)
            QTest::newRow(off.host) << QString(off.host) << false;
        for (const char* host : { "", "126.255.255.255", "0.0.0.0", "::", "::2", "[::1", "localhost.", "localhostx",
                                  "localhost.example", "127.1", "0x7f.0.0.1", " 127.0.0.1" })
            QTest::newRow(*host ? host : "(empty)") << QString(host) << false;
    }

    // What counts as this machine: literal loopback addresses and
    // "localhost"; no other name (it could resolve anywhere).
    void loopbackHosts()
    {
        QFETCH(QString, host);
        QFETCH(bool, loopback);
        QCOMPARE(isLoopbackHost(host.toStdString()), loopback);
    }

    void offMachineNodeInTheTopologyFailsBeforeTraffic_data()
    {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("address");
        // Generated: every off-machine address, as a master or a replica in
        // CLUSTER SLOTS, and as a master in CLUSTER SHARDS.
        for (const char* layout : { "slots master", "slots replica", "shards master" })
            for (const OffMachine& off : kOffMachine)
                QTest::newRow(qPrintable(QString("%1 %2").arg(layout, off.host)))
                    << QString(layout) << QString(off.host) << QString(off.address);
    }

    // The test fails with the node named, before a single SET and before any
    // connection to it (a connection would fail differently, or hang until the
    // connect timeout: TEST-NET is not routed).
    void offMachineNodeInTheTopologyFailsBeforeTraffic()
    {
        QFETCH(QString, layout);
        QFETCH(QString, host);
        QFETCH(QString, address);
        const std::string off = host.toStdString();
        std::string slotsReply, shards;
        const std::string none;
        ScriptedServer seed(clusterNode(&slotsReply, &shards, &none));
        QString error;
        QVERIFY2(seed.start(&error), qPrintable(error));
        const quint16 port = seed.port();
        if (layout == "slots master")
            slotsReply = "*2\r\n" + slotsEntry(0, 8191, "127.0.0.1", port) + slotsEntry(8192, 16383, off, 7000);
        else if (layout == "slots replica")
            slotsReply = "*1\r\n*4\r\n:0\r\n:16383\r\n*3\r\n" + respBulk("127.0.0.1") + ":" + std::to_string(port) + "\r\n"
                + respBulk(kNodeId) + "*3\r\n" + respBulk(off) + ":7000\r\n" + respBulk(std::string(40, 'b'));
        else
            shards = "*2\r\n" + shard(0, 8191, shardsNode("127.0.0.1", port, "master"), 1)
                + shard(8192, 16383, shardsNode(off, 7000, "master"), 1);

        const RunResult result = RunController(clusterConfig(port, true)).run();
        seed.stop();
        QCOMPARE(result.tests.size(), std::size_t(1));
        const TestResult& test = result.tests[0];
        QCOMPARE(int(test.status), int(RunStatus::Failed));
        QCOMPARE(QString::fromStdString(test.failure),
                 "cluster node " + address + " is not on this machine; the run was confirmed for this machine only");
        QCOMPARE(test.requests, std::uint64_t(0));
        QCOMPARE(countOf(seed, "SET"), 0);
        QVERIFY(countOf(seed, "CLUSTER") >= 1);
    }

    void redirectOffMachineFailsTheRequest_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("address");
        for (const char* kind : { "MOVED", "ASK" })
            for (const OffMachine& off : kOffMachine)
                QTest::newRow(qPrintable(QString("%1 %2").arg(kind, off.host)))
                    << QString(kind) << QString(off.host) << QString(off.address);
    }

    // A node serving every slot sends each SET elsewhere, off this machine:
    // each request fails as a redirect failure with the node named, is not
    // followed (no ASKING, no MOVED counted), and the node saw each SET once.
    void redirectOffMachineFailsTheRequest()
    {
        QFETCH(QString, kind);
        QFETCH(QString, host);
        QFETCH(QString, address);
        std::string slotsReply;
        const std::string shards;
        const std::string redirect = "-" + kind.toStdString() + " 0 "
            + (host.contains(':') ? "[" + host.toStdString() + "]" : host.toStdString()) + ":7000\r\n";
        ScriptedServer a(clusterNode(&slotsReply, &shards, &redirect));
        QString error;
        QVERIFY2(a.start(&error), qPrintable(error));
        slotsReply = "*1\r\n" + slotsEntry(0, 16383, "127.0.0.1", a.port());

        const RunResult result = RunController(clusterConfig(a.port(), true)).run();
        a.stop();
        QCOMPARE(result.tests.size(), std::size_t(1));
        const TestResult& test = result.tests[0];
        QVERIFY2(test.status != RunStatus::Failed, test.failure.c_str());
        QCOMPARE(test.requests, std::uint64_t(30));
        QCOMPARE(test.errors, std::uint64_t(30));
        QCOMPARE(test.redirectFailures, std::uint64_t(30));
        QCOMPARE(test.moved + test.asked, std::uint64_t(0));
        QCOMPARE(countOf(a, "SET"), 30);
        QCOMPARE(countOf(a, "ASKING"), 0);
        const std::string message
            = "cluster node " + address.toStdString() + " is not on this machine; the run was confirmed for this machine only";
        QVERIFY2(std::find(test.firstErrors.begin(), test.firstErrors.end(), message) != test.firstErrors.end(),
                 test.firstErrors.empty() ? "no errors" : test.firstErrors.front().c_str());
        for (const ClusterContact& node : test.clusterNodes)
            QVERIFY2(node.address.find("7000") == std::string::npos, node.address.c_str());
    }

    void loopbackClusterRunsAsBefore_data()
    {
        QTest::addColumn<bool>("staysOnLoopback");
        QTest::addColumn<QString>("hostOfB");
        // With the guard and without (tacho-cli's default): no difference.
        for (const bool guard : { false, true })
            for (const char* hostOfB : { "127.0.0.1", "localhost" })
                QTest::newRow(qPrintable(QString("%1, B at %2").arg(guard ? "guarded" : "unguarded", hostOfB)))
                    << guard << QString(hostOfB);
    }

    // A seed serving half the slots, B the other half, and the seed's SETs
    // MOVED to B (loopback only): all served by B, nothing refused.
    void loopbackClusterRunsAsBefore()
    {
        QFETCH(bool, staysOnLoopback);
        QFETCH(QString, hostOfB);
        std::string slotsReply, moved;
        const std::string shards, none;
        ScriptedServer a(clusterNode(&slotsReply, &shards, &moved));
        ScriptedServer b(clusterNode(&slotsReply, &shards, &none));
        QString error;
        QVERIFY2(a.start(&error), qPrintable(error));
        QVERIFY2(b.start(&error), qPrintable(error));
        slotsReply = "*2\r\n" + slotsEntry(0, 8191, "127.0.0.1", a.port()) + slotsEntry(8192, 16383, hostOfB.toStdString(), b.port());
        moved = "-MOVED 0 127.0.0.1:" + std::to_string(b.port()) + "\r\n";

        RunConfig config = clusterConfig(a.port(), staysOnLoopback);
        config.keyspace = 1000;   // keys of both halves
        const RunResult result = RunController(config).run();
        a.stop();
        b.stop();
        QCOMPARE(result.tests.size(), std::size_t(1));
        const TestResult& test = result.tests[0];
        QVERIFY2(test.status == RunStatus::Completed, test.failure.c_str());
        QCOMPARE(test.requests, std::uint64_t(30));
        QCOMPARE(test.errors, std::uint64_t(0));
        QCOMPARE(test.redirectFailures, std::uint64_t(0));
        // Every request executed once on B; the seed only redirected.
        QCOMPARE(countOf(b, "SET"), 30);
        QCOMPARE(test.moved, std::uint64_t(countOf(a, "SET")));
    }
};

QTEST_GUILESS_MAIN(TestClusterLoopbackGuard)
#include "test_cluster_loopback_guard.moc"
