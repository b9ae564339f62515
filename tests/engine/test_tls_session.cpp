// TlsSession (issue 4, TLS) after the handshake, against an in-process OpenSSL server on
// a socketpair (tls_session_fixture.h): large transfers with WANT_WRITE on a full socket,
// resumption, a context shared across threads, the server closing, moves.
#include <QtTest>

#include "tls_session_fixture.h"

class TestTlsSession : public TlsSessionFixture {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(setUpFixture(&error), qPrintable(error));
    }

    // A write larger than the socket buffers: partial writes (a record or more at a time)
    // and WantWrite, then every byte arrives in order; reads drain OpenSSL's read-ahead
    // buffer. (After WantWrite, OpenSSL reports the bytes of the retried write together
    // with those it took before.)
    void largeTransferWithBackpressure_data()
    {
        QTest::addColumn<bool>("keepBuffers");
        QTest::newRow("buffers released when idle") << false;
        QTest::newRow("buffers kept") << true;
    }

    void largeTransferWithBackpressure()
    {
        QFETCH(bool, keepBuffers);
        std::string error;
        auto ctx = TlsContext::create(trusting(), &error,
                                      keepBuffers ? TlsContext::BufferPolicy::Keep
                                                  : TlsContext::BufferPolicy::ReleaseWhenIdle);
        QVERIFY2(ctx, error.c_str());
        QCOMPARE(bool(SSL_CTX_get_mode(ctx->native()) & SSL_MODE_RELEASE_BUFFERS), !keepBuffers);
        TestServer server;
        QVERIFY(server.setUp(serving(m_certs.server())));
        SocketPair pair;
        server.accept(pair.server);
        TlsSession session(*ctx, pair.client, "127.0.0.1");
        QVERIFY2(handshake(session, server) == Status::Ok, session.failure().c_str());

        std::string payload(4 << 20, '\0');
        for (std::size_t i = 0; i < payload.size(); ++i)
            payload[i] = static_cast<char>('a' + (i * 7) % 26);

        std::string out = payload;   // the "connection buffer"; it moves while we retry
        std::string echoed;
        std::size_t sent = 0;
        int wantWrite = 0;
        int partial = 0;
        char buffer[4096];
        for (int round = 0; round < 100000 && echoed.size() < payload.size(); ++round) {
            if (sent < out.size()) {
                Status status = Status::Ok;
                const long n = session.write(out.data() + sent, out.size() - sent, status);
                if (n > 0) {
                    sent += static_cast<std::size_t>(n);
                    if (sent < out.size())
                        ++partial;
                } else if (status == Status::WantWrite) {
                    // Now and then the buffer moves before the retry (a worker's buffer may grow).
                    if (++wantWrite % 50 == 1) {
                        std::string moved(out);
                        out.swap(moved);
                    }
                } else {
                    QVERIFY2(status == Status::WantRead, session.failure().c_str());
                }
            }
            if (round % 40 == 0)
                server.echo();   // the server is slower than we are: our socket fills up
            for (;;) {
                Status status = Status::Ok;
                const long n = session.read(buffer, sizeof buffer, status);
                if (n <= 0) {
                    QVERIFY2(status == Status::WantRead || status == Status::WantWrite, session.failure().c_str());
                    break;
                }
                echoed.append(buffer, static_cast<std::size_t>(n));
            }
        }
        QVERIFY(wantWrite > 0);
        QVERIFY(partial > 0);
        QCOMPARE(echoed.size(), payload.size());
        QVERIFY(echoed == payload);
        QVERIFY(!session.pending());
    }

    void resumption_data()
    {
        QTest::addColumn<int>("maxVersion");
        QTest::newRow("TLS 1.3 ticket") << 0;
        QTest::newRow("TLS 1.2") << int(TLS1_2_VERSION);
    }

    void resumption()
    {
        QFETCH(int, maxVersion);
        auto ctx = context(trusting());
        QVERIFY(ctx);
        TestServer server;
        QVERIFY(server.setUp(serving(m_certs.server(), maxVersion)));
        QVERIFY(!ctx->latestSession());

        for (int connection = 0; connection < 3; ++connection) {
            SocketPair pair;
            server.accept(pair.server);
            TlsSession session(*ctx, pair.client, "127.0.0.1");
            QVERIFY2(handshake(session, server) == Status::Ok, session.failure().c_str());
            // TLS 1.3 tickets arrive after the handshake, with the first data.
            std::string echoed;
            QCOMPARE(roundTrip(session, server, "PING\r\n", &echoed), Status::Ok);
            QCOMPARE(session.resumed(), connection > 0);
            QVERIFY(ctx->latestSession());
            if (connection == 0)
                session.shutdown();   // the others end without close_notify, as after -k 0
        }
        // TLS 1.3 sends new tickets on every handshake; TLS 1.2 resumes the one session.
        QVERIFY(ctx->sessionsReceived() >= (maxVersion == TLS1_2_VERSION ? 1UL : 3UL));

        ctx->forgetSession();
        SocketPair pair;
        server.accept(pair.server);
        TlsSession fresh(*ctx, pair.client, "127.0.0.1");
        QVERIFY2(handshake(fresh, server) == Status::Ok, fresh.failure().c_str());
        QVERIFY(!fresh.resumed());
    }

    // One context, used from several threads at once (as the workers will): sessions are made,
    // stored and offered concurrently; every connection works and resumption happens.
    void sharedContextAcrossThreads()
    {
        auto ctx = context(trusting());
        QVERIFY(ctx);
        TestServer base;
        QVERIFY(base.setUp(serving(m_certs.server())));
        constexpr int kThreads = 4;
        constexpr int kConnections = 25;
        std::atomic<int> ok {0};
        std::atomic<int> resumed {0};
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&] {
                TestServer server;
                server.shareContext(base);
                for (int i = 0; i < kConnections; ++i) {
                    SocketPair pair;
                    server.accept(pair.server);
                    TlsSession session(*ctx, pair.client, "127.0.0.1");
                    std::string echoed;
                    if (handshake(session, server) == Status::Ok
                        && roundTrip(session, server, "PING\r\n", &echoed) == Status::Ok && echoed == "PING\r\n")
                        ++ok;
                    if (session.resumed())
                        ++resumed;
                }
            });
        }
        for (auto& thread : threads)
            thread.join();
        QCOMPARE(ok.load(), kThreads * kConnections);
        QVERIFY2(resumed.load() >= kThreads * (kConnections - 2), qPrintable(QString::number(resumed.load())));
    }

    void serverCloses()
    {
        auto ctx = context(trusting());
        QVERIFY(ctx);
        TestServer server;
        QVERIFY(server.setUp(serving(m_certs.server())));
        SocketPair pair;
        server.accept(pair.server);
        TlsSession session(*ctx, pair.client, "127.0.0.1");
        QVERIFY2(handshake(session, server) == Status::Ok, session.failure().c_str());
        std::string echoed;
        QCOMPARE(roundTrip(session, server, "x", &echoed), Status::Ok);
        // Without close_notify, as redis-server does.
        ::shutdown(server.fd, SHUT_RDWR);
        char buffer[16];
        Status status = Status::Ok;
        QCOMPARE(session.read(buffer, sizeof buffer, status), 0L);
        QCOMPARE(statusName(status), "Closed");
        QVERIFY2(session.failure().find("closed the connection") != std::string::npos, session.failure().c_str());
    }

    void moveOnly()
    {
        static_assert(!std::is_copy_constructible_v<TlsSession>);
        static_assert(std::is_nothrow_move_constructible_v<TlsSession>);
        static_assert(std::is_nothrow_move_assignable_v<TlsSession>);
        auto ctx = context(trusting());
        QVERIFY(ctx);
        TestServer server;
        QVERIFY(server.setUp(serving(m_certs.server())));
        SocketPair pair;
        server.accept(pair.server);
        TlsSession first(*ctx, pair.client, "127.0.0.1");
        TlsSession second(std::move(first));
        QVERIFY(!first.valid());   // NOLINT(bugprone-use-after-move): documented empty state
        Status status = Status::Ok;
        char c;
        QCOMPARE(first.read(&c, 1, status), 0L);
        QCOMPARE(statusName(status), "Failed");
        TlsSession third;
        third = std::move(second);
        QVERIFY(third.valid());
        QVERIFY2(handshake(third, server) == Status::Ok, third.failure().c_str());

        // The session keeps its context alive.
        std::weak_ptr<TlsContext> weak = ctx;
        ctx.reset();
        QVERIFY(!weak.expired());
        std::string echoed;
        QCOMPARE(roundTrip(third, server, "still here", &echoed), Status::Ok);
        third = TlsSession();
        QVERIFY(weak.expired());
    }
};

QTEST_GUILESS_MAIN(TestTlsSession)
#include "test_tls_session.moc"
