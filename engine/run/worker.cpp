// The worker thread's measured phase: the request loop — due timers,
// queueing requests, the replies (onBytes), cluster redirects, and a
// connection reconnecting or finishing. Construction, the controller's calls
// and the connect phase are in worker_lifecycle.cpp, connection loss and
// recovery in worker_recovery.cpp, sockets and transport in worker_io.cpp.
#include "engine/run/worker.h"
#include "engine/run/worker_connection.h"

#include <algorithm>
#include <cctype>
#include <cerrno>

#include "engine/cluster/cluster_discovery.h"
#include "engine/cluster/key_slot.h"
#include "engine/cluster/loopback_guard.h"
#include "engine/cluster/redirect.h"
#include "engine/cluster/request_key.h"
#include "engine/net/peer_bytes.h"
#include "engine/net/session_setup.h"
#include "engine/run/crash_report.h"
#include "engine/resp/printable_text.h"
#include "engine/resp/resp_encoder.h"
#include "engine/stats/clock.h"

namespace tacho::engine {

namespace {
constexpr std::uint64_t kMinDrainNs = 2'000'000'000;
constexpr std::uint64_t kReplySweepNs = 100'000'000;   // how often reply timeouts are checked
const std::string kAskingCommand = "*1\r\n$6\r\nASKING\r\n";
} // namespace

// ---- worker thread: phases ----------------------------------------------------------

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

std::string Worker::describeNode(int node) const
{
    if (!m_cluster)
        return m_plan.config->endpoint.describe();
    return m_slots.nodes()[static_cast<std::size_t>(node)].address();
}

void Worker::run()
{
    const CrashReportEntry crashReportEntry(*this);
    std::string note;
    m_io = createIoLoop(chooseIoBackend(m_plan.io, m_connections.size(), m_plan.tls != nullptr),
                        m_connections.size(), &note);
    if (!m_io) {
        fail("cannot create an event loop: " + errnoText(errno));
        return;
    }
    if (!note.empty() && m_plan.io == IoBackend::Uring)
        m_current.noteMessage(note);   // asked for io_uring explicitly: say why it is not used
    {
        std::lock_guard lock(m_mutex);
        m_transport = m_io->backend();
    }
    m_connectTimeoutNs = static_cast<std::uint64_t>(std::max(1, m_plan.config->connectTimeoutMs)) * 1'000'000;
    connectPhase();
    if (m_failed || m_cancel.load(std::memory_order_relaxed))
        return;
    setPhase(Phase::Ready);
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_startSignalled || m_cancel.load(std::memory_order_relaxed); });
    }
    // Cancelled before the start (another worker failed): Finished, not left
    // Ready, which the controller would wait on for ever.
    if (m_cancel.load(std::memory_order_relaxed)) {
        setPhase(Phase::Finished);
        return;
    }
    setPhase(Phase::Running);
    measuredPhase();
    // Whatever is still on the wire after a failure or a cancel was sent and
    // never answered: counted, not dropped.
    for (auto& c : m_connections)
        if (c->state != Connection::State::Done)
            m_current.unanswered += c->inflight;
    publish();
    setPhase(Phase::Finished);
}

