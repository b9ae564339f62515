// memtier_benchmark's --json-out-file blocks (memtier_report.h): a run's Runtime, a row per
// command and the Totals with their per-second series and percentiles, the active clients, and
// the percentile steps memtier writes per command.
#include "engine/report/memtier_report.h"
#include "engine/report/memtier_report_parts.h"

#include <algorithm>

namespace tacho::engine {

using namespace memtier_parts;

namespace {

// memtier writes its numbers with printf's fixed decimals ("0.00", "%.3f"
// latencies); its readers see the same text from us.
void writeRowJson(JsonWriter& w, const MemtierRow& row, const std::vector<double>& percentiles,
                  const std::vector<double>& secondPercentiles, double seconds, std::uint64_t connectionErrors)
{
    w.key(row.type).beginObject();
    w.field("Count", row.count);
    w.key("Ops/sec").fixed(row.opsPerSec, 2);
    w.key("Hits/sec").fixed(row.hitsPerSec, 2);
    w.key("Misses/sec").fixed(row.missesPerSec, 2);
    w.key("Connection Errors/sec").fixed(seconds > 0 ? double(connectionErrors) / seconds : 0, 2);
    w.field("Connection Errors", connectionErrors);
    const bool samples = row.latency.count() > 0;
    // The count-weighted mean, also for Totals (memtier writes 0.0 there).
    const double mean = samples ? row.latency.mean() / kNsPerMs : 0.0;
    w.key("Latency").fixed(mean, 3);
    w.key("Average Latency").fixed(mean, 3);
    w.field("Accumulated Latency",
            static_cast<std::uint64_t>(row.latency.mean() * double(row.latency.count()) / kNsPerMs));
    w.key("Min Latency").fixed(samples ? ms(row.latency.min()) : 0.0, 3);
    w.key("Max Latency").fixed(samples ? ms(row.latency.max()) : 0.0, 3);
    w.key("KB/sec").fixed(row.kbPerSec, 2);
    w.key("KB/sec RX/TX").fixed(row.kbPerSec, 2);
    w.key("KB/sec RX").fixed(row.kbRxPerSec, 2);
    w.key("KB/sec TX").fixed(row.kbTxPerSec, 2);
    w.key("Time-Serie").beginObject();
    for (std::size_t i = 0; i < row.series.size(); ++i) {
        const MemtierSecond& s = row.series[i];
        w.key(std::to_string(i)).beginObject();
        w.field("Bytes RX", s.bytesRx);
        w.field("Bytes TX", s.bytesTx);
        w.field("Count", s.count);
        if (s.count > 0) {
            w.key("Average Latency").fixed(s.meanMs, 3);
            w.field("Accumulated Latency", static_cast<std::uint64_t>(s.meanMs * double(s.count)));
            w.key("Min Latency").fixed(s.minMs, 3);
            w.key("Max Latency").fixed(s.maxMs, 3);
            for (double p : percentiles) {
                const auto at = std::find(secondPercentiles.begin(), secondPercentiles.end(), p);
                const auto k = static_cast<std::size_t>(at - secondPercentiles.begin());
                if (s.hasPercentiles && k < s.percentileMs.size())
                    w.key(truncatedKey(p, 2)).fixed(s.percentileMs[k], 3);
            }
        }
        w.endObject();
    }
    w.endObject();
    w.key("Percentile Latencies").beginObject();
    for (double p : percentiles)
        w.key(truncatedKey(p, 3)).fixed(percentileMs(row.latency, p), 3);
    w.key("Histogram log format").beginObject();
    w.field("Compressed Histogram", row.latency.toCompressedBase64());
    w.endObject();
    w.endObject();
    w.endObject();
}

} // namespace

void writeMemtierStatsJson(JsonWriter& w, const MemtierRunStats& stats, const std::vector<double>& percentiles,
                           bool withHistogram)
{
    // memtier's JSON lists the percentiles sorted (its table keeps the order given).
    std::vector<double> sorted = percentiles;
    std::sort(sorted.begin(), sorted.end());
    const auto startMs = static_cast<std::int64_t>(stats.startEpochSeconds * 1000);
    const auto finishMs = static_cast<std::int64_t>((stats.startEpochSeconds + stats.seconds) * 1000);
    w.key("Runtime").beginObject();
    w.field("Start time", startMs);
    w.field("Finish time", finishMs);
    w.field("Total duration", finishMs - startMs);
    w.field("Time unit", "MILLISECONDS");
    w.field("Interrupted", stats.interrupted ? "true" : "false");
    w.endObject();
    for (const MemtierRow& row : stats.rows)
        writeRowJson(w, row, sorted, stats.secondPercentiles, stats.seconds, 0);
    writeRowJson(w, stats.totals, sorted, stats.secondPercentiles, stats.seconds, stats.connectionErrors);
    if (!stats.activeClients.empty()) {
        w.key("Active Clients").beginObject();
        for (std::size_t i = 0; i < stats.activeClients.size(); ++i) {
            w.key(std::to_string(i)).beginObject();
            w.field("Clients per thread", stats.activeClients[i] / std::max<std::uint32_t>(1, stats.threads));
            w.field("Total clients", stats.activeClients[i]);
            w.endObject();
        }
        w.endObject();
    }
    if (!withHistogram)
        return;
    for (const MemtierRow& row : stats.rows) {
        w.key(row.histogramName).beginArray();
        for (const PercentileStep& step : percentileSteps(row.latency, kMemtierTicksPerHalfDistance)) {
            w.beginObject();
            w.key("<=msec").fixed(ms(step.valueNs), 3);
            w.key("percent").fixed(step.percentile, 3);
            w.endObject();
        }
        w.endArray();
    }
}

} // namespace tacho::engine
