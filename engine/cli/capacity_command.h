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
// What it shares with `tacho-cli sweep` (the workload after "--", the
// runner's session, the files) is in step_command.h.
#include <optional>
#include <span>
#include <string>

#include "engine/cli/step_command.h"
#include "engine/session/capacity_run_file.h"
#include "engine/run/capacity_search.h"
#include "engine/config/run_config.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

int runCapacityCommand(std::span<const std::string> args, const StepCommandIo& io);
std::string capacityUsage();

} // namespace tacho::engine
