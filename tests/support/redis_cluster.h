#pragma once
// Test fixture: a real Redis Cluster of redis-server processes on loopback.
//
//   tacho::test::RedisCluster cluster;                       // 3 masters, no replicas
//   QString error;
//   QVERIFY2(cluster.start(&error), qPrintable(error));
//   const quint16 seed = cluster.seedPort();
//   QVERIFY(cluster.reshard(cluster.masterPorts()[0], cluster.masterPorts()[1], 100, &error));
//
// Each node is a RedisServer (its own temporary directory, --bind 127.0.0.1, ports at most
// 55535 because the cluster bus listens on port + 10000) started with
// --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 2000
// --repl-diskless-sync-delay 0 (replicas sync at once).
// The nodes.conf lives in the node's private directory, so it is unique per node without the
// port in its name (the port is picked inside RedisServer::start()).
// start() then runs `redis-cli --cluster create 127.0.0.1:P1 … --cluster-replicas R
// --cluster-yes` (the first `masters` nodes become the masters) and waits until the cluster
// is stable (waitUntilStable(): ok everywhere, one view of slots and roles, replicas synced).
//
// Everything is bounded in time: redis-cli runs are killed after their timeout, waits give up
// with a message. stop() (and the destructor) stops every node by PID: SIGTERM to all, then
// RedisServer::stop() on each (SIGKILL after 5 s), so no process is left behind.
//
// Not thread-safe: use one RedisCluster from one thread.
#include <QByteArray>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>
#include <vector>

namespace tacho::test {

class RedisServer;

class RedisCluster {
public:
    struct Options {
        int masters = 3;
        int replicasPerMaster = 0;
        int nodeTimeoutMs = 2000;      // --cluster-node-timeout
        QStringList extraArgs;         // appended to every node's command line
        int readyTimeoutMs = 20000;    // start(): until the cluster is ok and consistent
    };

    // One node as it sees itself (its "myself" line in CLUSTER NODES).
    struct Node {
        quint16 port = 0;
        qint64 pid = 0;
        QString id;                     // node id (40 hex digits)
        bool master = false;            // current role
        QString masterId;               // replicas: their master's id; empty for masters
        QList<QPair<int, int>> slotRanges;   // slot ranges it serves (inclusive)
    };

    // One run of redis-cli.
    struct CliResult {
        int exitCode = -1;          // -1 when it crashed or timed out
        QByteArray out;
        QByteArray err;
        bool timedOut = false;
        bool ok() const { return exitCode == 0 && !timedOut; }
    };

    static constexpr quint16 kMaxPort = 55535;      // the bus port is port + 10000
    static constexpr int kCliTimeoutMs = 60000;     // default bound of one redis-cli run
    static constexpr int kSettleTimeoutMs = 20000;  // reshard()/failover(): until consistent again

    RedisCluster();
    explicit RedisCluster(Options options);
    ~RedisCluster();   // stop()
    RedisCluster(const RedisCluster&) = delete;
    RedisCluster& operator=(const RedisCluster&) = delete;

    // Starts masters × (1 + replicasPerMaster) nodes, creates the cluster and waits until
    // it is ready (see above). False with a message (redis-cli's output, the state that was
    // not reached) on failure; the nodes are stopped then.
    bool start(QString* error);
    void stop();   // idempotent
    bool isRunning() const;

    // Live views, asked from the nodes.
    QList<Node> nodes() const;           // in start order
    QList<quint16> masterPorts() const;  // nodes whose role is master now, in start order
    QList<quint16> replicaPorts() const;

    QList<quint16> ports() const;        // every node, in start order
    quint16 seedPort() const;            // the first node (a master at creation)
    QString host() const { return QStringLiteral("127.0.0.1"); }
    QString nodeId(quint16 port) const;  // CLUSTER MYID
    RedisServer* server(quint16 port) const;   // nullptr for a port that is not ours

    // Who serves each slot (16384 entries, 0 for none), from `askPort`'s CLUSTER SLOTS
    // (default: the seed).
    QVector<quint16> slotOwners(quint16 askPort = 0) const;
    quint16 portOfSlot(int slot) const;
    int keySlot(const QByteArray& key) const;          // CLUSTER KEYSLOT, -1 on failure
    quint16 portOfKey(const QByteArray& key) const;    // CLUSTER KEYSLOT, then its owner

    // Moves `slotCount` slots from the master on fromPort to the master on toPort with
    // `redis-cli --cluster reshard 127.0.0.1:P --cluster-from ID --cluster-to ID
    // --cluster-slots N --cluster-yes`, then waits until all nodes agree again.
    bool reshard(quint16 fromPort, quint16 toPort, int slotCount, QString* error = nullptr);
    // CLUSTER FAILOVER on the replica on replicaPort (once its replication link is up), waits
    // until it is a master and all nodes agree again.
    bool failover(quint16 replicaPort, QString* error = nullptr);
    // Until every node says cluster_state:ok, knows every node (none flagged fail?, fail,
    // handshake or noaddr, every link connected), all agree on each slot's owner and on every
    // node's role, and every replica's replication link is up.
    bool waitUntilStable(int timeoutMs, QString* error = nullptr) const;

    quint64 keysOnNode(quint16 port) const;                     // DBSIZE
    QMap<QString, quint64> commandStatsCalls(quint16 port) const;   // see RedisServer
    void flushAll() const;                                      // FLUSHALL on every master
    void resetStats() const;                                    // CONFIG RESETSTAT on every node

    // Runs redis-cli with `args` (e.g. {"-c", "-p", port, "SET", "k", "v"}), writing stdinData
    // to its standard input; killed after timeoutMs.
    CliResult redisCli(const QStringList& args, const QByteArray& stdinData = {},
                       int timeoutMs = kCliTimeoutMs) const;

private:
    bool createCluster(QString* error);
    QString stableProblem() const;   // empty when stable, else what is not yet

    Options m_options;
    std::vector<std::unique_ptr<RedisServer>> m_servers;
};

} // namespace tacho::test
