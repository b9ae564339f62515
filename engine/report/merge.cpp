#include "engine/report/merge.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "engine/report/comparison.h"
#include "engine/report/comparison_charts.h"
#include "engine/report/json_reader.h"
#include "engine/report/json_writer.h"
#include "engine/report/merge_series.h"
#include "engine/report/run_file.h"
#include "engine/run/test_sequence.h"

namespace tacho::engine {

namespace {

std::string partName(const LoadedRun& part) { return part.path.empty() ? part.label : part.path; }

void warn(std::vector<std::string>* warnings, const std::string& message)
{
    if (warnings)
        warnings->push_back(message);
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

// Why the parts cannot be merged (a test without an exact histogram, a part without tests, the
// same run given twice), or empty when they can.
std::string unmergeableReason(const std::vector<const LoadedRun*>& parts)
{
    for (const LoadedRun* part : parts) {
        for (std::size_t i = 0; i < part->run.tests.size(); ++i) {
            const LoadedTest* loaded = i < part->tests.size() ? &part->tests[i] : nullptr;
            const TestResult& t = part->run.tests[i];
            if (loaded && (!loaded->hasHistogram || loaded->histogramApproximate))
                return partName(*part) + " (" + part->format + "): test \"" + t.name
                    + "\" has no exact latency histogram; merging adds distributions, not percentiles";
            if (t.requests > 0 && t.latency.count() == 0)
                return partName(*part) + " (" + part->format + "): test \"" + t.name
                    + "\" has no latency histogram; merging adds distributions, not percentiles";
        }
        if (part->run.tests.empty())
            return partName(*part) + ": no tests to merge";
    }
    // The same run given twice (or a copy of it) would count its requests twice.
    for (std::size_t a = 0; a < parts.size(); ++a)
        for (std::size_t b = a + 1; b < parts.size(); ++b)
            if (runFingerprint(*parts[a]) == runFingerprint(*parts[b]))
                return "the same run is given twice: " + partName(*parts[a]) + " and " + partName(*parts[b])
                    + " have the same start time, host and results; merging would count its requests twice";
    return {};
}

// Differences worth knowing (the same checks as a comparison, except
// connections, which are expected to add up).
void warnAboutDifferences(const std::vector<const LoadedRun*>& parts, const std::vector<std::string>& labels,
                          std::vector<std::string>* warnings)
{
    for (const FairnessWarning& w : fairnessWarnings(parts, labels))
        if (w.field != "connections")
            warn(warnings, w.message);
    std::set<std::string> endpoints;
    for (const LoadedRun* part : parts)
        if (part->known.endpoint)
            endpoints.insert(part->run.config.endpoint.describe());
    if (endpoints.size() > 1) {
        std::string list;
        for (const std::string& e : endpoints)
            list += (list.empty() ? "" : ", ") + e;
        warn(warnings, "the runs measured different targets (" + list + "); merged as if they were one");
    }
}

// The parts' start times on one clock.
struct MergeClock {
    bool known = false;   // every part has a start time; else each is aligned at its own start
    std::vector<std::optional<double>> starts;   // per part, seconds since the epoch
    double earliest = 0;

    // Seconds from the merged origin to part `p`'s start.
    double startOf(std::size_t p) const { return known ? *starts[p] - earliest : 0; }
};

MergeClock alignStarts(const std::vector<const LoadedRun*>& parts, std::vector<std::string>* warnings)
{
    MergeClock clock;
    for (const LoadedRun* part : parts)
        clock.starts.push_back(parseUtcTimestamp(part->run.environment.startedAtUtc));
    clock.known = std::all_of(clock.starts.begin(), clock.starts.end(), [](const auto& s) { return s.has_value(); });
    if (!clock.known) {
        warn(warnings, "some runs have no start time; their intervals are aligned at their own starts");
        return clock;
    }
    double latest = *clock.starts[0];
    clock.earliest = latest;
    for (const auto& s : clock.starts) {
        clock.earliest = std::min(clock.earliest, *s);
        latest = std::max(latest, *s);
    }
    double longest = 0;
    for (const LoadedRun* part : parts)
        longest = std::max(longest, part->run.totalSeconds);
    if (latest - clock.earliest > std::max(longest, 1.0))
        warn(warnings, "the runs did not overlap in time (starts " + std::to_string(int(latest - clock.earliest))
                           + " s apart): merged throughput assumes they ran together");
    return clock;
}

// Config: the first part's, with the load added up.
void mergeConfig(const std::vector<const LoadedRun*>& parts, LoadedRun& out)
{
    const RunConfig& first = parts[0]->run.config;
    RunConfig& c = out.run.config;
    c = RunConfig {};
    c.endpoint = first.endpoint;
    c.user = first.user;
    c.database = first.database;
    c.protocol = first.protocol;
    c.pipeline = first.pipeline;
    c.pipelineBatches = first.pipelineBatches;
    c.keepAlive = first.keepAlive;
    c.durationSeconds = first.durationSeconds;
    c.warmupSeconds = first.warmupSeconds;
    c.keyspace = first.keyspace;
    c.valueSize = first.valueSize;
    c.tickSeconds = first.tickSeconds;
    c.connectTimeoutMs = first.connectTimeoutMs;
    c.connections = 0;
    c.threads = 0;
    c.requests = 0;
    c.rate = 0;
    c.ratePerConnection = first.ratePerConnection;
    for (const LoadedRun* part : parts) {
        c.connections += part->run.config.connections;
        c.threads += part->run.config.threads;
        c.requests += part->run.config.requests;
        c.rate += part->run.config.rate;
    }
    out.known = parts[0]->known;
    for (const LoadedRun* part : parts) {
        out.known.connections = out.known.connections && part->known.connections;
        out.known.serverVersion = out.known.serverVersion && part->known.serverVersion;
    }
}

// Environment: the hosts and CPUs named together, the cores added, the earliest start; and the
// run's length from that start to the last part's end.
void mergeEnvironment(const std::vector<const LoadedRun*>& parts, const MergeClock& clock, RunResult& m)
{
    const RunResult& first = parts[0]->run;
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
    if (clock.known)
        e.startedAtUtc = formatUtcTimestamp(clock.earliest);
    else
        e.startedAtUtc = first.environment.startedAtUtc;
    double end = 0;
    for (std::size_t i = 0; i < parts.size(); ++i)
        end = std::max(end, clock.startOf(i) + parts[i]->run.totalSeconds);
    m.totalSeconds = end;
}

// A test by name and repetition (the second "SET" of a redis-benchmark -l
// or a memtier --run-count goes with the others' second "SET").
struct TestKey {
    std::string name;
    std::size_t repetition = 0;
    bool operator==(const TestKey&) const = default;
};

// Each part's tests by key (per part, per test).
std::vector<std::vector<TestKey>> testKeysOfParts(const std::vector<const LoadedRun*>& parts)
{
    std::vector<std::vector<TestKey>> keysOfPart;
    for (const LoadedRun* part : parts) {
        std::map<std::string, std::size_t> seen;
        std::vector<TestKey>& partKeys = keysOfPart.emplace_back();
        for (const TestResult& t : part->run.tests)
            partKeys.push_back({ t.name, seen[t.name]++ });
    }
    return keysOfPart;
}

// Every test key of any part, in first-seen order.
std::vector<TestKey> testKeysInOrder(const std::vector<std::vector<TestKey>>& keysOfPart)
{
    std::vector<TestKey> keys;
    for (const std::vector<TestKey>& partKeys : keysOfPart)
        for (const TestKey& key : partKeys)
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
                keys.push_back(key);
    return keys;
}

// The parts' tests with `key`, each placed on the merged clock; warns of the parts without it.
std::vector<MergePiece> piecesOf(const TestKey& key, const std::vector<const LoadedRun*>& parts,
                                 const std::vector<std::vector<TestKey>>& keysOfPart, const MergeClock& clock,
                                 const std::vector<std::string>& labels, std::vector<std::string>* warnings)
{
    std::vector<MergePiece> pieces;
    std::vector<std::string> missing;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        const RunResult& r = parts[p]->run;
        bool found = false;
        for (std::size_t i = 0; i < r.tests.size(); ++i)
            if (keysOfPart[p][i] == key) {
                pieces.push_back({ parts[p], i, clock.startOf(p) + testStartOffset(r, i) });
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
        warn(warnings, "test \"" + key.name + "\""
                           + (key.repetition > 0 ? " (repetition " + std::to_string(key.repetition + 1) + ")" : std::string())
                           + " is missing in " + list + "; merged from the others");
    }
    return pieces;
}

void addCounts(TestResult& into, const TestResult& from)
{
    addTestCounters(into, from);
    into.latency.add(from.latency);
    into.uncorrectedLatency.add(from.uncorrectedLatency);
    into.connectSeconds = std::max(into.connectSeconds, from.connectSeconds);
    into.warmupSeconds = std::max(into.warmupSeconds, from.warmupSeconds);
    into.targetRate += from.targetRate;
    into.maxSendLagNs = std::max(into.maxSendLagNs, from.maxSendLagNs);
    into.status = worseStatus(into.status, from.status);
    if (into.failure.empty())
        into.failure = from.failure;
}

// Commands by name, in first-seen order: counts summed, histograms merged.
void addCommands(TestResult& into, const TestResult& from)
{
    for (const CommandResult& c : from.commands) {
        auto it = std::find_if(into.commands.begin(), into.commands.end(),
                               [&](const CommandResult& x) { return x.name == c.name; });
        if (it == into.commands.end()) {
            CommandResult fresh;
            fresh.name = c.name;
            into.commands.push_back(std::move(fresh));
            it = into.commands.end() - 1;
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

// The merged test's counts and histograms; its seconds such that its throughput is the sum of
// the pieces' (seconds = requests ÷ Σ rate).
TestResult sumPieces(const std::string& name, const std::vector<MergePiece>& pieces)
{
    TestResult t;
    t.name = name;
    const TestResult& t0 = pieces[0].test();
    t.commandStatName = t0.commandStatName;
    double rate = 0;
    double longest = 0;
    std::uint64_t clientRequests = 0;
    for (const MergePiece& piece : pieces) {
        const TestResult& pt = piece.test();
        addCounts(t, pt);
        if (pt.seconds > 0)
            rate += double(pt.requests) / pt.seconds;
        longest = std::max(longest, pt.seconds);
        clientRequests += pt.crossCheck.clientRequests;
        addCommands(t, pt);
    }
    t.seconds = rate > 0 ? double(t.requests) / rate : longest;
    t.crossCheck.available = false;
    t.crossCheck.unavailable = "merged runs: each source's INFO window also saw the others' traffic";
    t.crossCheck.command = t0.crossCheck.command;
    t.crossCheck.clientRequests = clientRequests;
    return t;
}

// The figures a reader states for the merged test, as a file would state them.
LoadedTest statedFigures(const TestResult& t, const MergePiece& firstPiece)
{
    LoadedTest loaded;
    loaded.figures.requests = t.requests;
    loaded.figures.errors = t.errors;
    if (t.seconds > 0) {
        loaded.figures.opsPerSec = double(t.requests) / t.seconds;
        loaded.figures.kbPerSec = double(t.bytesSent + t.bytesReceived) / 1024.0 / t.seconds;
    }
    // Keys per request: the parts agree or it is unknown.
    const LoadedRun& part = *firstPiece.part;
    const LoadedTest* l0 = firstPiece.index < part.tests.size() ? &part.tests[firstPiece.index] : nullptr;
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
    return loaded;
}

// One merged test from its pieces, with the spec of the first part that ran it.
void mergeTest(const TestKey& key, const std::vector<MergePiece>& pieces, LoadedRun& out,
               std::vector<std::string>* warnings)
{
    TestResult t = sumPieces(key.name, pieces);
    const double zero = mergeIntervals(pieces, t, warnings);
    t.telemetry = mergeTelemetry(pieces, zero);
    for (const TestSpec& spec : pieces[0].part->run.config.tests)
        if (spec.name == key.name) {
            out.run.config.tests.push_back(spec);
            break;
        }
    out.tests.push_back(statedFigures(t, pieces[0]));
    out.run.status = worseStatus(out.run.status, t.status);
    out.run.tests.push_back(std::move(t));
}

// Sources, flattened when a part was itself merged.
void listSources(const std::vector<const LoadedRun*>& parts, LoadedRun& out)
{
    for (const LoadedRun* p : parts) {
        const LoadedRun& part = *p;
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
}

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

} // namespace

bool mergeRuns(const std::vector<const LoadedRun*>& parts, LoadedRun& out, std::vector<std::string>* warnings,
               std::string* error)
{
    const std::string unmergeable = parts.empty() ? std::string("nothing to merge") : unmergeableReason(parts);
    if (!unmergeable.empty()) {
        if (error)
            *error = unmergeable;
        return false;
    }
    std::vector<std::string> labels;
    for (const LoadedRun* part : parts)
        labels.push_back(part->label.empty() ? part->path : part->label);
    warnAboutDifferences(parts, labels, warnings);
    const MergeClock clock = alignStarts(parts, warnings);

    out = LoadedRun {};
    out.format = kRunFileFormat;
    mergeConfig(parts, out);
    mergeEnvironment(parts, clock, out.run);
    const std::vector<std::vector<TestKey>> keysOfPart = testKeysOfParts(parts);
    for (const TestKey& key : testKeysInOrder(keysOfPart))
        mergeTest(key, piecesOf(key, parts, keysOfPart, clock, labels, warnings), out, warnings);
    RunResult& m = out.run;
    for (const LoadedRun* part : parts)
        if (part->run.status == RunStatus::Failed && m.failure.empty())
            m.failure = partName(*part) + ": " + part->run.failure;
    for (const LoadedRun* part : parts)
        m.status = worseStatus(m.status, part->run.status);
    listSources(parts, out);
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
