#include "engine/cli/shared_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "engine/cli/usage_error.h"
#include "engine/report/atomic_file.h"
#include "engine/report/run_file.h"
#include "engine/run/key_cleanup.h"
#include "engine/run/server_probe.h"

namespace tacho::engine {

std::uint64_t parseBoundedInteger(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max,
                                  std::string_view noun)
{
    const std::string name(option);
    const auto digits = [](std::string_view t) {
        return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const auto rangeError = [&] {
        std::string message = name + ": ";
        if (max == kNoMaximum)
            message += "must be at least " + std::to_string(min);
        else
            message += "must be between " + std::to_string(min) + " and " + std::to_string(max);
        return UsageError(message + " (got " + std::string(text) + ")");
    };
    const auto notANumber = [&] { return UsageError(name + ": '" + std::string(text) + "' is not " + std::string(noun)); };
    if (text.size() > 1 && text.front() == '-' && digits(text.substr(1)))
        throw rangeError();
    if (!digits(text))
        throw notANumber();
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range)   // beyond 64 bits: "must be at least 0" would be nonsense
        throw UsageError(name + ": " + std::string(text) + " is too large (at most " + std::to_string(max) + ")");
    if (ec != std::errc() || end != text.data() + text.size())
        throw notANumber();
    if (value < min || value > max)
        throw rangeError();
    return value;
}

int replyTimeoutMs(const std::string& option, double seconds, const std::string& text)
{
    if (!(seconds >= 0 && seconds <= 3600))
        throw UsageError(option + ": must be between 0 and 3600 seconds (got " + text + ")");
    const double ms = std::round(seconds * 1000);
    if (seconds > 0 && ms < 1)
        throw UsageError(option + ": must be at least 0.001 seconds, or 0 to wait forever (got " + text + ")");
    return static_cast<int>(ms);
}

namespace {

// "0.001" rather than "0.001000", "31536000" rather than "3.1536e+07".
std::string plainNumber(double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.15g", value);
    return buffer;
}

} // namespace

double checkedDuration(const std::string& option, double seconds, const std::string& text, bool zeroAllowed)
{
    if ((zeroAllowed && seconds == 0) || (seconds >= kMinDurationSeconds && seconds <= kMaxDurationSeconds))
        return seconds;
    if (zeroAllowed && seconds < 0)
        throw UsageError(option + ": must not be negative (got " + text + ")");
    if (!zeroAllowed && seconds <= 0)
        throw UsageError(option + ": must be greater than 0 seconds (got " + text + ")");
    throw UsageError(option + ": must be " + (zeroAllowed ? "0 or " : "") + "between " + plainNumber(kMinDurationSeconds)
                     + " and " + plainNumber(kMaxDurationSeconds) + " seconds (365 days) (got " + text + ")");
}

double checkedRate(const std::string& option, double rate, const std::string& text)
{
    if (rate >= kMinRate && rate <= kMaxRate)
        return rate;
    throw UsageError(option + ": must be above 0 (at least " + plainNumber(kMinRate)
                     + ") and at most 1,000,000,000 requests/s (got " + text + ")");
}

void checkRequestsInFlight(std::uint64_t connections, std::uint64_t pipeline, const std::string& what)
{
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(connections, pipeline, &product) || product > kMaxRequestsInFlight)
        throw UsageError(what + " puts more requests in flight at once than the limit of "
                         + std::to_string(kMaxRequestsInFlight) + " (connections x pipeline)");
}

bool checkOutputFiles(const std::vector<OutputFile>& outputs, std::string* error)
{
    for (const OutputFile& output : outputs) {
        std::string why;
        if (!output.path.empty() && !checkWritable(output.path, &why)) {
            *error = std::string(output.option) + ": " + why;
            return false;
        }
    }
    return true;
}

int cleanUpAfterRun(const RunConfig& config, std::ostream& report, const std::string& runFile, std::ostream& err,
                    const std::atomic<int>* interrupts)
{
    // The run's own Ctrl+C (or the stop that ended it) came before: only a new one stops the clean-up.
    const int before = interrupts ? interrupts->load() : 0;
    const auto stop = [interrupts, before] { return interrupts && interrupts->load() > before; };
    const CleanupResult result = removeKeysMatching(config, cleanupPatterns(config), stop);
    report << describeCleanup(result) << "\n" << std::flush;
    int status = result.completed() ? 0 : 1;
    std::string error;
    if (!runFile.empty() && !addRunFileSection(runFile, "cleanup", cleanupToJson(result), &error)) {
        err << error << "\n" << std::flush;
        status = 1;
    }
    return status;
}

std::string withAuthAdvice(std::string message, std::string_view advice)
{
    if (const std::size_t at = message.find(kAuthAdvice); at != std::string::npos)
        message.replace(at, kAuthAdvice.size(), advice);
    return message;
}

} // namespace tacho::engine
