#include "engine/run/worker.h"

#include <algorithm>
#include <cerrno>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/net/session_setup.h"
#include "engine/resp/reply_scanner.h"
#include "engine/resp/resp_encoder.h"
#include "engine/stats/clock.h"

namespace tacho::engine {

namespace {
constexpr std::size_t kReadBufferSize = 256 * 1024;
constexpr int kMaxEvents = 512;
constexpr std::uint64_t kMinDrainNs = 2'000'000'000;
} // namespace

struct Worker::Connection {
    enum class State { Connecting, Setup, Ready, Running, Done };

    int fd = -1;
    State state = State::Connecting;
    ReplyScanner scanner;
    std::string out;                    // bytes queued, not yet written
    std::size_t outOffset = 0;
    bool writeArmed = false;
    std::vector<std::uint64_t> sentAt;  // ring of queue times of in-flight requests
    std::size_t head = 0;
    std::size_t inflight = 0;
    std::uint64_t quota = 0;            // measured requests still to issue (count mode)
    std::size_t setupPending = 0;       // setup replies still expected
    std::size_t setupIndex = 0;
    std::uint64_t lastReplyNs = 0;      // for the client gap
    std::uint64_t connectStartNs = 0;

    void push(std::uint64_t t)
    {
        sentAt[(head + inflight) % sentAt.size()] = t;
        ++inflight;
    }
    std::uint64_t pop()
    {
        const std::uint64_t t = sentAt[head];
        head = (head + 1) % sentAt.size();
        --inflight;
        return t;
    }
};

Worker::Worker(WorkerPlan plan)
    : m_plan(std::move(plan))
    , m_random(m_plan.seed)
    , m_readBuffer(kReadBufferSize)
{
    m_setup = sessionSetupCommands(*m_plan.config);
    for (const auto& command : m_setup)
        appendCommand(m_setupBytes, command);
    const std::size_t pipeline = static_cast<std::size_t>(std::max(1, m_plan.config->pipeline));
    for (std::uint64_t quota : m_plan.quotas) {
        auto c = std::make_unique<Connection>();
        c->sentAt.resize(pipeline);
        c->quota = quota;
        m_connections.push_back(std::move(c));
    }
}

Worker::~Worker()
{
    for (auto& c : m_connections)
        if (c->fd >= 0)
            ::close(c->fd);
}

// ---- controller side --------------------------------------------------------

Worker::Phase Worker::phase() const
{
    std::lock_guard lock(m_mutex);
    return m_phase;
}

std::string Worker::failure() const
{
    std::lock_guard lock(m_mutex);
    return m_failure;
}

void Worker::start(std::uint64_t warmupEndNs, std::uint64_t endNs)
{
    std::lock_guard lock(m_mutex);
    m_warmupEndNs = warmupEndNs;
    m_endNs = endNs;
    m_started = true;
    m_changed.notify_all();
}

void Worker::requestStop()
{
    m_stop.store(true, std::memory_order_relaxed);
}

void Worker::requestCancel()
{
    m_cancel.store(true, std::memory_order_relaxed);
    std::lock_guard lock(m_mutex);
    m_changed.notify_all();
}

void Worker::collect(IntervalStats& into)
{
    std::lock_guard lock(m_mutex);
    into.mergeFrom(m_outbox);
    m_outbox.clear();
}

Worker::Phase Worker::waitUntilConnected(int timeoutMs)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                       [this] { return m_phase != Phase::Connecting; });
    return m_phase;
}

void Worker::setPhase(Phase phase)
{
    std::lock_guard lock(m_mutex);
    if (m_phase == Phase::Failed)
        return;
    m_phase = phase;
    m_changed.notify_all();
}

void Worker::fail(const std::string& why)
{
    m_failed = true;
    std::lock_guard lock(m_mutex);
    if (m_phase != Phase::Failed) {
        m_phase = Phase::Failed;
        m_failure = why;
    }
    m_changed.notify_all();
}

void Worker::publish()
{
    std::lock_guard lock(m_mutex);
    m_outbox.mergeFrom(m_current);
    m_current.clear();
}

