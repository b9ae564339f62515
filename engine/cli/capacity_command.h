#pragma once
// `tacho-cli capacity …`: the highest throughput that meets a latency
// objective, searched over one dimension (CapacitySearch), for a workload
// given in redis-benchmark's or memtier_benchmark's words after "--":
//
//   tacho-cli capacity --dimension rate --from 1000 --to 200k --objective "p99<=2ms"
//       --step-seconds 3 --warmup 1 --price-per-hour 0.68 --json cap.json
//       -- memtier -s 127.0.0.1 -p 6379 --ratio 1:10
//   (one command line)
//
// Prints each step as it completes and the result; --json writes a run file
// (every step's run as a test, plus a "capacity" section), --csv the curve.
//
// Exit status: 0 the search ended (knee found, range ended, objective not
// met at the start, step limit) or was stopped; 1 a run failed or a file
// could not be written; 2 usage error (the message names the option).
//
// Also here, shared with `tacho-cli sweep`: the workload after "--", the
// I/O of commands that run many configurations, and run files with an
// extra section.
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/cli/usage_error.h"
#include "engine/run/capacity_search.h"
#include "engine/run/run_config.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

struct StepCommandIo {
    std::ostream* out = nullptr;
    std::ostream* err = nullptr;
    bool interactive = false;            // standard error is a terminal: live progress line there
    // Called with the runner once it exists and with nullptr before it is
    // destroyed, so a signal handler can stop it (requestStop, then
    // requestCancel; both async-signal-safe).
    std::function<void(RunControllerStepRunner*)> onRunner;
};

// Announces a runner through StepCommandIo::onRunner for as long as it lives
// (capacity and sweep both run steps this way).
class StepRunnerRegistration {
public:
    StepRunnerRegistration(const StepCommandIo& io, RunControllerStepRunner* runner) : m_io(io)
    {
        if (m_io.onRunner)
            m_io.onRunner(runner);
    }
    ~StepRunnerRegistration()
    {
        if (m_io.onRunner)
            m_io.onRunner(nullptr);
    }
    StepRunnerRegistration(const StepRunnerRegistration&) = delete;
    StepRunnerRegistration& operator=(const StepRunnerRegistration&) = delete;

private:
    const StepCommandIo& m_io;
};

// The workload after "--": "redis-benchmark [options] [command…]" or
// "memtier [options]" ("memtier_benchmark" too).
struct StepWorkload {
    std::string dialect;                 // "redis-benchmark" or "memtier"
    std::vector<std::string> args;       // what followed the dialect's name
    RunConfig config;                    // tests filled (memtier: one test over its mix)
    int clientsPerThread = 0;            // memtier: connections = threads × this
    bool allKeys = false;                // memtier -n allkeys
    bool rampGiven = false;              // memtier --clients-start …
    std::optional<RunConfig> preload;    // memtier --preload: fills the key range first

    std::string commandLine() const;     // "redis-benchmark -c 10 DEBUG SLEEP 0.001" (passwords hidden)
};

// Parses the words after "--". Throws UsageError with a message naming the
// option ("workload: …") on a missing or unknown dialect, on the dialect's
// own errors, and on options that write their own outputs (--json, -o, …).
StepWorkload parseStepWorkload(std::span<const std::string> args);

int runCapacityCommand(std::span<const std::string> args, const StepCommandIo& io);
std::string capacityUsage();

// A number with an optional k, M or G suffix ("2.5k" = 2500); false when malformed.
bool parseScaledNumber(const std::string& text, double* out);

// Writes `text` to `path` through a temporary file in the same folder and a
// rename; false with a message naming the path on failure.
bool writeTextFileAtomically(const std::string& path, const std::string& text, std::string* error);

// The run file of `result` with one more top-level member, `name`, holding
// `sectionJson` (a JSON value), written atomically.
bool writeRunFileWithSection(const std::string& path, const RunResult& result, const std::string& name,
                             const std::string& sectionJson, std::string* error);

// The "capacity" section (a JSON object) of `result`: testIndexes[step][run]
// is where each run of each step sits in the run file's "tests"
// (engine/report/run_file_reader.h reads it back as a CapacitySection).
std::string capacitySectionJson(const CapacityResult& result,
                                const std::vector<std::vector<std::optional<std::size_t>>>& testIndexes,
                                std::optional<std::size_t> preloadTest, const std::string& workloadLine);

// The run file of a capacity search: the preload's test (if any), then
// every run of every step as a test, and a "capacity" section (a JSON
// object, in *section) with the options, the steps, the curve and the
// result. `searched` false: the search never started (stopped or failed
// preload). Moves the runner's step tests out (takeStepTests).
RunResult capacityRunFile(const CapacityResult& result, RunControllerStepRunner& runner, std::optional<RunResult> preload,
                          const std::string& workloadLine, bool searched, std::string* section);
// capacityRunFile written atomically to `path`; the section also in *sectionOut when given.
bool writeCapacityRunFile(const std::string& path, const CapacityResult& result, RunControllerStepRunner& runner,
                          std::optional<RunResult> preload, const std::string& workloadLine, bool searched,
                          std::string* error, std::string* sectionOut = nullptr);

} // namespace tacho::engine
