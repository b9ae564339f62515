#pragma once
// A blocking RESP client for the control plane (probing the server, INFO,
// CONFIG GET, commandstats). Every call is bounded by a timeout. Never used
// for benchmark traffic. Speaks TLS when config.endpoint.tls is set.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/net/socket_address.h"
#include "engine/net/tls_session.h"
#include "engine/resp/resp_value.h"
#include "engine/config/run_config.h"

namespace tacho::engine {

class SyncClient {
public:
    SyncClient() = default;
    ~SyncClient();
    SyncClient(const SyncClient&) = delete;
    SyncClient& operator=(const SyncClient&) = delete;

    // Connects (with TLS: and completes the handshake, within the connect
    // timeout once more) and runs the session setup (auth, HELLO, SELECT). On
    // failure returns false with a specific message; TLS failures read "TLS
    // handshake with HOST:PORT failed: <reason>", also when the server rejects
    // the handshake only after it completed on our side (TLS 1.3 client
    // certificates) and the first reply is an alert.
    bool open(const RunConfig& config, std::string* error);
    // TLS: use this context (e.g. the run's, to share its session for
    // resumption) instead of building one from config.endpoint.tlsSettings
    // at each open(). nullptr goes back to building one.
    void setTlsContext(std::shared_ptr<TlsContext> context)
    {
        m_tlsContext = std::move(context);
        m_ownTlsContext = false;
    }
    // The TLS session of the open connection; nullptr without TLS.
    const TlsSession* tlsSession() const { return m_tls.valid() ? &m_tls : nullptr; }
    // Sends one command and waits for its reply, at most the connect timeout
    // for the whole reply and at most RespLimits (64 MiB) for its size.
    // nullopt on I/O failure, timeout or a reply beyond the bounds (with
    // message; the connection is then closed); an error reply is returned as
    // a value.
    std::optional<RespValue> command(const std::vector<std::string>& args, std::string* error);
    // Bounds on one reply (RespLimits' defaults unless set).
    void setReplyLimits(RespLimits limits) { m_decoder = RespDecoder(limits); }
    void close();
    bool isOpen() const { return m_fd >= 0; }
    // The last command() failed because the server closed or reset the
    // connection (CLIENT KILL, a restart), not because it timed out: worth
    // opening a new connection and asking again.
    bool peerClosed() const { return m_peerClosed; }
    // The last command() failed without a byte of an answer (a close, a
    // reset, silence): what a proxy does to a command it does not support,
    // or a port that is not a RESP server at all.
    bool failedSilently() const { return m_failedSilently; }

private:
    bool startTls(const RunConfig& config, std::string* error);
    bool awaitTlsVerdict(std::string* error);
    bool sendAll(const std::string& bytes, std::string* error);
    std::optional<RespValue> readReply(const std::string& label, std::string* error);
    // Non-blocking I/O over TCP or TLS: > 0 bytes; 0 = nothing now, wait for
    // `waitFor` (POLLIN/POLLOUT); -1 = failed or closed, with *error set.
    long receiveSome(char* data, std::size_t size, short& waitFor, std::string* error);
    long sendSome(const char* data, std::size_t size, short& waitFor, std::string* error);
    std::string tlsLost(const std::string& what) const;

    int m_fd = -1;
    std::shared_ptr<TlsContext> m_tlsContext;   // given by setTlsContext(), else per open()
    bool m_ownTlsContext = false;                // built by open(): dropped by close()
    TlsSession m_tls;
    bool m_tlsConfirmed = false;                 // the TLS server showed it accepted us (a reply or a ticket)
    bool m_replied = false;                      // a reply arrived on this connection
    bool m_peerClosed = false;                   // see peerClosed()
    bool m_failedSilently = false;               // see failedSilently()
    int m_timeoutMs = 5000;
    std::string m_where;
    SocketAddress m_address;                     // the one open() connected to
    std::string m_label;                         // the command whose reply is awaited, for messages
    std::string m_firstBytes;                    // plain text: the first bytes received (up to 8)
    bool m_tlsProbed = false;                    // answersTlsHello() asked already (once per client)
    std::string m_buffer;                        // bytes read beyond the last reply
    RespDecoder m_decoder;                       // the reply being read
};

} // namespace tacho::engine
