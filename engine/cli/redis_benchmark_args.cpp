#include "engine/cli/redis_benchmark_args.h"

#include <algorithm>
#include <istream>
#include <optional>
#include <vector>

#include "engine/cli/redis_benchmark_options.h"
#include "engine/cli/quoted.h"
#include "engine/cli/shared_options.h"
#include "engine/workload/benchmark_suite.h"

namespace tacho::engine {

namespace {

using detail::quoted;

// Checks that depend on more than one option, once the line is read.
void checkCombinations(RedisBenchmarkParse& parse)
{
    RunConfig& config = parse.result.config;
    if (config.durationSeconds > 0) {
        if (!parse.requestsGiven)
            config.requests = 0;   // --duration alone: run for the time, not a count
    } else if (config.requests == 0) {
        throw UsageError("-n: must be at least 1 (got 0); -n 0 is only valid with --duration");
    }
    if (parse.result.cleanup && config.idle)
        throw UsageError("--cleanup: -I sends nothing, so there is nothing to clean up");
    checkRequestsInFlight(std::uint64_t(config.connections), std::uint64_t(config.pipeline),
                          "-c " + std::to_string(config.connections) + " x -P " + std::to_string(config.pipeline));
    // More threads than clients: redis-benchmark deals its clients to the
    // threads in turn, so the threads past -c get none and send nothing.
    // Tacho runs only the threads that have a client.
    config.threads = std::min(config.threads, config.connections);
}

// The tests a line asks for: its own command (-t is ignored then, as in
// redis-benchmark), or the built-in tests -t selects.
std::vector<TestSpec> chosenTests(const RedisBenchmarkParse& parse, std::span<const std::string> command,
                                  const std::function<std::string()>& readStdin)
{
    const RunConfig& config = parse.result.config;
    if (!command.empty()) {
        TestSpec test = customCommandTest(std::vector<std::string>(command.begin(), command.end()));
        if (parse.stdinArg) {
            if (!readStdin)
                throw UsageError("-x: standard input is not available");
            // redis-benchmark names the test after the command line only;
            // the value from standard input is not part of the name.
            test.args.push_back(readStdin());
            test.commandStatName = commandStatName(test.args, true);
        }
        return { std::move(test) };
    }
    if (parse.stdinArg)
        throw UsageError("-x: needs a command on the command line (its last argument is read from standard input)");
    // An empty -t ("", ",") names no test: redis-benchmark then runs
    // nothing and exits 0; the whole suite (what an empty selection
    // means inside) would be a surprise, so it is a usage error here.
    const std::optional<std::string>& selection = parse.selection;
    if (selection && selection->find_first_not_of(", \t\n\v\f\r") == std::string::npos)
        throw UsageError("-t: no test names given (leave -t out to run the whole suite)");
    std::vector<std::string> unknown;
    std::vector<TestSpec> tests = redisBenchmarkSuite(selection.value_or(std::string()), config.valueSize, config.keyspace,
                                                      &unknown, config.cluster);
    if (!unknown.empty()) {
        std::string names;
        for (const std::string& name : unknown)
            names += (names.empty() ? "" : ", ") + quoted(name);
        throw UsageError("-t: unknown test" + std::string(unknown.size() > 1 ? "s " : " ") + names);
    }
    if (tests.empty())
        throw UsageError("-t: no tests selected");
    return tests;
}

// One section of --help: each option of the table with its help beside it,
// in a column of 20 (on a line of its own when the option is wider).
std::string optionLines(RedisBenchmarkSection section)
{
    constexpr std::size_t kColumn = 20;
    std::string text;
    for (const RedisBenchmarkOption& option : redisBenchmarkOptions()) {
        if (option.section != section)
            continue;
        std::string head = " " + std::string(option.spelling);
        if (!option.alias.empty())
            head += ", " + std::string(option.alias);
        if (option.takesValue())
            head += " " + std::string(option.placeholder);
        if (head.size() < kColumn)
            head.resize(kColumn, ' ');
        else
            head += "\n" + std::string(kColumn, ' ');
        text += head;
        std::string_view help = option.help;
        for (std::size_t lineEnd; (lineEnd = help.find('\n')) != std::string_view::npos; help.remove_prefix(lineEnd + 1))
            text += std::string(help.substr(0, lineEnd)) + "\n" + std::string(kColumn, ' ');
        text += std::string(help) + "\n";
    }
    return text;
}

} // namespace

RedisBenchmarkInvocation parseRedisBenchmarkArgs(std::span<const std::string> args,
                                                 const std::function<std::string()>& readStdin)
{
    static const std::string kNoValue;
    RedisBenchmarkInvocation result;
    RedisBenchmarkParse parse { result };
    std::span<const std::string> command;
    for (std::size_t i = 0; i < args.size() && !parse.done; ++i) {
        const std::string& arg = args[i];
        if (arg.empty() || arg.front() != '-') {
            // redis-benchmark: the first non-option argument starts the
            // command, and every remaining argument belongs to it.
            command = args.subspan(i);
            break;
        }
        const RedisBenchmarkOption* option = findRedisBenchmarkOption(arg);
        if (!option || !option->apply)   // the coordinator's options never reach here
            throw UsageError("unrecognized option " + quoted(arg));
        if (option->takesValue() && i + 1 >= args.size())
            throw UsageError(arg + " needs a value");
        option->apply(parse, arg, option->takesValue() ? args[++i] : kNoValue);
    }
    if (parse.done)
        return result;
    checkCombinations(parse);
    result.style = parse.csv ? ReportStyle::Csv : parse.quiet ? ReportStyle::Quiet : ReportStyle::Full;
    result.config.tests = chosenTests(parse, command, readStdin);
    return result;
}

std::vector<OutputFile> redisBenchmarkOutputFiles(const RedisBenchmarkInvocation& invocation)
{
    std::vector<OutputFile> files;
    for (const RedisBenchmarkOption& option : redisBenchmarkOptions())
        if (option.has(kRoleOutputFile))
            files.push_back({ option.spelling.data(), option.outputPath(invocation) });
    return files;
}

std::string readStdinArgument(std::istream& in, std::uint64_t maxBytes)
{
    // Read in chunks and joined once: no doubling string on the way to the
    // limit, and nothing past it is read.
    std::vector<std::string> chunks;
    std::uint64_t total = 0;
    std::string chunk(std::size_t(1) << 20, '\0');
    while (in) {
        in.read(chunk.data(), std::streamsize(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        total += got;
        if (total > maxBytes)
            throw UsageError("-x: standard input holds more than " + std::to_string(maxBytes)
                             + " bytes, the most one argument may have (Redis's own limit for a bulk string)");
        chunks.emplace_back(chunk.data(), got);
    }
    std::string text;
    text.reserve(std::size_t(total));
    for (const std::string& c : chunks)
        text += c;
    return text;
}

std::string redisBenchmarkUsage()
{
    return R"(Usage: redis-benchmark [OPTIONS] [COMMAND ARGS...]

Benchmarks a Redis-protocol server with redis-benchmark's command line.
Without a COMMAND the built-in tests run; with one, only that command runs.

Connection:
)" + optionLines(RedisBenchmarkSection::Connection) + R"(
Load:
)" + optionLines(RedisBenchmarkSection::Load) + R"(
Output:
)" + optionLines(RedisBenchmarkSection::Output) + R"(
Tacho additions:
)" + optionLines(RedisBenchmarkSection::Additions) + R"(
Examples:

 All built-in tests against the local server:
   $ redis-benchmark

 SET and GET only, 200 connections, one million requests each:
   $ redis-benchmark -t set,get -c 200 -n 1000000

 SET over a million random keys, quiet output:
   $ redis-benchmark -t set -r 1000000 -q

 Your own command, with random members:
   $ redis-benchmark -r 100000 sadd myset member:__rand_int__

 A value read from a file:
   $ redis-benchmark -x set bigkey < value.bin

 Thirty seconds per test after five seconds of warm-up, saved as JSON:
   $ redis-benchmark -t set,get --duration 30 --warmup 5 --json run.json
)";
}

} // namespace tacho::engine
