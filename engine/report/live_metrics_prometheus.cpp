// The Prometheus side of live_metrics_format.h: the bucket bounds, the
// percentiles, and the text-format exposition.
#include <algorithm>
#include <charconv>
#include <functional>

#include "engine/report/live_metrics_format.h"
#include "engine/resp/printable_text.h"

namespace tacho::engine {

namespace {

std::string number(double value)
{
    return metricNumber(value);
}

// A bucket bound in seconds, in fixed notation ("0.0005", "0.00001"): the
// same text on every machine, as people read it.
std::string boundText(std::uint64_t ns)
{
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, double(ns) / 1e9, std::chars_format::fixed).ptr;
    return std::string(buffer, end);
}

std::string label(std::string_view name, std::string_view value)
{
    return std::string(name) + "=\"" + prometheusLabelValue(value) + "\"";
}

std::string testLabels(const TestMetrics& test)
{
    return label("test", test.name) + "," + label("test_index", std::to_string(test.index));
}

std::string commandLabels(const TestMetrics& test, const CommandMetrics& command)
{
    return testLabels(test) + "," + label("command", command.name);
}

// The exposition: families with HELP and TYPE, samples with the run's labels.
class Exposition {
public:
    explicit Exposition(std::string runLabels) : m_common(std::move(runLabels)) { }

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
    std::string take() { return std::move(m_text); }

private:
    std::string m_common;
    std::string m_text;
};

// Percent → ratio, an unknown reading staying unknown (telemetry.h).
double ratio(double percent)
{
    return known(percent) ? percent / 100 : kUnknown;
}

struct ServerFamily {
    const char* name;
    const char* help;
    double (*value)(const ServerPoint&);   // unknown: no sample
};

const ServerFamily kServerFamilies[] = {
    { "tacho_server_requests_per_second", "Commands the server processed per second (its own count, total_commands_processed); running test only.",
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

// A family with a sample per test (those `has` selects), written only when
// at least one test has one: a family without samples is noise.
void perTest(Exposition& x, const LiveMetrics& m, const char* name, const char* type, const char* help,
             const std::function<bool(const TestMetrics&)>& has,
             const std::function<void(const TestMetrics&, const std::string& labels)>& samples)
{
    bool headed = false;
    for (const TestMetrics& test : m.tests) {
        if (!has(test))
            continue;
        if (!headed)
            x.family(name, type, help);
        headed = true;
        samples(test, testLabels(test));
    }
}

bool always(const TestMetrics&) { return true; }
bool anyCommand(const LiveMetrics& m)
{
    for (const TestMetrics& test : m.tests)
        if (!test.commands.empty())
            return true;
    return false;
}
bool running(const TestMetrics& test) { return !test.finished; }

// A counter per command of every test.
void perCommandCounter(Exposition& x, const LiveMetrics& m, const char* name, const char* help,
                       std::uint64_t CommandMetrics::*field)
{
    if (!anyCommand(m))
        return;
    x.family(name, "counter", help);
    for (const TestMetrics& test : m.tests)
        for (const CommandMetrics& command : test.commands)
            x.sample(name, double(command.*field), commandLabels(test, command));
}

void percentileSamples(Exposition& x, const char* name, const LatencyPercentiles& p, const std::string& labels)
{
    x.sample(name, double(p.p50Ns) / 1e9, labels + "," + label("percentile", "50"));
    x.sample(name, double(p.p99Ns) / 1e9, labels + "," + label("percentile", "99"));
    x.sample(name, double(p.p999Ns) / 1e9, labels + "," + label("percentile", "99.9"));
    x.sample(name, double(p.maxNs) / 1e9, labels + "," + label("percentile", "100"));
}

void runFamilies(Exposition& x, const LiveMetrics& m)
{
    x.family("tacho_run_info", "gauge", "Always 1: the run's identity (host, run) and tacho-cli's version.");
    x.sample("tacho_run_info", 1, label("version", m.version));
    x.family("tacho_run_active", "gauge", "1 while the run goes on, 0 in the file it leaves when it has ended.");
    x.sample("tacho_run_active", m.active ? 1 : 0);
    x.family("tacho_run_start_timestamp_seconds", "gauge", "Unix time the run started.");
    x.sample("tacho_run_start_timestamp_seconds", m.startSeconds);
    x.family("tacho_last_update_timestamp_seconds", "gauge",
             "Unix time this file was written (once a second while the run is active): older than a few seconds with "
             "tacho_run_active 1, the run died.");
    x.sample("tacho_last_update_timestamp_seconds", m.updateSeconds);
}

void testFamilies(Exposition& x, const LiveMetrics& m)
{
    perTest(x, m, "tacho_test_finished", "gauge", "1 once the test has ended: its figures are final.", always,
            [&](const TestMetrics& t, const std::string& l) { x.sample("tacho_test_finished", t.finished ? 1 : 0, l); });
    perTest(x, m, "tacho_test_warmup", "gauge", "1 while the test is in its warm-up (not measured).", always,
            [&](const TestMetrics& t, const std::string& l) { x.sample("tacho_test_warmup", t.warmup ? 1 : 0, l); });
    perTest(x, m, "tacho_test_elapsed_seconds", "gauge", "Measured time of the test so far (finished: the whole test).",
            always, [&](const TestMetrics& t, const std::string& l) { x.sample("tacho_test_elapsed_seconds", t.elapsedSeconds, l); });
    perCommandCounter(x, m, "tacho_requests_total", "Replies received (measured, error replies included), per test and command.",
                      &CommandMetrics::requests);
    perCommandCounter(x, m, "tacho_errors_total", "Error replies, per test and command.", &CommandMetrics::errors);
    perCommandCounter(x, m, "tacho_sent_bytes_total", "Bytes sent in measured requests, per test and command.",
                      &CommandMetrics::bytesSent);
    perCommandCounter(x, m, "tacho_received_bytes_total", "Bytes received in measured replies, per test and command.",
                      &CommandMetrics::bytesReceived);
}

void latencyFamilies(Exposition& x, const LiveMetrics& m)
{
    if (!anyCommand(m))
        return;
    const char* histogram = "tacho_request_latency_seconds";
    x.family(histogram, "histogram",
             "Request latency per test and command, from the test's HDR histogram at fixed bounds (10 a decade, 10 us to 10 s).");
    const auto& bounds = latencyBucketBoundsNs();
    for (const TestMetrics& test : m.tests)
        for (const CommandMetrics& command : test.commands) {
            const std::string labels = commandLabels(test, command);
            for (std::size_t i = 0; i < bounds.size(); ++i)
                x.sample("tacho_request_latency_seconds_bucket", double(command.latencyBuckets[i]),
                         labels + "," + label("le", boundText(bounds[i])));
            const double count = double(command.latencyBuckets[kLatencyBucketCount]);
            x.sample("tacho_request_latency_seconds_bucket", count, labels + ",le=\"+Inf\"");
            x.sample("tacho_request_latency_seconds_sum", command.latencySumSeconds, labels);
            x.sample("tacho_request_latency_seconds_count", count, labels);
        }
    x.family("tacho_test_latency_seconds", "gauge",
             "Exact request latency at a percentile over the test so far (finished: the whole test), per command.");
    for (const TestMetrics& test : m.tests)
        for (const CommandMetrics& command : test.commands)
            percentileSamples(x, "tacho_test_latency_seconds", command.test, commandLabels(test, command));
    perTest(x, m, "tacho_last_second_latency_seconds", "gauge",
            "Exact request latency at a percentile over the last second, per command; running test only.",
            [](const TestMetrics& t) {
                return running(t)
                    && std::any_of(t.commands.begin(), t.commands.end(), [](const CommandMetrics& c) { return c.lastSecondMeasured; });
            },
            [&](const TestMetrics& t, const std::string&) {
                for (const CommandMetrics& command : t.commands)
                    if (command.lastSecondMeasured)
                        percentileSamples(x, "tacho_last_second_latency_seconds", command.lastSecond, commandLabels(t, command));
            });
}

void liveFamilies(Exposition& x, const LiveMetrics& m)
{
    perTest(x, m, "tacho_requests_per_second", "gauge", "Replies per second over the last second, per command; running test only.",
            [](const TestMetrics& t) { return running(t) && !t.commands.empty(); },
            [&](const TestMetrics& t, const std::string&) {
                for (const CommandMetrics& command : t.commands)
                    x.sample("tacho_requests_per_second", command.requestsPerSecond, commandLabels(t, command));
            });
    perTest(x, m, "tacho_connections", "gauge", "Benchmark connections open; running test only.", running,
            [&](const TestMetrics& t, const std::string& l) { x.sample("tacho_connections", double(t.connections), l); });
    perTest(x, m, "tacho_bottleneck", "gauge",
            "The bottleneck verdict over the test so far (finished: the whole test's): 1 for its kind, 0 for the others.",
            [](const TestMetrics& t) { return t.judged; },
            [&](const TestMetrics& t, const std::string& l) {
                for (Bottleneck kind : kBottlenecks)
                    x.sample("tacho_bottleneck", t.verdict == kind ? 1 : 0, l + "," + label("kind", bottleneckName(kind)));
            });
    perTest(x, m, "tacho_rate_held", "gauge", "Open loop: 1 when the asked-for rate was held so far, 0 when not.",
            [](const TestMetrics& t) { return t.judged && !t.rate.empty(); },
            [&](const TestMetrics& t, const std::string& l) { x.sample("tacho_rate_held", t.rate == "held" ? 1 : 0, l); });
}

// This machine's and the servers' readings: the running test only (a reading
// not read gives no sample: absent, not 0).
void telemetryFamilies(Exposition& x, const TestMetrics& t)
{
    const TestTelemetry* telemetry = t.finished ? nullptr : t.telemetry.get();
    if (!telemetry)
        return;
    const std::string labels = testLabels(t);
    x.family("tacho_server_sampled", "gauge", "1 when the server answered INFO, 0 when telemetry is not available there.");
    for (const ServerTelemetry& server : telemetry->servers)
        x.sample("tacho_server_sampled", server.unavailable.empty() ? 1 : 0, labels + "," + label("server", server.address));
    for (const ServerFamily& family : kServerFamilies) {
        bool headed = false;
        for (const ServerTelemetry& server : telemetry->servers) {
            const ServerPoint* point = latestWholePoint(server.points, telemetry->intervalSeconds);
            const double value = point ? family.value(*point) : kUnknown;
            if (!known(value))
                continue;
            if (!headed)
                x.family(family.name, "gauge", family.help);
            headed = true;
            x.sample(family.name, value, labels + "," + label("server", server.address));
        }
    }
    const ClientPoint* c = latestWholePoint(telemetry->client.points, telemetry->intervalSeconds);
    if (!c)
        return;
    const auto perThread = [&](const char* name, const char* help, const std::vector<double>& percents) {
        bool headed = false;
        for (std::size_t i = 0; i < percents.size(); ++i) {
            if (!known(percents[i]))
                continue;
            if (!headed)
                x.family(name, "gauge", help);
            headed = true;
            x.sample(name, percents[i] / 100, labels + "," + label("thread", std::to_string(i)));
        }
    };
    perThread("tacho_engine_thread_cpu_ratio", "Engine thread CPU in cores: 1 is one full core.", c->threadCpuPercent);
    perThread("tacho_engine_thread_wait_ratio", "Engine thread runnable but waiting for a CPU, share of the interval.",
              c->threadWaitPercent);
    const auto gauge = [&](const char* name, const char* help, double value) {
        if (!known(value))
            return;
        x.family(name, "gauge", help);
        x.sample(name, value, labels);
    };
    gauge("tacho_client_resident_memory_bytes", "Resident memory of tacho-cli.", c->rssBytes);
    gauge("tacho_host_cpu_busy_ratio", "This host's CPUs busy (steal included), share of all of them.", ratio(c->hostBusyPercent));
    gauge("tacho_host_cpu_steal_ratio", "This host's CPU time stolen by the hypervisor, share of all CPUs.",
          ratio(c->hostStealPercent));
}

} // namespace

const std::array<std::uint64_t, kLatencyBucketCount>& latencyBucketBoundsNs()
{
    static const std::array<std::uint64_t, kLatencyBucketCount> bounds = [] {
        constexpr std::uint64_t kMantissas[] = { 1000, 1250, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000 };
        std::array<std::uint64_t, kLatencyBucketCount> b {};
        std::size_t i = 0;
        for (std::uint64_t decade = 10; decade <= 1'000'000; decade *= 10)   // × 1000 ns: 10 µs … 8 s
            for (std::uint64_t mantissa : kMantissas)
                b[i++] = mantissa * decade;
        b[i] = 10'000'000'000;
        return b;
    }();
    return bounds;
}

LatencyPercentiles percentilesOf(const LatencyHistogram& h)
{
    if (h.count() == 0)
        return {};
    return { h.valueAtPercentile(50), h.valueAtPercentile(99), h.valueAtPercentile(99.9), h.max() };
}

std::array<std::uint64_t, kLatencyBucketCount + 1> cumulativeBucketCounts(const LatencyHistogram& histogram)
{
    std::array<std::uint64_t, kLatencyBucketCount + 1> counts {};
    const auto& bounds = latencyBucketBoundsNs();
    std::size_t bound = 0;
    histogram.forEachBucket([&](std::uint64_t highestNs, std::uint64_t count) {
        while (bound < bounds.size() && highestNs > bounds[bound])
            ++bound;
        counts[bound] += count;
    });
    for (std::size_t i = 1; i < counts.size(); ++i)
        counts[i] += counts[i - 1];
    return counts;
}

std::string metricNumber(double value)
{
    if (!(value == value) || value > 1e300 || value < -1e300)
        return "0";   // never NaN or infinities: a parser would take them, a dashboard would not
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

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
    Exposition x(label("host", m.host) + "," + label("run", m.run));
    runFamilies(x, m);
    testFamilies(x, m);
    latencyFamilies(x, m);
    liveFamilies(x, m);
    for (const TestMetrics& test : m.tests)
        telemetryFamilies(x, test);   // at most one test is running
    return x.take();
}

} // namespace tacho::engine
