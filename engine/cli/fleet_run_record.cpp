#include "engine/cli/fleet_run_record.h"

#include <algorithm>
#include <cmath>

#include "engine/report/json_writer.h"
#include "engine/report/run_file_reader.h"

namespace tacho::engine {

MissingLoad missingLoad(const IntervalMerger::AgentTally& tally, const ShareLoad& given)
{
    MissingLoad missing;
    if (given.requests > 0) {
        missing.counted = true;
        missing.requests = given.requests - std::min(given.requests, tally.requests());
    } else if (given.seconds > 0) {
        missing.seconds = std::max(0.0, given.seconds - tally.seconds());
        const double rate = tally.seconds() > 0 ? double(tally.requests()) / tally.seconds() : 0;
        missing.requests = std::uint64_t(std::llround(rate * missing.seconds));
    }
    return missing;
}

namespace {

// The agent's highest rate over a second of at least half a second (a
// test's short tail says little), or over any second when it has none.
double peakRate(const IntervalMerger& streamed, const std::string& agent)
{
    double peak = 0, peakOfAny = 0;
    for (const auto& [key, second] : streamed.seconds()) {
        const auto share = second.agents.find(agent);
        if (share == second.agents.end())
            continue;
        peakOfAny = std::max(peakOfAny, share->second.perSecond());
        if (share->second.seconds >= 0.5)
            peak = std::max(peak, share->second.perSecond());
    }
    return peak > 0 ? peak : peakOfAny;
}

} // namespace

LostAccount lostAccount(const FleetRunWatch& watch, const std::string& agent, const ShareLoad& given)
{
    const AgentLoss& loss = watch.losses().at(agent);
    const IntervalMerger::AgentTally& tally = *watch.streamed().agent(agent);
    LostAccount account;
    account.delivered = loss.deliveredRequests;
    account.sentAfter = tally.requests() - std::min(tally.requests(), loss.deliveredRequests);
    const std::uint64_t known = account.delivered + account.sentAfter;
    if (loss.lateReport && loss.lateReport->kind == "final" && tally.complete >= loss.lateReport->intervals) {
        account.bounded = true;
        account.basis = "its late report, every interval it counts streamed";
        return account;
    }
    if (given.requests > 0) {
        account.bounded = true;
        account.unknownAtMost = given.requests - std::min(given.requests, known);
        account.basis = "its share's count less what is known";
    }
    const double rate = peakRate(watch.streamed(), agent);
    if (rate > 0) {
        // From the last interval that arrived (or the run's start) to when it
        // was declared lost, a second more for the interval it was filling and
        // one for a live agent to see its stop at its next heartbeat. (An
        // agent cut off from the control server but not from the target goes
        // on until it misses its coordinator's lease: kCoordinatorGoneMs.)
        const std::int64_t from = loss.lastIntervalAtMs > 0 ? loss.lastIntervalAtMs : watch.startedAtMs();
        const double silentSeconds = double(std::max<std::int64_t>(0, loss.lostAtMs - from)) / 1000 + 1
            + double(kAgentHeartbeatMs) / 1000;
        const auto atRate = std::uint64_t(std::ceil(rate * silentSeconds));
        if (!account.bounded || atRate < account.unknownAtMost) {
            account.unknownAtMost = atRate;
            account.basis = "its highest rate (" + std::to_string(std::uint64_t(std::ceil(rate))) + "/s) over the "
                + std::to_string(std::uint64_t(std::ceil(silentSeconds))) + " s it was not heard from";
        }
        account.bounded = true;
    }
    return account;
}

namespace {

// What a lost agent delivered in its streamed intervals, and what of its
// share that leaves missing.
void writeLostLoad(JsonWriter& w, const IntervalMerger::AgentTally& tally, const ShareLoad& given)
{
    LatencyHistogram latency;
    for (const auto& [index, test] : tally.tests)
        latency.add(test.latency);
    if (tally.lastSeq > 0) {
        const auto& last = tally.tests.at(tally.furthest.first);
        w.key("lostAfter")
            .beginObject()
            .field("seq", tally.lastSeq)
            .field("test", last.name)
            .field("second", tally.furthest.second)
            .field("endSeconds", last.endSeconds)
            .endObject();
    }
    w.key("delivered")
        .beginObject()
        .field("requests", tally.requests())
        .field("errors", tally.errors())
        .field("seconds", tally.seconds())
        .field("latency", latency.count() ? latency.toCompressedBase64() : std::string())
        .endObject();
    w.key("given").beginObject();
    if (given.requests > 0)
        w.field("requests", given.requests);
    if (given.seconds > 0)
        w.field("seconds", given.seconds);
    w.endObject();
    const MissingLoad missing = missingLoad(tally, given);
    w.key("missing").beginObject();
    if (missing.counted)
        w.field("requests", missing.requests);
    else if (given.seconds > 0)
        w.field("seconds", missing.seconds).field("requestsEstimate", missing.requests);
    w.endObject();
}

// The streamed intervals merged per second of each test, all agents (a
// lost one's too, up to its last interval); percentiles from the merged
// histograms, exact for each second.
void writeSecondsSeries(JsonWriter& w, const IntervalMerger& streamed)
{
    w.key("seconds").beginArray();
    for (const auto& [key, second] : streamed.seconds()) {
        const LatencyHistogram latency = second.mergedLatency();
        w.beginObject()
            .field("test", second.testName)
            .field("second", key.second)
            .field("requests", second.requests)
            .field("errors", second.errors)
            .field("seconds", second.longestSeconds())
            .field("requestsPerSecond", second.perSecond())
            .field("p50Ns", latency.valueAtPercentile(50))
            .field("p99Ns", latency.valueAtPercentile(99))
            .field("p999Ns", latency.valueAtPercentile(99.9))
            .field("maxNs", latency.max())
            .key("agents")
            .beginObject();
        for (const auto& [name, share] : second.agents)
            w.field(name, share.requests);
        w.endObject().endObject();
    }
    w.endArray();
}

} // namespace

namespace {

// A lost agent: why, when, and its account.
void writeLostAgent(JsonWriter& w, const FleetRecord& r, std::size_t index)
{
    const std::string& name = r.agents[index].name;
    const AgentLoss& loss = r.watch.losses().at(name);
    w.field("outcome", "lost")
        .field("lostBecause", loss.why)
        .field("lastSeenUtc", formatUtcTimestamp(double(r.watch.lastSeen().at(name)) / 1000));
    writeLostLoad(w, *r.watch.streamed().agent(name), r.given[index]);
    const LostAccount account = lostAccount(r.watch, name, r.given[index]);
    w.key("account").beginObject().field("delivered", account.delivered).field("sentAfter", account.sentAfter);
    if (account.bounded)
        w.field("unknownAtMost", account.unknownAtMost).field("unknownBasis", account.basis);
    else
        w.key("unknownAtMost").null().field("unknownBasis", "nothing measured to bound it by");
    w.endObject();
    if (loss.lateReport)
        w.key("lateReport")
            .beginObject()
            .field("kind", loss.lateReport->kind)
            .field("exitStatus", loss.lateReport->exitStatus)
            .field("intervals", loss.lateReport->intervals)
            .endObject();
}

} // namespace

std::map<std::string, std::string> serverRunIds(const std::vector<const LoadedRun*>& parts)
{
    std::map<std::string, std::string> ids;
    for (const LoadedRun* part : parts) {
        const auto& info = part->run.environment.serverInfo;
        const auto id = info.find("run_id");
        ids[part->label] = id == info.end() ? std::string() : id->second;
    }
    return ids;
}

std::string differentServers(const std::map<std::string, std::string>& runIds)
{
    std::map<std::string, std::string> agentsByServer;
    for (const auto& [agent, id] : runIds)
        if (!id.empty())
            agentsByServer[id] += (agentsByServer[id].empty() ? "" : ", ") + agent;
    if (agentsByServer.size() < 2)
        return {};
    std::string text;
    for (const auto& [id, agents] : agentsByServer)
        text += (text.empty() ? "" : "; ") + ("run_id " + id + ": " + agents);
    return text;
}

std::string fleetSection(const FleetRecord& r)
{
    JsonWriter w(0);
    w.beginObject()
        .field("runId", r.runId)
        .field("controlServer", r.controlServer)
        .field("startAtUtc", formatUtcTimestamp(double(r.startAtMs) / 1000))
        .field("complete", r.watch.complete())
        .field("oneServer", differentServers(r.serverRunIds).empty())
        .key("agents")
        .beginArray();
    for (std::size_t i = 0; i < r.agents.size(); ++i) {
        const AgentInfo& agent = r.agents[i];
        const auto report = r.watch.reports().find(agent.name);
        const bool lost = r.watch.losses().count(agent.name) > 0;
        const IntervalMerger::AgentTally& tally = *r.watch.streamed().agent(agent.name);
        w.beginObject();
        writeAgentIdentity(w, agent);
        w.field("incarnation", agent.incarnation);
        if (const auto id = r.serverRunIds.find(agent.name); id != r.serverRunIds.end() && !id->second.empty())
            w.field("serverRunId", id->second);
        w.key("args").beginArray();
        for (const std::string& a : r.orders[i].args)
            w.value(a);
        w.endArray();
        w.key("intervals")
            .beginObject()
            .field("received", tally.received)
            .field("lastSeq", tally.lastSeq)
            .field("requests", tally.requests())
            .field("errors", tally.errors())
            .field("duplicatesIgnored", tally.duplicates)
            .key("missingSeqs")
            .beginArray();
        for (const std::uint64_t seq : tally.missing())
            w.value(seq);
        w.endArray().endObject();
        if (lost) {
            writeLostAgent(w, r, i);
        } else if (report != r.watch.reports().end()) {
            w.field("outcome", report->second.kind == "final" ? "reported" : "failed")
                .field("exitStatus", report->second.exitStatus)
                .field("message", report->second.message);
        }
        w.endObject();
    }
    w.endArray();
    writeSecondsSeries(w, r.watch.streamed());
    w.endObject();
    return w.str();
}

} // namespace tacho::engine
