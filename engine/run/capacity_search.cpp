// The capacity search (capacity_search.h): steps up from the range's start
// until a step fails the objective, then bisects near the knee; its
// verdicts and result. Its options are checked in capacity_options.cpp, its
// steps run on the engine in capacity_step_runner.cpp.
#include "engine/run/capacity_search.h"
#include "engine/text/number_format.h"
#include "engine/resp/printable_text.h"
#include "engine/run/capacity_text.h"

#include <algorithm>
#include <cmath>

namespace tacho::engine {

using namespace capacity_detail;

namespace {

std::string grouped(double value, int decimals = 0) { return groupedThousands(value, decimals); }

std::string settingText(CapacityDimension dimension, double setting)
{
    return capacitySettingText(dimension, setting);
}

double relativeDifference(double a, double b)
{
    const double high = std::max(std::fabs(a), std::fabs(b));
    return high > 0 ? std::fabs(a - b) / high : 0;
}

} // namespace

// ---- verdicts and results ----

const char* capacityVerdictName(CapacityVerdict verdict)
{
    switch (verdict) {
    case CapacityVerdict::Met: return "met";
    case CapacityVerdict::LatencyExceeded: return "latency";
    case CapacityVerdict::RateShortfall: return "shortfall";
    case CapacityVerdict::ServerErrors: return "errors";
    case CapacityVerdict::Failed: return "failed";
    case CapacityVerdict::Stopped: return "stopped";
    }
    return "failed";
}

const char* capacityStopReasonName(CapacityStopReason reason)
{
    switch (reason) {
    case CapacityStopReason::KneeFound: return "knee-found";
    case CapacityStopReason::RangeEnded: return "range-ended";
    case CapacityStopReason::NotMetAtStart: return "not-met-at-start";
    case CapacityStopReason::StepLimit: return "step-limit";
    case CapacityStopReason::Stopped: return "stopped";
    case CapacityStopReason::Failed: return "failed";
    case CapacityStopReason::InvalidOptions: return "invalid-options";
    }
    return "stopped";
}

double CapacityResult::throughputPerDollarHour() const
{
    return options.pricePerHour > 0 && best ? maxThroughput() / options.pricePerHour : 0;
}

std::vector<std::size_t> CapacityResult::curve() const
{
    std::vector<std::size_t> order(steps.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return steps[a].setting < steps[b].setting; });
    return order;
}

std::string CapacityResult::summary() const
{
    const CapacityDimension d = options.dimension;
    const std::string objective = options.objective.describe();
    std::string out;
    if (best) {
        const CapacityStep& b = steps[*best];
        out = "max throughput meeting " + objective + ": " + grouped(b.throughput) + " ops/s at "
            + settingText(d, b.setting) + " (step " + std::to_string(b.number) + ": avg " + msText(b.meanNs) + ", p99 "
            + msText(b.p99Ns) + ", p99.9 " + msText(b.p999Ns) + ")";
        if (nextFailing) {
            const CapacityStep& n = steps[*nextFailing];
            out += "; the next step, " + settingText(d, n.setting) + " (step " + std::to_string(n.number)
                + "), did not: " + n.reason;
        } else if (stopReason == CapacityStopReason::RangeEnded) {
            out += "; the range ended before the objective was crossed";
        }
        out += ".";
        if (options.pricePerHour > 0)
            out += " At $" + number(options.pricePerHour, 4) + "/h: " + grouped(throughputPerDollarHour())
                + " ops/s per $/h.";
    } else {
        out = "no step met " + objective + ".";
    }
    if (!stopDetail.empty())
        out += " " + stopDetail;
    return out;
}

// ---- the search ----

CapacitySearch::CapacitySearch(CapacitySearchOptions options) : m_options(std::move(options)) {}

void CapacitySearch::requestStop()
{
    m_stop.store(true);
    if (CapacityStepRunner* runner = m_runner.load())
        runner->requestStop();
}

double CapacitySearch::nextUp(double setting) const
{
    double next = setting * m_options.growthFactor;
    if (capacityDimensionIsInteger(m_options.dimension))
        next = std::max(setting + 1, std::round(next));
    return std::min(next, m_options.to);
}

double CapacitySearch::midpoint(double low, double high) const
{
    if (capacityDimensionIsInteger(m_options.dimension))
        return std::floor((low + high) / 2);
    const double mid = (low + high) / 2;
    // Whole requests/s where that still splits the interval.
    const double rounded = std::round(mid);
    return rounded > low && rounded < high ? rounded : mid;
}

bool CapacitySearch::converged(double low, double high) const
{
    if (capacityDimensionIsInteger(m_options.dimension))
        return high - low <= 1;
    return high - low <= m_options.resolution * low;
}

