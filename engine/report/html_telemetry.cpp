// The report's telemetry sections (issue 19): the bottleneck verdict with
// what it was judged on, where the time goes per command, and the server's
// and the load machines' figures on the test's time axis.
#include "engine/report/html_report.h"
#include "engine/report/html_report_parts.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "engine/report/comparison.h"
#include "engine/telemetry/bottleneck.h"
#include "engine/text/number_format.h"

namespace tacho::engine::html_parts {

namespace {

constexpr double kBytesPerMb = 1024.0 * 1024.0;

// Telemetry points at the midpoint of their interval; warm-up ones (before
// the test's measured start) are left out, as the throughput chart leaves them.
template <typename Point>
bool midpoint(const Point& p, double& x)
{
    x = (p.startSeconds + p.endSeconds) / 2;
    return p.endSeconds > p.startSeconds && x >= 0;
}

std::string percent(double value) { return value < 0 ? std::string("n/a") : fixed(value, 1) + "%"; }

// The load machines' telemetry: each source's for a merged run, else this one's.
std::vector<const ClientTelemetry*> loadMachines(const TestTelemetry& t)
{
    std::vector<const ClientTelemetry*> machines;
    if (t.clients.empty())
        machines.push_back(&t.client);
    for (const ClientTelemetry& c : t.clients)
        machines.push_back(&c);
    return machines;
}

// INFO commandstats names a command in lower case, a subcommand after '|'.
std::string statName(const std::string& command)
{
    std::string name;
    for (char c : command)
        name += c == ' ' ? '|' : char(std::tolower(static_cast<unsigned char>(c)));
    return name;
}

// The client figures for a server command: one of a mixed test's commands,
// the whole test (-1), or none (-2).
int clientCommandFor(const TestResult& test, const std::string& serverCommand)
{
    if (test.commands.size() > 1) {
        for (std::size_t k = 0; k < test.commands.size(); ++k)
            if (statName(test.commands[k].name) == serverCommand)
                return int(k);
        return -2;
    }
    const bool only = test.telemetry.commandTimes.size() == 1;
    return only || test.commandStatName == serverCommand || statName(test.name) == serverCommand ? -1 : -2;
}

std::string verdictTables(const LoadedRun& run)
{
    const RunResult& result = run.run;
    std::string s = "<h3>Bottleneck</h3>\n<table>\n<tr><th class=\"name\">test</th><th class=\"name\">verdict</th>"
                    "<th class=\"name\">open-loop rate</th><th class=\"name\">reason</th><th class=\"name\">advice</th></tr>\n";
    std::vector<std::size_t> judged;
    for (std::size_t i = 0; i < result.tests.size(); ++i) {
        const TestResult& test = result.tests[i];
        if (!test.telemetry.recorded())
            continue;
        judged.push_back(i);
        const BottleneckVerdict& v = test.telemetry.verdict;
        const bool bound = v.kind == Bottleneck::ServerBound || v.kind == Bottleneck::ClientBound;
        s += "<tr>" + td(test.name, "name") + td(bottleneckName(v.kind), bound ? "name bad" : "name")
            + td(v.rate.empty() ? "closed loop" : "rate " + v.rate, v.rate == "not held" ? "name bad" : "name")
            + td(v.reason, "name") + td(v.advice, "name") + "</tr>\n";
    }
    s += "</table>\n";

    // What each call was judged on, a column per test, so that a reader can
    // check it against the lines it was drawn by.
    s += "<p class=\"meta\">Thresholds and inputs of each verdict (medians and maxima over the judged intervals; "
         "n/a: not measured).</p>\n<table>\n<tr><th class=\"name\">threshold / input</th>";
    for (std::size_t i : judged)
        s += th(result.tests[i].name);
    s += "</tr>\n";
    const auto row = [&](const std::string& name, auto value) {
        s += "<tr>" + td(name, "name");
        for (std::size_t i : judged)
            s += td(value(result.tests[i].telemetry.verdict));
        s += "</tr>\n";
    };
    using V = const BottleneckVerdict&;
    row("server-bound at: busiest server thread ≥ (% of a core)", [](V v) { return percent(v.thresholds.serverThreadPercent); });
    row("client-bound at: an engine thread's CPU + wait ≥ (% of a core)", [](V v) { return percent(v.thresholds.engineThreadPercent); });
    row("client-bound at: host busy ≥", [](V v) { return percent(v.thresholds.hostBusyPercent); });
    row("…with an engine thread waiting for a CPU ≥", [](V v) { return percent(v.thresholds.hostStarvedWaitPercent); });
    row("share of the intervals that must be hot", [](V v) { return fixed(v.thresholds.shareOfSeconds, 2); });
    row("rate held at: achieved ÷ asked ≥", [](V v) { return fixed(v.thresholds.rateHeldRatio, 2); });
    row("intervals judged", [](V v) { return std::to_string(v.inputs.intervalsJudged); });
    row("intervals the server was hot", [](V v) { return std::to_string(v.inputs.serverHotIntervals); });
    row("intervals the load machine was hot", [](V v) { return std::to_string(v.inputs.clientHotIntervals); });
    row("busiest server thread (median)", [](V v) {
        return percent(v.inputs.serverBusiestPercent)
            + (v.inputs.serverBusiestWhat.empty() ? std::string() : " (" + v.inputs.serverBusiestWhat + ")");
    });
    row("…of which waiting for a CPU (median)", [](V v) { return percent(v.inputs.serverWaitPercent); });
    row("busiest engine thread: CPU (max)", [](V v) { return percent(v.inputs.engineThreadMaxPercent); });
    row("busiest engine thread: CPU + wait (max)", [](V v) { return percent(v.inputs.engineDemandMaxPercent); });
    row("engine thread wait for a CPU (max)", [](V v) { return percent(v.inputs.engineWaitMaxPercent); });
    row("host busy (max)", [](V v) { return percent(v.inputs.hostBusyMaxPercent); });
    row("host steal (max)", [](V v) { return percent(v.inputs.hostStealMaxPercent); });
    row("rate asked for (requests/s)", [](V v) { return v.inputs.targetRate > 0 ? fixed(v.inputs.targetRate, 0) : std::string("closed loop"); });
    row("rate achieved (requests/s)", [](V v) { return fixed(v.inputs.achievedRate, 0); });
    row("connections · pipeline · threads", [](V v) {
        return std::to_string(v.inputs.connections) + " · " + std::to_string(v.inputs.pipeline) + " · "
            + std::to_string(v.inputs.threads);
    });
    return s + "</table>\n";
}

// Each refusal once, however many tests it spoiled.
std::string unavailableList(const RunResult& result)
{
    std::vector<std::string> lines;
    const auto note = [&](const std::string& line) {
        if (std::find(lines.begin(), lines.end(), line) == lines.end())
            lines.push_back(line);
    };
    for (const TestResult& test : result.tests) {
        if (!test.telemetry.recorded())
            continue;
        for (const ServerTelemetry& server : test.telemetry.servers)
            if (!server.unavailable.empty())
                note("server " + server.address + ": " + server.unavailable);
        for (const ClientTelemetry* client : loadMachines(test.telemetry))
            if (!client->unavailable.empty())
                note("load machine " + client->host + ": " + client->unavailable);
    }
    if (lines.empty())
        return {};
    std::string s = "<p>Telemetry that could not be sampled:</p>\n<ul class=\"warn\">\n";
    for (const std::string& line : lines)
        s += "<li>" + htmlEscape(line) + "</li>\n";
    return s + "</ul>\n";
}

std::string whereTheTimeGoes(const LoadedRun& run)
{
    const RunResult& result = run.run;
    std::string rows;
    for (std::size_t t = 0; t < result.tests.size(); ++t) {
        const TestResult& test = result.tests[t];
        if (!test.telemetry.recorded())
            continue;
        for (const ServerCommandTime& time : test.telemetry.commandTimes) {
            const int command = clientCommandFor(test, time.command);
            const MetricValues v = command >= -1 ? runFigures(run, t, command) : MetricValues {};
            const auto us = [&](Metric m) { return v[std::size_t(m)]; };
            const auto cell = [](const std::optional<double>& ms) {
                return ms ? td(fixed(*ms * 1000, 1)) : td("n/a", "na");
            };
            std::string outside = "n/a";
            if (const std::optional<double> mean = us(Metric::Avg); mean && *mean > 0) {
                const double clientUs = *mean * 1000;
                outside = time.usecPerCall <= clientUs ? fixed((1 - time.usecPerCall / clientUs) * 100, 1) + "%"
                                                       : std::string("n/a (server time above the client's mean)");
            }
            std::string percentiles = time.latencyPercentiles;   // "p50=1.003,p99=3.007": room to wrap
            for (auto at = percentiles.find(','); at != std::string::npos; at = percentiles.find(',', at + 2))
                percentiles.insert(at + 1, " ");
            rows += "<tr>" + td(test.name, "name") + td(time.command, "name") + td(groupedThousands(double(time.calls)))
                + td(fixed(time.usecPerCall, 2))
                + td(percentiles.empty() ? "not reported" : percentiles,
                     time.latencyPercentiles.empty() ? "na" : "name")
                + cell(us(Metric::Avg)) + cell(us(Metric::P50)) + cell(us(Metric::P99)) + td(outside) + "</tr>\n";
        }
    }
    if (rows.empty())
        return {};
    return "<h3>Where the time goes</h3>\n<p class=\"meta\">Per command, the server's own time per call (INFO "
           "commandstats over the test; latencystats as the server gives it, since its start or CONFIG RESETSTAT) "
           "beside the latency this machine measured, all in µs. The rest of the client's mean is spent outside the "
           "server: network, queues, the client.</p>\n<table>\n<tr><th class=\"name\">test</th><th class=\"name\">command</th>"
        + th("server calls") + th("server µs/call") + "<th class=\"name\">server latencystats (µs)</th>"
        + th("client mean µs") + th("client p50 µs") + th("client p99 µs") + th("share of the mean outside the server")
        + "</tr>\n" + rows + "</table>\n";
}

} // namespace

double telemetryEndSeconds(const TestTelemetry& telemetry)
{
    double end = 0, x = 0;
    if (!telemetry.recorded())
        return 0;
    for (const ServerTelemetry& server : telemetry.servers)
        for (const ServerPoint& p : server.points)
            if (midpoint(p, x))
                end = std::max(end, x);
    for (const ClientTelemetry* client : loadMachines(telemetry))
        for (const ClientPoint& p : client->points)
            if (midpoint(p, x))
                end = std::max(end, x);
    return end;
}

std::string telemetryTables(const LoadedRun& run)
{
    const auto& tests = run.run.tests;
    if (std::none_of(tests.begin(), tests.end(), [](const TestResult& t) { return t.telemetry.recorded(); }))
        return {};
    return verdictTables(run) + unavailableList(run.run) + whereTheTimeGoes(run);
}

std::string telemetryCharts(const TestResult& test, const std::string& base, const Axis& x, const ChartFunction& chart)
{
    const TestTelemetry& t = test.telemetry;
    if (!t.recorded())
        return {};
    const std::string axisLabel = "seconds since the test's start";
    std::string s;
    double at = 0;

    // Server figures, a colour per master (solid and dashed for the pairs).
    const auto perServer = [&](const std::string& solidName, const std::string& dashedName, auto solid, auto dashed) {
        std::vector<Series> series;
        for (std::size_t i = 0; i < t.servers.size(); ++i) {
            const ServerTelemetry& server = t.servers[i];
            if (server.points.empty())
                continue;
            const std::string who = t.servers.size() > 1 ? server.address + " " : std::string();
            Series a { who + solidName, color(i + 1), false, {} }, b { who + dashedName, color(i + 1), true, {} };
            for (const ServerPoint& p : server.points) {
                if (!midpoint(p, at))
                    continue;
                if (known(solid(p)))   // a reading not read is a gap, not a 0
                    a.points.emplace_back(at, solid(p));
                if (dashed && known(dashed(p)))
                    b.points.emplace_back(at, dashed(p));
            }
            if (!a.points.empty())
                series.push_back(std::move(a));
            if (!b.points.empty())
                series.push_back(std::move(b));
        }
        return series;
    };
    using P = const ServerPoint&;
    using Fn = std::function<double(P)>;
    const bool servers = std::any_of(t.servers.begin(), t.servers.end(), [](const ServerTelemetry& v) { return !v.points.empty(); });
    if (servers) {
        s += chart(base + "-server-cpu", test.name + ": server CPU (main thread dashed)", axisLabel, "% of a core", x,
                   perServer("process", "main thread", Fn([](P p) { return p.cpuPercent; }),
                             Fn([](P p) { return p.mainThreadCpuPercent; })));

        // Ours beside the server's own count (which also holds other clients' commands).
        std::vector<Series> ops { Series { "ours (requests/s)", color(0), false, {} } };
        for (const IntervalPoint& p : test.intervals)
            if (midpoint(p, at))
                ops[0].points.emplace_back(at, double(p.requests) / (p.endSeconds - p.startSeconds));
        for (Series& v : perServer("server (INFO)", "", Fn([](P p) { return p.opsPerSecond; }), Fn()))
            ops.push_back(std::move(v));
        s += chart(base + "-server-ops", test.name + ": server ops/s (INFO) beside ours", axisLabel, "ops/s", x, ops);
        s += chart(base + "-server-clients", test.name + ": server's clients (blocked dashed)", axisLabel, "clients", x,
                   perServer("connected", "blocked", Fn([](P p) { return p.connectedClients; }),
                             Fn([](P p) { return p.blockedClients; })));
        s += chart(base + "-server-memory", test.name + ": server memory (RSS dashed)", axisLabel, "MB", x,
                   perServer("used", "RSS", Fn([](P p) { return known(p.usedMemory) ? p.usedMemory / kBytesPerMb : kUnknown; }),
                             Fn([](P p) { return known(p.usedMemoryRss) ? p.usedMemoryRss / kBytesPerMb : kUnknown; })));
        s += chart(base + "-server-network", test.name + ": server network (out dashed)", axisLabel, "KB/s", x,
                   perServer("in", "out", Fn([](P p) { return known(p.netInputBytesPerSecond) ? p.netInputBytesPerSecond / 1024 : kUnknown; }),
                             Fn([](P p) { return known(p.netOutputBytesPerSecond) ? p.netOutputBytesPerSecond / 1024 : kUnknown; })));
    }

    // Each load machine: its engine threads, and the host with its steal time.
    const std::vector<const ClientTelemetry*> machines = loadMachines(t);
    for (std::size_t m = 0; m < machines.size(); ++m) {
        const ClientTelemetry& client = *machines[m];
        if (client.points.empty())
            continue;
        std::vector<Series> series;
        Series busy { "host busy (% of the host)", color(0), true, {} }, steal { "host steal", color(1), true, {} };
        for (const ClientPoint& p : client.points) {
            if (!midpoint(p, at))
                continue;
            for (std::size_t k = 0; k < p.threadCpuPercent.size(); ++k) {
                if (series.size() <= k)
                    series.push_back(Series { "engine thread " + std::to_string(k + 1), color(k + 2), false, {} });
                if (known(p.threadCpuPercent[k]))
                    series[k].points.emplace_back(at, p.threadCpuPercent[k]);
            }
            if (known(p.hostBusyPercent))
                busy.points.emplace_back(at, p.hostBusyPercent);
            if (known(p.hostStealPercent))
                steal.points.emplace_back(at, p.hostStealPercent);
        }
        series.push_back(std::move(busy));
        series.push_back(std::move(steal));
        const std::string host = client.host.empty() ? std::string("this machine") : client.host;
        s += chart(base + "-client-" + std::to_string(m + 1),
                   test.name + ": load machine " + host + " (engine threads, % of a core)", axisLabel, "%", x, series);
    }
    return s;
}

} // namespace tacho::engine::html_parts
