// Issue 17: the peers' test suites use server certificates that do not name
// the address connected to (no IP SAN). redis-benchmark and memtier verify
// the chain only; Tacho also verifies the host name, by default. The
// mismatch error names --tls-skip-hostname-verify, and with it the run
// works, still refusing a certificate from another CA. Real TLS redis-server;
// the server's commandstats count the requests.
#include <QtTest>

#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "support/tls_certificates.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;
using tacho::test::TlsCertificates;

class TestTlsChainOnly : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_certificates.generate(&error), qPrintable(error));
        RedisServer::Options options;   // DNS:localhost only: 127.0.0.1 does not match
        options.tls = RedisServer::TlsOptions { m_certificates.localhostOnly(), m_certificates.caCert(), "no" };
        m_server = std::make_unique<RedisServer>(options);
        QVERIFY2(m_server->start(&error), qPrintable(error));
    }

    void chainOnly_data()
    {
        QTest::addColumn<QStringList>("args");   // 100 SETs in each form
        QTest::addColumn<bool>("memtierForm");
        QTest::newRow("redis-benchmark") << QStringList { "redis-benchmark", "-h", "127.0.0.1", "-t", "set", "-n", "100",
                                                          "-c", "5", "-q" } << false;
        QTest::newRow("redis-benchmark -u") << QStringList { "redis-benchmark", "-u", "valkey://127.0.0.1", "-t", "set",
                                                             "-n", "100", "-c", "5", "-q" } << false;
        QTest::newRow("memtier") << QStringList { "memtier", "-s", "127.0.0.1", "-t", "1", "-c", "5", "-n", "20",
                                                  "--ratio", "1:0", "--hide-histogram" } << true;
    }

    void chainOnly()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, memtierForm);
        const QStringList tls { "-p", QString::number(m_server->tlsPort()), "--tls", "--cacert", m_certificates.caCert() };

        // Default: host-name verification fails, and the message names the option.
        m_server->resetStats();
        CliResult r = runCli(args + tls, 30000);
        QVERIFY2(r.exitCode != 0, qPrintable(describeCliResult(r)));
        QVERIFY2(r.err.contains("not for '127.0.0.1'") && r.err.contains("--tls-skip-hostname-verify"),
                 qPrintable(describeCliResult(r)));
        QCOMPARE(m_server->commandStatsCalls().value("set"), 0u);

        // With the option: the chain is verified, the run completes.
        m_server->resetStats();
        r = runCli(args + tls + QStringList { "--tls-skip-hostname-verify" }, 60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QCOMPARE(m_server->commandStatsCalls().value("set"), 100u);
        if (!memtierForm)
            QVERIFY2(r.out.contains("100") || r.out.contains("SET"), qPrintable(describeCliResult(r)));

        // Still a verification: a CA that did not sign the certificate is refused.
        m_server->resetStats();
        QStringList otherCa = tls;
        otherCa[4] = m_certificates.otherCaCert();
        r = runCli(args + otherCa + QStringList { "--tls-skip-hostname-verify" }, 30000);
        QVERIFY2(r.exitCode != 0 && r.err.contains("unknown CA"), qPrintable(describeCliResult(r)));
        QCOMPARE(m_server->commandStatsCalls().value("set"), 0u);
    }

    // Without --tls the option is a mistake, as the other TLS options are (memtier form).
    void needsTls()
    {
        const CliResult r = runCli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(m_server->port()),
                                     "--tls-skip-hostname-verify", "-n", "1" });
        QVERIFY2(r.exitCode != 0 && r.err.contains("need --tls"), qPrintable(describeCliResult(r)));
    }

private:
    TlsCertificates m_certificates;
    std::unique_ptr<RedisServer> m_server;
};

QTEST_GUILESS_MAIN(TestTlsChainOnly)
#include "test_tls_chain_only.moc"
