#include "engine/fleet/fleet_claims.h"

#include <cstdio>
#include <random>

#include "engine/resp/printable_text.h"

namespace tacho::engine {

namespace {

// The value of `key` ("" when there is none), or nullopt with *error.
std::optional<std::string> valueOf(ControlChannel& control, const std::string& key, std::string* error)
{
    const auto reply = control.request({ "GET", key }, error);
    if (!reply)
        return std::nullopt;
    return reply->isNull() ? std::string() : replyText(*reply);
}

// SET key value PX ttl NX|XX: true when it was set.
bool setWithTtl(ControlChannel& control, const std::string& key, const std::string& value, int ttlMs,
                const char* condition, std::string* error)
{
    const auto reply = control.request({ "SET", key, value, "PX", std::to_string(ttlMs), condition }, error);
    return reply && !reply->isNull();
}

} // namespace

std::string describeLease(const std::string& agent, const std::string& holder)
{
    const std::size_t space = holder.find(' ');
    if (space == std::string::npos)
        return "agent " + agent + " is used by " + printable(holder);
    return "agent " + agent + " is used by run " + printable(holder.substr(0, space)) + " (coordinator on "
        + printable(holder.substr(space + 1)) + ")";
}

std::string fleetLeaseKey(const std::string& agent) { return "tacho:fleet:lease:" + agent; }

std::string newIncarnation()
{
    std::random_device random;
    char text[17];
    std::snprintf(text, sizeof text, "%08x%08x", random(), random());
    return text;
}

NameClaim claimAgentName(ControlChannel& control, const AgentInfo& info, AgentInfo* holder, std::string* error)
{
    const std::string key = fleetAgentKey(info.name);
    const std::string json = agentInfoToJson(info);
    // Two tries: a claim that expires between the GET and the SET is read again.
    for (int attempt = 0; attempt < 2; ++attempt) {
        const auto current = valueOf(control, key, error);
        if (!current)
            return NameClaim::Failed;
        AgentInfo present;
        const bool readable = !current->empty() && agentInfoFromJson(*current, present, nullptr);
        if (readable && present.incarnation != info.incarnation) {
            if (holder)
                *holder = present;
            return NameClaim::HeldByAnother;
        }
        // Ours (renewed while it lasts) or free (taken only if still free).
        std::string setError;
        if (setWithTtl(control, key, json, kAgentPresenceTtlMs, readable ? "XX" : "NX", &setError))
            return NameClaim::Held;
        if (!setError.empty()) {
            if (error)
                *error = setError;
            return NameClaim::Failed;
        }
    }
    if (error)
        *error = "control server " + control.where() + ": the claim on " + info.name + " changed twice while taken";
    return NameClaim::Failed;
}

void releaseAgentName(ControlChannel& control, const AgentInfo& info)
{
    const auto current = valueOf(control, fleetAgentKey(info.name), nullptr);
    AgentInfo present;
    if (current && agentInfoFromJson(*current, present, nullptr) && present.incarnation == info.incarnation)
        control.command({ "DEL", fleetAgentKey(info.name) }, nullptr);
}

std::string leaseHolder(const std::string& runId, const std::string& host) { return runId + " " + host; }

bool leaseIsRun(const std::string& holder, const std::string& runId)
{
    return holder.size() > runId.size() && holder.compare(0, runId.size(), runId) == 0 && holder[runId.size()] == ' ';
}

bool takeLeases(ControlChannel& control, const std::vector<std::string>& names, const std::string& holder,
                std::string* why)
{
    std::vector<std::string> taken;
    for (const std::string& name : names) {
        std::string error;
        if (setWithTtl(control, fleetLeaseKey(name), holder, kLeaseTtlMs, "NX", &error)) {
            taken.push_back(name);
            continue;
        }
        releaseLeases(control, taken, holder);
        if (error.empty()) {
            const auto current = valueOf(control, fleetLeaseKey(name), &error);
            error = current ? describeLease(name, *current) : error;
        }
        if (why)
            *why = error;
        return false;
    }
    return true;
}

void renewLeases(ControlChannel& control, const std::vector<std::string>& names, const std::string& holder)
{
    for (const std::string& name : names) {
        const auto current = valueOf(control, fleetLeaseKey(name), nullptr);
        if (!current)
            return;   // the control server is away: the next round tries again
        if (current->empty())
            setWithTtl(control, fleetLeaseKey(name), holder, kLeaseTtlMs, "NX", nullptr);
        else if (*current == holder)
            setWithTtl(control, fleetLeaseKey(name), holder, kLeaseTtlMs, "XX", nullptr);
    }
}

void releaseLeases(ControlChannel& control, const std::vector<std::string>& names, const std::string& holder)
{
    for (const std::string& name : names) {
        const auto current = valueOf(control, fleetLeaseKey(name), nullptr);
        if (current && *current == holder)
            control.command({ "DEL", fleetLeaseKey(name) }, nullptr);
    }
}

std::optional<std::string> currentLease(ControlChannel& control, const std::string& agent, std::string* error)
{
    return valueOf(control, fleetLeaseKey(agent), error);
}

} // namespace tacho::engine
