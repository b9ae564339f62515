// Fuzzes the memtier_benchmark dialect's command line (engine/cli/memtier_args.h).
// Input: arguments separated by NUL bytes. Invariants: the parser either
// returns or throws UsageError with a message; a parsed invocation describes
// a runnable configuration (at least one connection, a positive pipeline,
// connections = threads × clients, a key range in order) and its --preload
// configuration can be built; each request a generator writes for the
// workload is exactly one well-formed RESP command (an array of bulk strings
// naming one of the factory's commands).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/cli/command_line.h"
#include "engine/cli/memtier_args.h"
#include "engine/resp/resp_value.h"
#include "engine/workload/memtier_generator_factory.h"
#include "fuzz_check.h"

using namespace tacho::engine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::vector<std::string> args = tacho::fuzz::splitArgs(tacho::fuzz::asText(data, size));
    MemtierInvocation invocation;
    try {
        invocation = parseMemtierArgs(std::span<const std::string>(args));
    } catch (const UsageError& error) {
        FUZZ_CHECK(*error.what() != '\0', "a usage error without a message");
        return 0;
    }
    if (invocation.showHelp || invocation.showVersion)
        return 0;
    const std::string line = toShellCommandLine(args);
    const RunConfig& config = invocation.config;
    FUZZ_CHECK(config.connections > 0, line);
    FUZZ_CHECK(config.pipeline > 0, line);
    FUZZ_CHECK(static_cast<std::uint64_t>(config.connections)
                   == std::uint64_t(invocation.threads) * invocation.clientsPerThread,
               line);
    FUZZ_CHECK(invocation.workload.keys.minimum <= invocation.workload.keys.maximum, line);
    if (invocation.preload) {
        const RunConfig preload = memtierPreloadConfig(invocation);
        FUZZ_CHECK(preload.connections > 0 && preload.pipeline > 0, line);
    }
    // Values are built once per generator: keep huge -d out of the fuzzer's memory limit.
    if (invocation.workload.values.largestSize() > (1u << 20))
        return 0;
    const MemtierGeneratorFactory factory(invocation.workload);
    const std::size_t commands = factory.commandNames().size();
    const std::size_t connections = static_cast<std::size_t>(config.connections);
    for (const std::size_t index : { std::size_t(0), connections - 1 }) {
        const std::unique_ptr<RequestGenerator> generator = factory.create(index, connections, 1);
        std::string out;
        for (int i = 0; i < 8; ++i) {
            const std::size_t before = out.size();
            const std::uint32_t command = generator->appendNext(out);
            if (command == RequestGenerator::kExhausted) {
                FUZZ_CHECK(out.size() == before, line + ": bytes written by an exhausted generator");
                break;
            }
            FUZZ_CHECK(command < commands, line + ": command index out of range");
            RespValue request;
            const long long used = decodeValue(std::string_view(out).substr(before), request);
            FUZZ_CHECK(used == static_cast<long long>(out.size() - before), line + ": not one whole RESP value");
            FUZZ_CHECK(request.type == ReplyType::Array && !request.elements.empty(), line + ": not a command");
            for (const RespValue& word : request.elements)
                FUZZ_CHECK(word.type == ReplyType::BulkString, line + ": an argument that is not a bulk string");
        }
    }
    return 0;
}
