// The worker's sockets and transport: connecting, TLS, moving bytes through
// the IoLoop — recv/send on readiness (epoll, and TLS everywhere) or
// completion streams (io_uring) — and handing received bytes to onBytes().
#include <cerrno>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/net/session_setup.h"
#include "engine/run/worker_connection.h"
#include "engine/stats/clock.h"

namespace tacho::engine {

// Closes the connection's socket (TLS session or stream first). Safe to call twice.
void Worker::closeSocket(Connection& c)
{
    if (c.fd < 0)
        return;
    if (c.tls.valid()) {
        c.tls.shutdown();
        c.tls = TlsSession();
    }
    if (m_io) {
        if (c.stream >= 0)
            m_io->closeStream(c.stream);
        else
            m_io->remove(c.fd);
    }
    c.stream = -1;
    c.sending.clear();
    c.sendingOffset = 0;
    c.sendBusy = false;
    ::close(c.fd);
    c.fd = -1;
    m_openSockets.fetch_sub(1, std::memory_order_relaxed);
}

// Nanosecond timeouts: open-loop schedules need better than milliseconds.
int Worker::waitForEvents(IoEvent* events, int capacity, std::uint64_t untilNs)
{
    submitSends();
    const std::uint64_t now = nowNs();
    return m_io->wait(events, capacity, untilNs > now ? untilNs - now : 0);
}

bool Worker::openConnection(Connection& c, std::uint64_t now)
{
    const SocketAddress& address = m_plan.nodeAddresses[m_cluster ? static_cast<std::size_t>(c.node) : 0];
    c.fd = ::socket(address.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c.fd < 0) {
        fail("cannot create socket: " + errnoText(errno)
             + (errno == EMFILE ? " (raise the open-files limit: ulimit -n)" : ""));
        return false;
    }
    m_openSockets.fetch_add(1, std::memory_order_relaxed);
    if (!address.isUnix()) {
        int one = 1;
        setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    c.state = Connection::State::Connecting;
    c.connectStartNs = now;
    c.replyWatch.reset();
    c.scanner.reset();
    c.setupPending = m_setup.size();
    c.setupIndex = 0;
    c.out.insert(0, m_setupBytes);   // setup first, then any queued request
    c.outOffset = 0;
    if (::connect(c.fd, address.get(), address.length) != 0 && errno != EINPROGRESS) {
        connectFailed(c, errnoText(errno));
        return !m_failed;
    }
    c.writeArmed = true;
    m_io->add(c.fd, EPOLLIN | EPOLLOUT, &c);
    return true;
}

void Worker::onEvent(const IoEvent& event)
{
    Connection& c = *static_cast<Connection*>(event.tag);
    if (c.state == Connection::State::Done)
        return;
    switch (event.kind) {
    case IoEvent::Kind::Ready:
        if (c.stream < 0)
            onReady(c, event.readiness);
        return;
    case IoEvent::Kind::Received:
        if (event.stream == c.stream)
            onReceived(c, event);
        return;
    case IoEvent::Kind::Sent:
        if (event.stream == c.stream)
            onSent(c, event.result);
        return;
    }
}

void Worker::onReady(Connection& c, std::uint32_t events)
{
    if (c.state == Connection::State::Connecting) {
        if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))
            onConnected(c);
        return;
    }
    if (c.state == Connection::State::Handshaking) {
        continueHandshake(c);
        return;
    }
    if (events & (EPOLLIN | EPOLLERR | EPOLLHUP))
        onReadable(c);
    if (c.state != Connection::State::Done && c.fd >= 0 && (events & EPOLLOUT) && c.writeArmed)
        flush(c);
}

