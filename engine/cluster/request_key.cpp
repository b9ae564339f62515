#include "engine/cluster/request_key.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace tacho::engine {

namespace {

enum class KeyRule : std::uint8_t {
    None,           // no key
    At,             // key at element `position`
    NumKeysAt,      // element `position` is numkeys; the first key follows it
    AfterStreams,   // first element after STREAMS
};

struct CommandRule {
    std::string_view name;   // lower case
    KeyRule rule;
    std::uint8_t position;
};

// Commands whose key is not simply element 1. Everything else takes element 1.
constexpr std::array kRules = {
    // No keys.
    CommandRule{"ping", KeyRule::None, 0},
    CommandRule{"echo", KeyRule::None, 0},
    CommandRule{"info", KeyRule::None, 0},
    CommandRule{"config", KeyRule::None, 0},
    CommandRule{"client", KeyRule::None, 0},
    CommandRule{"cluster", KeyRule::None, 0},
    CommandRule{"command", KeyRule::None, 0},
    CommandRule{"dbsize", KeyRule::None, 0},
    CommandRule{"flushall", KeyRule::None, 0},
    CommandRule{"flushdb", KeyRule::None, 0},
    CommandRule{"select", KeyRule::None, 0},
    CommandRule{"auth", KeyRule::None, 0},
    CommandRule{"hello", KeyRule::None, 0},
    CommandRule{"time", KeyRule::None, 0},
    CommandRule{"save", KeyRule::None, 0},
    CommandRule{"bgsave", KeyRule::None, 0},
    CommandRule{"bgrewriteaof", KeyRule::None, 0},
    CommandRule{"lastsave", KeyRule::None, 0},
    CommandRule{"multi", KeyRule::None, 0},
    CommandRule{"exec", KeyRule::None, 0},
    CommandRule{"discard", KeyRule::None, 0},
    CommandRule{"unwatch", KeyRule::None, 0},
    CommandRule{"script", KeyRule::None, 0},
    CommandRule{"function", KeyRule::None, 0},
    CommandRule{"debug", KeyRule::None, 0},
    CommandRule{"monitor", KeyRule::None, 0},
    CommandRule{"slowlog", KeyRule::None, 0},
    CommandRule{"latency", KeyRule::None, 0},
    CommandRule{"acl", KeyRule::None, 0},
    CommandRule{"publish", KeyRule::None, 0},
    CommandRule{"pubsub", KeyRule::None, 0},
    CommandRule{"subscribe", KeyRule::None, 0},
    CommandRule{"psubscribe", KeyRule::None, 0},
    CommandRule{"unsubscribe", KeyRule::None, 0},
    CommandRule{"punsubscribe", KeyRule::None, 0},
    CommandRule{"shutdown", KeyRule::None, 0},
    CommandRule{"quit", KeyRule::None, 0},
    CommandRule{"reset", KeyRule::None, 0},
    CommandRule{"randomkey", KeyRule::None, 0},
    CommandRule{"keys", KeyRule::None, 0},
    CommandRule{"scan", KeyRule::None, 0},
    CommandRule{"wait", KeyRule::None, 0},
    CommandRule{"waitaof", KeyRule::None, 0},
    CommandRule{"readonly", KeyRule::None, 0},
    CommandRule{"readwrite", KeyRule::None, 0},
    CommandRule{"asking", KeyRule::None, 0},
    CommandRule{"role", KeyRule::None, 0},
    CommandRule{"lolwut", KeyRule::None, 0},
    CommandRule{"swapdb", KeyRule::None, 0},
    CommandRule{"replicaof", KeyRule::None, 0},
    CommandRule{"slaveof", KeyRule::None, 0},
    CommandRule{"failover", KeyRule::None, 0},
    CommandRule{"module", KeyRule::None, 0},
    CommandRule{"sync", KeyRule::None, 0},
    CommandRule{"psync", KeyRule::None, 0},
    CommandRule{"migrate", KeyRule::None, 0},   // key at 3 or after KEYS: never a benchmark command
    // Key after a subcommand or an operation.
    CommandRule{"object", KeyRule::At, 2},
    CommandRule{"memory", KeyRule::At, 2},      // MEMORY USAGE key (other subcommands are too short)
    CommandRule{"xinfo", KeyRule::At, 2},
    CommandRule{"xgroup", KeyRule::At, 2},
    CommandRule{"bitop", KeyRule::At, 2},       // BITOP op destkey key…
    // numkeys, then keys.
    CommandRule{"eval", KeyRule::NumKeysAt, 2},
    CommandRule{"evalsha", KeyRule::NumKeysAt, 2},
    CommandRule{"eval_ro", KeyRule::NumKeysAt, 2},
    CommandRule{"evalsha_ro", KeyRule::NumKeysAt, 2},
    CommandRule{"fcall", KeyRule::NumKeysAt, 2},
    CommandRule{"fcall_ro", KeyRule::NumKeysAt, 2},
    CommandRule{"zunion", KeyRule::NumKeysAt, 1},
    CommandRule{"zinter", KeyRule::NumKeysAt, 1},
    CommandRule{"zdiff", KeyRule::NumKeysAt, 1},
    CommandRule{"zintercard", KeyRule::NumKeysAt, 1},
    CommandRule{"sintercard", KeyRule::NumKeysAt, 1},
    CommandRule{"lmpop", KeyRule::NumKeysAt, 1},
    CommandRule{"zmpop", KeyRule::NumKeysAt, 1},
    CommandRule{"blmpop", KeyRule::NumKeysAt, 2},
    CommandRule{"bzmpop", KeyRule::NumKeysAt, 2},
    // STREAMS key… id…
    CommandRule{"xread", KeyRule::AfterStreams, 0},
    CommandRule{"xreadgroup", KeyRule::AfterStreams, 0},
};

constexpr std::size_t kLongestRuleName = 12;   // "punsubscribe"

constexpr char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsLower(std::string_view text, std::string_view lowerName)
{
    if (text.size() != lowerName.size())
        return false;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (lower(text[i]) != lowerName[i])
            return false;
    return true;
}

// Reads a "<prefix><digits>\r\n" header line at `pos`.
bool readHeader(std::string_view in, std::size_t& pos, char prefix, std::uint64_t& value)
{
    if (pos >= in.size() || in[pos] != prefix)
        return false;
    ++pos;
    std::uint64_t number = 0;
    std::size_t digits = 0;
    while (pos < in.size() && in[pos] >= '0' && in[pos] <= '9') {
        if (++digits > 18)
            return false;
        number = number * 10 + static_cast<std::uint64_t>(in[pos] - '0');
        ++pos;
    }
    if (digits == 0 || pos + 1 >= in.size() || in[pos] != '\r' || in[pos + 1] != '\n')
        return false;
    pos += 2;
    value = number;
    return true;
}

// Reads one "$<len>\r\n<bytes>\r\n" element at `pos`.
bool readBulk(std::string_view in, std::size_t& pos, std::string_view& out)
{
    std::uint64_t length = 0;
    if (!readHeader(in, pos, '$', length))
        return false;
    if (length > in.size() - pos || in.size() - pos - length < 2)
        return false;
    if (in[pos + length] != '\r' || in[pos + length + 1] != '\n')
        return false;
    out = in.substr(pos, length);
    pos += length + 2;
    return true;
}

bool parseCount(std::string_view text, std::uint64_t& value)
{
    if (text.empty() || text.size() > 18)
        return false;
    std::uint64_t number = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return false;
        number = number * 10 + static_cast<std::uint64_t>(c - '0');
    }
    value = number;
    return true;
}

