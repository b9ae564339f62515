#include "engine/cli/shared_options.h"

#include <cmath>

#include "engine/cli/usage_error.h"
#include "engine/report/atomic_file.h"
#include "engine/report/run_file.h"
#include "engine/run/key_cleanup.h"
#include "engine/run/server_probe.h"

namespace tacho::engine {

int replyTimeoutMs(const std::string& option, double seconds, const std::string& text)
{
    if (!(seconds >= 0 && seconds <= 3600))
        throw UsageError(option + ": must be between 0 and 3600 seconds (got " + text + ")");
    const double ms = std::round(seconds * 1000);
    if (seconds > 0 && ms < 1)
        throw UsageError(option + ": must be at least 0.001 seconds, or 0 to wait forever (got " + text + ")");
    return static_cast<int>(ms);
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

int cleanUpAfterRun(const RunConfig& config, std::ostream& report, const std::string& runFile, std::ostream& err)
{
    const CleanupResult result = removeKeysMatching(config, cleanupPatterns(config));
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
