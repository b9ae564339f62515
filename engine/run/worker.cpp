#include "engine/run/worker.h"

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/net/session_setup.h"
#include "engine/net/tls_session.h"
#include "engine/resp/reply_scanner.h"
#include "engine/resp/resp_encoder.h"
#include "engine/stats/clock.h"

namespace tacho::engine {

namespace {
constexpr std::size_t kReadBufferSize = 256 * 1024;
constexpr int kMaxEvents = 512;
constexpr std::uint64_t kMinDrainNs = 2'000'000'000;
} // namespace

// ---- CompletionSignal -------------------------------------------------------

void CompletionSignal::notify()
{
    std::lock_guard lock(m_mutex);
    m_notified = true;
    m_changed.notify_all();
}

bool CompletionSignal::waitUntil(std::chrono::steady_clock::time_point deadline)
{
    std::unique_lock lock(m_mutex);
    const bool notified = m_changed.wait_until(lock, deadline, [this] { return m_notified; });
    m_notified = false;
    return notified;
}

// ---- Connection ---------------------------------------------------------------

struct Worker::Connection {
    enum class State { Connecting, Handshaking, Setup, Ready, Running, Done };

    // A request on the wire. In closed loop dueNs == sentNs.
    struct InFlight {
        std::uint64_t dueNs;
        std::uint64_t sentNs;
        std::uint32_t command;
    };

    int fd = -1;
    State state = State::Connecting;
    TlsSession tls;                     // valid() only on TLS endpoints
    ReplyScanner scanner;
    std::unique_ptr<RequestGenerator> generator;
    std::string out;                    // bytes queued, not yet written
    std::size_t outOffset = 0;
    bool writeArmed = false;
    bool exhausted = false;             // the generator has nothing more
    bool timerArmed = false;            // open loop: waiting in the timer heap
    std::vector<InFlight> ring;         // capacity = pipeline
    std::size_t head = 0;
    std::size_t inflight = 0;
    std::uint64_t quota = 0;            // measured requests still to issue (count mode)
    std::size_t setupPending = 0;       // setup replies still expected
    std::size_t setupIndex = 0;
    std::uint64_t lastReplyNs = 0;      // for the client gap
    std::uint64_t connectStartNs = 0;
    std::uint64_t nextDueNs = 0;        // open loop
    std::uint64_t activeFromNs = 0;     // staircase ramp: issues nothing before this
    std::uint64_t sentSinceConnect = 0; // for --reconnect-interval
    int reconnectAttempts = 0;          // consecutive failed attempts after a loss
    bool backingOff = false;            // waiting in the timer heap to reconnect

    void push(const InFlight& request)
    {
        ring[(head + inflight) % ring.size()] = request;
        ++inflight;
    }
    InFlight pop()
    {
        const InFlight request = ring[head];
        head = head + 1 == ring.size() ? 0 : head + 1;
        --inflight;
        return request;
    }
};

// ---- construction and controller side -------------------------------------------

Worker::Worker(WorkerPlan plan)
    : m_plan(std::move(plan))
    , m_current(m_plan.commandCount)
    , m_readBuffer(kReadBufferSize)
    , m_outbox(m_plan.commandCount)
{
    m_setup = sessionSetupCommands(*m_plan.config);
    for (const auto& command : m_setup)
        appendCommand(m_setupBytes, command);
    const std::size_t pipeline = static_cast<std::size_t>(std::max(1, m_plan.config->pipeline));
    for (std::size_t i = 0; i < m_plan.quotas.size(); ++i) {
        auto c = std::make_unique<Connection>();
        c->ring.resize(pipeline);
        c->quota = m_plan.quotas[i];
        c->generator = m_plan.generators->create(m_plan.connectionIndexes[i], m_plan.totalConnections, m_plan.seed);
        m_connections.push_back(std::move(c));
    }
}

Worker::~Worker()
{
    for (auto& c : m_connections)
        closeSocket(*c);
}

// Closes the connection's socket (TLS session first). Safe to call twice.
void Worker::closeSocket(Connection& c)
{
    if (c.fd < 0)
        return;
    if (c.tls.valid()) {
        c.tls.shutdown();
        c.tls = TlsSession();
    }
    if (m_loop.valid())
        m_loop.remove(c.fd);
    ::close(c.fd);
    c.fd = -1;
}

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

void Worker::start(std::uint64_t startNs, std::uint64_t warmupEndNs, std::uint64_t endNs)
{
    std::lock_guard lock(m_mutex);
    m_startNs = startNs;
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
    {
        std::lock_guard lock(m_mutex);
        if (m_phase == Phase::Failed)
            return;
        m_phase = phase;
        m_changed.notify_all();
    }
    if (phase == Phase::Finished && m_plan.completion)
        m_plan.completion->notify();
}

void Worker::fail(const std::string& why)
{
    m_failed = true;
    {
        std::lock_guard lock(m_mutex);
        if (m_phase != Phase::Failed) {
            m_phase = Phase::Failed;
            m_failure = why;
        }
        m_changed.notify_all();
    }
    if (m_plan.completion)
        m_plan.completion->notify();
}

void Worker::publish()
{
    std::lock_guard lock(m_mutex);
    m_outbox.mergeFrom(m_current);
    m_current.clear();
}

// ---- worker thread ----------------------------------------------------------------

void Worker::run()
{
    if (!m_loop.valid()) {
        fail("cannot create an event loop: " + errnoText(errno));
        return;
    }
    m_connectTimeoutNs = static_cast<std::uint64_t>(std::max(1, m_plan.config->connectTimeoutMs)) * 1'000'000;
    connectPhase();
    if (m_failed || m_cancel.load(std::memory_order_relaxed))
        return;
    setPhase(Phase::Ready);
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_started || m_cancel.load(std::memory_order_relaxed); });
    }
    if (m_cancel.load(std::memory_order_relaxed))
        return;
    setPhase(Phase::Running);
    measuredPhase();
    publish();
    setPhase(Phase::Finished);
}

