#pragma once
// `tacho-cli memtier …`: memtier_benchmark's command line and report on the
// engine. Parses, optionally preloads the key range (--preload, reported
// apart), runs the test (-x times), prints memtier's text report (to
// standard output or -o FILE), and writes --json-out-file, --hdr-file-prefix
// files and Tacho's run file (--json) (memtier_outputs.h).
//
// Exit status: 0 completed or stopped (Ctrl+C), 1 the run failed or a file
// could not be written, 2 usage error (including options not supported yet).
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/cli/memtier_outputs.h"   // MemtierMeasured, writeMemtierOutputs
#include "engine/cli/redis_benchmark_command.h"   // CommandIo

namespace tacho::engine {

struct MemtierInvocation;

int runMemtierCommand(std::span<const std::string> args, const CommandIo& io);

// False with "OPTION: cannot write PATH: …" when one of the line's output
// files cannot be written: checked before a run, so no report is lost after it.
bool checkMemtierOutputFiles(const MemtierInvocation& inv, std::string* error);

} // namespace tacho::engine