void Worker::measuredPhase()
{
    const RunConfig& config = *m_plan.config;
    IoEvent events[kMaxEvents];
    m_current.clear();   // setup traffic is not part of the test
    m_started = true;

    for (auto& c : m_connections)
        c->state = Connection::State::Running;
    // Open loop: spread the clients' first due times over one interval so
    // they do not all fire together.
    for (std::size_t i = 0; i < m_clients.size(); ++i) {
        Client& client = *m_clients[i];
        client.activeFromNs = m_startNs + m_plan.activationOffsetsNs[i];
        if (m_plan.intervalNs)
            client.nextDueNs = client.activeFromNs
                + m_plan.intervalNs * client.index / std::max<std::size_t>(1, m_plan.totalClients);
        if (client.deferred) {   // connects at its step (runDueTimers)
            m_timers.push(Timer { client.activeFromNs, &client, nullptr });
            client.timerArmed = true;
        } else if (!m_plan.idle) {
            refill(client);
        }
    }

    // Hands data over ten times per controller tick: the two clocks are not
    // in phase, and a hand-over once per tick would land every other tick.
    const std::uint64_t tickNs = static_cast<std::uint64_t>(std::max(0.01, config.tickSeconds) * 1e9) / 10;
    const std::uint64_t drainWindowNs = std::max(kMinDrainNs, m_connectTimeoutNs);
    std::uint64_t nextTick = nowNs() + tickNs;
    std::uint64_t nextReplySweep = 0;
    while (m_open > 0 && !m_failed) {
        std::uint64_t until = nextTick;
        if (!m_timers.empty())
            until = std::min(until, m_timers.top().dueNs);
        const int n = waitForEvents(events, kMaxEvents, until);
        for (int i = 0; i < n; ++i)
            onEvent(events[i]);

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
            for (auto& client : m_clients)   // idle, backing-off and drained clients end here
                finishClientIfDone(*client);
        }
        if (!m_draining && now >= nextReplySweep) {
            nextReplySweep = now + kReplySweepNs;
            checkReplyTimeouts(now);
        }
        if (m_draining && now >= m_drainDeadlineNs) {
            std::uint64_t unanswered = 0;
            for (auto& c : m_connections)
                if (c->state != Connection::State::Done) {
                    unanswered += c->inflight;
                    finish(*c);
                }
            m_current.unanswered += unanswered;
            if (unanswered > 0)
                fail(std::to_string(unanswered) + " requests got no reply from " + config.endpoint.describe()
                     + " within " + std::to_string(drainWindowNs / 1'000'000'000) + " s of the end of the test");
        }
        for (auto& c : m_connections)
            if ((c->state == Connection::State::Connecting || c->state == Connection::State::Handshaking
                 || c->state == Connection::State::Setup)
                && now - c->connectStartNs > m_connectTimeoutNs)
                lose(*c, "reconnect timed out");
    }
}

void Worker::runDueTimers(std::uint64_t now)
{
    while (!m_timers.empty() && m_timers.top().dueNs <= now) {
        const Timer timer = m_timers.top();
        m_timers.pop();
        if (timer.connection) {
            Connection& c = *timer.connection;
            c.timerArmed = false;
            if (c.state != Connection::State::Running || !c.backingOff)
                continue;
            c.backingOff = false;
            if (m_draining || !issuingAllowed(now)) {
                finish(c);
                finishClientIfDone(*c.client);
                continue;
            }
            ++m_current.reconnects;
            openConnection(c, now);
            continue;
        }
        Client& client = *timer.client;
        client.timerArmed = false;
        if (client.done)
            continue;
        if (client.deferred) {
            // Its ramp step has come: connect; the first requests go out
            // once the connection is set up (onTransportReady / onBytes).
            client.deferred = false;
            if (!issuingAllowed(now)) {
                finishClientIfDone(client);
                continue;
            }
            for (Connection* c : client.connections)
                if (c && !openConnection(*c, now))
                    return;
            continue;
        }
        refill(client);
    }
}

// ---- worker thread: connections ----------------------------------------------------

void Worker::onBytes(Connection& c, std::string_view received)
{
    const std::uint64_t now = nowNs();
    const bool openLoop = m_plan.intervalNs != 0;
    Client& client = *c.client;
    bool measured = false;
    std::string problem;
    std::string problemReply;   // the server's error reply behind `problem`, if it is one

    c.scanner.feed(received, [&](const ReplyInfo& reply) {
        if (!problem.empty())
            return;
        if (reply.type != ReplyType::Push)
            c.replyWatch.progressed();   // completed work, not bytes, holds off the reply timeout
        // A server at its client limit answers the first command of a new
        // connection with this error and closes it: a refusal, not a reply.
        if (reply.type == ReplyType::Error && reply.errorText.starts_with("ERR max number of clients reached")) {
            problem = describeNode(c.node) + " refused the connection: " + printable(reply.errorText)
                + " (raise its maxclients or use fewer connections)";
            problemReply = reply.errorText;
            if (c.setupPending == 0 && c.inflight > 0) {
                c.pop();
                --client.inflight;
                ++m_current.unanswered;
            }
            return;
        }
        if (c.setupPending > 0) {
            ++m_setupReplies[c.setupIndex];   // the server counted it, error or not
            if (reply.type == ReplyType::Error) {
                problem = describeSetupFailure(m_setup[c.setupIndex], reply.errorText);
                problemReply = reply.errorText;
                return;
            }
            ++c.setupIndex;
            if (--c.setupPending == 0) {
                if (!m_started && c.state == Connection::State::Setup) {
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
            problem = "unexpected reply from " + describeNode(c.node) + " (no request in flight)";
            return;
        }
        const InFlight request = c.pop();
        const std::string_view bytes = m_cluster ? c.popSent(request.length) : std::string_view();
        if (request.command == kAskingMarker)
            return;   // +OK to our ASKING
        bool redirectFailed = false;   // this reply ends a request that hit kMaxRedirects
        std::string refused;           // or one redirected off this machine (clusterStaysOnLoopback)
        if (m_cluster && (reply.error == ErrorKind::Moved || reply.error == ErrorKind::Ask)) {
            if (request.redirects < kMaxRedirects) {
                const std::optional<Redirect> target = parseRedirect(reply.errorText);
                if (target && redirect(c, request, bytes, *target, false, &refused))
                    return;   // still in flight, on another node
                if (refused.empty()) {
                    problem = "cannot follow redirect from " + describeNode(c.node) + ": " + printable(reply.errorText);
                    return;
                }
            }
            // Nodes sending it round in circles, or to a node we may not
            // write to: it fails as the error reply it got.
            ++m_current.redirectFailures;
            redirectFailed = true;
        }
        --client.inflight;
        if (m_followReplies) {   // the one test per reply that SCAN iteration adds
            client.generator->onReply(reply);
            if (request.dueNs >= m_warmupEndNs) {
                m_current.scanKeys += reply.scanElements;
                m_current.scanPasses += reply.type == ReplyType::Array && reply.cursor == "0";
            }
        }
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
        if (m_clientStats) {   // memtier's --client-stats: one test per reply unless asked for
            ClientCommandCounts& mine = clientCounts(client, request.command, now);
            ++mine.requests;
            mine.latencyNs += now - request.dueNs;
            mine.bytesSent += request.length;
            mine.bytesReceived += reply.bytes;
            mine.hits += reply.type != ReplyType::Error && !reply.miss;
            mine.misses += reply.miss;
            client.stats->latency[request.command].record(now - request.dueNs);
        }
        NodeCounters* node = m_cluster ? &m_current.nodes[static_cast<std::size_t>(c.node)] : nullptr;
        if (node) {
            node->latency.record(now - request.dueNs);
            ++node->requests;
        }
        if (reply.type == ReplyType::Error) {
            ++command.errors;
            if (node)
                ++node->errors;
            if (!refused.empty()) {
                m_current.noteError(reply.error, refused);
            } else if (redirectFailed) {
                m_current.noteError(reply.error, "request failed after " + std::to_string(kMaxRedirects)
                                                     + " redirects (a redirect loop?), the last from "
                                                     + describeNode(c.node) + ": " + std::string(reply.errorText));
            } else {
                m_current.noteError(reply.error, reply.errorText);
            }
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
    if (!problem.empty()) {
        fail(problem, problemReply);
        return;
    }
    if (m_cluster)
        c.compactSentLog();
    if (measured) {
        m_current.lastReplyNs = now;
        client.lastReplyNs = now;
    }
    if (c.state != Connection::State::Running)
        return;
    const std::uint64_t interval = m_plan.config->reconnectInterval;
    if (c.inflight == 0 && !m_cluster && (!m_plan.config->keepAlive || (interval && c.sentSinceConnect >= interval)))
        reconnect(c);
    else
        refill(client);
}

// MOVED: the slot has a new owner for good; ASK: ask that node once (with
// ASKING first). The request keeps its original times, so the detour counts
// in its latency.
bool Worker::redirect(Connection& c, const InFlight& request, std::string_view bytes,
                      const Redirect& target, bool retry, std::string* refused)
{
    const bool ask = target.ask;
    std::string host = target.host.empty() ? m_slots.nodes()[static_cast<std::size_t>(c.node)].host : target.host;
    int node = m_slots.findNode(host, target.port);
    // Known nodes passed discovery's check: only a new one is looked at.
    if (m_plan.config->clusterStaysOnLoopback
        && (node == SlotMap::kNoNode || static_cast<std::size_t>(node) >= m_plan.nodeAddresses.size())
        && !isLoopbackHost(host)) {
        if (refused)
            *refused = offMachineNodeMessage(ClusterNode { host, target.port });
        return false;
    }
    if (m_clientStats && request.dueNs >= m_warmupEndNs) {
        ClientCommandCounts& mine = clientCounts(*c.client, request.command, nowNs());
        ++(ask ? mine.asked : mine.moved);
    }
    if (ask) {
        ++m_current.asked;
        if (node == SlotMap::kNoNode)
            node = m_slots.addNode(ClusterNode { host, target.port, {}, true });
    } else {
        ++(retry ? m_current.retried : m_current.moved);
        node = m_slots.update(target.slot, host, target.port);
    }
    if (m_slots.nodes()[static_cast<std::size_t>(node)].source.empty())
        m_slots.noteSource(node, std::string(retry ? "re-sent after losing " : ask ? "ASK from " : "MOVED from ")
                                     + describeNode(c.node));
    if (static_cast<std::size_t>(node) >= m_plan.nodeAddresses.size()) {
        // A node we have never seen (resharding to a new master): resolve it
        // once; blocking, but rare.
        Endpoint endpoint = nodeEndpoint(m_plan.config->endpoint, m_slots.nodes()[static_cast<std::size_t>(node)]);
        SocketAddress address;
        std::string error;
        if (!resolveReachable(endpoint, m_plan.config->connectTimeoutMs, address, &error))
            return false;
        m_plan.nodeAddresses.resize(static_cast<std::size_t>(node) + 1, address);
        m_plan.nodeHosts.resize(static_cast<std::size_t>(node) + 1, endpoint.host);
        m_plan.nodeAddresses[static_cast<std::size_t>(node)] = address;
        m_plan.nodeHosts[static_cast<std::size_t>(node)] = endpoint.host;
    }
    if (m_current.nodes.size() <= static_cast<std::size_t>(node))
        m_current.nodes.resize(static_cast<std::size_t>(node) + 1);

    Client& client = *c.client;
    Connection* to = static_cast<std::size_t>(node) < client.connections.size()
        ? client.connections[static_cast<std::size_t>(node)] : nullptr;
    if (!to) {
        to = &addConnection(client, node);
        ++m_open;
        to->state = Connection::State::Running;
        if (!openConnection(*to, nowNs()))
            return false;
    }
    if (to->backingOff || to->state == Connection::State::Done)
        return false;
    // Sent back to the node that answered: `bytes` lies in that connection's
    // sent log, which the appends below may reallocate. Copy it first.
    std::string own;
    if (to == &c) {
        own.assign(bytes);
        bytes = own;
    }
    if (ask) {
        to->out += kAskingCommand;
        to->sentLog += kAskingCommand;
        to->push(InFlight { request.dueNs, request.sentNs, kAskingMarker,
                                        static_cast<std::uint32_t>(kAskingCommand.size()) });
    }
    to->out.append(bytes);
    to->sentLog.append(bytes);
    to->push(InFlight { request.dueNs, request.sentNs, request.command, static_cast<std::uint32_t>(bytes.size()),
                        static_cast<std::uint8_t>(request.redirects + 1) });
    if (to->fd >= 0 && to->state == Connection::State::Running)
        flush(*to);
    return true;
}

ClientCommandCounts& Worker::clientCounts(Client& client, std::uint32_t command, std::uint64_t now)
{
    const std::uint64_t since = now > client.activeFromNs ? now - client.activeFromNs : 0;
    return client.stats->at(static_cast<std::uint32_t>(since / 1'000'000'000), command);
}

bool Worker::issuingAllowed(std::uint64_t now) const
{
    return !m_draining && !m_plan.idle && !m_stop.load(std::memory_order_relaxed) && !(m_endNs && now >= m_endNs);
}

// Appends as many requests as the pipeline, the quota, the schedule (open
// loop), the ramp and the generator allow; returns how many. Cluster runs
// route each request to the connection of the node owning its key's slot.
std::size_t Worker::queueRequests(Client& client, std::uint64_t now)
{
    if (!issuingAllowed(now) || client.exhausted)
        return 0;
    const std::uint64_t wakeAt = now < client.activeFromNs ? client.activeFromNs : 0;
    if (wakeAt) {   // not yet switched on by the ramp
        if (!client.timerArmed) {
            m_timers.push(Timer { wakeAt, &client, nullptr });
            client.timerArmed = true;
        }
        return 0;
    }
    const bool openLoop = m_plan.intervalNs != 0;
    const std::size_t pipeline = static_cast<std::size_t>(std::max(1, m_plan.config->pipeline));
    std::size_t queued = 0;
    while (client.inflight < pipeline) {
        const std::uint64_t due = openLoop ? client.nextDueNs : now;
        if (openLoop && due > now) {
            if (!client.timerArmed) {
                m_timers.push(Timer { due, &client, nullptr });
                client.timerArmed = true;
            }
            break;
        }
        const bool measured = due >= m_warmupEndNs;
        if (measured && m_plan.countLimited && client.quota == 0)
            break;

        Connection* c = client.connections[0];
        if (!m_cluster && (c->backingOff || c->state == Connection::State::Done))
            break;   // reconnecting: requests wait (open loop: and fall behind)
        std::string& out = m_cluster ? m_scratch : c->out;
        const std::size_t before = out.size();
        const std::uint32_t command = client.generator->appendNext(out);
        if (command == RequestGenerator::kExhausted) {
            client.exhausted = true;
            break;
        }
        std::uint32_t length = static_cast<std::uint32_t>(out.size() - before);
        if (m_cluster) {
            const std::optional<std::string_view> key = firstKeyOfRequest(m_scratch);
            int node = key ? m_slots.lookup(keySlot(*key)) : client.connections.empty() ? 0 : -1;
            if (node < 0 || static_cast<std::size_t>(node) >= client.connections.size()
                || !client.connections[static_cast<std::size_t>(node)]) {
                // No key, or a slot without a known owner: any live connection.
                node = -1;
                for (std::size_t i = 0; i < client.connections.size() && node < 0; ++i)
                    if (client.connections[i] && client.connections[i]->state == Connection::State::Running)
                        node = static_cast<int>(i);
                if (node < 0) {
                    m_scratch.clear();
                    break;
                }
            }
            c = client.connections[static_cast<std::size_t>(node)];
            if (c->backingOff || c->state == Connection::State::Done) {
                m_scratch.clear();   // its node is being reconnected: wait
                break;
            }
            c->out += m_scratch;
            c->sentLog += m_scratch;
            m_scratch.clear();
        }
        c->push(InFlight { due, now, command, length });
        ++client.inflight;
        ++c->sentSinceConnect;
        ++queued;
        if (openLoop) {
            client.nextDueNs += m_plan.intervalNs;
            m_current.maxSendLagNs = std::max(m_current.maxSendLagNs, now - due);
        }
        if (measured) {
            if (m_plan.countLimited)
                --client.quota;
            m_current.commands[command].bytesSent += length;
            if (!openLoop && client.lastReplyNs)
                m_current.clientGap.record(now - client.lastReplyNs);
        }
    }
    return queued;
}

void Worker::refill(Client& client)
{
    // Closed loop, redis-benchmark style: the next batch goes out when the
    // whole previous one is answered.
    if (m_plan.config->pipelineBatches && m_plan.intervalNs == 0 && client.inflight > 0)
        return;
    if (queueRequests(client, nowNs()) > 0) {
        for (Connection* c : client.connections)
            if (c && c->fd >= 0 && c->state == Connection::State::Running && c->outOffset < c->out.size())
                flush(*c);
        return;
    }
    finishClientIfDone(client);
}

// A client with nothing in flight and nothing more to send closes its
// connections (also one still waiting to reconnect).
void Worker::finishClientIfDone(Client& client)
{
    if (client.done || client.inflight > 0)
        return;
    const bool moreToSend = issuingAllowed(nowNs()) && !client.exhausted
        && !(m_plan.countLimited && client.quota == 0);
    if (moreToSend)
        return;
    client.done = true;
    for (Connection* c : client.connections)
        if (c)
            finish(*c);
}

void Worker::reconnect(Connection& c)
{
    // -k 0 and --reconnect-interval: a new connection. The next requests are
    // queued before connecting, so their latency includes connect and setup.
    closeSocket(c);
    c.out.clear();
    c.outOffset = 0;
    c.sentSinceConnect = 0;
    Client& client = *c.client;
    const std::uint64_t now = nowNs();
    if (queueRequests(client, now) == 0) {
        if (client.timerArmed) {   // open loop: reconnect when due
            c.backingOff = false;
            c.state = Connection::State::Running;
            openConnection(c, now);
            return;
        }
        c.state = Connection::State::Done;
        --m_open;
        client.done = true;
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

} // namespace tacho::engine
