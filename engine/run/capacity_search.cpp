#include "engine/run/capacity_search.h"
#include "engine/text/number_format.h"
#include "engine/resp/printable_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace tacho::engine {

namespace {

constexpr double kMaxConnections = 100000;
constexpr double kMaxThreads = 1024;
constexpr double kMaxPipeline = 100000;
constexpr double kMaxRate = 1e9;

std::string number(double value, int maxDecimals = 3)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", maxDecimals, value);
    std::string text = buffer;
    if (text.find('.') != std::string::npos) {
        while (!text.empty() && text.back() == '0')
            text.pop_back();
        if (!text.empty() && text.back() == '.')
            text.pop_back();
    }
    return text;
}


std::string grouped(double value, int decimals = 0) { return groupedThousands(value, decimals); }

std::string durationText(double ns)
{
    if (ns >= 1e9)
        return number(ns / 1e9, 6) + " s";
    if (ns >= 1e6)
        return number(ns / 1e6, 6) + " ms";
    if (ns >= 1e3)
        return number(ns / 1e3, 6) + " us";
    return number(ns, 3) + " ns";
}

std::string msText(double ns)
{
    return number(ns / 1e6, 3) + " ms";
}

} // namespace

std::string capacitySettingText(CapacityDimension dimension, double setting)
{
    switch (dimension) {
    case CapacityDimension::Rate:
        return "rate " + grouped(setting, setting < 100 && setting != std::floor(setting) ? 2 : 0) + "/s";
    case CapacityDimension::Connections:
        return grouped(setting) + (setting == 1 ? " connection" : " connections");
    case CapacityDimension::Threads:
        return grouped(setting) + (setting == 1 ? " thread" : " threads");
    case CapacityDimension::Pipeline:
        return "pipeline " + grouped(setting);
    }
    return number(setting);
}

