#include "engine/run/latency_monitor.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "engine/net/sync_client.h"
#include "engine/resp/reply_scanner.h"
#include "engine/run/server_probe.h"

namespace tacho::engine {

namespace {

using Clock = std::chrono::steady_clock;
using Nanos = std::chrono::nanoseconds;

double toMs(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }
double toSeconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

Clock::duration fromSeconds(double seconds)
{
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// Running statistics of one window, in integer nanoseconds so that the sum
// is exact (2^63 ns is 292 years of round trips).
struct Window {
    std::uint64_t samples = 0;
    std::int64_t minNs = 0;
    std::int64_t maxNs = 0;
    std::int64_t sumNs = 0;
    Clock::time_point start;

    void add(std::int64_t ns)
    {
        if (samples == 0) {
            minNs = maxNs = ns;
        } else {
            minNs = std::min(minNs, ns);
            maxNs = std::max(maxNs, ns);
        }
        sumNs += ns;
        ++samples;
    }

    LatencyWindowStats stats(Clock::time_point now) const
    {
        LatencyWindowStats out;
        out.samples = samples;
        if (samples > 0) {
            out.minMs = toMs(minNs);
            out.maxMs = toMs(maxNs);
            out.avgMs = toMs(sumNs) / static_cast<double>(samples);
        }
        out.elapsedSeconds = toSeconds(now - start);
        return out;
    }
};

std::string describePingError(const std::string& text)
{
    switch (classifyError(text)) {
    case ErrorKind::NoAuth:
        return describeAuthRequired(text);
    case ErrorKind::NoPerm:
        return "the user may not run PING (" + text + ")";
    case ErrorKind::Loading:
        return "the server is loading its dataset (" + text + ")";
    default:
        return "PING failed: " + text;
    }
}

} // namespace

LatencyMonitor::LatencyMonitor(RunConfig target, LatencyMonitorOptions options)
    : m_target(std::move(target))
    , m_options(options)
{
}

LatencyMonitorResult LatencyMonitor::run(const SampleCallback& onSample)
{
    LatencyMonitorResult result;
    const bool history = m_options.history && m_options.windowSeconds > 0;
    const Clock::duration windowLength = fromSeconds(history ? m_options.windowSeconds : 0);
    const Clock::duration pause = fromSeconds(std::max(0.0, m_options.sampleIntervalSeconds));

    SyncClient client;
    if (!client.open(m_target, &result.error)) {
        result.status = LatencyMonitorStatus::Failed;
        return result;
    }

    const Clock::time_point begin = Clock::now();
    const bool bounded = m_options.durationSeconds > 0;
    const Clock::time_point deadline = bounded ? begin + fromSeconds(m_options.durationSeconds) : Clock::time_point::max();

    Window window;
    window.start = begin;
    std::uint64_t windowIndex = 0;
    std::uint64_t total = 0;
    const std::vector<std::string> ping { "PING" };

    const auto finish = [&](LatencyMonitorStatus status) {
        result.status = status;
        result.openWindow = window.stats(Clock::now());
        result.windowIndex = windowIndex;
        result.totalSamples = total;
        return result;
    };

    for (;;) {
        if (stopRequested())
            return finish(LatencyMonitorStatus::Stopped);
        if (Clock::now() >= deadline)
            return finish(LatencyMonitorStatus::Completed);

        const Clock::time_point sent = Clock::now();
        auto reply = client.command(ping, &result.error);
        const Clock::time_point received = Clock::now();
        if (!reply)
            return finish(LatencyMonitorStatus::Failed);
        if (reply->isError()) {
            result.error = describePingError(reply->text);
            return finish(LatencyMonitorStatus::Failed);
        }

        const std::int64_t rttNs = std::chrono::duration_cast<Nanos>(received - sent).count();
        window.add(rttNs);
        ++total;

        LatencySample sample;
        sample.rttMs = toMs(rttNs);
        sample.window = window.stats(received);
        // Like redis-cli: a window ends with the first reply after its length
        // has passed, so windows last a little longer than asked ("15.01").
        sample.windowClosed = history && received - window.start > windowLength;
        sample.windowIndex = windowIndex;
        sample.totalSamples = total;
        sample.elapsedSeconds = toSeconds(received - begin);
        if (onSample)
            onSample(sample);

        if (sample.windowClosed) {
            window = Window {};
            window.start = received;
            ++windowIndex;
        }

        // Pause in slices so that a stop request is seen within ~10 ms even
        // with a long sample interval; never sleep past the deadline.
        const Clock::time_point wakeUp = std::min(received + pause, deadline);
        while (!stopRequested()) {
            const Clock::time_point now = Clock::now();
            if (now >= wakeUp)
                break;
            std::this_thread::sleep_for(std::min<Clock::duration>(wakeUp - now, std::chrono::milliseconds(10)));
        }
    }
}

} // namespace tacho::engine
