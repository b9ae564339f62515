#pragma once
// What both dialects share of the telemetry (issue 19): --telemetry-interval's
// value, and the verdict lines of the summary.
#include <string>

#include "engine/run/run_result.h"

namespace tacho::engine {

// --telemetry-interval in seconds (decimal, 0.1 to 3600).
double telemetryIntervalSeconds(const std::string& option, const std::string& text);

// "bottleneck: server-bound (…)\n" per test that recorded telemetry (the test
// named when there are several); empty when none did.
std::string bottleneckLines(const RunResult& result);

} // namespace tacho::engine
