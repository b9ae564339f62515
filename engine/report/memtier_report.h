#pragma once
// memtier_benchmark's report formats, reproduced from Tacho's results:
// the run information lines, the ALL STATS table (and BEST / WORST /
// AGGREGATED AVERAGE blocks for -x), the "Request Latency Distribution",
// the JSON blocks of --json-out-file, and HdrHistogram's percentile
// distribution and interval log files.
//
// Differences from memtier, on purpose: the JSON Totals average latency is
// the count-weighted mean over every command (memtier writes 0.0); a
// second's percentiles are those of every connection's replies (memtier's
// merge of its threads keeps the first thread's), and seconds added up over
// -x runs keep none (they would not be exact); open-loop
// runs add the achieved vs target rate, the backlog, and latency from the due
// time (the table's) and from the actual send, each labelled. Latencies are
// milliseconds, as memtier prints them.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/report/json_writer.h"
#include "engine/run/run_result.h"
#include "engine/stats/latency_histogram.h"

namespace tacho::engine {

// One second of one row (memtier's "Time-Serie"), from the engine's
// per-second summaries (TestResult::perSecond): counts, bytes, min, max,
// mean and the percentiles are exact for the replies of that second.
// Seconds added up from several runs keep no percentiles.
struct MemtierSecond {
    std::uint64_t count = 0;
    std::uint64_t bytesRx = 0, bytesTx = 0;
    double minMs = 0, maxMs = 0, meanMs = 0;
    bool hasPercentiles = false;
    std::vector<double> percentileMs;   // at MemtierRunStats::secondPercentiles
};

// One row of the table: a command type, or the totals.
struct MemtierRow {
    std::string type;                 // "Sets", "Gets", "Waits", "Hsets", "Totals"
    std::string histogramName;        // "SET", "GET", "WAIT", "HSET"
    bool placeholder = false;         // memtier's always-empty Waits row
    std::uint64_t count = 0, hits = 0, misses = 0, errors = 0;
    std::uint64_t bytesRx = 0, bytesTx = 0;
    double opsPerSec = 0, hitsPerSec = 0, missesPerSec = 0;
    double kbPerSec = 0, kbRxPerSec = 0, kbTxPerSec = 0;
    LatencyHistogram latency;         // ns; open loop: from the due time
    LatencyHistogram uncorrected;     // ns; open loop: from the actual send
    std::vector<MemtierSecond> series;
};

// One block: a run, the best/worst of several, or their aggregate.
struct MemtierRunStats {
    bool setGetLayout = true;         // Sets/Gets/Waits with hit and miss columns; else --command rows
    std::vector<MemtierRow> rows;
    MemtierRow totals;
    double seconds = 0;
    double startEpochSeconds = 0;
    bool interrupted = false;
    std::uint64_t connectionErrors = 0;
    std::uint64_t reconnects = 0;
    double targetRate = 0;            // open loop; 0 = closed loop
    std::uint64_t maxSendLagNs = 0;
    std::uint64_t runs = 1;           // > 1 for an aggregate
    // Staircase ramp: memtier's "Active Clients", the connections open per
    // second (memtierActiveClients); empty without a ramp.
    std::vector<std::uint64_t> activeClients;
    std::uint32_t threads = 1;        // for its "Clients per thread"
    std::vector<double> secondPercentiles;   // what each MemtierSecond's percentileMs holds
};

// Per second of the test (as the Time-Serie bins its intervals), the most
// benchmark connections open at the start of one of its intervals: what the
// server saw of a staircase ramp. Intervals starting at or after `endSeconds`
// (the drain closing connections) are left out; a second holding only those
// keeps the connections open at the end.
std::vector<std::uint64_t> memtierActiveClients(const TestResult& test, double endSeconds);

// Builds a block from one test. `commandNames`: the generator's names by
// command index ("SET", "GET"/"MGET", or one per --command). In the SET/GET
// layout index 0 is the Sets row and index 1 the Gets row; otherwise rows
// are per command name (grouped, in order of first appearance) or, with
// `byLine`, one per command index. `endEpochSeconds`: wall-clock time when
// the test ended.
MemtierRunStats memtierStatsFromTest(const TestResult& test, const std::vector<std::string>& commandNames,
                                     bool setGetLayout, bool byLine, double endEpochSeconds);
// memtier's "AGGREGATED AVERAGE RESULTS": rates averaged over the runs,
// counts summed, histograms merged, start and end times averaged.
MemtierRunStats memtierAggregate(const std::vector<const MemtierRunStats*>& runs);
// The block with the highest (best) or lowest (worst) total ops/sec.
std::size_t memtierBestRun(const std::vector<MemtierRunStats>& runs);
std::size_t memtierWorstRun(const std::vector<MemtierRunStats>& runs);

// "4         Threads\n50        Connections per thread\n10000     Requests per client\n"
// (or "<n> Seconds" when `testSeconds` > 0).
std::string formatMemtierRunInfo(std::uint32_t threads, std::uint32_t clientsPerThread,
                                 std::uint64_t requestsPerClient, double testSeconds);
// "\n\nALL STATS\n=====…\nType Ops/sec …" with one row per type and Totals.
std::string formatMemtierTable(const MemtierRunStats& stats, const std::string& header,
                               const std::vector<double>& percentiles);
// "\n\nRequest Latency Distribution\n…" (memtier's percentile steps).
std::string formatMemtierHistogram(const MemtierRunStats& stats);
// Tacho's lines for an open-loop block (empty for closed loop): target and
// achieved rate, the backlog, and per row latency from the due time and from
// the actual send.
std::string formatMemtierOpenLoop(const MemtierRunStats& stats, const std::vector<double>& percentiles);

// memtier's column header for a percentile: 50 → "p50 Latency", 99.9 →
// "p99.9 Latency" (up to three decimals, as memtier computes them).
std::string memtierPercentileLabel(double percentile);

// Writes one block's members (Runtime, one object per row, Totals, and,
// unless `withHistogram` is false, the distribution arrays "SET", "GET", …)
// into the object that `w` has open.
void writeMemtierStatsJson(JsonWriter& w, const MemtierRunStats& stats, const std::vector<double>& percentiles,
                           bool withHistogram);

// One step of HdrHistogram's percentile iteration.
struct PercentileStep {
    std::uint64_t valueNs = 0;        // highest value equivalent to the bucket
    double percentile = 0;            // 0..100
    std::uint64_t cumulativeCount = 0;
};
// HdrHistogram's percentile iterator: `ticksPerHalfDistance` steps between 0
// and 50 %, as many between 50 and 75 %, and so on, then one at 100 %.
std::vector<PercentileStep> percentileSteps(const LatencyHistogram& histogram, int ticksPerHalfDistance);

// HdrHistogram's percentile distribution text, values in milliseconds:
// Java is what HistogramLogProcessor and outputPercentileDistribution write
// (5 steps per half distance); C is what HdrHistogram_c's
// hdr_percentiles_print writes, memtier's --hdr-file-prefix .txt (10 steps,
// "%12f" percentiles, "inf" on the last line).
enum class HdrTextStyle { Java, C };
std::string hdrPercentileDistribution(const LatencyHistogram& histogram, HdrTextStyle style = HdrTextStyle::Java);
// An HdrHistogram interval log (format version 1.3) with one interval
// covering [startEpochSeconds, +lengthSeconds], as HistogramLogProcessor
// reads it (memtier's --hdr-file-prefix .hgrm); Interval_Max in
// milliseconds, the histogram in microseconds.
std::string hdrIntervalLog(const LatencyHistogram& histogram, const std::string& comment, double startEpochSeconds,
                           double lengthSeconds);

} // namespace tacho::engine
