#include "engine/stats/interval_stats.h"

#include <algorithm>

namespace tacho::engine {

void CommandCounters::mergeFrom(const CommandCounters& other)
{
    latency.add(other.latency);
    uncorrected.add(other.uncorrected);
    requests += other.requests;
    errors += other.errors;
    hits += other.hits;
    misses += other.misses;
    bytesSent += other.bytesSent;
    bytesReceived += other.bytesReceived;
}

void CommandCounters::clear()
{
    latency.reset();
    uncorrected.reset();
    requests = errors = hits = misses = bytesSent = bytesReceived = 0;
}

void NodeCounters::mergeFrom(const NodeCounters& other)
{
    latency.add(other.latency);
    requests += other.requests;
    errors += other.errors;
}

void NodeCounters::clear()
{
    latency.reset();
    requests = errors = 0;
}

void IntervalStats::noteError(ErrorKind kind, std::string_view text)
{
    ++errorsByKind[static_cast<std::size_t>(kind)];
    noteMessage(text);
}

void IntervalStats::noteMessage(std::string_view text)
{
    lastError.assign(text);
    if (distinctErrors.size() < kMaxDistinctErrors
        && std::find(distinctErrors.begin(), distinctErrors.end(), text) == distinctErrors.end())
        distinctErrors.emplace_back(text);
}

void IntervalStats::mergeFrom(const IntervalStats& other)
{
    if (commands.size() < other.commands.size())
        commands.resize(other.commands.size());
    for (std::size_t i = 0; i < other.commands.size(); ++i)
        commands[i].mergeFrom(other.commands[i]);
    if (nodes.size() < other.nodes.size())
        nodes.resize(other.nodes.size());
    for (std::size_t i = 0; i < other.nodes.size(); ++i)
        nodes[i].mergeFrom(other.nodes[i]);
    moved += other.moved;
    asked += other.asked;
    redirectFailures += other.redirectFailures;
    retried += other.retried;
    topologyRefreshes += other.topologyRefreshes;
    clientGap.add(other.clientGap);
    reconnects += other.reconnects;
    connectErrors += other.connectErrors;
    warmupRequests += other.warmupRequests;
    unanswered += other.unanswered;
    replyTimeouts += other.replyTimeouts;
    scanKeys += other.scanKeys;
    scanPasses += other.scanPasses;
    maxSendLagNs = std::max(maxSendLagNs, other.maxSendLagNs);
    lastReplyNs = std::max(lastReplyNs, other.lastReplyNs);
    openConnections = std::max(openConnections, other.openConnections);
    for (std::size_t i = 0; i < kErrorKinds; ++i)
        errorsByKind[i] += other.errorsByKind[i];
    for (const auto& text : other.distinctErrors)
        if (distinctErrors.size() < kMaxDistinctErrors
            && std::find(distinctErrors.begin(), distinctErrors.end(), text) == distinctErrors.end())
            distinctErrors.push_back(text);
    if (!other.lastError.empty())
        lastError = other.lastError;
}

void IntervalStats::clear()
{
    for (auto& command : commands)
        command.clear();
    for (auto& node : nodes)
        node.clear();
    moved = asked = retried = redirectFailures = topologyRefreshes = 0;
    clientGap.reset();
    reconnects = connectErrors = warmupRequests = unanswered = replyTimeouts = maxSendLagNs = 0;
    lastReplyNs = scanKeys = scanPasses = openConnections = 0;
    errorsByKind.fill(0);
    distinctErrors.clear();
    lastError.clear();
}

std::uint64_t IntervalStats::requests() const
{
    std::uint64_t n = 0;
    for (const auto& command : commands)
        n += command.requests;
    return n;
}

std::uint64_t IntervalStats::errors() const
{
    std::uint64_t n = 0;
    for (const auto& command : commands)
        n += command.errors;
    return n;
}

CommandCounters IntervalStats::total() const
{
    CommandCounters sum;
    for (const auto& command : commands)
        sum.mergeFrom(command);
    return sum;
}

} // namespace tacho::engine
