#pragma once
// Control-plane reads of the target server and of this machine, for the
// run's environment and the commandstats cross-check.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/net/sync_client.h"
#include "engine/run/run_result.h"

namespace tacho::engine {

struct CommandStat {
    std::uint64_t calls = 0;
    std::uint64_t rejectedCalls = 0;
    std::uint64_t failedCalls = 0;
    std::uint64_t usec = 0;              // the server's time in the command, in all
    // INFO latencystats (Redis >= 7) as given: "p50=1.003,p99=3.007,p99.9=8.031" (µs).
    std::string latencyPercentiles;
};

// "key:value" lines of an INFO reply (comments and blank lines skipped).
std::map<std::string, std::string> parseInfo(const std::string& text);
// INFO commandstats → "set" → counts ("config|get" keeps its bar).
std::map<std::string, CommandStat> parseCommandStats(const std::string& text);

// What every "requires authentication" message advises. It names no option:
// each command line puts its own in (engine/cli withAuthAdvice), the GUI
// keeps it as it is.
inline constexpr std::string_view kAuthAdvice = "give a password (and a user name if the server uses ACL users)";
// "the server requires authentication (<NOAUTH reply>): <kAuthAdvice>"
std::string describeAuthRequired(const std::string& replyText);

std::optional<std::map<std::string, CommandStat>> readCommandStats(SyncClient& client, std::string* error);

// Tool version, host name, CPU model and count, start time.
void fillLocalEnvironment(Environment& environment);

} // namespace tacho::engine
