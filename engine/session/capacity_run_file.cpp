// The capacity search's run file: every run of every step as a test, and
// its "capacity" section.
#include "engine/session/capacity_run_file.h"

#include "engine/report/json_writer.h"
#include "engine/report/run_file.h"

namespace tacho::engine {

namespace {

void writeStep(JsonWriter& w, const CapacityStep& s, const std::vector<std::optional<std::size_t>>& testIndexes)
{
    w.beginObject();
    w.field("number", s.number);
    w.field("setting", s.setting);
    w.field("verdict", capacityVerdictName(s.verdict));
    w.field("met", s.met());
    w.field("reason", s.reason);
    w.field("attempts", s.attempts);
    w.field("noisy", s.noisy);
    w.key("attemptThroughputs").beginArray();
    for (double t : s.attemptThroughputs)
        w.value(t);
    w.endArray();
    w.field("targetRate", s.targetRate);
    w.field("throughput", s.throughput);
    w.field("seconds", s.seconds);
    w.field("requests", s.requests);
    w.field("errors", s.errors);
    w.field("avgMs", s.meanNs / 1e6);
    w.field("p50Ms", s.p50Ns / 1e6);
    w.field("p99Ms", s.p99Ns / 1e6);
    w.field("p999Ms", s.p999Ns / 1e6);
    w.field("maxMs", s.maxNs / 1e6);
    w.field("objectiveMs", s.objectiveNs / 1e6);
    // Indexes into the run file's "tests": every run of the step, and the one judged.
    w.key("tests").beginArray();
    for (const auto& index : testIndexes) {
        if (index)
            w.value(*index);
        else
            w.null();
    }
    w.endArray();
    if (s.keptAttempt < testIndexes.size() && testIndexes[s.keptAttempt])
        w.field("test", *testIndexes[s.keptAttempt]);
    else
        w.key("test").null();
    w.endObject();
}

} // namespace

std::string capacitySectionJson(const CapacityResult& r, const std::vector<std::vector<std::optional<std::size_t>>>& testIndexes,
                                std::optional<std::size_t> preloadTest, const std::string& workloadLine)
{
    const CapacitySearchOptions& o = r.options;
    JsonWriter w(2);
    w.beginObject();
    w.field("dimension", capacityDimensionName(o.dimension));
    w.field("from", o.from);
    w.field("to", o.to);
    w.key("objective").beginObject();
    w.field("text", o.objective.describe());
    w.field("statistic", o.objective.statisticName());
    if (o.objective.mean)
        w.key("percentile").null();
    else
        w.field("percentile", o.objective.percentile);
    w.field("limitMs", o.objective.limitNs / 1e6);
    w.endObject();
    w.field("stepSeconds", o.stepSeconds);
    w.field("warmupSeconds", o.warmupSeconds);
    w.field("growthFactor", o.growthFactor);
    w.field("resolution", o.resolution);
    w.field("minAchievedRatio", o.minAchievedRatio);
    w.field("noiseTolerance", o.noiseTolerance);
    w.field("maxAttempts", o.maxAttempts);
    w.field("maxErrors", o.maxErrors);
    w.field("maxSteps", o.maxSteps);
    w.field("workload", workloadLine);
    w.field("stopReason", capacityStopReasonName(r.stopReason));
    w.field("stopDetail", r.stopDetail);
    w.field("summary", r.summary());
    w.field("maxThroughput", r.maxThroughput());
    if (o.pricePerHour > 0) {
        w.field("pricePerHour", o.pricePerHour);
        w.field("throughputPerDollarHour", r.throughputPerDollarHour());
    } else {
        w.key("pricePerHour").null();
        w.key("throughputPerDollarHour").null();
    }
    if (r.best)
        w.field("bestStep", r.steps[*r.best].number);
    else
        w.key("bestStep").null();
    if (r.nextFailing)
        w.field("nextFailingStep", r.steps[*r.nextFailing].number);
    else
        w.key("nextFailingStep").null();
    if (preloadTest)
        w.field("preloadTest", *preloadTest);
    else
        w.key("preloadTest").null();
    w.key("steps").beginArray();
    for (std::size_t i = 0; i < r.steps.size(); ++i)
        writeStep(w, r.steps[i], i < testIndexes.size() ? testIndexes[i] : std::vector<std::optional<std::size_t>> {});
    w.endArray();
    w.key("curve").beginArray();   // step numbers by setting
    for (std::size_t index : r.curve())
        w.value(r.steps[index].number);
    w.endArray();
    w.endObject();
    return w.str();
}


RunResult capacityRunFile(const CapacityResult& result, RunControllerStepRunner& runner, std::optional<RunResult> preload,
                          const std::string& workloadLine, bool searched, std::string* section)
{
    const CapacitySearchOptions& o = result.options;
    RunResult file;
    file.config = withoutSecrets(runner.configFor(o.from));
    std::optional<std::size_t> preloadIndex;
    if (preload) {
        file.environment = preload->environment;
        if (!preload->tests.empty()) {
            preloadIndex = file.tests.size();
            file.tests.push_back(std::move(preload->tests.front()));
        }
    }
    if (runner.hasEnvironment() || !preload)
        file.environment = runner.environment();
    // Where every run of every step lands in "tests".
    const std::size_t offset = file.tests.size();
    std::vector<std::vector<std::optional<std::size_t>>> indexes;
    const auto& stepTests = runner.stepTests();
    for (const CapacityStep& step : result.steps) {
        std::vector<std::optional<std::size_t>> runs;
        for (const auto& test : step.tests) {
            std::optional<std::size_t> index;
            for (std::size_t k = 0; test && k < stepTests.size(); ++k)
                if (stepTests[k].get() == test.get())
                    index = offset + k;
            runs.push_back(index);
        }
        indexes.push_back(std::move(runs));
    }
    *section = capacitySectionJson(result, indexes, preloadIndex, workloadLine);
    for (TestResult& test : runner.takeStepTests())
        file.tests.push_back(std::move(test));
    if (preload && preload->status == RunStatus::Failed) {
        file.status = RunStatus::Failed;
        file.failure = "preload: " + preload->failure;
    } else if (result.stopReason == CapacityStopReason::Failed) {
        file.status = RunStatus::Failed;
        file.failure = result.stopDetail;
    } else if (result.stopReason == CapacityStopReason::Stopped || !searched) {
        file.status = RunStatus::Stopped;
    }
    for (const TestResult& test : file.tests)
        file.totalSeconds += test.connectSeconds + test.warmupSeconds + test.seconds;
    return file;
}

} // namespace tacho::engine
