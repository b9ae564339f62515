// checkConnection() ("Test connection" in the workbench) against real
// redis-server processes: what it reports must be what the server says in
// INFO, and every failure must say what went wrong. Issue #5.
#include <QtTest>

#include <memory>

#include "engine/run/connection_check.h"
#include "support/redis_server.h"
#if __has_include("support/tls_certificates.h")
#include "support/tls_certificates.h"
#include "support/run_config_for.h"
#define TACHO_TEST_TLS 1
#endif

using tacho::engine::ConnectionReport;
using tacho::engine::RunConfig;
using tacho::engine::checkConnection;
using tacho::test::RedisServer;

using tacho::test::runConfigFor;

namespace {

QString describe(const ConnectionReport& report)
{
    QString text = QStringLiteral("ok %1, error '%2', type '%3', version '%4', mode '%5', role '%6', rtt %7 us")
                       .arg(report.ok)
                       .arg(QString::fromStdString(report.error), QString::fromStdString(report.serverType),
                            QString::fromStdString(report.version), QString::fromStdString(report.mode),
                            QString::fromStdString(report.role))
                       .arg(report.roundTripMicros);
    for (const std::string& note : report.notes)
        text += "\n  note: " + QString::fromStdString(note);
    return text;
}

} // namespace

class TestConnectionCheck : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        RedisServer::Options options;
        options.unixSocket = true;
        m_server = std::make_unique<RedisServer>(options);
        QString error;
        QVERIFY2(m_server->start(&error), qPrintable(error));
    }

    void standaloneServer()
    {
        const ConnectionReport report = checkConnection(runConfigFor(*m_server, 3000));
        QVERIFY2(report.ok, qPrintable(describe(report)));
        const auto info = m_server->info("server");
        QCOMPARE(QString::fromStdString(report.version), info.value("redis_version"));
        QCOMPARE(QString::fromStdString(report.redisVersion), info.value("redis_version"));
        QCOMPARE(report.serverType, std::string("redis"));
        QCOMPARE(report.mode, std::string("standalone"));
        QCOMPARE(report.role, std::string("master"));
        QVERIFY2(report.roundTripMicros > 0 && report.roundTripMicros < 1e6, qPrintable(describe(report)));
        QCOMPARE(report.clusterNodes, 0);
        QCOMPARE(report.tls, false);
        QVERIFY(report.tlsProtocol.empty());
        QCOMPARE(report.endpoint, "127.0.0.1:" + std::to_string(m_server->port()));
        QCOMPARE(QString::fromStdString(report.serverInfo.at("process_id")), QString::number(m_server->pid()));
        QVERIFY2(report.notes.empty(), qPrintable(describe(report)));
        QVERIFY(report.error.empty());
    }

    void unixSocket()
    {
        RunConfig config;
        config.endpoint.unixSocket = m_server->unixSocketPath().toStdString();
        const ConnectionReport report = checkConnection(config);
        QVERIFY2(report.ok, qPrintable(describe(report)));
        QCOMPARE(report.endpoint, "unix:" + config.endpoint.unixSocket);
        QCOMPARE(report.role, std::string("master"));
    }

    void replicaRole()
    {
        RedisServer::Options options;
        options.extraArgs = QStringList { "--replicaof", m_server->host(), QString::number(m_server->port()) };
        RedisServer replica(options);
        QString error;
        QVERIFY2(replica.start(&error), qPrintable(error));
        const ConnectionReport report = checkConnection(runConfigFor(replica, 3000));
        QVERIFY2(report.ok, qPrintable(describe(report)));
        QCOMPARE(report.role, std::string("replica"));
        QCOMPARE(report.mode, std::string("standalone"));
    }

    // A single cluster node: mode and node count from CLUSTER NODES; a
    // primary counts once it serves slots.
    void clusterNode()
    {
        RedisServer::Options options;
        options.maxPort = 55535;   // the cluster bus listens on port + 10000
        options.extraArgs = QStringList { "--cluster-enabled", "yes" };
        RedisServer node(options);
        QString error;
        QVERIFY2(node.start(&error), qPrintable(error));

        ConnectionReport report = checkConnection(runConfigFor(node, 3000));
        QVERIFY2(report.ok, qPrintable(describe(report)));
        QCOMPARE(report.mode, std::string("cluster"));
        QCOMPARE(report.clusterNodes, 1);
        QCOMPARE(report.clusterPrimaries, 0);

        QVERIFY(!node.command({ "CLUSTER", "ADDSLOTSRANGE", "0", "16383" }).isError());
        report = checkConnection(runConfigFor(node, 3000));
        QVERIFY2(report.ok, qPrintable(describe(report)));
        QCOMPARE(report.clusterNodes, 1);
        QCOMPARE(report.clusterPrimaries, 1);
    }

    void passwords()
    {
        RedisServer::Options options;
        options.password = QStringLiteral("s3cret");
        RedisServer server(options);
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        RunConfig config = runConfigFor(server, 3000);

        ConnectionReport report = checkConnection(config);
        QVERIFY(!report.ok);
        QVERIFY2(report.error.find("requires authentication") != std::string::npos
                     && report.error.find("NOAUTH") != std::string::npos,
                 qPrintable(describe(report)));

        config.password = "wrong";
        report = checkConnection(config);
        QVERIFY(!report.ok);
        QVERIFY2(report.error.find("authentication failed") != std::string::npos
                     && report.error.find("WRONGPASS") != std::string::npos,
                 qPrintable(describe(report)));

        config.password = "s3cret";
        report = checkConnection(config);
        QVERIFY2(report.ok, qPrintable(describe(report)));
        QCOMPARE(report.role, std::string("master"));

        config.protocol = 3;   // HELLO 3 with AUTH inside
        report = checkConnection(config);
        QVERIFY2(report.ok, qPrintable(describe(report)));
        QCOMPARE(QString::fromStdString(report.version), server.info("server").value("redis_version"));
    }

    // A user that may not run INFO (as on some managed services): the
    // connection works, what could not be read is a note.
    void infoRefusedByAcl()
    {
        QVERIFY(!m_server->command({ "ACL", "SETUSER", "pinger", "on", ">pw", "+ping", "+hello", "+auth" }).isError());
        RunConfig config = runConfigFor(*m_server, 3000);
        config.user = "pinger";
        config.password = "pw";
        const ConnectionReport report = checkConnection(config);
        QVERIFY2(report.ok, qPrintable(describe(report)));
        QCOMPARE(report.serverType, std::string("unknown"));
        QVERIFY(report.roundTripMicros > 0);
        QVERIFY2(!report.notes.empty() && report.notes.front().find("NOPERM") != std::string::npos,
                 qPrintable(describe(report)));
    }

    void refused()
    {
        RunConfig config;
        config.endpoint.port = tacho::test::pickFreeLoopbackPort();
        QVERIFY(config.endpoint.port != 0);
        const ConnectionReport report = checkConnection(config);
        QVERIFY(!report.ok);
        QVERIFY2(report.error.find("Connection refused") != std::string::npos, qPrintable(describe(report)));
        QVERIFY(report.role.empty() && report.version.empty());
    }

    void unknownHost()
    {
        RunConfig config;
        config.endpoint.host = "no-such-host.invalid";
        const ConnectionReport report = checkConnection(config);
        QVERIFY(!report.ok);
        QVERIFY2(report.error.find("no-such-host.invalid") != std::string::npos, qPrintable(describe(report)));
    }

    // (moc does not evaluate __has_include, so the slot always exists.)
    void tls()
    {
#ifndef TACHO_TEST_TLS
        QSKIP("this tree has no TLS test fixture (tests/support/tls_certificates.h)");
#else
        tacho::test::TlsCertificates certificates;
        QString error;
        QVERIFY2(certificates.generate(&error), qPrintable(error));
        RedisServer::Options options;
        options.tls = RedisServer::TlsOptions::from(certificates);
        RedisServer server(options);
        QVERIFY2(server.start(&error), qPrintable(error));

        RunConfig config = runConfigFor(server, 3000);
        config.endpoint.port = server.tlsPort();
        config.endpoint.tls = true;
        config.endpoint.tlsSettings.caCert = certificates.caCert().toStdString();
        const ConnectionReport report = checkConnection(config);
        QVERIFY2(report.ok, qPrintable(describe(report)));
        QVERIFY(report.tls);
        QVERIFY2(report.tlsProtocol.starts_with("TLSv1"), report.tlsProtocol.c_str());
        QVERIFY(!report.tlsCipher.empty());
        QCOMPARE(report.mode, std::string("standalone"));

        config.endpoint.tlsSettings.caCert.clear();   // the test CA is not trusted by the system
        const ConnectionReport untrusted = checkConnection(config);
        QVERIFY(!untrusted.ok);
        QVERIFY2(untrusted.error.find("TLS") != std::string::npos, qPrintable(describe(untrusted)));
#endif
    }

private:
    std::unique_ptr<RedisServer> m_server;
};

QTEST_GUILESS_MAIN(TestConnectionCheck)
#include "test_connection_check.moc"
