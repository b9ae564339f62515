// Benchmarks against a real 3-master loopback cluster: keys land on the
// nodes owning their slots, the nodes' own counts add up to what the run
// reports, and a live reshard and a failover are followed without losing a
// request. Issue #4.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <optional>
#include <thread>

#include "support/cli_runner.h"
#include "support/redis_cluster.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisCluster;
using tacho::test::RedisReply;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

// For failure messages.
QString describe(const CliResult& r) { return tacho::test::describeCliResult(r); }

QJsonObject firstTest(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value("tests").toArray().at(0).toObject();
}

// What the masters executed (calls) and refused with a redirect (rejected).
quint64 totalCalls(const RedisCluster& cluster, const QString& command)
{
    quint64 sum = 0;
    for (quint16 port : cluster.masterPorts())
        sum += cluster.commandStatsCalls(port).value(command);
    return sum;
}

quint64 totalKeys(const RedisCluster& cluster)
{
    quint64 sum = 0;
    for (quint16 port : cluster.masterPorts())
        sum += cluster.keysOnNode(port);
    return sum;
}

// Keys one node holds that match a glob, asked from the node itself (SCAN
// MATCH from cursor 0 back to 0); nullopt when SCAN fails.
std::optional<QStringList> keysMatching(const RedisServer& node, const QString& pattern)
{
    QStringList keys;
    QByteArray cursor = "0";
    do {
        const RedisReply reply = node.command({ "SCAN", QString::fromLatin1(cursor), "MATCH", pattern, "COUNT", "1000" });
        if (reply.type != RedisReply::Type::Array || reply.elements.size() != 2)
            return std::nullopt;
        cursor = reply.elements[0].text;
        for (const RedisReply& key : reply.elements[1].elements)
            keys << QString::fromUtf8(key.text);
    } while (cursor != "0");
    return keys;
}

// "cleanup: removed N keys matching …" → N; -1 without that sentence.
qint64 removedCount(const QByteArray& text)
{
    const auto match = QRegularExpression(R"(cleanup: removed (\d+) keys? matching )").match(QString::fromUtf8(text));
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

} // namespace

class TestClusterCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_cluster.start(&error), qPrintable(error));
    }

    void init()
    {
        m_cluster.flushAll();
        m_cluster.resetStats();
    }

    void redisBenchmarkClusterCountsAddUp()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("rb.json");
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_cluster.seedPort()), "--cluster", "-t", "set",
                               "-n", "9000", "-r", "100000", "-q", "--json", path }, 60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("agrees"), qPrintable(describe(r)));
        QCOMPARE(totalCalls(m_cluster, "set"), 9000u);
        for (quint16 port : m_cluster.masterPorts())
            QVERIFY2(m_cluster.commandStatsCalls(port).value("set") > 0, "a master got no traffic");
        const QJsonObject test = firstTest(path);
        QCOMPARE(test.value("nodes").toArray().size(), 3);
        qint64 perNode = 0;
        for (const auto& node : test.value("nodes").toArray())
            perNode += node.toObject().value("requests").toInteger();
        QCOMPARE(perNode, 9000);
    }

    // Seed 001's fill: every key of the range written once, each on the node
    // that owns its slot.
    void memtierAllKeysLandOnTheirNodes()
    {
        CliResult r = runCli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(m_cluster.seedPort()), "--cluster-mode",
                               "-t", "2", "-c", "3", "-n", "allkeys", "--key-pattern=P:P", "--key-minimum=1",
                               "--key-maximum=3001", "--ratio=1:0", "-d", "32", "--hide-histogram" }, 60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(totalKeys(m_cluster), 3001u);
        QCOMPARE(totalCalls(m_cluster, "set"), 3001u);
        for (const QByteArray& key : { QByteArray("memtier-1"), QByteArray("memtier-1500"), QByteArray("memtier-3001") }) {
            const quint16 owner = m_cluster.portOfKey(key);
            QCOMPARE(m_cluster.server(owner)->commandInteger({ "EXISTS", QString::fromLatin1(key) }), 1);
        }
    }

    // 500 slots move while the run goes on: MOVED/ASK are followed and every
    // request is answered.
    void liveReshardLosesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("reshard.json");
        const QList<quint16> masters = m_cluster.masterPorts();
        QString reshardError;
        bool resharded = false;
        std::thread mover([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(800));
            resharded = m_cluster.reshard(masters[0], masters[1], 500, &reshardError);
        });
        CliResult r = runCli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(m_cluster.seedPort()), "--cluster-mode",
                               "-t", "1", "-c", "4", "--test-time", "4", "--ratio", "1:1", "--key-maximum", "20000",
                               "--hide-histogram", "--json", path }, 60000);
        mover.join();
        QVERIFY2(resharded, qPrintable(reshardError));
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(path);
        QCOMPARE(test.value("unanswered").toInteger(), 0);
        QCOMPARE(test.value("errors").toInteger(), 0);
        QVERIFY2(test.value("moved").toInteger() + test.value("asked").toInteger() > 0, "no redirect seen during a reshard");
        // Each redirect is a rejected call on the node that sent it.
        const qint64 server = qint64(totalCalls(m_cluster, "set") + totalCalls(m_cluster, "get"));
        const qint64 client = test.value("requests").toInteger() + test.value("moved").toInteger()
            + test.value("asked").toInteger();
        QCOMPARE(server, client);
    }

    // A replica takes over its master mid-run (CLUSTER FAILOVER): the run
    // follows the new topology; nothing is lost or failed.
    void failoverLosesNothing()
    {
        RedisCluster::Options options;
        options.replicasPerMaster = 1;
        RedisCluster cluster(options);
        QString error;
        QVERIFY2(cluster.start(&error), qPrintable(error));
        QTemporaryDir dir;
        const QString path = dir.filePath("failover.json");
        const quint16 replica = cluster.replicaPorts().at(0);
        bool failedOver = false;
        std::thread promoter([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(800));
            failedOver = cluster.failover(replica, &error);
        });
        CliResult r = runCli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(cluster.seedPort()), "--cluster-mode",
                               "-t", "1", "-c", "4", "--test-time", "4", "--ratio", "1:1", "--key-maximum", "20000",
                               "--hide-histogram", "--json", path }, 60000);
        promoter.join();
        QVERIFY2(failedOver, qPrintable(error));
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(path);
        QCOMPARE(test.value("unanswered").toInteger(), 0);
        QCOMPARE(test.value("errors").toInteger(), 0);
        QVERIFY(test.value("requests").toInteger() > 0);
        QVERIFY2(test.value("moved").toInteger() + test.value("topologyRefreshes").toInteger() > 0,
                 "the failover went unnoticed");
        QVERIFY(cluster.masterPorts().contains(replica));
    }

    // --cleanup on a cluster (issue #8), both dialects: a first run without
    // it writes the keys (same seed, a key range small enough that every key
    // is written), so each master's share is known; the same run with
    // --cleanup then removes exactly those on every master, while look-alike
    // keys planted on every master beforehand stay.
    void cleanupRemovesTheRunsKeysOnEveryMaster_data()
    {
        QTest::addColumn<QStringList>("run");
        QTest::addColumn<QStringList>("patterns");     // the run's keys, as SCAN MATCH globs
        QTest::addColumn<QStringList>("lookAlikes");   // %1: a number that puts the key on a given master
        QTest::addColumn<QStringList>("described");    // the exact names, as the clean-up says and records them
        const QString seed = QString::number(m_cluster.seedPort());
        // Six clients: their hash tags spread over all three masters' slots.
        QTest::newRow("redis-benchmark")
            << QStringList { "redis-benchmark", "-p", seed, "--cluster", "-t", "set,incr,lpush", "-r", "50", "-n", "6000",
                             "-c", "6", "--seed", "7", "-q" }
            << QStringList { "key{????:[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]",
                             "counter{????:[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]",
                             "mylist{????" }
            << QStringList { "key:00000000000%1", "key{%1}:not-digits", "counter:%1", "mylist%1", "user:%1" }
            << QStringList { "key<hash tag>:<12 digits, 0..49>", "counter<hash tag>:<12 digits, 0..49>", "mylist<hash tag>" };
        QTest::newRow("memtier")
            << QStringList { "memtier", "-s", "127.0.0.1", "-p", seed, "--cluster-mode", "-t", "2", "-c", "3",
                             "-n", "allkeys", "--key-pattern=P:P", "--key-prefix=bench:", "--key-minimum=1",
                             "--key-maximum=3000", "--ratio=1:0", "-d", "16", "--hide-histogram" }
            << QStringList { "bench:[0-9]*" }
            << QStringList { "bench:x%1", "bench-%1", "memtier-%1", "other:%1" }
            << QStringList { "bench:<1..3000>" };
    }

    void cleanupRemovesTheRunsKeysOnEveryMaster()
    {
        QFETCH(QStringList, run);
        QFETCH(QStringList, patterns);
        QFETCH(QStringList, lookAlikes);
        QFETCH(QStringList, described);
        const QList<quint16> masters = m_cluster.masterPorts();
        QCOMPARE(masters.size(), 3);

        // Every look-alike form once on every master.
        QMap<quint16, QStringList> planted;
        for (const QString& form : lookAlikes)
            for (quint16 master : masters)
                for (int n = 0;; ++n) {
                    QVERIFY2(n < 1000, qPrintable("no key of the form " + form + " lands on " + QString::number(master)));
                    const QString key = form.arg(n);
                    if (m_cluster.portOfKey(key.toUtf8()) != master)
                        continue;
                    QCOMPARE(m_cluster.server(master)->commandString({ "SET", key, "the user's" }),
                             std::optional<QString>("OK"));
                    planted[master] << key;
                    break;
                }

        const CliResult first = runCli(run, 60000);
        QVERIFY2(first.exitCode == 0, qPrintable(describe(first)));
        QMap<quint16, qint64> written;
        qint64 totalWritten = 0;
        for (quint16 master : masters) {
            qint64 runKeys = 0;
            for (const QString& pattern : patterns) {
                const auto keys = keysMatching(*m_cluster.server(master), pattern);
                QVERIFY(keys);
                runKeys += keys->size();
            }
            // Everything else on the node is what was planted: the globs cover the run's keys.
            QCOMPARE(qint64(m_cluster.keysOnNode(master)), runKeys + planted[master].size());
            QVERIFY2(runKeys > 0, qPrintable(QString("the run wrote nothing on %1").arg(master)));
            written[master] = runKeys;
            totalWritten += runKeys;
        }

        m_cluster.resetStats();
        QTemporaryDir dir;
        const QString runFile = dir.filePath("run.json");
        const CliResult cleaned = runCli(QStringList(run) << "--cleanup" << "--json" << runFile, 60000);
        QVERIFY2(cleaned.exitCode == 0, qPrintable(describe(cleaned)));
        QCOMPARE(removedCount(cleaned.out), totalWritten);
        // The run file records the clean-up as the masters saw it.
        QFile file(runFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject section = QJsonDocument::fromJson(file.readAll()).object().value("cleanup").toObject();
        QCOMPARE(section.value("status").toString(), QString("completed"));
        QCOMPARE(section.value("error").toString(), QString());
        QCOMPARE(section.value("removed").toInteger(), totalWritten);
        QStringList recordedPatterns;
        for (const auto& pattern : section.value("patterns").toArray())
            recordedPatterns << pattern.toString();
        QCOMPARE(recordedPatterns, described);
        const QJsonArray nodes = section.value("nodes").toArray();
        QCOMPARE(nodes.size(), masters.size());
        QMap<quint16, qint64> removedOn;
        for (const auto& node : nodes) {
            const QString address = node.toObject().value("address").toString();
            QVERIFY2(address.startsWith("127.0.0.1:"), qPrintable(address));
            removedOn[quint16(address.mid(10).toUInt())] = node.toObject().value("removed").toInteger();
        }
        QCOMPARE(removedOn, written);
        // So do the report's summary and CSV.
        const CliResult report = runCli({ "report", runFile, "--csv", "-" }, 30000);
        QVERIFY2(report.exitCode == 0, qPrintable(describe(report)));
        QVERIFY2(report.out.contains(",completed," + QByteArray::number(totalWritten) + "\n"), qPrintable(describe(report)));
        for (const QString& names : described)
            QVERIFY2(cleaned.out.contains(names.toUtf8()), qPrintable(names + "\n" + describe(cleaned)));
        for (quint16 master : masters) {
            RedisServer& node = *m_cluster.server(master);
            for (const QString& pattern : patterns)
                QCOMPARE(keysMatching(node, pattern), std::optional<QStringList>(QStringList()));
            QCOMPARE(qint64(node.dbSize()), qint64(planted[master].size()));
            for (const QString& key : planted[master])
                QVERIFY2(node.commandString({ "GET", key }) == std::optional<QString>("the user's"), qPrintable(key));
            const QMap<QString, quint64> calls = node.commandStatsCalls();
            QVERIFY2(calls.value("scan") > 0 && calls.value("unlink") > 0,
                     qPrintable(QString("no SCAN/UNLINK on %1").arg(master)));
            QCOMPARE(calls.value("flushall") + calls.value("flushdb") + calls.value("del"), 0u);
        }
    }

private:
    RedisCluster m_cluster;
};

QTEST_GUILESS_MAIN(TestClusterCli)
#include "test_cluster_cli.moc"
