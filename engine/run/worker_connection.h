#pragma once
// The worker's private state per client and per connection, shared by the
// worker's source files (worker.cpp: the request loop; worker_lifecycle.cpp:
// construction, controller side, connect phase; worker_recovery.cpp:
// connection loss and recovery; worker_io.cpp: sockets and the transport).
// Worker thread only.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/net/tls_session.h"
#include "engine/resp/reply_scanner.h"
#include "engine/run/reply_watch.h"
#include "engine/run/worker.h"

namespace tacho::engine {

// Shared by the worker's source files.
inline constexpr int kMaxEvents = 512;                  // I/O events taken per wait
inline constexpr std::uint32_t kAskingMarker = UINT32_MAX;   // the reply to an ASKING we sent

struct Worker::Client {
    std::unique_ptr<RequestGenerator> generator;
    std::unique_ptr<ClientStats> stats;     // RunConfig::perClientStats only
    std::vector<Connection*> connections;   // by node index; [0] when not a cluster
    std::size_t index = 0;                  // global client index
    std::size_t inflight = 0;               // across its connections
    std::uint64_t quota = 0;                // measured requests still to issue (count mode)
    std::uint64_t nextDueNs = 0;            // open loop
    std::uint64_t activeFromNs = 0;         // staircase ramp: issues nothing before this
    std::uint64_t lastReplyNs = 0;          // for the client gap
    bool exhausted = false;                 // the generator has nothing more
    bool deferred = false;                  // staircase ramp: connects when its step starts
    bool timerArmed = false;                // waiting in the timer heap
    bool done = false;
};

struct Worker::Connection {
    enum class State { Connecting, Handshaking, Setup, Ready, Running, Done };

    Client* client = nullptr;
    int node = 0;                       // slot-map node index (0 when not a cluster)
    int fd = -1;
    State state = State::Connecting;
    TlsSession tls;                     // valid() only on TLS endpoints
    ReplyScanner scanner;
    std::string out;                    // bytes queued, not yet written
    std::size_t outOffset = 0;          // readiness transport: written part of `out`
    bool writeArmed = false;
    int stream = -1;                    // completion transport: the loop's stream id, -1 when none
    std::string sending;                // completion transport: handed to the loop, not yet confirmed
    std::size_t sendingOffset = 0;      // of `sending`, confirmed sent
    bool sendBusy = false;              // a send of `sending` is pending in the loop
    bool sendQueued = false;            // in the worker's send queue
    std::vector<InFlight> ring;         // capacity: pipeline (twice that in cluster runs, for ASKING)
    std::size_t head = 0;
    std::size_t inflight = 0;
    std::string sentLog;                // cluster: bytes of the in-flight requests, in order
    std::size_t sentLogHead = 0;
    std::size_t setupPending = 0;       // setup replies still expected
    std::size_t setupIndex = 0;
    std::uint64_t connectStartNs = 0;
    std::uint64_t sentSinceConnect = 0; // for --reconnect-interval
    int reconnectAttempts = 0;          // consecutive failed attempts after a loss
    int closedBeforeAnswer = 0;         // consecutive closes before the first answer (a refusal?)
    bool backingOff = false;            // waiting in the timer heap to reconnect
    bool timerArmed = false;
    ReplyWatch replyWatch;              // --reply-timeout

    bool full() const { return inflight == ring.size(); }
    void push(const InFlight& request)
    {
        if (full()) {   // only after many redirects; keep FIFO order
            std::vector<InFlight> grown(ring.size() * 2);
            for (std::size_t i = 0; i < inflight; ++i)
                grown[i] = ring[(head + i) % ring.size()];
            ring = std::move(grown);
            head = 0;
        }
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
    // The bytes of the oldest in-flight request (cluster runs), consumed.
    std::string_view popSent(std::uint32_t length)
    {
        const std::string_view bytes(sentLog.data() + sentLogHead, length);
        sentLogHead += length;
        return bytes;
    }
    void compactSentLog()
    {
        if (inflight == 0) {
            sentLog.clear();
            sentLogHead = 0;
        } else if (sentLogHead > 65536 && sentLogHead * 2 > sentLog.size()) {
            sentLog.erase(0, sentLogHead);
            sentLogHead = 0;
        }
    }
};

} // namespace tacho::engine