// ---- worker thread ----------------------------------------------------------

void Worker::run()
{
    const RunConfig& config = *m_plan.config;
    const std::string where = config.endpoint.describe();
    epoll_event events[kMaxEvents];

    if (!m_loop.valid()) {
        fail("cannot create an event loop: " + errnoText(errno));
        return;
    }

    // Connect phase: every connection connected and set up before measuring.
    const std::uint64_t connectTimeoutNs = static_cast<std::uint64_t>(std::max(1, config.connectTimeoutMs)) * 1'000'000;
    m_connectDeadlineNs = nowNs() + connectTimeoutNs;
    m_connecting = m_connections.size();
    m_open = m_connections.size();
    for (auto& c : m_connections) {
        if (!openConnection(*c, nowNs()))
            return;
    }
    while (m_connecting > 0 && !m_failed) {
        if (m_cancel.load(std::memory_order_relaxed))
            return;
        const std::uint64_t now = nowNs();
        if (now >= m_connectDeadlineNs) {
            fail("cannot connect to " + where + ": timed out after " + std::to_string(config.connectTimeoutMs)
                 + " ms (" + std::to_string(m_connections.size() - m_connecting) + " of "
                 + std::to_string(m_connections.size()) + " connections ready)");
            return;
        }
        const int timeoutMs = static_cast<int>((m_connectDeadlineNs - now) / 1'000'000) + 1;
        const int n = m_loop.wait(events, kMaxEvents, std::min(timeoutMs, 100));
        for (int i = 0; i < n; ++i)
            onEvent(*static_cast<Connection*>(events[i].data.ptr), events[i].events);
    }
    if (m_failed)
        return;
    setPhase(Phase::Ready);

    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_started || m_cancel.load(std::memory_order_relaxed); });
    }
    if (m_cancel.load(std::memory_order_relaxed))
        return;
    setPhase(Phase::Running);
    m_current.clear();   // setup traffic is not part of the test

    for (auto& c : m_connections) {
        c->state = Connection::State::Running;
        if (!m_plan.idle)
            refill(*c);
    }

    const std::uint64_t tickNs = static_cast<std::uint64_t>(std::max(0.01, config.tickSeconds) * 1e9);
    std::uint64_t nextTick = nowNs() + tickNs;
    while (m_open > 0 && !m_failed) {
        std::uint64_t now = nowNs();
        const int timeoutMs = now >= nextTick ? 0 : static_cast<int>((nextTick - now + 999'999) / 1'000'000);
        const int n = m_loop.wait(events, kMaxEvents, timeoutMs);
        for (int i = 0; i < n; ++i)
            onEvent(*static_cast<Connection*>(events[i].data.ptr), events[i].events);

        now = nowNs();
        if (now < nextTick)
            continue;
        while (nextTick <= now)
            nextTick += tickNs;
        publish();
        if (m_cancel.load(std::memory_order_relaxed))
            break;
        if (!m_draining && (m_stop.load(std::memory_order_relaxed) || (m_endNs && now >= m_endNs))) {
            m_draining = true;
            m_drainDeadlineNs = now + std::max(kMinDrainNs, connectTimeoutNs);
            for (auto& c : m_connections)   // idle connections and drained ones end here
                if (c->state == Connection::State::Running && c->inflight == 0 && c->out.empty())
                    finish(*c);
        }
        if (m_draining && now >= m_drainDeadlineNs) {
            std::uint64_t unanswered = 0;
            for (auto& c : m_connections)
                if (c->state != Connection::State::Done) {
                    unanswered += c->inflight;
                    finish(*c);
                }
            if (unanswered > 0)
                fail(std::to_string(unanswered) + " requests got no reply from " + where + " within "
                     + std::to_string(std::max(kMinDrainNs, connectTimeoutNs) / 1'000'000'000)
                     + " s of the end of the test");
        }
        for (auto& c : m_connections)
            if (c->state == Connection::State::Connecting && now - c->connectStartNs > connectTimeoutNs)
                lose(*c, "reconnect to " + where + " timed out");
    }
    publish();
    setPhase(Phase::Finished);
}

bool Worker::openConnection(Connection& c, std::uint64_t now)
{
    const SocketAddress& address = m_plan.address;
    c.fd = ::socket(address.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c.fd < 0) {
        fail("cannot create socket: " + errnoText(errno)
             + (errno == EMFILE ? " (raise the open-files limit: ulimit -n)" : ""));
        return false;
    }
    if (!address.isUnix()) {
        int one = 1;
        setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    c.state = Connection::State::Connecting;
    c.connectStartNs = now;
    c.scanner.reset();
    c.setupPending = m_setup.size();
    c.setupIndex = 0;
    if (c.out.empty())
        c.out = m_setupBytes;
    else
        c.out.insert(0, m_setupBytes);
    c.outOffset = 0;
    if (::connect(c.fd, address.get(), address.length) != 0 && errno != EINPROGRESS) {
        const int error = errno;
        ++m_current.connectErrors;
        fail("cannot connect to " + m_plan.config->endpoint.describe() + ": " + errnoText(error));
        return false;
    }
    c.writeArmed = true;
    m_loop.add(c.fd, EPOLLIN | EPOLLOUT, &c);
    return true;
}

void Worker::onEvent(Connection& c, std::uint32_t events)
{
    if (c.state == Connection::State::Done)
        return;
    if (c.state == Connection::State::Connecting) {
        if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))
            onConnected(c);
        return;
    }
    if (events & (EPOLLIN | EPOLLERR | EPOLLHUP))
        onReadable(c);
    if (c.state != Connection::State::Done && (events & EPOLLOUT) && c.writeArmed)
        flush(c);
}

void Worker::onConnected(Connection& c)
{
    int error = 0;
    socklen_t length = sizeof error;
    getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0) {
        ++m_current.connectErrors;
        fail("cannot connect to " + m_plan.config->endpoint.describe() + ": " + errnoText(error));
        return;
    }
    c.state = c.setupPending > 0 ? Connection::State::Setup : Connection::State::Ready;
    if (c.state == Connection::State::Ready) {
        if (m_connecting > 0)
            --m_connecting;
        else
            c.state = Connection::State::Running;   // a reconnect during the run
    }
    flush(c);
}

