#pragma once
// The workload of a series of runs (capacity, sweep, the workbench's pasted
// lines): "redis-benchmark [options] [command…]" or "memtier [options]",
// parsed by the dialects' own parsers into a RunConfig, with the words to
// run one step of it on agents.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/cli/usage_error.h"
#include "engine/config/run_config.h"

namespace tacho::engine {

// Which settings of a step its words carry (StepWorkload::wordsFor).
struct StepSettings {
    bool connections = false;            // and the threads that carry them
    bool threads = false;
    bool pipeline = false;
    bool rate = false;
    bool duration = false;               // the step's length replaces the workload's -n / --requests
    bool warmup = false;
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
    // The dialect's words that run `step` (a step's or a row's configuration
    // of this workload) on agents, which take words, not a RunConfig: the
    // settings `which` names set anew, the rest as given. Throws UsageError
    // for what the dialect's words cannot say (memtier: a warm-up).
    std::vector<std::string> wordsFor(const RunConfig& step, const StepSettings& which) const;
    // memtier --preload as words of its own (fleet_split.h: memtierPreloadLine).
    std::vector<std::string> preloadWords() const;
};

// Throws UsageError when `words` cannot be divided among `agents` agents.
void checkWordsOnAgents(const StepWorkload& workload, const std::vector<std::string>& words, int agents);

// Parses the words after "--". Throws UsageError with a message naming the
// option ("workload: …") on a missing or unknown dialect, on the dialect's
// own errors, and on options that write their own outputs (--json, -o, …).
StepWorkload parseStepWorkload(std::span<const std::string> args);

} // namespace tacho::engine
