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

std::string fleetSection(const FleetRecord& r)
{
    JsonWriter w(0);
    w.beginObject()
        .field("runId", r.runId)
        .field("controlServer", r.controlServer)
        .field("startAtUtc", formatUtcTimestamp(double(r.startAtMs) / 1000))
        .key("agents")
        .beginArray();
    for (std::size_t i = 0; i < r.agents.size(); ++i) {
        const AgentInfo& agent = r.agents[i];
        const auto report = r.reports.find(agent.name);
        const bool lost = std::find(r.lost.begin(), r.lost.end(), agent.name) != r.lost.end();
        const IntervalMerger::AgentTally& tally = *r.streamed.agent(agent.name);
        w.beginObject();
        writeAgentIdentity(w, agent);
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
            w.field("outcome", "lost");
            w.field("lastSeenUtc", formatUtcTimestamp(double(r.lastSeenLocalMs.at(agent.name)) / 1000));
            writeLostLoad(w, tally, r.given[i]);
        } else if (report != r.reports.end()) {
            w.field("outcome", report->second.kind == "final" ? "reported" : "failed")
                .field("exitStatus", report->second.exitStatus)
                .field("message", report->second.message);
        }
        w.endObject();
    }
    w.endArray();
    writeSecondsSeries(w, r.streamed);
    w.endObject();
    return w.str();
}

} // namespace tacho::engine
