#pragma once
// Raw readings (cumulative counters as the server and the kernel give them)
// and their conversion into per-interval points. Parsing and arithmetic only,
// so the conversion is testable without a server.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <sys/types.h>

#include "engine/telemetry/telemetry.h"

namespace tacho::engine {

// A counter or gauge as read: absent when the reply (or /proc) did not give
// it, which is not 0 (see kUnknown in telemetry.h).
using Count = std::optional<std::uint64_t>;

struct ServerReading {
    std::uint64_t atNs = 0;               // steady clock when the reply arrived
    double serverTimeSeconds = -1;        // server_time_usec, when given (the server's own clock)
    double cpuSeconds = -1;               // used_cpu_user + used_cpu_sys; -1: not given
    double mainThreadCpuSeconds = -1;     // used_cpu_*_main_thread; -1: not given
    std::uint64_t processId = 0;          // process_id
    double mainThreadWaitSeconds = -1;    // run-queue wait from /proc, when the server runs here; -1: not known
    Count commands;
    Count connectedClients;
    Count blockedClients;
    Count usedMemory;
    Count usedMemoryRss;
    double fragmentation = -1;            // -1: not given
    Count evicted;
    Count expired;
    Count hits;
    Count misses;
    Count netInputBytes;
    Count netOutputBytes;
    Count rejectedConnections;
};

// A plain INFO reply's text → a reading (fields it lacks stay unknown).
ServerReading parseServerReading(std::string_view info, std::uint64_t atNs);

struct ClientReading {
    std::uint64_t atNs = 0;
    std::vector<Count> threadCpuNs;    // per engine thread (schedstat, else stat); absent: unreadable
    std::vector<Count> threadWaitNs;   // run-queue wait (schedstat; absent without it)
    Count rssBytes;
    std::uint64_t hostBusy = 0;        // /proc/stat jiffies, all CPUs
    std::uint64_t hostSteal = 0;
    std::uint64_t hostTotal = 0;       // 0: /proc/stat unreadable
};

// A server on this machine: its main thread's run-queue wait (seconds) from
// /proc/<pid>/task/<pid>/schedstat, when /proc/<pid>/stat's CPU time matches
// the INFO reading's (so a pid of another namespace is not taken for it);
// -1 otherwise.
double localServerWaitSeconds(const ServerReading& reading);

// One engine thread as telemetry sees it: its id, and its own last figures,
// stored as it ends: its /proc entry goes with it, and without them the
// test's last interval would read as idle.
struct EngineThread {
    static constexpr std::uint64_t kNotRead = ~std::uint64_t(0);   // a figure its thread could not read
    std::atomic<pid_t> id { 0 };
    std::atomic<bool> ended { false };
    std::atomic<std::uint64_t> cpuNs { 0 };
    std::atomic<std::uint64_t> waitNs { 0 };
    void recordStart();   // on the thread, as it starts
    void recordEnd();     // on the thread, as it ends
};

// Reads /proc for the given threads of this process (an ended thread: its
// own last figures), this process's RSS and the host's CPU counters.
ClientReading readClientReading(const std::vector<const EngineThread*>& threads, std::uint64_t atNs);

// Consecutive readings → points; times relative to `originNs` (the test's
// measured start; warm-up points come out negative).
std::vector<ServerPoint> serverPoints(const std::vector<ServerReading>& readings, std::uint64_t originNs);
std::vector<ClientPoint> clientPoints(const std::vector<ClientReading>& readings, std::uint64_t originNs);

// "key:value" of an INFO text; empty view when absent.
std::string_view infoValue(std::string_view info, std::string_view key);

} // namespace tacho::engine
