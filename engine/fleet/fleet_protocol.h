#pragma once
// What agents and the coordinator say to each other through the control
// server (issue 21), and where: every key under "tacho:fleet:".
//
//   tacho:fleet:agent:NAME     an agent's presence: its AgentInfo as JSON,
//                              SET with a TTL and renewed by its heartbeat —
//                              gone a few seconds after the agent is
//   tacho:fleet:orders:NAME    a stream of orders for that agent (capped)
//   tacho:fleet:results:RUN    a stream of what the agents report for a run
//   tacho:fleet:stop:RUN       set by the coordinator to stop a run early
//   tacho:fleet:ack:RUN:NAME   set by the coordinator once it holds NAME's
//                              report; until then the agent posts it again
//                              (a control server restarted without
//                              persistence loses streams), and the
//                              coordinator keeps the first copy of each
//
// An order carries the whole workload as the dialect's own command line for
// that agent's share, without any password: agents take the target's
// password from their own environment.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/fleet/control_channel.h"
#include "engine/report/json_writer.h"

namespace tacho::engine {

std::string fleetAgentKey(const std::string& agent);
std::string fleetOrdersStream(const std::string& agent);
std::string fleetResultsStream(const std::string& runId);
std::string fleetStopKey(const std::string& runId);
std::string fleetAckKey(const std::string& runId, const std::string& agent);

// Agent names: 1–64 of [A-Za-z0-9._-] (they become parts of key names).
bool isValidAgentName(const std::string& name);

struct AgentInfo {
    std::string name;
    std::string host;
    std::string version;
    int cores = 0;
    std::int64_t clockOffsetMs = 0;   // control server's clock − this agent's
    std::int64_t roundTripMs = 0;     // of the TIME that measured it
    std::int64_t seenAtMs = 0;        // control server's clock at the last heartbeat
    std::string runId;                // the run it works on, empty when idle
};
std::string agentInfoToJson(const AgentInfo& info);
// Into the object `w` is writing: who the agent is (name, host, version,
// cores, clock offset and its round trip), as the presence and the run
// file's fleet section both record it.
void writeAgentIdentity(JsonWriter& w, const AgentInfo& info);
bool agentInfoFromJson(const std::string& json, AgentInfo& out, std::string* error);

// How long a heartbeat keeps an agent listed, and how often it is renewed.
inline constexpr int kAgentPresenceTtlMs = 6000;
inline constexpr int kAgentHeartbeatMs = 1000;

bool announceAgent(ControlChannel& control, const AgentInfo& info, std::string* error);
// Every agent whose presence has not expired, by name.
std::optional<std::vector<AgentInfo>> onlineAgents(ControlChannel& control, std::string* error);

struct FleetOrder {
    std::string runId;
    std::string dialect;                // "redis-benchmark" (memtier to come)
    std::vector<std::string> args;      // the dialect's arguments for this agent's share
    int index = 0;                      // this agent's share: index of count
    int count = 1;
    std::int64_t startAtMs = 0;         // by the control server's clock
};
std::string orderToJson(const FleetOrder& order);
bool orderFromJson(const std::string& json, FleetOrder& out, std::string* error);
bool postOrder(ControlChannel& control, const std::string& agent, const FleetOrder& order, std::string* error);
// The id of the agent's newest order ("0-0" when none): an agent reads only
// orders after the one that was newest when it started, so a late agent
// never runs an old order.
std::optional<std::string> latestOrderId(ControlChannel& control, const std::string& agent, std::string* error);
// Orders after `*lastId` (waiting at most blockMs); advances *lastId.
std::optional<std::vector<FleetOrder>> readOrders(ControlChannel& control, const std::string& agent,
                                                  std::string* lastId, int blockMs, std::string* error);

// One entry of a run's results stream.
struct AgentReport {
    std::string agent;
    std::string kind;        // "final": the agent's run file; "failed": no run file, see message
    int exitStatus = 0;      // the dialect command's exit status
    std::string message;     // the last lines it printed to standard error
    std::string runFile;     // "final": the run file's JSON text
};
// XADD to the run's results stream (which expires a day after its last entry).
bool postReport(ControlChannel& control, const std::string& runId, const AgentReport& report,
                std::string* error);
// Entries after `*lastId` (waiting at most blockMs for one); advances *lastId.
std::optional<std::vector<AgentReport>> readReports(ControlChannel& control, const std::string& runId,
                                                    std::string* lastId, int blockMs, std::string* error);

} // namespace tacho::engine