CapacityStep CapacitySearch::measureStep(CapacityStepRunner& runner, double setting, std::size_t stepNumber)
{
    CapacityStep step;
    step.number = stepNumber;
    step.setting = setting;
    const double tolerance = m_options.noiseTolerance;

    std::vector<CapacityMeasurement> runs;
    bool settled = false;
    for (int attempt = 1; attempt <= m_options.maxAttempts; ++attempt) {
        if (attempt > 1 && m_stop.load())
            break;
        CapacityMeasurement m = runner.runStep(setting, attempt);
        step.tests.push_back(m.test);
        step.attemptThroughputs.push_back(m.throughput);
        runs.push_back(std::move(m));
        const CapacityMeasurement& run = runs.back();
        if (run.status != RunStatus::Completed) {
            settled = true;   // stopped or failed: nothing to repeat
            break;
        }
        const bool halvesKnown = run.firstHalfThroughput >= 0 && run.secondHalfThroughput >= 0;
        const double halves = halvesKnown ? relativeDifference(run.firstHalfThroughput, run.secondHalfThroughput) : 0;
        bool agrees = false;
        for (std::size_t i = 0; i + 1 < runs.size(); ++i)
            if (runs[i].status == RunStatus::Completed && relativeDifference(runs[i].throughput, run.throughput) <= tolerance)
                agrees = true;
        if (halves <= tolerance + std::max(0.0, run.halvesUncertainty) || agrees) {
            settled = true;
            break;
        }
        if (attempt < m_options.maxAttempts && !m_stop.load() && m_onRepeat) {
            std::string why = "throughput unsteady: " + grouped(run.firstHalfThroughput) + " then "
                + grouped(run.secondHalfThroughput) + " ops/s in its two halves ("
                + number(100 * halves, 0) + "% apart, more than the "
                + number(100 * (tolerance + std::max(0.0, run.halvesUncertainty)), 0) + "% allowed)";
            if (runs.size() > 1)
                why += ", and no earlier run within " + number(100 * tolerance, 0) + "%";
            m_onRepeat(setting, attempt + 1, why);
        }
    }

    // The run the verdict rests on: the last, or when the runs never
    // settled, the one with the median throughput.
    std::size_t kept = runs.size() - 1;
    if (!settled && runs.back().status == RunStatus::Completed) {
        step.noisy = true;
        std::vector<std::size_t> order(runs.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return runs[a].throughput < runs[b].throughput; });
        kept = order[order.size() / 2];
    }
    step.keptAttempt = kept;
    step.attempts = static_cast<int>(runs.size());
    const CapacityMeasurement& run = runs[kept];
    step.targetRate = run.targetRate;
    step.throughput = run.throughput;
    step.seconds = run.seconds;
    step.requests = run.requests;
    step.errors = run.errors;
    step.meanNs = run.latency.mean();
    step.p50Ns = static_cast<double>(run.latency.valueAtPercentile(50));
    step.p99Ns = static_cast<double>(run.latency.valueAtPercentile(99));
    step.p999Ns = static_cast<double>(run.latency.valueAtPercentile(99.9));
    step.maxNs = static_cast<double>(run.latency.max());
    step.objectiveNs = m_options.objective.valueNs(run.latency);

    const LatencyObjective& objective = m_options.objective;
    if (run.status == RunStatus::Stopped) {
        step.verdict = CapacityVerdict::Stopped;
        step.reason = "stopped before the step ended";
    } else if (run.status == RunStatus::Failed) {
        step.verdict = CapacityVerdict::Failed;
        step.reason = "the run failed: " + (run.failure.empty() ? std::string("no reason given") : run.failure);
    } else if (run.errors > m_options.maxErrors) {
        step.verdict = CapacityVerdict::ServerErrors;
        step.reason = "the server answered " + grouped(static_cast<double>(run.errors)) + " requests with errors"
            + (run.firstError.empty() ? std::string() : " (first: " + printable(run.firstError) + ")");
    } else if (run.requests == 0) {
        step.verdict = CapacityVerdict::Failed;
        step.reason = "no replies in " + number(run.seconds, 2) + " s";
    } else if (run.targetRate > 0 && run.throughput < m_options.minAchievedRatio * run.targetRate) {
        step.verdict = CapacityVerdict::RateShortfall;
        step.reason = "achieved " + grouped(run.throughput) + " of the " + grouped(run.targetRate) + " requests/s asked ("
            + number(100 * run.throughput / run.targetRate, 1) + "%, below " + number(100 * m_options.minAchievedRatio, 1)
            + "%); " + objective.statisticName() + " " + msText(step.objectiveNs);
    } else if (step.objectiveNs > objective.limitNs) {
        step.verdict = CapacityVerdict::LatencyExceeded;
        step.reason = objective.statisticName() + " " + msText(step.objectiveNs) + " > " + durationText(objective.limitNs);
    } else {
        step.verdict = CapacityVerdict::Met;
    }
    if (step.noisy) {
        std::string list;
        for (double t : step.attemptThroughputs)
            list += (list.empty() ? "" : ", ") + grouped(t);
        const std::string note = "unsteady: " + std::to_string(runs.size()) + " runs gave " + list
            + " ops/s; judged on the median";
        step.reason = step.reason.empty() ? note : step.reason + "; " + note;
    }
    return step;
}