void Worker::onReadable(Connection& c)
{
    const ssize_t n = ::recv(c.fd, m_readBuffer.data(), m_readBuffer.size(), 0);
    if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        lose(c, n == 0 ? "server closed the connection" : errnoText(errno));
        return;
    }
    const std::uint64_t now = nowNs();
    const bool measuring = now >= m_warmupEndNs;
    std::string protocolError;
    if (measuring)
        m_current.bytesReceived += static_cast<std::uint64_t>(n);

    c.scanner.feed(std::string_view(m_readBuffer.data(), static_cast<std::size_t>(n)), [&](const ReplyInfo& reply) {
        if (!protocolError.empty())
            return;
        if (c.setupPending > 0) {
            if (reply.type == ReplyType::Error) {
                protocolError = describeSetupFailure(m_setup[c.setupIndex], reply.errorText);
                return;
            }
            ++c.setupIndex;
            if (--c.setupPending == 0) {
                if (m_connecting > 0 && c.state == Connection::State::Setup) {
                    c.state = Connection::State::Ready;
                    --m_connecting;
                } else {
                    c.state = Connection::State::Running;
                }
            }
            return;
        }
        if (reply.type == ReplyType::Push)
            return;   // RESP3 out-of-band message, not an answer to a request
        if (c.inflight == 0) {
            protocolError = "unexpected reply from the server (no request in flight)";
            return;
        }
        const std::uint64_t sent = c.pop();
        if (sent < m_warmupEndNs) {
            ++m_current.warmupRequests;
            return;
        }
        m_current.latency.record(now - sent);
        ++m_current.requests;
        if (reply.type == ReplyType::Error)
            m_current.noteError(reply.error, reply.errorText);
        else if (reply.miss)
            ++m_current.misses;
        else
            ++m_current.hits;
    });
    if (c.scanner.failed()) {
        lose(c, std::string("protocol error: ") + std::string(c.scanner.failure()));
        return;
    }
    if (!protocolError.empty()) {
        fail(protocolError);
        return;
    }
    if (measuring) {
        m_current.lastReplyNs = now;
        c.lastReplyNs = now;
    }
    if (c.state != Connection::State::Running)
        return;
    if (!m_plan.config->keepAlive && c.inflight == 0)
        reconnect(c);
    else
        refill(c);
}

