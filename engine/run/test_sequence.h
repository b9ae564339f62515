#pragma once
// Tests run one after the other, taken as one: a capacity step of a
// workload with several tests (redis-benchmark -t set,get) runs them all at
// the step's setting, and is judged on them together, as the whole run's
// figures are (report/run_figures.h): counts summed over the summed measured
// seconds, latency histograms merged, each test's commands kept as rows.
#include <string>
#include <vector>

#include "engine/run/run_result.h"

namespace tacho::engine {

// One TestResult called `name` from `tests` (in the order run): counts,
// errors by kind and histograms added; intervals put end to end on one time
// axis (without their per-command split); commands listed in order (a
// single-command test as one row named after it); cluster nodes merged by
// address; the cross-check summed (available when every test's was); the
// status the worst of theirs (failed, then stopped), with the first failure.
// Telemetry, per-second and per-client series are not carried over: their
// time axes and verdicts belong to one test each.
TestResult testsInSequence(std::vector<TestResult> tests, std::string name);

// What every combination of tests adds up, one after the other here or side
// by side in a merge (report/merge.h): requests, errors, hits, misses, bytes,
// connection faults, SCAN keys and passes, clamped latencies, warm-up
// requests, errors by kind, and the first distinct messages (at most 5).
void addTestCounters(TestResult& into, const TestResult& from);
// Failed, then stopped, then completed.
RunStatus worseStatus(RunStatus a, RunStatus b);

} // namespace tacho::engine