// Every connection connected and set up before anything is measured.
// Connects are paced (a bounded number in flight) so that thousands of
// connections do not overflow the server's accept backlog; each connection
// gets the full connect timeout from its own start.
void Worker::connectPhase()
{
    constexpr std::size_t kMaxPendingConnects = 256;
    const std::string where = m_plan.config->endpoint.describe();
    epoll_event events[kMaxEvents];
    const std::size_t total = m_connections.size();
    m_connecting = total;
    m_open = total;
    std::size_t opened = 0;
    std::uint64_t nextTimeoutCheck = 0;
    while (m_connecting > 0 && !m_failed && !m_cancel.load(std::memory_order_relaxed)) {
        const std::size_t ready = total - m_connecting;
        while (opened < total && opened - ready < kMaxPendingConnects)
            if (!openConnection(*m_connections[opened++], nowNs()))
                return;
        const std::uint64_t now = nowNs();
        if (now >= nextTimeoutCheck) {
            nextTimeoutCheck = now + 50'000'000;
            for (std::size_t i = 0; i < opened; ++i) {
                const Connection& c = *m_connections[i];
                const bool pending = c.state == Connection::State::Connecting || c.state == Connection::State::Handshaking
                    || c.state == Connection::State::Setup;
                if (pending && now - c.connectStartNs > m_connectTimeoutNs) {
                    fail("cannot connect to " + where + ": timed out after "
                         + std::to_string(m_plan.config->connectTimeoutMs) + " ms (" + std::to_string(ready) + " of "
                         + std::to_string(total) + " connections ready)");
                    return;
                }
            }
        }
        const int n = waitForEvents(events, kMaxEvents, now + 50'000'000);
        for (int i = 0; i < n; ++i)
            onEvent(*static_cast<Connection*>(events[i].data.ptr), events[i].events);
    }
}

