// The StatsD side of live_metrics_format.h: names and tags that keep two load
// machines, two runs and two tests apart, counters sent as increments.
#include <algorithm>

#include "engine/report/live_metrics_format.h"

namespace tacho::engine {

namespace {

bool plainCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// A tag value: DogStatsD reads anything but ',', '|', '#' and line breaks
// (':' and '.' stay: "127.0.0.1:6379"); Graphite's tags and statsd's key
// rules keep letters, digits, '-', '_' and '.'.
std::string tagValue(std::string_view text, StatsdTags tags)
{
    std::string out;
    for (char c : text) {
        const bool keep = plainCharacter(c) || c == '.' || (tags == StatsdTags::DogStatsd && (c == ':' || c == '/'));
        out += keep ? c : '_';
    }
    return out.empty() ? "_" : out;
}

// Where a line belongs: the test, and within it a command, a server or an
// engine thread (each may be absent).
struct Scope {
    const TestMetrics* test = nullptr;
    const CommandMetrics* command = nullptr;
    std::string server;
    std::string thread;
};

class StatsdWriter {
public:
    StatsdWriter(const LiveMetrics& m, StatsdTags tags, std::string_view prefix, std::vector<std::string>& lines)
        : m_metrics(m), m_tags(tags), m_prefix(prefix), m_lines(lines) { }

    void counter(const Scope& scope, std::string_view metric, std::uint64_t increment)
    {
        add(scope, metric, metricNumber(double(increment)), "c");
    }
    void gauge(const Scope& scope, std::string_view metric, double value)
    {
        // A negative StatsD gauge value would be read as a decrement: clamp.
        add(scope, metric, metricNumber(std::max(0.0, value)), "g");
    }
    // A telemetry reading: no line when it was not read (telemetry.h), never a 0.
    void reading(const Scope& scope, std::string_view metric, double value)
    {
        if (known(value))
            gauge(scope, metric, value);
    }
    void percentiles(const Scope& scope, std::string_view stem, const LatencyPercentiles& p)
    {
        const std::string s(stem);
        gauge(scope, s + "_p50_ms", double(p.p50Ns) / 1e6);
        gauge(scope, s + "_p99_ms", double(p.p99Ns) / 1e6);
        gauge(scope, s + "_p99_9_ms", double(p.p999Ns) / 1e6);
        gauge(scope, s + "_max_ms", double(p.maxNs) / 1e6);
    }

private:
    void add(const Scope& scope, std::string_view metric, const std::string& value, const char* type)
    {
        std::string line(m_prefix);
        if (m_tags == StatsdTags::InName) {
            line += statsdComponent(m_metrics.host) + ".";
            if (scope.test)
                line += statsdComponent(scope.test->name) + ".";
            if (scope.command)
                line += statsdComponent(scope.command->name) + ".";
            if (!scope.server.empty())
                line += "server." + statsdComponent(scope.server) + ".";
            if (!scope.thread.empty())
                line += "thread" + scope.thread + ".";
            line.append(metric).append(":").append(value).append("|").append(type);
        } else if (m_tags == StatsdTags::DogStatsd) {
            line.append(metric).append(":").append(value).append("|").append(type).append("|#");
            line += joinTags(scope, ':', ",");
        } else {
            line.append(metric).append(";").append(joinTags(scope, '=', ";"));
            line.append(":").append(value).append("|").append(type);
        }
        m_lines.push_back(std::move(line));
    }

    std::string joinTags(const Scope& scope, char equals, const char* separator) const
    {
        std::string out;
        const auto tag = [&](const char* key, std::string_view value) {
            if (!out.empty())
                out += separator;
            out.append(key).append(1, equals).append(tagValue(value, m_tags));
        };
        tag("host", m_metrics.host);
        tag("run", m_metrics.run);
        if (scope.test) {
            tag("test", scope.test->name);
            tag("test_index", std::to_string(scope.test->index));
        }
        if (scope.command)
            tag("command", scope.command->name);
        if (!scope.server.empty())
            tag("server", scope.server);
        if (!scope.thread.empty())
            tag("thread", scope.thread);
        return out;
    }