bool Worker::issuingAllowed(std::uint64_t now) const
{
    return !m_draining && !m_plan.idle && !m_stop.load(std::memory_order_relaxed) && !(m_endNs && now >= m_endNs);
}

void Worker::refill(Connection& c)
{
    if (m_plan.config->pipelineBatches && c.inflight > 0)
        return;   // the batch is not complete yet
    const std::uint64_t now = nowNs();
    std::size_t count = c.sentAt.size() - c.inflight;
    if (!issuingAllowed(now))
        count = 0;
    const bool measured = now >= m_warmupEndNs;
    if (measured && m_plan.countLimited)
        count = static_cast<std::size_t>(std::min<std::uint64_t>(count, c.quota));
    if (count == 0) {
        if (c.inflight == 0 && c.out.size() == c.outOffset)
            finish(c);
        return;
    }
    const std::size_t before = c.out.size();
    for (std::size_t i = 0; i < count; ++i) {
        m_plan.command.appendTo(c.out, m_random);
        c.push(now);
    }
    if (measured) {
        if (m_plan.countLimited)
            c.quota -= count;
        m_current.bytesSent += c.out.size() - before;
        if (c.lastReplyNs)
            m_current.clientGap.recordN(now - c.lastReplyNs, count);
    }
    flush(c);
}

void Worker::flush(Connection& c)
{
    while (c.outOffset < c.out.size()) {
        const ssize_t n = ::send(c.fd, c.out.data() + c.outOffset, c.out.size() - c.outOffset, MSG_NOSIGNAL);
        if (n > 0) {
            c.outOffset += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            if (!c.writeArmed) {
                m_loop.modify(c.fd, EPOLLIN | EPOLLOUT, &c);
                c.writeArmed = true;
            }
            return;
        }
        lose(c, "send failed: " + errnoText(errno));
        return;
    }
    c.out.clear();
    c.outOffset = 0;
    if (c.writeArmed) {
        m_loop.modify(c.fd, EPOLLIN, &c);
        c.writeArmed = false;
    }
}

void Worker::reconnect(Connection& c)
{
    // -k 0: a new connection for every request (batch). The request is queued
    // before connecting, so its latency includes connect and setup.
    m_loop.remove(c.fd);
    ::close(c.fd);
    c.fd = -1;
    const std::uint64_t now = nowNs();
    std::size_t count = issuingAllowed(now) ? c.sentAt.size() : 0;
    const bool measured = now >= m_warmupEndNs;
    if (measured && m_plan.countLimited)
        count = static_cast<std::size_t>(std::min<std::uint64_t>(count, c.quota));
    if (count == 0) {
        c.state = Connection::State::Done;
        --m_open;
        return;
    }
    c.out.clear();
    for (std::size_t i = 0; i < count; ++i) {
        m_plan.command.appendTo(c.out, m_random);
        c.push(now);
    }
    if (measured) {
        if (m_plan.countLimited)
            c.quota -= count;
        m_current.bytesSent += c.out.size();
        ++m_current.reconnects;
    }
    openConnection(c, now);
}

void Worker::finish(Connection& c)
{
    if (c.state == Connection::State::Done)
        return;
    if (c.fd >= 0) {
        m_loop.remove(c.fd);
        ::close(c.fd);
        c.fd = -1;
    }
    c.state = Connection::State::Done;
    --m_open;
}

void Worker::lose(Connection& c, const std::string& why)
{
    ++m_current.connectErrors;
    finish(c);
    fail("connection to " + m_plan.config->endpoint.describe() + " lost: " + why);
}

} // namespace tacho::engine