void Worker::measuredPhase()
{
    const RunConfig& config = *m_plan.config;
    const std::string where = config.endpoint.describe();
    epoll_event events[kMaxEvents];
    m_current.clear();   // setup traffic is not part of the test

    // Open loop: spread the connections' first due times over one interval so
    // they do not all fire together.
    for (std::size_t i = 0; i < m_connections.size(); ++i) {
        Connection& c = *m_connections[i];
        c.state = Connection::State::Running;
        c.activeFromNs = m_startNs + m_plan.activationOffsetsNs[i];
        if (m_plan.intervalNs)
            c.nextDueNs = c.activeFromNs
                + m_plan.intervalNs * m_plan.connectionIndexes[i] / std::max<std::size_t>(1, m_plan.totalConnections);
        if (!m_plan.idle)
            refill(c);
    }

    const std::uint64_t tickNs = static_cast<std::uint64_t>(std::max(0.01, config.tickSeconds) * 1e9);
    const std::uint64_t drainWindowNs = std::max(kMinDrainNs, m_connectTimeoutNs);
    std::uint64_t nextTick = nowNs() + tickNs;
    while (m_open > 0 && !m_failed) {
        std::uint64_t until = nextTick;
        if (!m_timers.empty())
            until = std::min(until, m_timers.top().dueNs);
        const int n = waitForEvents(events, kMaxEvents, until);
        for (int i = 0; i < n; ++i)
            onEvent(*static_cast<Connection*>(events[i].data.ptr), events[i].events);

        const std::uint64_t now = nowNs();
        if (!m_timers.empty())
            runDueTimers(now);
        if (now < nextTick)
            continue;
        while (nextTick <= now)
            nextTick += tickNs;
        publish();
        if (m_cancel.load(std::memory_order_relaxed))
            break;
        if (!m_draining && (m_stop.load(std::memory_order_relaxed) || (m_endNs && now >= m_endNs))) {
            m_draining = true;
            m_drainDeadlineNs = now + drainWindowNs;
            for (auto& c : m_connections)   // idle, backing-off and drained connections end here
                if (c->state == Connection::State::Running && c->inflight == 0 && (c->out.empty() || c->backingOff))
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
                     + std::to_string(drainWindowNs / 1'000'000'000) + " s of the end of the test");
        }
        for (auto& c : m_connections)
            if ((c->state == Connection::State::Connecting || c->state == Connection::State::Handshaking
                 || c->state == Connection::State::Setup)
                && now - c->connectStartNs > m_connectTimeoutNs)
                lose(*c, "reconnect timed out");
    }
}

// epoll_pwait2 takes a nanosecond timeout: open-loop schedules need better
// than epoll_wait's milliseconds.
int Worker::waitForEvents(epoll_event* events, int capacity, std::uint64_t untilNs)
{
    const std::uint64_t now = nowNs();
    const std::uint64_t waitNs = untilNs > now ? untilNs - now : 0;
    timespec timeout { static_cast<time_t>(waitNs / 1'000'000'000), static_cast<long>(waitNs % 1'000'000'000) };
    return m_loop.waitPrecise(events, capacity, timeout);
}

void Worker::runDueTimers(std::uint64_t now)
{
    while (!m_timers.empty() && m_timers.top().dueNs <= now) {
        Connection& c = *m_timers.top().connection;
        m_timers.pop();
        c.timerArmed = false;
        if (c.state != Connection::State::Running)
            continue;
        if (c.backingOff) {
            c.backingOff = false;
            if (m_draining || !issuingAllowed(now)) {
                finish(c);
                continue;
            }
            ++m_current.reconnects;
            openConnection(c, now);
            continue;
        }
        refill(c);
    }
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
    c.out.insert(0, m_setupBytes);   // setup first, then any queued request
    c.outOffset = 0;
    if (::connect(c.fd, address.get(), address.length) != 0 && errno != EINPROGRESS) {
        connectFailed(c, errnoText(errno));
        return m_failed ? false : true;
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
    if (c.state == Connection::State::Handshaking) {
        continueHandshake(c);
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
        connectFailed(c, errnoText(error));
        return;
    }
    if (m_plan.tls) {
        c.tls = TlsSession(*m_plan.tls, c.fd, m_plan.address.isUnix() ? std::string() : m_plan.config->endpoint.host);
        c.state = Connection::State::Handshaking;
        continueHandshake(c);
        return;
    }
    onTransportReady(c);
}

void Worker::continueHandshake(Connection& c)
{
    const TlsSession::Status status = c.tls.handshake();
    if (status == TlsSession::Status::WantRead || status == TlsSession::Status::WantWrite) {
        // Wait only for what OpenSSL asks: EPOLLOUT while it waits to read spins.
        const std::uint32_t events = status == TlsSession::Status::WantRead ? EPOLLIN : EPOLLOUT;
        m_loop.modify(c.fd, events, &c);
        c.writeArmed = status == TlsSession::Status::WantWrite;
        return;
    }
    if (status != TlsSession::Status::Ok) {
        const std::string why = "TLS handshake failed: " + c.tls.failure();
        ++m_current.connectErrors;
        if (reconnectAllowed(c)) {
            scheduleReconnect(c);
            return;
        }
        finish(c);
        fail("cannot connect to " + m_plan.config->endpoint.describe() + ": " + why);
        return;
    }
    m_loop.modify(c.fd, EPOLLIN | EPOLLOUT, &c);
    c.writeArmed = true;
    onTransportReady(c);
}

// Connected (and TLS established): send the setup commands and whatever was
// queued before connecting.
void Worker::onTransportReady(Connection& c)
{
    c.reconnectAttempts = 0;
    const bool initial = m_connecting > 0;
    if (c.setupPending > 0) {
        c.state = Connection::State::Setup;
    } else if (initial) {
        c.state = Connection::State::Ready;
        --m_connecting;
    } else {
        c.state = Connection::State::Running;   // a reconnect during the run
    }
    flush(c);
    if (c.state == Connection::State::Running && c.inflight == 0)
        refill(c);   // reconnected after a loss: nothing was queued

}

void Worker::onReadable(Connection& c)
{
    if (!c.tls.valid()) {
        const ssize_t n = ::recv(c.fd, m_readBuffer.data(), m_readBuffer.size(), 0);
        if (n <= 0) {
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            lose(c, n == 0 ? "server closed the connection" : errnoText(errno));
            return;
        }
        onBytes(c, static_cast<std::size_t>(n));
        return;
    }
    // OpenSSL reads ahead: drain it, or replies can sit in its buffer
    // where epoll cannot see them.
    for (;;) {
        TlsSession::Status status = TlsSession::Status::Ok;
        const long n = c.tls.read(m_readBuffer.data(), m_readBuffer.size(), status);
        if (n > 0) {
            onBytes(c, static_cast<std::size_t>(n));
            if (c.state == Connection::State::Done || c.fd < 0 || !c.tls.valid())
                return;
            continue;
        }
        if (status == TlsSession::Status::WantRead)
            break;
        if (status == TlsSession::Status::WantWrite) {
            if (!c.writeArmed) {
                m_loop.modify(c.fd, EPOLLIN | EPOLLOUT, &c);
                c.writeArmed = true;
            }
            break;
        }
        lose(c, status == TlsSession::Status::Closed ? "server closed the connection" : c.tls.failure());
        return;
    }
    if (c.outOffset < c.out.size())
        flush(c);   // a write that waited for a read (TLS renegotiation, key update)
}

void Worker::onBytes(Connection& c, std::size_t n)
{
    const std::uint64_t now = nowNs();
    const bool openLoop = m_plan.intervalNs != 0;
    bool measured = false;
    std::string protocolError;

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
        const Connection::InFlight request = c.pop();
        if (request.dueNs < m_warmupEndNs) {
            ++m_current.warmupRequests;
            return;
        }
        measured = true;
        CommandCounters& command = m_current.commands[request.command];
        command.latency.record(now - request.dueNs);
        if (openLoop)
            command.uncorrected.record(now - request.sentNs);
        ++command.requests;
        command.bytesReceived += reply.bytes;
        if (reply.type == ReplyType::Error) {
            ++command.errors;
            m_current.noteError(reply.error, reply.errorText);
        } else if (reply.miss) {
            ++command.misses;
        } else {
            ++command.hits;
        }
    });
    if (c.scanner.failed()) {
        lose(c, std::string("protocol error: ") + std::string(c.scanner.failure()));
        return;
    }
    if (!protocolError.empty()) {
        fail(protocolError);
        return;
    }
    if (measured) {
        m_current.lastReplyNs = now;
        c.lastReplyNs = now;
    }
    if (c.state != Connection::State::Running)
        return;
    const std::uint64_t interval = m_plan.config->reconnectInterval;
    if (c.inflight == 0 && (!m_plan.config->keepAlive || (interval && c.sentSinceConnect >= interval)))
        reconnect(c);
    else
        refill(c);
}

