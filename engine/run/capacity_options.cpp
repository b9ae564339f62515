// What a capacity search is asked (capacity_search.h): the dimension, the
// latency objective and the options, checked; and the number text the
// search's messages share (capacity_text.h). The search itself is in
// capacity_search.cpp, its steps on the engine in capacity_step_runner.cpp.
#include "engine/run/capacity_search.h"
#include "engine/text/number_format.h"
#include "engine/run/capacity_text.h"

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

std::string grouped(double value, int decimals = 0) { return groupedThousands(value, decimals); }

} // namespace

namespace capacity_detail {

std::string number(double value, int maxDecimals)
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

} // namespace capacity_detail

using namespace capacity_detail;

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

} // namespace tacho::engine
