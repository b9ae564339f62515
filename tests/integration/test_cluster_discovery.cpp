// Cluster discovery against real servers (issue 4): discoverCluster() maps all 16384 slots of
// a 3-master loopback cluster to the nodes that really serve them (checked against CLUSTER
// KEYSLOT and against which node accepts a key without MOVED), from any seed, by CLUSTER
// SHARDS and CLUSTER SLOTS alike; MOVED texts parse and update the map during a reshard; a
// server outside cluster mode, a cluster with missing slots and an unreachable seed each give
// their own message.
#include <QElapsedTimer>
#include <QTest>

#include <string>

#include "engine/cluster/cluster_discovery.h"
#include "engine/cluster/key_slot.h"
#include "engine/cluster/redirect.h"
#include "engine/cluster/slot_map.h"
#include "support/redis_cluster.h"
#include "support/redis_server.h"

using namespace tacho::engine;
using tacho::test::RedisCluster;
using tacho::test::RedisReply;
using tacho::test::RedisServer;

namespace {

RunConfig seedConfig(quint16 port)
{
    RunConfig config;
    config.endpoint.host = "127.0.0.1";
    config.endpoint.port = port;
    config.connectTimeoutMs = 2000;
    return config;
}

// Slot → port of the node serving it, from our map.
QVector<quint16> ownersOf(const SlotMap& map)
{
    QVector<quint16> owners(kClusterSlots, 0);
    for (int slot = 0; slot < kClusterSlots; ++slot) {
        const int node = map.lookup(static_cast<std::uint16_t>(slot));
        if (node != SlotMap::kNoNode)
            owners[slot] = map.nodes()[static_cast<std::size_t>(node)].port;
    }
    return owners;
}

} // namespace

