#pragma once
// The TLS session suites' fixture (tests/engine/test_tls_*.cpp): an in-process OpenSSL
// server on a socketpair, driven step by step with the client's non-blocking TlsSession,
// and a base class with the certificates, scratch files and a complete exchange.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/net/tls_context.h"
#include "engine/net/tls_session.h"
#include "support/tls_certificates.h"

using tacho::engine::TlsContext;
using tacho::engine::TlsSession;
using tacho::engine::TlsSettings;
using tacho::test::TlsCertificates;
using Status = TlsSession::Status;

namespace tls_fixture {

inline const char* statusName(Status status)
{
    switch (status) {
    case Status::Ok: return "Ok";
    case Status::WantRead: return "WantRead";
    case Status::WantWrite: return "WantWrite";
    case Status::Closed: return "Closed";
    case Status::Failed: return "Failed";
    }
    return "?";
}

inline std::string str(const QString& text) { return text.toStdString(); }

// The server side of a socketpair: a plain OpenSSL server, non-blocking, driven by the test.
struct TestServer {
    struct Config {
        TlsCertificates::Pair identity;
        QString clientCa;              // verify client certificates against this CA
        bool requireClientCert = false;
        int maxVersion = 0;            // e.g. TLS1_2_VERSION
        bool notTls = false;           // answer the ClientHello with a RESP error instead
    };

    SSL_CTX* ctx = nullptr;
    SSL* ssl = nullptr;
    int fd = -1;
    bool done = false;
    bool failed = false;
    std::string error;

    ~TestServer()
    {
        if (ssl)
            SSL_free(ssl);
        if (ctx)
            SSL_CTX_free(ctx);
        if (fd >= 0)
            ::close(fd);
    }

    // Prepares the context; the same TestServer serves several connections (resumption).
    bool setUp(const Config& config)
    {
        m_config = config;
        if (config.notTls)
            return true;
        ctx = SSL_CTX_new(TLS_server_method());
        if (!ctx || SSL_CTX_use_certificate_chain_file(ctx, config.identity.cert.toUtf8().constData()) != 1
            || SSL_CTX_use_PrivateKey_file(ctx, config.identity.key.toUtf8().constData(), SSL_FILETYPE_PEM) != 1)
            return false;
        if (!config.clientCa.isEmpty()) {
            if (SSL_CTX_load_verify_file(ctx, config.clientCa.toUtf8().constData()) != 1)
                return false;
            SSL_CTX_set_verify(ctx,
                               SSL_VERIFY_PEER | (config.requireClientCert ? SSL_VERIFY_FAIL_IF_NO_PEER_CERT : 0),
                               nullptr);
        }
        if (config.maxVersion)
            SSL_CTX_set_max_proto_version(ctx, config.maxVersion);
        static const unsigned char sessionContext[] = "tacho-test";
        SSL_CTX_set_session_id_context(ctx, sessionContext, sizeof sessionContext - 1);
        SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
        return true;
    }

    // Serves with the context of `other` (same certificate, same ticket keys).
    void shareContext(const TestServer& other)
    {
        m_config = other.m_config;
        SSL_CTX_up_ref(other.ctx);
        ctx = other.ctx;
    }

    // A new connection on `serverFd` (taken over).
    void accept(int serverFd)
    {
        if (ssl)
            SSL_free(ssl);
        ssl = nullptr;
        if (fd >= 0)
            ::close(fd);
        fd = serverFd;
        done = failed = false;
        outbox.clear();
        error.clear();
        if (m_config.notTls)
            return;
        ssl = SSL_new(ctx);
        SSL_set_fd(ssl, fd);
        SSL_set_accept_state(ssl);
    }

    // One step of the server's handshake. A failed server sends its alert and then stops
    // writing (as redis-server closes the connection).
    void step()
    {
        if (done || failed)
            return;
        if (m_config.notTls) {
            char buffer[4096];
            if (::read(fd, buffer, sizeof buffer) > 0) {
                static const char reply[] = "-ERR unknown command\r\n";
                (void)!::write(fd, reply, sizeof reply - 1);
                failed = true;
            }
            return;
        }
        ERR_clear_error();
        const int result = SSL_do_handshake(ssl);
        if (result == 1) {
            done = true;
            return;
        }
        const int code = SSL_get_error(ssl, result);
        if (code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE)
            return;
        failed = true;
        error = tacho::engine::drainTlsErrors();
        ::shutdown(fd, SHUT_WR);
    }

    // Echoes what arrived (after the handshake), as far as the socket takes it now; what it
    // does not take waits in the outbox for the next call.
    void echo()
    {
        if (!done)
            return;
        char buffer[16384];
        for (;;) {
            while (!outbox.empty()) {
                ERR_clear_error();
                const int w = SSL_write(ssl, outbox.data(), static_cast<int>(outbox.size()));
                if (w <= 0) {
                    ERR_clear_error();
                    return;
                }
                outbox.erase(0, static_cast<std::size_t>(w));
            }
            ERR_clear_error();
            const int n = SSL_read(ssl, buffer, sizeof buffer);
            if (n <= 0)
                break;
            outbox.append(buffer, static_cast<std::size_t>(n));
        }
        ERR_clear_error();
    }

