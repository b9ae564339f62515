// The worker's connections lost and won back: a connection the server
// closed, reset or stopped answering (reply timeouts), reconnecting after a
// loss with back-off, and in a cluster re-reading the topology after a
// failover and re-sending what was in flight. Worker thread only.
#include "engine/run/worker.h"
#include "engine/run/worker_connection.h"

#include <algorithm>
#include <cctype>
#include <cerrno>

#include "engine/cluster/cluster_discovery.h"
#include "engine/cluster/key_slot.h"
#include "engine/cluster/redirect.h"
#include "engine/cluster/request_key.h"
#include "engine/net/peer_bytes.h"
#include "engine/resp/printable_text.h"
#include "engine/stats/clock.h"

namespace tacho::engine {

void Worker::lose(Connection& c, const std::string& why)
{
    ++m_current.connectErrors;
    if (m_cluster && m_started && !m_draining) {
        failOverNode(c);
        return;
    }
    if (reconnectAllowed(c)) {
        // Requests on the wire when the connection broke are never answered:
        // counted, not retried, so the outage stays visible.
        m_current.unanswered += c.inflight;
        c.client->inflight -= c.inflight;
        m_current.noteMessage("connection lost: " + why);
        scheduleReconnect(c);
        return;
    }
    m_current.unanswered += c.inflight;
    c.inflight = 0;
    finish(c);
    fail("connection to " + describeNode(c.node) + " lost: " + why, {}, why);
}

void Worker::closedByServer(Connection& c, int error, const std::string& otherwise)
{
    // Closed before answering the first command of this connection, while no
    // other connection of this worker has had an answer either: the server
    // refuses it (a proxy closes the connection on a command it does not
    // support), and a reconnect would only send it again, so the test ends
    // here, naming the command. A kill or restart can look the same on one
    // connection, so with reconnects allowed the connection tries once more
    // first: a proxy closes it again, a restarted server answers. (Cluster
    // nodes fail over instead.) Outside a cluster every request queued since
    // the connection (re)opened counts in sentSinceConnect until it is
    // answered, so this costs the request path nothing.
    const bool answered = c.sentSinceConnect > c.inflight;
    const bool awaiting = c.setupPending > 0 || c.inflight > 0;
    if (m_cluster || answered || !awaiting || answeredElsewhere(c)
        || (reconnectAllowed(c) && c.closedBeforeAnswer++ == 0)) {
        if (answered)
            c.closedBeforeAnswer = 0;
        lose(c, otherwise);
        return;
    }
    ++m_current.connectErrors;
    m_current.unanswered += c.inflight;
    const std::string why = lostBeforeAnswer(describeNode(c.node), awaitedCommand(c), error, false);
    c.inflight = 0;
    finish(c);
    fail(why, {}, error != 0 ? errnoText(error) : "the server closed the connection");
}

// Another connection of this worker has had an answer since it (re)opened.
bool Worker::answeredElsewhere(const Connection& c) const
{
    return std::any_of(m_connections.begin(), m_connections.end(), [&c](const std::unique_ptr<Connection>& other) {
        return other.get() != &c && other->sentSinceConnect > other->inflight;
    });
}

// The command whose reply the connection waits for first, upper case: a
// setup command, else the oldest request in flight.
std::string Worker::awaitedCommand(const Connection& c) const
{
    std::string name;
    if (c.setupPending > 0 && c.setupIndex < m_setup.size() && !m_setup[c.setupIndex].empty()) {
        name = m_setup[c.setupIndex].front();
    } else if (c.inflight > 0) {
        const std::uint32_t command = c.ring[c.head].command;
        const std::vector<std::string> names = m_plan.generators->commandStatNames();
        name = command == kAskingMarker ? "asking" : command < names.size() ? names[command] : "?";
    }
    std::replace(name.begin(), name.end(), '|', ' ');   // "config|get"
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::toupper(ch); });
    return name;
}

