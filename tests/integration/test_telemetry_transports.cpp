// Issue 19: telemetry wherever a run can go — TLS, a Unix socket, RESP3, an
// ACL user, a cluster (every master sampled on its own), a proxy that does
// not forward INFO. Real redis-server;
// assertions on the run file Tacho wrote and on what the servers counted.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "support/cli_runner.h"
#include "support/nutcracker_proxy.h"
#include "support/redis_cluster.h"
#include "support/redis_server.h"
#include "support/tls_certificates.h"

using tacho::test::CliResult;
using tacho::test::NutcrackerProxy;
using tacho::test::RedisCluster;
using tacho::test::RedisServer;
using tacho::test::TlsCertificates;
using tacho::test::describeCliResult;
using tacho::test::runCli;

namespace {

QJsonObject firstTestTelemetry(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object()["tests"].toArray().at(0).toObject()["telemetry"].toObject();
}

// Every sampled server answered every reading and saw traffic; the client
// side was sampled; the verdict was judged. Returns "" or what was wrong.
QString checkSampled(const QJsonObject& telemetry, int servers)
{
    const QJsonArray list = telemetry["servers"].toArray();
    if (list.size() != servers)
        return QString("%1 servers sampled, expected %2").arg(list.size()).arg(servers);
    QSet<QString> addresses;
    for (const QJsonValue& value : list) {
        const QJsonObject server = value.toObject();
        addresses.insert(server["address"].toString());
        if (!server["unavailable"].toString().isEmpty())
            return "unavailable: " + server["unavailable"].toString();
        double ops = 0;
        for (const QJsonValue& p : server["points"].toArray())
            ops += p.toObject()["opsPerSecond"].toDouble();
        if (server["points"].toArray().isEmpty() || ops <= 0)
            return "no traffic seen on " + server["address"].toString();
    }
    if (addresses.size() != servers)
        return "servers share an address";
    if (telemetry["client"].toObject()["points"].toArray().isEmpty())
        return "no client points";
    const QString kind = telemetry["verdict"].toObject()["kind"].toString();
    if (kind.isEmpty() || kind == "unknown")
        return "verdict " + kind + ": " + telemetry["verdict"].toObject()["reason"].toString();
    return {};
}

} // namespace

class TestTelemetryTransports : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(m_dir.isValid(), "temporary directory");
        QString error;
        QVERIFY2(m_certificates.generate(&error), qPrintable(error));
        RedisServer::Options options;
        options.tls = RedisServer::TlsOptions::from(m_certificates);
        options.unixSocket = true;
        m_server = std::make_unique<RedisServer>(options);
        QVERIFY2(m_server->start(&error), qPrintable(error));
        QCOMPARE(m_server->command({ "ACL", "SETUSER", "bench", "on", ">pw", "~*", "+@all" }).text, QByteArray("OK"));
    }

    void sampledOverEveryTransport_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString port = QString::number(m_server->port());
        QTest::newRow("tls") << QStringList { "-h", "127.0.0.1", "-p", QString::number(m_server->tlsPort()), "--tls",
                                              "--cacert", m_certificates.caCert() };
        QTest::newRow("unix socket") << QStringList { "-s", m_server->unixSocketPath() };
        QTest::newRow("resp3") << QStringList { "-p", port, "-3" };
        QTest::newRow("acl user") << QStringList { "-p", port, "--user", "bench", "-a", "pw" };
    }

    void sampledOverEveryTransport()
    {
        QFETCH(QStringList, args);
        m_server->resetStats();
        const QString json = m_dir.filePath(QString(QTest::currentDataTag()).replace(' ', '_') + ".json");
        const CliResult run = runCli(QStringList { "redis-benchmark" } + args + QStringList { "-t", "set", "-c", "4", "--duration", "1.5",
                                                          "--telemetry-interval", "0.25", "--json", json });
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QJsonObject telemetry = firstTestTelemetry(json);
        const QString problem = checkSampled(telemetry, 1);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // The readings were INFO on the control connection: the server saw them.
        QVERIFY(m_server->commandStatsCalls().value("info") >= quint64(telemetry["servers"].toArray().at(0)
                                                                           .toObject()["points"].toArray().size()));
        QVERIFY2(run.out.contains("\nbottleneck: "), run.out.constData());
    }

    // Each master sampled on its own, in both dialects.
    void clusterMastersEachSampled()
    {
        RedisCluster cluster;
        QString error;
        QVERIFY2(cluster.start(&error), qPrintable(error));
        const QString port = QString::number(cluster.seedPort());
        const QString json = m_dir.filePath("cluster.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", port, "--cluster", "-t", "set", "-c", "6", "-r",
                                       "10000", "--duration", "1.5", "--telemetry-interval", "0.25", "--json", json });
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QString problem = checkSampled(firstTestTelemetry(json), 3);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QString memtierJson = m_dir.filePath("cluster-memtier.json");
        const CliResult memtier = runCli({ "memtier", "-s", "127.0.0.1", "-p", port, "--cluster-mode", "-c", "2", "-t",
                                           "1", "--test-time", "2", "--telemetry-interval=0.25", "--hide-histogram",
                                           "--json-out-file", memtierJson });
        QVERIFY2(memtier.exitCode == 0, qPrintable(describeCliResult(memtier)));
        QVERIFY2(memtier.out.contains("bottleneck: "), memtier.out.constData());
    }

    // A proxy (twemproxy) does not forward INFO: the run completes with
    // exact counts, telemetry says "not available" once, the verdict says
    // what it could not judge.
    void proxyWithoutInfoStillRuns()
    {
        NutcrackerProxy proxy;
        QString error;
        QVERIFY2(proxy.start(&error), qPrintable(error));
        proxy.resetStats();
        const QString json = m_dir.filePath("proxy.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(proxy.port()), "-t", "set", "-n",
                                       "4000", "-c", "4", "-r", "1000", "--json", json });
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(proxy.commandStatsCallsSum().value("set"), quint64(4000));
        const QJsonObject telemetry = firstTestTelemetry(json);
        const QJsonObject server = telemetry["servers"].toArray().at(0).toObject();
        QVERIFY2(server["unavailable"].toString().startsWith("not available: "), qPrintable(describeCliResult(run)));
        QVERIFY(server["points"].toArray().isEmpty());
        QCOMPARE(run.out.count("not available: "), 1);
        // Unknown; or, on a machine busy with other work, client-bound — saying the server could not be judged.
        QVERIFY2(run.out.contains("bottleneck: unknown (server telemetry not available: ")
                     || (run.out.contains("bottleneck: client-bound (") && run.out.contains("; server telemetry not available: ")),
                 run.out.constData());
    }

private:
    QTemporaryDir m_dir;
    TlsCertificates m_certificates;
    std::unique_ptr<RedisServer> m_server;
};

QTEST_GUILESS_MAIN(TestTelemetryTransports)
#include "test_telemetry_transports.moc"
