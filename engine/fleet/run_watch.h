#pragma once
// The coordinator's wait for a run on agents (issues 21, 29): reads the run's
// results and intervals streams until every agent has reported (and every
// interval its report counts has arrived) or is lost, and decides who is
// lost — its presence expired, another process took its name (a restart), or
// it did not report within kStopGraceMs of a stop. It ends within a bound
// after Ctrl+C/SIGTERM (at once after a second one), also with the control
// server away. While it waits it renews the coordinator's lease on its agents
// and the interval acknowledgements; finish() tells every agent the run is
// over. No printing but its own lines on `err`; the caller merges and writes.
#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/fleet/control_channel.h"
#include "engine/fleet/fleet_protocol.h"
#include "engine/fleet/interval_merger.h"

namespace tacho::engine {

// How an agent was lost, and what is known of its share.
struct AgentLoss {
    std::string why;                       // "went away (its heartbeat expired)", …
    std::int64_t lostAtMs = 0;             // this machine's clock
    std::uint64_t deliveredRequests = 0;   // in the intervals that arrived before it was lost
    std::int64_t lastIntervalAtMs = 0;     // when the last of those arrived (0: none), this machine's clock
    std::optional<AgentReport> lateReport; // its report, when it came after all
};

class FleetRunWatch {
public:
    // How long agents have to report after a stop before the wait ends without them.
    static constexpr std::int64_t kStopGraceMs = 10000;

    // `agents`: as chosen (their incarnations are the ones ordered);
    // `leaseHolder`: the lease's text (fleet_claims.h), already taken.
    FleetRunWatch(ControlChannel& control, std::string runId, std::vector<AgentInfo> agents, std::string leaseHolder,
                  std::ostream& err, const char* prefix);

    // Waits as above. `interrupts`: Ctrl+C/SIGTERM count (may be null);
    // `onSecond`: each merged second once every agent is past it.
    void run(const std::atomic<int>* interrupts, const std::function<void(const IntervalMerger::Second&)>& onSecond);
    // Every agent told its run is over (a stalled one that comes back stops,
    // and posts its report once), the leases given back.
    void finish();

    const std::vector<std::string>& names() const { return m_names; }
    const std::map<std::string, AgentReport>& reports() const { return m_reports; }
    const std::vector<std::string>& lost() const { return m_lost; }
    const std::map<std::string, AgentLoss>& losses() const { return m_losses; }
    const std::map<std::string, std::int64_t>& lastSeen() const { return m_lastSeen; }
    const IntervalMerger& streamed() const { return m_streamed; }
    bool stopSent() const { return m_stopSent; }
    // When the watch began (just after the orders went out), this machine's clock.
    std::int64_t startedAtMs() const { return m_startedAt; }
    // Every agent reported and every interval it counted arrived.
    bool complete() const;

private:
    void take(const RunStreamsRead& read);
    void takeReportsWithTheirIntervals();
    void renew();
    void checkPresence();
    void stopAgents();
    void markLost(const std::string& name, const std::string& why);
    bool finished(const std::string& name) const;
    std::set<std::string> finishedNames() const;

    ControlChannel& m_control;
    std::string m_runId;
    std::vector<AgentInfo> m_agents;
    std::vector<std::string> m_names;
    std::string m_leaseHolder;
    std::ostream& m_err;
    const char* m_prefix;

    IntervalMerger m_streamed;
    std::map<std::string, AgentReport> m_reports;
    std::map<std::string, std::int64_t> m_reportedAt;   // this machine's clock
    std::set<std::string> m_taken;
    std::set<std::string> m_incomplete;                 // taken with intervals missing
    std::vector<std::string> m_lost;
    std::map<std::string, AgentLoss> m_losses;
    std::map<std::string, std::int64_t> m_lastSeen;     // this machine's clock
    std::map<std::string, std::int64_t> m_lastIntervalAt;
    std::string m_lastReportId = "0-0";
    std::string m_lastIntervalId = "0-0";
    std::int64_t m_startedAt = 0;
    std::int64_t m_lastPresenceCheck = 0;
    std::int64_t m_lastRenewal = 0;
    bool m_stopSent = false;
    std::int64_t m_stopSentAt = 0;
};

} // namespace tacho::engine
