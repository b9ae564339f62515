#pragma once
// Comparing runs against a baseline: per test (and per command of a mixed
// test) the metrics side by side, each with its absolute and relative change
// and whether that is better or worse — higher throughput is better, lower
// latency and fewer errors are better. Plus the fairness warnings (what
// differs between the runs besides what is being compared) and thresholds
// for CI gates ("p99>+10%").
//
// Normalisation changes the throughput columns only; latency is always per
// request (a request's latency is what it is, however many keys it touched):
//   per request    — requests/s as counted (each pipelined command is one
//                    request, so pipelining needs no correction);
//   per key        — requests/s × keys per request (an MGET of 1000 keys
//                    counts 1000; MSET of 10 pairs counts 10; most commands
//                    count 1); KB/s unchanged;
//   per connection — requests/s and KB/s ÷ connections.
// Where a source does not record a figure the cell is empty ("n/a"), never 0.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/report/run_file_reader.h"

namespace tacho::engine {

enum class Metric { Ops, Avg, P50, P95, P99, P999, Max, Errors, KBps };
inline constexpr std::size_t kMetricCount = 9;
inline constexpr std::array<Metric, kMetricCount> kAllMetrics = {
    Metric::Ops, Metric::Avg, Metric::P50, Metric::P95, Metric::P99, Metric::P999, Metric::Max, Metric::Errors, Metric::KBps,
};

// "ops", "avg", "p50", "p95", "p99", "p999", "max", "errors", "kbps"
const char* metricKey(Metric metric);
// Also accepts "p99.9", "mean", "rps", "kb/s".
std::optional<Metric> metricFromKey(std::string_view key);
bool higherIsBetter(Metric metric);   // ops and KB/s
bool isLatency(Metric metric);        // avg … max, in milliseconds

enum class Normalisation { PerRequest, PerKey, PerConnection };
const char* normalisationName(Normalisation n);   // "request", "key", "connection"
std::optional<Normalisation> normalisationFromName(std::string_view name);
// Column label: "req/s", "keys/s", "req/s/conn", "avg ms", …, "errors", "KB/s".
std::string metricLabel(Metric metric, Normalisation n);

// Keys one request touches, from its command line (0 = cannot tell, e.g.
// "MGET" without its arguments). MGET/DEL/EXISTS/… count their arguments,
// MSET/MSETNX their pairs, BLPOP/BRPOP all but the timeout, RENAME/SMOVE/…
// two; other commands one.
std::uint32_t keysPerRequestFromArgs(const std::vector<std::string>& args);
// The same from "mget k1 k2 k3" (split at spaces).
std::uint32_t keysPerRequestFromCommandLine(std::string_view line);

using MetricValues = std::array<std::optional<double>, kMetricCount>;

// One run's figures for a test (command < 0) or one of its commands, per
// request (not normalised). Stated figures win over ones computed from the
// histogram; missing ones stay empty. A failed test, or one with no replies,
// has no latency (a file may state 0.000 ms for it).
MetricValues runFigures(const LoadedRun& run, std::size_t test, int command = -1);
// Keys per request of a test or command (0 = unknown). A mixed test's is
// the request-weighted mean of its commands'.
double keysPerRequestOf(const LoadedRun& run, std::size_t test, int command = -1);
// Why the test has no figures worth comparing: "the test failed: <why>"
// (its own status, or the run's when the test got no replies), "no
// replies" (a Tacho run's test that got none); empty otherwise.
std::string testFailure(const LoadedRun& run, std::size_t test);

// Noise: the difference lies inside the runs' own spread — the run repeats
// the baseline's setup, or the two setups' repeated runs overlap.
enum class Verdict { Baseline, Better, Worse, Same, Noise, Unknown };
const char* verdictName(Verdict verdict);   // "baseline", "better", "worse", "same", "noise", "n/a"

struct ComparisonCell {
    std::optional<double> value;     // normalised as the comparison says
    std::optional<double> change;    // value − baseline
    std::optional<double> percent;   // change ÷ baseline × 100 (empty when the baseline is 0)
    Verdict verdict = Verdict::Unknown;
    // The lowest and highest value among the runs of this run's setup, when
    // it was run more than once (Comparison::setups): its noise band.
    std::optional<double> spreadLow, spreadHigh;
};

struct ComparisonRow {
    std::string test;                       // name in the first run that has it (the baseline's when present)
    std::string command;                    // empty: the whole test
    std::vector<int> testIndex;             // per run: index into run.tests, −1 when absent
    std::vector<int> commandIndex;          // per run: index into the test's commands, −1 for whole-test rows / absent
    std::vector<std::string> testNames;     // per run: the matched test's own name ("" when absent)
    std::vector<double> keysPerRequest;     // per run (0 = unknown)
    std::vector<std::array<ComparisonCell, kMetricCount>> cells;   // [run][metric]
    // Per run: why the test has no figures to compare ("the test failed: …",
    // "no replies"); empty when it ran. A threshold fails on such a run.
    std::vector<std::string> failures;
    // Per run, whole-test rows only: what limited the test (issue 19),
    // "client-bound, rate not held (reason): advice"; "" when not recorded.
    std::vector<std::string> bottlenecks;

