// Issue 17: Redis drops a TLS connection beyond maxclients before the
// handshake, so its "max number of clients reached" never arrives. The
// redis-benchmark form then prints redis-benchmark's "Error: …" line (the
// Redis and Valkey suites match "*Error*", in idle mode -I too), and Tacho's
// message says what the server did — not "wrong port, or TLS not enabled?",
// since the same server completed handshakes a moment before. A real TLS
// redis-server counts the rejected connections.
#include <QtTest>

#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "support/tls_certificates.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;
using tacho::test::TlsCertificates;

class TestTlsClientLimit : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_certificates.generate(&error), qPrintable(error));
        RedisServer::Options options;
        options.tls = RedisServer::TlsOptions::from(m_certificates);
        m_server = std::make_unique<RedisServer>(options);
        QVERIFY2(m_server->start(&error), qPrintable(error));
    }

    void droppedAtTheLimit_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("idle -I") << QStringList { "-c", "10", "-I" };
        QTest::newRow("set") << QStringList { "-c", "10", "-n", "1000", "-t", "set" };
        QTest::newRow("set --threads 2") << QStringList { "-c", "10", "--threads", "2", "-n", "1000", "-t", "set" };
    }

    void droppedAtTheLimit()
    {
        QFETCH(QStringList, args);
        const quint64 rejectedBefore = m_server->info("stats").value("rejected_connections").toULongLong();
        QVERIFY(!m_server->command({ "CONFIG", "SET", "maxclients", "5" }).isError());
        const CliResult r = runCli(QStringList { "redis-benchmark", "-h", "127.0.0.1", "-p",
                                                 QString::number(m_server->tlsPort()), "--tls", "--cacert",
                                                 m_certificates.caCert() }
                                       + args,
                                   30000);
        QVERIFY(!m_server->command({ "CONFIG", "SET", "maxclients", "10000" }).isError());
        QCOMPARE(r.exitCode, 1);
        // The server turned connections away (its count, not ours).
        QVERIFY2(m_server->info("stats").value("rejected_connections").toULongLong() > rejectedBefore,
                 qPrintable(describeCliResult(r)));
        bool errorLine = false;
        for (const QByteArray& line : r.err.split('\n'))
            errorLine = errorLine || line.startsWith("Error: the server closed the connection");
        QVERIFY2(errorLine, qPrintable(describeCliResult(r)));
        QVERIFY2(r.err.contains("maxclients") && !r.err.contains("TLS not enabled"), qPrintable(describeCliResult(r)));
        QVERIFY2(!r.err.contains("Error from server"), qPrintable(describeCliResult(r)));
    }

    // A port where nothing completed a handshake keeps the plain explanation.
    void plainPortKeepsTheWrongPortHint()
    {
        const CliResult r = runCli({ "redis-benchmark", "-h", "127.0.0.1", "-p", QString::number(m_server->port()),
                                     "--tls", "--cacert", m_certificates.caCert(), "-c", "1", "-n", "10", "-t", "set" },
                                   30000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(!r.err.contains("maxclients"), qPrintable(describeCliResult(r)));
    }

private:
    TlsCertificates m_certificates;
    std::unique_ptr<RedisServer> m_server;
};

QTEST_GUILESS_MAIN(TestTlsClientLimit)
#include "test_tls_client_limit.moc"
