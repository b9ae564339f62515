#pragma once
// What agents and the coordinator say to each other through the control
// server (issue 21), and where: every key under "tacho:fleet:".
//
//   tacho:fleet:agent:NAME     an agent's presence: its AgentInfo as JSON,
//                              SET with a TTL and renewed by its heartbeat —
//                              gone a few seconds after the agent is; also
//                              the claim on the name (fleet_claims.h)
//   tacho:fleet:lease:NAME     the coordinator using the agent (fleet_claims.h)
//   tacho:fleet:orders:NAME    a stream of orders for that agent (capped;
//                              expires a day after the last order)
//   tacho:fleet:results:RUN    a stream of what the agents report for a run
//   tacho:fleet:stop:RUN       set by the coordinator to stop a run early,
//                              and when it ends (a straggler's run is over)
//   tacho:fleet:stop:RUN:NAME  set by the coordinator for one agent it gave
//                              up on (lost): should it come back, it stops
//   tacho:fleet:ack:RUN:NAME   set by the coordinator once it holds NAME's
//                              report and every interval it counts; until
//                              then the agent posts it again (a control
//                              server restarted without persistence loses
//                              streams), and the coordinator keeps the
//                              first copy of each
//   tacho:fleet:intervals:RUN  a stream (capped) of every agent's measured
//                              intervals as they happen: one a second per
//                              agent and test, numbered 1, 2, 3 … per agent
//   tacho:fleet:intervals-ack:RUN:NAME
//                              the highest seq up to which the coordinator
//                              holds all of NAME's intervals; the agent
//                              posts again (same seq) what stays above it,
//                              and the coordinator ignores a seq it holds
//
// An order carries the whole workload as the dialect's own command line for
// that agent's share, without any password: agents take the target's
// password from their own environment. It is signed with the fleet's key
// (fleet_key.h) and names its agent, issue time and a nonce, so that an
// agent can refuse a forged, misaddressed, old or replayed one (order_gate.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/fleet/control_channel.h"
#include "engine/fleet/fleet_key.h"
#include "engine/report/json_writer.h"

namespace tacho::engine {

std::string fleetAgentKey(const std::string& agent);
std::string fleetOrdersStream(const std::string& agent);
std::string fleetResultsStream(const std::string& runId);
std::string fleetStopKey(const std::string& runId);
std::string fleetAgentStopKey(const std::string& runId, const std::string& agent);
std::string fleetAckKey(const std::string& runId, const std::string& agent);
std::string fleetIntervalsStream(const std::string& runId);
std::string fleetIntervalAckKey(const std::string& runId, const std::string& agent);

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
    std::string incarnation;          // random, once per process: a restarted agent is a new one
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
    std::string agent;                  // the agent it is for (a signed order names it: no reuse on another)
    std::string dialect;                // "redis-benchmark" or "memtier"
    std::vector<std::string> args;      // the dialect's arguments for this agent's share, any bytes
                                        // (one that is not text goes base64 in the JSON)
    int index = 0;                      // this agent's share: index of count
    int count = 1;
    std::int64_t startAtMs = 0;         // by the control server's clock
    std::int64_t issuedAtMs = 0;        // by the control server's clock: an old order is refused
    std::string nonce;                  // random, once per order: a replayed order is refused
};
std::string orderToJson(const FleetOrder& order);
bool orderFromJson(const std::string& json, FleetOrder& out, std::string* error);
// What the signature of an order covers besides its JSON bytes (fleet_key.h).
inline constexpr std::string_view kOrderSignatureContext = "tacho-fleet-order/1";
// XADD to the stream of order.agent: the order's JSON and, with a key, its
// signature over exactly those bytes (field "mac"); without one, unsigned.
bool postOrder(ControlChannel& control, const FleetOrder& order, const FleetKey* key, std::string* error);
// An order as it arrives, not yet checked (order_gate.h decides).
struct ReceivedOrder {
    std::string json;   // the bytes the signature covers
    std::string mac;    // empty: unsigned
};
// The id of the agent's newest order ("0-0" when none): an agent reads only
// orders after the one that was newest when it started, so a late agent
// never runs an old order.
std::optional<std::string> latestOrderId(ControlChannel& control, const std::string& agent, std::string* error);
// Orders after `*lastId` (waiting at most blockMs); advances *lastId.
std::optional<std::vector<ReceivedOrder>> readOrders(ControlChannel& control, const std::string& agent,
                                                  std::string* lastId, int blockMs, std::string* error);

// One entry of a run's results stream.
struct AgentReport {
    std::string agent;
    std::string kind;        // "final": the agent's run file; "failed": no run file, see message;
                             // "refused": the agent did not run the order (message: why)
    int exitStatus = 0;      // the dialect command's exit status
    std::string message;     // the last lines it printed to standard error
    std::string runFile;     // "final": the run file's JSON text
    std::uint64_t intervals = 0;   // the seq of its last streamed interval (0: none)
};
// XADD to the run's results stream (which expires a day after its last entry).
bool postReport(ControlChannel& control, const std::string& runId, const AgentReport& report,
                std::string* error);

// One command's share of an agent's interval.
struct FleetCommandInterval {
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    std::string latency;     // HdrHistogram, compressed base64 (empty: no replies)
};

// What an agent measured in one second of one test: the ticks that start in
// that second of the test's measured time, merged.
struct FleetInterval {
    std::string agent;
    std::uint64_t seq = 0;            // 1, 2, 3 … per agent and run
    std::size_t test = 0;             // the test's index in the run
    std::string testName;
    std::uint64_t second = 0;         // whole second of the test's measured time
    double startSeconds = 0;          // since the test's measured start
    double endSeconds = 0;
    std::int64_t sentAtMs = 0;        // by the control server's clock, when first taken
    std::vector<FleetCommandInterval> commands;   // in the test's command order

    std::uint64_t requests() const;
    std::uint64_t errors() const;
};
// XADD to the run's intervals stream (capped, expires like the results).
bool postInterval(ControlChannel& control, const std::string& runId, const FleetInterval& interval,
                  std::string* error);
// The stream entry's fields, and back (false for an entry that is not an interval).
std::vector<std::pair<std::string, std::string>> fleetIntervalFields(const FleetInterval& interval);
bool fleetIntervalFromFields(const std::vector<std::pair<std::string, std::string>>& fields, FleetInterval& out);

// What one XREAD of a run's results and intervals streams brought (after
// each one's last id, waiting at most blockMs for any); advances both ids.
struct RunStreamsRead {
    std::vector<AgentReport> reports;
    std::vector<FleetInterval> intervals;
};
std::optional<RunStreamsRead> readRunStreams(ControlChannel& control, const std::string& runId,
                                             std::string* lastReportId, std::string* lastIntervalId, int blockMs,
                                             std::string* error);

} // namespace tacho::engine
