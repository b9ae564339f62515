#include "engine/report/merge.h"

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cmath>
#include <map>
#include <set>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/report/comparison.h"
#include "engine/report/comparison_charts.h"
#include "engine/report/json_reader.h"
#include "engine/report/json_writer.h"
#include "engine/report/run_file.h"
#include "engine/run/test_sequence.h"

namespace tacho::engine {

namespace {

std::string partName(const LoadedRun& part) { return part.path.empty() ? part.label : part.path; }

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

// What makes a run itself: where and when it started and what it measured,
// down to its latency sums. Two load machines (or two processes started in
// the same second) never agree on all of it; a run and its copy always do.
std::string runFingerprint(const LoadedRun& part)
{
    const Environment& e = part.run.environment;
    std::string f = part.format + '\x1f' + e.hostName + '\x1f' + e.startedAtUtc;
    char mean[40];
    for (const TestResult& t : part.run.tests) {
        std::snprintf(mean, sizeof mean, "%a", t.latency.mean());
        f += '\x1e' + t.name + '\x1f' + std::to_string(t.requests) + '\x1f' + std::to_string(t.errors) + '\x1f'
            + std::to_string(t.bytesSent) + '\x1f' + std::to_string(t.bytesReceived) + '\x1f'
            + std::to_string(t.latency.count()) + '\x1f' + std::to_string(t.latency.max()) + '\x1f' + mean;
    }
    for (const RunSource& source : part.sources)
        f += '\x1d' + source.hostName + '\x1f' + source.startedAtUtc + '\x1f' + std::to_string(source.requests);
    return f;
}

RunStatus worse(RunStatus a, RunStatus b) { return worseStatus(a, b); }

void addCounts(TestResult& into, const TestResult& from)
{
    addTestCounters(into, from);
    into.latency.add(from.latency);
    into.uncorrectedLatency.add(from.uncorrectedLatency);
    into.connectSeconds = std::max(into.connectSeconds, from.connectSeconds);
    into.warmupSeconds = std::max(into.warmupSeconds, from.warmupSeconds);
    into.targetRate += from.targetRate;
    into.maxSendLagNs = std::max(into.maxSendLagNs, from.maxSendLagNs);
    into.status = worse(into.status, from.status);
    if (into.failure.empty())
        into.failure = from.failure;
}

struct Bin {
    IntervalPoint point;
    double weightedMean = 0;   // Σ mean × requests
    std::vector<double> commandWeightedMean;
    bool used = false;
};

void writeJsonValue(JsonWriter& w, const JsonValue& v)
{
    switch (v.type()) {
    case JsonValue::Type::Null: w.null(); break;
    case JsonValue::Type::Bool: w.value(v.boolValue()); break;
    case JsonValue::Type::String: w.value(v.text()); break;
    case JsonValue::Type::Number:
        if (auto u = v.asUint64())
            w.value(*u);
        else if (auto i = v.asInt64())
            w.value(*i);
        else
            w.value(v.number());
        break;
    case JsonValue::Type::Array:
        w.beginArray();
        for (const JsonValue& item : v.items())
            writeJsonValue(w, item);
        w.endArray();
        break;
    case JsonValue::Type::Object:
        w.beginObject();
        for (std::size_t i = 0; i < v.memberCount(); ++i) {
            w.key(v.keyAt(i));
            writeJsonValue(w, v.valueAt(i));
        }
        w.endObject();
        break;
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

// A merged test's telemetry (issue 19): every load machine's own client
// telemetry, in source order and on the merged time axis; the server's once,
// from the first source that sampled it (all watched the same server); the
// verdict of the machine that judged worst, named, with the others' in its
// reason.
TestTelemetry mergeTelemetry(const std::vector<TelemetryPiece>& pieces)
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
    BottleneckVerdict& v = out.verdict;
    v = deciding->telemetry->verdict;
    if (pieces.size() > 1) {
        std::string others;
        for (const TelemetryPiece& piece : pieces)
            if (&piece != deciding && piece.telemetry->recorded())
                others += (others.empty() ? "" : ", ") + piece.host + " " + bottleneckName(piece.telemetry->verdict.kind);
        v.reason = "load machine " + deciding->host + ": " + v.reason + (others.empty() ? std::string() : "; " + others);
        // The load as a whole: asked for and achieved add up.
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
    }
    return out;
}
} // namespace

bool mergeRuns(const std::vector<const LoadedRun*>& parts, LoadedRun& out, std::vector<std::string>* warnings,
               std::string* error)
{
    const auto failWith = [&](const std::string& message) {
        if (error)
            *error = message;
        return false;
    };
    auto warn = [&](const std::string& message) {
        if (warnings)
            warnings->push_back(message);
    };
    if (parts.empty())
        return failWith("nothing to merge");
    for (const LoadedRun* part : parts) {
        for (std::size_t i = 0; i < part->run.tests.size(); ++i) {
            const LoadedTest* loaded = i < part->tests.size() ? &part->tests[i] : nullptr;
            const TestResult& t = part->run.tests[i];
            if (loaded && (!loaded->hasHistogram || loaded->histogramApproximate))
                return failWith(partName(*part) + " (" + part->format + "): test \"" + t.name
                                + "\" has no exact latency histogram; merging adds distributions, not percentiles");
            if (t.requests > 0 && t.latency.count() == 0)
                return failWith(partName(*part) + " (" + part->format + "): test \"" + t.name
                                + "\" has no latency histogram; merging adds distributions, not percentiles");
        }
        if (part->run.tests.empty())
            return failWith(partName(*part) + ": no tests to merge");
    }

    // The same run given twice (or a copy of it) would count its requests twice.
    for (std::size_t a = 0; a < parts.size(); ++a)
        for (std::size_t b = a + 1; b < parts.size(); ++b)
            if (runFingerprint(*parts[a]) == runFingerprint(*parts[b]))
                return failWith("the same run is given twice: " + partName(*parts[a]) + " and " + partName(*parts[b])
                                + " have the same start time, host and results; merging would count its requests twice");

    // Differences worth knowing (the same checks as a comparison, except
    // connections, which are expected to add up).
    std::vector<std::string> labels;
    for (const LoadedRun* part : parts)
        labels.push_back(part->label.empty() ? part->path : part->label);
    for (const FairnessWarning& w : fairnessWarnings(parts, labels))
        if (w.field != "connections")
            warn(w.message);
    {
        std::set<std::string> endpoints;
        for (const LoadedRun* part : parts)
            if (part->known.endpoint)
                endpoints.insert(part->run.config.endpoint.describe());
        if (endpoints.size() > 1) {
            std::string list;
            for (const std::string& e : endpoints)
                list += (list.empty() ? "" : ", ") + e;
            warn("the runs measured different targets (" + list + "); merged as if they were one");
        }
    }

    // Start times on one clock.
    std::vector<std::optional<double>> starts;
    for (const LoadedRun* part : parts)
        starts.push_back(parseUtcTimestamp(part->run.environment.startedAtUtc));
    const bool clock = std::all_of(starts.begin(), starts.end(), [](const auto& s) { return s.has_value(); });
    if (!clock)
        warn("some runs have no start time; their intervals are aligned at their own starts");
    double earliest = 0, latest = 0;
    if (clock) {
        earliest = latest = *starts[0];
        for (const auto& s : starts) {
            earliest = std::min(earliest, *s);
            latest = std::max(latest, *s);
        }
        double longest = 0;
        for (const LoadedRun* part : parts)
            longest = std::max(longest, part->run.totalSeconds);
        if (latest - earliest > std::max(longest, 1.0))
            warn("the runs did not overlap in time (starts " + std::to_string(int(latest - earliest))
                 + " s apart): merged throughput assumes they ran together");
    }

    out = LoadedRun {};
    out.format = kRunFileFormat;
    RunResult& m = out.run;
    const RunResult& first = parts[0]->run;

    // Config: the first part's, with the load added up.
    m.config = RunConfig {};
    m.config.endpoint = first.config.endpoint;
    m.config.user = first.config.user;
    m.config.database = first.config.database;
    m.config.protocol = first.config.protocol;
    m.config.pipeline = first.config.pipeline;
    m.config.pipelineBatches = first.config.pipelineBatches;
    m.config.keepAlive = first.config.keepAlive;
    m.config.durationSeconds = first.config.durationSeconds;
    m.config.warmupSeconds = first.config.warmupSeconds;
    m.config.keyspace = first.config.keyspace;
    m.config.valueSize = first.config.valueSize;
    m.config.tickSeconds = first.config.tickSeconds;
    m.config.connectTimeoutMs = first.config.connectTimeoutMs;
    m.config.connections = 0;
    m.config.threads = 0;
    m.config.requests = 0;
    m.config.rate = 0;
    m.config.ratePerConnection = first.config.ratePerConnection;
    for (const LoadedRun* part : parts) {
        m.config.connections += part->run.config.connections;
        m.config.threads += part->run.config.threads;
        m.config.requests += part->run.config.requests;
        m.config.rate += part->run.config.rate;
    }
    out.known = parts[0]->known;
    for (const LoadedRun* part : parts) {
        out.known.connections = out.known.connections && part->known.connections;
        out.known.serverVersion = out.known.serverVersion && part->known.serverVersion;
    }

    // Environment.
    Environment& e = m.environment;
    e.toolVersion = first.environment.toolVersion;
    std::vector<std::string> hosts, cpus;
    for (const LoadedRun* part : parts) {
        const Environment& pe = part->run.environment;
        if (!pe.hostName.empty() && std::find(hosts.begin(), hosts.end(), pe.hostName) == hosts.end())
            hosts.push_back(pe.hostName);
        if (!pe.cpuModel.empty() && std::find(cpus.begin(), cpus.end(), pe.cpuModel) == cpus.end())
            cpus.push_back(pe.cpuModel);
        e.cpuCount += pe.cpuCount;
        if (e.serverInfo.empty())
            e.serverInfo = pe.serverInfo;
        if (e.serverConfig.empty())
            e.serverConfig = pe.serverConfig;
    }
    for (std::size_t i = 0; i < hosts.size(); ++i)
        e.hostName += (i ? " + " : "") + hosts[i];
    for (std::size_t i = 0; i < cpus.size(); ++i)
        e.cpuModel += (i ? " + " : "") + cpus[i];
    if (clock)
        e.startedAtUtc = formatUtcTimestamp(earliest);
    else
        e.startedAtUtc = first.environment.startedAtUtc;
    double end = 0;
    for (std::size_t i = 0; i < parts.size(); ++i)
        end = std::max(end, (clock ? *starts[i] - earliest : 0) + parts[i]->run.totalSeconds);
    m.totalSeconds = end;

    // Tests by name and repetition (the second "SET" of a redis-benchmark -l
    // or a memtier --run-count goes with the others' second "SET"), in
    // first-seen order.
    struct TestKey {
        std::string name;
        std::size_t repetition = 0;
        bool operator==(const TestKey&) const = default;
    };
    std::vector<std::vector<TestKey>> keysOfPart;   // per part, per test
    std::vector<TestKey> keys;
    for (const LoadedRun* part : parts) {
        std::map<std::string, std::size_t> seen;
        std::vector<TestKey>& partKeys = keysOfPart.emplace_back();
        for (const TestResult& t : part->run.tests) {
            partKeys.push_back({ t.name, seen[t.name]++ });
            if (std::find(keys.begin(), keys.end(), partKeys.back()) == keys.end())
                keys.push_back(partKeys.back());
        }
    }

    for (const TestKey& key : keys) {
        const std::string& name = key.name;
        struct Piece {
            const LoadedRun* part;
            std::size_t index;
            double start;   // seconds since the merged origin (earliest run start)
        };
        std::vector<Piece> pieces;
        std::vector<std::string> missing;
        for (std::size_t p = 0; p < parts.size(); ++p) {
            const RunResult& r = parts[p]->run;
            bool found = false;
            for (std::size_t i = 0; i < r.tests.size(); ++i)
                if (keysOfPart[p][i] == key) {
                    pieces.push_back({ parts[p], i, (clock ? *starts[p] - earliest : 0) + testStartOffset(r, i) });
                    found = true;
                    break;
                }
            if (!found)
                missing.push_back(labels[p]);
        }
        if (!missing.empty()) {
            std::string list;
            for (const std::string& l : missing)
                list += (list.empty() ? "" : ", ") + l;
            warn("test \"" + name + "\""
                 + (key.repetition > 0 ? " (repetition " + std::to_string(key.repetition + 1) + ")" : std::string())
                 + " is missing in " + list + "; merged from the others");
        }

        TestResult t;
        t.name = name;
        const TestResult& t0 = pieces[0].part->run.tests[pieces[0].index];
        t.commandStatName = t0.commandStatName;
        double rate = 0;
        double longest = 0;
        std::uint64_t clientRequests = 0;
        for (const Piece& piece : pieces) {
            const TestResult& pt = piece.part->run.tests[piece.index];
            addCounts(t, pt);
            if (pt.seconds > 0)
                rate += double(pt.requests) / pt.seconds;
            longest = std::max(longest, pt.seconds);
            clientRequests += pt.crossCheck.clientRequests;
            // Commands by name.
            for (const CommandResult& c : pt.commands) {
                auto it = std::find_if(t.commands.begin(), t.commands.end(),
                                       [&](const CommandResult& x) { return x.name == c.name; });
                if (it == t.commands.end()) {
                    CommandResult fresh;
                    fresh.name = c.name;
                    t.commands.push_back(std::move(fresh));
                    it = t.commands.end() - 1;
                }
                it->requests += c.requests;
                it->errors += c.errors;
                it->hits += c.hits;
                it->misses += c.misses;
                it->bytesSent += c.bytesSent;
                it->bytesReceived += c.bytesReceived;
                it->latency.add(c.latency);
                it->uncorrectedLatency.add(c.uncorrectedLatency);
            }
        }
        // Throughput adds up: seconds = requests ÷ Σ rate.
        t.seconds = rate > 0 ? double(t.requests) / rate : longest;
        t.crossCheck.available = false;
        t.crossCheck.unavailable = "merged runs: each source's INFO window also saw the others' traffic";
        t.crossCheck.command = t0.crossCheck.command;
        t.crossCheck.clientRequests = clientRequests;

        // Intervals on the common clock.
        double tick = 0;
        double origin = pieces[0].start;
        for (const Piece& piece : pieces) {
            tick = std::max(tick, medianTick(piece.part->run.tests[piece.index].intervals));
            origin = std::min(origin, piece.start);
        }
        double zero = origin;   // where the merged test's time axis starts
        if (tick > 0) {
            std::map<long, Bin> bins;
            std::uint64_t unplaced = 0;   // intervals at absurd times (damaged files)
            for (const Piece& piece : pieces) {
                const TestResult& pt = piece.part->run.tests[piece.index];
                // Command index of this piece → merged command index.
                std::vector<std::size_t> commandMap;
                for (const CommandResult& c : pt.commands)
                    for (std::size_t k = 0; k < t.commands.size(); ++k)
                        if (t.commands[k].name == c.name)
                            commandMap.push_back(k);
                for (const IntervalPoint& p : pt.intervals) {
                    const double mid = piece.start + (p.startSeconds + p.endSeconds) / 2 - origin;
                    const double slot = std::floor(mid / tick);
                    if (!std::isfinite(slot) || std::fabs(slot) > 1e12) {
                        ++unplaced;
                        continue;
                    }
                    const long index = long(slot);
                    Bin& bin = bins[index];
                    IntervalPoint& q = bin.point;
                    if (!bin.used) {
                        bin.used = true;
                        q.startSeconds = double(index) * tick;
                        q.endSeconds = double(index + 1) * tick;
                    }
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
                    if (t.commands.size() > 1) {
                        if (q.commands.size() < t.commands.size()) {
                            q.commands.resize(t.commands.size());
                            bin.commandWeightedMean.resize(t.commands.size(), 0);
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
                }
            }
            if (unplaced > 0)
                warn("test \"" + name + "\": " + std::to_string(unplaced)
                     + " intervals lie at impossible times and are left out of the merged series");
            if (!bins.empty()) {
                const long firstBin = bins.begin()->first;
                const long lastBin = bins.rbegin()->first;
                zero = origin + double(firstBin) * tick;
                // Ticks no source reported are zeros, unless the gap is absurd
                // (sources hours apart): then only the reported ticks are kept.
                const bool fillGaps = lastBin - firstBin < 1'000'000;
                if (!fillGaps)
                    warn("test \"" + name + "\": the sources' intervals are far apart in time; the gaps between them are not filled");
                for (long index = firstBin; index <= lastBin; ++index) {
                    auto it = bins.find(index);
                    if (!fillGaps && it == bins.end()) {
                        it = bins.upper_bound(index);
                        if (it == bins.end())
                            break;
                        index = it->first;
                    }
                    IntervalPoint q;
                    if (it == bins.end()) {
                        // A tick where no source reported: zero, not missing.
                        q.startSeconds = double(index) * tick;
                        q.endSeconds = double(index + 1) * tick;
                        if (t.commands.size() > 1)
                            q.commands.resize(t.commands.size());
                    } else {
                        q = std::move(it->second.point);
                        q.mean = q.requests ? it->second.weightedMean / double(q.requests) : 0;
                        for (std::size_t c = 0; c < q.commands.size(); ++c)
                            q.commands[c].mean = q.commands[c].requests
                                ? it->second.commandWeightedMean[c] / double(q.commands[c].requests)
                                : 0;
                    }
                    // Relative to the merged test's start.
                    q.startSeconds -= double(firstBin) * tick;
                    q.endSeconds -= double(firstBin) * tick;
                    t.intervals.push_back(std::move(q));
                }
            }
        }

        std::vector<TelemetryPiece> telemetry;
        for (const Piece& piece : pieces)
            telemetry.push_back({ &piece.part->run.tests[piece.index].telemetry, piece.part->run.environment.hostName,
                                  piece.start - zero });
        t.telemetry = mergeTelemetry(telemetry);

        // The spec of the first part that ran it.
        for (const TestSpec& spec : pieces[0].part->run.config.tests)
            if (spec.name == name) {
                m.config.tests.push_back(spec);
                break;
            }

        LoadedTest loaded;
        loaded.figures.requests = t.requests;
        loaded.figures.errors = t.errors;
        if (t.seconds > 0) {
            loaded.figures.opsPerSec = double(t.requests) / t.seconds;
            loaded.figures.kbPerSec = double(t.bytesSent + t.bytesReceived) / 1024.0 / t.seconds;
        }
        // Keys per request: the parts agree or it is unknown.
        const LoadedTest* l0 = pieces[0].index < pieces[0].part->tests.size() ? &pieces[0].part->tests[pieces[0].index] : nullptr;
        loaded.keysPerRequest = l0 ? l0->keysPerRequest : 0;
        for (const CommandResult& c : t.commands) {
            StatedFigures f;
            f.requests = c.requests;
            f.errors = c.errors;
            if (t.seconds > 0) {
                f.opsPerSec = double(c.requests) / t.seconds;
                f.kbPerSec = double(c.bytesSent + c.bytesReceived) / 1024.0 / t.seconds;
            }
            loaded.commands.push_back(f);
            loaded.commandKeysPerRequest.push_back(0);
        }
        m.status = worse(m.status, t.status);
        m.tests.push_back(std::move(t));
        out.tests.push_back(std::move(loaded));
    }
    for (const LoadedRun* part : parts)
        if (part->run.status == RunStatus::Failed && m.failure.empty())
            m.failure = partName(*part) + ": " + part->run.failure;
    for (const LoadedRun* part : parts)
        m.status = worse(m.status, part->run.status);

    // Sources, flattened when a part was itself merged.
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const LoadedRun& part = *parts[p];
        if (!part.sources.empty()) {
            for (const RunSource& s : part.sources)
                out.sources.push_back(s);
            continue;
        }
        RunSource s;
        s.file = partName(part);
        s.hostName = part.run.environment.hostName;
        s.startedAtUtc = part.run.environment.startedAtUtc;
        s.toolVersion = part.run.environment.toolVersion;
        for (const TestResult& t : part.run.tests)
            s.requests += t.requests;
        out.sources.push_back(std::move(s));
    }
    out.lacks = {
        "the client-gap distribution (run files keep only its summary)",
        "a server cross-check per source (each source's INFO window also saw the others' traffic)",
        "per-tick percentiles over all sources (a merged tick shows the highest source's p50/p99/p99.9)",
    };
    return true;
}

std::string mergedRunToJson(const LoadedRun& merged, const std::vector<ExtraSection>& extra)
{
    const std::string base = runResultToJson(merged.run);
    std::optional<JsonValue> root = parseJson(base);
    if (!root || !root->isObject())
        return base;   // cannot happen: the writer writes valid JSON
    JsonValue sources = JsonValue::makeArray();
    for (const RunSource& s : merged.sources) {
        JsonValue o = JsonValue::makeObject();
        o.set("file", JsonValue::makeString(s.file));
        o.set("hostName", JsonValue::makeString(s.hostName));
        o.set("startedAtUtc", JsonValue::makeString(s.startedAtUtc));
        o.set("toolVersion", JsonValue::makeString(s.toolVersion));
        o.set("requests", JsonValue::makeNumber(std::to_string(s.requests)));
        sources.append(std::move(o));
    }
    root->set("sources", std::move(sources));
    for (const ExtraSection& section : extra)
        if (std::optional<JsonValue> value = parseJson(section.json))
            root->set(section.name, std::move(*value));
    JsonWriter w;
    writeJsonValue(w, *root);
    return w.str() + "\n";
}

bool writeMergedRunFile(const std::string& path, const LoadedRun& merged, std::string* error,
                        const std::vector<ExtraSection>& extra)
{
    return writeFileAtomically(path, mergedRunToJson(merged, extra), error);
}

} // namespace tacho::engine
