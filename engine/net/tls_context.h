#pragma once
// The client-side TLS configuration of one run: one OpenSSL SSL_CTX built from
// TlsSettings (trust, client certificate, ciphers, protocol versions), plus
// the latest resumable session for reconnects.
//
// Created once (create()), then shared read-only by every worker thread: the
// SSL_CTX is not changed after create(), so concurrent SSL_new() on it is safe;
// the stored session is guarded by a mutex. Each connection makes its own
// TlsSession from it.
#include <memory>
#include <mutex>
#include <string>

#include "engine/config/endpoint.h"

// OpenSSL's types, declared here so that users of the engine need no OpenSSL headers.
struct ssl_ctx_st;
struct ssl_st;
struct ssl_session_st;

namespace tacho::engine {

class TlsContext : public std::enable_shared_from_this<TlsContext> {
public:
    // OpenSSL's record buffers (about 16 KB each way) per connection:
    // ReleaseWhenIdle frees them whenever a connection has nothing buffered
    // (≈15 KB per idle TLS 1.3 connection instead of ≈47 KB; measured on
    // loopback it cost at most ~0.5 µs of client CPU per request, within
    // noise); Keep avoids that malloc/free per read and write.
    enum class BufferPolicy { ReleaseWhenIdle, Keep };

    // Builds the context. On failure returns nullptr with a specific message
    // naming the option and file at fault ("CA certificate file '/x' cannot be
    // read: No such file or directory", "client key file 'k.pem' does not match
    // the certificate in 'c.pem': …", "TLS 1.2 cipher list 'x' was rejected by
    // OpenSSL: …"). Verification is on unless settings.insecure.
    static std::shared_ptr<TlsContext> create(const TlsSettings& settings, std::string* error,
                                              BufferPolicy buffers = BufferPolicy::ReleaseWhenIdle);

    ~TlsContext();
    TlsContext(const TlsContext&) = delete;
    TlsContext& operator=(const TlsContext&) = delete;

    const TlsSettings& settings() const { return m_settings; }
    bool verifies() const { return !m_settings.insecure; }
    ssl_ctx_st* native() const { return m_ctx; }

    // Session resumption. OpenSSL hands us each new resumable session (after a
    // TLS 1.2 handshake, or when a TLS 1.3 ticket arrives); the latest one is
    // kept and offered by every TlsSession made afterwards. Thread-safe.
    std::shared_ptr<ssl_session_st> latestSession() const;
    void forgetSession();
    // Number of resumable sessions received so far (for tests and reports).
    unsigned long sessionsReceived() const;

    // Whether the server asked this connection for a client certificate
    // during the handshake. Under TLS 1.3 such a server judges the
    // certificate only after our side of the handshake is done, so its
    // verdict arrives with the first read.
    static bool certificateRequested(const ssl_st* ssl);

private:
    TlsContext() = default;
    static int onNewSession(ssl_st* ssl, ssl_session_st* session);
    static int onCertificateRequest(ssl_st* ssl, void* unused);
    void storeSession(ssl_session_st* session);   // takes over one reference

    TlsSettings m_settings;
    ssl_ctx_st* m_ctx = nullptr;

    mutable std::mutex m_sessionMutex;   // guards the two members below
    std::shared_ptr<ssl_session_st> m_session;
    unsigned long m_sessionsReceived = 0;
};

// Empties this thread's OpenSSL error queue and returns its reasons joined by
// "; " ("certificate verify failed"), or "" when it was empty.
std::string drainTlsErrors();

} // namespace tacho::engine
