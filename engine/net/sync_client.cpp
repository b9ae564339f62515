#include "engine/net/sync_client.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/net/session_setup.h"
#include "engine/net/socket_address.h"
#include "engine/resp/printable_text.h"
#include "engine/resp/resp_encoder.h"

namespace tacho::engine {

namespace {

using Clock = std::chrono::steady_clock;

int remainingMs(Clock::time_point deadline)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? static_cast<int>(left) : 0;
}

} // namespace

SyncClient::~SyncClient() { close(); }

void SyncClient::close()
{
    if (m_tls.valid()) {
        m_tls.shutdown();
        m_tls = TlsSession();
    }
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    m_buffer.clear();
    m_tlsConfirmed = false;
    m_replied = false;
    if (m_ownTlsContext) {
        m_tlsContext.reset();
        m_ownTlsContext = false;
    }
}

bool SyncClient::open(const RunConfig& config, std::string* error)
{
    close();
    m_timeoutMs = config.connectTimeoutMs > 0 ? config.connectTimeoutMs : 5000;
    m_where = config.endpoint.describe();

    SocketAddress address;
    if (!resolveEndpoint(config.endpoint, address, error))
        return false;

    m_fd = ::socket(address.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m_fd < 0) {
        if (error)
            *error = "cannot create socket: " + errnoText(errno);
        return false;
    }
    if (::connect(m_fd, address.get(), address.length) != 0 && errno != EINPROGRESS) {
        if (error)
            *error = "cannot connect to " + m_where + ": " + errnoText(errno);
        close();
        return false;
    }
    pollfd p { m_fd, POLLOUT, 0 };
    const int ready = ::poll(&p, 1, m_timeoutMs);
    int soError = 0;
    socklen_t len = sizeof soError;
    if (ready <= 0) {
        if (error)
            *error = "cannot connect to " + m_where + ": timed out after " + std::to_string(m_timeoutMs) + " ms";
        close();
        return false;
    }
    getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &soError, &len);
    if (soError != 0) {
        if (error)
            *error = "cannot connect to " + m_where + ": " + errnoText(soError);
        close();
        return false;
    }
    if (!address.isUnix()) {
        int one = 1;
        setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    if (config.endpoint.tls && !startTls(config, error)) {
        close();
        return false;
    }

    if (m_tls.valid() && !awaitTlsVerdict(error)) {
        close();
        return false;
    }

    for (const auto& setup : sessionSetupCommands(config)) {
        auto reply = command(setup, error);
        if (!reply) {
            close();
            return false;
        }
        if (reply->isError()) {
            if (error)
                *error = describeSetupFailure(setup, reply->text);
            close();
            return false;
        }
    }
    return true;
}

bool SyncClient::startTls(const RunConfig& config, std::string* error)
{
    if (!m_tlsContext) {
        m_tlsContext = TlsContext::create(config.endpoint.tlsSettings, error);
        if (!m_tlsContext)
            return false;
        m_ownTlsContext = true;
    }
    const std::string host = config.endpoint.unixSocket.empty() ? config.endpoint.host : std::string();
    m_tls = TlsSession(*m_tlsContext, m_fd, host);
    const std::string prefix = "TLS handshake with " + m_where + " failed: ";
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_timeoutMs);
    for (;;) {
        const TlsSession::Status status = m_tls.handshake();
        if (status == TlsSession::Status::Ok)
            return true;
        if (status != TlsSession::Status::WantRead && status != TlsSession::Status::WantWrite) {
            if (error)
                *error = prefix + m_tls.failure();
            return false;
        }
        pollfd p { m_fd, static_cast<short>(status == TlsSession::Status::WantRead ? POLLIN : POLLOUT), 0 };
        const int ready = ::poll(&p, 1, remainingMs(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            // Nothing back at all is the classic sign of a plain port: it waits
            // for a line that a ClientHello never ends.
            if (error)
                *error = prefix
                         + (m_tls.bytesReceived() == 0
                                ? "the server did not answer with TLS within " + std::to_string(m_timeoutMs)
                                      + " ms (wrong port, or TLS not enabled?)"
                                : "no progress within " + std::to_string(m_timeoutMs) + " ms");
            return false;
        }
    }
}