// kRules ordered by name length, and where each length starts in it: a lookup
// compares only names of the command's length (at most 14 of them).
constexpr auto kRulesByLength = [] {
    auto rules = kRules;
    std::sort(rules.begin(), rules.end(),
              [](const CommandRule& a, const CommandRule& b) { return a.name.size() < b.name.size(); });
    return rules;
}();

constexpr auto kLengthStart = [] {
    std::array<std::uint8_t, kLongestRuleName + 2> start{};
    std::size_t index = 0;
    for (std::size_t length = 0; length <= kLongestRuleName + 1; ++length) {
        while (index < kRulesByLength.size() && kRulesByLength[index].name.size() < length)
            ++index;
        start[length] = static_cast<std::uint8_t>(index);
    }
    return start;
}();

static_assert(kRules.size() < 256, "kLengthStart holds indexes in a byte");
static_assert(kRulesByLength.back().name.size() == kLongestRuleName, "kLongestRuleName is out of date");

const CommandRule* findRule(std::string_view command)
{
    const std::size_t length = command.size();
    if (length == 0 || length > kLongestRuleName)
        return nullptr;
    const char first = lower(command[0]);
    for (std::size_t i = kLengthStart[length]; i < kLengthStart[length + 1]; ++i) {
        const CommandRule& rule = kRulesByLength[i];
        if (rule.name[0] == first && equalsLower(command, rule.name))
            return &rule;
    }
    return nullptr;
}

} // namespace

std::optional<std::string_view> firstKeyOfRequest(std::string_view in)
{
    std::size_t pos = 0;
    std::uint64_t count = 0;
    if (!readHeader(in, pos, '*', count) || count < 2)
        return std::nullopt;
    std::string_view command;
    if (!readBulk(in, pos, command))
        return std::nullopt;

    KeyRule rule = KeyRule::At;
    std::uint64_t position = 1;
    if (const CommandRule* found = findRule(command)) {
        rule = found->rule;
        position = found->position;
    }
    switch (rule) {
    case KeyRule::None:
        return std::nullopt;
    case KeyRule::At:
        break;
    case KeyRule::NumKeysAt: {
        // Elements 1 … position-1 precede numkeys.
        std::string_view element;
        for (std::uint64_t i = 1; i < position; ++i)
            if (!readBulk(in, pos, element))
                return std::nullopt;
        std::uint64_t numKeys = 0;
        if (position >= count || !readBulk(in, pos, element) || !parseCount(element, numKeys) || numKeys == 0)
            return std::nullopt;
        position += 1;
        if (position >= count)
            return std::nullopt;
        std::string_view key;
        if (!readBulk(in, pos, key))
            return std::nullopt;
        return key;
    }
    case KeyRule::AfterStreams: {
        std::string_view element;
        for (std::uint64_t i = 1; i + 1 < count; ++i) {
            if (!readBulk(in, pos, element))
                return std::nullopt;
            if (equalsLower(element, "streams")) {
                std::string_view key;
                if (!readBulk(in, pos, key))
                    return std::nullopt;
                return key;
            }
        }
        return std::nullopt;
    }
    }

    if (position >= count)
        return std::nullopt;
    std::string_view element;
    for (std::uint64_t i = 1; i < position; ++i)
        if (!readBulk(in, pos, element))
            return std::nullopt;
    if (!readBulk(in, pos, element))
        return std::nullopt;
    return element;
}

} // namespace tacho::engine
