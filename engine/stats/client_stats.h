#pragma once
// What one client (one connection; memtier's --client-stats) measured,
// second by second and over the whole test. Its worker records it only when
// RunConfig::perClientStats is set: a histogram per command per client costs
// memory, so ordinary runs keep none.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/stats/latency_histogram.h"

namespace tacho::engine {

struct ClientCommandCounts {
    std::uint64_t requests = 0;       // measured replies, errors included
    std::uint64_t latencyNs = 0;      // sum over the replies
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    std::uint64_t hits = 0;           // replies neither error nor null
    std::uint64_t misses = 0;         // null replies
    std::uint64_t moved = 0;          // cluster: MOVED / ASK followed
    std::uint64_t asked = 0;
};

struct ClientSecond {
    std::uint32_t second = 0;                   // since the client started sending
    std::vector<ClientCommandCounts> commands;  // by command index
};

struct ClientStats {
    ClientStats(std::size_t clientIndex, std::size_t commandCount);

    std::size_t client = 0;                     // global client index
    std::vector<ClientSecond> seconds;          // ascending; only seconds with something recorded
    std::vector<LatencyHistogram> latency;      // by command index, ns

    // The counts of `command` in `second` (not before the last one recorded).
    ClientCommandCounts& at(std::uint32_t second, std::uint32_t command);
    std::uint64_t requests(std::uint32_t command) const;   // over the test
};

} // namespace tacho::engine
