#pragma once
// The capacity suites' synthetic latency model (tests/engine/test_capacity_*.cpp): a step
// runner that answers from a model instead of a server, an open-loop server model, and
// the objective helpers.
#include <QtTest>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/run/capacity_search.h"

namespace tacho::test::capacity_model {

using namespace tacho::engine;

// What the model says one run at a setting gives.
struct Sample {
    double throughput = 0;
    double targetRate = 0;
    double latencyUs = 100;          // the bulk of the requests
    double tailUs = 0;               // 2% of requests at this latency (0: none)
    double firstHalf = -1;           // steadiness within the run
    double secondHalf = -1;
    double uncertainty = 0;
    std::uint64_t errors = 0;
    RunStatus status = RunStatus::Completed;
    std::string failure;
};

class ModelRunner : public CapacityStepRunner {
public:
    explicit ModelRunner(std::function<Sample(double setting, int attempt)> model) : m_model(std::move(model)) {}

    CapacityMeasurement runStep(double setting, int attempt) override
    {
        calls.push_back({ setting, attempt });
        Sample s = m_model(setting, attempt);
        if (stopped)
            s.status = RunStatus::Stopped;
        CapacityMeasurement m;
        m.status = s.status;
        m.failure = s.failure;
        m.seconds = 1;
        m.throughput = s.throughput;
        m.targetRate = s.targetRate;
        m.requests = static_cast<std::uint64_t>(s.throughput);
        m.errors = s.errors;
        if (s.errors)
            m.firstError = "ERR model says no";
        m.firstHalfThroughput = s.firstHalf;
        m.secondHalfThroughput = s.secondHalf;
        m.halvesUncertainty = s.uncertainty;
        const std::uint64_t bulk = s.tailUs > 0 ? 980 : 1000;
        m.latency.recordN(static_cast<std::uint64_t>(s.latencyUs * 1000), bulk);
        if (s.tailUs > 0)
            m.latency.recordN(static_cast<std::uint64_t>(s.tailUs * 1000), 1000 - bulk);
        return m;
    }
    void requestStop() override { stopped = true; }

    std::vector<std::pair<double, int>> calls;
    bool stopped = false;

private:
    std::function<Sample(double, int)> m_model;
};

// An open-loop server with capacity `capacity` requests/s: below it, the
// target is met and latency = base / (1 - load); at or above it, achieved
// throughput is the capacity and latency explodes.
inline Sample openLoopServer(double rate, double capacity = 10000, double baseUs = 90)
{
    Sample s;
    s.targetRate = rate;
    if (rate < capacity) {
        s.throughput = rate;
        s.latencyUs = baseUs / (1 - rate / capacity);
    } else {
        s.throughput = capacity;
        s.latencyUs = 50000;
    }
    return s;
}

inline CapacitySearchOptions rateOptions(double from, double to)
{
    CapacitySearchOptions o;
    o.dimension = CapacityDimension::Rate;
    o.from = from;
    o.to = to;
    return o;   // default objective: avg <= 1 ms
}

inline LatencyObjective objective(const char* text)
{
    LatencyObjective o;
    std::string error;
    if (!parseLatencyObjective(text, &o, &error))
        qFatal("objective %s: %s", text, error.c_str());
    return o;
}

inline std::string objectiveError(const char* text)
{
    LatencyObjective o;
    std::string error;
    if (parseLatencyObjective(text, &o, &error))
        return "(accepted)";
    return error;
}

} // namespace tacho::test::capacity_model
