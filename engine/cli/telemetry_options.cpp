#include "engine/cli/telemetry_options.h"

#include <cstdlib>

#include "engine/cli/usage_error.h"
#include "engine/resp/printable_text.h"
#include "engine/telemetry/bottleneck.h"

namespace tacho::engine {

double telemetryIntervalSeconds(const std::string& option, const std::string& text)
{
    char* end = nullptr;
    const double seconds = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(seconds >= 0.1 && seconds <= 3600))
        throw UsageError(option + ": must be a number of seconds from 0.1 to 3600 (got " + printable(text) + ")");
    return seconds;
}

std::string bottleneckLines(const RunResult& result)
{
    std::string lines;
    for (const TestResult& test : result.tests) {
        if (!test.telemetry.recorded())
            continue;
        lines += "bottleneck: ";
        if (result.tests.size() > 1)
            lines += printable(test.name) + ": ";
        // The reason can quote a server's error reply.
        lines += printable(describeVerdict(test.telemetry.verdict)) + "\n";
    }
    return lines;
}

} // namespace tacho::engine
