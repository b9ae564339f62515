#include "engine/report/memtier_client_stats.h"

#include <cstdio>

#include "engine/report/memtier_report.h"

namespace tacho::engine {

namespace {

constexpr int kTicksPerHalfDistance = 10;   // memtier's LATENCY_HDR_GRANULARITY

// Mean latency as memtier writes it: whole microseconds, shown as seconds.
std::string meanSeconds(const ClientCommandCounts& c)
{
    const std::uint64_t us = c.requests ? c.latencyNs / c.requests / 1000 : 0;
    char text[48];
    std::snprintf(text, sizeof text, "%llu.%06llu", static_cast<unsigned long long>(us / 1000000),
                  static_cast<unsigned long long>(us % 1000000));
    return text;
}

std::string n(std::uint64_t value) { return std::to_string(value); }

// The requests, latency and byte columns of one command in one second.
std::string commandCells(const ClientCommandCounts& c)
{
    return n(c.requests) + "," + meanSeconds(c) + "," + n(c.bytesSent + c.bytesReceived) + "," + n(c.bytesSent)
        + "," + n(c.bytesReceived);
}

// Second 0 is always a row in memtier's files, even without replies.
std::vector<ClientSecond> rowsOf(const ClientStats& stats)
{
    std::vector<ClientSecond> rows;
    if (stats.seconds.empty() || stats.seconds.front().second != 0)
        rows.push_back(ClientSecond { 0, std::vector<ClientCommandCounts>(stats.latency.size()) });
    rows.insert(rows.end(), stats.seconds.begin(), stats.seconds.end());
    return rows;
}

std::string latencyTable(const std::string& name, const LatencyHistogram* histogram)
{
    std::string out = "\nFull-Test " + name + " Latency\nLatency (<= msec),Percent\n";
    if (!histogram || histogram->count() == 0)
        return out;
    for (const PercentileStep& step : percentileSteps(*histogram, kTicksPerHalfDistance)) {
        char line[64];
        std::snprintf(line, sizeof line, "%8.3f,%.3f\n", double(step.valueNs) / 1e6, step.percentile);
        out += line;
    }
    return out;
}

} // namespace

std::string memtierClientStatsFileName(const std::string& prefix, std::size_t run, std::size_t clientIndex,
                                       std::size_t clientsPerThread)
{
    const std::size_t perThread = clientsPerThread ? clientsPerThread : 1;
    return prefix + "-" + n(run) + "-" + n(clientIndex / perThread) + "-" + n(clientIndex % perThread) + ".csv";
}

std::string memtierClientStatsCsv(const ClientStats& stats, const std::vector<std::string>& commandNames,
                                  bool setGetLayout, bool cluster)
{
    const std::vector<ClientSecond> rows = rowsOf(stats);
    const std::size_t commands = stats.latency.size();
    std::string out;
    if (setGetLayout) {
        const ClientCommandCounts none;
        const auto of = [&](const ClientSecond& s, std::size_t i) -> const ClientCommandCounts& {
            return i < s.commands.size() ? s.commands[i] : none;
        };
        out += "Per-Second Benchmark Data\n"
               "Second,SET Requests,SET Average Latency,SET Total Bytes,SET Total Bytes TX,SET Total Bytes RX,"
               "GET Requests,GET Average Latency,GET Total Bytes,GET Total Bytes TX,GET Total Bytes RX,GET Misses,"
               "GET Hits,WAIT Requests,WAIT Average Latency\n";
        for (const ClientSecond& s : rows) {
            const ClientCommandCounts& get = of(s, 1);
            out += n(s.second) + "," + commandCells(of(s, 0)) + "," + commandCells(get) + "," + n(get.misses) + ","
                + n(get.hits) + ",0,0.000000\n";
        }
        out += latencyTable("GET", commands > 1 ? &stats.latency[1] : nullptr);
        out += latencyTable("SET", commands > 0 ? &stats.latency[0] : nullptr);
        out += latencyTable("WAIT", nullptr);
        if (cluster) {
            out += "\nPer-Second Benchmark Cluster Data\nSecond,SET Moved,SET Ask,GET Moved,GET Ask\n";
            for (const ClientSecond& s : rows)
                out += n(s.second) + "," + n(of(s, 0).moved) + "," + n(of(s, 0).asked) + "," + n(of(s, 1).moved)
                    + "," + n(of(s, 1).asked) + "\n";
        }
        return out;
    }
    out += "Per-Second Benchmark Arbitrary Commands Data\nSecond";
    for (std::size_t i = 0; i < commands; ++i) {
        const std::string& name = i < commandNames.size() ? commandNames[i] : commandNames.back();
        out += "," + name + " Requests," + name + " Average Latency," + name + " Total Bytes," + name
            + " Total Bytes TX," + name + " Total Bytes RX";
    }
    out += "\n";
    for (const ClientSecond& s : rows) {
        out += n(s.second) + ",";
        for (const ClientCommandCounts& c : s.commands)
            out += commandCells(c) + ",";
        out += "\n";
    }
    for (std::size_t i = 0; i < commands; ++i)
        out += latencyTable(i < commandNames.size() ? commandNames[i] : commandNames.back(), &stats.latency[i]);
    return out;
}

} // namespace tacho::engine
