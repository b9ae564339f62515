#include "engine/fleet/run_watch.h"

#include <algorithm>
#include <ostream>

#include "engine/fleet/fleet_claims.h"
#include "engine/resp/printable_text.h"

namespace tacho::engine {

namespace {

// How often the coordinator looks for agents that went away.
constexpr std::int64_t kPresenceCheckMs = 2000;
// How long a report waits for the intervals it counts before it is taken
// with a gap (an agent whose queue overflowed while the control server was away).
constexpr std::int64_t kIntervalWaitMs = 15000;
// The run's keys that the coordinator sets live this long.
constexpr const char* kRunKeySeconds = "3600";

} // namespace

FleetRunWatch::FleetRunWatch(ControlChannel& control, std::string runId, std::vector<AgentInfo> agents,
                             std::string leaseHolder, std::ostream& err, const char* prefix)
    : m_control(control)
    , m_runId(std::move(runId))
    , m_agents(std::move(agents))
    , m_leaseHolder(std::move(leaseHolder))
    , m_err(err)
    , m_prefix(prefix)
    , m_streamed([&] {
        std::vector<std::string> names;
        for (const AgentInfo& agent : m_agents)
            names.push_back(agent.name);
        return names;
    }())
{
    for (const AgentInfo& agent : m_agents)
        m_names.push_back(agent.name);
    m_startedAt = m_lastPresenceCheck = localTimeMs();
    for (const std::string& name : m_names)
        m_lastSeen[name] = m_lastPresenceCheck;
}

bool FleetRunWatch::finished(const std::string& name) const
{
    return m_taken.count(name) || m_losses.count(name);
}

std::set<std::string> FleetRunWatch::finishedNames() const
{
    std::set<std::string> done(m_lost.begin(), m_lost.end());
    done.insert(m_taken.begin(), m_taken.end());
    return done;
}

bool FleetRunWatch::complete() const
{
    return m_lost.empty() && m_incomplete.empty() && m_taken.size() == m_names.size();
}

void FleetRunWatch::run(const std::atomic<int>* interrupts,
                        const std::function<void(const IntervalMerger::Second&)>& onSecond)
{
    ControlOutage outage;
    std::string error;
    while (finishedNames().size() < m_names.size()) {
        const int interruptCount = interrupts ? interrupts->load() : 0;
        if (interruptCount > 0)
            stopAgents();   // Ctrl+C, SIGTERM
        // A second interrupt, or agents silent after the stop: what is in is the run.
        if (interruptCount > 1 || (m_stopSent && localTimeMs() - m_stopSentAt > kStopGraceMs)) {
            const std::string why = interruptCount > 1
                ? "did not report before the second interrupt"
                : "did not report within " + std::to_string(kStopGraceMs / 1000) + " s of the stop";
            for (const std::string& name : m_names) {
                if (finished(name))
                    continue;
                if (!m_reports.count(name)) {
                    markLost(name, why);
                    continue;
                }
                // Reported, its intervals not all in: its run file counts.
                m_incomplete.insert(name);
                m_taken.insert(name);
            }
            break;
        }
        const auto received = readRunStreams(m_control, m_runId, &m_lastReportId, &m_lastIntervalId, 500, &error);
        if (!received) {
            outage.failed(error, m_err, m_prefix);
            continue;
        }
        outage.recovered();
        take(*received);
        takeReportsWithTheirIntervals();
        renew();
        for (const IntervalMerger::Second* second : m_streamed.takeReady(finishedNames()))
            if (onSecond)
                onSecond(*second);
        if (localTimeMs() - m_lastPresenceCheck >= kPresenceCheckMs)
            checkPresence();
    }
    for (const IntervalMerger::Second* second : m_streamed.takeReady(finishedNames()))
        if (onSecond)
            onSecond(*second);
}

void FleetRunWatch::take(const RunStreamsRead& read)
{
    for (const FleetInterval& interval : read.intervals)
        if (m_streamed.add(interval) == IntervalMerger::Added::New && !m_losses.count(interval.agent))
            m_lastIntervalAt[interval.agent] = localTimeMs();
    for (const AgentReport& report : read.reports) {
        if (std::find(m_names.begin(), m_names.end(), report.agent) == m_names.end())
            continue;
        if (const auto loss = m_losses.find(report.agent); loss != m_losses.end()) {
            // Late: kept for the account (what it certainly sent), not merged.
            if (!loss->second.lateReport)
                loss->second.lateReport = report;
            m_control.command({ "SET", fleetAckKey(m_runId, report.agent), "1", "EX", kRunKeySeconds }, nullptr);
            continue;
        }
        // The first copy counts; a repost (no acknowledgement seen yet) is the same report.
        if (m_reports.emplace(report.agent, report).second) {
            m_reportedAt[report.agent] = localTimeMs();
            // A refusal will not change by waiting: the others stop, and the run ends now.
            if (report.kind == "refused") {
                m_err << m_prefix << "agent " << report.agent << " refused its order: " << printable(report.message)
                      << "\n";
                stopAgents();
            }
        } else if (m_taken.count(report.agent)) {
            m_control.command({ "SET", fleetAckKey(m_runId, report.agent), "1", "EX", kRunKeySeconds }, nullptr);
        }
    }
}

// A report is taken (acknowledged) once every interval it counts has
// arrived, or after kIntervalWaitMs without them.
void FleetRunWatch::takeReportsWithTheirIntervals()
{
    for (const auto& [name, report] : m_reports) {
        if (m_taken.count(name))
            continue;
        const IntervalMerger::AgentTally& tally = *m_streamed.agent(name);
        const bool intervalsIn = tally.complete >= report.intervals;
        if (!intervalsIn && localTimeMs() - m_reportedAt[name] < kIntervalWaitMs)
            continue;
        if (!intervalsIn) {
            m_err << m_prefix << "agent " << name << ": "
                  << report.intervals - std::min(report.intervals, tally.received) << " of its " << report.intervals
                  << " intervals never arrived (the run file lists them)\n"
                  << std::flush;
            m_incomplete.insert(name);
        }
        m_control.command({ "SET", fleetAckKey(m_runId, name), "1", "EX", kRunKeySeconds }, nullptr);
        m_taken.insert(name);
    }
}

// Once a second: the leases, and how far each agent's intervals are held
// (both set again after a control server's restart lost them).
void FleetRunWatch::renew()
{
    if (localTimeMs() - m_lastRenewal < kLeaseRenewMs)
        return;
    m_lastRenewal = localTimeMs();
    renewLeases(m_control, m_names, m_leaseHolder);
    for (const std::string& name : m_names)
        if (const std::uint64_t complete = m_streamed.agent(name)->complete)
            m_control.command(
                { "SET", fleetIntervalAckKey(m_runId, name), std::to_string(complete), "EX", kRunKeySeconds }, nullptr);
}

// An agent is lost when its presence has been gone for longer than a
// presence lasts (not a control server's restart: the heartbeat renews it
// within a second), or when another process now holds its name (it was
// restarted: the new one knows nothing of this run).
void FleetRunWatch::checkPresence()
{
    m_lastPresenceCheck = localTimeMs();
    std::string error;
    const auto present = onlineAgents(m_control, &error);
    if (!present)
        return;
    for (const AgentInfo& ordered : m_agents) {
        const std::string& name = ordered.name;
        const auto now = std::find_if(present->begin(), present->end(),
                                      [&](const AgentInfo& a) { return a.name == name; });
        const bool restarted = now != present->end() && now->incarnation != ordered.incarnation;
        if (now != present->end() && !restarted)
            m_lastSeen[name] = m_lastPresenceCheck;
        if (finished(name) || m_reports.count(name))
            continue;
        if (restarted)
            markLost(name, "restarted (another process, host " + printable(now->host) + ", holds its name now)");
        else if (m_lastPresenceCheck - m_lastSeen[name] > kAgentPresenceTtlMs)
            markLost(name, "went away (its heartbeat expired)");
    }
}

void FleetRunWatch::stopAgents()
{
    if (m_stopSent)
        return;
    m_control.command({ "SET", fleetStopKey(m_runId), "1", "EX", kRunKeySeconds }, nullptr);
    m_err << m_prefix << "stopping the agents\n" << std::flush;
    m_stopSent = true;
    m_stopSentAt = localTimeMs();
}

void FleetRunWatch::markLost(const std::string& name, const std::string& why)
{
    const IntervalMerger::AgentTally& tally = *m_streamed.agent(name);
    AgentLoss loss;
    loss.why = why;
    loss.lostAtMs = localTimeMs();
    loss.deliveredRequests = tally.requests();
    loss.lastIntervalAtMs = m_lastIntervalAt.count(name) ? m_lastIntervalAt.at(name) : 0;
    m_losses[name] = loss;
    m_lost.push_back(name);
    // Should it come back (a stall), it stops rather than load the target unseen.
    m_control.command({ "SET", fleetAgentStopKey(m_runId, name), "1", "EX", kRunKeySeconds }, nullptr);
    m_err << m_prefix << "agent " << name << " " << why;
    if (tally.lastSeq > 0)
        m_err << " after its interval " << tally.lastSeq << " (" << printable(tally.tests.at(tally.furthest.first).name)
              << ", second " << tally.furthest.second << ")";
    m_err << "; its share is lost\n" << std::flush;
}

void FleetRunWatch::finish()
{
    m_control.command({ "SET", fleetStopKey(m_runId), "1", "EX", kRunKeySeconds }, nullptr);
    for (const std::string& name : m_names)
        m_control.command({ "SET", fleetAckKey(m_runId, name), "1", "EX", kRunKeySeconds }, nullptr);
    releaseLeases(m_control, m_names, m_leaseHolder);
}

} // namespace tacho::engine
