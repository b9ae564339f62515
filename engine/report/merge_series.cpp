#include "engine/report/merge_series.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include "engine/telemetry/telemetry.h"

namespace tacho::engine {

namespace {

double medianTick(const std::vector<IntervalPoint>& intervals)
{
    std::vector<double> lengths;
    for (const IntervalPoint& p : intervals)
        if (p.endSeconds > p.startSeconds)
            lengths.push_back(p.endSeconds - p.startSeconds);
    if (lengths.empty())
        return 0;
    std::nth_element(lengths.begin(), lengths.begin() + std::ptrdiff_t(lengths.size() / 2), lengths.end());
    return lengths[lengths.size() / 2];
}

// One tick of the merged series while the sources' intervals are added into it.
struct Bin {
    IntervalPoint point;
    double weightedMean = 0;   // Σ mean × requests
    std::vector<double> commandWeightedMean;
    bool used = false;
};

// The ticks of a merged test, by index on the common clock (index × tick seconds after the origin).
struct Bins {
    std::map<long, Bin> byIndex;
    double tick = 0;     // seconds
    double origin = 0;   // the earliest piece's start, seconds since the merged origin
};

// The merged command index of each of `source`'s commands (matched by name).
std::vector<std::size_t> commandIndexes(const TestResult& source, const TestResult& merged)
{
    std::vector<std::size_t> map;
    for (const CommandResult& c : source.commands)
        for (std::size_t k = 0; k < merged.commands.size(); ++k)
            if (merged.commands[k].name == c.name)
                map.push_back(k);
    return map;
}

// Adds one source interval to its tick: counts summed, percentiles the highest (the run file keeps
// no per-interval histograms), means weighted by requests and divided when the bins are read out.
void addToBin(Bin& bin, const IntervalPoint& p, const std::vector<std::size_t>& commandMap, std::size_t commandCount)
{
    IntervalPoint& q = bin.point;
    q.requests += p.requests;
    q.errors += p.errors;
    q.hits += p.hits;
    q.misses += p.misses;
    q.bytesSent += p.bytesSent;
    q.bytesReceived += p.bytesReceived;
    q.reconnects += p.reconnects;
    q.connectErrors += p.connectErrors;
    q.unanswered += p.unanswered;
    q.p50 = std::max(q.p50, p.p50);
    q.p99 = std::max(q.p99, p.p99);
    q.p999 = std::max(q.p999, p.p999);
    q.max = std::max(q.max, p.max);
    if (std::isfinite(p.mean))
        bin.weightedMean += p.mean * double(p.requests);
    if (commandCount <= 1)
        return;
    if (q.commands.size() < commandCount) {
        q.commands.resize(commandCount);
        bin.commandWeightedMean.resize(commandCount, 0);
    }
    for (std::size_t c = 0; c < p.commands.size() && c < commandMap.size(); ++c) {
        CommandInterval& qc = q.commands[commandMap[c]];
        const CommandInterval& pc = p.commands[c];
        qc.requests += pc.requests;
        qc.errors += pc.errors;
        qc.p50 = std::max(qc.p50, pc.p50);
        qc.p99 = std::max(qc.p99, pc.p99);
        qc.p999 = std::max(qc.p999, pc.p999);
        qc.max = std::max(qc.max, pc.max);
        if (std::isfinite(pc.mean))
            bin.commandWeightedMean[commandMap[c]] += pc.mean * double(pc.requests);
    }
}

// Puts every piece's intervals into the tick that holds its midpoint. Returns how many lie at
// impossible times (damaged files) and were left out.
std::uint64_t fillBins(Bins& bins, const std::vector<MergePiece>& pieces, const TestResult& merged)
{
    std::uint64_t unplaced = 0;
    for (const MergePiece& piece : pieces) {
        const TestResult& pt = piece.test();
        const std::vector<std::size_t> commandMap = commandIndexes(pt, merged);
        for (const IntervalPoint& p : pt.intervals) {
            const double mid = piece.start + (p.startSeconds + p.endSeconds) / 2 - bins.origin;
            const double slot = std::floor(mid / bins.tick);
            if (!std::isfinite(slot) || std::fabs(slot) > 1e12) {
                ++unplaced;
                continue;
            }
            const long index = long(slot);
            Bin& bin = bins.byIndex[index];
            if (!bin.used) {
                bin.used = true;
                bin.point.startSeconds = double(index) * bins.tick;
                bin.point.endSeconds = double(index + 1) * bins.tick;
            }
            addToBin(bin, p, commandMap, merged.commands.size());
        }
    }
    return unplaced;
}

// A tick read out of its bin: means divided by the requests (a tick nobody reported is zero, not
// missing).
IntervalPoint readBin(std::map<long, Bin>::iterator it, const Bins& bins, long index, std::size_t commandCount)
{
    IntervalPoint q;
    if (it == bins.byIndex.end()) {
        q.startSeconds = double(index) * bins.tick;
        q.endSeconds = double(index + 1) * bins.tick;
        if (commandCount > 1)
            q.commands.resize(commandCount);
        return q;
    }
    q = std::move(it->second.point);
    q.mean = q.requests ? it->second.weightedMean / double(q.requests) : 0;
    for (std::size_t c = 0; c < q.commands.size(); ++c)
        q.commands[c].mean = q.commands[c].requests
            ? it->second.commandWeightedMean[c] / double(q.commands[c].requests)
            : 0;
    return q;
}

// Appends the bins, from the first reported tick to the last, to `merged.intervals`, relative to
// the first. Ticks no source reported are zeros, unless the gap is absurd (sources hours apart):
// then only the reported ticks are kept.
void appendBins(Bins& bins, TestResult& merged, std::vector<std::string>* warnings)
{
    const long firstBin = bins.byIndex.begin()->first;
    const long lastBin = bins.byIndex.rbegin()->first;
    const bool fillGaps = lastBin - firstBin < 1'000'000;
    if (!fillGaps && warnings)
        warnings->push_back("test \"" + merged.name
                            + "\": the sources' intervals are far apart in time; the gaps between them are not filled");
    for (long index = firstBin; index <= lastBin; ++index) {
        auto it = bins.byIndex.find(index);
        if (!fillGaps && it == bins.byIndex.end()) {
            it = bins.byIndex.upper_bound(index);
            if (it == bins.byIndex.end())
                break;
            index = it->first;
        }
        IntervalPoint q = readBin(it, bins, index, merged.commands.size());
        q.startSeconds -= double(firstBin) * bins.tick;
        q.endSeconds -= double(firstBin) * bins.tick;
        merged.intervals.push_back(std::move(q));
    }
}

// Where a source's test lies on the merged test's time axis.
struct TelemetryPiece {
    const TestTelemetry* telemetry;
    std::string host;
    double shift;   // seconds to add to the source's times
};

template <typename Point>
void shiftPoints(std::vector<Point>& points, double shift)
{
    for (Point& p : points) {
        p.startSeconds += shift;
        p.endSeconds += shift;
    }
}

// client-bound > server-bound > unknown > neither: the merged run went as
// fast as its slowest part let it, and "neither" holds only when every
// machine says so.
int verdictRank(Bottleneck kind)
{
    switch (kind) {
    case Bottleneck::ClientBound: return 3;
    case Bottleneck::ServerBound: return 2;
    case Bottleneck::Unknown: return 1;
    case Bottleneck::Neither: break;
    }
    return 0;
}

// The deciding machine's verdict, naming it and the others' verdicts, over the load as a whole
// (asked for and achieved rates and connections add up).
BottleneckVerdict verdictOfAll(const std::vector<TelemetryPiece>& pieces, const TelemetryPiece& deciding)
{
    BottleneckVerdict v = deciding.telemetry->verdict;
    std::string others;
    for (const TelemetryPiece& piece : pieces)
        if (&piece != &deciding && piece.telemetry->recorded())
            others += (others.empty() ? "" : ", ") + piece.host + " " + bottleneckName(piece.telemetry->verdict.kind);
    v.reason = "load machine " + deciding.host + ": " + v.reason + (others.empty() ? std::string() : "; " + others);
    v.inputs.targetRate = v.inputs.achievedRate = 0;
    v.inputs.connections = 0;
    bool held = false, notHeld = false;
    for (const TelemetryPiece& piece : pieces) {
        const BottleneckVerdict& pv = piece.telemetry->verdict;
        v.inputs.targetRate += pv.inputs.targetRate;
        v.inputs.achievedRate += pv.inputs.achievedRate;
        v.inputs.connections += pv.inputs.connections;
        held = held || pv.rate == "held";
        notHeld = notHeld || pv.rate == "not held";
    }
    v.rate = notHeld ? "not held" : held ? "held" : "";
    return v;
}

TestTelemetry mergeTelemetryPieces(const std::vector<TelemetryPiece>& pieces)
{
    TestTelemetry out;
    const TelemetryPiece* server = nullptr;
    const TelemetryPiece* deciding = nullptr;
    for (const TelemetryPiece& piece : pieces) {
        const TestTelemetry& t = *piece.telemetry;
        if (!t.recorded()) {
            ClientTelemetry absent;
            absent.host = piece.host;
            absent.unavailable = "not recorded (--no-telemetry, or a file from before telemetry)";
            out.clients.push_back(std::move(absent));
            continue;
        }
        if (out.intervalSeconds == 0)
            out.intervalSeconds = t.intervalSeconds;
        std::vector<ClientTelemetry> clients = t.clients.empty() ? std::vector<ClientTelemetry> { t.client } : t.clients;
        for (ClientTelemetry& client : clients) {
            shiftPoints(client.points, piece.shift);
            out.clients.push_back(std::move(client));
        }
        if (!server && !t.servers.empty())
            server = &piece;
        if (!deciding || verdictRank(t.verdict.kind) > verdictRank(deciding->telemetry->verdict.kind))
            deciding = &piece;
    }
    if (!deciding)
        return TestTelemetry {};
    out.client = out.clients.front();
    if (server) {
        out.servers = server->telemetry->servers;
        for (ServerTelemetry& s : out.servers)
            shiftPoints(s.points, server->shift);
        out.commandTimes = server->telemetry->commandTimes;
    }
    out.verdict = pieces.size() > 1 ? verdictOfAll(pieces, *deciding) : deciding->telemetry->verdict;
    return out;
}

} // namespace

double mergeIntervals(const std::vector<MergePiece>& pieces, TestResult& merged, std::vector<std::string>* warnings)
{
    Bins bins;
    bins.origin = pieces[0].start;
    for (const MergePiece& piece : pieces) {
        bins.tick = std::max(bins.tick, medianTick(piece.test().intervals));
        bins.origin = std::min(bins.origin, piece.start);
    }
    if (bins.tick <= 0)
        return bins.origin;
    const std::uint64_t unplaced = fillBins(bins, pieces, merged);
    if (unplaced > 0 && warnings)
        warnings->push_back("test \"" + merged.name + "\": " + std::to_string(unplaced)
                            + " intervals lie at impossible times and are left out of the merged series");
    if (bins.byIndex.empty())
        return bins.origin;
    const double zero = bins.origin + double(bins.byIndex.begin()->first) * bins.tick;
    appendBins(bins, merged, warnings);
    return zero;
}

TestTelemetry mergeTelemetry(const std::vector<MergePiece>& pieces, double zero)
{
    std::vector<TelemetryPiece> telemetry;
    for (const MergePiece& piece : pieces)
        telemetry.push_back({ &piece.test().telemetry, piece.part->run.environment.hostName, piece.start - zero });
    return mergeTelemetryPieces(telemetry);
}

} // namespace tacho::engine
