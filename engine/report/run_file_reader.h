#pragma once
// Reading a run back: a "tacho-run/1" file (engine/report/run_file.h) into a
// RunResult, plus what the file states that a RunResult has no place for
// (the exact latency summaries, merged sources). Peer tools' files become the
// same LoadedRun through engine/report/peer_import.h.
//
// Strict and safe: a malformed, truncated or wrong-version file, wrong types
// or out-of-range numbers in the run itself (format, status, config,
// environment, tests) give one message naming the file and the field
// ("run.json: tests[0].requests: expected a non-negative integer, found
// string"); nothing in the input can crash the reader. Unknown fields are
// ignored (files from newer tacho-run/1 writers read); fields a run file has
// always had are required, later additions are optional. The sections added
// beside a run (sources, cleanup, capacity) and unknown top-level sections
// do not fail the file: a damaged one is set aside with its message, an
// unknown one kept as it was (LoadedRun::keptSections).
//
// What a run file does not keep, and so a read RunResult lacks: the
// client-gap histogram (only its avg/p50/p99 are stored), per-interval
// histograms (intervals keep p50/p99/p99.9/max/avg), and the request
// generators (a test's workload comes back as its description only).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/report/json_reader.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

// Figures as a file states them. Empty when the source did not record them.
// Latencies in milliseconds, rates per second.
struct StatedFigures {
    std::optional<double> opsPerSec;
    std::optional<double> avgMs, minMs, p50Ms, p95Ms, p99Ms, p999Ms, maxMs;
    std::optional<double> kbPerSec;
    std::optional<std::uint64_t> requests;
    std::optional<std::uint64_t> errors;
};

// Per test of LoadedRun::run.tests (same index).
struct LoadedTest {
    StatedFigures figures;
    std::vector<StatedFigures> commands;   // per TestResult::commands (same index)
    bool hasHistogram = true;              // TestResult::latency holds the distribution
    bool histogramApproximate = false;     // rebuilt from percentile steps (memtier without HdrHistogram data)
    // Keys each request of this test touches, when the source says so (0 = derive from the command).
    std::uint32_t keysPerRequest = 0;
    std::vector<std::uint32_t> commandKeysPerRequest;   // per command; 0 = derive from its name
};

// Where one part of a merged run came from.
struct RunSource {
    std::string file;
    std::string hostName;
    std::string startedAtUtc;
    std::string toolVersion;
    std::uint64_t requests = 0;
};

// Which parts of the configuration the source recorded (peer files lack some).
struct KnownConfig {
    bool connections = true;
    bool pipeline = true;
    bool valueSize = true;
    bool tls = true;
    bool serverVersion = true;
    bool workload = true;      // test arguments / workload description
    bool endpoint = true;
};

// One step of a capacity search as its run file states it (latencies in ms,
// rates per second).
struct CapacitySectionStep {
    int number = 0;                     // 1-based, in the order run
    double setting = 0;
    std::string verdict;                // capacityVerdictName: met, latency, shortfall, …
    std::string reason;
    int attempts = 1;
    bool noisy = false;
    bool met = false;
    std::vector<double> attemptThroughputs;
    double targetRate = 0, throughput = 0, seconds = 0;
    std::uint64_t requests = 0, errors = 0;
    double avgMs = 0, p50Ms = 0, p99Ms = 0, p999Ms = 0, maxMs = 0, objectiveMs = 0;
    std::vector<std::optional<std::size_t>> tests;   // every run's index in LoadedRun::run.tests
    std::optional<std::size_t> test;                 // the run judged
};

