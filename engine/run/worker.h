#pragma once
// One benchmark worker: an event-loop thread that owns its clients and their
// connections, request generators and interval statistics. Nothing else
// touches them; the controller talks to it only through the synchronised
// members below (start/stop signals, the outbox of interval data).
//
// A client is the unit of concurrency (redis-benchmark's -c, memtier's
// clients): one request generator, at most `pipeline` requests in flight.
// It has one connection, or in cluster mode one per master, each request
// going to the node that owns its key's slot.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <queue>
#include <string>
#include <vector>

#include "engine/cluster/redirect.h"
#include "engine/cluster/slot_map.h"
#include "engine/net/io_loop.h"
#include "engine/net/socket_address.h"
#include "engine/net/tls_context.h"
#include "engine/config/run_config.h"
#include "engine/stats/client_stats.h"
#include "engine/stats/interval_stats.h"
#include "engine/workload/request_generator.h"

namespace tacho::engine {

// Lets the controller sleep until a tick is due or a worker has ended.
class CompletionSignal {
public:
    void notify();
    // Waits until `deadline` or a notify() since the last wait; true if notified.
    bool waitUntil(std::chrono::steady_clock::time_point deadline);
private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_notified = false;
};

struct WorkerPlan {
    const RunConfig* config = nullptr;
    std::shared_ptr<const RequestGeneratorFactory> generators;
    std::size_t commandCount = 1;
    // Where connections go: one address, or (cluster) the slot map and one
    // address per node, in the map's node order.
    std::vector<SocketAddress> nodeAddresses;
    std::vector<std::string> nodeHosts;          // for TLS name checks
    std::shared_ptr<const SlotMap> slots;         // null: not a cluster
    std::shared_ptr<TlsContext> tls;              // set on TLS endpoints
    // The control connection completed a TLS handshake with the endpoint: a
    // benchmark connection closed there before an answer is turned away by a
    // full server, not sent to a wrong port.
    bool tlsEndpointAnswered = false;
    // Per client: its global index, quota (count mode) and ramp offset.
    std::vector<std::size_t> clientIndexes;
    std::vector<std::uint64_t> quotas;
    std::vector<std::uint64_t> activationOffsetsNs;
    std::size_t totalClients = 1;
    bool countLimited = true;
    bool idle = false;                   // -I: connect, then only wait
    std::uint64_t intervalNs = 0;        // open loop: per-client request interval; 0 = closed loop
    std::uint64_t seed = 1;
    IoBackend io = IoBackend::Auto;      // the transport to try first (falls back to epoll)
    CompletionSignal* completion = nullptr;
};

class Worker {
public:
    enum class Phase { Connecting, Ready, Running, Finished, Failed };

    explicit Worker(WorkerPlan plan);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Thread body.
    void run();

    // --- controller side, thread-safe ---
    Phase phase() const;
    std::string failure() const;
    // The server's error reply that failed the worker (client limit reached,
    // AUTH refused…), or "" when the failure was not one.
    std::string failureReply() const;
    // The server closed or reset a connection it had accepted (a TLS
    // handshake cut off, a connection lost): that alone, or "" otherwise.
    // redis-benchmark prints such a failure as "Error: …".
    std::string failureConnectionError() const;
    // The crash report's lines, one per connection (crash_report.h): only
    // async-signal-safe calls, from any thread, reading fields in place.
    void writeCrashLines(std::size_t thread, int fd) const;
    // Releases the worker into its measured phase. Times are steady-clock ns.
    void start(std::uint64_t startNs, std::uint64_t warmupEndNs, std::uint64_t endNs);
    void requestStop();     // stop issuing, drain what is in flight
    void requestCancel();   // close everything now
    // Moves the data gathered since the last call into `into`.
    void collect(IntervalStats& into);
    // Waits until the phase is past Connecting (or timeout); returns phase.
    Phase waitUntilConnected(int timeoutMs);
    // The transport the worker runs on (valid once past Connecting).
    IoBackend transport() const;
    // Cluster: the nodes this worker opened connections to, with how it
    // learnt of them. Only once its thread has ended.
    std::vector<ClusterNode> contactedNodes() const;
    // Replies to each session setup command (sessionSetupCommands() order),
    // over every connection and reconnection: what the server counted of
    // Tacho's own HELLO/AUTH/SELECT. Read after the thread has ended.
    const std::vector<std::uint64_t>& setupReplies() const { return m_setupReplies; }
    // RunConfig::perClientStats: what each of its clients measured, moved
    // out. Only once its thread has ended.
    std::vector<ClientStats> takeClientStats();
    // Sockets open now (connecting or connected): what the server sees of
    // this worker, e.g. a staircase ramp's steps. Any thread.
    std::uint64_t openConnections() const { return m_openSockets.load(std::memory_order_relaxed); }

private:
    struct Client;
    struct Connection;
    // A request on the wire. In closed loop dueNs == sentNs. `length` is its
    // size in the connection's sent log (cluster runs keep the bytes to
    // follow redirects).
    struct InFlight {
        std::uint64_t dueNs;
        std::uint64_t sentNs;
        std::uint32_t command;
        std::uint32_t length;
        std::uint8_t redirects = 0;   // cluster: MOVED/ASK followed so far (≤ kMaxRedirects)
    };
    struct Timer {
        std::uint64_t dueNs;
        Client* client;            // a client's schedule (open loop, ramp), or
        Connection* connection;    // a connection's reconnect backoff
        bool operator>(const Timer& other) const { return dueNs > other.dueNs; }
    };

