// The worker's life outside the request loop: construction, the calls the
// controller makes from its own thread (start, stop, collect, wait), the
// phase and failure the worker thread publishes, and the connect phase.
// The measured phase's request loop is in worker.cpp, connection loss and
// recovery in worker_recovery.cpp, sockets and transport in worker_io.cpp.
#include "engine/run/worker.h"
#include "engine/run/worker_connection.h"

#include "engine/cluster/cluster_discovery.h"
#include "engine/net/session_setup.h"
#include "engine/resp/printable_text.h"
#include "engine/resp/resp_encoder.h"
#include "engine/stats/clock.h"

namespace tacho::engine {

namespace {
constexpr std::size_t kReadBufferSize = 256 * 1024;
constexpr std::size_t kMaxPendingConnects = 256;
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

// ---- construction and controller side ------------------------------------------

Worker::Worker(WorkerPlan plan)
    : m_plan(std::move(plan))
    , m_cluster(m_plan.slots != nullptr)
    , m_followReplies(m_plan.generators->followsReplies())
    , m_clientStats(m_plan.config->perClientStats)
    , m_current(m_plan.commandCount)
    , m_readBuffer(kReadBufferSize)
    , m_outbox(m_plan.commandCount)
{
    if (m_cluster) {
        m_slots = *m_plan.slots;
        m_current.nodes.resize(m_slots.nodes().size());
    }
    m_setup = sessionSetupCommands(*m_plan.config);
    for (const auto& command : m_setup)
        appendCommand(m_setupBytes, command);
    m_setupReplies.assign(m_setup.size(), 0);
    for (std::size_t i = 0; i < m_plan.quotas.size(); ++i) {
        auto client = std::make_unique<Client>();
        client->index = m_plan.clientIndexes[i];
        client->quota = m_plan.quotas[i];
        client->generator = m_plan.generators->create(client->index, m_plan.totalClients, m_plan.seed);
        if (m_clientStats)
            client->stats = std::make_unique<ClientStats>(client->index, m_plan.commandCount);
        client->deferred = m_plan.activationOffsetsNs[i] > 0;
        Client& ref = *client;
        m_clients.push_back(std::move(client));
        if (m_cluster) {
            for (int node : m_slots.servingNodes())
                addConnection(ref, node);
        } else {
            addConnection(ref, 0);
        }
    }
}

Worker::Connection& Worker::addConnection(Client& client, int node)
{
    auto c = std::make_unique<Connection>();
    const std::size_t pipeline = static_cast<std::size_t>(std::max(1, m_plan.config->pipeline));
    c->ring.resize(m_cluster ? pipeline * 2 : pipeline);
    c->client = &client;
    c->node = node;
    c->scanner.captureScanReplies(m_followReplies);
    if (client.connections.size() <= static_cast<std::size_t>(node))
        client.connections.resize(static_cast<std::size_t>(node) + 1, nullptr);
    client.connections[static_cast<std::size_t>(node)] = c.get();
    m_connections.push_back(std::move(c));
    return *m_connections.back();
}

std::vector<ClusterNode> Worker::contactedNodes() const
{
    std::vector<ClusterNode> out;
    std::vector<bool> seen(m_slots.nodes().size(), false);
    for (const auto& c : m_connections) {
        const std::size_t node = static_cast<std::size_t>(c->node);
        if (m_cluster && node < seen.size() && !seen[node]) {
            seen[node] = true;
            out.push_back(m_slots.nodes()[node]);
        }
    }
    return out;
}

Worker::~Worker()
{
    m_io.reset();   // first: a ring's pending operations point into the connections
    for (auto& c : m_connections)
        closeSocket(*c);
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

std::string Worker::failureReply() const
{
    std::lock_guard lock(m_mutex);
    return m_failureReply;
}

std::string Worker::failureConnectionError() const
{
    std::lock_guard lock(m_mutex);
    return m_failureConnectionError;
}

void Worker::start(std::uint64_t startNs, std::uint64_t warmupEndNs, std::uint64_t endNs)
{
    std::lock_guard lock(m_mutex);
    m_startNs = startNs;
    m_warmupEndNs = warmupEndNs;
    m_endNs = endNs;
    m_startSignalled = true;
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

IoBackend Worker::transport() const
{
    std::lock_guard lock(m_mutex);
    return m_transport;
}

Worker::Phase Worker::waitUntilConnected(int timeoutMs)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                       [this] { return m_phase != Phase::Connecting; });
    return m_phase;
}

std::vector<ClientStats> Worker::takeClientStats()
{
    std::vector<ClientStats> out;
    for (auto& client : m_clients)
        if (client->stats)
            out.push_back(std::move(*client->stats));
    return out;
}

// ---- worker thread: phase, failure, connect phase ---------------------------------

void Worker::fail(const std::string& why, std::string_view serverReply, std::string_view connectionError)
{
    m_failed = true;
    {
        std::lock_guard lock(m_mutex);
        if (m_phase != Phase::Failed) {
            m_phase = Phase::Failed;
            m_failure = why;
            m_failureReply = printable(serverReply);
            m_failureConnectionError = connectionError;
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

// Every connection connected and set up before anything is measured.
// Connects are paced (a bounded number in flight) so that thousands of
// connections do not overflow the server's accept backlog; each connection
// gets the full connect timeout from its own start.
void Worker::connectPhase()
{
    IoEvent events[kMaxEvents];
    // A staircase ramp's later steps connect when their step starts
    // (measured phase), as memtier's do: the server sees the steps.
    std::vector<Connection*> initial;
    for (auto& c : m_connections)
        if (!c->client->deferred)
            initial.push_back(c.get());
    const std::size_t total = initial.size();
    m_connecting = total;
    m_open = m_connections.size();
    std::size_t opened = 0;
    std::uint64_t nextTimeoutCheck = 0;
    while (m_connecting > 0 && !m_failed && !m_cancel.load(std::memory_order_relaxed)) {
        const std::size_t ready = total - m_connecting;
        while (opened < total && opened - ready < kMaxPendingConnects)
            if (!openConnection(*initial[opened++], nowNs()))
                return;
        const std::uint64_t now = nowNs();
        if (now >= nextTimeoutCheck) {
            nextTimeoutCheck = now + 50'000'000;
            for (std::size_t i = 0; i < opened; ++i) {
                const Connection& c = *initial[i];
                const bool pending = c.state == Connection::State::Connecting || c.state == Connection::State::Handshaking
                    || c.state == Connection::State::Setup;
                if (pending && now - c.connectStartNs > m_connectTimeoutNs) {
                    fail("cannot connect to " + describeNode(c.node) + ": timed out after "
                         + std::to_string(m_plan.config->connectTimeoutMs) + " ms (" + std::to_string(ready) + " of "
                         + std::to_string(total) + " connections ready)");
                    return;
                }
            }
        }
        const int n = waitForEvents(events, kMaxEvents, now + 50'000'000);
        for (int i = 0; i < n; ++i)
            onEvent(events[i]);
    }
}

} // namespace tacho::engine