void Worker::onConnected(Connection& c)
{
    int error = 0;
    socklen_t length = sizeof error;
    getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0) {
        connectFailed(c, errnoText(error));
        return;
    }
    if (m_plan.tls) {
        const std::size_t at = m_cluster ? static_cast<std::size_t>(c.node) : 0;
        const SocketAddress& address = m_plan.nodeAddresses[at];
        c.tls = TlsSession(*m_plan.tls, c.fd, address.isUnix() ? std::string() : m_plan.nodeHosts[at]);
        c.state = Connection::State::Handshaking;
        continueHandshake(c);
        return;
    }
    if (m_io->streams()) {
        // Plain socket on a completion transport: off readiness, onto a stream.
        m_io->remove(c.fd);
        c.writeArmed = false;
        c.stream = m_io->openStream(c.fd, &c);
        if (c.stream < 0) {
            connectFailed(c, "cannot start receiving");
            return;
        }
    }
    onTransportReady(c);
}

void Worker::continueHandshake(Connection& c)
{
    const TlsSession::Status status = c.tls.handshake();
    if (status == TlsSession::Status::WantRead || status == TlsSession::Status::WantWrite) {
        // Wait only for what OpenSSL asks: EPOLLOUT while it waits to read spins.
        const std::uint32_t events = status == TlsSession::Status::WantRead ? EPOLLIN : EPOLLOUT;
        m_io->modify(c.fd, events, &c);
        c.writeArmed = status == TlsSession::Status::WantWrite;
        return;
    }
    if (status != TlsSession::Status::Ok) {
        if (c.tls.closedUnanswered() && (m_tlsHandshakes > 0 || (m_plan.tlsEndpointAnswered && !m_cluster))) {
            // The same server completed handshakes: not a wrong port but a
            // full server (Redis drops TLS connections beyond maxclients
            // before the handshake, so its error is never sent).
            connectFailed(c,
                          "TLS handshake failed: the server closed the connection without answering, though it "
                          "completed the handshake on other connections (a server at its connection limit, "
                          "Redis' maxclients, drops TLS connections without a word)",
                          "the server closed the connection during the TLS handshake");
            return;
        }
        connectFailed(c, "TLS handshake failed: " + c.tls.failure(),
                      c.tls.closedUnanswered() ? "the server closed the connection during the TLS handshake" : "");
        return;
    }
    ++m_tlsHandshakes;
    m_io->modify(c.fd, EPOLLIN | EPOLLOUT, &c);
    c.writeArmed = true;
    onTransportReady(c);
}

// Connected (and TLS established): send the setup commands and whatever was
// queued before connecting.
void Worker::onTransportReady(Connection& c)
{
    c.reconnectAttempts = 0;
    if (c.setupPending > 0) {
        c.state = Connection::State::Setup;
    } else if (!m_started) {
        c.state = Connection::State::Ready;
        --m_connecting;
    } else {
        c.state = Connection::State::Running;   // a reconnect during the run
    }
    flush(c);
    if (c.state == Connection::State::Running && c.client->inflight == 0)
        refill(*c.client);   // reconnected after a loss: nothing was queued
}

void Worker::onReadable(Connection& c)
{
    if (!c.tls.valid()) {
        const ssize_t n = ::recv(c.fd, m_readBuffer.data(), m_readBuffer.size(), 0);
        if (n <= 0) {
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            const int error = n == 0 ? 0 : errno;
            closedByServer(c, error, error == 0 ? "server closed the connection" : errnoText(error));
            return;
        }
        onBytes(c, std::string_view(m_readBuffer.data(), static_cast<std::size_t>(n)));
        return;
    }
    // OpenSSL reads ahead: drain it, or replies can sit in its buffer
    // where epoll cannot see them.
    for (;;) {
        TlsSession::Status status = TlsSession::Status::Ok;
        const long n = c.tls.read(m_readBuffer.data(), m_readBuffer.size(), status);
        if (n > 0) {
            onBytes(c, std::string_view(m_readBuffer.data(), static_cast<std::size_t>(n)));
            if (c.state == Connection::State::Done || c.fd < 0 || !c.tls.valid())
                return;
            continue;
        }
        if (status == TlsSession::Status::WantRead)
            break;
        if (status == TlsSession::Status::WantWrite) {
            if (!c.writeArmed) {
                m_io->modify(c.fd, EPOLLIN | EPOLLOUT, &c);
                c.writeArmed = true;
            }
            break;
        }
        const std::string why = c.tls.failure().empty() ? "server closed the connection" : c.tls.failure();
        if (status == TlsSession::Status::Closed)
            closedByServer(c, 0, why);
        else
            lose(c, why);
        return;
    }
    if (c.outOffset < c.out.size())
        flush(c);   // a write that waited for a read (TLS key update)
}

