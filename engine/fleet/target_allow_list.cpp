#include "engine/fleet/target_allow_list.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>

namespace tacho::engine {

namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

} // namespace

std::optional<TargetAllowList> TargetAllowList::parse(std::string_view text, std::string* error)
{
    TargetAllowList list;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find_first_of(", \t\n", at), text.size());
        const std::string_view pattern = text.substr(at, end - at);
        at = end + 1;
        if (pattern.empty())
            continue;
        if (pattern.find(':') == std::string_view::npos) {
            *error = std::string(kAgentTargetsVariable) + ": \"" + std::string(pattern)
                + "\" names no port; write HOST:PORT (HOST:* for any port) or unix:PATH";
            return std::nullopt;
        }
        // Host names are case-blind; a socket's path is not.
        std::string kept = pattern.starts_with("unix:") ? std::string(pattern) : lower(pattern);
        // "[v6-address]:port": those brackets are the name's, not fnmatch's set.
        if (const std::size_t close = kept.find(']'); kept.starts_with('[') && close != std::string::npos) {
            kept.insert(close, 1, '\\');
            kept.insert(0, 1, '\\');
        }
        list.m_patterns.push_back(std::move(kept));
        list.m_given.emplace_back(pattern);
    }
    return list;
}

bool TargetAllowList::allows(const Endpoint& target) const
{
    const std::string name = target.unixSocket.empty() ? lower(target.describe()) : target.describe();
    return std::any_of(m_patterns.begin(), m_patterns.end(), [&](const std::string& pattern) {
        // FNM_PATHNAME: a '*' in "unix:/run/redis/*" stays inside that folder.
        const int flags = target.unixSocket.empty() ? 0 : FNM_PATHNAME;
        return ::fnmatch(pattern.c_str(), name.c_str(), flags) == 0;
    });
}

std::string TargetAllowList::describe() const
{
    std::string text;
    for (const std::string& p : m_given)
        text += (text.empty() ? "" : ", ") + p;
    return text;
}

} // namespace tacho::engine
