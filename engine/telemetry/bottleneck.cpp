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

namespace {

// The servers' side: the busiest thread of the node whose busiest thread was
// busiest (median). A node whose CPU its INFO does not give is not judged:
// `missing` says so, and `unread` counts it.
struct ServerSide {
    int judged = 0;            // intervals judged on the busiest node
    int unread = 0;            // nodes not judged (no points, no CPU figures)
    std::string missing;       // why the first of them was not
};

ServerSide judgeServers(const TestTelemetry& telemetry, const VerdictThresholds& thresholds, VerdictInputs& in)
{
    ServerSide side;
    const double interval = telemetry.intervalSeconds;
    const auto unread = [&side](std::string why) {
        ++side.unread;
        if (side.missing.empty())
            side.missing = std::move(why);
    };
    for (const ServerTelemetry& server : telemetry.servers) {
        const auto points = judged(server.points, interval);
        if (points.empty()) {
            unread(server.unavailable.empty()
                       ? "too short to sample (shorter than the " + secondsText(interval) + " s interval)"
                       : "server telemetry " + server.unavailable);
            continue;
        }
        const auto all = [&points](double ServerPoint::*member) {
            return std::all_of(points.begin(), points.end(), [member](const ServerPoint* p) { return known(p->*member); });
        };
        const bool mainThread = all(&ServerPoint::mainThreadCpuPercent);
        if (!mainThread && !all(&ServerPoint::cpuPercent)) {
            // A managed service's INFO without "# CPU": unknown, not idle.
            unread("server CPU not read (" + server.address + "'s INFO gives no used_cpu_sys / used_cpu_user)");
            continue;
        }
        // A server on this machine that waited for a CPU wanted more than it
        // got; elsewhere the wait cannot be read and CPU alone is the figure.
        const bool waitKnown = mainThread && all(&ServerPoint::mainThreadWaitPercent);
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
            side.judged = static_cast<int>(points.size());
            const std::string where = telemetry.servers.size() > 1 ? " on " + server.address : std::string();
            in.serverBusiestWhat = (mainThread ? "server main thread" : "server process") + where;
        }
    }
    return side;
}

// This machine: the busiest engine thread (CPU + waiting for a CPU where the
// wait is read), the host. An interval is hot on what was read; it is cold
// only when every engine thread's CPU was read.
struct ClientSide {
    int points = 0;
    int unread = 0;            // intervals neither hot nor known to be cold
    bool hot = false;          // most intervals hot
    bool cold = false;         // known not to be client-bound
};

ClientSide judgeClient(const TestTelemetry& telemetry, const VerdictThresholds& thresholds, VerdictInputs& in)
{
    ClientSide side;
    const auto points = judged(telemetry.client.points, telemetry.intervalSeconds);
    for (const ClientPoint* p : points) {
        double demand = 0;
        double waited = 0;
        bool allRead = !p->threadCpuPercent.empty();
        bool anyRead = false;
        for (std::size_t t = 0; t < p->threadCpuPercent.size(); ++t) {
            const double cpu = p->threadCpuPercent[t];
            if (!known(cpu)) {
                allRead = false;
                continue;
            }
            const double wait = t < p->threadWaitPercent.size() && known(p->threadWaitPercent[t]) ? p->threadWaitPercent[t] : 0;
            anyRead = true;
            in.engineThreadMaxPercent = std::max(in.engineThreadMaxPercent, cpu);
            demand = std::max(demand, cpu + wait);
            waited = std::max(waited, wait);
        }
        if (anyRead) {
            in.engineDemandMaxPercent = std::max(in.engineDemandMaxPercent, demand);
            in.engineWaitMaxPercent = std::max(in.engineWaitMaxPercent, waited);
        }
        if (known(p->hostBusyPercent))
            in.hostBusyMaxPercent = std::max(in.hostBusyMaxPercent, p->hostBusyPercent);
        if (known(p->hostStealPercent))
            in.hostStealMaxPercent = std::max(in.hostStealMaxPercent, p->hostStealPercent);
        // This machine limits the run when it holds an engine thread back: a
        // thread kept waiting for a CPU (by a busy host, or by the CPUs it
        // may use: pinning, a cgroup) — not a thread sleeping on round trips
        // beside a neighbour's build.
        const bool starved = waited >= thresholds.hostStarvedWaitPercent;
        if (demand >= thresholds.engineThreadPercent || starved)
            ++in.clientHotIntervals;
        else if (!allRead)
            ++side.unread;
    }
    side.points = static_cast<int>(points.size());
    const double most = thresholds.shareOfSeconds * side.points;
    side.hot = side.points > 0 && in.clientHotIntervals >= most;
    side.cold = side.points > 0 && in.clientHotIntervals + side.unread < most;
    return side;
}