    std::string outbox;

private:
    Config m_config;
};

struct SocketPair {
    int client = -1;
    int server = -1;
    SocketPair()
    {
        int fds[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, fds) == 0) {
            client = fds[0];
            server = fds[1];
        }
    }
    ~SocketPair()
    {
        if (client >= 0)
            ::close(client);
        // The server end belongs to the TestServer once accepted.
    }
};

// Runs both sides until the client's handshake ends; Ok, Failed or Closed.
inline Status handshake(TlsSession& client, TestServer& server)
{
    Status status = Status::WantRead;
    for (int round = 0; round < 200; ++round) {
        status = client.handshake();
        server.step();
        if (status == Status::Ok || status == Status::Failed || status == Status::Closed)
            return status;
    }
    return status;
}

// After the handshake: sends `text`, lets the server echo it, reads it back. The failure
// status when the server refused us after all (TLS 1.3 checks client certificates late).
inline Status roundTrip(TlsSession& client, TestServer& server, const std::string& text, std::string* echoed)
{
    Status status = Status::Ok;
    std::size_t sent = 0;
    for (int round = 0; round < 200 && sent < text.size(); ++round) {
        sent += static_cast<std::size_t>(client.write(text.data() + sent, text.size() - sent, status));
        if (status == Status::Failed || status == Status::Closed)
            return status;
        server.step();
        server.echo();
    }
    echoed->clear();
    char buffer[1024];
    for (int round = 0; round < 200 && echoed->size() < text.size(); ++round) {
        server.step();
        server.echo();
        const long n = client.read(buffer, sizeof buffer, status);
        if (n > 0)
            echoed->append(buffer, static_cast<std::size_t>(n));
        else if (status == Status::Failed || status == Status::Closed)
            return status;
    }
    return Status::Ok;
}

inline TlsSettings withClientPair(const std::string& cert, const std::string& key)
{
    TlsSettings settings;
    settings.cert = cert;
    settings.key = key;
    return settings;
}

inline TestServer::Config serving(const TlsCertificates::Pair& identity, int maxVersion = 0)
{
    TestServer::Config config;
    config.identity = identity;
    config.maxVersion = maxVersion;
    return config;
}

inline std::shared_ptr<TlsContext> context(const TlsSettings& settings)
{
    std::string error;
    auto created = TlsContext::create(settings, &error);
    if (!created)
        qWarning("TlsContext::create failed: %s", error.c_str());
    return created;
}

} // namespace tls_fixture

using namespace tls_fixture;

class TlsSessionFixture : public QObject {

protected:
    TlsCertificates m_certs;
    QTemporaryDir m_scratch;

    // Certificates and a scratch folder, for initTestCase().
    bool setUpFixture(QString* error) { return m_certs.generate(error) && m_scratch.isValid(); }

    QString scratchFile(const QString& name, const QByteArray& content)
    {
        const QString path = m_scratch.filePath(name);
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(content);
        return path;
    }

    // The client key, encrypted with a passphrase: OpenSSL would ask for it on the terminal.
    QString encryptedClientKey()
    {
        const QString path = m_scratch.filePath("encrypted.key");
        BIO* in = BIO_new_file(m_certs.client().key.toUtf8().constData(), "r");
        EVP_PKEY* key = in ? PEM_read_bio_PrivateKey(in, nullptr, nullptr, nullptr) : nullptr;
        BIO* out = BIO_new_file(path.toUtf8().constData(), "w");
        static const char passphrase[] = "secret";
        if (key && out)
            PEM_write_bio_PrivateKey(out, key, EVP_aes_128_cbc(), nullptr, 0, nullptr, const_cast<char*>(passphrase));
        BIO_free(out);
        EVP_PKEY_free(key);
        BIO_free(in);
        return path;
    }

    TlsSettings trusting() const
    {
        TlsSettings settings;
        settings.caCert = str(m_certs.caCert());
        return settings;
    }

    // A complete client/server exchange; returns the client's failure ("" on success).
    std::string connect(const TlsSettings& settings, const TestServer::Config& config,
                        const std::string& serverName, Status* finalStatus = nullptr)
    {
        auto ctx = context(settings);
        if (!ctx)
            return "no context";
        TestServer server;
        if (!server.setUp(config))
            return "server setup failed: " + tacho::engine::drainTlsErrors();
        SocketPair pair;
        server.accept(pair.server);
        TlsSession session(*ctx, pair.client, serverName);
        Status status = handshake(session, server);
        if (status == Status::Ok) {
            std::string echoed;
            status = roundTrip(session, server, "PING\r\n", &echoed);
            if (status == Status::Ok && echoed != "PING\r\n")
                return "echo mismatch: '" + echoed + "'";
        }
        if (finalStatus)
            *finalStatus = status;
        return status == Status::Ok ? std::string() : session.failure();
    }
};
