#pragma once
// The coordinator's side of the streamed intervals (issue 21). Each agent's
// intervals are kept once by seq: a copy posted again (after a control
// server's restart, or because the acknowledgement was not seen yet) is
// ignored, a gap is noticed and closed when the late copy comes. They are
// summed per agent and test (what a lost agent delivered), and merged per
// second of each test across the agents (the live progress line, the run
// file's per-second series). No I/O: the coordinator feeds it what it read.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/fleet/fleet_protocol.h"
#include "engine/stats/latency_histogram.h"

namespace tacho::engine {

class IntervalMerger {
public:
    explicit IntervalMerger(std::vector<std::string> agents);

    enum class Added { New, Duplicate, UnknownAgent };
    Added add(const FleetInterval& interval);

    // (test index, second of that test): the order intervals are merged in.
    using SecondKey = std::pair<std::size_t, std::uint64_t>;

    struct TestTally {
        std::string name;
        std::uint64_t requests = 0;
        std::uint64_t errors = 0;
        double endSeconds = 0;           // the latest interval's end
        LatencyHistogram latency;        // all its commands
    };
    struct AgentTally {
        std::uint64_t received = 0;      // distinct seqs held
        std::uint64_t complete = 0;      // every seq 1..complete is held
        std::uint64_t lastSeq = 0;       // the highest held
        std::uint64_t duplicates = 0;    // copies ignored
        SecondKey furthest { 0, 0 };     // the latest second it sent
        std::map<std::size_t, TestTally> tests;   // by test index
        std::set<std::uint64_t> heldAboveComplete;

        std::uint64_t requests() const;
        std::uint64_t errors() const;
        double seconds() const;          // measured seconds covered, over its tests
        std::vector<std::uint64_t> missing() const;   // seqs below lastSeq not held
    };
    // nullptr for a name not given to the constructor.
    const AgentTally* agent(const std::string& name) const;

    struct AgentShare {
        std::uint64_t requests = 0;
        std::uint64_t errors = 0;
        double seconds = 0;              // the interval's length
        double perSecond() const { return seconds > 0 ? double(requests) / seconds : 0; }
    };
    struct Second {
        SecondKey key;
        std::string testName;
        std::uint64_t requests = 0;
        std::uint64_t errors = 0;
        std::map<std::string, AgentShare> agents;
        std::vector<std::string> latency;   // each command of each agent, compressed
        double perSecond() const;           // the agents' rates summed
        double longestSeconds() const;      // the longest agent's interval
        LatencyHistogram mergedLatency() const;
    };
    const std::map<SecondKey, Second>& seconds() const { return m_seconds; }

    // Seconds not handed out before that every agent has gone past (sent a
    // later one), counting those in `finished` (reported or lost) as past
    // everything; in order.
    std::vector<const Second*> takeReady(const std::set<std::string>& finished);

private:
    std::vector<std::string> m_names;
    std::map<std::string, AgentTally> m_agents;
    std::map<SecondKey, Second> m_seconds;
    std::set<SecondKey> m_handedOut;
};

} // namespace tacho::engine
