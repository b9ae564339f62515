#pragma once
// Who may use an agent's name, and who may use the agent (issue 29).
//
//   tacho:fleet:agent:NAME   the agent's presence (fleet_protocol.h) is also
//                            the claim on its name: taken with SET NX and
//                            renewed only by the process that holds it (its
//                            incarnation, a random token per process). A
//                            second live process under the name is refused;
//                            a restarted one takes the name once the dead
//                            one's claim has expired.
//   tacho:fleet:lease:NAME   "RUN HOST": the coordinator using the agent,
//                            taken with SET NX for the whole run and renewed
//                            every second. A second coordinator is refused,
//                            naming the holder; an agent whose lease is gone
//                            for kCoordinatorGoneMs stops its run (the
//                            coordinator was killed, lost its network, or
//                            stalled), so that a -l run does not load the
//                            target for ever.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/fleet/control_channel.h"
#include "engine/fleet/fleet_protocol.h"

namespace tacho::engine {

std::string fleetLeaseKey(const std::string& agent);

// A random token, new in every process (16 hex digits).
std::string newIncarnation();

enum class NameClaim {
    Held,            // ours: taken or renewed
    HeldByAnother,   // *holder says who
    Failed           // the control server could not be asked (*error)
};
// Takes or renews info.name's presence for info.incarnation.
NameClaim claimAgentName(ControlChannel& control, const AgentInfo& info, AgentInfo* holder, std::string* error);
// Deletes the presence if it is still ours.
void releaseAgentName(ControlChannel& control, const AgentInfo& info);

// How long a lease lasts unless renewed, how often the coordinator renews
// it, and how long an agent goes on without seeing its run's lease.
inline constexpr int kLeaseTtlMs = 6000;
inline constexpr int kLeaseRenewMs = 1000;
inline constexpr std::int64_t kCoordinatorGoneMs = 12000;

// The lease's text for a run, and whether a lease's text is that run's.
std::string leaseHolder(const std::string& runId, const std::string& host);
bool leaseIsRun(const std::string& holder, const std::string& runId);

// "agent a is used by run R (coordinator on H)".
std::string describeLease(const std::string& agent, const std::string& holder);
// Takes the lease on every agent of `names` for `holder`; all or none. False
// with *why: "agent a is used by run R (coordinator on H)", or the control
// server's error.
bool takeLeases(ControlChannel& control, const std::vector<std::string>& names, const std::string& holder,
                std::string* why);
// Renews each lease still held by `holder`, takes again one that is gone (a
// restarted control server), leaves one held by another.
void renewLeases(ControlChannel& control, const std::vector<std::string>& names, const std::string& holder);
// Gives back each lease still held by `holder`.
void releaseLeases(ControlChannel& control, const std::vector<std::string>& names, const std::string& holder);
// The lease's text ("" when none), or nullopt with *error.
std::optional<std::string> currentLease(ControlChannel& control, const std::string& agent, std::string* error);

} // namespace tacho::engine
