#pragma once
// SCAN MATCH patterns (Redis glob syntax: * ? [..] and \ to escape) for the
// keys a workload writes, so that an optional clean-up removes those keys
// and nothing else.
#include <string>
#include <string_view>

namespace tacho::engine {

// `text` matched literally: *, ?, [, ] and \ escaped.
std::string globLiteral(std::string_view text);

// The pattern of a redis-benchmark key template: "__rand_int__" is twelve
// digits when a keyspace is given (-r) and literal otherwise; with
// `clusterTags`, "{tag}" is the per-client tag the engine puts there
// (five characters from "{").
std::string globOfKeyTemplate(std::string_view key, bool randomDigits, bool clusterTags);

} // namespace tacho::engine
