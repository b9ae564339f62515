#include "engine/run/test_sequence.h"

#include <algorithm>

namespace tacho::engine {

namespace {

// What only tests run one after the other add up (side by side, a merge
// takes the longest connect phase instead).
void addSequenceCounts(TestResult& into, const TestResult& t)
{
    addTestCounters(into, t);
    into.connectSeconds += t.connectSeconds;
    into.warmupSeconds += t.warmupSeconds;
    into.moved += t.moved;
    into.asked += t.asked;
    into.retried += t.retried;
    into.topologyRefreshes += t.topologyRefreshes;
    into.redirectFailures += t.redirectFailures;
    into.maxSendLagNs = std::max(into.maxSendLagNs, t.maxSendLagNs);
}

void addCrossCheck(ServerCrossCheck& into, const ServerCrossCheck& c, bool first)
{
    into.available = (first || into.available) && c.available;
    if (!c.available && into.unavailable.empty())
        into.unavailable = c.unavailable;
    into.command += (into.command.empty() || c.command.empty() ? "" : "+") + c.command;
    into.serverCalls += c.serverCalls;
    into.serverRejectedCalls += c.serverRejectedCalls;
    into.serverFailedCalls += c.serverFailedCalls;
    into.tachoCalls += c.tachoCalls;
    into.clientRequests += c.clientRequests;
}

// The test's commands as rows; a single-command test (redis-benchmark's)
// becomes one row named after it.
void addCommands(TestResult& into, TestResult& t)
{
    if (!t.commands.empty()) {
        for (CommandResult& c : t.commands)
            into.commands.push_back(std::move(c));
        return;
    }
    CommandResult row;
    row.name = t.name;
    row.requests = t.requests;
    row.errors = t.errors;
    row.hits = t.hits;
    row.misses = t.misses;
    row.bytesSent = t.bytesSent;
    row.bytesReceived = t.bytesReceived;
    row.latency = t.latency.clone();
    row.uncorrectedLatency = t.uncorrectedLatency.clone();
    into.commands.push_back(std::move(row));
}

void addNodes(std::vector<NodeResult>& into, std::vector<NodeResult>& nodes)
{
    for (NodeResult& node : nodes) {
        const auto same = std::find_if(into.begin(), into.end(), [&](const NodeResult& n) { return n.address == node.address; });
        if (same == into.end()) {
            into.push_back(std::move(node));
            continue;
        }
        same->requests += node.requests;
        same->errors += node.errors;
        same->latency.add(node.latency);
    }
}

} // namespace

RunStatus worseStatus(RunStatus a, RunStatus b)
{
    auto rank = [](RunStatus s) { return s == RunStatus::Failed ? 2 : s == RunStatus::Stopped ? 1 : 0; };
    return rank(a) >= rank(b) ? a : b;
}

void addTestCounters(TestResult& into, const TestResult& from)
{
    into.requests += from.requests;
    into.errors += from.errors;
    into.hits += from.hits;
    into.misses += from.misses;
    into.bytesSent += from.bytesSent;
    into.bytesReceived += from.bytesReceived;
    into.connectErrors += from.connectErrors;
    into.reconnects += from.reconnects;
    into.unanswered += from.unanswered;
    into.replyTimeouts += from.replyTimeouts;
    into.scanKeys += from.scanKeys;
    into.scanPasses += from.scanPasses;
    into.clampedLatencies += from.clampedLatencies;
    into.warmupRequests += from.warmupRequests;
    for (const auto& [kind, count] : from.errorsByKind)
        into.errorsByKind[kind] += count;
    for (const std::string& message : from.firstErrors)
        if (into.firstErrors.size() < 5
            && std::find(into.firstErrors.begin(), into.firstErrors.end(), message) == into.firstErrors.end())
            into.firstErrors.push_back(message);
}

TestResult testsInSequence(std::vector<TestResult> tests, std::string name)
{
    TestResult out;
    out.name = std::move(name);
    for (std::size_t i = 0; i < tests.size(); ++i) {
        TestResult& t = tests[i];
        out.commandStatName += (out.commandStatName.empty() || t.commandStatName.empty() ? "" : "+") + t.commandStatName;
        addSequenceCounts(out, t);
        out.latency.add(t.latency);
        out.uncorrectedLatency.add(t.uncorrectedLatency);
        out.clientGap.add(t.clientGap);
        out.targetRate = std::max(out.targetRate, t.targetRate);
        // One time axis: each test's intervals after the ones before it.
        const double offset = out.seconds;
        for (IntervalPoint& p : t.intervals) {
            p.startSeconds += offset;
            p.endSeconds += offset;
            p.commands.clear();   // indexes of that test's commands, not of the rows here
            out.intervals.push_back(std::move(p));
        }
        out.seconds += t.seconds;
        addCommands(out, t);
        addNodes(out.nodes, t.nodes);
        for (ClusterContact& contact : t.clusterNodes)
            if (std::none_of(out.clusterNodes.begin(), out.clusterNodes.end(),
                             [&](const ClusterContact& c) { return c.address == contact.address; }))
                out.clusterNodes.push_back(std::move(contact));
        if (out.clusterWait.empty())
            out.clusterWait = t.clusterWait;
        addCrossCheck(out.crossCheck, t.crossCheck, i == 0);
        out.status = worseStatus(out.status, t.status);
        if (out.failure.empty() && !t.failure.empty()) {
            out.failure = t.failure;
            out.failureReply = t.failureReply;
            out.failureConnectionError = t.failureConnectionError;
        }
    }
    return out;
}

} // namespace tacho::engine
