// The Redis Cluster test fixture itself (issue 4): RedisCluster creates a real loopback
// cluster with redis-cli, keys land on the nodes that own their slots, a reshard moves slots
// (and their keys), a 3+3 cluster fails over to a replica, and stopping leaves no process.
#include <QElapsedTimer>
#include <QSet>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <memory>

#include "support/redis_cluster.h"
#include "support/redis_server.h"

using tacho::test::RedisCluster;
using tacho::test::RedisReply;
using tacho::test::RedisServer;

namespace {

bool processExists(qint64 pid)
{
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

bool allGone(const QList<qint64>& pids)
{
    for (const qint64 pid : pids)
        if (processExists(pid))
            return false;
    return true;
}

int slotsOf(const RedisCluster::Node& node)
{
    int count = 0;
    for (const auto& [first, last] : node.slotRanges)
        count += last - first + 1;
    return count;
}

QByteArray keyName(int i)
{
    return QByteArray("fixture:key:") + QByteArray::number(i);
}

} // namespace

class TestRedisClusterFixture : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QElapsedTimer timer;
        timer.start();
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
        qInfo("3-master cluster ready in %lld ms", timer.elapsed());
        for (const RedisCluster::Node& node : m_cluster.nodes())
            m_pids.append(node.pid);
    }

    void cleanupTestCase()
    {
        m_cluster.stop();
        QVERIFY(!m_cluster.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(allGone(m_pids), 5000);
    }

    void comesUpAndAnswers()
    {
        QVERIFY(m_cluster.isRunning());
        const QList<RedisCluster::Node> nodes = m_cluster.nodes();
        QCOMPARE(nodes.size(), 3);
        QSet<QString> ids;
        int slotTotal = 0;
        for (const RedisCluster::Node& node : nodes) {
            QVERIFY(node.port > 0 && node.port <= RedisCluster::kMaxPort);
            QVERIFY(node.pid > 0 && processExists(node.pid));
            QCOMPARE(node.id.size(), 40);
            QVERIFY(node.master);
            QVERIFY(node.masterId.isEmpty());
            QVERIFY2(slotsOf(node) > 5000, qPrintable(QString("node %1 serves %2 slots").arg(node.port).arg(slotsOf(node))));
            QCOMPARE(m_cluster.nodeId(node.port), node.id);
            ids.insert(node.id);
            slotTotal += slotsOf(node);

            RedisServer* server = m_cluster.server(node.port);
            QVERIFY(server);
            QVERIFY(server->ping());
            const QMap<QString, QString> info = server->info("cluster");
            QCOMPARE(info.value("cluster_enabled"), QString("1"));
            const RedisReply clusterInfo = server->command({"CLUSTER", "INFO"});
            QVERIFY2(clusterInfo.text.contains("cluster_state:ok"), clusterInfo.text.constData());
            QVERIFY(clusterInfo.text.contains("cluster_known_nodes:3"));
        }
        QCOMPARE(ids.size(), 3);
        QCOMPARE(slotTotal, 16384);
        QCOMPARE(m_cluster.masterPorts(), m_cluster.ports());
        QVERIFY(m_cluster.replicaPorts().isEmpty());
        QCOMPARE(m_cluster.seedPort(), m_cluster.ports().first());
        QVERIFY(!m_cluster.server(1));

        // Every slot has an owner, and every node says the same.
        const QVector<quint16> owners = m_cluster.slotOwners();
        QCOMPARE(owners.size(), 16384);
        QVERIFY(!owners.contains(quint16(0)));
        for (const quint16 port : m_cluster.ports())
            QCOMPARE(m_cluster.slotOwners(port), owners);
        QCOMPARE(m_cluster.keySlot("foo"), 12182);
        QCOMPARE(m_cluster.portOfKey("foo"), owners[12182]);

        QString error;
        QVERIFY2(m_cluster.waitUntilStable(1000, &error), qPrintable(error));
    }

    void keysLandOnOwningNodes()
    {
        m_cluster.flushAll();
        constexpr int kKeys = 300;
        QByteArray script;
        for (int i = 0; i < kKeys; ++i)
            script += "SET " + keyName(i) + " v" + QByteArray::number(i) + "\n";
        // One redis-cli in cluster mode follows the MOVED redirections.
        const RedisCluster::CliResult result =
            m_cluster.redisCli({"-c", "-h", "127.0.0.1", "-p", QString::number(m_cluster.seedPort())}, script, 30000);
        QVERIFY2(result.ok(), result.err.constData());
        QCOMPARE(result.out.count("OK\n"), kKeys);

        quint64 total = 0;
        for (const quint16 port : m_cluster.masterPorts()) {
            const quint64 keys = m_cluster.keysOnNode(port);
            QVERIFY2(keys > 0, qPrintable(QString("no key on node %1").arg(port)));
            total += keys;
        }
        QCOMPARE(total, quint64(kKeys));

        const QVector<quint16> owners = m_cluster.slotOwners();
        for (int i = 0; i < kKeys; i += 7) {
            const int slot = m_cluster.keySlot(keyName(i));
            QVERIFY(slot >= 0);
            RedisServer* owner = m_cluster.server(owners[slot]);
            QVERIFY(owner);
            const RedisReply value = owner->commandBytes({"GET", keyName(i)});
            QCOMPARE(value.type, RedisReply::Type::String);
            QCOMPARE(value.text, "v" + QByteArray::number(i));
            // Any other node redirects.
            for (const quint16 port : m_cluster.ports()) {
                if (port == owners[slot])
                    continue;
                const RedisReply moved = m_cluster.server(port)->commandBytes({"GET", keyName(i)});
                QCOMPARE(moved.type, RedisReply::Type::Error);
                QCOMPARE(moved.text, QByteArray("MOVED ") + QByteArray::number(slot) + " 127.0.0.1:"
                                         + QByteArray::number(owners[slot]));
            }
        }

        // commandstats per node: what was sent straight to each owner.
        m_cluster.resetStats();
        QMap<quint16, quint64> sent;
        for (int i = 0; i < 30; ++i) {
            const quint16 port = m_cluster.portOfKey(keyName(i));
            QCOMPARE(m_cluster.server(port)->commandBytes({"SET", keyName(i), "again"}).text, QByteArray("OK"));
            ++sent[port];
        }
        for (const quint16 port : m_cluster.masterPorts())
            QCOMPARE(m_cluster.commandStatsCalls(port).value("set"), sent.value(port));

        // A request answered with MOVED counts as a rejected call of that command on the node
        // that redirected it (commandStatsCalls() adds calls and rejected_calls).
        const quint16 owner = m_cluster.portOfKey(keyName(0));
        const quint16 other = m_cluster.ports()[(m_cluster.ports().indexOf(owner) + 1) % 3];
        const QMap<QString, quint64> before = m_cluster.commandStatsCalls(other);
        QVERIFY(m_cluster.server(other)->commandBytes({"GET", keyName(0)}).text.startsWith("MOVED"));
        const QMap<QString, quint64> after = m_cluster.commandStatsCalls(other);
        QCOMPARE(after.value("get"), before.value("get") + 1);
    }

    void reshardMovesSlots()
    {
        const QList<quint16> masters = m_cluster.masterPorts();
        QCOMPARE(masters.size(), 3);
        const quint16 from = masters[0];
        const quint16 to = masters[1];
        auto slotCount = [this](quint16 port) {
            for (const RedisCluster::Node& node : m_cluster.nodes())
                if (node.port == port)
                    return slotsOf(node);
            return -1;
        };
        const int fromBefore = slotCount(from);
        const int toBefore = slotCount(to);
        const quint64 keysBefore = m_cluster.keysOnNode(from) + m_cluster.keysOnNode(to);

        QElapsedTimer timer;
        timer.start();
        QString error;
        QVERIFY2(m_cluster.reshard(from, to, 100, &error), qPrintable(error));
        qInfo("reshard of 100 slots took %lld ms", timer.elapsed());

        QCOMPARE(slotCount(from), fromBefore - 100);
        QCOMPARE(slotCount(to), toBefore + 100);
        // The keys moved with their slots: none lost, each on its new owner.
        QCOMPARE(m_cluster.keysOnNode(from) + m_cluster.keysOnNode(to), keysBefore);
        quint64 total = 0;
        for (const quint16 port : m_cluster.masterPorts())
            total += m_cluster.keysOnNode(port);
        QCOMPARE(total, quint64(300));
        const QVector<quint16> owners = m_cluster.slotOwners();
        for (const quint16 port : m_cluster.ports())
            QCOMPARE(m_cluster.slotOwners(port), owners);
        for (int i = 0; i < 300; i += 11) {
            const int slot = m_cluster.keySlot(keyName(i));
            QCOMPARE(m_cluster.server(owners[slot])->commandBytes({"EXISTS", keyName(i)}).integer, 1LL);
        }
    }

    void failsOverToReplica()
    {
        RedisCluster::Options options;
        options.replicasPerMaster = 1;
        RedisCluster cluster(options);
        QElapsedTimer timer;
        timer.start();
        QString error;
        QVERIFY2(cluster.start(&error), qPrintable(error));
        qInfo("3+3 cluster ready in %lld ms", timer.elapsed());

        QList<qint64> pids;
        QMap<QString, quint16> portById;
        for (const RedisCluster::Node& node : cluster.nodes()) {
            pids.append(node.pid);
            portById.insert(node.id, node.port);
        }
        QCOMPARE(pids.size(), 6);
        QCOMPARE(cluster.masterPorts().size(), 3);
        QCOMPARE(cluster.replicaPorts().size(), 3);

        // The replica of the master that serves "foo".
        const quint16 oldMaster = cluster.portOfKey("foo");
        quint16 replica = 0;
        QString oldMasterId = cluster.nodeId(oldMaster);
        for (const RedisCluster::Node& node : cluster.nodes())
            if (!node.master && node.masterId == oldMasterId)
                replica = node.port;
        QVERIFY2(replica != 0, "every master has a replica");
        QCOMPARE(cluster.server(oldMaster)->commandString({"SET", "foo", "bar"}), std::optional<QString>("OK"));
        QCOMPARE(cluster.server(oldMaster)->commandInteger({"WAIT", "1", "2000"}), 1LL);

        timer.restart();
        QVERIFY2(cluster.failover(replica, &error), qPrintable(error));
        qInfo("failover took %lld ms", timer.elapsed());

        QCOMPARE(cluster.portOfKey("foo"), replica);
        QVERIFY(cluster.masterPorts().contains(replica));
        QVERIFY(cluster.replicaPorts().contains(oldMaster));
        QCOMPARE(cluster.masterPorts().size(), 3);
        QCOMPARE(cluster.server(replica)->commandString({"GET", "foo"}), std::optional<QString>("bar"));
        const RedisReply moved = cluster.server(oldMaster)->command({"GET", "foo"});
        QCOMPARE(moved.type, RedisReply::Type::Error);
        QVERIFY2(moved.text.startsWith("MOVED 12182 127.0.0.1:" + QByteArray::number(replica)), moved.text.constData());

        timer.restart();
        cluster.stop();
        qInfo("6 nodes stopped in %lld ms", timer.elapsed());
        QVERIFY(!cluster.isRunning());
        QVERIFY(cluster.nodes().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(allGone(pids), 5000);
    }

    void startFailsClearly()
    {
        RedisCluster::Options options;
        options.masters = 2;
        RedisCluster cluster(options);
        QString error;
        QVERIFY(!cluster.start(&error));
        QVERIFY2(error.contains("at least 3 masters"), qPrintable(error));
        QVERIFY(!cluster.isRunning());
    }

private:
    RedisCluster m_cluster;
    QList<qint64> m_pids;
};

QTEST_GUILESS_MAIN(TestRedisClusterFixture)
#include "test_redis_cluster_fixture.moc"
