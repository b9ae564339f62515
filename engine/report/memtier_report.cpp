#include "engine/report/memtier_report.h"
#include "engine/report/memtier_report_parts.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <map>

namespace tacho::engine {

// Shared with memtier_report_json.cpp (memtier_report_parts.h).
namespace memtier_parts {

// Locale-independent fixed notation (the GUI may run under a locale that
// writes "0,279").
std::string fixed(double value, int decimals)
{
    if (!std::isfinite(value))
        value = 0;
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    return result.ec == std::errc() ? std::string(buffer, result.ptr) : std::string("0");
}

// memtier's JSON percentile keys: snprintf into 7 bytes, so at most 6
// characters survive ("p99.900" → "p99.90", "p100.000" → "p100.0").
std::string truncatedKey(double percentile, int decimals)
{
    return ("p" + fixed(percentile, decimals)).substr(0, 6);
}

double percentileMs(const LatencyHistogram& h, double percentile)
{
    return ms(h.valueAtPercentile(percentile));
}

} // namespace memtier_parts

namespace {

using namespace memtier_parts;

constexpr int kHdrTicksPerHalfDistance = 5;        // HdrHistogram's default for .hgrm

std::string padLeft(const std::string& s, std::size_t width)
{
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string padRight(const std::string& s, std::size_t width)
{
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

// memtier's row names: "SET" → "Sets".
std::string typeName(const std::string& command)
{
    std::string name;
    for (char c : command)
        name += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (!name.empty() && name[0] >= 'a' && name[0] <= 'z')
        name[0] = static_cast<char>(name[0] - 'a' + 'A');
    return name + "s";
}

void finishRates(MemtierRow& row, double seconds)
{
    if (seconds <= 0)
        return;
    row.opsPerSec = double(row.count) / seconds;
    row.hitsPerSec = double(row.hits) / seconds;
    row.missesPerSec = double(row.misses) / seconds;
    row.kbPerSec = double(row.bytesRx + row.bytesTx) / 1024.0 / seconds;
    row.kbRxPerSec = double(row.bytesRx) / 1024.0 / seconds;
    row.kbTxPerSec = double(row.bytesTx) / 1024.0 / seconds;
}

// Seconds of several lines or runs added up: counts, bytes, min, max and
// means stay exact; percentiles of parts do not add up, so none are kept.
void addSeries(std::vector<MemtierSecond>& into, const std::vector<MemtierSecond>& from)
{
    if (into.size() < from.size())
        into.resize(from.size());
    for (std::size_t i = 0; i < from.size(); ++i) {
        MemtierSecond& a = into[i];
        const MemtierSecond& b = from[i];
        if (b.count == 0) {
            a.bytesRx += b.bytesRx;
            a.bytesTx += b.bytesTx;
            continue;
        }
        const std::uint64_t count = a.count + b.count;
        a.meanMs = (a.meanMs * double(a.count) + b.meanMs * double(b.count)) / double(count);
        a.minMs = a.count ? std::min(a.minMs, b.minMs) : b.minMs;
        a.maxMs = std::max(a.maxMs, b.maxMs);
        a.count = count;
        a.bytesRx += b.bytesRx;
        a.bytesTx += b.bytesTx;
        a.hasPercentiles = false;
        a.percentileMs.clear();
    }
}

// Adds one command's counters and histograms to a row.
void addCommand(MemtierRow& row, const CommandResult& command)
{
    row.count += command.requests;
    row.hits += command.hits;
    row.misses += command.misses;
    row.errors += command.errors;
    row.bytesRx += command.bytesReceived;
    row.bytesTx += command.bytesSent;
    row.latency.add(command.latency);
    row.uncorrected.add(command.uncorrectedLatency);
}

MemtierSecond toSecond(const SecondSummary& s)
{
    MemtierSecond second;
    second.count = s.requests;
    second.bytesRx = s.bytesReceived;
    second.bytesTx = s.bytesSent;
    second.minMs = ms(s.minNs);
    second.maxMs = ms(s.maxNs);
    second.meanMs = s.meanNs / kNsPerMs;
    second.hasPercentiles = s.requests > 0;
    for (std::uint64_t ns : s.percentileNs)
        second.percentileMs.push_back(ms(ns));
    return second;
}

// memtier's Time-Serie of one command line (index), of every line sharing
// a name (`name`, when several do), or of all (`index` past the commands).
std::vector<MemtierSecond> secondSeries(const TestResult& test, std::size_t index, const std::string* name = nullptr)
{
    std::vector<MemtierSecond> series;
    for (const SecondPoint& point : test.perSecond) {
        const SecondSummary* s = &point.total;
        if (name) {
            const auto it = point.byName.find(*name);
            s = it != point.byName.end() ? &it->second : nullptr;
        } else if (index < test.commands.size()) {
            s = index < point.commands.size() ? &point.commands[index] : nullptr;
        }
        series.push_back(s ? toSecond(*s) : MemtierSecond {});
    }
    return series;
}

} // namespace

std::vector<std::uint64_t> memtierActiveClients(const TestResult& test, double endSeconds)
{
    std::vector<std::uint64_t> perSecond;
    std::uint64_t atEnd = 0;
    for (const IntervalPoint& point : test.intervals) {
        const auto second = static_cast<std::size_t>(std::max(0.0, std::floor(point.startSeconds + 1e-9)));
        if (perSecond.size() <= second)
            perSecond.resize(second + 1, 0);
        if (point.startSeconds < endSeconds)
            atEnd = point.connections;
        perSecond[second] = std::max(perSecond[second], atEnd);
    }
    return perSecond;
}

MemtierRunStats memtierStatsFromTest(const TestResult& test, const std::vector<std::string>& commandNames,
                                     bool setGetLayout, bool byLine, double endEpochSeconds)
{
    MemtierRunStats stats;
    stats.setGetLayout = setGetLayout;
    stats.seconds = test.seconds;
    stats.startEpochSeconds = endEpochSeconds - test.seconds;
    stats.interrupted = test.status == RunStatus::Stopped;
    stats.connectionErrors = test.connectErrors;
    stats.reconnects = test.reconnects;
    stats.targetRate = test.targetRate;
    stats.maxSendLagNs = test.maxSendLagNs;
    stats.secondPercentiles = test.perSecondPercentiles;

    const auto nameOf = [&](std::size_t i) {
        return i < commandNames.size() ? commandNames[i] : (i < test.commands.size() ? test.commands[i].name : "");
    };
    if (setGetLayout) {
        const char* names[2][2] = { { "Sets", "SET" }, { "Gets", "GET" } };
        for (std::size_t i = 0; i < 2; ++i) {
            MemtierRow row;
            row.type = names[i][0];
            row.histogramName = names[i][1];
            if (i < test.commands.size()) {
                addCommand(row, test.commands[i]);
                row.series = secondSeries(test, i);
            }
            if (i == 0)
                row.hits = row.misses = 0;   // memtier counts hits and misses for GETs only
            stats.rows.push_back(std::move(row));
        }
        MemtierRow waits;
        waits.type = "Waits";
        waits.histogramName = "WAIT";
        waits.placeholder = true;
        waits.series.resize(test.perSecond.size());   // memtier lists every second, Count 0
        stats.rows.push_back(std::move(waits));
    } else {
        std::map<std::string, std::size_t> rowOf;
        std::vector<std::size_t> linesInRow;
        for (std::size_t i = 0; i < test.commands.size(); ++i) {
            const std::string name = nameOf(i);
            std::size_t r;
            auto it = rowOf.find(name);
            if (byLine || it == rowOf.end()) {
                r = stats.rows.size();
                rowOf[name] = r;
                MemtierRow row;
                row.type = typeName(name);
                row.histogramName = name;
                stats.rows.push_back(std::move(row));
                linesInRow.push_back(0);
            } else {
                r = it->second;
            }
            addCommand(stats.rows[r], test.commands[i]);
            // A row of several lines takes the engine's exact seconds of their name.
            if (linesInRow[r]++ == 0)
                stats.rows[r].series = secondSeries(test, i);
            else
                stats.rows[r].series = secondSeries(test, i, &name);
        }
    }

    MemtierRow& totals = stats.totals;
    totals.type = "Totals";
    for (MemtierRow& row : stats.rows) {
        finishRates(row, stats.seconds);
        totals.count += row.count;
        totals.errors += row.errors;
        totals.bytesRx += row.bytesRx;
        totals.bytesTx += row.bytesTx;
        totals.latency.add(row.latency);
        totals.uncorrected.add(row.uncorrected);
        totals.hits += row.hits;
        totals.misses += row.misses;
    }
    totals.series = secondSeries(test, test.commands.size());
    finishRates(totals, stats.seconds);
    return stats;
}

MemtierRunStats memtierAggregate(const std::vector<const MemtierRunStats*>& runs)
{
    MemtierRunStats out;
    if (runs.empty())
        return out;
    const double n = double(runs.size());
    const MemtierRunStats& first = *runs.front();
    out.setGetLayout = first.setGetLayout;
    out.runs = runs.size();
    for (const MemtierRow& row : first.rows) {
        MemtierRow copy;
        copy.type = row.type;
        copy.histogramName = row.histogramName;
        copy.placeholder = row.placeholder;
        out.rows.push_back(std::move(copy));
    }
    out.totals.type = "Totals";
    double end = 0;
    const auto addRow = [n](MemtierRow& into, const MemtierRow& from) {
        into.count += from.count;
        into.hits += from.hits;
        into.misses += from.misses;
        into.errors += from.errors;
        into.bytesRx += from.bytesRx;
        into.bytesTx += from.bytesTx;
        into.opsPerSec += from.opsPerSec / n;
        into.hitsPerSec += from.hitsPerSec / n;
        into.missesPerSec += from.missesPerSec / n;
        into.kbPerSec += from.kbPerSec / n;
        into.kbRxPerSec += from.kbRxPerSec / n;
        into.kbTxPerSec += from.kbTxPerSec / n;
        into.latency.add(from.latency);
        into.uncorrected.add(from.uncorrected);
        addSeries(into.series, from.series);
    };
    for (const MemtierRunStats* run : runs) {
        for (std::size_t i = 0; i < out.rows.size() && i < run->rows.size(); ++i)
            addRow(out.rows[i], run->rows[i]);
        addRow(out.totals, run->totals);
        out.seconds += run->seconds / n;
        out.startEpochSeconds += run->startEpochSeconds / n;
        end += (run->startEpochSeconds + run->seconds) / n;
        out.interrupted = out.interrupted || run->interrupted;
        out.connectionErrors += run->connectionErrors;
        out.reconnects += run->reconnects;
        out.targetRate = run->targetRate;
        out.maxSendLagNs = std::max(out.maxSendLagNs, run->maxSendLagNs);
    }
    out.seconds = end - out.startEpochSeconds;
    return out;
}

std::size_t memtierBestRun(const std::vector<MemtierRunStats>& runs)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < runs.size(); ++i)
        if (runs[i].totals.opsPerSec > runs[best].totals.opsPerSec)
            best = i;
    return best;
}

std::size_t memtierWorstRun(const std::vector<MemtierRunStats>& runs)
{
    std::size_t worst = 0;
    for (std::size_t i = 1; i < runs.size(); ++i)
        if (runs[i].totals.opsPerSec < runs[worst].totals.opsPerSec)
            worst = i;
    return worst;
}

std::string formatMemtierRunInfo(std::uint32_t threads, std::uint32_t clientsPerThread,
                                 std::uint64_t requestsPerClient, double testSeconds)
{
    std::string out = padRight(std::to_string(threads), 9) + " Threads\n";
    out += padRight(std::to_string(clientsPerThread), 9) + " Connections per thread\n";
    if (testSeconds > 0) {
        const double whole = std::floor(testSeconds);
        out += padRight(whole == testSeconds ? std::to_string(std::uint64_t(whole)) : fixed(testSeconds, 3), 9)
            + " Seconds\n";
    } else {
        out += padRight(std::to_string(requestsPerClient), 9) + " Requests per client\n";
    }
    return out;
}

std::string memtierPercentileLabel(double percentile)
{
    // memtier counts decimals in float arithmetic; 99.9 → 1, 99.99 → 3.
    const float quantile = static_cast<float>(percentile);
    int digits = 0;
    float fraction = std::fabs(quantile);
    fraction -= float(int(fraction));
    while (std::fabs(fraction) > 0.001f && digits < 3) {
        fraction *= 10;
        ++digits;
        fraction -= float(int(fraction));
    }
    return "p" + fixed(quantile, digits) + " Latency";
}

std::string formatMemtierTable(const MemtierRunStats& stats, const std::string& header,
                               const std::vector<double>& percentiles)
{
    // Column widths as memtier's: the type column fits the longest command
    // name (at least 6) plus one; numbers are right-aligned, each followed by
    // a blank.
    std::size_t longest = 0;
    if (!stats.setGetLayout)
        for (const MemtierRow& row : stats.rows)
            longest = std::max(longest, row.histogramName.size());
    const std::size_t typeWidth = std::max<std::size_t>(6, longest) + 1;
    const bool hitColumns = stats.setGetLayout;

    struct Column {
        std::size_t width;
        std::string title;
    };
    std::vector<Column> columns { { typeWidth, "Type" }, { 12, "Ops/sec" } };
    if (hitColumns) {
        columns.push_back({ 12, "Hits/sec" });
        columns.push_back({ 12, "Misses/sec" });
    }
    columns.push_back({ 15, "Avg. Latency" });
    for (double p : percentiles)
        columns.push_back({ 15, memtierPercentileLabel(p) });
    columns.push_back({ 12, "KB/sec" });

    std::string out = "\n\n" + header + "\n";
    for (const Column& column : columns)
        out += std::string(column.width + 1, '=');
    out += "\n";
    out += padRight("Type", typeWidth) + " ";
    for (std::size_t c = 1; c < columns.size(); ++c)
        out += padLeft(columns[c].title, columns[c].width) + " ";
    out += "\n";
    for (const Column& column : columns)
        out += std::string(column.width + 1, '-');
    out += "\n";

    const auto number = [](double value, std::size_t width, int decimals) {
        return padLeft(fixed(value, decimals), width) + " ";
    };
    const auto dash = [](std::size_t width) { return padLeft("---", width) + " "; };
    const auto line = [&](const MemtierRow& row, bool isTotals, bool isGets) {
        std::string text = padRight(row.type, typeWidth) + " ";
        text += number(row.opsPerSec, 12, 2);
        if (hitColumns) {
            text += (isGets || isTotals) && !row.placeholder ? number(row.hitsPerSec, 12, 2) : dash(12);
            text += (isGets || isTotals) && !row.placeholder ? number(row.missesPerSec, 12, 2) : dash(12);
        }
        const bool latency = isTotals || (!row.placeholder && row.latency.count() > 0) || !stats.setGetLayout;
        text += latency ? number(row.latency.mean() / kNsPerMs, 15, 5) : dash(15);
        for (double p : percentiles)
            text += latency ? number(percentileMs(row.latency, p), 15, 5) : dash(15);
        text += row.placeholder ? dash(12) : number(row.kbPerSec, 12, 2);
        return text + "\n";
    };
    for (std::size_t i = 0; i < stats.rows.size(); ++i)
        out += line(stats.rows[i], false, stats.setGetLayout && i == 1);
    out += line(stats.totals, true, false);
    return out;
}

std::vector<PercentileStep> percentileSteps(const LatencyHistogram& histogram, int ticksPerHalfDistance)
{
    std::vector<PercentileStep> steps;
    const std::uint64_t total = histogram.count();
    if (total == 0) {
        steps.push_back(PercentileStep { 0, 100.0, 0 });
        return steps;
    }
    double target = 0;
    std::uint64_t cumulative = 0;
    std::uint64_t lastValue = 0;
    histogram.forEachBucket([&](std::uint64_t value, std::uint64_t count) {
        if (cumulative >= total)
            return;
        cumulative += count;
        lastValue = value;
        const double current = 100.0 * double(cumulative) / double(total);
        // Every percentile step this bucket reaches; on the last bucket only
        // the first (then the closing 100 % step), as HdrHistogram does.
        while (target <= current) {
            steps.push_back(PercentileStep { std::min(value, histogram.max()), target, cumulative });
            const auto exponent = static_cast<std::int64_t>(std::log(100.0 / (100.0 - target)) / std::log(2.0)) + 1;
            const double halfDistance = std::pow(2.0, double(exponent));
            target += 100.0 / (double(ticksPerHalfDistance) * halfDistance);
            if (cumulative >= total)
                break;
        }
    });
    steps.push_back(PercentileStep { std::min(lastValue, histogram.max()), 100.0, total });
    return steps;
}

std::string formatMemtierHistogram(const MemtierRunStats& stats)
{
    std::string out = "\n\nRequest Latency Distribution\n";
    out += padRight("Type", 6) + " " + padLeft("<= msec   ", 12) + " " + padLeft("Percent", 12) + "\n";
    out += std::string(72, '-') + "\n";
    for (std::size_t i = 0; i < stats.rows.size(); ++i) {
        const MemtierRow& row = stats.rows[i];
        for (const PercentileStep& step : percentileSteps(row.latency, kMemtierTicksPerHalfDistance))
            out += padRight(row.histogramName, 6) + " " + padLeft(fixed(ms(step.valueNs), 3), 8) + " "
                + padLeft(fixed(step.percentile, 3), 12) + "\n";
        // memtier closes every block with "---" except, in the SET/GET
        // layout, the last (WAIT) one.
        if (!(stats.setGetLayout && i + 1 == stats.rows.size()))
            out += "---\n";
    }
    return out;
}

std::string formatMemtierOpenLoop(const MemtierRunStats& stats, const std::vector<double>& percentiles)
{
    if (stats.targetRate <= 0)
        return {};
    std::string out;
    const double achieved = stats.totals.opsPerSec;
    out += "Open loop: target " + fixed(stats.targetRate, 2) + " ops/sec, achieved " + fixed(achieved, 2)
        + " ops/sec (" + fixed(100.0 * achieved / stats.targetRate, 2) + "% of target)\n";
    out += "Backlog: sends fell at most " + fixed(ms(stats.maxSendLagNs), 3)
        + " msec behind their schedule\n";
    out += "Latency (msec), corrected = from each request's due time (the table above), "
           "uncorrected = from its actual send:\n";
    std::string head = padRight("", 12) + " " + padRight("Type", 8) + " " + padLeft("Avg.", 12);
    for (double p : percentiles) {
        std::string label = memtierPercentileLabel(p);
        head += " " + padLeft(label.substr(0, label.find(' ')), 12);
    }
    out += head + "\n";
    const auto row = [&](const MemtierRow& r) {
        if (r.placeholder || (r.latency.count() == 0 && r.type != "Totals"))
            return;
        for (int corrected = 1; corrected >= 0; --corrected) {
            const LatencyHistogram& h = corrected ? r.latency : r.uncorrected;
            std::string text = padRight(corrected ? "corrected" : "uncorrected", 12) + " " + padRight(r.type, 8) + " "
                + padLeft(fixed(h.mean() / kNsPerMs, 3), 12);
            for (double p : percentiles)
                text += " " + padLeft(fixed(percentileMs(h, p), 3), 12);
            out += text + "\n";
        }
    };
    for (const MemtierRow& r : stats.rows)
        row(r);
    row(stats.totals);
    return out;
}

std::string hdrPercentileDistribution(const LatencyHistogram& histogram, HdrTextStyle style)
{
    const bool c = style == HdrTextStyle::C;
    // Column widths: Java's "%12s %14s %10s %14s" / "%12.3f %2.12f %10d %14.2f";
    // C's "%12s" each / "%12.3f %12f %12d %12.2f".
    const std::size_t percentileWidth = c ? 12 : 14, countWidth = c ? 12 : 10, inverseWidth = c ? 12 : 14;
    std::string out = padLeft("Value", 12) + " " + padLeft("Percentile", percentileWidth) + " "
        + padLeft("TotalCount", countWidth) + " " + padLeft("1/(1-Percentile)", inverseWidth) + "\n\n";
    for (const PercentileStep& step :
         percentileSteps(histogram, c ? kMemtierTicksPerHalfDistance : kHdrTicksPerHalfDistance)) {
        const double fraction = step.percentile / 100.0;
        out += padLeft(fixed(ms(step.valueNs), 3), 12) + " " + padLeft(fixed(fraction, c ? 6 : 12), c ? 12 : 0) + " "
            + padLeft(std::to_string(step.cumulativeCount), countWidth);
        if (step.percentile < 100.0)
            out += " " + padLeft(fixed(1.0 / (1.0 - fraction), 2), inverseWidth);
        else if (c)
            out += " " + padLeft("inf", inverseWidth);   // printf of 1/0
        out += "\n";
    }
    // Standard deviation over bucket values, as HdrHistogram computes it.
    const double mean = histogram.mean();
    double squares = 0;
    histogram.forEachBucket([&](std::uint64_t value, std::uint64_t count) {
        const double d = double(value) - mean;
        squares += d * d * double(count);
    });
    const double stddev = histogram.count() ? std::sqrt(squares / double(histogram.count())) : 0;
    // The exported layout (µs, 1 µs .. 60 s, 3 digits): 2048 sub-buckets.
    int buckets = 1;
    for (std::uint64_t limit = 2048; limit <= LatencyHistogram::kHighestNs / 1000; limit <<= 1)
        ++buckets;
    out += "#[Mean    = " + padLeft(fixed(mean / kNsPerMs, 3), 12) + ", StdDeviation   = "
        + padLeft(fixed(stddev / kNsPerMs, 3), 12) + "]\n";
    out += "#[Max     = " + padLeft(fixed(ms(histogram.max()), 3), 12) + ", Total count    = "
        + padLeft(std::to_string(histogram.count()), 12) + "]\n";
    out += "#[Buckets = " + padLeft(std::to_string(buckets), 12) + ", SubBuckets     = " + padLeft("2048", 12) + "]\n";
    return out;
}

std::string hdrIntervalLog(const LatencyHistogram& histogram, const std::string& comment, double startEpochSeconds,
                           double lengthSeconds)
{
    char date[64] = "";
    const std::time_t seconds = static_cast<std::time_t>(startEpochSeconds);
    std::tm utc {};
    if (gmtime_r(&seconds, &utc))
        std::strftime(date, sizeof date, "%a %b %d %H:%M:%S UTC %Y", &utc);
    std::string out = "#[" + comment + "]\n";
    out += "#[Values in microseconds; Interval_Max in milliseconds]\n";
    out += "#[Histogram log format version 1.3]\n";
    out += "#[StartTime: " + fixed(startEpochSeconds, 3) + " (seconds since epoch), " + date + "]\n";
    out += "#[BaseTime: " + fixed(startEpochSeconds, 3) + " (seconds since epoch)]\n";
    out += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
    out += fixed(0.0, 3) + "," + fixed(lengthSeconds, 3) + "," + fixed(ms(histogram.max()), 3) + ","
        + histogram.toCompressedBase64() + "\n";
    return out;
}

} // namespace tacho::engine
