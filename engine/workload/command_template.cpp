#include "engine/workload/command_template.h"

#include <string_view>

#include "engine/resp/resp_encoder.h"

namespace tacho::engine {

namespace {
constexpr std::string_view kPlaceholder = "__rand_int__";
}

CommandTemplate::CommandTemplate(const TestSpec& spec, std::uint64_t keyspace)
{
    std::vector<std::string_view> views(spec.args.begin(), spec.args.end());
    if (spec.inlineProtocol)
        appendInline(m_bytes, views);
    else
        appendCommand(m_bytes, views);
    if (keyspace == 0)
        return;   // redis-benchmark without -r: the placeholder stays literal
    m_keyspace = keyspace;
    for (std::size_t at = m_bytes.find(kPlaceholder); at != std::string::npos;
         at = m_bytes.find(kPlaceholder, at + kPlaceholder.size()))
        m_offsets.push_back(at);
}

CommandTemplate CommandTemplate::withHashTag(std::string_view tag) const
{
    constexpr std::string_view kTag = "{tag}";
    std::string replacement = "{" + std::string(tag.substr(0, 3)) + "}";
    replacement.resize(kTag.size(), '_');
    CommandTemplate copy = *this;
    for (std::size_t at = copy.m_bytes.find(kTag); at != std::string::npos; at = copy.m_bytes.find(kTag, at + kTag.size()))
        copy.m_bytes.replace(at, kTag.size(), replacement);
    return copy;
}

void CommandTemplate::writeDigits(char* at, std::uint64_t value)
{
    for (std::size_t i = kPlaceholderLength; i-- > 0;) {
        at[i] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
}

} // namespace tacho::engine
