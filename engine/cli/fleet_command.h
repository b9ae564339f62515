#pragma once
// A redis-benchmark or memtier line run on several agents as one run (issue 21):
// `tacho-cli redis-benchmark … --agents N|a,b,c --control URL`. The
// coordinator divides the line (fleet_split.h), posts one order per agent on
// the control server with a common start time, waits for every agent's run
// file (an agent whose presence expires is lost), merges them losslessly
// (merge.h) and prints and writes the one result.
//
// Exit status: 0 every agent completed, 1 an agent failed or was lost (the
// others' results are still merged and written), 2 usage error.
#include <optional>
#include <string>
#include <vector>

#include "engine/cli/fleet_split.h"
#include "engine/cli/redis_benchmark_command.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

int runRedisBenchmarkOnAgents(const std::vector<std::string>& args, const FleetOptions& fleet, const CommandIo& io);
// The same for a memtier line (its ALL STATS table for the merged run).
int runMemtierOnAgents(const std::vector<std::string>& args, const FleetOptions& fleet, const CommandIo& io);

// One line ("redis-benchmark" or "memtier" words) run on agents as a step of
// a series (`tacho-cli sweep|capacity … --agents`): divided as above, its
// lines and progress on standard error (messages start with `prefix`), and
// the merged run given back instead of printed. status: 0 every agent
// completed, 1 not, 2 the line cannot be divided (said; nothing ran).
struct FleetStepOutcome {
    int status = 1;
    std::optional<RunResult> run;
};
FleetStepOutcome runStepOnAgents(const std::string& dialect, const std::vector<std::string>& args,
                                 const FleetOptions& fleet, const CommandIo& io, const char* prefix);

} // namespace tacho::engine
