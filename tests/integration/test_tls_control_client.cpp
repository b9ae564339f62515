// SyncClient over TLS against real TLS redis-servers (issue 4, TLS): plain TLS with a CA,
// mutual TLS, and each handshake failure (no client certificate, a client certificate from
// another CA, unknown CA, hostname mismatch, expired certificate, a plain port) failing
// specifically, within the connect timeout. What the server saw is counted through its plain
// port's INFO commandstats. Also measures the TLS handshake on loopback (qInfo).
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <ctime>
#include <chrono>
#include <memory>
#include <vector>

#include "engine/net/sync_client.h"
#include "engine/net/tls_context.h"
#include "support/redis_server.h"
#include "support/tls_certificates.h"

using tacho::engine::RunConfig;
using tacho::engine::SyncClient;
using tacho::engine::TlsContext;
using tacho::engine::TlsSettings;
using tacho::test::RedisServer;
using tacho::test::TlsCertificates;

namespace {

constexpr int kTimeoutMs = 3000;
// A failure must come by the timeout, not after a hang: the limit is generous, so a loaded
// machine does not fail it; the message says which timeout or check ended the attempt.
constexpr qint64 kHangMs = 30000;

std::string str(const QString& text) { return text.toStdString(); }

} // namespace

class TestTlsControlClient : public QObject {
    Q_OBJECT

    TlsCertificates m_certs;
    std::unique_ptr<RedisServer> m_tls;          // server certificate, tls-auth-clients no
    std::unique_ptr<RedisServer> m_mutual;       // server certificate, tls-auth-clients yes
    std::unique_ptr<RedisServer> m_localhost;    // certificate for DNS:localhost only
    std::unique_ptr<RedisServer> m_expired;      // expired certificate

    std::unique_ptr<RedisServer> startTls(const TlsCertificates::Pair& identity, const QString& authClients)
    {
        RedisServer::Options options;
        options.tls = RedisServer::TlsOptions{identity, m_certs.caCert(), authClients};
        auto server = std::make_unique<RedisServer>(options);
        QString error;
        if (!server->start(&error)) {
            qWarning("%s", qPrintable(error));
            return nullptr;
        }
        return server;
    }

    RunConfig configFor(const RedisServer& server, const TlsSettings& settings) const
    {
        RunConfig config;
        config.endpoint.host = "127.0.0.1";
        config.endpoint.port = server.tlsPort();
        config.endpoint.tls = true;
        config.endpoint.tlsSettings = settings;
        config.connectTimeoutMs = kTimeoutMs;
        return config;
    }

    TlsSettings trusting() const
    {
        TlsSettings settings;
        settings.caCert = str(m_certs.caCert());
        return settings;
    }

    TlsSettings withClient(TlsSettings settings, const TlsCertificates::Pair& pair) const
    {
        settings.cert = str(pair.cert);
        settings.key = str(pair.key);
        return settings;
    }

    // Opens, sends PING `pings` times and INFO once, checks the replies.
    void pingAndInfo(const RunConfig& config, int pings)
    {
        SyncClient client;
        std::string error;
        QVERIFY2(client.open(config, &error), error.c_str());
        QVERIFY(client.tlsSession());
        QCOMPARE(QString::fromStdString(client.tlsSession()->protocol()), QStringLiteral("TLSv1.3"));
        for (int i = 0; i < pings; ++i) {
            const auto pong = client.command({"PING"}, &error);
            QVERIFY2(pong, error.c_str());
            QCOMPARE(QString::fromStdString(pong->text), QStringLiteral("PONG"));
        }
        const auto info = client.command({"INFO", "server"}, &error);
        QVERIFY2(info, error.c_str());
        QVERIFY2(info->text.find("redis_version:") != std::string::npos, info->text.c_str());
    }

