#include "engine/report/redis_benchmark_report.h"
#include "engine/report/csv_cell.h"
#include "engine/resp/printable_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace tacho::engine {

namespace {

constexpr double kNsPerMs = 1e6;

// Locale-independent fixed notation: the GUI runs under the user's locale,
// where printf would write "0,279".
std::string fixed(double value, int decimals)
{
    if (!std::isfinite(value))
        value = 0;
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    if (result.ec != std::errc())
        return "0";
    return std::string(buffer, result.ptr);
}

std::string ms(std::uint64_t ns, int decimals) { return fixed(double(ns) / kNsPerMs, decimals); }

std::string padLeft(const std::string& s, std::size_t width)
{
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

// "12.500% <= 0.279 milliseconds (cumulative count 1063)"
void distributionLine(std::string& out, double percent, std::uint64_t valueNs, std::uint64_t cumulative, int decimals)
{
    out += fixed(percent, 3) + "% <= " + ms(valueNs, decimals) + " milliseconds (cumulative count "
        + std::to_string(cumulative) + ")\n";
}

// HdrHistogram's percentile iteration with one reporting tick per half
// distance (0, 50, 75, 87.5, …), as redis-benchmark prints it: a line only
// when the cumulative count moved (or reached the total), then a closing 100%
// line once every value has been seen. Values are the bucket's highest
// equivalent, capped at the exact maximum.
void percentileDistribution(std::string& out, const LatencyHistogram& h, int decimals)
{
    const std::uint64_t total = h.count();
    if (!total)
        return;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> buckets;
    h.forEachBucket([&](std::uint64_t value, std::uint64_t count) { buckets.emplace_back(value, count); });

    double percentileTo = 0;
    std::uint64_t cumulative = 0;
    std::int64_t previous = -1;
    for (const auto& [highest, count] : buckets) {
        cumulative += count;
        const double current = 100.0 * double(cumulative) / double(total);
        const std::uint64_t value = std::min(highest, h.max());
        while (percentileTo <= current) {
            if (std::int64_t(cumulative) != previous || cumulative == total)
                distributionLine(out, percentileTo, value, cumulative, decimals);
            previous = std::int64_t(cumulative);
            if (cumulative == total || percentileTo >= 100) {
                distributionLine(out, 100.0, value, cumulative, decimals);
                return;
            }
            // The next tick halves the remaining distance to 100%: with
            // half-distance 2^(floor(log2(100 / (100 - p))) + 1), step 100 / it.
            const auto halvings = std::int64_t(std::log(100.0 / (100.0 - percentileTo)) / std::log(2.0)) + 1;
            percentileTo += 100.0 / std::pow(2.0, double(halvings));
        }
    }
}

// redis-benchmark's linear walk: 0.1 ms steps, widened to 1 ms once the
// reported value passes 2 ms; each step reports the cumulative count through
// the bucket holding the step (its highest equivalent value is printed) and is
// printed only when the count moved, ending at the step that reaches 100%.
void cumulativeDistribution(std::string& out, const LatencyHistogram& h, int decimals)
{
    const std::uint64_t total = h.count();
    if (!total)
        return;
    const std::size_t slots = h.bucketSlots();
    std::uint64_t step = 100'000;   // ns
    std::uint64_t level = step;
    std::size_t consumed = 0;        // slots whose counts are in `cumulative`
    std::uint64_t cumulative = 0;
    std::int64_t previous = -1;
    while (true) {
        while (consumed < slots && (consumed == 0 || h.highestEquivalentAtSlot(consumed - 1) < level)) {
            cumulative += h.countAtSlot(consumed);
            ++consumed;
        }
        const std::uint64_t value = h.highestEquivalentAtSlot(consumed - 1);
        if (std::int64_t(cumulative) != previous || cumulative == total)
            distributionLine(out, 100.0 * double(cumulative) / double(total), value, cumulative, decimals);
        previous = std::int64_t(cumulative);
        if (cumulative >= total || consumed >= slots)
            return;
        // Like redis-benchmark, the wider step applies from the step after next.
        const std::uint64_t next = level + step;
        if (value > 2'000'000)
            step = 1'000'000;
        level = next;
    }
}

void fullReport(std::string& out, const TestResult& test, const RunConfig& config, const Environment& environment,
                int decimals)
{
    const LatencyHistogram& h = test.latency;
    out += "====== " + test.name + " ======\n";
    out += "  " + std::to_string(test.requests) + " requests completed in " + fixed(test.seconds, 2) + " seconds\n";
    out += "  " + std::to_string(config.connections) + " parallel clients\n";
    out += "  " + std::to_string(config.valueSize) + " bytes payload\n";
    out += std::string("  keep alive: ") + (config.keepAlive ? "1" : "0") + "\n";
    // Not redis-benchmark's: said so that a run without verification is never
    // mistaken for a verified one.
    if (config.endpoint.tls)
        out += config.endpoint.tlsSettings.insecure ? "  TLS: on, server certificate NOT verified (--insecure)\n"
            : config.endpoint.tlsSettings.skipHostnameVerify
            ? "  TLS: on, server certificate chain verified, not its host name (--tls-skip-hostname-verify)\n"
            : "  TLS: on, server certificate verified\n";
    if (config.cluster)
        out += "  cluster: " + std::to_string(test.nodes.size()) + " masters\n";
    for (const char* key : { "save", "appendonly" }) {
        const auto it = environment.serverConfig.find(key);
        if (it != environment.serverConfig.end())
            out += std::string("  host configuration \"") + key + "\": " + printable(it->second) + "\n";
    }
    out += std::string("  multi-thread: ") + (config.threads > 1 ? "yes" : "no") + "\n";
    if (config.threads > 1)
        out += "  threads: " + std::to_string(config.threads) + "\n";

    out += "\nLatency by percentile distribution:\n";
    percentileDistribution(out, h, decimals);
    out += "\nCumulative distribution of latencies:\n";
    cumulativeDistribution(out, h, decimals);

    out += "\nSummary:\n";
    out += "  throughput summary: " + fixed(test.requestsPerSecond(), 2) + " requests per second\n";
    out += "  latency summary (msec):\n";
    out += "    ";
    for (const char* label : { "avg", "min", "p50", "p95", "p99", "max" })
        out += padLeft(label, 9) + (std::string(label) == "max" ? "" : " ");
    out += "\n    ";
    const std::string values[] = { fixed(h.mean() / kNsPerMs, decimals), ms(h.min(), decimals),
                                   ms(h.valueAtPercentile(50), decimals), ms(h.valueAtPercentile(95), decimals),
                                   ms(h.valueAtPercentile(99), decimals), ms(h.max(), decimals) };
    for (std::size_t i = 0; i < std::size(values); ++i)
        out += padLeft(values[i], 9) + (i + 1 < std::size(values) ? " " : "");
    out += "\n";

    // Tacho's additions, after everything redis-benchmark prints.
    out += "  p99.9 latency (msec): " + ms(h.valueAtPercentile(99.9), decimals) + "\n";
    if (test.clientGap.count())
        out += "  client gap between reply and next send (avg msec): "
            + fixed(test.clientGap.mean() / kNsPerMs, decimals) + "\n";
    if (test.errors || !test.errorsByKind.empty()) {
        out += "  error replies: " + std::to_string(test.errors);
        if (!test.errorsByKind.empty()) {
            out += " (";
            bool first = true;
            for (const auto& [kind, count] : test.errorsByKind) {
                out += (first ? "" : ", ") + kind + ": " + std::to_string(count);
                first = false;
            }
            out += ")";
        }
        out += "\n";
    }
    if (test.redirectFailures)
        out += "  requests failed after too many cluster redirects: " + std::to_string(test.redirectFailures) + "\n";
    if (!test.firstErrors.empty()) {
        out += "  first errors:\n";
        for (const std::string& message : test.firstErrors)
            out += "    " + printable(message) + "\n";
    }
    if (test.connectErrors || test.reconnects)
        out += "  connect errors: " + std::to_string(test.connectErrors) + ", reconnects: "
            + std::to_string(test.reconnects)
            + (test.replyTimeouts ? ", reply timeouts: " + std::to_string(test.replyTimeouts) : std::string()) + "\n";
    if (test.clampedLatencies)
        out += "  latencies above 60 s (counted as 60 s): " + std::to_string(test.clampedLatencies) + "\n";
    if (test.status == RunStatus::Stopped)
        out += "  test stopped before the end: figures are partial\n";
    else if (test.status == RunStatus::Failed)
        out += "  test failed: " + (test.failure.empty() ? std::string("unknown reason") : test.failure) + "\n";
    out += "  " + formatCrossCheck(test);
}

} // namespace

std::string formatTestReport(const TestResult& test, const RunConfig& config, const Environment& environment,
                             ReportStyle style, int precision)
{
    const int decimals = std::clamp(precision, 0, 9);
    const LatencyHistogram& h = test.latency;
    std::string out;
    switch (style) {
    case ReportStyle::Full:
        fullReport(out, test, config, environment, decimals);
        break;
    case ReportStyle::Quiet:
        out = test.name + ": " + fixed(test.requestsPerSecond(), 2) + " requests per second, p50="
            + ms(h.valueAtPercentile(50), decimals) + " msec\n";
        break;
    case ReportStyle::Csv:
        out = csvCellQuoted(test.name) + "," + csvCellQuoted(fixed(test.requestsPerSecond(), 2)) + ","
            + csvCellQuoted(fixed(h.mean() / kNsPerMs, decimals)) + "," + csvCellQuoted(ms(h.min(), decimals)) + ","
            + csvCellQuoted(ms(h.valueAtPercentile(50), decimals)) + "," + csvCellQuoted(ms(h.valueAtPercentile(95), decimals))
            + "," + csvCellQuoted(ms(h.valueAtPercentile(99), decimals)) + "," + csvCellQuoted(ms(h.max(), decimals)) + "\n";
        break;
    }
    return out;
}

std::string csvHeader()
{
    return "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\","
           "\"p99_latency_ms\",\"max_latency_ms\"\n";
}

std::string formatCrossCheck(const TestResult& test)
{
    const ServerCrossCheck& check = test.crossCheck;
    if (!check.available) {
        if (!check.unavailable.empty())
            return "server cross-check: not checked (" + check.unavailable + ")\n";
        if (check.command.empty() && test.commandStatName.empty())
            return "server cross-check: not checked (no server command to compare with)\n";
        if (test.status == RunStatus::Failed)
            return "server cross-check: not checked (the test failed before the counts were read)\n";
        return "server cross-check: not checked (INFO commandstats could not be read)\n";
    }
    const std::string command = check.command.empty() ? test.commandStatName : check.command;
    // INFO's "calls" are the executed ones; rejected calls (CLUSTERDOWN,
    // MOVED, NOAUTH) are named apart so that they cannot pass for executed.
    const std::string rejected = std::to_string(check.serverRejectedCalls) + " rejected";
    const std::string executed = std::to_string(check.executedCalls());
    if (check.agrees())
        return "server cross-check: INFO commandstats agrees (" + command + ": "
            + (check.serverRejectedCalls == 0 ? executed + " calls" : executed + " executed, " + rejected) + ")\n";
    return "server cross-check: MISMATCH — server counted " + executed + " " + command + " calls"
        + (check.serverRejectedCalls == 0 ? std::string() : " executed and " + rejected) + ", Tacho counted "
        + std::to_string(check.clientRequests) + " replies\n";
}

std::string formatProgress(const std::string& testName, double intervalRps, double overallRps, double intervalAvgMs,
                           double overallAvgMs)
{
    return testName + ": rps=" + fixed(intervalRps, 1) + " (overall: " + fixed(overallRps, 1)
        + ") avg_msec=" + fixed(intervalAvgMs, 3) + " (overall: " + fixed(overallAvgMs, 3) + ")";
}

} // namespace tacho::engine
