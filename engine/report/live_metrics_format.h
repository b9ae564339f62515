#pragma once
// What the live metrics publish (issue 32), as values, and the two forms they
// are published in: the Prometheus text format 0.0.4 (node_exporter's textfile
// collector reads it) and StatsD lines. Pure functions of the values, so every
// rule below is tested without a run.
//
// The rules a Prometheus or Grafana user relies on:
// - every test of the run keeps its series until the run ends, with its final
//   counts once it has finished; counters (`_total`) only go up;
// - latency is a real histogram per command and test at fixed bounds
//   (kLatencyBucketBoundsNs), so buckets add up across load machines and
//   histogram_quantile works on them;
// - a figure keeps its meaning when a test ends: figures of "the last second"
//   exist only for the running test, figures of "the test so far" become the
//   whole test's;
// - the run says whether it is still going (tacho_run_active) and when the
//   file was last written (tacho_last_update_timestamp_seconds): a run that
//   died without a last word reads as stale.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/stats/latency_histogram.h"
#include "engine/telemetry/telemetry.h"

namespace tacho::engine {

// Upper bounds of the latency histogram's buckets, in ns: ten a decade
// (1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8) from 10 µs to 8 s, then 10 s; +Inf
// after them. Fixed for every run and machine (buckets of two machines add up
// only when their bounds are the same).
inline constexpr std::size_t kLatencyBucketCount = 61;
const std::array<std::uint64_t, kLatencyBucketCount>& latencyBucketBoundsNs();

struct LatencyPercentiles {
    std::uint64_t p50Ns = 0, p99Ns = 0, p999Ns = 0, maxNs = 0;
};
LatencyPercentiles percentilesOf(const LatencyHistogram& histogram);

// A histogram's counts at or below each bound (cumulative, the last entry
// is the +Inf bucket: the count). A value counts under the first bound at or
// above its HDR bucket's highest equivalent value: within HDR's precision.
std::array<std::uint64_t, kLatencyBucketCount + 1> cumulativeBucketCounts(const LatencyHistogram& histogram);

// One command of one test.
struct CommandMetrics {
    std::string name;                    // "SET"; a single-command test's command is named like the test
    std::uint64_t requests = 0;          // measured replies, error replies included
    std::uint64_t errors = 0;            // error replies
    std::uint64_t bytesSent = 0;
    std::uint64_t bytesReceived = 0;
    std::array<std::uint64_t, kLatencyBucketCount + 1> latencyBuckets {};   // cumulative; last: +Inf
    double latencySumSeconds = 0;
    LatencyPercentiles test;             // the test so far (finished: the whole test)
    // The running test only: over the last publish interval (one second).
    double requestsPerSecond = 0;
    LatencyPercentiles lastSecond;
    bool lastSecondMeasured = false;     // a reply arrived in it
};

struct TestMetrics {
    std::string name;
    std::size_t index = 0;               // in the whole run (a memtier preload is test 0)
    bool finished = false;
    bool warmup = false;
    double elapsedSeconds = 0;           // measured time so far (finished: the test's)
    std::vector<CommandMetrics> commands;
    bool judged = false;                 // a verdict exists (telemetry on, sampled at least once)
    Bottleneck verdict = Bottleneck::Unknown;   // so far (finished: the whole test's)
    std::string rate;                    // open loop: "held" / "not held"
    // The running test only (a finished test has none of these).
    std::uint64_t connections = 0;
    std::shared_ptr<const TestTelemetry> telemetry;
};

struct LiveMetrics {
    std::string host;                    // this machine
    std::string run;                     // this run: "<UTC start>-<pid>"
    std::string version;                 // tacho-cli's
    double startSeconds = 0;             // Unix time the run started
    double updateSeconds = 0;            // Unix time of this publication
    bool active = true;                  // false in the last file of a run
    std::vector<TestMetrics> tests;      // every test so far, in order
};

// Shortest text that reads back as the same double, whatever the locale;
// NaN and infinities as 0 (a parser would take them, a dashboard would not).
std::string metricNumber(double value);

// The latest telemetry point that covers at least half an interval: a test's
// last one can be a sliver taken while its connections close, all zeros.
template <class Point>
const Point* latestWholePoint(const std::vector<Point>& points, double intervalSeconds)
{
    for (auto it = points.rbegin(); it != points.rend(); ++it)
        if (it->endSeconds - it->startSeconds >= intervalSeconds / 2)
            return &*it;
    return points.empty() ? nullptr : &points.back();
}

// A Prometheus label value: outside text (test and server names) made
// printable (controls and bad UTF-8 as \xNN, engine/resp/printable_text.h),
// then backslash and double quote escaped, so no value ends a line or a label.
std::string prometheusLabelValue(std::string_view text);

// The text-format exposition (version 0.0.4): HELP and TYPE for every family,
// its samples together.
std::string prometheusText(const LiveMetrics& metrics);

// How StatsD lines carry host, run, test and command.
enum class StatsdTags {
    InName,      // plain StatsD (Etsy's, collectd's): tacho.<host>.<test>.<command>.<metric>
    DogStatsd,   // tacho.<metric>:v|c|#host:h,run:r,test:t,command:c
    Graphite,    // tacho.<metric>;host=h;run=r;test=t;command=c:v|c (statsd ≥ 0.8, carbon tags)
};

// A StatsD name component: anything but letters, digits, '-' and '_' becomes '_'.
std::string statsdComponent(std::string_view text);

// What the StatsD side has sent of each test, so each publication sends the
// counters' increments and a finished test's final lines once.
struct StatsdProgress {
    std::map<std::pair<std::size_t, std::size_t>, std::pair<std::uint64_t, std::uint64_t>> sent;   // (test, command) → requests, errors
    std::set<std::size_t> finalSent;     // tests whose final lines went out
};

// The lines of one publication: for the running test and every test finished
// since the last one, per command the increments of requests and errors as
// counters (`|c`: they add up, across machines too) and its rates and
// latencies as gauges; for a finished test, once, its final figures
// (`test_requests`, `test_latency_p99_ms`, …, `test_finished:1`). `progress`
// is updated.
std::vector<std::string> statsdLines(const LiveMetrics& metrics, StatsdTags tags, StatsdProgress& progress,
                                     std::string_view prefix = "tacho.");

// Lines packed into datagrams of at most `maxBytes` (a line longer than that
// goes alone), newline-separated as StatsD servers read them.
std::vector<std::string> statsdDatagrams(const std::vector<std::string>& lines, std::size_t maxBytes = 1400);

} // namespace tacho::engine
