#include "engine/workload/benchmark_suite.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace tacho::engine {

namespace {

std::string lowerCase(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// One built-in test: its display name, the -t names that select it, and its
// command statistics name. Arguments are built separately (they depend on
// the value size and the keyspace).
struct BuiltIn {
    std::string_view name;
    std::array<std::string_view, 6> selectors;   // lower case; empty entries unused
    std::string_view statName;
};

constexpr std::array<BuiltIn, 21> kBuiltIns{{
    {"PING_INLINE", {"ping_inline", "ping"}, "ping"},
    {"PING_MBULK", {"ping_mbulk", "ping", "ping_bulk"}, "ping"},
    {"SET", {"set"}, "set"},
    {"GET", {"get"}, "get"},
    {"INCR", {"incr"}, "incr"},
    {"LPUSH", {"lpush"}, "lpush"},
    {"RPUSH", {"rpush"}, "rpush"},
    {"LPOP", {"lpop"}, "lpop"},
    {"RPOP", {"rpop"}, "rpop"},
    {"SADD", {"sadd"}, "sadd"},
    {"HSET", {"hset"}, "hset"},
    {"SPOP", {"spop"}, "spop"},
    {"ZADD", {"zadd"}, "zadd"},
    {"ZPOPMIN", {"zpopmin"}, "zpopmin"},
    {"LPUSH (needed to benchmark LRANGE)", {"lrange", "lrange_100", "lrange_300", "lrange_500", "lrange_600"}, "lpush"},
    {"LRANGE_100 (first 100 elements)", {"lrange_100", "lrange"}, "lrange"},
    {"LRANGE_300 (first 300 elements)", {"lrange_300", "lrange"}, "lrange"},
    {"LRANGE_500 (first 500 elements)", {"lrange_500", "lrange"}, "lrange"},
    {"LRANGE_600 (first 600 elements)", {"lrange_600", "lrange"}, "lrange"},
    {"MSET (10 keys)", {"mset"}, "mset"},
    {"XADD", {"xadd"}, "xadd"},
}};

bool selects(const BuiltIn& test, const std::vector<std::string>& names)
{
    for (const std::string& wanted : names)
        for (std::string_view selector : test.selectors)
            if (!selector.empty() && selector == wanted)
                return true;
    return false;
}

// `tag` is "" or, in cluster mode, "{tag}" (redis-benchmark's spelling): the
// engine rewrites it per client so that all of a client's keys — the ten of
// an MSET too — hash to one slot.
std::vector<std::string> builtInArgs(std::size_t index, const std::string& data, std::uint64_t keyspace,
                                     const std::string& tag)
{
    const std::string key = "key" + tag + ":__rand_int__";
    const std::string member = "element:__rand_int__";
    const std::string mylist = "mylist" + tag;
    switch (index) {
    case 0: // PING_INLINE
    case 1: // PING_MBULK
        return {"PING"};
    case 2: return {"SET", key, data};
    case 3: return {"GET", key};
    case 4: return {"INCR", "counter" + tag + ":__rand_int__"};
    case 5: return {"LPUSH", mylist, data};
    case 6: return {"RPUSH", mylist, data};
    case 7: return {"LPOP", mylist};
    case 8: return {"RPOP", mylist};
    case 9: return {"SADD", "myset" + tag, member};
    case 10: return {"HSET", "myhash" + tag, member, data};
    case 11: return {"SPOP", "myset" + tag};
    case 12: return {"ZADD", "myzset" + tag, keyspace > 0 ? "__rand_int__" : "0", member};
    case 13: return {"ZPOPMIN", "myzset" + tag};
    case 14: return {"LPUSH", mylist, data};
    case 15: return {"LRANGE", mylist, "0", "99"};
    case 16: return {"LRANGE", mylist, "0", "299"};
    case 17: return {"LRANGE", mylist, "0", "499"};
    case 18: return {"LRANGE", mylist, "0", "599"};
    case 19: {
        std::vector<std::string> args{"MSET"};
        for (int i = 0; i < 10; ++i) {
            args.push_back(key);
            args.push_back(data);
        }
        return args;
    }
    case 20: return {"XADD", "mystream" + tag, "*", "myfield", data};
    }
    return {};
}

// Every name -t understands.
bool isKnownSelector(const std::string& name)
{
    for (const BuiltIn& test : kBuiltIns)
        for (std::string_view selector : test.selectors)
            if (!selector.empty() && selector == name)
                return true;
    return false;
}

bool hasSubcommands(const std::string& command)
{
    static constexpr std::array<std::string_view, 16> containers{
        "config", "client", "cluster", "command", "memory", "object", "script",
        "function", "acl", "xinfo", "xgroup", "latency", "module", "pubsub", "slowlog"};
    return std::find(containers.begin(), containers.end(), command) != containers.end();
}

} // namespace

std::vector<TestSpec> redisBenchmarkSuite(std::string_view selection, std::uint32_t valueSize,
                                          std::uint64_t keyspace, std::vector<std::string>* unknown, bool clusterTags)
{
    // Split -t's list; empty items ("set,,get", a trailing comma) are ignored.
    std::vector<std::string> names;
    while (!selection.empty()) {
        const std::size_t comma = selection.find(',');
        const std::string_view item = trimmed(selection.substr(0, comma));
        selection = comma == std::string_view::npos ? std::string_view() : selection.substr(comma + 1);
        if (item.empty())
            continue;
        const std::string name = lowerCase(item);
        if (std::find(names.begin(), names.end(), name) != names.end())
            continue;
        names.push_back(name);
        if (unknown && !isKnownSelector(name))
            unknown->emplace_back(item);
    }

    const std::string data(valueSize, 'x');
    std::vector<TestSpec> tests;
    for (std::size_t i = 0; i < kBuiltIns.size(); ++i) {
        const BuiltIn& builtIn = kBuiltIns[i];
        if (!names.empty() && !selects(builtIn, names))
            continue;
        TestSpec test;
        test.name = std::string(builtIn.name);
        test.args = builtInArgs(i, data, keyspace, clusterTags ? "{tag}" : "");
        test.inlineProtocol = (i == 0);
        test.commandStatName = std::string(builtIn.statName);
        test.keysPerRequest = builtIn.name.starts_with("MSET") ? 10 : 1;
        tests.push_back(std::move(test));
    }
    return tests;
}

TestSpec customCommandTest(const std::vector<std::string>& args)
{
    TestSpec test;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i > 0)
            test.name += ' ';
        test.name += args[i];
    }
    test.args = args;
    test.commandStatName = commandStatName(args, true);
    test.keysPerRequest = 1;
    return test;
}

std::string commandStatName(const std::vector<std::string>& args, bool withSubcommand)
{
    if (args.empty())
        return {};
    std::string name = lowerCase(args[0]);
    if (withSubcommand && args.size() > 1 && hasSubcommands(name))
        name += "|" + lowerCase(args[1]);
    return name;
}

} // namespace tacho::engine
