#pragma once
// One TLS client connection over an already connected, non-blocking socket:
// a move-only owner of an OpenSSL SSL object. It never blocks and never
// polls: every call does what the socket allows now and says what it waits
// for (WantRead: call again when the fd is readable; WantWrite: when it is
// writable). The caller owns the fd and closes it after this object is gone.
//
// Thread affinity: one thread at a time (the worker that owns the
// connection). The TlsContext it was made from must outlive nothing: the
// session keeps it alive.
//
// Driving it from a level-triggered event loop:
//   - handshake() until Ok; on WantRead wait for EPOLLIN, on WantWrite for
//     EPOLLOUT (only that one: asking for EPOLLOUT while waiting to read spins).
//   - read() until it returns 0 with WantRead. OpenSSL reads ahead, so bytes
//     may wait in its buffer where epoll cannot see them: stopping after one
//     read() that returned data can leave replies unprocessed until the
//     server sends more (pending() tells).
//   - write() may return fewer bytes than given (one record or more). After
//     WantWrite (or WantRead) retry with the same unsent bytes first, at
//     least as many as before; the buffer itself may have moved.
//   - read() can want to write and write() can want to read (TLS 1.3 key
//     updates, post-handshake messages): wait for what the status says.
#include <cstddef>
#include <memory>
#include <string>

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
    bool resumed() const;                  // the handshake resumed a session
    std::string protocol() const;          // "TLSv1.3" after the handshake
    std::string cipher() const;            // "TLS_AES_256_GCM_SHA384"
    unsigned long long bytesReceived() const;   // raw socket bytes read so far, handshake included

private:
    Status classify(int result);
    std::string describeError(unsigned long code, const std::string& reasons) const;
    std::string describeVerifyFailure(long verifyResult, const std::string& reasons) const;
    void release();

    std::shared_ptr<TlsContext> m_context;
    ssl_st* m_ssl = nullptr;
    std::string m_failure;
};

} // namespace tacho::engine