    const LiveMetrics& m_metrics;
    StatsdTags m_tags;
    std::string_view m_prefix;
    std::vector<std::string>& m_lines;
};

void telemetryLines(StatsdWriter& w, const TestMetrics& test)
{
    const TestTelemetry* t = test.telemetry.get();
    if (!t)
        return;
    for (const ServerTelemetry& server : t->servers) {
        const ServerPoint* point = latestWholePoint(server.points, t->intervalSeconds);
        if (!point)
            continue;
        const Scope s { &test, nullptr, server.address, {} };
        w.reading(s, "server_requests_per_second", point->opsPerSecond);
        w.reading(s, "server_cpu_percent", point->cpuPercent);
        w.reading(s, "server_main_thread_cpu_percent", point->mainThreadCpuPercent);
        w.reading(s, "server_connected_clients", point->connectedClients);
        w.reading(s, "server_memory_used_bytes", point->usedMemory);
        w.reading(s, "server_memory_rss_bytes", point->usedMemoryRss);
        w.reading(s, "server_network_in_bytes_per_second", point->netInputBytesPerSecond);
        w.reading(s, "server_network_out_bytes_per_second", point->netOutputBytesPerSecond);
    }
    if (const ClientPoint* c = latestWholePoint(t->client.points, t->intervalSeconds)) {
        for (std::size_t i = 0; i < c->threadCpuPercent.size(); ++i)
            w.reading(Scope { &test, nullptr, {}, std::to_string(i) }, "engine_thread_cpu_percent", c->threadCpuPercent[i]);
        w.reading(Scope { &test, nullptr, {}, {} }, "host_cpu_busy_percent", c->hostBusyPercent);
        w.reading(Scope { &test, nullptr, {}, {} }, "host_cpu_steal_percent", c->hostStealPercent);
    }
}

void verdictLines(StatsdWriter& w, const TestMetrics& test)
{
    if (!test.judged)
        return;
    for (Bottleneck kind : { Bottleneck::ServerBound, Bottleneck::ClientBound, Bottleneck::Neither, Bottleneck::Unknown })
        w.gauge(Scope { &test, nullptr, {}, {} }, "bottleneck_" + statsdComponent(bottleneckName(kind)), test.verdict == kind ? 1 : 0);
}

void testLines(StatsdWriter& w, const TestMetrics& test, StatsdProgress& progress)
{
    for (std::size_t i = 0; i < test.commands.size(); ++i) {
        const CommandMetrics& command = test.commands[i];
        const Scope scope { &test, &command, {}, {} };
        auto& [requests, errors] = progress.sent[{ test.index, i }];
        w.counter(scope, "requests", command.requests - std::min(requests, command.requests));
        w.counter(scope, "errors", command.errors - std::min(errors, command.errors));
        requests = std::max(requests, command.requests);
        errors = std::max(errors, command.errors);
        if (test.finished) {
            w.gauge(scope, "test_requests", double(command.requests));
            w.gauge(scope, "test_errors", double(command.errors));
            w.gauge(scope, "test_requests_per_second", test.elapsedSeconds > 0 ? double(command.requests) / test.elapsedSeconds : 0);
            w.percentiles(scope, "test_latency", command.test);
        } else {
            w.gauge(scope, "requests_per_second", command.requestsPerSecond);
            if (command.lastSecondMeasured)
                w.percentiles(scope, "last_second_latency", command.lastSecond);
        }
    }
    const Scope scope { &test, nullptr, {}, {} };
    if (test.finished) {
        w.gauge(scope, "test_elapsed_seconds", test.elapsedSeconds);
        w.gauge(scope, "test_finished", 1);
    } else {
        w.gauge(scope, "warmup", test.warmup ? 1 : 0);
        w.gauge(scope, "connections", double(test.connections));
        telemetryLines(w, test);
    }
    verdictLines(w, test);
}

} // namespace

std::string statsdComponent(std::string_view text)
{
    std::string out;
    for (char c : text)
        out += plainCharacter(c) ? c : '_';
    return out.empty() ? "_" : out;
}

std::vector<std::string> statsdLines(const LiveMetrics& m, StatsdTags tags, StatsdProgress& progress, std::string_view prefix)
{
    std::vector<std::string> lines;
    StatsdWriter writer(m, tags, prefix, lines);
    for (const TestMetrics& test : m.tests) {
        if (test.finished && !progress.finalSent.insert(test.index).second)
            continue;   // its final lines went out already
        testLines(writer, test, progress);
    }
    writer.gauge(Scope {}, "run_active", m.active ? 1 : 0);
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

} // namespace tacho::engine
