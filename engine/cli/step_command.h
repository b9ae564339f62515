#pragma once
// What `tacho-cli capacity` and `tacho-cli sweep` share. Both run a workload,
// given after "--" in redis-benchmark's or memtier_benchmark's words, as a
// series of steps on one RunControllerStepRunner. Here: the workload
// (step_workload.h), the options before "--" both take (--help, --json,
// --csv), the session that owns the runner (its live progress line, error
// lines, files written), and the file writers. Each command keeps its own
// options, lines, tables and run-file section.
#include <atomic>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/cli/fleet_split.h"
#include "engine/cli/step_workload.h"
#include "engine/cli/usage_error.h"
#include "engine/run/capacity_search.h"
#include "engine/config/run_config.h"
#include "engine/run/run_result.h"
#include "engine/text/number_format.h"

namespace tacho::engine {

struct StepCommandIo {
    std::ostream* out = nullptr;
    std::ostream* err = nullptr;
    bool interactive = false;            // standard error is a terminal: live progress line there
    // Called with the runner once it exists and with nullptr before it is
    // destroyed, so a signal handler can stop it (requestStop, then
    // requestCancel; both async-signal-safe).
    std::function<void(RunControllerStepRunner*)> onRunner;
    // The count of stop signals received so far, for steps run on agents.
    const std::atomic<int>* interrupts = nullptr;
};

// ---- options before "--" ----

// One option at a time, "--name value" or "--name=value".
struct OptionReader {
    std::span<const std::string> args;
    std::size_t i = 0;
    std::string name;                    // "--from"
    std::optional<std::string> inlineValue;

    bool next();                         // false past the last word
    std::string value();                 // the option's value; advances past it
    void flag();                         // an option without a value; advances past it
};

struct StepOptions {
    std::string jsonPath;                // --json FILE
    std::string csvPath;                 // --csv FILE
    FleetOptions fleet;                  // --agents, --control: every step on agents
    bool showHelp = false;               // --help, -h: nothing else read
};

// Reads the words before "--": --help (then stops), --json, --csv, --agents and --control here,
// every other option through `own`, which reads its value from the reader
// and returns false for a name it does not know (a usage error). Returns
// the index of "--" in args (args.size() when there is none).
std::size_t readStepOptions(std::span<const std::string> args, StepOptions* options,
                            const std::function<bool(OptionReader&)>& own);

// The workload after the "--" at `separator` (readStepOptions' answer);
// a usage error when there is no "--".
StepWorkload stepWorkloadAfter(std::span<const std::string> args, std::size_t separator);

// The usage error's message (passwords hidden) and where to find help on
// standard error; returns the exit status, 2.
int reportStepUsageError(const std::string& command, const UsageError& error, std::span<const std::string> args,
                         const StepCommandIo& io);

// ---- running steps ----

// One command's runner, announced through StepCommandIo::onRunner for as
// long as it lives, and the lines around its runs.
class StepSession {
public:
    // `command`: "capacity" or "sweep", the prefix of error lines ("tacho-cli sweep: ").
    StepSession(const std::string& command, const StepCommandIo& io, RunConfig base, CapacityDimension dimension,
                double stepSeconds, double warmupSeconds);
    ~StepSession();
    StepSession(const StepSession&) = delete;
    StepSession& operator=(const StepSession&) = delete;

    RunControllerStepRunner& runner() { return m_runner; }
    std::ostream& out() const { return *m_io.out; }
    std::ostream& err() const { return *m_io.err; }

    // On an interactive standard error, each snapshot of every run becomes
    // the live line `line` writes (replacing the one before).
    void showProgress(std::function<std::string(const IntervalSnapshot&)> line);
    // Clears the live line; call it before writing any other line.
    void clearProgress();
    // Runs `config` as it is, then clears the live line.
    RunResult run(const RunConfig& config);
    // From now on every run goes to the agents `fleet` names: the workload's
    // words for it (`settings` set anew), divided among them, their merged
    // run measured as a run here. `workload` outlives the session.
    void runOnAgents(const StepWorkload& workload, const FleetOptions& fleet, const StepSettings& settings);
    // memtier --preload (the workload has one): here, or once across the agents.
    RunResult runPreload(const StepWorkload& workload);

    // "tacho-cli COMMAND: MESSAGE" on standard error.
    void error(const std::string& message) const;
    // Writes `text` to `path` atomically; false after saying why not.
    bool writeFile(const std::string& path, const std::string& text) const;
    // The run file with its extra section `name`; false after saying why not.
    bool writeRunFile(const std::string& path, const RunResult& file, const std::string& name,
                      const std::string& sectionJson) const;

private:
    // The words run on the agents, divided; a failed or stopped run when not every agent completed.
    RunResult runWordsOnAgents(const std::vector<std::string>& words);

    const StepCommandIo& m_io;
    std::string m_prefix;
    RunControllerStepRunner m_runner;
    bool m_progressShown = false;
    const StepWorkload* m_agentsWorkload = nullptr;   // set: runs go to the agents
    FleetOptions m_fleet;
};

} // namespace tacho::engine
