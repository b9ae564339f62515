#pragma once
// Issue 19 test helper: a RunResult with telemetry as the engine records it
// (one SET test of 4 s, 1000 requests of 10 µs each, server and load-machine
// points per second), to be written with runResultToJson and read back.
#include <string>

#include "engine/run/run_result.h"

namespace tacho::test {

struct TelemetryRunSpec {
    std::string host = "loadgen-a";
    std::string startedAtUtc = "2024-05-01T10:00:00Z";
    engine::Bottleneck kind = engine::Bottleneck::ServerBound;
    std::string reason = "server main thread 96% of a core; engine threads ≤ 42%";
    std::string advice;
    std::string rate;                          // "held", "not held", "" (closed loop)
    std::string serverUnavailable;             // the second master's refusal ("" = no second master)
    double serverEndSeconds = 6;               // server points every second up to here
    double engineThreadPercent = 41.5;
};

inline engine::RunResult telemetryRun(const TelemetryRunSpec& spec = {})
{
    using namespace engine;
    RunResult run;
    run.environment.hostName = spec.host;
    run.environment.startedAtUtc = spec.startedAtUtc;
    run.environment.toolVersion = "test";
    run.config.connections = 4;
    run.config.threads = 2;
    run.config.endpoint.host = "127.0.0.1";
    run.config.endpoint.port = 7000;
    TestSpec testSpec;
    testSpec.name = "SET";
    testSpec.args = { "SET", "key", "value" };
    run.config.tests.push_back(testSpec);
    run.totalSeconds = 4;

    TestResult test;
    test.name = "SET";
    test.commandStatName = "set";
    test.requests = 1000;
    test.seconds = 4;
    test.latency.recordN(10000, 1000);   // 10 µs each: mean 10 µs
    CommandResult command;
    command.name = "SET";
    command.requests = 1000;
    command.latency.recordN(10000, 1000);
    test.commands.push_back(std::move(command));
    for (int s = 0; s < 4; ++s) {
        IntervalPoint p;
        p.startSeconds = s;
        p.endSeconds = s + 1;
        p.requests = 250;
        p.p50 = p.p99 = p.p999 = p.max = 10000;
        p.mean = 10000;
        test.intervals.push_back(std::move(p));
    }

    TestTelemetry& t = test.telemetry;
    t.intervalSeconds = 1;
    ServerTelemetry server;
    server.address = "127.0.0.1:7000";
    for (double s = -1; s < spec.serverEndSeconds; s += 1) {   // the first is warm-up
        ServerPoint p;
        p.startSeconds = s;
        p.endSeconds = s + 1;
        p.cpuPercent = 97.5;
        p.mainThreadCpuPercent = 96.25;
        p.opsPerSecond = 251;
        p.connectedClients = 5;
        p.blockedClients = 1;
        p.usedMemory = 2 << 20;
        p.usedMemoryRss = 3 << 20;
        p.netInputBytesPerSecond = 2048;
        p.netOutputBytesPerSecond = 1024;
        server.points.push_back(p);
    }
    t.servers.push_back(server);
    if (!spec.serverUnavailable.empty()) {
        ServerTelemetry refused;
        refused.address = "127.0.0.1:7001";
        refused.unavailable = spec.serverUnavailable;
        t.servers.push_back(refused);
    }
    t.client.host = spec.host;
    t.client.cpuCount = 2;
    for (int s = 0; s < 4; ++s) {
        ClientPoint c;
        c.startSeconds = s;
        c.endSeconds = s + 1;
        c.threadCpuPercent = { spec.engineThreadPercent, 12 };
        c.threadWaitPercent = { 2, 0.5 };
        c.rssBytes = 9000000;
        c.hostBusyPercent = 63;
        c.hostStealPercent = 4;
        t.client.points.push_back(c);
    }
    t.commandTimes.push_back(ServerCommandTime { "set", 1000, 1.25, "p50=1.003,p99=2.007" });
    t.verdict.kind = spec.kind;
    t.verdict.rate = spec.rate;
    t.verdict.reason = spec.reason;
    t.verdict.advice = spec.advice;
    t.verdict.thresholds.serverThreadPercent = 85;
    t.verdict.inputs.intervalsJudged = 4;
    t.verdict.inputs.serverHotIntervals = 4;
    t.verdict.inputs.serverBusiestPercent = 96.25;
    t.verdict.inputs.serverBusiestWhat = "main thread of 127.0.0.1:7000";
    t.verdict.inputs.engineThreadMaxPercent = spec.engineThreadPercent;
    t.verdict.inputs.achievedRate = 250;
    t.verdict.inputs.connections = 4;
    t.verdict.inputs.pipeline = 1;
    t.verdict.inputs.threads = 2;
    run.tests.push_back(std::move(test));
    return run;
}

} // namespace tacho::test