// Cluster: a node went away (failover, shutdown). Re-read the topology from
// the nodes still up, then re-send what was in flight on the lost connection
// to the slots' new owners; reconnect later if the node still serves slots.
void Worker::failOverNode(Connection& c)
{
    std::vector<InFlight> pending;
    std::vector<std::string> bytes;
    while (c.inflight > 0) {
        const InFlight request = c.pop();
        const std::string_view sent = c.popSent(request.length);
        if (request.command == kAskingMarker)
            continue;
        pending.push_back(request);
        bytes.emplace_back(sent);
    }
    c.sentLog.clear();
    c.sentLogHead = 0;
    closeSocket(c);
    c.out.clear();
    c.outOffset = 0;

    std::string error;
    SlotMap fresh = m_slots;
    if (refreshCluster(*m_plan.config, fresh, &error))
        m_slots.adopt(fresh);
    ++m_current.topologyRefreshes;
    m_current.noteMessage("lost " + describeNode(c.node) + ", topology re-read");

    Client& client = *c.client;
    for (std::size_t i = 0; i < pending.size(); ++i) {
        const std::optional<std::string_view> key = firstKeyOfRequest(bytes[i]);
        const int owner = key ? m_slots.lookup(keySlot(*key)) : SlotMap::kNoNode;
        bool resent = false;
        if (owner != SlotMap::kNoNode && owner != c.node) {
            const ClusterNode& node = m_slots.nodes()[static_cast<std::size_t>(owner)];
            resent = redirect(c, pending[i], bytes[i], Redirect { false, keySlot(*key), node.host, node.port }, true);
        }
        if (!resent) {
            ++m_current.unanswered;
            --client.inflight;
        }
    }
    c.state = Connection::State::Running;
    if (m_slots.slotCount(c.node) > 0)
        scheduleReconnect(c);   // still serving slots: it may come back
    else
        finish(c);
    if (client.inflight == 0)
        refill(client);
}

// A server that stopped answering (hung, gone without a FIN or RST, or
// trickling a reply) or reading would hold a count-limited run forever: a
// connection owing replies that completes no work (ReplyWatch) for the reply
// timeout is lost, its requests unanswered, and it reconnects or fails the
// test like any other loss.
void Worker::checkReplyTimeouts(std::uint64_t now)
{
    const std::uint64_t limitNs = static_cast<std::uint64_t>(std::max(0, m_plan.config->replyTimeoutMs)) * 1'000'000;
    // By index: a cluster failover may add connections while we look.
    for (std::size_t i = 0; i < m_connections.size() && !m_failed; ++i) {
        Connection& c = *m_connections[i];
        if (c.state != Connection::State::Running || c.fd < 0 || c.backingOff)
            continue;
        if (!c.replyWatch.expired(c.inflight, now, limitNs))
            continue;
        ++m_current.replyTimeouts;
        const bool writing = c.outOffset < c.out.size() || !c.sending.empty() || (c.stream >= 0 && !c.out.empty());
        lose(c, (writing ? "server stopped reading the request for " : "no reply within ")
                 + std::to_string(m_plan.config->replyTimeoutMs) + " ms (" + std::to_string(c.inflight)
                 + (c.inflight == 1 ? " request" : " requests") + " in flight)");
    }
}

void Worker::connectFailed(Connection& c, const std::string& why, std::string_view connectionError)
{
    ++m_current.connectErrors;
    if (reconnectAllowed(c) || (m_cluster && m_started && !m_draining && m_slots.slotCount(c.node) > 0
                                && c.reconnectAttempts < 50)) {
        scheduleReconnect(c);
        return;
    }
    finish(c);
    fail("cannot connect to " + describeNode(c.node) + ": " + why
             + (c.reconnectAttempts > 0 ? " (after " + std::to_string(c.reconnectAttempts) + " reconnect attempts)" : ""),
         {}, connectionError);
}

// Reconnecting after a loss is for the measured phase only; the connect
// phase fails fast so a wrong address is reported at once.
bool Worker::reconnectAllowed(const Connection& c) const
{
    const RunConfig& config = *m_plan.config;
    return config.reconnectOnError && m_started && !m_draining && !m_cancel.load(std::memory_order_relaxed)
        && (config.maxReconnectAttempts <= 0 || c.reconnectAttempts < config.maxReconnectAttempts);
}

void Worker::scheduleReconnect(Connection& c)
{
    closeSocket(c);
    c.inflight = 0;
    c.head = 0;
    c.sentLog.clear();
    c.sentLogHead = 0;
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
        m_timers.push(Timer { nowNs() + static_cast<std::uint64_t>(delayNs), nullptr, &c });
        c.timerArmed = true;
    }
}

} // namespace tacho::engine
