#include "engine/report/run_file.h"

#include "engine/report/atomic_file.h"

#include <cerrno>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/report/json_writer.h"
#include "engine/report/run_figures.h"
#include "engine/report/run_file_reader.h"
#include "engine/report/telemetry_json.h"
#include "engine/workload/request_generator.h"

namespace tacho::engine {

namespace {

constexpr double kNsPerMs = 1e6;

double ms(std::uint64_t ns) { return double(ns) / kNsPerMs; }

void writeEndpoint(JsonWriter& w, const Endpoint& endpoint)
{
    w.beginObject();
    w.field("host", endpoint.host);
    w.field("port", endpoint.port);
    w.field("unixSocket", endpoint.unixSocket);
    w.field("tls", endpoint.tls);
    if (endpoint.tls) {
        // Paths and names only: never key material.
        w.field("tlsVerified", !endpoint.tlsSettings.insecure);
        w.field("tlsHostnameVerified", !endpoint.tlsSettings.insecure && !endpoint.tlsSettings.skipHostnameVerify);
        w.field("tlsCaCert", endpoint.tlsSettings.caCert);
        w.field("tlsClientCert", endpoint.tlsSettings.cert);
        w.field("tlsSni", endpoint.tlsSettings.sni);
    }
    w.field("address", endpoint.describe());
    w.endObject();
}

// Every RunConfig field except the password, of which only its presence is
// kept; long arguments abbreviated (storedArgument).
void writeConfig(JsonWriter& w, const RunConfig& c)
{
    w.beginObject();
    w.key("endpoint");
    writeEndpoint(w, c.endpoint);
    w.field("user", c.user);
    w.field("passwordSet", c.passwordSet || !c.password.empty());
    w.field("cluster", c.cluster);
    w.field("database", c.database);
    w.field("protocol", c.protocol);
    w.field("connections", c.connections);
    w.field("threads", c.threads);
    w.field("pipeline", c.pipeline);
    w.field("keepAlive", c.keepAlive);
    w.field("requests", c.requests);
    w.field("durationSeconds", c.durationSeconds);
    w.field("warmupSeconds", c.warmupSeconds);
    w.field("keyspace", c.keyspace);
    w.field("seed", c.seed);
    w.field("seedGiven", c.seedGiven);
    w.field("valueSize", c.valueSize);
    w.field("rate", c.rate);
    w.field("ratePerConnection", c.ratePerConnection);
    w.field("pipelineBatches", c.pipelineBatches);
    w.key("tests").beginArray();
    for (const TestSpec& t : c.tests) {
        w.beginObject();
        w.field("name", t.name);
        w.key("args").beginArray();
        for (const std::string& arg : t.args)
            w.value(storedArgument(arg));
        w.endArray();
        w.field("inline", t.inlineProtocol);
        w.field("commandStatName", t.commandStatName);
        w.field("keysPerRequest", t.keysPerRequest);
        if (t.generator)
            w.field("workload", t.generator->describe());
        w.endObject();
    }
    w.endArray();
    w.field("loop", c.loop);
    w.field("idle", c.idle);
    w.field("showErrors", c.showErrors);
    w.field("connectTimeoutMs", c.connectTimeoutMs);
    w.field("replyTimeoutMs", c.replyTimeoutMs);
    w.field("tickSeconds", c.tickSeconds);
    w.endObject();
}

void writeStringMap(JsonWriter& w, const std::map<std::string, std::string>& map)
{
    w.beginObject();
    for (const auto& [k, v] : map)
        w.field(k, v);
    w.endObject();
}

void writeEnvironment(JsonWriter& w, const Environment& e)
{
    w.beginObject();
    w.field("toolVersion", e.toolVersion);
    w.field("hostName", e.hostName);
    w.field("cpuModel", e.cpuModel);
    w.field("cpuCount", e.cpuCount);
    w.field("startedAtUtc", e.startedAtUtc);
    if (!e.ioTransport.empty())
        w.field("ioTransport", e.ioTransport);
    if (!e.repeatGroup.empty()) {
        w.key("repeat").beginObject();
        w.field("group", e.repeatGroup);
        w.field("index", e.repeatIndex);
        w.field("count", e.repeatCount);
        w.endObject();
    }
    w.key("serverInfo");
    writeStringMap(w, e.serverInfo);
    w.key("serverConfig");
    writeStringMap(w, e.serverConfig);
    // What the target allowed before the run; absent in runs made before it was asked.
    if (!e.capabilities.empty()) {
        w.key("capabilities").beginArray();
        for (const Capability& c : e.capabilities) {
            w.beginObject();
            w.field("probe", c.probe);
            w.field("verdict", capabilityVerdictName(c.verdict));
            if (!c.reply.empty())
                w.field("reply", c.reply);
            w.endObject();
        }
        w.endArray();
    }
    w.endObject();
}

void writeLatencySummary(JsonWriter& w, const char* key, const LatencyHistogram& h)
{
    w.key(key).beginObject();
    w.field("avg", h.mean() / kNsPerMs);
    w.field("min", ms(h.min()));
    w.field("p50", ms(h.valueAtPercentile(50)));
    w.field("p95", ms(h.valueAtPercentile(95)));
    w.field("p99", ms(h.valueAtPercentile(99)));
    w.field("p999", ms(h.valueAtPercentile(99.9)));
    w.field("max", ms(h.max()));
    w.endObject();
}

// The whole run's figures (run_figures.h), so that every reader of the file
// quotes the same p99 for "the run" as the workbench does.
void writeAllTests(JsonWriter& w, const StatedFigures& f)
{
    w.beginObject();
    w.field("requests", f.requests.value_or(0));
    w.field("errors", f.errors.value_or(0));
    w.field("requestsPerSecond", f.opsPerSec.value_or(0));
    w.field("kbPerSecond", f.kbPerSec.value_or(0));
    if (f.p50Ms) {
        w.key("latencyMs").beginObject();
        w.field("avg", f.avgMs.value_or(0));
        w.field("min", f.minMs.value_or(0));
        w.field("p50", *f.p50Ms);
        w.field("p95", f.p95Ms.value_or(0));
        w.field("p99", f.p99Ms.value_or(0));
        w.field("p999", f.p999Ms.value_or(0));
        w.field("max", f.maxMs.value_or(0));
        w.endObject();
    }
    w.endObject();
}

// Each command of the test's mix, with its own summary and histogram.
void writeCommands(JsonWriter& w, const TestResult& t)
{
    w.key("commands").beginArray();
    for (const CommandResult& command : t.commands) {
        w.beginObject();
        w.field("name", command.name);
        w.field("requests", command.requests);
        w.field("errors", command.errors);
        w.field("hits", command.hits);
        w.field("misses", command.misses);
        w.field("bytesSent", command.bytesSent);
        w.field("bytesReceived", command.bytesReceived);
        writeLatencySummary(w, "latencyMs", command.latency);
        w.field("histogram", command.latency.toCompressedBase64());
        if (t.targetRate > 0)
            writeLatencySummary(w, "uncorrectedLatencyMs", command.uncorrectedLatency);
        w.endObject();
    }
    w.endArray();
}

// Cluster runs: per node, and how the topology was followed.
void writeCluster(JsonWriter& w, const TestResult& t)
{
    if (!t.nodes.empty()) {   // cluster runs
        w.field("moved", t.moved);
        w.field("asked", t.asked);
        w.field("retried", t.retried);
        w.field("topologyRefreshes", t.topologyRefreshes);
        w.field("redirectFailures", t.redirectFailures);
        w.key("nodes").beginArray();
        for (const NodeResult& node : t.nodes) {
            w.beginObject();
            w.field("address", node.address);
            w.field("requests", node.requests);
            w.field("errors", node.errors);
            writeLatencySummary(w, "latencyMs", node.latency);
            w.endObject();
        }
        w.endArray();
    }

    // Cluster: every node the test talked to and where its address came from
    // (redirects may point anywhere), and any wait for the cluster to be ready.
    if (!t.clusterNodes.empty()) {
        w.key("clusterNodes").beginArray();
        for (const ClusterContact& node : t.clusterNodes) {
            w.beginObject();
            w.field("address", node.address);
            w.field("source", node.source);
            w.endObject();
        }
        w.endArray();
    }
    if (!t.clusterWait.empty())
        w.field("clusterWait", t.clusterWait);
}

void writeIntervals(JsonWriter& w, const std::vector<IntervalPoint>& intervals)
{
    w.key("intervals").beginArray();
    for (const IntervalPoint& p : intervals) {
        w.beginObject();
        w.field("start", p.startSeconds);
        w.field("end", p.endSeconds);
        w.field("requests", p.requests);
        w.field("errors", p.errors);
        w.field("hits", p.hits);
        w.field("misses", p.misses);
        w.field("bytesSent", p.bytesSent);
        w.field("bytesReceived", p.bytesReceived);
        w.field("reconnects", p.reconnects);
        w.field("connectErrors", p.connectErrors);
        w.field("unanswered", p.unanswered);
        w.field("redirects", p.redirects);
        w.field("connections", p.connections);
        w.field("p50Ms", ms(p.p50));
        w.field("p99Ms", ms(p.p99));
        w.field("p999Ms", ms(p.p999));
        w.field("maxMs", ms(p.max));
        w.field("avgMs", p.mean / kNsPerMs);
        if (p.commands.size() > 1) {
            w.key("commands").beginArray();
            for (const CommandInterval& c : p.commands) {
                w.beginObject();
                w.field("requests", c.requests);
                w.field("errors", c.errors);
                w.field("p50Ms", ms(c.p50));
                w.field("p99Ms", ms(c.p99));
                w.field("avgMs", c.mean / kNsPerMs);
                w.endObject();
            }
            w.endArray();
        }
        w.endObject();
    }
    w.endArray();
}

void writeCrossCheck(JsonWriter& w, const ServerCrossCheck& c)
{
    w.key("crossCheck").beginObject();
    w.field("available", c.available);
    if (!c.available)
        w.field("unavailable", c.unavailable);
    w.field("command", c.command);
    w.field("serverCalls", c.serverCalls);
    w.field("serverRejectedCalls", c.serverRejectedCalls);
    w.field("serverFailedCalls", c.serverFailedCalls);
    w.field("tachoCalls", c.tachoCalls);
    w.field("clientRequests", c.clientRequests);
    w.field("agrees", c.agrees());
    w.endObject();
}

void writeTest(JsonWriter& w, const TestResult& t)
{
    w.beginObject();
    w.field("name", t.name);
    w.field("commandStatName", t.commandStatName);
    w.field("requests", t.requests);
    w.field("errors", t.errors);
    w.field("hits", t.hits);
    w.field("misses", t.misses);
    w.field("bytesSent", t.bytesSent);
    w.field("bytesReceived", t.bytesReceived);
    w.field("connectErrors", t.connectErrors);
    w.field("reconnects", t.reconnects);
    w.field("unanswered", t.unanswered);
    w.field("replyTimeouts", t.replyTimeouts);
    w.field("clampedLatencies", t.clampedLatencies);
    w.key("errorsByKind").beginObject();
    for (const auto& [kind, count] : t.errorsByKind)
        w.field(kind, count);
    w.endObject();
    w.key("firstErrors").beginArray();
    for (const std::string& message : t.firstErrors)
        w.value(message);
    w.endArray();
    w.field("seconds", t.seconds);
    w.field("warmupSeconds", t.warmupSeconds);
    w.field("warmupRequests", t.warmupRequests);
    w.field("requestsPerSecond", t.requestsPerSecond());

    w.field("connectSeconds", t.connectSeconds);
    const LatencyHistogram& h = t.latency;
    writeLatencySummary(w, "latencyMs", h);
    // Open loop: latency from the due time above, from the actual send here.
    w.field("targetRate", t.targetRate);
    if (t.targetRate > 0) {
        writeLatencySummary(w, "uncorrectedLatencyMs", t.uncorrectedLatency);
        w.field("uncorrectedHistogram", t.uncorrectedLatency.toCompressedBase64());
        w.field("maxSendLagMs", ms(t.maxSendLagNs));
    }
    w.key("clientGapMs").beginObject();
    w.field("avg", t.clientGap.mean() / kNsPerMs);
    w.field("p50", ms(t.clientGap.valueAtPercentile(50)));
    w.field("p99", ms(t.clientGap.valueAtPercentile(99)));
    w.endObject();
    // HdrHistogram V2 compressed, values in microseconds.
    w.field("histogram", h.toCompressedBase64());
    w.field("histogramUnit", "us");

    writeCommands(w, t);

    if (t.scanKeys > 0 || t.scanPasses > 0) {   // SCAN iteration
        w.field("scanKeys", t.scanKeys);
        w.field("scanPasses", t.scanPasses);
    }
    writeCluster(w, t);
    writeIntervals(w, t.intervals);

    writeCrossCheck(w, t.crossCheck);
    if (t.telemetry.recorded()) {
        w.key("telemetry");
        writeTelemetryJson(w, t.telemetry);
    }
    w.field("status", runStatusName(t.status));
    w.field("failure", t.failure);
    w.endObject();
}

void writeCleanup(JsonWriter& w, const CleanupResult& c)
{
    w.beginObject();
    w.field("status", c.completed() ? "completed" : "failed");
    w.field("error", c.error);
    w.key("patterns").beginArray();
    for (const std::string& pattern : c.patterns)
        w.value(pattern);
    w.endArray();
    w.field("removed", c.removed);
    w.key("nodes").beginArray();
    for (const CleanupNode& node : c.nodes) {
        w.beginObject();
        w.field("address", node.address);
        w.field("removed", node.removed);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

} // namespace

std::string cleanupToJson(const CleanupResult& cleanup)
{
    JsonWriter w;
    writeCleanup(w, cleanup);
    return w.str();
}

std::string storedArgument(const std::string& arg)
{
    constexpr std::size_t kKept = 16;
    if (arg.size() <= kStoredArgumentBytes)
        return arg;
    std::size_t cut = kKept;
    while (cut > 0 && (static_cast<unsigned char>(arg[cut]) & 0xC0) == 0x80)
        --cut;   // not inside a UTF-8 character
    return arg.substr(0, cut) + "… (" + std::to_string(arg.size()) + " bytes)";
}

std::string runResultToJson(const RunResult& result)
{
    JsonWriter w;
    w.beginObject();
    w.field("format", kRunFileFormat);
    w.field("status", runStatusName(result.status));
    w.field("failure", result.failure);
    w.field("totalSeconds", result.totalSeconds);
    w.key("config");
    writeConfig(w, result.config);
    w.key("environment");
    writeEnvironment(w, result.environment);
    w.key("tests").beginArray();
    for (const TestResult& t : result.tests)
        writeTest(w, t);
    w.endArray();
    w.key("allTests");
    writeAllTests(w, wholeRunFigures(result));
    if (result.cleanup) {
        w.key("cleanup");
        writeCleanup(w, *result.cleanup);
    }
    w.endObject();
    return w.str() + "\n";
}

std::string withRunFileSection(std::string json, const std::string& name, const std::string& sectionJson)
{
    const auto trimLayout = [&json] {
        while (!json.empty() && (json.back() == '\n' || json.back() == ' '))
            json.pop_back();
    };
    trimLayout();
    if (json.empty() || json.back() != '}')
        return {};
    json.pop_back();
    trimLayout();
    // Indent the section one level, like the members around it (JSON strings
    // hold no raw newlines, so every newline is layout).
    std::string section;
    for (char c : sectionJson) {
        section += c;
        if (c == '\n')
            section += "  ";
    }
    return json + ",\n  " + JsonWriter::quote(name) + ": " + section + "\n}\n";
}

bool addRunFileSection(const std::string& path, const std::string& name, const std::string& sectionJson,
                       std::string* error)
{
    std::string json;
    if (!readTextFile(path, json, error)) {
        if (error)
            *error = "run file: " + *error;
        return false;
    }
    json = withRunFileSection(std::move(json), name, sectionJson);
    if (json.empty()) {
        if (error)
            *error = "run file: " + path + ": unexpected layout, not a run file this build wrote";
        return false;
    }
    if (writeFileAtomically(path, json, error))
        return true;
    if (error)
        *error = "run file: " + *error;
    return false;
}

bool writeRunFileWithSection(const std::string& path, const RunResult& result, const std::string& name,
                             const std::string& sectionJson, std::string* error)
{
    const std::string json = withRunFileSection(runResultToJson(result), name, sectionJson);
    if (json.empty()) {
        if (error)
            *error = "cannot write run file " + path + ": unexpected run file layout";
        return false;
    }
    if (!writeFileAtomically(path, json, error)) {
        if (error)
            *error = "run file: " + *error;
        return false;
    }
    return true;
}

bool writeRunFile(const std::string& path, const RunResult& result, std::string* error)
{
    if (writeFileAtomically(path, runResultToJson(result), error))
        return true;
    if (error)
        *error = "run file: " + *error;
    return false;
}

} // namespace tacho::engine
