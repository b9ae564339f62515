#pragma once
// Removing what a benchmark wrote, only when the user asks (--cleanup): the
// keys whose names the run's write commands can have written (engine/workload/key_glob.h),
// found with SCAN MATCH, each name checked exactly, and removed with UNLINK
// in batches, on the server or on every master of a cluster. Other keys —
// look-alikes included — are left alone. Blocking; control-plane connections
// of its own.
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
// (the failing node included).
CleanupResult removeKeysMatching(const RunConfig& config, const std::vector<KeyShape>& shapes);

// "cleanup: removed 1000 keys matching memtier-<0..10000000>" (or why it
// stopped); for a cluster also each master's share.
std::string describeCleanup(const CleanupResult& result);

} // namespace tacho::engine