void Worker::onReceived(Connection& c, const IoEvent& event)
{
    if (event.result <= 0) {
        closedByServer(c, -event.result, event.result == 0 ? "server closed the connection" : errnoText(-event.result));
        return;
    }
    onBytes(c, std::string_view(event.data, static_cast<std::size_t>(event.result)));
}

void Worker::onSent(Connection& c, int result)
{
    c.sendBusy = false;
    if (result < 0) {
        lose(c, "send failed: " + errnoText(-result));
        return;
    }
    c.sendingOffset += static_cast<std::size_t>(result);
    if (c.sendingOffset >= c.sending.size()) {
        c.sending.clear();
        c.sendingOffset = 0;
        c.replyWatch.progressed();   // written: the wait for their replies starts now
    } else if (static_cast<std::size_t>(result) >= ReplyWatch::kMinWriteProgress) {
        c.replyWatch.progressed();   // a large request, still being read
    }
    if (!c.sending.empty() || !c.out.empty())
        flush(c);   // the rest of a short send, or what was queued meanwhile
}

// Hands every queued stream's bytes to the loop; they go out with its next
// wait, one submission for all of them.
void Worker::submitSends()
{
    for (Connection* c : m_sendQueue) {
        c->sendQueued = false;
        if (c->stream < 0 || c->sendBusy)
            continue;
        if (c->sending.empty()) {
            if (c->out.empty())
                continue;
            c->sending.swap(c->out);   // `out` keeps collecting while the loop owns `sending`
            c->sendingOffset = 0;
        }
        m_io->send(c->stream, c->sending.data() + c->sendingOffset, c->sending.size() - c->sendingOffset);
        c->sendBusy = true;
    }
    m_sendQueue.clear();
}

void Worker::flush(Connection& c)
{
    if (c.stream >= 0) {
        if (!c.sendQueued && !c.sendBusy) {
            c.sendQueued = true;
            m_sendQueue.push_back(&c);
        }
        return;
    }
    const std::size_t startOffset = c.outOffset;
    // Leaving with output still pending: a large write counts as progress.
    const auto wrotePart = [&c, startOffset] {
        if (c.outOffset - startOffset >= ReplyWatch::kMinWriteProgress)
            c.replyWatch.progressed();
    };
    while (c.outOffset < c.out.size()) {
        if (c.tls.valid()) {
            TlsSession::Status status = TlsSession::Status::Ok;
            const long n = c.tls.write(c.out.data() + c.outOffset, c.out.size() - c.outOffset, status);
            if (n > 0) {
                c.outOffset += static_cast<std::size_t>(n);
                continue;
            }
            if (status == TlsSession::Status::WantWrite) {
                if (!c.writeArmed) {
                    m_io->modify(c.fd, EPOLLIN | EPOLLOUT, &c);
                    c.writeArmed = true;
                }
                wrotePart();
                return;
            }
            if (status == TlsSession::Status::WantRead) {
                wrotePart();
                return;   // retried from onReadable
            }
            lose(c, "send failed: " + c.tls.failure());
            return;
        }
        const ssize_t n = ::send(c.fd, c.out.data() + c.outOffset, c.out.size() - c.outOffset, MSG_NOSIGNAL);
        if (n > 0) {
            c.outOffset += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            if (!c.writeArmed) {
                m_io->modify(c.fd, EPOLLIN | EPOLLOUT, &c);
                c.writeArmed = true;
            }
            wrotePart();
            return;
        }
        lose(c, "send failed: " + errnoText(errno));
        return;
    }
    if (c.outOffset != startOffset)
        c.replyWatch.progressed();   // fully written: the wait for replies starts now
    c.out.clear();
    c.outOffset = 0;
    if (c.writeArmed) {
        m_io->modify(c.fd, EPOLLIN, &c);
        c.writeArmed = false;
    }
}

} // namespace tacho::engine
