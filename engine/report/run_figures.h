#pragma once
// The whole run's figures, computed here and nowhere else: the workbench's
// headline cards and top strip, History's columns, the "All tests" row of a
// CSV and the run file's "allTests" section all read them from here.
//
// All tests together means the tests' requests, errors and bytes summed over
// their measured seconds, and latency from the tests' histograms merged:
// percentiles of the merged distribution (never the worst test's, never one
// test's p50 beside another's p99), avg weighted by requests, min and max
// over the tests. A one-test run's figures are that test's.
#include "engine/report/run_file_reader.h"

namespace tacho::engine {

// From a run's own histograms (ns, exact), as it ends. Latency stays empty
// when no test has an answered request; counts are always set.
StatedFigures wholeRunFigures(const RunResult& run);

// From a file: the "allTests" figures it states (this build writes them from
// the exact histograms), else computed from its tests as above. Latency stays
// empty when a test with replies has no usable histogram (a peer's file with
// summaries only) and it is not the only such test; counts and rates stay
// empty for formats that do not count requests (redis-benchmark's CSV).
StatedFigures wholeRunFigures(const LoadedRun& run);

} // namespace tacho::engine