namespace {

std::string settingText(CapacityDimension dimension, double setting)
{
    return capacitySettingText(dimension, setting);
}

double relativeDifference(double a, double b)
{
    const double high = std::max(std::fabs(a), std::fabs(b));
    return high > 0 ? std::fabs(a - b) / high : 0;
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool parseDouble(std::string_view text, double* out)
{
    if (text.empty())
        return false;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (*begin == '+')
        ++begin;
    double value = 0;
    const auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        return false;
    *out = value;
    return true;
}

bool isWhole(double value) { return std::isfinite(value) && value == std::floor(value); }

} // namespace

// ---- dimension, objective ----

const char* capacityDimensionName(CapacityDimension dimension)
{
    switch (dimension) {
    case CapacityDimension::Rate: return "rate";
    case CapacityDimension::Connections: return "connections";
    case CapacityDimension::Threads: return "threads";
    case CapacityDimension::Pipeline: return "pipeline";
    }
    return "rate";
}

bool parseCapacityDimension(std::string_view text, CapacityDimension* out)
{
    for (CapacityDimension d : { CapacityDimension::Rate, CapacityDimension::Connections, CapacityDimension::Threads,
                                 CapacityDimension::Pipeline }) {
        if (text == capacityDimensionName(d)) {
            *out = d;
            return true;
        }
    }
    return false;
}

bool capacityDimensionIsInteger(CapacityDimension dimension)
{
    return dimension != CapacityDimension::Rate;
}

double LatencyObjective::valueNs(const LatencyHistogram& latency) const
{
    return mean ? latency.mean() : static_cast<double>(latency.valueAtPercentile(percentile));
}

std::string LatencyObjective::statisticName() const
{
    if (mean)
        return "avg";
    if (percentile >= 100)
        return "max";
    return "p" + number(percentile, 6);
}

std::string LatencyObjective::describe() const
{
    return statisticName() + " <= " + durationText(limitNs);
}

bool parseLatencyObjective(std::string_view input, LatencyObjective* out, std::string* error)
{
    const auto fail = [&](const std::string& message) {
        if (error)
            *error = message;
        return false;
    };
    std::string text;
    for (char c : input)
        if (c != ' ' && c != '\t')
            text += c;
    const std::string example = "e.g. \"avg<=1ms\" or \"p99<=2ms\"";
    if (text.empty())
        return fail("empty; expected a latency statistic, '<=' and a limit, " + example);
    const std::size_t op = text.find("<=");
    if (op == std::string::npos) {
        if (text.find(">") != std::string::npos)
            return fail("'" + std::string(input) + "' puts a floor under latency; an objective caps it: use '<=', " + example);
        return fail("expected '<=' between the statistic and the limit in '" + std::string(input) + "', " + example);
    }
    const std::string statistic = lower(text.substr(0, op));
    const std::string limit = text.substr(op + 2);

    LatencyObjective objective;
    if (statistic.empty())
        return fail("the statistic before '<=' is missing (avg, or a percentile such as p50, p99, p99.9), " + example);
    if (statistic == "avg" || statistic == "average" || statistic == "mean") {
        objective.mean = true;
    } else if (statistic == "max") {
        objective.mean = false;
        objective.percentile = 100;
    } else if (statistic == "median") {
        objective.mean = false;
        objective.percentile = 50;
    } else if (statistic.front() == 'p') {
        double p = 0;
        if (!parseDouble(statistic.substr(1), &p))
            return fail("'" + statistic + "' is not a latency statistic: use avg, or p followed by a percentile (p50, p99, p99.9)");
        if (!(p > 0) || p > 100)
            return fail("percentile " + number(p, 6) + " is out of range: it must be above 0 and at most 100");
        objective.mean = false;
        objective.percentile = p;
    } else {
        return fail("unknown statistic '" + statistic + "': use avg, or a percentile such as p50, p99, p99.9");
    }

    if (limit.empty())
        return fail("the limit after '<=' is missing, " + example);
    std::size_t unitStart = 0;
    while (unitStart < limit.size()
           && ((limit[unitStart] >= '0' && limit[unitStart] <= '9') || limit[unitStart] == '.' || limit[unitStart] == '-'
               || limit[unitStart] == '+' || limit[unitStart] == 'e' || limit[unitStart] == 'E')) {
        // An exponent's 'e' belongs to the number only when digits follow.
        if ((limit[unitStart] == 'e' || limit[unitStart] == 'E')
            && !(unitStart + 1 < limit.size() && ((limit[unitStart + 1] >= '0' && limit[unitStart + 1] <= '9')
                                                  || limit[unitStart + 1] == '-' || limit[unitStart + 1] == '+')))
            break;
        ++unitStart;
    }
    const std::string digits = limit.substr(0, unitStart);
    const std::string unit = lower(limit.substr(unitStart));
    double value = 0;
    if (!parseDouble(digits, &value))
        return fail("'" + limit + "' is not a latency limit: give a number and a unit, e.g. 1ms or 500us");
    double scale = 0;
    if (unit == "ns")
        scale = 1;
    else if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs")   // µs (micro sign or Greek mu)
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    else if (unit.empty())
        return fail("the limit '" + limit + "' needs a unit: ns, us, ms or s (e.g. " + limit + "ms)");
    else
        return fail("unknown unit '" + limit.substr(unitStart) + "' in '" + limit + "': use ns, us, ms or s");
    if (!(value > 0))
        return fail("the limit must be greater than 0 (got " + limit + ")");
    objective.limitNs = value * scale;
    if (objective.limitNs > static_cast<double>(LatencyHistogram::kHighestNs))
        return fail("the limit " + limit + " is above 60 s, the longest latency Tacho measures");
    *out = objective;
    return true;
}

// ---- options ----

std::optional<CapacityOptionError> validateCapacityOptions(const CapacitySearchOptions& o)
{
    const auto error = [](std::string field, std::string message) {
        return std::optional<CapacityOptionError>(CapacityOptionError { std::move(field), std::move(message) });
    };
    const bool integer = capacityDimensionIsInteger(o.dimension);
    const char* dimension = capacityDimensionName(o.dimension);
    double maximum = kMaxRate;
    switch (o.dimension) {
    case CapacityDimension::Rate: maximum = kMaxRate; break;
    case CapacityDimension::Connections: maximum = kMaxConnections; break;
    case CapacityDimension::Threads: maximum = kMaxThreads; break;
    case CapacityDimension::Pipeline: maximum = kMaxPipeline; break;
    }
    const auto checkBound = [&](const char* field, double value) -> std::optional<CapacityOptionError> {
        if (!std::isfinite(value))
            return error(field, "must be a finite number");
        if (integer && !(value >= 1))
            return error(field, std::string(dimension) + " must be at least 1 (got " + number(value, 6) + ")");
        if (!integer && !(value > 0))
            return error(field, "the rate must be greater than 0 requests/s (got " + number(value, 6) + ")");
        if (!integer && value < 0.001)
            return error(field, "the rate must be at least 0.001 requests/s (got " + number(value, 6) + ")");
        if (integer && !isWhole(value))
            return error(field, std::string(dimension) + " must be a whole number (got " + number(value, 6) + ")");
        if (value > maximum)
            return error(field, std::string(dimension) + " must be at most " + grouped(maximum) + " (got "
                                    + grouped(value, integer ? 0 : 2) + ")");
        return std::nullopt;
    };
    if (auto e = checkBound("from", o.from))
        return e;
    if (auto e = checkBound("to", o.to))
        return e;
    if (o.to < o.from)
        return error("to", number(o.to, 6) + " is below the start of the range (" + number(o.from, 6) + "): the range must go up");

    const LatencyObjective& objective = o.objective;
    if (!objective.mean && (!(objective.percentile > 0) || objective.percentile > 100))
        return error("objective", "percentile " + number(objective.percentile, 6)
                                      + " is out of range: it must be above 0 and at most 100");
    if (!(objective.limitNs > 0) || !std::isfinite(objective.limitNs))
        return error("objective", "the limit must be greater than 0");
    if (objective.limitNs > static_cast<double>(LatencyHistogram::kHighestNs))
        return error("objective", "the limit is above 60 s, the longest latency Tacho measures");

    // Seconds become nanoseconds: below a millisecond a step or warm-up is
    // (close to) none at all (issue 15).
    if (!(o.stepSeconds > 0) || !std::isfinite(o.stepSeconds))
        return error("step-seconds", "must be greater than 0 seconds (got " + number(o.stepSeconds, 6) + ")");
    if (o.stepSeconds < 0.001)
        return error("step-seconds", "must be at least 0.001 seconds (got " + number(o.stepSeconds, 6) + ")");
    if (o.stepSeconds > 86400)
        return error("step-seconds", "must be at most a day (86400 s)");
    if (!(o.warmupSeconds >= 0) || !std::isfinite(o.warmupSeconds))
        return error("warmup", "must not be negative (got " + number(o.warmupSeconds, 6) + ")");
    if (o.warmupSeconds > 0 && o.warmupSeconds < 0.001)
        return error("warmup", "must be 0 or at least 0.001 seconds (got " + number(o.warmupSeconds, 6) + ")");
    if (o.warmupSeconds > 86400)
        return error("warmup", "must be at most a day (86400 s)");
    if (!(o.growthFactor > 1) || o.growthFactor > 100)
        return error("growth", "the step-up factor must be above 1 and at most 100 (got " + number(o.growthFactor, 6) + ")");
    if (!(o.resolution > 0) || o.resolution >= 1)
        return error("resolution", "must be above 0 and below 1 (got " + number(o.resolution, 6) + ")");
    if (!(o.minAchievedRatio > 0) || o.minAchievedRatio > 1)
        return error("min-achieved", "must be above 0 and at most 1 (got " + number(o.minAchievedRatio, 6) + ")");
    if (!(o.noiseTolerance > 0) || o.noiseTolerance >= 1)
        return error("noise", "must be above 0 and below 1 (got " + number(o.noiseTolerance, 6) + ")");
    if (o.maxAttempts < 1 || o.maxAttempts > 10)
        return error("attempts", "must be between 1 and 10 (got " + std::to_string(o.maxAttempts) + ")");
    if (o.maxSteps < 1 || o.maxSteps > 1000)
        return error("max-steps", "must be between 1 and 1000 (got " + std::to_string(o.maxSteps) + ")");
    if (!(o.pricePerHour >= 0) || !std::isfinite(o.pricePerHour))
        return error("price-per-hour", "must be a positive amount per hour (got " + number(o.pricePerHour, 6) + ")");
    return std::nullopt;
}

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

// ---- running steps on the engine ----

bool halfThroughputs(const TestResult& test, double tickSeconds, double* first, double* second, double* uncertainty)
{
    const std::vector<IntervalPoint>& points = test.intervals;
    if (points.size() < 2)
        return false;
    const double total = points.back().endSeconds;
    const double middle = total / 2;
    std::size_t split = 1;   // intervals [0, split) form the first half
    double bestDistance = std::fabs(points[0].endSeconds - middle);
    for (std::size_t k = 2; k < points.size(); ++k) {
        const double distance = std::fabs(points[k - 1].endSeconds - middle);
        if (distance < bestDistance) {
            bestDistance = distance;
            split = k;
        }
    }
    const double boundary = points[split - 1].endSeconds;
    if (!(boundary > 0) || !(total - boundary > 0))
        return false;
    std::uint64_t a = 0, b = 0;
    for (std::size_t k = 0; k < points.size(); ++k)
        (k < split ? a : b) += points[k].requests;
    *first = static_cast<double>(a) / boundary;
    *second = static_cast<double>(b) / (total - boundary);
    *uncertainty = tickSeconds * (1 / boundary + 1 / (total - boundary));
    return true;
}

RunControllerStepRunner::RunControllerStepRunner(RunConfig base, CapacityDimension dimension, double stepSeconds,
                                                 double warmupSeconds)
    : m_base(std::move(base)), m_dimension(dimension), m_stepSeconds(stepSeconds), m_warmupSeconds(warmupSeconds)
{
}

RunConfig RunControllerStepRunner::configFor(double setting) const
{
    RunConfig config = m_base;
    config.requests = 0;
    config.durationSeconds = m_stepSeconds;
    config.warmupSeconds = m_warmupSeconds;
    config.loop = false;
    config.idle = false;
    config.rampStartConnections = 0;
    config.rampStep = 0;
    config.rampStepSeconds = 0;
    if (config.tests.size() > 1)
        config.tests.resize(1);
    const int whole = static_cast<int>(std::lround(setting));
    switch (m_dimension) {
    case CapacityDimension::Rate:
        config.rate = setting;
        config.ratePerConnection = 0;
        break;
    case CapacityDimension::Connections:
        config.connections = whole;
        config.threads = std::min(config.threads, whole);
        break;
    case CapacityDimension::Threads:
        config.threads = whole;
        if (m_connectionsPerThread > 0)
            config.connections = whole * m_connectionsPerThread;
        break;
    case CapacityDimension::Pipeline:
        config.pipeline = whole;
        break;
    }
    return config;
}

RunResult RunControllerStepRunner::runConfig(const RunConfig& config)
{
    if (m_stop.load()) {
        RunResult stopped;
        stopped.config = withoutSecrets(config);
        stopped.status = RunStatus::Stopped;
        return stopped;
    }
    m_controllers.push_back(std::make_unique<RunController>(config));
    RunController* controller = m_controllers.back().get();
    if (m_onSnapshot)
        controller->onSnapshot(m_onSnapshot);
    m_current.store(controller);
    // A stop that arrived while the controller was being made.
    if (m_cancel.load())
        controller->requestCancel();
    else if (m_stop.load())
        controller->requestStop();
    RunResult result = controller->run();
    if (!m_hasEnvironment) {
        m_environment = result.environment;
        m_hasEnvironment = !result.environment.serverInfo.empty();
    }
    return result;
}

std::vector<TestResult> RunControllerStepRunner::takeStepTests()
{
    std::vector<TestResult> tests;
    tests.reserve(m_stepTests.size());
    for (const std::shared_ptr<TestResult>& test : m_stepTests)
        tests.push_back(std::move(*test));
    m_stepTests.clear();
    return tests;
}

CapacityMeasurement RunControllerStepRunner::runStep(double setting, int attempt)
{
    RunConfig config = configFor(setting);
    if (!config.tests.empty())
        config.tests.front().name = capacitySettingText(m_dimension, setting)
            + (attempt > 1 ? " (attempt " + std::to_string(attempt) + ")" : std::string());
    RunResult result = runConfig(config);
    CapacityMeasurement m;
    m.status = result.status;
    m.failure = result.failure;
    if (result.tests.empty()) {
        if (m.status == RunStatus::Completed)
            m.status = m_stop.load() ? RunStatus::Stopped : RunStatus::Failed;
        if (m.status == RunStatus::Failed && m.failure.empty())
            m.failure = "the step did not run";
        return m;
    }
    TestResult& test = result.tests.front();
    if (test.status != RunStatus::Completed) {
        m.status = test.status;
        if (!test.failure.empty())
            m.failure = test.failure;
    }
    m.seconds = test.seconds;
    m.requests = test.requests;
    m.errors = test.errors;
    if (!test.firstErrors.empty())
        m.firstError = test.firstErrors.front();
    m.targetRate = test.targetRate;
    m.throughput = test.requestsPerSecond();
    double first = 0, second = 0, uncertainty = 0;
    if (halfThroughputs(test, config.tickSeconds, &first, &second, &uncertainty)) {
        m.firstHalfThroughput = first;
        m.secondHalfThroughput = second;
        m.halvesUncertainty = uncertainty;
    }
    m.latency = test.latency.clone();
    auto shared = std::make_shared<TestResult>(std::move(test));
    m_stepTests.push_back(shared);
    m.test = shared;
    return m;
}

void RunControllerStepRunner::requestStop()
{
    m_stop.store(true);
    if (RunController* controller = m_current.load())
        controller->requestStop();
}

void RunControllerStepRunner::requestCancel()
{
    m_cancel.store(true);
    m_stop.store(true);
    if (RunController* controller = m_current.load())
        controller->requestCancel();
}

} // namespace tacho::engine
