#pragma once
// `tacho-cli sweep …`: the same workload at a list of settings, one table
// row per setting (and test), as published benchmark tables show them:
//
//   tacho-cli sweep --connections 1000,3000,10000 --tls-both --tls-port 6380
//       --duration 30 --csv sweep.csv -- memtier -s 10.0.0.5 -p 6379 --ratio 1:0 -d 32 --cacert ca.crt
//   (one command line)
//
// Settings: --connections, --threads, --pipeline, --rate (each a comma
// separated list; several lists run every combination, the first listed
// dimension varying slowest), and --tls-both (every combination without TLS,
// then with). Rows go to standard error as they finish; the table goes to
// standard output at the end; --csv and --json write it to files.
//
// Exit status: 0 every row ran (or Ctrl+C stopped the sweep), 1 a row failed
// or a file could not be written, 2 usage error (the message names the option).
#include <span>
#include <string>

#include "engine/cli/step_command.h"

namespace tacho::engine {

int runSweepCommand(std::span<const std::string> args, const StepCommandIo& io);
std::string sweepUsage();

} // namespace tacho::engine