// Why this machine was the limit, from what was read.
std::string clientReason(const VerdictInputs& in, const VerdictThresholds& thresholds)
{
    if (in.engineDemandMaxPercent >= thresholds.engineThreadPercent)
        return "an engine thread wanted " + percent(in.engineDemandMaxPercent) + " of a core (CPU "
            + percent(in.engineThreadMaxPercent) + ", the rest waiting for a CPU)";
    const std::string waitedText = "an engine thread waited " + percent(in.engineWaitMaxPercent) + " of the time for a CPU";
    if (!known(in.hostBusyMaxPercent))
        return waitedText + " (the host's load was not read)";
    const std::string stealText = known(in.hostStealMaxPercent) ? "steal " + percent(in.hostStealMaxPercent)
                                                                : std::string("steal not read");
    const std::string hostText = "the host was " + percent(in.hostBusyMaxPercent) + " busy (" + stealText + ")";
    // Below the host line, the CPUs the engine may use were taken (pinning, a cgroup).
    return in.hostBusyMaxPercent >= thresholds.hostBusyPercent
        ? hostText + ", " + waitedText
        : waitedText + " while " + hostText + ": the CPUs it may run on were taken";
}

void judgeRate(const VerdictContext& context, const VerdictThresholds& thresholds, BottleneckVerdict& v)
{
    if (context.targetRate <= 0)
        return;
    const bool held = context.achievedRate >= thresholds.rateHeldRatio * context.targetRate;
    v.rate = held ? "held" : "not held";
    const std::string figures = rateText(context.achievedRate) + " of " + rateText(context.targetRate) + " requests/s";
    if (held) {
        v.reason = "rate held (" + figures + "); " + v.reason;
        if (v.kind == Bottleneck::Neither)
            v.advice.clear();
        return;
    }
    const std::string because = v.kind == Bottleneck::ServerBound ? "the server ran out of CPU"
        : v.kind == Bottleneck::ClientBound                       ? "this machine ran out of CPU"
        : v.kind == Bottleneck::Neither                           ? "too few connections for the round-trip time"
                                                                  : "the limit could not be judged";
    v.reason = "rate not held (" + figures + ") because " + because + "; " + v.reason;
    if (v.kind == Bottleneck::Neither)
        v.advice = "more connections";
}

} // namespace

// A verdict rests only on readings that were read (telemetry.h, kUnknown):
// hot is concluded from figures that are hot, "neither" only when every
// figure it denies was read; otherwise "unknown", saying what was not read.
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
    const ServerSide server = judgeServers(telemetry, thresholds, in);
    const ClientSide client = judgeClient(telemetry, thresholds, in);
    in.intervalsJudged = std::max(server.judged, client.points);

    const bool serverHot = server.judged > 0 && in.serverHotIntervals >= thresholds.shareOfSeconds * server.judged;
    const std::string engineText = in.engineThreadMaxPercent >= 0
        ? "engine threads ≤ " + percent(in.engineThreadMaxPercent)
        : std::string("engine threads not sampled");
    std::string serverText = in.serverBusiestPercent >= 0
        ? in.serverBusiestWhat + " " + percent(in.serverBusiestPercent) + " of a core"
        : std::string();
    if (in.serverWaitPercent >= 1)
        serverText += " (" + percent(in.serverWaitPercent) + " of it waiting for a CPU)";
    const std::string clientUnread = client.unread > 0
        ? "engine thread CPU not read in " + std::to_string(client.unread) + " of " + std::to_string(client.points) + " intervals"
        : std::string();

    if (serverHot) {
        v.kind = Bottleneck::ServerBound;
        v.reason = serverText + "; " + engineText;
        if (client.hot)
            v.reason += "; this machine was near saturation too";
    } else if (client.hot) {
        v.kind = Bottleneck::ClientBound;
        v.reason = clientReason(in, thresholds);
        if (in.engineDemandMaxPercent >= thresholds.engineThreadPercent)
            v.advice = telemetry.client.cpuCount > context.threads
                ? "more --threads, or another load machine"
                : "another load machine (every CPU here already runs an engine thread)";
        else
            v.advice = "another load machine";
        if (!serverText.empty())
            v.reason += "; " + serverText;
        if (!server.missing.empty())
            v.reason += "; " + server.missing;   // what could not be judged, said too
    } else if (server.judged > 0 && server.unread == 0 && client.cold) {
        v.kind = Bottleneck::Neither;
        v.reason = serverText + "; " + engineText + ": waiting on round trips";
        v.advice = "more connections or a deeper pipeline would go faster";
    } else {
        // Unknown: what could not be read first, then what was.
        v.kind = Bottleneck::Unknown;
        std::vector<std::string> parts;
        if (!server.missing.empty())
            parts.push_back(server.missing);
        if (!clientUnread.empty())
            parts.push_back(clientUnread);
        if (client.points == 0 && server.missing.empty())
            parts.push_back("this machine " + (telemetry.client.unavailable.empty() ? std::string("not sampled")
                                                                                  : telemetry.client.unavailable));
        if (parts.empty())
            parts.push_back("too short to sample");
        if (!serverText.empty())
            parts.push_back(serverText);
        if (client.cold)
            parts.push_back(engineText + ": not client-bound");
        for (std::size_t i = 0; i < parts.size(); ++i)
            v.reason += (i ? "; " : "") + parts[i];
    }
    judgeRate(context, thresholds, v);
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