    // Opening fails within the timeout, with a message holding every part of `expected` (a
    // part "a|b" holds if either does); the server ran no command from us.
    void expectFailure(const RedisServer& server, const RunConfig& config, const QStringList& expected)
    {
        server.resetStats();
        SyncClient client;
        std::string error;
        QElapsedTimer timer;
        timer.start();
        const bool opened = client.open(config, &error);
        std::optional<tacho::engine::RespValue> reply;
        if (opened)   // not expected; a command shows what the server thinks
            reply = client.command({"PING"}, &error);
        const qint64 elapsed = timer.elapsed();
        qInfo("%s (%lld ms)", error.c_str(), static_cast<long long>(elapsed));
        QVERIFY2(!opened, "open() succeeded");
        QVERIFY2(elapsed < kHangMs, qPrintable(QStringLiteral("took %1 ms").arg(elapsed)));
        QVERIFY(!client.isOpen());
        const QString message = QString::fromStdString(error);
        for (const QString& part : expected) {
            const QStringList alternatives = part.split(QLatin1Char('|'));
            const bool found = std::any_of(alternatives.begin(), alternatives.end(),
                                           [&](const QString& a) { return message.contains(a); });
            QVERIFY2(found, qPrintable(QStringLiteral("'%1' missing in: %2").arg(part, message)));
        }
        const QMap<QString, quint64> calls = server.commandStatsCalls();
        QCOMPARE(calls.value("ping"), 0ULL);
    }