bool Worker::issuingAllowed(std::uint64_t now) const
{
    return !m_draining && !m_plan.idle && !m_stop.load(std::memory_order_relaxed) && !(m_endNs && now >= m_endNs);
}

// Appends as many requests as the pipeline, the quota, the schedule (open
// loop) and the generator allow; returns how many.
std::size_t Worker::queueRequests(Connection& c, std::uint64_t now)
{
    if (!issuingAllowed(now) || c.exhausted)
        return 0;
    if (now < c.activeFromNs) {   // not yet switched on by the ramp
        if (!c.timerArmed) {
            m_timers.push(Timer { c.activeFromNs, &c });
            c.timerArmed = true;
        }
        return 0;
    }
    const bool openLoop = m_plan.intervalNs != 0;
    std::size_t queued = 0;
    while (c.inflight < c.ring.size()) {
        const std::uint64_t due = openLoop ? c.nextDueNs : now;
        if (openLoop && due > now) {
            if (!c.timerArmed) {
                m_timers.push(Timer { due, &c });
                c.timerArmed = true;
            }
            break;
        }
        const bool measured = due >= m_warmupEndNs;
        if (measured && m_plan.countLimited && c.quota == 0)
            break;
        const std::size_t before = c.out.size();
        const std::uint32_t command = c.generator->appendNext(c.out);
        if (command == RequestGenerator::kExhausted) {
            c.exhausted = true;
            break;
        }
        c.push(Connection::InFlight { due, now, command });
        ++queued;
        ++c.sentSinceConnect;
        if (openLoop) {
            c.nextDueNs += m_plan.intervalNs;
            m_current.maxSendLagNs = std::max(m_current.maxSendLagNs, now - due);
        }
        if (measured) {
            if (m_plan.countLimited)
                --c.quota;
            m_current.commands[command].bytesSent += c.out.size() - before;
            if (!openLoop && c.lastReplyNs)
                m_current.clientGap.record(now - c.lastReplyNs);
        }
    }
    return queued;
}

