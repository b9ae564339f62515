#pragma once
// memtier_benchmark's command line (as memtier_benchmark 2.x accepts it:
// long options with "=" or a separate value, unambiguous abbreviations,
// short forms), plus Tacho's additions, into a RunConfig and a
// MemtierWorkload.
//
// Defaults are memtier's: 4 threads × 50 clients per thread, 10000 requests
// per client, --ratio 1:10, --key-pattern R:R, --key-prefix "memtier-",
// --key-minimum 0, --key-maximum 10000000, -d 32, pipeline 1, percentiles
// 50,99,99.9. The random seed is constant unless --randomize (memtier's
// reproducible default); every connection draws its own stream.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cli/secrets.h"
#include "engine/cli/usage_error.h"
#include "engine/config/run_config.h"
#include "engine/report/live_metrics.h"
#include "engine/run/run_result.h"
#include "engine/workload/memtier_workload.h"

namespace tacho::engine {

struct MemtierInvocation {
    // connections = threads × clients; requests = per client × connections
    // (0 for --test-time and allkeys); pipelineBatches off (memtier tops the
    // pipeline up per reply).
    // `tests` is left empty: the command fills it.
    RunConfig config;
    MemtierWorkload workload;

    // memtier's own terms, for the report.
    std::uint32_t threads = 4;
    std::uint32_t clientsPerThread = 50;
    std::uint64_t requestsPerClient = 10000;   // 0 with --test-time or allkeys
    double testTimeSeconds = 0;
    std::uint32_t runCount = 1;                // -x
    bool printAllRuns = false;
    std::vector<double> percentiles { 50, 99, 99.9 };
    bool hideHistogram = false;
    bool breakdownByLine = false;              // --command-stats-breakdown=line
    std::uint32_t rateLimitPerConnection = 0;  // --rate-limiting
    std::string server = "localhost";          // as given (-s/-h), for the JSON echo
    std::string uri;                           // -u as given, password removed
    std::string protocolName = "redis";        // -P: redis, resp2, resp3
    std::uint32_t connectionTimeoutSeconds = 0;
    std::uint32_t clientsStart = 0, clientsStep = 0, stepDurationSeconds = 0;
    std::string ratioText = "1:10";            // as memtier echoes them
    std::string keyPatternText = "R:R";
    bool randomize = false;
    bool distinctClientSeed = false;

    // Output.
    std::string outFile;                       // -o: the text report goes there
    std::string jsonOutFile;                   // --json-out-file: memtier's JSON layout
    std::string hdrFilePrefix;                 // --hdr-file-prefix: .hgrm and .hlog files
    std::string jsonPath;                      // --json: Tacho's run file
    LiveMetricsOptions liveMetrics;            // --prometheus-file, --statsd
    bool showConfig = false;
    // --client-stats: one CSV per connection, PREFIX-<run>-<thread>-<client>.csv
    // (engine/report/memtier_client_stats.h).
    std::string clientStatsPrefix;

    // --monitor-input, --monitor-pattern, --data-import and its options, as
    // given; parseMemtierArgs reads the files into `workload`.
    struct InputFiles {
        std::string monitorInput;
        bool monitorRandom = false;            // --monitor-pattern R
        bool monitorPatternGiven = false;
        std::string dataImport;
        bool generateKeys = false;
        bool noExpiry = false;
        // For standard error before the run: what was read, lines skipped.
        std::vector<std::string> notes;
    } inputFiles;

    // Tacho additions.
    bool preload = false;                      // --preload: fill the key range first, reported apart
    std::uint32_t preloadPipeline = 32;        // --preload-pipeline
    bool cleanup = false;                      // --cleanup: remove the run's keys afterwards

    bool showHelp = false;
    bool showVersion = false;
};

// One option of a memtier line, as the parser reads it.
struct MemtierOption {
    std::string name;                    // canonical "--name" (abbreviations and short forms resolved)
    std::string label;                   // as typed, for messages: "-n", "--req"
    std::optional<std::string> value;    // for options that take one
};
// What an option's value names on the machine that runs the line: a file
// it reads (workload input) or writes (a report, a histogram, metrics).
enum class OptionFile { None, Reads, Writes };
// For a canonical name as MemtierOption::name holds it ("--out-file"), from
// the tokenizer's option table; None for unknown names.
OptionFile memtierOptionFile(std::string_view name);
// What an option is for, as the workbench's form reads a pasted line:
// reaching the server (the target's, not the workload's), or shaping only
// what is printed or saved (the form has no field for it).
enum class MemtierOptionRole { None, Target, Report };
// For a canonical name ("--server"), from the same table; None for unknown names.
MemtierOptionRole memtierOptionRole(std::string_view name);

// The options in order, up to and including --help or --version. Throws
// UsageError on unknown or ambiguous options and missing values; values
// are not checked here.
std::vector<MemtierOption> tokenizeMemtierArgs(std::span<const std::string> args);

// The passwords in a memtier line, read with the tokenizer's option table
// (every spelling it accepts); never throws. See secrets.h.
std::vector<SecretSpan> memtierSecretSpans(std::span<const std::string> args);
// Every spelling the tokenizer accepts for a secret-bearing option: short
// forms ("-a") and each unambiguous prefix of the long name ("--au" …
// "--authenticate"), so tests walk them all.
std::vector<std::string> memtierSecretOptionSpellings();

// Every option of the table that writes a file, with the file it writes
// first for `inv` (empty path: not given): what is checked before a run
// (checkMemtierOutputFiles) and what tests walk, so a new output option is
// checked by being marked in the one table.
struct MemtierOutputFile {
    std::string option;   // "--out-file"
    std::string path;
};
std::vector<MemtierOutputFile> memtierOutputFiles(const MemtierInvocation& inv);

// Parses the arguments that follow "memtier". Throws UsageError with a
// message naming the option on unknown options, missing or malformed values,
// out-of-range values, impossible combinations, and options Tacho does not
// support yet ("--cluster-mode: … not supported yet").
MemtierInvocation parseMemtierArgs(std::span<const std::string> args);

// Reads --monitor-input and --data-import for parseMemtierArgs
// (memtier_input_options.cpp): expands __monitor_lineN__ / __monitor_line@__
// in the --commands, loads the items, checks the options that go with them.
// Throws UsageError naming the file, line and fault.
void applyMemtierInputFiles(MemtierInvocation& inv, bool dataSizeGiven);

// The preload run of --preload: every key of the range SET once (P:P,
// allkeys), at least --preload-pipeline deep, no time limit, rate or ramp.
RunConfig memtierPreloadConfig(const MemtierInvocation& inv);
// Names a test as memtierPreloadConfig names its one ("PRELOAD", counted as
// the server's "set"): a preload merged from agents reads as one run here.
void nameAsMemtierPreload(TestResult& test);

// What memtier prints as "Requests per client": -n as given, or for
// -n allkeys the most keys any connection writes (P slices differ by at
// most one key; other patterns walk the whole range).
std::uint64_t memtierRequestsPerClient(const MemtierInvocation& inv);

std::string memtierUsage();   // the --help text

} // namespace tacho::engine