    QString handshakeFailed(const RedisServer& server) const
    {
        return QStringLiteral("TLS handshake with 127.0.0.1:%1 failed: ").arg(server.tlsPort());
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_certs.generate(&error), qPrintable(error));
        m_tls = startTls(m_certs.server(), "no");
        m_mutual = startTls(m_certs.server(), "yes");
        m_localhost = startTls(m_certs.localhostOnly(), "no");
        m_expired = startTls(m_certs.expired(), "no");
        QVERIFY(m_tls && m_mutual && m_localhost && m_expired);
        QVERIFY(m_tls->tlsPort() != 0 && m_tls->tlsPort() != m_tls->port());
        QCOMPARE(m_tls->info("server").value("tcp_port"), QString::number(m_tls->port()));
        QCOMPARE(m_tls->command({"CONFIG", "GET", "tls-port"}).elements.value(1).text,
                 QByteArray::number(m_tls->tlsPort()));
    }

    void plainTls_data()
    {
        QTest::addColumn<bool>("byDirectory");
        QTest::newRow("--cacert") << false;
        QTest::newRow("--cacertdir") << true;
    }

    void plainTls()
    {
        QFETCH(bool, byDirectory);
        TlsSettings settings;
        if (byDirectory)
            settings.caCertDir = str(m_certs.caDirectory());
        else
            settings = trusting();
        m_tls->resetStats();
        pingAndInfo(configFor(*m_tls, settings), 5);
        if (QTest::currentTestFailed())
            return;
        // The server counted exactly what went over TLS (the helper's INFO comes after).
        const QMap<QString, quint64> calls = m_tls->commandStatsCalls();
        QCOMPARE(calls.value("ping"), 5ULL);
        QCOMPARE(calls.value("info"), 1ULL);
    }

    void sniNamesTheCertificate()
    {
        // By address to a certificate for localhost only, with --sni localhost: accepted.
        TlsSettings settings = trusting();
        settings.sni = "localhost";
        pingAndInfo(configFor(*m_localhost, settings), 1);
    }

    void mutualTls()
    {
        m_mutual->resetStats();
        pingAndInfo(configFor(*m_mutual, withClient(trusting(), m_certs.client())), 3);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(m_mutual->commandStatsCalls().value("ping"), 3ULL);   // nothing of our own added
    }

    void mutualTlsWithoutClientCertificate()
    {
        expectFailure(*m_mutual, configFor(*m_mutual, trusting()),
                      {handshakeFailed(*m_mutual), "requires a client certificate", "certificate required"});
    }

    void mutualTlsWithForeignClientCertificate()
    {
        expectFailure(*m_mutual, configFor(*m_mutual, withClient(trusting(), m_certs.foreignClient())),
                      {handshakeFailed(*m_mutual), "rejected the client certificate", "unknown ca"});
    }

    void wrongCa()
    {
        TlsSettings settings;
        settings.caCert = str(m_certs.otherCaCert());
        // redis-server sends its CA along with its certificate (OpenSSL completes the chain from
        // tls-ca-cert-file): then OpenSSL names the self-signed root it does not trust.
        expectFailure(*m_tls, configFor(*m_tls, settings),
                      {handshakeFailed(*m_tls) + "certificate verify failed: ",
                       "unable to get local issuer certificate|self-signed certificate in certificate chain",
                       "unknown CA", "its issuer is CN=Tacho Test CA"});
    }

    void systemStoreDoesNotKnowOurCa()
    {
        // Neither --cacert nor --cacertdir: the system's CAs, which never signed the test CA.
        expectFailure(*m_tls, configFor(*m_tls, TlsSettings{}),
                      {handshakeFailed(*m_tls),
                       "unable to get local issuer certificate|self-signed certificate in certificate chain",
                       "unknown CA"});
    }

    void hostnameMismatch()
    {
        expectFailure(*m_localhost, configFor(*m_localhost, trusting()),
                      {handshakeFailed(*m_localhost), "certificate verify failed", "IP address mismatch",
                       "not for '127.0.0.1'", "DNS:localhost"});
        TlsSettings wrongSni = trusting();
        wrongSni.sni = "wrong.example";
        expectFailure(*m_tls, configFor(*m_tls, wrongSni),
                      {handshakeFailed(*m_tls), "hostname mismatch", "not for 'wrong.example'"});
    }

    void expiredCertificate()
    {
        expectFailure(*m_expired, configFor(*m_expired, trusting()),
                      {handshakeFailed(*m_expired), "certificate has expired", "valid until"});
    }

    void skipVerify()
    {
        // Wrong CA, wrong name, expired: --insecure connects to each.
        TlsSettings settings;
        settings.caCert = str(m_certs.otherCaCert());
        settings.insecure = true;
        for (RedisServer* server : {m_tls.get(), m_localhost.get(), m_expired.get()}) {
            server->resetStats();
            pingAndInfo(configFor(*server, settings), 2);
            if (QTest::currentTestFailed())
                return;
            QCOMPARE(server->commandStatsCalls().value("ping"), 2ULL);
        }
    }

    void tlsToPlainPort()
    {
        // redis-server's plain port never answers a ClientHello: it reads it as an inline
        // command and looks for its newline with strchr(), which stops at the NUL bytes of the
        // record's length field. So the handshake ends at the timeout, with the "not TLS"
        // reason. (A server that answers, e.g. with "-ERR", fails at once with the same
        // reason: tests/engine/test_tls_session.cpp.)
        RunConfig config = configFor(*m_tls, trusting());
        config.endpoint.port = m_tls->port();
        config.connectTimeoutMs = 1500;
        {
            SyncClient client;
            std::string error;
            QElapsedTimer timer;
            timer.start();
            QVERIFY(!client.open(config, &error));
            const qint64 elapsed = timer.elapsed();
            qInfo("%s (%lld ms)", error.c_str(), static_cast<long long>(elapsed));
            QVERIFY2(elapsed < kHangMs, qPrintable(QStringLiteral("took %1 ms").arg(elapsed)));
            const QString message = QString::fromStdString(error);
            QVERIFY2(message.startsWith(QStringLiteral("TLS handshake with 127.0.0.1:%1 failed: ").arg(m_tls->port())),
                     error.c_str());
            QVERIFY2(message.contains("the server did not answer with TLS")
                         && message.contains("(wrong port, or TLS not enabled?)"),
                     error.c_str());
        }
    }

    void plainClientToTlsPort()
    {
        RunConfig config = configFor(*m_tls, {});
        config.endpoint.tls = false;
        SyncClient client;
        std::string error;
        QElapsedTimer timer;
        timer.start();
        const bool opened = client.open(config, &error);   // nothing to set up: connects
        const auto reply = opened ? client.command({"PING"}, &error) : std::nullopt;
        qInfo("%s (%lld ms)", error.c_str(), static_cast<long long>(timer.elapsed()));
        QVERIFY(!reply);
        QVERIFY2(timer.elapsed() < kHangMs, error.c_str());
        // Issue 16: said because the port answers a TLS ClientHello with TLS, not guessed.
        QVERIFY2(QString::fromStdString(error).contains("the server speaks TLS on this port: connect with TLS (--tls)"),
                 error.c_str());
    }

    void resumptionWithSharedContext()
    {
        std::string error;
        auto context = TlsContext::create(trusting(), &error);
        QVERIFY2(context, error.c_str());
        for (int i = 0; i < 3; ++i) {
            SyncClient client;
            client.setTlsContext(context);
            QVERIFY2(client.open(configFor(*m_tls, trusting()), &error), error.c_str());
            QVERIFY2(client.command({"PING"}, &error), error.c_str());   // TLS 1.3 tickets come with it
            QCOMPARE(client.tlsSession()->resumed(), i > 0);
        }
        QVERIFY(context->sessionsReceived() >= 2);
    }

    // Not a pass/fail check: what a TLS connection costs on loopback, for the report. Wall time
    // and this thread's CPU time of SyncClient::open() (TCP connect + handshake).
    void measureHandshake()
    {
        constexpr int kRounds = 200;
        struct Sample {
            std::vector<double> wallUs;
            std::vector<double> cpuUs;
        };
        auto cpuNow = [] {
            timespec t {};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
        };
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v.empty() ? -1.0 : v[v.size() / 2];
        };
        std::string error;
        // mode: 0 = plain TCP, 1 = full handshake (shared context, session forgotten), 2 = resumed
        auto measure = [&](const RunConfig& config, int mode) {
            Sample sample;
            std::shared_ptr<TlsContext> context;
            if (mode != 0) {
                context = TlsContext::create(config.endpoint.tlsSettings, &error);
                if (!context)
                    return sample;
            }
            for (int i = 0; i < kRounds; ++i) {
                if (mode == 1)
                    context->forgetSession();
                SyncClient client;
                client.setTlsContext(context);
                const auto wall = std::chrono::steady_clock::now();
                const double cpu = cpuNow();
                if (!client.open(config, &error))
                    return Sample {};
                sample.cpuUs.push_back(cpuNow() - cpu);
                sample.wallUs.push_back(
                    std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - wall).count());
                if (mode == 2)   // the TLS 1.3 tickets for the next connection come with a reply
                    client.command({"PING"}, &error);
            }
            return sample;
        };
        RunConfig plain = configFor(*m_tls, {});
        plain.endpoint.tls = false;
        plain.endpoint.port = m_tls->port();
        TlsSettings tls12 = trusting();
        tls12.protocols = "TLSv1.2";

        const Sample tcp = measure(plain, 0);
        const Sample full13 = measure(configFor(*m_tls, trusting()), 1);
        const Sample resumed13 = measure(configFor(*m_tls, trusting()), 2);
        const Sample full12 = measure(configFor(*m_tls, tls12), 1);
        const Sample resumed12 = measure(configFor(*m_tls, tls12), 2);
        for (const Sample* s : {&tcp, &full13, &resumed13, &full12, &resumed12})
            QVERIFY2(!s->wallUs.empty(), error.c_str());

        std::vector<double> creation;
        for (int i = 0; i < 50; ++i) {
            const auto start = std::chrono::steady_clock::now();
            auto context = TlsContext::create(trusting(), &error);
            creation.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
        }
        qInfo("loopback, median of %d opens (wall / client CPU, us): TCP connect %.0f / %.0f; "
              "TLS 1.3 full %.0f / %.0f, resumed %.0f / %.0f; TLS 1.2 full %.0f / %.0f, resumed %.0f / %.0f; "
              "TlsContext::create %.0f",
              kRounds, median(tcp.wallUs), median(tcp.cpuUs), median(full13.wallUs), median(full13.cpuUs),
              median(resumed13.wallUs), median(resumed13.cpuUs), median(full12.wallUs), median(full12.cpuUs),
              median(resumed12.wallUs), median(resumed12.cpuUs), median(creation));
    }
};

QTEST_GUILESS_MAIN(TestTlsControlClient)
#include "test_tls_control_client.moc"
