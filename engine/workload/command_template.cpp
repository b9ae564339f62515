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

void CommandTemplate::writeDigits(char* at, std::uint64_t value)
{
    for (std::size_t i = kPlaceholderLength; i-- > 0;) {
        at[i] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
}

} // namespace tacho::engine
