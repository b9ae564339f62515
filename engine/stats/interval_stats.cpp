#include "engine/stats/interval_stats.h"

#include <algorithm>

namespace tacho::engine {

void IntervalStats::noteError(ErrorKind kind, std::string_view text)
{
    ++errors;
    ++errorsByKind[static_cast<std::size_t>(kind)];
    lastError.assign(text);
    if (distinctErrors.size() < kMaxDistinctErrors
        && std::find(distinctErrors.begin(), distinctErrors.end(), text) == distinctErrors.end())
        distinctErrors.emplace_back(text);
}

void IntervalStats::mergeFrom(const IntervalStats& other)
{
    latency.add(other.latency);
    clientGap.add(other.clientGap);
    requests += other.requests;
    errors += other.errors;
    hits += other.hits;
    misses += other.misses;
    bytesSent += other.bytesSent;
    bytesReceived += other.bytesReceived;
    reconnects += other.reconnects;
    connectErrors += other.connectErrors;
    warmupRequests += other.warmupRequests;
    lastReplyNs = std::max(lastReplyNs, other.lastReplyNs);
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
    latency.reset();
    clientGap.reset();
    requests = errors = hits = misses = bytesSent = bytesReceived = 0;
    reconnects = connectErrors = warmupRequests = 0;
    lastReplyNs = 0;
    errorsByKind.fill(0);
    distinctErrors.clear();
    lastError.clear();
}

} // namespace tacho::engine
