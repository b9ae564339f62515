#include "engine/fleet/interval_poster.h"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace tacho::engine {

namespace {

// Posted in one round at most (the rest in the next, without a pause).
constexpr std::size_t kPostedPerRound = 200;
constexpr std::int64_t kAckCheckMs = 1000;

} // namespace

IntervalPoster::IntervalPoster(RunConfig controlServer, std::string runId, std::string agent,
                               std::int64_t clockOffsetMs, std::ostream& err, const char* prefix)
    : m_server(std::move(controlServer))
    , m_runId(std::move(runId))
    , m_agent(std::move(agent))
    , m_clockOffsetMs(clockOffsetMs)
    , m_err(err)
    , m_prefix(prefix)
{
    m_sender = std::thread([this] { send(); });
}

IntervalPoster::~IntervalPoster() { stop(); }

void IntervalPoster::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_sender.joinable())
        m_sender.join();
}

std::uint64_t IntervalPoster::lastSeq() const
{
    std::lock_guard lock(m_mutex);
    return m_lastSeq;
}

std::uint64_t IntervalPoster::dropped() const
{
    std::lock_guard lock(m_mutex);
    return m_dropped;
}

void IntervalPoster::onTick(const MeasuredTick& tick)
{
    const auto second = static_cast<std::uint64_t>(std::floor(std::max(0.0, tick.startSeconds)));
    if (m_current && (tick.testIndex != m_currentTest || second != m_currentSecond))
        queueCurrent();
    const bool empty = tick.stats->requests() == 0 && tick.stats->unanswered == 0;
    // A test's closing call with nothing after the last tick opens no second.
    if (!m_current && !(empty && tick.endSeconds <= tick.startSeconds)) {
        m_current.emplace(tick.stats->commands.size());
        m_currentTest = tick.testIndex;
        m_currentName = *tick.testName;
        m_currentSecond = second;
        m_currentStart = tick.startSeconds;
    }
    if (m_current) {
        m_current->mergeFrom(*tick.stats);
        m_currentEnd = std::max(m_currentEnd, tick.endSeconds);
    }
    if (tick.testEnded)
        flush();
}

void IntervalPoster::flush()
{
    if (m_current)
        queueCurrent();
}

void IntervalPoster::queueCurrent()
{
    Queued queued;
    FleetInterval& interval = queued.interval;
    interval.agent = m_agent;
    interval.test = m_currentTest;
    interval.testName = m_currentName;
    interval.second = m_currentSecond;
    interval.startSeconds = m_currentStart;
    interval.endSeconds = std::max(m_currentStart, m_currentEnd);
    interval.sentAtMs = localTimeMs() + m_clockOffsetMs;
    for (const CommandCounters& command : m_current->commands) {
        FleetCommandInterval c;
        c.requests = command.requests;
        c.errors = command.errors;
        if (command.latency.count() > 0)
            c.latency = command.latency.toCompressedBase64();
        interval.commands.push_back(std::move(c));
    }
    m_current.reset();
    m_currentEnd = 0;
    {
        std::lock_guard lock(m_mutex);
        interval.seq = ++m_lastSeq;
        m_queue.push_back(std::move(queued));
        if (m_queue.size() > kKept) {
            m_queue.pop_front();
            ++m_dropped;
        }
    }
    m_wake.notify_all();
}

void IntervalPoster::send()
{
    ControlChannel control(m_server);
    ControlOutage outage;
    const std::string ackKey = fleetIntervalAckKey(m_runId, m_agent);
    std::int64_t lastAckCheck = 0;
    std::unique_lock lock(m_mutex);
    while (!m_stop) {
        // What goes out this round: the new ones, then those posted long
        // ago and still not acknowledged (copies, not the queue's entries:
        // the run's thread adds to it meanwhile).
        const std::int64_t now = localTimeMs();
        std::vector<FleetInterval> batch;
        std::size_t reposts = 0;
        for (const Queued& q : m_queue) {
            if (batch.size() >= kPostedPerRound)
                break;
            const bool due = q.postedAtMs == 0
                || (now - q.postedAtMs >= kRepostAfterMs && reposts++ < kRepostPerRound);
            if (due)
                batch.push_back(q.interval);
        }
        const bool checkAck = !m_queue.empty() && now - lastAckCheck >= kAckCheckMs;
        lock.unlock();

        std::vector<std::uint64_t> posted;
        bool failed = false;
        std::string error;
        for (const FleetInterval& interval : batch) {
            if (!postInterval(control, m_runId, interval, &error)) {
                failed = true;
                break;
            }
            posted.push_back(interval.seq);
        }
        std::uint64_t acked = 0;
        if (!failed && checkAck) {
            lastAckCheck = now;
            if (const auto reply = control.request({ "GET", ackKey }, &error))
                acked = std::strtoull(replyText(*reply).c_str(), nullptr, 10);
            else
                failed = true;
        }
        if (failed)
            outage.say("run " + m_runId + ": intervals: " + error + "; kept to send again", m_err, m_prefix);
        else
            outage.recovered();

        lock.lock();
        const std::int64_t postedAt = localTimeMs();
        for (Queued& q : m_queue)
            if (std::binary_search(posted.begin(), posted.end(), q.interval.seq))
                q.postedAtMs = postedAt;
        while (!m_queue.empty() && m_queue.front().interval.seq <= acked)
            m_queue.pop_front();
        const bool more = !failed && batch.size() >= kPostedPerRound;
        if (!more)
            m_wake.wait_for(lock, std::chrono::milliseconds(failed ? 500 : 250), [&] {
                return m_stop
                    || (!failed && !m_queue.empty() && m_queue.back().postedAtMs == 0);
            });
    }
}

} // namespace tacho::engine
