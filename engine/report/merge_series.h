#pragma once
// The series of a merged test (merge.cpp's second half, see merge.h): the sources' intervals summed
// tick by tick on one clock, and their telemetry put side by side on that clock.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/report/run_file_reader.h"

namespace tacho::engine {

// One source's share of a merged test: which run, which of its tests, and where that test
// started on the merged clock.
struct MergePiece {
    const LoadedRun* part;
    std::size_t index;
    double start;   // seconds since the merged origin (the earliest run start)

    const TestResult& test() const { return part->run.tests[index]; }
};

// Fills `merged.intervals` (its commands already merged by name) from the pieces' intervals, each
// put into the common tick (the longest of the sources' median ticks) that holds its midpoint;
// ticks no source reported become zeros. Says in `warnings` what it leaves out. Returns where the
// merged test's time axis starts, in seconds since the merged origin.
double mergeIntervals(const std::vector<MergePiece>& pieces, TestResult& merged, std::vector<std::string>* warnings);

// A merged test's telemetry (issue 19): every load machine's own client telemetry, in source order
// and on the merged time axis that starts at `zero`; the server's once, from the first source that
// sampled it; the verdict of the machine that judged worst, named, with the others' in its reason.
TestTelemetry mergeTelemetry(const std::vector<MergePiece>& pieces, double zero);

} // namespace tacho::engine
