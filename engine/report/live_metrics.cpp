#include "engine/report/live_metrics.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/report/atomic_file.h"
#include "engine/stats/interval_stats.h"

namespace tacho::engine {

namespace {

// How long onTestFinished waits for its publication: a slow disk delays the
// next test by at most this, never the ticks of a running one.
constexpr std::chrono::seconds kFinalPublicationWait { 2 };

std::string runId()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc {};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
    return std::string(stamp) + "-" + std::to_string(::getpid());
}

std::string hostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return "unknown";
    return name;
}

double unixSeconds()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The next whole second of the wall clock: publications line up with it.
std::chrono::system_clock::time_point nextWholeSecond()
{
    return std::chrono::ceil<std::chrono::seconds>(std::chrono::system_clock::now() + std::chrono::milliseconds(1));
}

void finalCommand(CommandMetrics& out, const CommandResult& command)
{
    out.name = command.name;
    out.requests = command.requests;
    out.errors = command.errors;
    out.bytesSent = command.bytesSent;
    out.bytesReceived = command.bytesReceived;
    out.latencyBuckets = cumulativeBucketCounts(command.latency);
    out.latencySumSeconds = command.latency.mean() * double(command.latency.count()) / 1e9;
    out.test = percentilesOf(command.latency);
    out.requestsPerSecond = 0;
    out.lastSecondMeasured = false;
}

} // namespace

std::unique_ptr<LiveMetricsExporter> LiveMetricsExporter::start(const LiveMetricsOptions& options, std::string* error)
{
    if (!options.prometheusFile.empty() && !checkWritable(options.prometheusFile, error)) {
        if (error)
            *error = "--prometheus-file: " + *error;
        return nullptr;
    }
    std::vector<SocketAddress> statsd;
    int socket = -1;
    if (!options.statsdHost.empty()) {
        Endpoint endpoint;
        endpoint.host = options.statsdHost;
        endpoint.port = options.statsdPort;
        SocketAddress address;
        std::string why;
        if (!resolveEndpoint(endpoint, address, &why)) {
            if (error)
                *error = "--statsd: " + why;
            return nullptr;
        }
        socket = ::socket(address.family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (socket < 0) {
            if (error)
                *error = "--statsd: cannot create a UDP socket: " + errnoText(errno);
            return nullptr;
        }
        statsd.push_back(address);
    }
    return std::unique_ptr<LiveMetricsExporter>(new LiveMetricsExporter(options, std::move(statsd), socket));
}

LiveMetricsExporter::LiveMetricsExporter(LiveMetricsOptions options, std::vector<SocketAddress> statsd, int socket)
    : m_options(std::move(options))
    , m_enabled(m_options.enabled())
    , m_statsdAddress(std::move(statsd))
    , m_socket(socket)
{
    if (!m_enabled)
        return;
    m_metrics.host = hostName();
    m_metrics.run = runId();
    m_metrics.version = TACHO_VERSION;
    m_metrics.startSeconds = unixSeconds();
    m_writer = std::thread([this] { writerLoop(); });
}

LiveMetricsExporter::~LiveMetricsExporter()
{
    stop();
    if (m_socket >= 0)
        ::close(m_socket);
}

void LiveMetricsExporter::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    if (m_writer.joinable())
        m_writer.join();
}

TestMetrics& LiveMetricsExporter::openTest(const std::string& name)
{
    if (!m_testOpen) {
        TestMetrics test;
        test.name = name;
        test.index = m_metrics.tests.size();
        m_metrics.tests.push_back(std::move(test));
        m_running.clear();
        m_windowSeconds = 0;
        m_testOpen = true;
    }
    return m_metrics.tests.back();
}

void LiveMetricsExporter::attach(RunController& controller)
{
    if (m_enabled)
        controller.onMeasuredTick([this](const MeasuredTick& tick) { onMeasuredTick(tick); });
}

void LiveMetricsExporter::onMeasuredTick(const MeasuredTick& tick)
{
    if (!m_enabled || !tick.stats)
        return;
    std::lock_guard lock(m_mutex);
    TestMetrics& test = openTest(tick.testName ? *tick.testName : std::string());
    const std::vector<CommandCounters>& counters = tick.stats->commands;
    if (test.commands.size() < counters.size()) {
        for (std::size_t i = test.commands.size(); i < counters.size(); ++i) {
            CommandMetrics command;
            const bool named = tick.commandNames && i < tick.commandNames->size();
            command.name = named ? (*tick.commandNames)[i] : test.name;
            test.commands.push_back(std::move(command));
        }
        m_running.resize(counters.size());
    }
    for (std::size_t i = 0; i < counters.size(); ++i) {
        const CommandCounters& c = counters[i];
        CommandMetrics& command = test.commands[i];
        command.requests += c.requests;
        command.errors += c.errors;
        command.bytesSent += c.bytesSent;
        command.bytesReceived += c.bytesReceived;
        command.latencySumSeconds += c.latency.mean() * double(c.latency.count()) / 1e9;
        RunningCommand& running = m_running[i];
        running.total.add(c.latency);
        running.window.add(c.latency);
        running.windowRequests += c.requests;
    }
    m_windowSeconds += std::max(0.0, tick.endSeconds - tick.startSeconds);
    test.elapsedSeconds = std::max(test.elapsedSeconds, tick.endSeconds);
}

