#pragma once
// The bottleneck verdict: a pure function of a test's telemetry and of what
// the test asked for and got, so every branch is testable without a server.
#include <string>

#include "engine/telemetry/telemetry.h"

namespace tacho::engine {

struct VerdictContext {
    double targetRate = 0;       // open loop: requests/s asked for; 0: closed loop
    double achievedRate = 0;     // requests/s measured
    int connections = 0;
    int pipeline = 1;
    int threads = 1;
};

BottleneckVerdict judgeBottleneck(const TestTelemetry& telemetry, const VerdictContext& context,
                                  const VerdictThresholds& thresholds = {});

// "server-bound (server main thread 97% of a core; engine threads ≤ 41%)"
std::string describeVerdict(const BottleneckVerdict& verdict);

} // namespace tacho::engine
