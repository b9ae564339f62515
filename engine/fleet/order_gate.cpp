#include "engine/fleet/order_gate.h"

namespace tacho::engine {

OrderGate::OrderGate(std::string agent, std::optional<FleetKey> key, std::int64_t startedAtMs)
    : m_agent(std::move(agent)), m_key(std::move(key)), m_startedAtMs(startedAtMs)
{
}

OrderGate::Verdict OrderGate::admit(const ReceivedOrder& received, std::int64_t serverNowMs)
{
    Verdict verdict;
    FleetOrder order;
    std::string error;
    const bool parsed = orderFromJson(received.json, order, &error);
    // A run id is only worth a report when it is a valid one (it becomes a key name).
    if (parsed)
        verdict.runId = order.runId;
    // The signature first: nothing of an order that fails it is believed.
    if (m_key && received.mac.empty()) {
        verdict.refusal = "the order is not signed; this agent runs only orders signed with the fleet key "
                          "(give the coordinator TACHO_FLEET_KEY or TACHO_FLEET_KEY_FILE)";
        return verdict;
    }
    if (m_key && !m_key->verify(kOrderSignatureContext, received.json, received.mac)) {
        verdict.refusal = "the order's signature does not match this agent's fleet key";
        return verdict;
    }
    if (!parsed) {
        verdict.refusal = "not an order: " + error;
        return verdict;
    }
    if (order.agent != m_agent) {
        verdict.refusal = "the order is for another agent";
        return verdict;
    }
    if (serverNowMs - order.issuedAtMs > kOrderMaxAgeMs) {
        verdict.refusal = "the order was issued " + std::to_string((serverNowMs - order.issuedAtMs) / 1000)
            + " s ago, more than " + std::to_string(kOrderMaxAgeMs / 1000) + " s";
        return verdict;
    }
    if (order.issuedAtMs - serverNowMs > kOrderMaxLeadMs) {
        verdict.refusal = "the order was issued " + std::to_string((order.issuedAtMs - serverNowMs) / 1000)
            + " s in the future by the control server's clock";
        return verdict;
    }
    // A coordinator orders only agents it saw announced: an earlier order is
    // a copy, or was for the process that had this name before.
    if (order.issuedAtMs < m_startedAtMs) {
        verdict.refusal = "the order was issued before this agent started (a replay, or for its previous run)";
        return verdict;
    }
    // Forget what is too old to be admitted anyway: the memory stays bounded.
    for (auto it = m_seen.begin(); it != m_seen.end();)
        it = serverNowMs - it->second > kOrderMaxAgeMs ? m_seen.erase(it) : std::next(it);
    if (order.nonce.empty() || m_seen.count(order.nonce)) {
        verdict.refusal = order.nonce.empty() ? "the order has no nonce" : "the order was received before (a replay)";
        return verdict;
    }
    m_seen.emplace(order.nonce, order.issuedAtMs);
    verdict.order = std::move(order);
    return verdict;
}

} // namespace tacho::engine