void Worker::refill(Connection& c)
{
    // Closed loop, redis-benchmark style: the next batch goes out when the
    // whole previous one is answered.
    if (m_plan.config->pipelineBatches && m_plan.intervalNs == 0 && c.inflight > 0)
        return;
    const std::size_t queued = queueRequests(c, nowNs());
    if (queued > 0) {
        flush(c);
        return;
    }
    if (c.inflight == 0 && c.out.size() == c.outOffset && !c.timerArmed)
        finish(c);
}

void Worker::flush(Connection& c)
{
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
                    m_loop.modify(c.fd, EPOLLIN | EPOLLOUT, &c);
                    c.writeArmed = true;
                }
                return;
            }
            if (status == TlsSession::Status::WantRead)
                return;   // retried from onReadable
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
    closeSocket(c);
    c.out.clear();
    c.outOffset = 0;
    c.sentSinceConnect = 0;
    const std::uint64_t now = nowNs();
    if (queueRequests(c, now) == 0) {
        if (c.timerArmed) {
            c.state = Connection::State::Running;   // open loop: reconnect when due
            return;
        }
        c.state = Connection::State::Done;
        --m_open;
        return;
    }
    if (now >= m_warmupEndNs)
        ++m_current.reconnects;
    openConnection(c, now);
}

void Worker::finish(Connection& c)
{
    if (c.state == Connection::State::Done)
        return;
    closeSocket(c);
    c.state = Connection::State::Done;
    --m_open;
}

void Worker::lose(Connection& c, const std::string& why)
{
    ++m_current.connectErrors;
    if (reconnectAllowed(c)) {
        // Requests on the wire when the connection broke are never answered:
        // counted, not retried, so the outage stays visible.
        m_current.unanswered += c.inflight;
        m_current.noteMessage("connection lost: " + why);
        scheduleReconnect(c);
        return;
    }
    finish(c);
    fail("connection to " + m_plan.config->endpoint.describe() + " lost: " + why);
}

void Worker::connectFailed(Connection& c, const std::string& why)
{
    ++m_current.connectErrors;
    if (reconnectAllowed(c)) {
        scheduleReconnect(c);
        return;
    }
    finish(c);
    fail("cannot connect to " + m_plan.config->endpoint.describe() + ": " + why
         + (c.reconnectAttempts > 0 ? " (after " + std::to_string(c.reconnectAttempts) + " reconnect attempts)" : ""));
}

// Reconnecting after a loss is for the measured phase only; the connect
// phase fails fast so a wrong address is reported at once.
bool Worker::reconnectAllowed(const Connection& c) const
{
    const RunConfig& config = *m_plan.config;
    return config.reconnectOnError && m_connecting == 0 && !m_draining && !m_cancel.load(std::memory_order_relaxed)
        && (config.maxReconnectAttempts <= 0 || c.reconnectAttempts < config.maxReconnectAttempts);
}

void Worker::scheduleReconnect(Connection& c)
{
    closeSocket(c);
    c.inflight = 0;
    c.head = 0;
    c.out.clear();
    c.outOffset = 0;
    c.writeArmed = false;
    c.sentSinceConnect = 0;
    c.state = Connection::State::Running;
    // 100 ms, then times the backoff factor per failed attempt, at most 10 s.
    double delayNs = 100e6;
    for (int i = 0; i < c.reconnectAttempts; ++i)
        delayNs = std::min(10e9, delayNs * std::max(1.0, m_plan.config->reconnectBackoffFactor));
    ++c.reconnectAttempts;
    c.backingOff = true;
    if (!c.timerArmed) {
        m_timers.push(Timer { nowNs() + static_cast<std::uint64_t>(delayNs), &c });
        c.timerArmed = true;
    }
}

} // namespace tacho::engine
