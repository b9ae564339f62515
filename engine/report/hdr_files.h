#pragma once
// HdrHistogram files of a run, for HdrHistogram's own tools
// (HistogramLogProcessor, HdrHistogram plotters): per test and per command of
// a mixed test, a percentile distribution (.hgrm) and an interval log
// (.hlog). The text layouts are memtier_report's (hdrPercentileDistribution,
// hdrIntervalLog), shared with `tacho-cli memtier --hdr-file-prefix`.
//
// A run file keeps the whole test's histogram but none per interval, so the
// .hlog holds one interval spanning the test (start: the run's start time
// plus the connect, warm-up and earlier tests' times).
#include <string>
#include <vector>

#include "engine/report/run_file_reader.h"

namespace tacho::engine {

// A file-name-safe form: letters, digits, '-', '_' and '.' kept, others '_'
// ("LRANGE_100 (first 100 elements)" → "LRANGE_100__first_100_elements_").
std::string safeFileName(const std::string& text);

// Writes DIR/<prefix><test>[_<command>].hgrm and .hlog for every test with
// an exact histogram (tests of peer files without one are skipped and listed
// in *skipped). `prefix` is usually the run's label and '_' when several runs
// share a folder. Creates DIR if missing. Returns false with a message on the
// first file that cannot be written.
bool writeHdrFiles(const LoadedRun& run, const std::string& dir, const std::string& prefix,
                   std::vector<std::string>* written, std::vector<std::string>* skipped, std::string* error);

} // namespace tacho::engine