CapacityResult CapacitySearch::run(CapacityStepRunner& runner)
{
    CapacityResult result;
    result.options = m_options;
    if (auto invalid = validateCapacityOptions(m_options)) {
        result.stopReason = CapacityStopReason::InvalidOptions;
        result.stopDetail = invalid->describe();
        return result;
    }
    m_runner.store(&runner);
    if (m_stop.load())
        runner.requestStop();

    const CapacityDimension d = m_options.dimension;
    const auto updateBest = [&] {
        result.best.reset();
        result.nextFailing.reset();
        for (std::size_t i = 0; i < result.steps.size(); ++i) {
            const CapacityStep& s = result.steps[i];
            if (!s.met())
                continue;
            const CapacityStep* b = result.best ? &result.steps[*result.best] : nullptr;
            if (!b || s.throughput > b->throughput || (s.throughput == b->throughput && s.setting > b->setting))
                result.best = i;
        }
        for (std::size_t i = 0; i < result.steps.size(); ++i) {
            const CapacityStep& s = result.steps[i];
            if (s.met() || s.verdict == CapacityVerdict::Stopped)
                continue;
            if (result.best && s.setting <= result.steps[*result.best].setting)
                continue;
            if (!result.nextFailing || s.setting < result.steps[*result.nextFailing].setting)
                result.nextFailing = i;
        }
    };

    double setting = m_options.from;
    std::optional<double> low;    // highest setting that met the objective
    std::optional<double> high;   // lowest setting that did not
    bool bisecting = false;
    for (;;) {
        if (m_stop.load()) {
            result.stopReason = CapacityStopReason::Stopped;
            result.stopDetail = "Stopped on request after " + std::to_string(result.steps.size()) + " steps.";
            break;
        }
        if (result.steps.size() >= static_cast<std::size_t>(m_options.maxSteps)) {
            result.stopReason = CapacityStopReason::StepLimit;
            result.stopDetail = "Ended at the step limit (" + std::to_string(m_options.maxSteps) + " steps)"
                + (low && high ? ", with the knee between " + settingText(d, *low) + " and " + settingText(d, *high) : "")
                + ".";
            break;
        }
        result.steps.push_back(measureStep(runner, setting, result.steps.size() + 1));
        const CapacityStep& step = result.steps.back();
        updateBest();
        if (m_onStep)
            m_onStep(step, result);

        if (step.verdict == CapacityVerdict::Stopped) {
            result.stopReason = CapacityStopReason::Stopped;
            result.stopDetail = "Stopped on request during step " + std::to_string(step.number) + ".";
            break;
        }
        if (step.met()) {
            low = std::max(low.value_or(setting), setting);
            if (!bisecting) {
                if (setting >= m_options.to) {
                    result.stopReason = CapacityStopReason::RangeEnded;
                    result.stopDetail = "The range ended at " + settingText(d, m_options.to)
                        + " with the objective still met: the knee lies higher.";
                    break;
                }
                setting = nextUp(setting);
                continue;
            }
        } else {
            if (!low) {
                // Only the first step can fail with nothing met below it.
                if (step.verdict == CapacityVerdict::Failed) {
                    result.stopReason = CapacityStopReason::Failed;
                    result.stopDetail = "The first step failed: " + step.reason + ".";
                } else {
                    result.stopReason = CapacityStopReason::NotMetAtStart;
                    result.stopDetail = "The first setting, " + settingText(d, setting)
                        + ", did not meet the objective (" + step.reason + "): start lower.";
                }
                break;
            }
            high = std::min(high.value_or(setting), setting);
            bisecting = true;
        }
        if (converged(*low, *high)) {
            result.stopReason = CapacityStopReason::KneeFound;
            result.stopDetail = "The knee lies between " + settingText(d, *low) + " (met) and " + settingText(d, *high)
                + " (not met).";
            break;
        }
        setting = midpoint(*low, *high);
    }
    m_runner.store(nullptr);
    return result;
}

} // namespace tacho::engine
