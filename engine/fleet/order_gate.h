#pragma once
// What an agent checks of an order before it does anything with it (issue
// 29): that it carries a valid signature of the fleet's key (unless the agent
// runs with --insecure-orders: no key), that it names this agent, that it was
// issued lately (by the control server's clock) and since the agent started,
// and that its nonce is new. An
// order failing any of these is refused, with one line saying which.
//
// Agent's order loop only (not thread-safe).
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "engine/fleet/fleet_key.h"
#include "engine/fleet/fleet_protocol.h"

namespace tacho::engine {

// An order issued longer ago than this is refused: a copy of an old order
// posted again is not run. Far beyond the second an agent takes to read one.
inline constexpr std::int64_t kOrderMaxAgeMs = 30000;
// Nor one issued further ahead than this (the clocks' offsets are measured
// to within a round trip; more is a forged time).
inline constexpr std::int64_t kOrderMaxLeadMs = 10000;

class OrderGate {
public:
    // key: the fleet's; nullopt runs unsigned orders (--insecure-orders).
    // startedAtMs: when this agent started, by the control server's clock: an
    // order issued before is refused, so that the nonces of a previous run
    // of the agent (forgotten at its restart) need not be remembered.
    OrderGate(std::string agent, std::optional<FleetKey> key, std::int64_t startedAtMs);

    struct Verdict {
        std::optional<FleetOrder> order;   // admitted
        std::string refusal;               // otherwise, why (one line, no order bytes)
        std::string runId;                 // the run it names, when it names a valid one:
                                           // where a refusal can be reported
    };
    // serverNowMs: the control server's clock now, as the agent knows it.
    Verdict admit(const ReceivedOrder& received, std::int64_t serverNowMs);

    bool signedOnly() const { return m_key.has_value(); }

private:
    std::string m_agent;
    std::optional<FleetKey> m_key;
    std::int64_t m_startedAtMs;
    std::map<std::string, std::int64_t> m_seen;   // nonce → issuedAtMs, within kOrderMaxAgeMs
};

} // namespace tacho::engine
