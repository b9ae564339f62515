#pragma once
// Removing what a benchmark wrote, only when the user asks (--cleanup): the
// keys whose names the run's write commands can have written (engine/workload/key_glob.h),
// found with SCAN MATCH, each name checked exactly, and removed with UNLINK
// in batches, on the server or on every master of a cluster. Other keys —
// look-alikes included — are left alone. Blocking; control-plane connections
// of its own.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/config/run_config.h"
#include "engine/run/run_result.h"
#include "engine/workload/key_glob.h"

namespace tacho::engine {

// The shapes of the keys the config's tests write (each test generator's
// writtenKeyShapes: by command, engine/workload/write_commands.h;
// redis-benchmark tests: their first key when the command writes), without
// duplicates. Empty when none can be told (PING) or the run only read (GET,
// memtier --ratio 0:N): then a clean-up removes nothing.
std::vector<KeyShape> cleanupPatterns(const RunConfig& config);

// Removes the keys of `shapes` on the server or on every master, counting
// per node. A failure part-way keeps the count of what was removed before it
// (the failing node included). Bounded (issue 30: a proxy whose SCAN cursor
// never returned to 0 kept it going at ~100k calls/s, deaf to Ctrl+C): at
// most `maxScanCalls` SCAN calls per pattern and node — the default covers
// a pass over 4·10⁹ hash buckets at COUNT 1000; no command is asked first
// (DBSIZE would close a twemproxy connection) — and `stop`, polled before
// each call, ends it at once, saying so; tacho-cli passes Ctrl+C there.
inline constexpr std::uint64_t kMaxScanCalls = 4000000;
CleanupResult removeKeysMatching(const RunConfig& config, const std::vector<KeyShape>& shapes,
                                 const std::function<bool()>& stop = {}, std::uint64_t maxScanCalls = kMaxScanCalls);

// "cleanup: removed 1000 keys matching memtier-<0..10000000>" (or why it
// stopped); for a cluster also each master's share.
std::string describeCleanup(const CleanupResult& result);

} // namespace tacho::engine
