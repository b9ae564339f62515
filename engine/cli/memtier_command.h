#pragma once
// `tacho-cli memtier …`: memtier_benchmark's command line and report on the
// engine. Parses, optionally preloads the key range (--preload, reported
// apart), runs the test (-x times), prints memtier's text report (to
// standard output or -o FILE), and writes --json-out-file, --hdr-file-prefix
// files and Tacho's run file (--json).
//
// Exit status: 0 completed or stopped (Ctrl+C), 1 the run failed or a file
// could not be written, 2 usage error (including options not supported yet).
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/cli/redis_benchmark_command.h"   // CommandIo
#include "engine/run/run_result.h"

namespace tacho::engine {

struct MemtierInvocation;

int runMemtierCommand(std::span<const std::string> args, const CommandIo& io);

// False with "OPTION: cannot write PATH: …" when one of the line's output
// files cannot be written: checked before a run, so no report is lost after it.
bool checkMemtierOutputFiles(const MemtierInvocation& inv, std::string* error);

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
