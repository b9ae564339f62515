#pragma once
// The engine side of `redis-cli --latency` and `--latency-history`: one
// control-plane connection sends PING, waits for PONG, sleeps 10 ms (redis-cli's
// LATENCY_SAMPLE_RATE) and repeats. Round trips are timed on the steady clock
// in nanoseconds; the figures handed out are milliseconds as doubles.
//
// Not benchmark traffic: one request in flight, so the numbers describe an
// idle client's view of the server (what redis-cli --latency shows).
//
//   LatencyMonitor monitor(config, options);
//   // on a worker thread:
//   LatencyMonitorResult r = monitor.run([](const LatencySample& s) { ... });
//   // from any thread (or a signal handler):
//   monitor.requestStop();
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "engine/config/run_config.h"

namespace tacho::engine {

struct LatencyMonitorOptions {
    // true: the statistics cover windows of `windowSeconds` and start afresh
    // when one ends (--latency-history); false: one window for the whole run.
    bool history = false;
    double windowSeconds = 15.0;         // redis-cli's LATENCY_HISTORY_DEFAULT_INTERVAL; > 0
    double durationSeconds = 0;          // 0 = until requestStop()
    double sampleIntervalSeconds = 0.010; // pause after each reply (redis-cli: 10 ms)
};

// Statistics of one window (a history window, or the whole run without
// history). All times in milliseconds; zeros while samples == 0.
struct LatencyWindowStats {
    std::uint64_t samples = 0;
    double minMs = 0;
    double maxMs = 0;
    double avgMs = 0;
    double elapsedSeconds = 0;   // since the window began (includes the pauses)
};

// Handed to the callback after every PING: a value snapshot, safe to copy
// across threads.
struct LatencySample {
    double rttMs = 0;                 // this PING's round trip
    LatencyWindowStats window;        // the current window, this PING included
    // This PING ended the window (history mode only): `window` is the final
    // figure for it, and the next sample starts a new window from zero.
    bool windowClosed = false;
    std::uint64_t windowIndex = 0;    // 0-based number of `window`
    std::uint64_t totalSamples = 0;   // since run() began
    double elapsedSeconds = 0;        // since run() began (after connecting)
};

enum class LatencyMonitorStatus {
    Completed,   // durationSeconds reached
    Stopped,     // requestStop()
    Failed,      // could not connect, or an error ended it: see `error`
};

struct LatencyMonitorResult {
    LatencyMonitorStatus status = LatencyMonitorStatus::Failed;
    std::string error;               // specific message when Failed
    // The window that was open when run() returned (history: the partial
    // window after the last closed one; may have 0 samples).
    LatencyWindowStats openWindow;
    std::uint64_t windowIndex = 0;   // number of `openWindow`
    std::uint64_t totalSamples = 0;
};

class LatencyMonitor {
public:
    using SampleCallback = std::function<void(const LatencySample&)>;

    LatencyMonitor(RunConfig target, LatencyMonitorOptions options);
    LatencyMonitor(const LatencyMonitor&) = delete;
    LatencyMonitor& operator=(const LatencyMonitor&) = delete;

    // Connects (session setup: AUTH/HELLO/SELECT from `target`) and samples
    // until the duration ends, requestStop() is called, or an error occurs
    // (connection lost, no reply within target.connectTimeoutMs, an error
    // reply such as NOAUTH). Blocks the calling thread; `onSample` runs on it
    // after every PING. Call run() at most once per object.
    LatencyMonitorResult run(const SampleCallback& onSample);

    // Any thread; async-signal-safe (one lock-free atomic store). Takes
    // effect within one pause, or after the PING in flight returns (bounded by
    // target.connectTimeoutMs).
    void requestStop() noexcept { m_stop.store(true, std::memory_order_relaxed); }
    bool stopRequested() const noexcept { return m_stop.load(std::memory_order_relaxed); }

private:
    RunConfig m_target;
    LatencyMonitorOptions m_options;
    std::atomic<bool> m_stop { false };
    static_assert(std::atomic<bool>::is_always_lock_free);
};

} // namespace tacho::engine
