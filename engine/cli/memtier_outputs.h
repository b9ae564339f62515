#pragma once
// What a memtier line writes once it has measured (memtier_outputs.cpp): memtier's text report
// with Tacho's notes, --json-out-file, --hdr-file-prefix and --client-stats files, Tacho's run
// file (--json) and the --cleanup, whether the line ran here or on agents.
#include <optional>
#include <string>
#include <vector>

#include "engine/cli/redis_benchmark_command.h"   // CommandIo
#include "engine/run/run_result.h"

namespace tacho::engine {

struct MemtierInvocation;

// What a memtier line measured, whether here or merged from agents.
struct MemtierMeasured {
    RunResult result;                  // a test per run (-x)
    std::optional<RunResult> preload;  // --preload's run
    double preloadEnd = 0;             // epoch seconds
    std::vector<double> ends;          // each measured test's end, epoch seconds
};

// memtier's outputs of a measured line: its text report (standard output or
// --out-file) with Tacho's notes, --json-out-file, --hdr-file-prefix files,
// --client-stats files, the run file (--json, unless `runFileWritten` names
// the one written already) and --cleanup. Returns the exit status: `status`,
// or 1 when an output failed.
int writeMemtierOutputs(const MemtierInvocation& inv, MemtierMeasured measured, int status, const CommandIo& io,
                        const std::string& runFileWritten);

} // namespace tacho::engine
