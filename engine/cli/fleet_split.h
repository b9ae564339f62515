#pragma once
// Dividing one command line among agents (issue 21) so that the agents'
// totals are what the line asks for: requests and connections split as
// evenly as whole numbers allow, a --rate split so the sum holds. What
// cannot be divided (fewer connections than agents, files the agents do not
// have) is a usage error, said before anything starts.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_args.h"

namespace tacho::engine {

// Part `index` of `count` of `total`: total / count, and one more for the
// first total % count parts.
std::uint64_t shareOf(std::uint64_t total, int index, int count);

// The options that make a line run on agents, taken out of `args`:
// --agents N or --agents a,b,c, and --control URL.
struct FleetOptions {
    bool given = false;              // --agents or --control was there
    int agentCount = 0;              // --agents N
    std::vector<std::string> names;  // --agents a,b,c
    std::string controlUri;          // --control
};
// Removes --agents and --control (and their values) from redis-benchmark's
// arguments; throws UsageError on a malformed value or one without the other.
FleetOptions takeRedisBenchmarkFleetOptions(std::vector<std::string>& args);

// The most standard input (-x) an order carries to the agents.
inline constexpr std::size_t kMaxOrderArgumentBytes = 1 << 20;

// redis-benchmark's arguments for agent `index` of `count`: -n, -c and
// --rate replaced by the share; --json and --cleanup removed (the
// coordinator writes the merged run file and cleans up once); -a removed
// (agents take the target's password from their own REDISCLI_AUTH); -x
// replaced by what standard input held, as the command's last word.
// `parsed` is the whole line parsed.
std::vector<std::string> redisBenchmarkShare(std::span<const std::string> args,
                                             const RedisBenchmarkInvocation& parsed, int index, int count);

// Throws UsageError for what cannot run on `count` agents.
void checkRedisBenchmarkDivisible(std::span<const std::string> args, const RedisBenchmarkInvocation& parsed,
                                  int count);

// The same for memtier's line (it has no positional arguments: every
// --agents / --agents=… / --control word is the option).
FleetOptions takeMemtierFleetOptions(std::vector<std::string>& args);

// memtier's arguments for agent `index` of `count`, in canonical spellings:
// connections divided (--threads when there are at least as many threads as
// agents, else one thread each and --clients divided), requests per client
// as given (so the totals add up), --rate divided, and with P:P the key
// range divided so that each key is in exactly one agent's range (-n allkeys
// then writes every key once across the machines); --authenticate removed,
// and the outputs the coordinator writes from the merged run (--json,
// --out-file, --json-out-file, --hdr-file-prefix), --cleanup and --preload.
std::vector<std::string> memtierShare(std::span<const std::string> args, const MemtierInvocation& parsed, int index,
                                      int count);
// memtier's --preload as a line of its own, to divide like any other: the
// key range filled once (SET, P:P, -n allkeys) at --preload-pipeline, with the
// line's target, connections, key range and values, and nothing of the
// measured workload. The shares of the line itself leave --preload out: the
// coordinator runs this first, on the same agents.
std::vector<std::string> memtierPreloadLine(std::span<const std::string> args, const MemtierInvocation& parsed);
// A line with options set anew, for a step of a series on agents
// (`tacho-cli sweep … --agents`): each option in `set` (redis-benchmark's
// spelling, memtier's canonical one) and each in `drop` removed wherever the
// line gives it, with its value; `set` put before a redis-benchmark command,
// after a memtier line.
using OptionValues = std::vector<std::pair<std::string, std::string>>;
std::vector<std::string> redisBenchmarkLineWith(std::span<const std::string> args, const OptionValues& set,
                                                const std::vector<std::string>& drop = {});
std::vector<std::string> memtierLineWith(std::span<const std::string> args, const OptionValues& set,
                                         const std::vector<std::string>& drop = {});
// Throws UsageError for what cannot run on `count` agents.
void checkMemtierDivisible(std::span<const std::string> args, const MemtierInvocation& parsed, int count);

} // namespace tacho::engine
