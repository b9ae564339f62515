#pragma once
// `tacho-cli report RUN.json… [--html F] [--csv F] [--hgrm DIR]`: reports of
// one run or, with several, of their comparison (the first is the baseline).
// Inputs may be run files or peer files (as for compare). Without an output
// option the summary is printed. PNG and PDF come from the GUI, not from
// here.
//
// Exit status: 0 written, 1 an output could not be written, 2 usage error or
// an input that cannot be read.
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "engine/report/run_file_reader.h"

namespace tacho::engine {

std::string reportUsage();
int runReportCommand(std::span<const std::string> args, std::ostream& out, std::ostream& err);

// One CSV line per test and command per run, with a header:
// run,label,file,source,test,command,requests,errors,seconds,ops_per_sec,
// avg_ms,p50_ms,p95_ms,p99_ms,p999_ms,max_ms,kb_per_sec,cross_check.
// Empty cells where a source does not record the figure.
std::string runsCsv(const std::vector<const LoadedRun*>& runs);

} // namespace tacho::engine