bool SyncClient::awaitTlsVerdict(std::string* error)
{
    // A TLS 1.3 server that asked for a client certificate judges it only
    // after our side of the handshake is done. Sending now would race its
    // verdict: a rejecting server closes with our request unread, the kernel
    // answers with a reset, and its alert is lost. So wait for its first
    // bytes: session tickets (accepted; OpenSSL-based servers send them at
    // once) or the alert. A server that sends nothing gets up to 1 s.
    if (!m_tls.certificateRequested() || m_tls.protocol() != "TLSv1.3")
        return true;
    const unsigned long long before = m_tls.bytesReceived();
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::min(m_timeoutMs, 1000));
    for (;;) {
        char chunk[4096];
        short waitFor = POLLIN;
        const long n = receiveSome(chunk, sizeof chunk, waitFor, error);
        if (n < 0)
            return false;
        if (n > 0)
            m_buffer.append(chunk, static_cast<std::size_t>(n));
        if (n > 0 || m_tls.bytesReceived() > before) {
            m_tlsConfirmed = true;
            return true;
        }
        pollfd p { m_fd, waitFor, 0 };
        const int ready = ::poll(&p, 1, remainingMs(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return true;   // no verdict: the first reply will tell
    }
}

std::string SyncClient::tlsLost(const std::string& what) const
{
    // Until the server shows it accepted us (TLS 1.3 checks the client
    // certificate after our side of the handshake is done), losing the
    // connection is a handshake failure to the user.
    if (!m_tlsConfirmed) {
        std::string text = "TLS handshake with " + m_where + " failed: " + m_tls.failure();
        if (m_tls.certificateRequested() && text.find("client certificate") == std::string::npos)
            text += " (the server asked for a client certificate)";
        return text;
    }
    return what + ": " + m_tls.failure();
}

long SyncClient::receiveSome(char* data, std::size_t size, short& waitFor, std::string* error)
{
    if (m_tls.valid()) {
        TlsSession::Status status;
        const long n = m_tls.read(data, size, status);
        switch (status) {
        case TlsSession::Status::Ok:
            return n;
        case TlsSession::Status::WantRead:
            waitFor = POLLIN;
            return 0;
        case TlsSession::Status::WantWrite:
            waitFor = POLLOUT;
            return 0;
        case TlsSession::Status::Closed:
            if (error)
                *error = tlsLost("server " + m_where + " closed the connection");
            m_peerClosed = true;
        return -1;
        case TlsSession::Status::Failed:
            if (error)
                *error = tlsLost("lost connection to " + m_where);
            m_peerClosed = true;
        return -1;
        }
    }
    const ssize_t n = ::recv(m_fd, data, size, 0);
    if (n > 0)
        return n;
    // A TLS port drops a client that does not start with a ClientHello.
    const char* hint = m_replied ? "" : " (a TLS port? then connect with TLS: --tls)";
    if (n == 0) {
        if (error)
            *error = "server " + m_where + " closed the connection without answering" + hint;
        m_peerClosed = true;
        return -1;
    }
    if (errno == EAGAIN || errno == EINTR) {
        waitFor = POLLIN;
        return 0;
    }
    if (error)
        *error = "lost connection to " + m_where + ": " + errnoText(errno) + hint;
    m_peerClosed = true;
    return -1;
}

long SyncClient::sendSome(const char* data, std::size_t size, short& waitFor, std::string* error)
{
    if (m_tls.valid()) {
        TlsSession::Status status;
        const long n = m_tls.write(data, size, status);
        switch (status) {
        case TlsSession::Status::Ok:
            return n;
        case TlsSession::Status::WantRead:
            waitFor = POLLIN;
            return 0;
        case TlsSession::Status::WantWrite:
            waitFor = POLLOUT;
            return 0;
        case TlsSession::Status::Closed:
        case TlsSession::Status::Failed:
            if (error)
                *error = tlsLost("lost connection to " + m_where);
            m_peerClosed = true;
        return -1;
        }
    }
    const ssize_t n = ::send(m_fd, data, size, MSG_NOSIGNAL);
    if (n > 0)
        return n;
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
        if (error)
            *error = "lost connection to " + m_where + ": " + errnoText(errno);
        m_peerClosed = true;
        return -1;
    }
    waitFor = POLLOUT;
    return 0;
}

bool SyncClient::sendAll(const std::string& bytes, std::string* error)
{
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_timeoutMs);
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        short waitFor = POLLOUT;
        const long n = sendSome(bytes.data() + sent, bytes.size() - sent, waitFor, error);
        if (n > 0) {
            sent += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0)
            return false;
        pollfd p { m_fd, waitFor, 0 };
        if (::poll(&p, 1, remainingMs(deadline)) <= 0) {
            if (error)
                *error = "timed out writing to " + m_where;
            return false;
        }
    }
    return true;
}

std::optional<RespValue> SyncClient::readReply(std::string* error)
{
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_timeoutMs);
    for (;;) {
        RespValue value;
        std::string decodeError;
        const long long used = decodeValue(m_buffer, value, &decodeError);
        if (used > 0) {
            m_buffer.erase(0, static_cast<std::size_t>(used));
            m_tlsConfirmed = true;
            m_replied = true;
            return value;
        }
        if (used < 0) {
            if (error)
                *error = "protocol error from " + m_where + ": " + decodeError;
            return std::nullopt;
        }
        // Read first, poll only when nothing is there: TLS may already hold
        // the bytes in its own buffer, where poll() cannot see them.
        char chunk[16384];
        short waitFor = POLLIN;
        const long n = receiveSome(chunk, sizeof chunk, waitFor, error);
        if (n > 0) {
            m_buffer.append(chunk, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0)
            return std::nullopt;
        pollfd p { m_fd, waitFor, 0 };
        const int ready = ::poll(&p, 1, remainingMs(deadline));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            if (error)
                *error = "no reply from " + m_where + " within " + std::to_string(m_timeoutMs) + " ms";
            return std::nullopt;
        }
    }
}

std::optional<RespValue> SyncClient::command(const std::vector<std::string>& args, std::string* error)
{
    if (m_fd < 0) {
        if (error)
            *error = "not connected";
        return std::nullopt;
    }
    m_peerClosed = false;
    if (!sendAll(encodeCommand(args), error))
        return std::nullopt;
    std::optional<RespValue> reply = readReply(error);
    // An error reply's text only ever ends up in messages: made printable
    // here once, for every control-plane message built from it.
    if (reply && reply->isError())
        reply->text = printable(reply->text);
    return reply;
}

} // namespace tacho::engine
