#pragma once
// The agent's side of the streamed intervals (issue 21). On the run's own
// thread (the controller's tick callback) the ticks of each second of a test
// are merged and, once the second is over, numbered (seq 1, 2, 3 …) and
// encoded; a thread of its own posts them to the control server, so the
// request path never waits for it. While the control server is away the
// intervals wait in a bounded queue and go out with the same seq once it is
// back; the coordinator acknowledges the seq up to which it holds them all,
// and what stays above that is posted again (a control server restarted
// without persistence lost it), at most kRepostPerRound a round.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "engine/config/run_config.h"
#include "engine/fleet/fleet_protocol.h"
#include "engine/run/run_controller.h"
#include "engine/stats/interval_stats.h"

namespace tacho::engine {

class IntervalPoster {
public:
    // Intervals kept until acknowledged; beyond that the oldest go (and the
    // coordinator reports them missing).
    static constexpr std::size_t kKept = 3600;
    static constexpr std::int64_t kRepostAfterMs = 3000;
    static constexpr std::size_t kRepostPerRound = 50;

    // clockOffsetMs: the control server's clock − this machine's.
    IntervalPoster(RunConfig controlServer, std::string runId, std::string agent, std::int64_t clockOffsetMs,
                   std::ostream& err, const char* prefix);
    ~IntervalPoster();
    IntervalPoster(const IntervalPoster&) = delete;
    IntervalPoster& operator=(const IntervalPoster&) = delete;

    // The controller's tick (its run() thread): merged into the current
    // second; a finished second is queued for the sender.
    void onTick(const MeasuredTick& tick);
    // Queues the second under way (the run ended without a last tick).
    void flush();
    // The seq of the last interval queued (0: none).
    std::uint64_t lastSeq() const;
    // Intervals dropped because the queue was full.
    std::uint64_t dropped() const;
    // Stops the sender (what is not acknowledged by then stays unsent).
    void stop();

private:
    struct Queued {
        FleetInterval interval;
        std::int64_t postedAtMs = 0;   // 0: not posted yet
    };
    void queueCurrent();
    void send();

    RunConfig m_server;
    std::string m_runId;
    std::string m_agent;
    std::int64_t m_clockOffsetMs;
    std::ostream& m_err;
    const char* m_prefix;

    // The run's thread only.
    std::optional<IntervalStats> m_current;
    std::size_t m_currentTest = 0;
    std::string m_currentName;
    std::uint64_t m_currentSecond = 0;
    double m_currentStart = 0;
    double m_currentEnd = 0;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Queued> m_queue;    // by seq, unacknowledged
    std::uint64_t m_lastSeq = 0;
    std::uint64_t m_dropped = 0;
    bool m_stop = false;
    std::thread m_sender;
};

} // namespace tacho::engine
