#pragma once
// The "fleet" section of a run on agents' merged run file: who took part,
// what each was given, how each ended, what each streamed, when a lost one
// was last seen and how much of its load went missing (fleet_command.h runs
// the line; this writes what it kept).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/fleet/fleet_protocol.h"
#include "engine/fleet/interval_merger.h"

namespace tacho::engine {

// What an agent was given of the line's load: a count, or a time.
struct ShareLoad {
    std::uint64_t requests = 0;   // over all its tests; 0: not count-bound
    double seconds = 0;           // over all its tests; 0: not time-bound
};

// What the run file keeps of a run on agents: who took part, what each was
// given, how each ended, what each streamed, when a lost one was last seen
// and how much of its load went missing.
struct FleetRecord {
    std::string runId;
    std::string controlServer;
    std::int64_t startAtMs;
    const std::vector<AgentInfo>& agents;
    const std::vector<FleetOrder>& orders;
    const std::vector<ShareLoad>& given;
    const std::map<std::string, AgentReport>& reports;
    const std::vector<std::string>& lost;
    const std::map<std::string, std::int64_t>& lastSeenLocalMs;
    const IntervalMerger& streamed;
};

// What of a lost agent's share its streamed intervals do not cover: the
// requests it was given less those delivered, or for a timed share the
// seconds left and the requests they would have held at its rate so far.
struct MissingLoad {
    bool counted = false;        // requests given: `requests` is exact
    std::uint64_t requests = 0;
    double seconds = 0;          // timed share: seconds not run
};
MissingLoad missingLoad(const IntervalMerger::AgentTally& tally, const ShareLoad& given);

// The section's JSON text.
std::string fleetSection(const FleetRecord& record);

} // namespace tacho::engine
