#include "engine/report/live_metrics.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <ctime>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/report/atomic_file.h"
#include "engine/resp/printable_text.h"
#include "engine/stats/clock.h"

namespace tacho::engine {

namespace {

constexpr std::uint64_t kPublishEveryNs = 1'000'000'000;

// Shortest text that reads back as the same double, whatever the locale.
std::string number(double value)
{
    if (!(value == value) || value > 1e300 || value < -1e300)
        return "0";   // never NaN or infinities: a parser would take them, a dashboard would not
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

// One label pair; the value is outside text.
std::string label(std::string_view name, std::string_view value)
{
    return std::string(name) + "=\"" + prometheusLabelValue(value) + "\"";
}

// The exposition: families with HELP and TYPE, samples with the common labels.
class Exposition {
public:
    explicit Exposition(std::string commonLabels) : m_common(std::move(commonLabels)) { }

    void family(std::string_view name, std::string_view type, std::string_view help)
    {
        m_text.append("# HELP ").append(name).append(" ").append(help).append("\n");
        m_text.append("# TYPE ").append(name).append(" ").append(type).append("\n");
    }
    void sample(std::string_view name, double value, const std::string& labels = {})
    {
        m_text.append(name).append("{").append(m_common);
        if (!labels.empty())
            m_text.append(",").append(labels);
        m_text.append("} ").append(number(value)).append("\n");
    }
    // A family with one sample.
    void gauge(std::string_view name, std::string_view help, double value)
    {
        family(name, "gauge", help);
        sample(name, value);
    }
    std::string take() { return std::move(m_text); }

private:
    std::string m_common;
    std::string m_text;
};

// The latest point that covers at least half an interval: a test's last one
// can be a sliver taken while its connections close, all zeros and leavers.
template <class Point>
const Point* latest(const std::vector<Point>& points, double intervalSeconds)
{
    for (auto it = points.rbegin(); it != points.rend(); ++it)
        if (it->endSeconds - it->startSeconds >= intervalSeconds / 2)
            return &*it;
    return points.empty() ? nullptr : &points.back();
}

// Percent → ratio, an unknown reading staying unknown (telemetry.h).
double ratio(double percent)
{
    return known(percent) ? percent / 100 : kUnknown;
}

// The server families: one sample per sampled server, labelled server="host:port".
// A reading not read gives no sample (absent, not 0: a dashboard shows a gap).
struct ServerFamily {
    const char* name;
    const char* help;
    double (*value)(const ServerPoint&);   // unknown: no sample
};

const ServerFamily kServerFamilies[] = {
    { "tacho_server_requests_per_second", "Commands the server processed per second (its own count, total_commands_processed).",
      [](const ServerPoint& p) { return p.opsPerSecond; } },
    { "tacho_server_cpu_ratio", "Server process CPU (user + system) in cores: 1 is one full core.",
      [](const ServerPoint& p) { return ratio(p.cpuPercent); } },
    { "tacho_server_main_thread_cpu_ratio", "Server main thread CPU in cores (where INFO gives it).",
      [](const ServerPoint& p) { return ratio(p.mainThreadCpuPercent); } },
    { "tacho_server_main_thread_wait_ratio", "Server main thread runnable but waiting for a CPU, share of the interval (server on this machine).",
      [](const ServerPoint& p) { return ratio(p.mainThreadWaitPercent); } },
    { "tacho_server_connected_clients", "Clients connected to the server.",
      [](const ServerPoint& p) { return p.connectedClients; } },
    { "tacho_server_blocked_clients", "Clients blocked on the server.",
      [](const ServerPoint& p) { return p.blockedClients; } },
    { "tacho_server_memory_used_bytes", "Server used_memory.",
      [](const ServerPoint& p) { return p.usedMemory; } },
    { "tacho_server_memory_rss_bytes", "Server used_memory_rss.",
      [](const ServerPoint& p) { return p.usedMemoryRss; } },
    { "tacho_server_memory_fragmentation_ratio", "Server mem_fragmentation_ratio.",
      [](const ServerPoint& p) { return p.fragmentation; } },
    { "tacho_server_network_receive_bytes_per_second", "Bytes the server read from the network per second.",
      [](const ServerPoint& p) { return p.netInputBytesPerSecond; } },
    { "tacho_server_network_transmit_bytes_per_second", "Bytes the server wrote to the network per second.",
      [](const ServerPoint& p) { return p.netOutputBytesPerSecond; } },
    { "tacho_server_evicted_keys_per_second", "Keys the server evicted per second.",
      [](const ServerPoint& p) { return p.evictedPerSecond; } },
    { "tacho_server_expired_keys_per_second", "Keys the server expired per second.",
      [](const ServerPoint& p) { return p.expiredPerSecond; } },
    { "tacho_server_keyspace_hits_per_second", "Server keyspace hits per second.",
      [](const ServerPoint& p) { return p.hitsPerSecond; } },
    { "tacho_server_keyspace_misses_per_second", "Server keyspace misses per second.",
      [](const ServerPoint& p) { return p.missesPerSecond; } },
    { "tacho_server_rejected_connections_per_second", "Connections the server rejected per second.",
      [](const ServerPoint& p) { return p.rejectedConnectionsPerSecond; } },
};

constexpr Bottleneck kBottlenecks[] = { Bottleneck::ServerBound, Bottleneck::ClientBound, Bottleneck::Neither,
                                        Bottleneck::Unknown };

std::string runId()
{
    const std::time_t now = std::time(nullptr);
    std::tm utc {};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
    return std::string(stamp) + "-" + std::to_string(::getpid());
}

// This machine's families; a thread's figure or a gauge not read gives no sample.
void clientSamples(Exposition& x, const ClientPoint& c)
{
    const auto perThread = [&x](const char* name, const char* help, const std::vector<double>& percents) {
        bool headed = false;
        for (std::size_t i = 0; i < percents.size(); ++i) {
            if (!known(percents[i]))
                continue;
            if (!headed)
                x.family(name, "gauge", help);
            headed = true;
            x.sample(name, percents[i] / 100, label("thread", std::to_string(i)));
        }
    };
    perThread("tacho_engine_thread_cpu_ratio", "Engine thread CPU in cores: 1 is one full core.", c.threadCpuPercent);
    perThread("tacho_engine_thread_wait_ratio", "Engine thread runnable but waiting for a CPU, share of the interval.",
              c.threadWaitPercent);
    if (known(c.rssBytes))
        x.gauge("tacho_client_resident_memory_bytes", "Resident memory of tacho-cli.", c.rssBytes);
    if (known(c.hostBusyPercent))
        x.gauge("tacho_host_cpu_busy_ratio", "This host's CPUs busy (steal included), share of all of them.",
                c.hostBusyPercent / 100);
    if (known(c.hostStealPercent))
        x.gauge("tacho_host_cpu_steal_ratio", "This host's CPU time stolen by the hypervisor, share of all CPUs.",
                c.hostStealPercent / 100);
}

std::string hostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return "unknown";
    return name;
}

} // namespace

std::string prometheusLabelValue(std::string_view text)
{
    std::string out;
    for (char c : printable(text)) {
        if (c == '\\' || c == '"')
            out += '\\';
        out += c;
    }
    return out;
}

std::string prometheusText(const LiveMetrics& m)
{
    Exposition x(label("host", m.host) + "," + label("run", m.run) + "," + label("test", m.test));
    x.gauge("tacho_test_index", "Index of the running test in the run (0 first).", double(m.testIndex));
    x.gauge("tacho_test_warmup", "1 while the test is in its warm-up (not measured).", m.warmup ? 1 : 0);
    x.gauge("tacho_test_finished", "1 once the test has ended: the counts are its final ones.", m.finished ? 1 : 0);
    x.gauge("tacho_test_elapsed_seconds", "Measured time of the test so far.", m.elapsedSeconds);
    x.family("tacho_requests_total", "counter", "Replies received in the test so far (measured, error replies included).");
    x.sample("tacho_requests_total", double(m.requests));
    x.family("tacho_errors_total", "counter", "Error replies in the test so far.");
    x.sample("tacho_errors_total", double(m.errors));
    x.gauge("tacho_requests_per_second", "Replies per second over the last second (finished: the whole test).",
            m.requestsPerSecond);
    x.gauge("tacho_connections", "Benchmark connections open.", double(m.connections));
    x.gauge("tacho_latency_mean_seconds", "Mean request latency over the last second (finished: the whole test).",
            m.latencyMeanNs / 1e9);
    x.family("tacho_latency_seconds", "gauge",
             "Request latency at a percentile: the highest 100 ms tick of the last second (finished: the whole test).");
    x.sample("tacho_latency_seconds", double(m.p50Ns) / 1e9, label("percentile", "50"));
    x.sample("tacho_latency_seconds", double(m.p99Ns) / 1e9, label("percentile", "99"));
    x.sample("tacho_latency_seconds", double(m.p999Ns) / 1e9, label("percentile", "99.9"));
    x.sample("tacho_latency_seconds", double(m.maxNs) / 1e9, label("percentile", "100"));

    if (const TestTelemetry* t = m.telemetry.get()) {
        x.family("tacho_server_sampled", "gauge", "1 when the server answered INFO, 0 when telemetry is not available there.");
        for (const ServerTelemetry& server : t->servers)
            x.sample("tacho_server_sampled", server.unavailable.empty() ? 1 : 0, label("server", server.address));
        for (const ServerFamily& family : kServerFamilies) {
            bool headed = false;
            for (const ServerTelemetry& server : t->servers) {
                const ServerPoint* point = latest(server.points, t->intervalSeconds);
                const double value = point ? family.value(*point) : kUnknown;
                if (!known(value))
                    continue;
                if (!headed)
                    x.family(family.name, "gauge", family.help);
                headed = true;
                x.sample(family.name, value, label("server", server.address));
            }
        }
        if (const ClientPoint* client = latest(t->client.points, t->intervalSeconds))
            clientSamples(x, *client);
        const BottleneckVerdict& v = t->verdict;
        x.family("tacho_bottleneck", "gauge", "The bottleneck verdict so far: 1 for its kind, 0 for the others.");
        for (Bottleneck kind : kBottlenecks)
            x.sample("tacho_bottleneck", v.kind == kind ? 1 : 0, label("kind", bottleneckName(kind)));
        if (!v.rate.empty())
            x.gauge("tacho_rate_held", "Open loop: 1 when the asked-for rate was held, 0 when not.", v.rate == "held" ? 1 : 0);
    }
    return x.take();
}

std::string statsdComponent(std::string_view text)
{
    std::string out;
    for (char c : text) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        out += keep ? c : '_';
    }
    return out.empty() ? "_" : out;
}