    void connectPhase();
    void measuredPhase();
    Connection& addConnection(Client& client, int node);
    bool openConnection(Connection& c, std::uint64_t now);
    void onEvent(const IoEvent& event);
    void onReady(Connection& c, std::uint32_t events);
    void onReceived(Connection& c, const IoEvent& event);
    void onSent(Connection& c, int result);
    void submitSends();
    void onConnected(Connection& c);
    void continueHandshake(Connection& c);
    void onTransportReady(Connection& c);
    void onReadable(Connection& c);
    void onBytes(Connection& c, std::string_view received);
    // False when the redirect cannot be followed; *refused then says why if
    // the node is off this machine and the run may not leave it.
    bool redirect(Connection& c, const InFlight& request, std::string_view bytes, const Redirect& target, bool retry,
                  std::string* refused = nullptr);
    std::size_t queueRequests(Client& client, std::uint64_t now);
    void refill(Client& client);
    void flush(Connection& c);
    void reconnect(Connection& c);
    void finish(Connection& c);
    void finishClientIfDone(Client& client);
    void closeSocket(Connection& c);
    void lose(Connection& c, const std::string& why);
    // The server closed (error 0) or reset the connection; `otherwise` is
    // the loss's text when it is not a refusal of the first command.
    void closedByServer(Connection& c, int error, const std::string& otherwise);
    std::string awaitedCommand(const Connection& c) const;
    bool answeredElsewhere(const Connection& c) const;
    void connectFailed(Connection& c, const std::string& why, std::string_view connectionError = {});
    void checkReplyTimeouts(std::uint64_t now);
    ClientCommandCounts& clientCounts(Client& client, std::uint32_t command, std::uint64_t now);
    bool reconnectAllowed(const Connection& c) const;
    void scheduleReconnect(Connection& c);
    void failOverNode(Connection& c);
    void fail(const std::string& why, std::string_view serverReply = {}, std::string_view connectionError = {});
    void publish();
    void setPhase(Phase phase);
    bool issuingAllowed(std::uint64_t now) const;
    void runDueTimers(std::uint64_t now);
    int waitForEvents(IoEvent* events, int capacity, std::uint64_t untilNs);
    std::string describeNode(int node) const;

    WorkerPlan m_plan;
    std::unique_ptr<IoLoop> m_io;       // made on the worker thread (io_uring: single issuer)
    std::vector<Connection*> m_sendQueue;  // streams with bytes to hand to the loop before it waits
    std::vector<std::unique_ptr<Client>> m_clients;
    std::vector<std::unique_ptr<Connection>> m_connections;
    SlotMap m_slots;                    // worker's own copy, updated by MOVED
    bool m_cluster = false;
    bool m_followReplies = false;       // the generators read every reply (SCAN iteration)
    bool m_clientStats = false;         // RunConfig::perClientStats
    std::vector<std::vector<std::string>> m_setup;
    std::string m_setupBytes;
    std::vector<std::uint64_t> m_setupReplies;   // per setup command
    std::string m_scratch;              // cluster: one request before routing
    IntervalStats m_current;            // worker thread only
    std::vector<char> m_readBuffer;
    std::priority_queue<Timer, std::vector<Timer>, std::greater<>> m_timers;
    std::size_t m_open = 0;             // connections not finished
    std::size_t m_connecting = 0;       // connections before their first benchmark send
    std::uint64_t m_startNs = 0;
    std::uint64_t m_warmupEndNs = 0;
    std::uint64_t m_endNs = 0;          // 0 = no time limit
    std::uint64_t m_connectTimeoutNs = 0;
    bool m_started = false;             // worker thread's view: measured phase begun
    bool m_draining = false;
    bool m_failed = false;              // worker thread's view of Phase::Failed
    std::uint32_t m_tlsHandshakes = 0;  // completed, on every connection so far
    std::uint64_t m_drainDeadlineNs = 0;

    mutable std::mutex m_mutex;         // guards everything below
    std::condition_variable m_changed;
    Phase m_phase = Phase::Connecting;
    std::string m_failure;
    std::string m_failureReply;
    std::string m_failureConnectionError;
    IoBackend m_transport = IoBackend::Epoll;
    bool m_startSignalled = false;
    IntervalStats m_outbox;
    std::atomic<bool> m_stop { false };
    std::atomic<bool> m_cancel { false };
    std::atomic<std::uint64_t> m_openSockets { 0 };
};

} // namespace tacho::engine