// The "capacity" section of a capacity search's run file
// (engine/cli/capacity_command.h writes it).
struct CapacitySection {
    std::string dimension;              // rate, connections, threads, pipeline
    double from = 0, to = 0;
    std::string objective;              // "avg <= 1 ms"
    std::string statistic;              // "avg", "p99", …
    std::optional<double> percentile;   // none for avg
    double limitMs = 0;
    double stepSeconds = 0, warmupSeconds = 0;
    // The search's tuning (CapacitySearchOptions).
    double growthFactor = 0, resolution = 0, minAchievedRatio = 0, noiseTolerance = 0;
    int maxAttempts = 0, maxSteps = 0;
    std::uint64_t maxErrors = 0;
    std::string workload;
    std::string stopReason, stopDetail, summary;
    double maxThroughput = 0;
    double pricePerHour = 0, throughputPerDollarHour = 0;   // 0 = no price
    int bestStep = 0;                   // step number; 0 = none met the objective
    int nextFailingStep = 0;
    std::optional<std::size_t> preloadTest;
    std::vector<CapacitySectionStep> steps;   // in the order run
    std::vector<int> curve;             // step numbers by setting
};

// A top-level section read apart from the run: damaged (problem says why,
// e.g. "cleanup.removed: 4 keys, but the nodes add up to 3"; the run reads
// without it) or unknown to this build (problem empty; kept for what a newer
// writer meant).
struct KeptSection {
    std::string name;
    JsonValue value;
    std::string problem;
    bool damaged() const { return !problem.empty(); }
};

struct LoadedRun {
    RunResult run;
    std::string path;                       // the file it came from
    std::string label;                      // short name for tables (the file's base name by default)
    std::string format;                     // "tacho-run/1", "redis-benchmark --csv", "memtier_benchmark --json-out-file", …
    std::vector<LoadedTest> tests;          // parallel to run.tests
    KnownConfig known;
    std::vector<std::string> lacks;         // what the source does not record, one phrase each
    std::vector<RunSource> sources;         // a merged run's parts (empty otherwise)
    std::optional<CapacitySection> capacity;   // a capacity search's section
    // The whole run's figures as the file states them ("allTests"); read them
    // through wholeRunFigures (run_figures.h), which computes them when absent.
    std::optional<StatedFigures> allTests;
    std::vector<KeptSection> keptSections;  // damaged and unknown sections, in document order

    // The damaged section called `name`, or null.
    const KeptSection* damagedSection(std::string_view name) const;
};

// Reads the JSON text of a run file. `name` prefixes messages (the path).
// On failure returns false with *error set; `out` is then unspecified.
bool runFileFromJson(std::string_view json, const std::string& name, LoadedRun& out, std::string* error);

// Reads a run file's "cleanup" section on its own (its JSON text), checked as
// runFileFromJson checks it; false with a message when it is not valid.
bool cleanupFromJson(std::string_view json, CleanupResult& out, std::string* error);
// The same for a "capacity" section; its test indexes must be below testCount.
bool capacityFromJson(std::string_view json, std::size_t testCount, CapacitySection& out, std::string* error);

// Reads a run file from disk (at most kMaxRunFileBytes).
bool readRunFile(const std::string& path, LoadedRun& out, std::string* error);

// 256 MiB: a day-long run with per-second intervals is tens of MB; the
// reader needs a few times the file's size besides (issue 15).
inline constexpr std::uint64_t kMaxRunFileBytes = 256ull << 20;

// Reads a whole file into `out`; false with a message naming the path.
bool readTextFile(const std::string& path, std::string& out, std::string* error,
                  std::uint64_t maxBytes = kMaxRunFileBytes);

// A workload known only by its description (read from a file): describe()
// returns it, and its generators send nothing.
std::shared_ptr<const RequestGeneratorFactory> describedWorkload(std::string description);

// "dir/base.json" → "base.json"
std::string fileBaseName(const std::string& path);

// Parses "2026-01-02T03:04:05Z" or with fractional seconds
// ("…05.123Z"); seconds since the epoch, or nullopt.
std::optional<double> parseUtcTimestamp(const std::string& text);
// Formats seconds since the epoch as "2026-01-02T03:04:05.123Z" (milliseconds
// only when not whole).
std::string formatUtcTimestamp(double epochSeconds);

} // namespace tacho::engine
