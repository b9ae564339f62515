#pragma once
// A valid value for each of redis-benchmark's options that take one, by the
// placeholder the dialect's table gives it, so that tests can walk the whole
// table (engine/cli/redis_benchmark_options.h) rather than a list of their own.
#include <map>
#include <string>
#include <string_view>

#include "engine/cli/redis_benchmark_options.h"

namespace tacho::test {

// Empty for a flag; "" too for the coordinator's options (--agents, --control), which the
// parser never reads.
inline std::string sampleValueFor(const engine::RedisBenchmarkOption& option)
{
    static const std::map<std::string_view, std::string> byPlaceholder {
        { "<hostname>", "127.0.0.1" }, { "<port>", "6390" },      { "<socket>", "/nonexistent/redis.sock" },
        { "<uri>", "redis://127.0.0.1:6390" }, { "<password>", "pw" }, { "<username>", "bench" },
        { "<db>", "2" },               { "<boolean>", "1" },      { "<host>", "cache.example" },
        { "<file>", "out.file" },      { "<dir>", "certs" },      { "<list>", "HIGH" },
        { "<clients>", "7" },          { "<requests>", "1000" },  { "<numreq>", "4" },
        { "<num>", "2" },              { "<size>", "16" },        { "<keyspacelen>", "100" },
        { "<tests>", "ping" },         { "<n>", "3" },            { "<sec>", "1.5" },
        { "<[scheme://]host:port>", "127.0.0.1:8125" },
    };
    if (!option.takesValue() || !option.apply)
        return {};
    const auto found = byPlaceholder.find(option.placeholder);
    return found == byPlaceholder.end() ? std::string("no sample for ") + std::string(option.placeholder) : found->second;
}

} // namespace tacho::test