void LiveMetricsExporter::onSnapshot(const IntervalSnapshot& snapshot)
{
    if (!m_enabled)
        return;
    std::lock_guard lock(m_mutex);
    TestMetrics& test = openTest(snapshot.testName);
    test.warmup = snapshot.warmup;
    test.connections = snapshot.point.connections;
    if (!snapshot.warmup)
        test.elapsedSeconds = std::max(test.elapsedSeconds, snapshot.elapsedSeconds);
    if (snapshot.telemetry) {   // the same pointer repeats between samples: no copy
        test.telemetry = snapshot.telemetry;
        test.judged = true;
        test.verdict = snapshot.telemetry->verdict.kind;
        test.rate = snapshot.telemetry->verdict.rate;
    }
}

void LiveMetricsExporter::onTestFinished(const TestResult& result)
{
    if (!m_enabled)
        return;
    std::unique_lock lock(m_mutex);
    TestMetrics& test = openTest(result.name);   // a test too short for a tick opens here
    // The run file's figures: the ticks add up to them, and where they do not
    // (a test that failed between ticks) the file is what a user compares with.
    test.commands.resize(result.commands.size());
    for (std::size_t i = 0; i < result.commands.size(); ++i)
        finalCommand(test.commands[i], result.commands[i]);
    test.elapsedSeconds = result.seconds;
    test.finished = true;
    test.warmup = false;
    test.connections = 0;
    test.telemetry.reset();
    if (result.telemetry.recorded()) {
        test.judged = true;
        test.verdict = result.telemetry.verdict.kind;
        test.rate = result.telemetry.verdict.rate;
    }
    m_testOpen = false;
    m_running.clear();
    m_windowSeconds = 0;
    if (!m_writer.joinable() || m_stopping)
        return;
    // Every test so far has ended: wait for a publication collected after this one did.
    const std::size_t finished = m_metrics.tests.size();
    m_publishNow = true;
    m_wake.notify_one();
    m_published.wait_for(lock, kFinalPublicationWait, [&] { return m_finishedPublished >= finished || m_stopping; });
}

std::string LiveMetricsExporter::firstError() const
{
    std::lock_guard lock(m_mutex);
    return m_firstError;
}

std::uint64_t LiveMetricsExporter::publications() const
{
    std::lock_guard lock(m_mutex);
    return m_publications;
}

LiveMetrics LiveMetricsExporter::collect(bool last)
{
    if (m_testOpen) {
        TestMetrics& test = m_metrics.tests.back();
        for (std::size_t i = 0; i < m_running.size() && i < test.commands.size(); ++i) {
            RunningCommand& running = m_running[i];
            CommandMetrics& command = test.commands[i];
            command.latencyBuckets = cumulativeBucketCounts(running.total);
            command.test = percentilesOf(running.total);
            command.lastSecond = percentilesOf(running.window);
            command.lastSecondMeasured = running.window.count() > 0;
            command.requestsPerSecond = m_windowSeconds > 0 ? double(running.windowRequests) / m_windowSeconds : 0;
            running.window.reset();
            running.windowRequests = 0;
        }
        m_windowSeconds = 0;
    }
    m_metrics.updateSeconds = unixSeconds();
    m_metrics.active = !last;
    return m_metrics;
}

void LiveMetricsExporter::publish(const LiveMetrics& metrics)
{
    std::string error;
    if (!m_options.prometheusFile.empty() && !writeFileAtomically(m_options.prometheusFile, prometheusText(metrics), &error))
        error = "--prometheus-file: " + error;
    if (m_socket >= 0) {
        const SocketAddress& to = m_statsdAddress.front();
        for (const std::string& datagram : statsdDatagrams(statsdLines(metrics, m_options.statsdTags, m_statsdProgress))) {
            // Nobody listening (ICMP refused) or a full buffer: the next second tries again.
            if (::sendto(m_socket, datagram.data(), datagram.size(), MSG_NOSIGNAL, to.get(), to.length) < 0
                && error.empty() && errno != ECONNREFUSED && errno != EAGAIN && errno != EWOULDBLOCK)
                error = "--statsd: cannot send: " + errnoText(errno);
        }
    }
    std::lock_guard lock(m_mutex);
    if (m_firstError.empty())
        m_firstError = error;
}

void LiveMetricsExporter::writerLoop()
{
    std::unique_lock lock(m_mutex);
    auto next = std::chrono::system_clock::now();   // the run shows at once
    for (;;) {
        m_wake.wait_until(lock, next, [this] { return m_publishNow || m_stopping; });
        const bool last = m_stopping;
        m_publishNow = false;
        const LiveMetrics metrics = collect(last);
        const auto finished = static_cast<std::size_t>(std::count_if(metrics.tests.begin(), metrics.tests.end(),
                                                                     [](const TestMetrics& t) { return t.finished; }));
        lock.unlock();
        publish(metrics);
        lock.lock();
        ++m_publications;
        m_finishedPublished = std::max(m_finishedPublished, finished);
        m_published.notify_all();
        if (last)
            return;
        next = nextWholeSecond();
    }
}

} // namespace tacho::engine