std::vector<std::string> statsdLines(const LiveMetrics& m, std::string_view prefix)
{
    std::vector<std::string> lines;
    const std::string base(prefix);
    const auto gauge = [&](const std::string& name, double value) {
        // A negative StatsD gauge value would be read as a decrement: clamp.
        lines.push_back(base + name + ":" + number(std::max(0.0, value)) + "|g");
    };
    // A telemetry reading: no line when it was not read (telemetry.h), never a 0.
    const auto reading = [&](const std::string& name, double value) {
        if (known(value))
            gauge(name, value);
    };
    gauge("test_index", double(m.testIndex));
    gauge("warmup", m.warmup ? 1 : 0);
    gauge("requests", double(m.requests));
    gauge("errors", double(m.errors));
    gauge("requests_per_second", m.requestsPerSecond);
    gauge("connections", double(m.connections));
    gauge("latency_mean_ms", m.latencyMeanNs / 1e6);
    gauge("latency_p50_ms", double(m.p50Ns) / 1e6);
    gauge("latency_p99_ms", double(m.p99Ns) / 1e6);
    gauge("latency_p99_9_ms", double(m.p999Ns) / 1e6);
    gauge("latency_max_ms", double(m.maxNs) / 1e6);
    if (const TestTelemetry* t = m.telemetry.get()) {
        for (const ServerTelemetry& server : t->servers) {
            const ServerPoint* point = latest(server.points, t->intervalSeconds);
            if (!point)
                continue;
            const std::string s = "server." + statsdComponent(server.address) + ".";
            reading(s + "requests_per_second", point->opsPerSecond);
            reading(s + "cpu_percent", point->cpuPercent);
            reading(s + "main_thread_cpu_percent", point->mainThreadCpuPercent);
            reading(s + "connected_clients", point->connectedClients);
            reading(s + "memory_used_bytes", point->usedMemory);
            reading(s + "memory_rss_bytes", point->usedMemoryRss);
            reading(s + "network_in_bytes_per_second", point->netInputBytesPerSecond);
            reading(s + "network_out_bytes_per_second", point->netOutputBytesPerSecond);
        }
        if (const ClientPoint* client = latest(t->client.points, t->intervalSeconds)) {
            const ClientPoint& c = *client;
            for (std::size_t i = 0; i < c.threadCpuPercent.size(); ++i)
                reading("engine.thread" + std::to_string(i) + ".cpu_percent", c.threadCpuPercent[i]);
            reading("host.cpu_busy_percent", c.hostBusyPercent);
            reading("host.cpu_steal_percent", c.hostStealPercent);
        }
        for (Bottleneck kind : kBottlenecks)
            gauge("bottleneck." + statsdComponent(bottleneckName(kind)), t->verdict.kind == kind ? 1 : 0);
    }
    return lines;
}

