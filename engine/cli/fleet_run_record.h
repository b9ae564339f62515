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
#include "engine/fleet/run_watch.h"
#include "engine/report/run_file_reader.h"

namespace tacho::engine {

// What an agent was given of the line's load: a count, or a time.
struct ShareLoad {
    std::uint64_t requests = 0;   // over all its tests; 0: not count-bound
    double seconds = 0;           // over all its tests; 0: not time-bound
};

// What the run file keeps of a run on agents: who took part, what each was
// given, how each ended (the watch's reports and losses), what each streamed,
// and the account of a lost one.
struct FleetRecord {
    std::string runId;
    std::string controlServer;
    std::int64_t startAtMs;
    const std::vector<AgentInfo>& agents;
    const std::vector<FleetOrder>& orders;
    const std::vector<ShareLoad>& given;
    const FleetRunWatch& watch;
    // Per agent whose run file came: the target's run_id (INFO server) it
    // recorded, empty when it read none. Two that differ: the agents
    // measured different servers (-h 127.0.0.1 on each machine).
    std::map<std::string, std::string> serverRunIds = {};
};

// The run_id each part recorded of its target, by the part's label (the agent's name).
std::map<std::string, std::string> serverRunIds(const std::vector<const LoadedRun*>& parts);
// Empty when every agent that recorded a run_id recorded the same; else the
// servers and who measured each ("run_id 1a2b…: a, b; run_id 3c4d…: c").
std::string differentServers(const std::map<std::string, std::string>& runIds);

// What is known of a lost agent's requests, beside the merged run (which
// leaves them out): what it delivered before it was lost, what it certainly
// sent after (intervals or a report that came late), and at most how many
// more the target may have seen from it that nobody reported — exact when
// its late report's intervals all arrived (0) or its share was a count;
// otherwise its highest measured rate over the time it was not heard from
// before it was declared lost. The target's count of its requests lies in
// [delivered + sentAfter, delivered + sentAfter + unknownAtMost].
struct LostAccount {
    std::uint64_t delivered = 0;
    std::uint64_t sentAfter = 0;
    bool bounded = false;            // false: nothing measured to bound it by
    std::uint64_t unknownAtMost = 0;
    std::string basis;               // how unknownAtMost was found
};
LostAccount lostAccount(const FleetRunWatch& watch, const std::string& agent, const ShareLoad& given);

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
