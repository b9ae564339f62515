#pragma once
// One TLS client connection over an already connected, non-blocking socket:
// a move-only owner of an OpenSSL SSL object. It never blocks and never
// polls: every call does what the socket allows now and says what it waits
// for (WantRead: call again when the fd is readable; WantWrite: when it is
// writable). The caller owns the fd and closes it after this object is gone.
//
// Thread affinity: one thread at a time (the worker that owns the
// connection). The session shares ownership of its TlsContext. read() and
// write() allocate nothing on our side (only a failure's text does);
// OpenSSL allocates its record buffers as the context's BufferPolicy says.
//
// Driving it from a level-triggered event loop (epoll):
//   - After connect() completes (EPOLLOUT), call handshake() until Ok; on
//     WantRead wait for EPOLLIN only, on WantWrite for EPOLLOUT only (waiting
//     for EPOLLOUT while the handshake waits to read spins). Put a deadline
//     on it: a plain port of redis-server never answers a ClientHello.
//   - read() until it returns 0 (WantRead). OpenSSL reads ahead, so replies
//     can wait in its buffer where epoll cannot see them: stopping after one
//     read() that returned data may leave them there until the server sends
//     more. (Stopping when pending() is false after a read is equally safe.)
//   - write() may take fewer bytes than given (a record or more). After
//     WantWrite (or WantRead) retry with the same unsent bytes first and at
//     least as many of them; the buffer itself may have moved.
//   - read() can want to write and write() can want to read (TLS 1.3 key
//     updates and other post-handshake messages): wait for what it says.
//   - With TLS 1.3 and a server that asked for a client certificate
//     (certificateRequested()), the server's verdict comes after handshake()
//     returned Ok: a Failed read before the first reply is a handshake
//     failure (failure() says why). Sending right away races it: a
//     rejecting server resets the connection and its alert is lost.
//   - Closed means the server went away (with or without close_notify);
//     Failed is a TLS error. failure() holds the text for both.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "engine/net/tls_context.h"

namespace tacho::engine {

class TlsSession {
public:
    enum class Status { Ok, WantRead, WantWrite, Closed, Failed };

    TlsSession() = default;   // empty: valid() is false
    // Prepares the client side. The server name is the host the user gave:
    // SNI is settings.sni, else this name unless it is an IP literal; unless
    // the context is insecure, the certificate must match settings.sni, else
    // this name (DNS name or IP address). The context's latest session is
    // offered for resumption. An empty name checks no name (Unix sockets).
    TlsSession(TlsContext& context, int fd, const std::string& serverName);
    ~TlsSession();
    TlsSession(TlsSession&& other) noexcept;
    TlsSession& operator=(TlsSession&& other) noexcept;
    TlsSession(const TlsSession&) = delete;
    TlsSession& operator=(const TlsSession&) = delete;

    bool valid() const { return m_ssl != nullptr; }

    // Advances the handshake: Ok once it is complete (then again Ok), or
    // WantRead/WantWrite, or Failed (see failure()).
    Status handshake();
    bool handshakeDone() const;

    // Decrypted bytes into data (at most size): > 0 with Ok, else 0 with
    // WantRead, WantWrite, Closed (the server closed the connection, with or
    // without close_notify) or Failed.
    long read(char* data, std::size_t size, Status& status);
    // Encrypts and sends from data: bytes taken (> 0) with Ok, else 0 with
    // WantWrite, WantRead, Closed or Failed. size 0 returns 0 with Ok.
    long write(const char* data, std::size_t size, Status& status);
    // True when OpenSSL holds received bytes not yet returned by read().
    bool pending() const;

    // Best effort: sends close_notify if the socket takes it now, never waits.
    void shutdown();

    // Why the last call returned Failed or Closed: what went wrong in our
    // words, then OpenSSL's ("certificate verify failed: unable to get local
    // issuer certificate (unknown CA: …)"). Empty otherwise.
    const std::string& failure() const { return m_failure; }
    // The handshake failed because the server closed (or reset) the socket
    // before sending a byte: a wrong port, TLS not enabled, or a server that
    // drops connections beyond its limit without a word (Redis over TLS).
    bool closedUnanswered() const { return m_closedUnanswered; }
    bool resumed() const;                  // the handshake resumed a session
    // The server asked for a client certificate. With TLS 1.3 it then accepts
    // or rejects us only after handshake() returned Ok: until a first reply
    // arrives, a Failed read is the server's verdict on our certificate.
    bool certificateRequested() const;
    std::string protocol() const;          // "TLSv1.3" after the handshake
    std::string cipher() const;            // "TLS_AES_256_GCM_SHA384"
    unsigned long long bytesReceived() const;   // raw socket bytes read so far, handshake included
    std::string_view firstBytesReceived() const;   // the first raw bytes (up to 8), as the server sent them

private:
    Status classify(int result);
    std::string describeError(unsigned long code, const std::string& reasons) const;
    std::string describeVerifyFailure(long verifyResult, const std::string& reasons) const;
    void release();

    std::shared_ptr<TlsContext> m_context;
    ssl_st* m_ssl = nullptr;
    std::string m_failure;
    bool m_closedUnanswered = false;
};

} // namespace tacho::engine
