#include "engine/telemetry/bottleneck.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tacho::engine {

namespace {

std::string percent(double value)
{
    return std::to_string(static_cast<long long>(std::lround(value))) + "%";
}

std::string rateText(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

std::string secondsText(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return -1;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// The intervals that speak for the measured test: mostly after the warm-up,
// and not a sliver at the end (unless slivers are all there is).
template <typename Point>
std::vector<const Point*> judged(const std::vector<Point>& points, double interval)
{
    std::vector<const Point*> measured;
    for (const Point& p : points)
        if ((p.startSeconds + p.endSeconds) / 2 >= 0)
            measured.push_back(&p);
    std::vector<const Point*> full;
    for (const Point* p : measured)
        if (p->endSeconds - p->startSeconds >= 0.5 * interval)
            full.push_back(p);
    return full.empty() ? measured : full;
}

} // namespace

const char* bottleneckName(Bottleneck kind)
{
    switch (kind) {
    case Bottleneck::ServerBound: return "server-bound";
    case Bottleneck::ClientBound: return "client-bound";
    case Bottleneck::Neither: return "neither";
    case Bottleneck::Unknown: break;
    }
    return "unknown";
}

Bottleneck bottleneckFromName(const std::string& name)
{
    for (Bottleneck kind : { Bottleneck::ServerBound, Bottleneck::ClientBound, Bottleneck::Neither })
        if (name == bottleneckName(kind))
            return kind;
    return Bottleneck::Unknown;
}

BottleneckVerdict judgeBottleneck(const TestTelemetry& telemetry, const VerdictContext& context,
                                  const VerdictThresholds& thresholds)
{
    BottleneckVerdict v;
    v.thresholds = thresholds;
    VerdictInputs& in = v.inputs;
    in.targetRate = context.targetRate;
    in.achievedRate = context.achievedRate;
    in.connections = context.connections;
    in.pipeline = context.pipeline;
    in.threads = context.threads;
    if (!telemetry.recorded()) {
        v.reason = "no telemetry recorded";
        return v;
    }
    const double interval = telemetry.intervalSeconds;

    // The server: the node whose busiest thread was busiest (median).
    std::string serverMissing;
    int serverJudged = 0;
    for (const ServerTelemetry& server : telemetry.servers) {
        const auto points = judged(server.points, interval);
        if (points.empty()) {
            if (serverMissing.empty())
                serverMissing = server.unavailable.empty() ? "too short to sample (shorter than the "
                                                            + secondsText(interval) + " s interval)"
                                                      : "server telemetry " + server.unavailable;
            continue;
        }
        const bool mainThread = std::all_of(points.begin(), points.end(),
                                            [](const ServerPoint* p) { return p->mainThreadCpuPercent >= 0; });
        // A server on this machine that waited for a CPU wanted more than it got.
        const bool waitKnown = mainThread && std::all_of(points.begin(), points.end(), [](const ServerPoint* p) {
            return p->mainThreadWaitPercent >= 0;
        });
        std::vector<double> busiest;
        std::vector<double> waits;
        int hot = 0;
        for (const ServerPoint* p : points) {
            waits.push_back(waitKnown ? p->mainThreadWaitPercent : 0);
            busiest.push_back((mainThread ? p->mainThreadCpuPercent : p->cpuPercent) + waits.back());
            hot += busiest.back() >= thresholds.serverThreadPercent ? 1 : 0;
        }
        const double middle = median(busiest);
        if (middle > in.serverBusiestPercent) {
            in.serverBusiestPercent = middle;
            in.serverWaitPercent = waitKnown ? median(waits) : -1;
            in.serverHotIntervals = hot;
            serverJudged = static_cast<int>(points.size());
            const std::string where = telemetry.servers.size() > 1 ? " on " + server.address : std::string();
            in.serverBusiestWhat = (mainThread ? "server main thread" : "server process") + where;
        }
    }

    // This machine: the busiest engine thread (CPU + waiting for a CPU), the host.
    const auto clientPoints = judged(telemetry.client.points, interval);
    for (const ClientPoint* p : clientPoints) {
        double demand = 0;
        double waited = 0;
        for (std::size_t t = 0; t < p->threadCpuPercent.size(); ++t) {
            in.engineThreadMaxPercent = std::max(in.engineThreadMaxPercent, p->threadCpuPercent[t]);
            const double wait = t < p->threadWaitPercent.size() ? p->threadWaitPercent[t] : 0;
            demand = std::max(demand, p->threadCpuPercent[t] + wait);
            waited = std::max(waited, wait);
        }
        in.engineDemandMaxPercent = std::max(in.engineDemandMaxPercent, demand);
        in.engineWaitMaxPercent = std::max(in.engineWaitMaxPercent, waited);
        in.hostBusyMaxPercent = std::max(in.hostBusyMaxPercent, p->hostBusyPercent);
        in.hostStealMaxPercent = std::max(in.hostStealMaxPercent, p->hostStealPercent);
        // This machine limits the run when it holds an engine thread back: a
        // thread kept waiting for a CPU (by a busy host, or by the CPUs it
        // may use: pinning, a cgroup) — not a thread sleeping on round trips
        // beside a neighbour's build.
        const bool starved = waited >= thresholds.hostStarvedWaitPercent;
        if (demand >= thresholds.engineThreadPercent || starved)
            ++in.clientHotIntervals;
    }
    in.intervalsJudged = std::max(serverJudged, static_cast<int>(clientPoints.size()));

    const bool serverHot = serverJudged > 0 && in.serverHotIntervals >= thresholds.shareOfSeconds * serverJudged;
    const bool clientHot = !clientPoints.empty()
        && in.clientHotIntervals >= thresholds.shareOfSeconds * static_cast<double>(clientPoints.size());
    const std::string engineText = in.engineThreadMaxPercent >= 0
        ? "engine threads ≤ " + percent(in.engineThreadMaxPercent)
        : std::string("engine threads not sampled");
    std::string serverText = in.serverBusiestPercent >= 0
        ? in.serverBusiestWhat + " " + percent(in.serverBusiestPercent) + " of a core"
        : std::string();
    if (in.serverWaitPercent >= 1)
        serverText += " (" + percent(in.serverWaitPercent) + " of it waiting for a CPU)";

    if (serverHot) {
        v.kind = Bottleneck::ServerBound;
        v.reason = serverText + "; " + engineText;
        if (clientHot)
            v.reason += "; this machine was near saturation too";
    } else if (clientHot) {
        v.kind = Bottleneck::ClientBound;
        const bool threadHot = in.engineDemandMaxPercent >= thresholds.engineThreadPercent;
        if (threadHot) {
            v.reason = "an engine thread wanted " + percent(in.engineDemandMaxPercent) + " of a core (CPU "
                + percent(in.engineThreadMaxPercent) + ", the rest waiting for a CPU)";
            v.advice = telemetry.client.cpuCount > context.threads
                ? "more --threads, or another load machine"
                : "another load machine (every CPU here already runs an engine thread)";
        } else {
            const std::string waitedText = "an engine thread waited " + percent(in.engineWaitMaxPercent)
                + " of the time for a CPU";
            const std::string hostText = "the host was " + percent(in.hostBusyMaxPercent) + " busy (steal "
                + percent(std::max(0.0, in.hostStealMaxPercent)) + ")";
            // Below the host line, the CPUs the engine may use were taken (pinning, a cgroup).
            v.reason = in.hostBusyMaxPercent >= thresholds.hostBusyPercent
                ? hostText + ", " + waitedText
                : waitedText + " while " + hostText + ": the CPUs it may run on were taken";
            v.advice = "another load machine";
        }
        if (!serverText.empty())
            v.reason += "; " + serverText;
        else if (!serverMissing.empty())
            v.reason += "; " + serverMissing;   // what could not be judged, said too
    } else if (serverJudged > 0 && !clientPoints.empty()) {
        v.kind = Bottleneck::Neither;
        v.reason = serverText + "; " + engineText + ": waiting on round trips";
        v.advice = "more connections or a deeper pipeline would go faster";
    } else {
        v.kind = Bottleneck::Unknown;
        v.reason = serverMissing.empty() ? std::string("too short to sample") : serverMissing;
        if (!clientPoints.empty())
            v.reason += "; " + engineText + ": not client-bound";
    }

    if (context.targetRate > 0) {
        const bool held = context.achievedRate >= thresholds.rateHeldRatio * context.targetRate;
        v.rate = held ? "held" : "not held";
        const std::string figures = rateText(context.achievedRate) + " of " + rateText(context.targetRate) + " requests/s";
        if (held) {
            v.reason = "rate held (" + figures + "); " + v.reason;
            if (v.kind == Bottleneck::Neither)
                v.advice.clear();
        } else {
            std::string because = v.kind == Bottleneck::ServerBound ? "the server ran out of CPU"
                : v.kind == Bottleneck::ClientBound                 ? "this machine ran out of CPU"
                : v.kind == Bottleneck::Neither ? "too few connections for the round-trip time"
                                                : "the limit could not be judged";
            v.reason = "rate not held (" + figures + ") because " + because + "; " + v.reason;
            if (v.kind == Bottleneck::Neither)
                v.advice = "more connections";
        }
    }
    return v;
}

std::string describeVerdict(const BottleneckVerdict& verdict)
{
    std::string text = std::string(bottleneckName(verdict.kind)) + " (" + verdict.reason + ")";
    if (!verdict.advice.empty())
        text += ": " + verdict.advice;
    return text;
}

} // namespace tacho::engine
