#pragma once
// Options that both command-line dialects (redis-benchmark, memtier) offer
// with the same meaning, checked in one place so they say the same thing.
#include <string>

namespace tacho::engine {

// --reply-timeout in seconds (decimal) → RunConfig::replyTimeoutMs. 0 turns
// the timeout off; at most an hour. Throws UsageError naming `option`.
int replyTimeoutMs(const std::string& option, double seconds, const std::string& text);

} // namespace tacho::engine
