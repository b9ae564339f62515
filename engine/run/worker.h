#pragma once
// One benchmark worker: an event-loop thread that owns its connections,
// scanners, random generator and interval statistics. Nothing else touches
// them; the controller talks to it only through the synchronised members
// below (start/stop signals, the outbox of interval data).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/net/event_loop.h"
#include "engine/net/socket_address.h"
#include "engine/run/run_config.h"
#include "engine/stats/interval_stats.h"
#include "engine/workload/command_template.h"

namespace tacho::engine {

struct WorkerPlan {
    const RunConfig* config = nullptr;
    CommandTemplate command;
    SocketAddress address;
    std::vector<std::uint64_t> quotas;   // requests per connection (count mode); size = connections
    bool countLimited = true;
    bool idle = false;                   // -I: connect, then only wait
    std::uint64_t seed = 1;
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
    // Releases the worker into its measured phase. Times are steady-clock ns.
    void start(std::uint64_t warmupEndNs, std::uint64_t endNs);
    void requestStop();     // stop issuing, drain what is in flight
    void requestCancel();   // close everything now
    // Moves the data gathered since the last call into `into`.
    void collect(IntervalStats& into);
    // Waits until the phase is past Connecting (or timeout); returns phase.
    Phase waitUntilConnected(int timeoutMs);

private:
    struct Connection;

    bool openConnection(Connection& c, std::uint64_t now);
    void onEvent(Connection& c, std::uint32_t events);
    void onConnected(Connection& c);
    void onReadable(Connection& c);
    void refill(Connection& c);
    void flush(Connection& c);
    void reconnect(Connection& c);
    void finish(Connection& c);
    void lose(Connection& c, const std::string& why);
    void fail(const std::string& why);
    void publish();
    void setPhase(Phase phase);
    bool issuingAllowed(std::uint64_t now) const;

    WorkerPlan m_plan;
    EventLoop m_loop;
    std::vector<std::unique_ptr<Connection>> m_connections;
    std::vector<std::vector<std::string>> m_setup;
    std::string m_setupBytes;
    FastRandom m_random;
    IntervalStats m_current;            // worker thread only
    std::vector<char> m_readBuffer;
    std::size_t m_open = 0;             // connections not finished
    std::size_t m_connecting = 0;       // connections before their first benchmark send
    std::uint64_t m_warmupEndNs = 0;
    std::uint64_t m_endNs = 0;          // 0 = no time limit
    bool m_draining = false;
    bool m_failed = false;              // worker thread's view of Phase::Failed
    std::uint64_t m_drainDeadlineNs = 0;
    std::uint64_t m_connectDeadlineNs = 0;

    mutable std::mutex m_mutex;         // guards everything below
    std::condition_variable m_changed;
    Phase m_phase = Phase::Connecting;
    std::string m_failure;
    bool m_started = false;
    IntervalStats m_outbox;
    std::atomic<bool> m_stop { false };
    std::atomic<bool> m_cancel { false };
};

} // namespace tacho::engine
