// Fuzzes the redis-benchmark dialect's command line (engine/cli/redis_benchmark_args.h).
// Input: arguments separated by NUL bytes. Invariants: the parser either
// returns or throws UsageError with a message (nothing else escapes); a
// parsed invocation exported as "Copy as command line" parses again without
// complaint and exports to the very same arguments.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/cli/command_line.h"
#include "engine/cli/redis_benchmark_args.h"
#include "fuzz_check.h"

using namespace tacho::engine;

namespace {

RedisBenchmarkInvocation parse(const std::vector<std::string>& args)
{
    return parseRedisBenchmarkArgs(std::span<const std::string>(args), [] { return std::string("stdin-value"); });
}

std::string joined(const std::vector<std::string>& args)
{
    return toShellCommandLine(args);
}

// A valid -d makes every built-in command hold a value of that size (the
// whole suite, ~16 copies; MSET alone 10, as in redis-benchmark): up to
// 8 GiB at the 512 MiB limit, legitimately, and four suites per input here,
// past libFuzzer's memory limit. The round trip does not depend on the
// size, so a -d above 64 KiB is fuzzed as 64 KiB; out-of-range and malformed
// values still reach the parser as they are.
void boundValueSizes(std::vector<std::string>& args)
{
    constexpr std::uint64_t kLargest = 64 * 1024;
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
        const std::string& value = args[i + 1];
        if (args[i] != "-d" || value.empty() || value.size() > 9
            || value.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const std::uint64_t size = std::stoull(value);
        if (size > kLargest && size <= 512ull * 1024 * 1024)
            args[i + 1] = std::to_string(kLargest);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::vector<std::string> args = tacho::fuzz::splitArgs(tacho::fuzz::asText(data, size));
    boundValueSizes(args);
    RedisBenchmarkInvocation invocation;
    try {
        invocation = parse(args);
    } catch (const UsageError& error) {
        FUZZ_CHECK(*error.what() != '\0', "a usage error without a message");
        return 0;
    }
    if (invocation.showHelp || invocation.showVersion)
        return 0;
    FUZZ_CHECK(invocation.config.connections > 0, joined(args));
    FUZZ_CHECK(invocation.config.pipeline > 0, joined(args));

    const std::vector<std::string> exported = toRedisBenchmarkArgs(invocation);
    RedisBenchmarkInvocation again;
    try {
        again = parse(exported);
    } catch (const UsageError& error) {
        FUZZ_CHECK(false, joined(args) + " exported as " + joined(exported) + " is rejected: " + error.what());
    }
    FUZZ_CHECK(toRedisBenchmarkArgs(again) == exported,
               joined(args) + " exported as " + joined(exported) + " exports differently the second time");
    return 0;
}
