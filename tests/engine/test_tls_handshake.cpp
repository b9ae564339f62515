// TlsContext and TlsSession (issue 4, TLS), up to the handshake: context creation errors
// name the option and the file at fault; handshakes against an in-process OpenSSL server
// (tls_session_fixture.h) succeed, or fail each in its own words (names, protocols, a
// server not speaking TLS or closing, client certificates).
#include <QtTest>

#include "tls_session_fixture.h"

class TestTlsHandshake : public TlsSessionFixture {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(setUpFixture(&error), qPrintable(error));
    }

    // --- context creation: each error names what is wrong ---

    void defaultContextVerifies()
    {
        std::string error;
        auto ctx = TlsContext::create(TlsSettings{}, &error);   // system CA store
        QVERIFY2(ctx, error.c_str());
        QVERIFY(ctx->verifies());
        TlsSettings insecure;
        insecure.insecure = true;
        ctx = TlsContext::create(insecure, &error);
        QVERIFY2(ctx, error.c_str());
        QVERIFY(!ctx->verifies());
    }

    void contextErrors_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QStringList>("expected");   // all must appear in the message

        const QString missing = m_scratch.filePath("missing.pem");
        const QString garbage = scratchFile("garbage.pem", "this is not PEM\n");
        QTest::newRow("missing CA file") << "caCert" << missing
                                         << QStringList{"CA certificate file", missing, "No such file"};
        QTest::newRow("CA file not PEM") << "caCert" << garbage << QStringList{"CA certificate file", garbage, "PEM"};
        QTest::newRow("CA file is a directory") << "caCert" << m_scratch.path()
                                                << QStringList{"CA certificate file", "directory"};
        QTest::newRow("missing CA directory") << "caCertDir" << missing
                                              << QStringList{"CA certificate directory", missing, "No such file"};
        QTest::newRow("CA directory is a file") << "caCertDir" << garbage
                                                << QStringList{"CA certificate directory", "not a directory"};
        QTest::newRow("missing client cert") << "cert" << missing
                                             << QStringList{"client certificate file", missing, "No such file"};
        QTest::newRow("client cert not PEM") << "cert" << garbage
                                             << QStringList{"client certificate file", garbage, "not a PEM certificate"};
        QTest::newRow("missing key") << "key" << missing << QStringList{"client key file", missing, "No such file"};
        QTest::newRow("key not PEM") << "key" << garbage
                                     << QStringList{"client key file", garbage, "is not a PEM private key", "no '-----BEGIN"};
        QTest::newRow("encrypted key (never prompts)") << "key" << encryptedClientKey()
                                                       << QStringList{"client key file", "is encrypted", "passphrase",
                                                                      "bad decrypt"};
        QTest::newRow("key of another certificate") << "key" << m_certs.server().key
                                                    << QStringList{"client key file", m_certs.server().key, "does not match",
                                                                   m_certs.client().cert};
        QTest::newRow("bad cipher list") << "ciphers" << "NOT-A-CIPHER"
                                         << QStringList{"TLS 1.2 cipher list 'NOT-A-CIPHER'", "rejected", "no cipher match"};
        QTest::newRow("bad ciphersuites") << "cipherSuites" << "TLS_NOT_A_SUITE"
                                          << QStringList{"TLS 1.3 ciphersuites 'TLS_NOT_A_SUITE'", "rejected"};
        QTest::newRow("unknown protocol") << "protocols" << "TLSv1.2,SSLv3"
                                          << QStringList{"unknown TLS protocol 'SSLv3'", "TLSv1.2,SSLv3"};
        QTest::newRow("protocol gap") << "protocols" << "TLSv1,TLSv1.3"
                                      << QStringList{"leave out TLSv1.1, TLSv1.2", "contiguous"};
        QTest::newRow("no protocol") << "protocols" << " , " << QStringList{"no TLS protocol named"};
    }

    void contextErrors()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QStringList, expected);
        TlsSettings settings;
        if (field == "caCert")
            settings.caCert = str(value);
        else if (field == "caCertDir")
            settings.caCertDir = str(value);
        else if (field == "cert")
            settings = withClientPair(str(value), str(m_certs.client().key));
        else if (field == "key")
            settings = withClientPair(str(m_certs.client().cert), str(value));
        else if (field == "ciphers")
            settings.ciphers = str(value);
        else if (field == "cipherSuites")
            settings.cipherSuites = str(value);
        else if (field == "protocols")
            settings.protocols = str(value);

        std::string error;
        QVERIFY(!TlsContext::create(settings, &error));
        qInfo("%s", error.c_str());
        for (const QString& part : expected)
            QVERIFY2(QString::fromStdString(error).contains(part),
                     qPrintable(QStringLiteral("'%1' missing in: %2").arg(part, QString::fromStdString(error))));
        QCOMPARE(ERR_peek_error(), 0UL);   // nothing left behind for the next SSL call
    }

    void certificateAndKeyGoTogether()
    {
        std::string error;
        QVERIFY(!TlsContext::create(withClientPair(str(m_certs.client().cert), {}), &error));
        QVERIFY2(error.find("needs its key (--key)") != std::string::npos, error.c_str());
        QVERIFY(!TlsContext::create(withClientPair({}, str(m_certs.client().key)), &error));
        QVERIFY2(error.find("needs its certificate (--cert)") != std::string::npos, error.c_str());
    }

    void validSettingsAreAccepted()
    {
        TlsSettings settings = trusting();
        settings.caCertDir = str(m_certs.caDirectory());
        settings.cert = str(m_certs.client().cert);
        settings.key = str(m_certs.client().key);
        settings.ciphers = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384";
        settings.cipherSuites = "TLS_AES_128_GCM_SHA256";
        settings.protocols = "tlsv1.2, TLSv1.3";
        std::string error;
        QVERIFY2(TlsContext::create(settings, &error), error.c_str());
    }

    // --- sessions against an in-process server ---

    void handshakeAndEcho_data()
    {
        QTest::addColumn<QString>("serverName");
        QTest::addColumn<bool>("byDirectory");
        QTest::addColumn<int>("maxVersion");
        QTest::newRow("IP, TLS 1.3") << "127.0.0.1" << false << 0;
        QTest::newRow("host name, TLS 1.3") << "localhost" << false << 0;
        QTest::newRow("IPv6 in brackets") << "[::1]" << false << 0;
        QTest::newRow("CA directory") << "127.0.0.1" << true << 0;
        QTest::newRow("TLS 1.2") << "127.0.0.1" << false << int(TLS1_2_VERSION);
    }

    void handshakeAndEcho()
    {
        QFETCH(QString, serverName);
        QFETCH(bool, byDirectory);
        QFETCH(int, maxVersion);
        TlsSettings settings;
        if (byDirectory)
            settings.caCertDir = str(m_certs.caDirectory());
        else
            settings = trusting();
        auto ctx = context(settings);
        QVERIFY(ctx);
        TestServer server;
        QVERIFY(server.setUp(serving(m_certs.server(), maxVersion)));
        SocketPair pair;
        server.accept(pair.server);
        TlsSession session(*ctx, pair.client, str(serverName));
        QVERIFY(session.valid());
        QVERIFY(!session.handshakeDone());
        const Status status = handshake(session, server);
        QVERIFY2(status == Status::Ok, session.failure().c_str());
        QVERIFY(session.handshakeDone());
        QCOMPARE(session.handshake(), Status::Ok);   // again: still Ok
        QCOMPARE(QString::fromStdString(session.protocol()),
                 maxVersion == TLS1_2_VERSION ? QStringLiteral("TLSv1.2") : QStringLiteral("TLSv1.3"));
        QVERIFY(!session.cipher().empty());
        QVERIFY(session.bytesReceived() > 0);

        // SNI carries host names, never addresses (RFC 6066).
        const char* sni = SSL_get_servername(server.ssl, TLSEXT_NAMETYPE_host_name);
        if (serverName == "localhost")
            QCOMPARE(QString::fromLatin1(sni), serverName);
        else
            QVERIFY2(!sni, sni);

        // Nothing to read yet: WantRead, not an error.
        char buffer[64];
        Status readStatus = Status::Ok;
        QCOMPARE(session.read(buffer, sizeof buffer, readStatus), 0L);
        QCOMPARE(readStatus, Status::WantRead);

        std::string echoed;
        QCOMPARE(roundTrip(session, server, "*1\r\n$4\r\nPING\r\n", &echoed), Status::Ok);
        QCOMPARE(QString::fromStdString(echoed), QStringLiteral("*1\r\n$4\r\nPING\r\n"));
        QVERIFY(session.failure().empty());
    }

    void sniOverridesTheName()
    {
        // --sni localhost while connecting by address: SNI and verification use "localhost".
        TlsSettings settings = trusting();
        settings.sni = "localhost";
        auto ctx = context(settings);
        QVERIFY(ctx);
        TestServer server;
        QVERIFY(server.setUp(serving(m_certs.localhostOnly())));
        SocketPair pair;
        server.accept(pair.server);
        TlsSession session(*ctx, pair.client, "127.0.0.1");
        QVERIFY2(handshake(session, server) == Status::Ok, session.failure().c_str());
        QCOMPARE(QString::fromLatin1(SSL_get_servername(server.ssl, TLSEXT_NAMETYPE_host_name)),
                 QStringLiteral("localhost"));
    }

    void handshakeFailures_data()
    {
        QTest::addColumn<QString>("caCert");
        QTest::addColumn<QString>("serverCert");
        QTest::addColumn<QString>("sni");
        QTest::addColumn<QString>("serverName");
        QTest::addColumn<QStringList>("expected");

        const QString ca = m_certs.caCert();
        QTest::newRow("unknown CA") << m_certs.otherCaCert() << "server" << "" << "127.0.0.1"
                                    << QStringList{"certificate verify failed: unable to get local issuer certificate",
                                                   "unknown CA", "Tacho Test CA"};
        QTest::newRow("IP not in certificate") << ca << "localhostOnly" << "" << "127.0.0.1"
                                               << QStringList{"certificate verify failed: IP address mismatch",
                                                              "not for '127.0.0.1'", "DNS:localhost"};
        QTest::newRow("host name not in certificate") << ca << "server" << "" << "redis.example"
                                                      << QStringList{"certificate verify failed: hostname mismatch",
                                                                     "not for 'redis.example'",
                                                                     "DNS:localhost, IP:127.0.0.1"};
        QTest::newRow("wrong --sni") << ca << "server" << "wrong.example" << "127.0.0.1"
                                     << QStringList{"hostname mismatch", "not for 'wrong.example'"};
        QTest::newRow("expired") << ca << "expired" << "" << "127.0.0.1"
                                 << QStringList{"certificate verify failed: certificate has expired",
                                                "expired certificate", "valid until"};
    }

    void handshakeFailures()
    {
        QFETCH(QString, caCert);
        QFETCH(QString, serverCert);
        QFETCH(QString, sni);
        QFETCH(QString, serverName);
        QFETCH(QStringList, expected);
        const TlsCertificates::Pair identity = serverCert == "server" ? m_certs.server()
            : serverCert == "expired"                                 ? m_certs.expired()
                                                                      : m_certs.localhostOnly();
        TlsSettings settings;
        settings.caCert = str(caCert);
        settings.sni = str(sni);
        Status status = Status::Ok;
        const std::string failure = connect(settings, serving(identity), str(serverName), &status);
        qInfo("%s", failure.c_str());
        QCOMPARE(statusName(status), "Failed");
        for (const QString& part : expected)
            QVERIFY2(QString::fromStdString(failure).contains(part),
                     qPrintable(QStringLiteral("'%1' missing in: %2").arg(part, QString::fromStdString(failure))));
        QCOMPARE(ERR_peek_error(), 0UL);

        // Each of them passes without verification.
        settings.insecure = true;
        const std::string insecure = connect(settings, serving(identity), str(serverName));
        QVERIFY2(insecure.empty(), insecure.c_str());
    }

    void protocolMismatch()
    {
        TlsSettings settings = trusting();
        settings.protocols = "TLSv1.3";
        Status status = Status::Ok;
        const std::string failure =
            connect(settings, serving(m_certs.server(), TLS1_2_VERSION), "127.0.0.1", &status);
        QCOMPARE(statusName(status), "Failed");
        QVERIFY2(failure.find("protocol version mismatch") != std::string::npos, failure.c_str());
        QVERIFY2(failure.find("unsupported protocol") != std::string::npos
                     || failure.find("protocol version") != std::string::npos,
                 failure.c_str());

        // The other way round: the server refuses with an alert.
        settings.protocols = "TLSv1.2";
        TestServer::Config only13 = serving(m_certs.server());
        auto ctx = context(settings);
        QVERIFY(ctx);
        TestServer server;
        QVERIFY(server.setUp(only13));
        SSL_CTX_set_min_proto_version(server.ctx, TLS1_3_VERSION);
        SocketPair pair;
        server.accept(pair.server);
        TlsSession session(*ctx, pair.client, "127.0.0.1");
        QCOMPARE(statusName(handshake(session, server)), "Failed");
        QVERIFY2(session.failure().find("protocol version mismatch") != std::string::npos, session.failure().c_str());
    }

    void serverNotSpeakingTls()
    {
        TestServer::Config notTls;
        notTls.notTls = true;
        Status status = Status::Ok;
        const std::string failure = connect(trusting(), notTls, "127.0.0.1", &status);
        QCOMPARE(statusName(status), "Failed");
        // Its answer was RESP: a plain-text port, said so (issue 16).
        QVERIFY2(failure.find("the server answered in plain text (RESP), not TLS: this port speaks plain text, "
                              "connect without --tls")
                     != std::string::npos,
                 failure.c_str());
        QVERIFY2(failure.find("wrong version number") != std::string::npos, failure.c_str());
    }

    void serverClosesDuringHandshake()
    {
        auto ctx = context(trusting());
        QVERIFY(ctx);
        SocketPair pair;
        TlsSession session(*ctx, pair.client, "127.0.0.1");
        QCOMPARE(session.handshake(), Status::WantRead);   // ClientHello sent
        ::close(pair.server);
        QCOMPARE(statusName(session.handshake()), "Failed");
        QVERIFY2(session.failure().find("closed the connection without answering the TLS handshake")
                     != std::string::npos,
                 session.failure().c_str());
    }

    void clientCertificates_data()
    {
        QTest::addColumn<QString>("clientPair");   // "", "client", "foreign"
        QTest::addColumn<int>("maxVersion");
        QTest::addColumn<QString>("expected");      // "" = success
        QTest::newRow("mutual TLS 1.3") << "client" << 0 << "";
        QTest::newRow("mutual TLS 1.2") << "client" << int(TLS1_2_VERSION) << "";
        QTest::newRow("no client cert, TLS 1.3")
            << "" << 0 << "the server requires a client certificate (give --cert and --key): tlsv13 alert certificate required";
        QTest::newRow("no client cert, TLS 1.2")
            << "" << int(TLS1_2_VERSION) << "or it requires a client certificate): sslv3 alert handshake failure";
        QTest::newRow("foreign client cert, TLS 1.3")
            << "foreign" << 0 << "the server rejected the client certificate: tlsv1 alert unknown ca";
        QTest::newRow("foreign client cert, TLS 1.2")
            << "foreign" << int(TLS1_2_VERSION) << "the server rejected the client certificate: tlsv1 alert unknown ca";
    }

    void clientCertificates()
    {
        QFETCH(QString, clientPair);
        QFETCH(int, maxVersion);
        QFETCH(QString, expected);
        TlsSettings settings = trusting();
        if (!clientPair.isEmpty()) {
            const auto pair = clientPair == "client" ? m_certs.client() : m_certs.foreignClient();
            settings.cert = str(pair.cert);
            settings.key = str(pair.key);
        }
        TestServer::Config config = serving(m_certs.server(), maxVersion);
        config.clientCa = m_certs.caCert();
        config.requireClientCert = true;
        const std::string failure = connect(settings, config, "127.0.0.1");
        if (expected.isEmpty())
            QVERIFY2(failure.empty(), failure.c_str());
        else
            QVERIFY2(QString::fromStdString(failure).contains(expected), failure.c_str());

        // The session knows the server asked (TLS 1.3 verdicts come after the handshake).
        auto ctx = context(settings);
        TestServer server;
        QVERIFY(server.setUp(config));
        SocketPair pair;
        server.accept(pair.server);
        TlsSession session(*ctx, pair.client, "127.0.0.1");
        const Status status = handshake(session, server);
        if (status == Status::Ok)
            QVERIFY(session.certificateRequested());
        TlsSession plain(*ctx, -1, "127.0.0.1");
        QVERIFY(!plain.certificateRequested());
    }
};

QTEST_GUILESS_MAIN(TestTlsHandshake)
#include "test_tls_handshake.moc"