std::vector<std::string> statsdDatagrams(const std::vector<std::string>& lines, std::size_t maxBytes)
{
    std::vector<std::string> datagrams;
    for (const std::string& line : lines) {
        if (!datagrams.empty() && datagrams.back().size() + 1 + line.size() <= maxBytes)
            datagrams.back().append("\n").append(line);
        else
            datagrams.push_back(line);
    }
    return datagrams;
}

// ---- the exporter ----

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
    , m_statsdAddress(std::move(statsd))
    , m_socket(socket)
{
    m_metrics.host = hostName();
    m_metrics.run = runId();
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

void LiveMetricsExporter::onSnapshot(const IntervalSnapshot& snapshot)
{
    if (!m_testSeen || snapshot.testIndex != m_metrics.testIndex || snapshot.testName != m_metrics.test) {
        // A new test: its own series, its counts from zero.
        m_metrics.test = snapshot.testName;
        m_metrics.testIndex = snapshot.testIndex;
        m_metrics.errors = 0;
        m_metrics.finished = false;
        m_metrics.telemetry.reset();
        m_testSeen = true;
        m_lastPublishNs = 0;
    }
    const IntervalPoint& point = snapshot.point;
    m_metrics.warmup = snapshot.warmup;
    m_metrics.elapsedSeconds = snapshot.elapsedSeconds;
    m_metrics.requests = snapshot.requestsSoFar;
    if (!snapshot.warmup)
        m_metrics.errors += point.errors;
    m_metrics.connections = point.connections;
    if (snapshot.telemetry)   // the same pointer repeats between samples: no copy
        m_metrics.telemetry = snapshot.telemetry;
    m_windowRequests += point.requests;
    m_windowSeconds += std::max(0.0, point.endSeconds - point.startSeconds);
    m_windowLatencySum += point.mean * double(point.requests);
    m_windowP50 = std::max(m_windowP50, point.p50);
    m_windowP99 = std::max(m_windowP99, point.p99);
    m_windowP999 = std::max(m_windowP999, point.p999);
    m_windowMax = std::max(m_windowMax, point.max);

    const std::uint64_t now = nowNs();
    if (m_lastPublishNs != 0 && now - m_lastPublishNs < kPublishEveryNs)
        return;
    m_lastPublishNs = now;
    m_metrics.requestsPerSecond = m_windowSeconds > 0 ? double(m_windowRequests) / m_windowSeconds : 0;
    m_metrics.latencyMeanNs = m_windowRequests > 0 ? m_windowLatencySum / double(m_windowRequests) : 0;
    m_metrics.p50Ns = m_windowP50;
    m_metrics.p99Ns = m_windowP99;
    m_metrics.p999Ns = m_windowP999;
    m_metrics.maxNs = m_windowMax;
    m_windowRequests = 0;
    m_windowSeconds = 0;
    m_windowLatencySum = 0;
    m_windowP50 = m_windowP99 = m_windowP999 = m_windowMax = 0;
    publish();
}

void LiveMetricsExporter::onTestFinished(const TestResult& test)
{
    if (!m_testSeen || test.name != m_metrics.test) {
        m_metrics.test = test.name;   // a test too short for a snapshot
        m_testSeen = true;
    }
    m_metrics.finished = true;
    m_metrics.warmup = false;
    m_metrics.elapsedSeconds = test.seconds;
    m_metrics.requests = test.requests;
    m_metrics.errors = test.errors;
    m_metrics.requestsPerSecond = test.seconds > 0 ? double(test.requests) / test.seconds : 0;
    m_metrics.latencyMeanNs = test.latency.count() > 0 ? test.latency.mean() : 0;
    m_metrics.p50Ns = test.latency.valueAtPercentile(50);
    m_metrics.p99Ns = test.latency.valueAtPercentile(99);
    m_metrics.p999Ns = test.latency.valueAtPercentile(99.9);
    m_metrics.maxNs = test.latency.valueAtPercentile(100);
    if (test.telemetry.recorded())
        m_metrics.telemetry = std::make_shared<const TestTelemetry>(test.telemetry);
    publish();
    // The next test starts its own window.
    m_testSeen = false;
    m_windowRequests = 0;
    m_windowSeconds = 0;
    m_windowLatencySum = 0;
    m_windowP50 = m_windowP99 = m_windowP999 = m_windowMax = 0;
}

std::string LiveMetricsExporter::firstError() const
{
    std::lock_guard lock(m_mutex);
    return m_firstError;
}

void LiveMetricsExporter::publish()
{
    if (!m_writer.joinable())
        return;   // stopped
    std::string file = m_options.prometheusFile.empty() ? std::string() : prometheusText(m_metrics);
    std::vector<std::string> datagrams = m_socket < 0 ? std::vector<std::string>() : statsdDatagrams(statsdLines(m_metrics));
    {
        std::lock_guard lock(m_mutex);
        m_pendingFile = std::move(file);
        m_pendingDatagrams = std::move(datagrams);
        m_pending = true;
    }
    m_wake.notify_one();
}

void LiveMetricsExporter::writerLoop()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_pending || m_stopping; });
        if (!m_pending)
            return;   // stopping, everything written
        const std::string file = std::move(m_pendingFile);
        const std::vector<std::string> datagrams = std::move(m_pendingDatagrams);
        m_pending = false;
        lock.unlock();
        std::string error;
        if (!m_options.prometheusFile.empty() && !writeFileAtomically(m_options.prometheusFile, file, &error))
            error = "--prometheus-file: " + error;
        for (const std::string& datagram : datagrams) {
            const SocketAddress& to = m_statsdAddress.front();
            // Nobody listening (ICMP refused) or a full buffer: the next second tries again.
            if (::sendto(m_socket, datagram.data(), datagram.size(), MSG_NOSIGNAL, to.get(), to.length) < 0
                && error.empty() && errno != ECONNREFUSED && errno != EAGAIN && errno != EWOULDBLOCK)
                error = "--statsd: cannot send: " + errnoText(errno);
        }
        lock.lock();
        if (m_firstError.empty())
            m_firstError = error;
    }
}

} // namespace tacho::engine
