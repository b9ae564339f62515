// Benchmarks over TLS against real redis-servers with certificates made at
// test time: plain TLS, mutual TLS, skip-verify; the server counts what the
// run reports; verification failures are specific and fast. Issue #4.
#include <QtTest>

#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "support/tls_certificates.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;
using tacho::test::TlsCertificates;

namespace {

// For failure messages.
QString describe(const CliResult& r) { return tacho::test::describeCliResult(r); }

} // namespace

class TestTlsCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_certificates.generate(&error), qPrintable(error));
        RedisServer::Options plain;
        plain.tls = RedisServer::TlsOptions { m_certificates.server(), m_certificates.caCert(), "no" };
        m_server = std::make_unique<RedisServer>(plain);
        QVERIFY2(m_server->start(&error), qPrintable(error));
        RedisServer::Options mutual;
        mutual.tls = RedisServer::TlsOptions { m_certificates.server(), m_certificates.caCert(), "yes" };
        m_mutual = std::make_unique<RedisServer>(mutual);
        QVERIFY2(m_mutual->start(&error), qPrintable(error));
    }

    void init()
    {
        m_server->resetStats();
        m_mutual->resetStats();
    }

    void tlsRunCountsMatch()
    {
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_server->tlsPort()), "--tls", "--cacert",
                               m_certificates.caCert(), "-t", "set,get", "-n", "5000", "-q" });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server->commandStatsCalls().value("set"), 5000u);
        QCOMPARE(m_server->commandStatsCalls().value("get"), 5000u);
    }

    void reconnectPerRequestOverTls()
    {
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_server->tlsPort()), "--tls", "--cacert",
                               m_certificates.caCert(), "-t", "set", "-n", "300", "-c", "5", "-k", "0", "-q" });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server->commandStatsCalls().value("set"), 300u);
    }

    void mutualTls()
    {
        CliResult r = runCli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(m_mutual->tlsPort()), "--tls", "--cacert",
                               m_certificates.caCert(), "--cert", m_certificates.client().cert, "--key",
                               m_certificates.client().key, "-t", "1", "-c", "5", "-n", "200", "--ratio", "1:0",
                               "--hide-histogram" });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_mutual->commandStatsCalls().value("set"), 1000u);
    }

    void wrongCaFailsSpecifically()
    {
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_server->tlsPort()), "--tls", "--cacert",
                               m_certificates.otherCaCert(), "-t", "set", "-n", "100", "-q" }, 20000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("certificate verify failed") && r.err.contains("unknown CA"), qPrintable(describe(r)));
        // Ended by the verification, not by a timeout (said in the message, not timed).
        QVERIFY2(!r.err.contains("timed out") && !r.err.contains("within"), qPrintable(describe(r)));
        QCOMPARE(m_server->commandStatsCalls().value("set"), 0u);
    }

    void skipVerifyIsAllowedWhenAsked()
    {
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_server->tlsPort()), "--tls", "--insecure",
                               "-t", "set", "-n", "500", "-q" });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server->commandStatsCalls().value("set"), 500u);
    }

private:
    TlsCertificates m_certificates;
    std::unique_ptr<RedisServer> m_server;
    std::unique_ptr<RedisServer> m_mutual;
};

QTEST_GUILESS_MAIN(TestTlsCli)
#include "test_tls_cli.moc"
