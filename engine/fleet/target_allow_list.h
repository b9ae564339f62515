#pragma once
// The targets an agent's operator lets it load (issue 29): an order naming
// any other target is refused before a connection is opened, so the agent's
// password (REDISCLI_AUTH) never goes to a host the order chose.
//
// From the agent's environment, TACHO_AGENT_TARGETS: patterns separated by
// commas or spaces, each matched against the target as Endpoint::describe()
// names it — "host:port", "[v6-address]:port", "unix:/path" — with shell
// wildcards (fnmatch: * ? [...]), host names compared without case:
//   TACHO_AGENT_TARGETS="10.0.4.*:6379, cache-*.internal:*, unix:/run/redis/*"
// The host is matched as the order names it, before any name lookup: allow
// "cache-1.internal:6379" and an order for its address is refused, and the
// other way round.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config/endpoint.h"

namespace tacho::engine {

inline constexpr const char* kAgentTargetsVariable = "TACHO_AGENT_TARGETS";

class TargetAllowList {
public:
    // The patterns of `text`; nullopt with *error for a pattern without a
    // ':' (a host with no port), which matches nothing a target is named.
    static std::optional<TargetAllowList> parse(std::string_view text, std::string* error);

    bool empty() const { return m_patterns.empty(); }
    bool allows(const Endpoint& target) const;
    // The patterns, comma-separated (for the agent's start-up line).
    std::string describe() const;

private:
    std::vector<std::string> m_patterns;   // for fnmatch: host patterns in lower case, v6 brackets escaped
    std::vector<std::string> m_given;      // as the operator wrote them
};

} // namespace tacho::engine
