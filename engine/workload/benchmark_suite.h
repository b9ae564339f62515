#pragma once
// redis-benchmark's built-in tests and custom command tests.
#include <string>
#include <string_view>
#include <vector>

#include "engine/config/run_config.h"

namespace tacho::engine {

// The built-in suite in redis-benchmark's order (PING_INLINE, PING_MBULK,
// SET, GET, INCR, LPUSH, RPUSH, LPOP, RPOP, SADD, HSET, SPOP, ZADD, ZPOPMIN,
// LPUSH (needed to benchmark LRANGE), LRANGE_100/300/500/600, MSET (10 keys),
// XADD). `selection` is -t's comma list (case-insensitive, empty = all),
// with redis-benchmark's meaning ("ping" selects both PINGs, any lrange
// selects the LPUSH that fills the list). `keyspace` > 0 makes ZADD's score
// random too. Unknown names in `selection` are reported in *unknown.
// `clusterTags` adds redis-benchmark's "{tag}" to the keys (cluster mode).
std::vector<TestSpec> redisBenchmarkSuite(std::string_view selection, std::uint32_t valueSize,
                                          std::uint64_t keyspace, std::vector<std::string>* unknown = nullptr,
                                          bool clusterTags = false);

// A test from a command line ("hmget h1 k1"); its name is the arguments
// joined by spaces.
TestSpec customCommandTest(const std::vector<std::string>& args);

// The commandstats name for a command: "set", or "config|get" for commands
// with subcommands when `withSubcommand` is true.
std::string commandStatName(const std::vector<std::string>& args, bool withSubcommand);

} // namespace tacho::engine