class TestClusterDiscovery : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QElapsedTimer timer;
        timer.start();
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        qInfo("3-master cluster ready in %lld ms", timer.elapsed());
    }

    void cleanupTestCase() { m_cluster.stop(); }

    void discoversEveryNodeAndSlot()
    {
        SlotMap map;
        std::string error;
        QElapsedTimer timer;
        timer.start();
        QVERIFY2(discoverCluster(seedConfig(m_cluster.seedPort()), map, &error), error.c_str());
        qInfo("discovery took %lld ms: %s", timer.elapsed(), map.describe().substr(0, 200).c_str());
        QVERIFY(map.complete());
        QCOMPARE(map.nodes().size(), std::size_t(3));
        QCOMPARE(map.servingNodes().size(), std::size_t(3));
        std::size_t slotTotal = 0;
        for (std::size_t i = 0; i < map.nodes().size(); ++i) {
            const ClusterNode& node = map.nodes()[i];
            QCOMPARE(node.host, std::string("127.0.0.1"));
            QVERIFY(m_cluster.ports().contains(node.port));
            QVERIFY(node.master);
            QCOMPARE(QString::fromStdString(node.id), m_cluster.nodeId(node.port));
            slotTotal += map.slotCount(static_cast<int>(i));
        }
        QCOMPARE(slotTotal, std::size_t(16384));
        QCOMPARE(ownersOf(map), m_cluster.slotOwners());
    }

    void agreesWithTheServers()
    {
        SlotMap map;
        std::string error;
        QVERIFY2(discoverCluster(seedConfig(m_cluster.seedPort()), map, &error), error.c_str());
        const QVector<quint16> owners = ownersOf(map);

        // Our keySlot() is the server's CLUSTER KEYSLOT, and the node our map names accepts
        // the key while every other node answers MOVED to it.
        for (int i = 0; i < 120; ++i) {
            const std::string key = (i % 3 == 0 ? "{user" + std::to_string(i) + "}.followers"
                                                 : "key:" + std::to_string(i * 7919));
            const QByteArray keyBytes = QByteArray::fromStdString(key);
            const std::uint16_t slot = keySlot(key);
            QCOMPARE(m_cluster.keySlot(keyBytes), int(slot));
            const quint16 owner = owners[slot];
            const RedisReply accepted = m_cluster.server(owner)->commandBytes({"SET", keyBytes, "v"});
            QVERIFY2(accepted.type == RedisReply::Type::Status, qPrintable(accepted.describe()));
            for (const quint16 port : m_cluster.ports()) {
                if (port == owner)
                    continue;
                const RedisReply moved = m_cluster.server(port)->commandBytes({"GET", keyBytes});
                QCOMPARE(moved.type, RedisReply::Type::Error);
                const auto redirect = parseRedirect(moved.text.toStdString());
                QVERIFY2(redirect.has_value(), moved.text.constData());
                QVERIFY(!redirect->ask);
                QCOMPARE(redirect->slot, slot);
                QCOMPARE(redirect->host, std::string("127.0.0.1"));
                QCOMPARE(redirect->port, owner);
            }
        }

        // Tags from the table hash where they say, on the server too.
        for (int slot = 0; slot < kClusterSlots; slot += 331) {
            const std::string tagged = "{" + std::string(findHashTagForSlot(static_cast<std::uint16_t>(slot))) + "}:key:1";
            QCOMPARE(m_cluster.keySlot(QByteArray::fromStdString(tagged)), slot);
        }
    }

    void everySeedAndBothCommandsAgree()
    {
        const QVector<quint16> expected = m_cluster.slotOwners();
        for (const quint16 port : m_cluster.ports()) {
            for (const TopologyCommand command : {TopologyCommand::Shards, TopologyCommand::Slots, TopologyCommand::Auto}) {
                SlotMap map;
                std::string error;
                QVERIFY2(discoverCluster(seedConfig(port), map, &error, command), error.c_str());
                QCOMPARE(ownersOf(map), expected);
                QCOMPARE(map.nodes().size(), std::size_t(3));
            }
        }
        // "localhost" as the seed: the nodes come back by their announced address.
        RunConfig byName = seedConfig(m_cluster.seedPort());
        byName.endpoint.host = "localhost";
        SlotMap map;
        std::string error;
        QVERIFY2(discoverCluster(byName, map, &error), error.c_str());
        QCOMPARE(map.nodes()[0].host, std::string("127.0.0.1"));
    }

    void fallsBackToClusterSlots()
    {
        // A user allowed CLUSTER SLOTS but not CLUSTER SHARDS (as on some managed services).
        RedisServer* seed = m_cluster.server(m_cluster.seedPort());
        QCOMPARE(seed->commandString({"ACL", "SETUSER", "slotsonly", "on", ">pw", "~*", "+@all", "-cluster|shards"}),
                 std::optional<QString>("OK"));
        RunConfig config = seedConfig(m_cluster.seedPort());
        config.user = "slotsonly";
        config.password = "pw";
        SlotMap map;
        std::string error;
        QVERIFY(!discoverCluster(config, map, &error, TopologyCommand::Shards));
        QVERIFY2(error.find("CLUSTER SHARDS failed: NOPERM") != std::string::npos, error.c_str());
        QVERIFY2(discoverCluster(config, map, &error, TopologyCommand::Auto), error.c_str());
        QCOMPARE(ownersOf(map), m_cluster.slotOwners());
        QCOMPARE(seed->commandInteger({"ACL", "DELUSER", "slotsonly"}), 1LL);
    }

    void followsAReshard()
    {
        SlotMap map;
        std::string error;
        const RunConfig seed = seedConfig(m_cluster.seedPort());
        QVERIFY2(discoverCluster(seed, map, &error), error.c_str());
        const std::vector<ClusterNode> nodesBefore = map.nodes();

        const QList<quint16> masters = m_cluster.masterPorts();
        const quint16 from = masters[2];
        const quint16 to = masters[0];
        QString reshardError;
        QVERIFY2(m_cluster.reshard(from, to, 50, &reshardError), qPrintable(reshardError));
        const QVector<quint16> owners = m_cluster.slotOwners();

        // The stale map sends a moved slot to its old owner; the MOVED reply fixes it.
        int movedSlot = -1;
        for (int slot = 0; slot < kClusterSlots && movedSlot < 0; ++slot)
            if (ownersOf(map)[slot] == from && owners[slot] == to)
                movedSlot = slot;
        QVERIFY2(movedSlot >= 0, "50 slots changed owner");
        const std::string key = "{" + std::string(findHashTagForSlot(static_cast<std::uint16_t>(movedSlot))) + "}k";
        const int stale = map.lookup(static_cast<std::uint16_t>(movedSlot));
        const RedisReply reply = m_cluster.server(map.nodes()[static_cast<std::size_t>(stale)].port)
                                     ->commandBytes({"SET", QByteArray::fromStdString(key), "v"});
        const auto redirect = parseRedirect(reply.text.toStdString());
        QVERIFY2(redirect.has_value(), qPrintable(reply.describe()));
        QCOMPARE(int(redirect->slot), movedSlot);
        const int index = map.update(redirect->slot, redirect->host, redirect->port);
        QCOMPARE(map.nodes()[static_cast<std::size_t>(index)].port, to);
        QCOMPARE(map.nodes().size(), std::size_t(3));   // a known node, no new entry
        QCOMPARE(m_cluster.server(to)->commandBytes({"SET", QByteArray::fromStdString(key), "v"}).text, QByteArray("OK"));

        // A full refresh agrees with the servers and keeps every node's index.
        QVERIFY2(refreshCluster(seed, map, &error), error.c_str());
        QCOMPARE(ownersOf(map), owners);
        QCOMPARE(map.nodes().size(), nodesBefore.size());
        for (std::size_t i = 0; i < nodesBefore.size(); ++i)
            QCOMPARE(map.nodes()[i].port, nodesBefore[i].port);
    }

    void notInClusterMode()
    {
        RedisServer plain;
        QString startError;
        QVERIFY2(plain.start(&startError), qPrintable(startError));
        for (const TopologyCommand command : {TopologyCommand::Auto, TopologyCommand::Slots}) {
            SlotMap map;
            std::string error;
            QVERIFY(!discoverCluster(seedConfig(plain.port()), map, &error, command));
            QVERIFY2(error.find("the server is not in cluster mode (ERR This instance has cluster support disabled)")
                         != std::string::npos,
                     error.c_str());
            QVERIFY2(error.find("127.0.0.1:" + std::to_string(plain.port())) == 0, error.c_str());
        }
    }

    void missingSlots()
    {
        // A lone cluster-enabled node that serves only some slots.
        RedisServer::Options options;
        options.maxPort = RedisCluster::kMaxPort;
        options.extraArgs = QStringList{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"};
        RedisServer lone(options);
        QString startError;
        QVERIFY2(lone.start(&startError), qPrintable(startError));
        SlotMap map;
        std::string error;
        QVERIFY(!discoverCluster(seedConfig(lone.port()), map, &error));
        QVERIFY2(error.find("missing slots 0-16383") != std::string::npos, error.c_str());

        QCOMPARE(lone.commandString({"CLUSTER", "ADDSLOTSRANGE", "0", "99", "201", "16383"}), std::optional<QString>("OK"));
        for (const TopologyCommand command : {TopologyCommand::Shards, TopologyCommand::Slots}) {
            QVERIFY(!discoverCluster(seedConfig(lone.port()), map, &error, command));
            QVERIFY2(error.find("the cluster is missing slots 100-200") != std::string::npos, error.c_str());
            // The partial map is still there.
            QCOMPARE(map.nodes().size(), std::size_t(1));
            QCOMPARE(map.lookup(0), 0);
            QCOMPARE(map.lookup(150), SlotMap::kNoNode);
        }
    }

    void unreachableSeed()
    {
        const quint16 port = tacho::test::pickFreeLoopbackPort();
        SlotMap map;
        std::string error;
        QVERIFY(!discoverCluster(seedConfig(port), map, &error));
        QVERIFY2(error.find("cannot connect to 127.0.0.1:" + std::to_string(port)) != std::string::npos, error.c_str());
    }

private:
    RedisCluster m_cluster;
};

QTEST_GUILESS_MAIN(TestClusterDiscovery)
#include "test_cluster_discovery.moc"
