#pragma once
// What one worker measured during one tick (or, merged, during a test).
// Owned by one thread at a time; handed over under the worker's mutex.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/resp/reply_scanner.h"
#include "engine/stats/latency_histogram.h"

namespace tacho::engine {

// One command of the test's mix.
struct CommandCounters {
    LatencyHistogram latency;        // ns; open loop: from the due time
    LatencyHistogram uncorrected;    // ns; open loop only: from the actual send
    std::uint64_t requests = 0;      // measured replies (errors included)
    std::uint64_t errors = 0;
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;

    void mergeFrom(const CommandCounters& other);
    void clear();
};

// One cluster node's share (cluster runs only).
struct NodeCounters {
    LatencyHistogram latency;
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;

    void mergeFrom(const NodeCounters& other);
    void clear();
};

struct IntervalStats {
    static constexpr std::size_t kErrorKinds = static_cast<std::size_t>(ErrorKind::ExecAbort) + 1;
    static constexpr std::size_t kMaxDistinctErrors = 5;

    explicit IntervalStats(std::size_t commandCount = 1) : commands(commandCount) {}

    std::vector<CommandCounters> commands;
    std::vector<NodeCounters> nodes;     // by slot-map node index; empty unless cluster
    LatencyHistogram clientGap;      // reply → next send inside the client, ns
    std::uint64_t reconnects = 0;
    std::uint64_t connectErrors = 0;
    std::uint64_t warmupRequests = 0;
    std::uint64_t unanswered = 0;    // sent on a connection that broke before the reply
    std::uint64_t replyTimeouts = 0; // connections lost because no reply came within the reply timeout
    std::uint64_t moved = 0;         // cluster: MOVED redirects followed
    std::uint64_t asked = 0;         // cluster: ASK redirects followed
    std::uint64_t retried = 0;       // cluster: requests re-sent after their node was lost
    std::uint64_t redirectFailures = 0;   // cluster: requests failed after kMaxRedirects redirects
    std::uint64_t topologyRefreshes = 0;
    std::uint64_t maxSendLagNs = 0;  // open loop: latest send behind its due time
    std::uint64_t scanKeys = 0;      // SCAN iteration: keys the replies returned
    std::uint64_t scanPasses = 0;    // SCAN iteration: replies with cursor 0 (iterations completed)
    std::uint64_t lastReplyNs = 0;   // steady clock, latest measured reply
    // Set by the controller, not the workers: the benchmark connections open
    // at the start of the interval (merged: the most of its ticks).
    std::uint64_t openConnections = 0;
    std::array<std::uint64_t, kErrorKinds> errorsByKind {};
    std::vector<std::string> distinctErrors;   // first distinct messages
    std::string lastError;                      // most recent error message

    void noteError(ErrorKind kind, std::string_view text);   // an error reply
    void noteMessage(std::string_view text);                  // a client-side event (connection lost)
    void mergeFrom(const IntervalStats& other);
    void clear();

    // Sums over the commands.
    std::uint64_t requests() const;
    std::uint64_t errors() const;
    CommandCounters total() const;
};

} // namespace tacho::engine
