// The "capacity" section of a capacity search's run file (run_file_reader.h),
// checked as the run's own sections are: a wrong type, a missing field or a
// step number nothing refers to is a message naming the field.
#include <climits>

#include "engine/report/run_file_node.h"
#include "engine/run/capacity_search.h"

namespace tacho::engine::run_file_detail {

namespace {

// A test index ("tests[2]" of the run file), or null.
std::optional<std::size_t> testIndex(const Node& n, std::size_t testCount)
{
    if (n.value().isNull())
        return std::nullopt;
    const std::uint64_t index = n.uint64();
    if (index >= testCount)
        n.fail("test " + std::to_string(index) + ", but the run has " + std::to_string(testCount) + " tests");
    return std::size_t(index);
}

// A step number (null = none, read as 0).
int stepNumber(const Node& n) { return n.value().isNull() ? 0 : int(n.integer(1, INT_MAX)); }

// A number written as null when absent (a price that was not given).
double optionalAmount(const Node& n, std::string_view key)
{
    auto c = n.get(key);
    return c && !c->value().isNull() ? c->nonNegative() : 0;
}

CapacitySectionStep readStep(const Node& n, std::size_t testCount)
{
    n.object();
    CapacitySectionStep s;
    s.number = int(n.at("number").integer(1, INT_MAX));
    s.setting = n.at("setting").nonNegative();
    s.verdict = n.at("verdict").string();
    optString(n, "reason", s.reason);
    optInt(n, "attempts", s.attempts, 1, INT_MAX);
    optBool(n, "noisy", s.noisy);
    optBool(n, "met", s.met);
    if (auto a = n.get("attemptThroughputs")) {
        a->array();
        for (std::size_t i = 0; i < a->size(); ++i)
            s.attemptThroughputs.push_back(a->item(i).nonNegative());
    }
    optReal(n, "targetRate", s.targetRate);
    optReal(n, "throughput", s.throughput);
    optReal(n, "seconds", s.seconds);
    optUint64(n, "requests", s.requests);
    optUint64(n, "errors", s.errors);
    optReal(n, "avgMs", s.avgMs);
    optReal(n, "p50Ms", s.p50Ms);
    optReal(n, "p99Ms", s.p99Ms);
    optReal(n, "p999Ms", s.p999Ms);
    optReal(n, "maxMs", s.maxMs);
    optReal(n, "objectiveMs", s.objectiveMs);
    if (auto tests = n.get("tests")) {
        tests->array();
        for (std::size_t i = 0; i < tests->size(); ++i)
            s.tests.push_back(testIndex(tests->item(i), testCount));
    }
    if (auto test = n.get("test"))
        s.test = testIndex(*test, testCount);
    return s;
}

} // namespace

CapacitySection readCapacity(const Node& n, std::size_t testCount)
{
    n.object();
    CapacitySection c;
    const Node dimension = n.at("dimension");
    c.dimension = dimension.string();
    CapacityDimension parsed {};
    if (!parseCapacityDimension(c.dimension, &parsed))
        dimension.fail("\"" + Node::clip(c.dimension) + "\" is not a dimension (rate, connections, threads, pipeline)");
    optReal(n, "from", c.from);
    optReal(n, "to", c.to);
    if (auto objective = n.get("objective")) {
        objective->object();
        optString(*objective, "text", c.objective);
        optString(*objective, "statistic", c.statistic);
        if (auto p = objective->get("percentile"); p && !p->value().isNull())
            c.percentile = p->nonNegative();
        optReal(*objective, "limitMs", c.limitMs);
    }
    optReal(n, "stepSeconds", c.stepSeconds);
    optReal(n, "warmupSeconds", c.warmupSeconds);
    optReal(n, "growthFactor", c.growthFactor);
    optReal(n, "resolution", c.resolution);
    optReal(n, "minAchievedRatio", c.minAchievedRatio);
    optReal(n, "noiseTolerance", c.noiseTolerance);
    optInt(n, "maxAttempts", c.maxAttempts, 0, INT_MAX);
    optUint64(n, "maxErrors", c.maxErrors);
    optInt(n, "maxSteps", c.maxSteps, 0, INT_MAX);
    optString(n, "workload", c.workload);
    optString(n, "stopReason", c.stopReason);
    optString(n, "stopDetail", c.stopDetail);
    optString(n, "summary", c.summary);
    optReal(n, "maxThroughput", c.maxThroughput);
    c.pricePerHour = optionalAmount(n, "pricePerHour");
    c.throughputPerDollarHour = optionalAmount(n, "throughputPerDollarHour");
    if (auto preload = n.get("preloadTest"))
        c.preloadTest = testIndex(*preload, testCount);

    const Node steps = n.at("steps").array();
    for (std::size_t i = 0; i < steps.size(); ++i)
        c.steps.push_back(readStep(steps.item(i), testCount));
    // The result names steps by number: each must be one of the steps.
    const auto checkStep = [&](const Node& at, int number) {
        for (const CapacitySectionStep& s : c.steps)
            if (s.number == number)
                return;
        at.fail("step " + std::to_string(number) + " is not among the " + std::to_string(c.steps.size()) + " steps");
    };
    const auto stepReference = [&](std::string_view key, int& out) {
        if (auto ref = n.get(key)) {
            out = stepNumber(*ref);
            if (out != 0)
                checkStep(*ref, out);
        }
    };
    stepReference("bestStep", c.bestStep);
    stepReference("nextFailingStep", c.nextFailingStep);
    if (auto curve = n.get("curve")) {
        curve->array();
        for (std::size_t i = 0; i < curve->size(); ++i) {
            const Node item = curve->item(i);
            c.curve.push_back(int(item.integer(1, INT_MAX)));
            checkStep(item, c.curve.back());
        }
    }
    return c;
}

} // namespace tacho::engine::run_file_detail
