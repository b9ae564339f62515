#include "engine/net/sync_client.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/net/peer_bytes.h"
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
    m_decoder.reset();
    m_tlsConfirmed = false;
    m_replied = false;
    m_firstBytes.clear();
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

    // Every address the name resolves to, in order, as redis-cli does.
    std::vector<SocketAddress> addresses;
    if (!resolveEndpointAll(config.endpoint, addresses, error))
        return false;
    std::string why;
    for (const SocketAddress& address : addresses) {
        m_fd = connectWithin(address, m_timeoutMs, &why);
        if (m_fd >= 0) {
            m_address = address;
            break;
        }
    }
    if (m_fd < 0) {
        if (error)
            *error = "cannot connect to " + m_where + ": " + why
                     + (addresses.size() > 1 ? " (each of its " + std::to_string(addresses.size()) + " addresses)" : "");
        close();
        return false;
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
    if (n > 0) {
        if (m_firstBytes.size() < 8)
            m_firstBytes.append(data, std::min<std::size_t>(static_cast<std::size_t>(n), 8 - m_firstBytes.size()));
        return n;
    }
    const int why = n == 0 ? 0 : errno;
    if (n < 0 && (why == EAGAIN || why == EINTR)) {
        waitFor = POLLIN;
        return 0;
    }
    // A TLS port drops a client that does not start with a ClientHello, and
    // so does a proxy on a command it does not support: only a server that
    // never answered here and answers a TLS hello with TLS is a TLS port
    // (asked once per client, on this failure path only).
    bool speaksTls = false;
    if (!m_replied && m_firstBytes.empty() && !m_tlsProbed) {
        m_tlsProbed = true;
        speaksTls = answersTlsHello(m_address, std::min(m_timeoutMs, 2000));
    }
    if (error)
        *error = m_decoder.bytesSoFar() > 0
            ? "server " + m_where + " closed the connection in the middle of its answer to " + m_label + " ("
                  + std::to_string(m_decoder.bytesSoFar()) + " bytes of it received)"
            : lostBeforeAnswer(m_where, m_label, why, speaksTls);
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

namespace {

// How a command is named in messages: its name, and the section or
// subcommand of the few that have one (never further arguments: AUTH and
// HELLO carry passwords).
std::string commandLabel(const std::vector<std::string>& args)
{
    std::string label;
    for (std::size_t i = 0; i < args.size() && i < 2; ++i) {
        std::string word = args[i];
        std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return std::toupper(c); });
        if (i == 1 && label != "INFO" && label != "CONFIG" && label != "CLUSTER" && label != "CLIENT")
            break;
        label += (i ? " " : "") + word;
    }
    return label;
}

} // namespace

std::optional<RespValue> SyncClient::readReply(const std::string& label, std::string* error)
{
    // The time bound covers the whole reply: bytes that keep arriving (an
    // endless or trickling reply) do not extend it.
    const auto deadline = Clock::now() + std::chrono::milliseconds(m_timeoutMs);
    std::size_t heard = m_buffer.size();   // bytes of this answer received so far
    const auto failed = [&](std::string message) -> std::optional<RespValue> {
        if (error)
            *error = std::move(message);
        m_failedSilently = heard == 0;
        close();   // the rest of this reply would be read as the next one's
        return std::nullopt;
    };
    m_failedSilently = false;
    m_label = label;
    m_decoder.reset();
    std::size_t used = 0;
    RespDecoder::Status status = m_decoder.feed(m_buffer, &used);   // bytes read ahead
    m_buffer.erase(0, used);
    for (;;) {
        if (status == RespDecoder::Status::Done) {
            m_tlsConfirmed = true;
            m_replied = true;
            return m_decoder.take();
        }
        if (status == RespDecoder::Status::Bad) {
            if (m_decoder.limitExceeded())
                return failed("the server's reply to " + label + " from " + m_where
                              + " exceeded what a control-plane reply may hold: " + m_decoder.error() + " (at most "
                              + std::to_string(m_decoder.limits().maxBytes >> 20) + " MiB, "
                              + std::to_string(m_decoder.limits().maxValues) + " values, "
                              + std::to_string(m_decoder.limits().maxDepth) + " levels deep)");
            if (!m_replied && looksLikeTls(m_firstBytes))
                return failed("server " + m_where + " answered " + label + " with TLS, not RESP: "
                              + std::string(kSpeaksTls));
            return failed("protocol error from " + m_where + " in the reply to " + label + ": " + m_decoder.error());
        }
        if (Clock::now() >= deadline)
            return failed("no complete reply to " + label + " from " + m_where + " within " + std::to_string(m_timeoutMs)
                          + " ms (" + std::to_string(m_decoder.bytesSoFar()) + " bytes of it received)");
        // Read first, poll only when nothing is there: TLS may already hold
        // the bytes in its own buffer, where poll() cannot see them.
        char chunk[65536];
        short waitFor = POLLIN;
        const long n = receiveSome(chunk, sizeof chunk, waitFor, error);
        if (n > 0) {
            heard += static_cast<std::size_t>(n);
            const std::string_view bytes(chunk, static_cast<std::size_t>(n));
            status = m_decoder.feed(bytes, &used);
            if (status == RespDecoder::Status::Done)
                m_buffer.assign(bytes.substr(used));
            continue;
        }
        if (n < 0) {
            m_failedSilently = heard == 0;
            m_decoder.reset();   // frees a partial reply now, not at the next command
            return std::nullopt;
        }
        pollfd p { m_fd, waitFor, 0 };
        const int ready = ::poll(&p, 1, remainingMs(deadline));
        if (ready < 0 && errno != EINTR)
            return failed("lost connection to " + m_where + ": " + errnoText(errno));
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
    m_failedSilently = false;
    if (!sendAll(encodeCommand(args), error)) {
        m_failedSilently = true;
        return std::nullopt;
    }
    std::optional<RespValue> reply = readReply(commandLabel(args), error);
    // An error reply's text only ever ends up in messages: made printable
    // here once, for every control-plane message built from it.
    if (reply && reply->isError())
        reply->text = printable(reply->text);
    return reply;
}

} // namespace tacho::engine
