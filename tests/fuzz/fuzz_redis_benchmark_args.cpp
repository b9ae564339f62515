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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::vector<std::string> args = tacho::fuzz::splitArgs(tacho::fuzz::asText(data, size));
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