    bool presentIn(std::size_t run) const { return testIndex[run] >= 0 && (command.empty() || commandIndex[run] >= 0); }
};

struct FairnessWarning {
    std::string field;     // "server version", "workload", "value size", "connections", "pipeline", "TLS", "load", "bottleneck"
    std::string message;   // "pipeline differs: [1] a.json 1 · [2] b.json 16"
};

struct Comparison {
    std::vector<std::string> labels;        // per run, unique
    std::vector<std::string> descriptions;  // per run: format, start time, target, server, connections …
    std::size_t baseline = 0;
    Normalisation normalisation = Normalisation::PerRequest;
    std::vector<ComparisonRow> rows;
    std::vector<FairnessWarning> warnings;
    std::vector<std::string> notes;         // what each source does not record
    std::vector<std::string> runFailures;   // per run: "the run failed: …", or empty
    // Per run: which setup it belongs to (0, 1, …). Runs made as repeats of
    // one setup (their files share environment.repeatGroup) are one setup,
    // and their differences are the measurement's noise; every other run is
    // a setup of its own. When either side was repeated, a run is Better or
    // Worse than the baseline only outside that noise — its setup's range of
    // values clear of the baseline setup's range.
    std::vector<std::size_t> setups;
};

// Same-valued relative changes below this fraction count as "same" (the
// histograms' precision); error counts must be equal.
inline constexpr double kSameBand = 0.001;

// Tests are matched by name (exactly, then ignoring case). When a run shares
// no test name with the baseline but has as many tests, they are matched by
// position (with a "workload" warning naming the pairs) — how MGET against
// pipelined HMGET is compared. Mixed tests get a row per command as well.
Comparison compareRuns(const std::vector<const LoadedRun*>& runs, std::size_t baseline = 0,
                       Normalisation normalisation = Normalisation::PerRequest);

// What differs between the runs besides the results: server version,
// workload, value size, connections, pipeline, TLS, load (closed loop or
// rate); and what a run does not record. Labels as in the comparison.
std::vector<FairnessWarning> fairnessWarnings(const std::vector<const LoadedRun*>& runs,
                                              const std::vector<std::string>& labels);

// The server as INFO names it: "redis 7.0.15", "valkey 8.0.1"; "" when unknown.
std::string describeServer(const LoadedRun& run);

// The table as text: header lines per run, warnings, notes, then one block
// per row with a line per metric.
std::string formatComparison(const Comparison& comparison);
// One CSV line per row, metric and run:
// test,command,metric,unit,run,label,value,baseline,change,change_percent,verdict
std::string comparisonCsv(const Comparison& comparison);

// A CI threshold: [SCOPE:]METRIC(>|<)VALUE, where VALUE is
//   +N% / -N% / N%   relative change against the baseline,
//   +N / -N          absolute change (ms for latency, with an optional
//                    ms/us/s unit; requests/s for ops; count for errors),
//   N                the value itself (e.g. "errors>0", "p99>2ms").
// SCOPE names a test or a command ("SET:p99>+10%"); without it the threshold
// applies to every test.
struct Threshold {
    enum class Kind { Absolute, Change, Percent };
    std::string text;
    std::string scope;
    Metric metric = Metric::P99;
    bool above = true;       // '>': crossed when above; '<': when below
    double value = 0;        // ms for latency metrics, or percent
    Kind kind = Kind::Percent;
};

// False with a message naming the problem ("expected a number after '>'").
bool parseThreshold(std::string_view text, Threshold& out, std::string* error);

struct ThresholdOutcome {
    std::vector<std::string> crossed;        // one line per crossing, naming threshold, test and run
    std::vector<std::string> notEvaluated;   // figures a source does not record
    std::vector<std::string> unmatched;      // thresholds whose scope names no test or command
};
ThresholdOutcome evaluateThresholds(const Comparison& comparison, const std::vector<Threshold>& thresholds);

// Number formatting shared by the reports: latency 3 decimals, rates 2,
// counts none.
std::string formatMetricValue(Metric metric, double value);
std::string formatChange(Metric metric, const ComparisonCell& cell);   // "+1.234 (+12.3%)"

} // namespace tacho::engine
