// The run file's sections other than its tests (run_file_reader.h):
// configuration, environment, status, merged sources and the clean-up.
#include <climits>

#include "engine/report/run_file_node.h"

namespace tacho::engine::run_file_detail {

namespace {

void readEndpoint(const Node& n, Endpoint& e)
{
    n.object();
    optString(n, "host", e.host);
    optInt(n, "port", e.port, 0, 65535);
    optString(n, "unixSocket", e.unixSocket);
    optBool(n, "tls", e.tls);
}

} // namespace

void readConfig(const Node& n, RunConfig& c)
{
    n.object();
    if (auto e = n.get("endpoint"))
        readEndpoint(*e, c.endpoint);
    optString(n, "user", c.user);
    c.password.clear();   // never stored; "passwordSet" only says one was used
    optBool(n, "passwordSet", c.passwordSet);
    optInt(n, "database", c.database, 0, INT_MAX);
    optInt(n, "protocol", c.protocol, 2, 3);
    optInt(n, "connections", c.connections, 0, INT_MAX);
    optInt(n, "threads", c.threads, 0, INT_MAX);
    optInt(n, "pipeline", c.pipeline, 0, INT_MAX);
    optBool(n, "keepAlive", c.keepAlive);
    optUint64(n, "requests", c.requests);
    optReal(n, "durationSeconds", c.durationSeconds);
    optReal(n, "warmupSeconds", c.warmupSeconds);
    optUint64(n, "keyspace", c.keyspace);
    optUint64(n, "seed", c.seed);
    optBool(n, "seedGiven", c.seedGiven);
    optInt(n, "valueSize", c.valueSize, 0, UINT32_MAX);
    optReal(n, "rate", c.rate);
    optReal(n, "ratePerConnection", c.ratePerConnection);
    optBool(n, "pipelineBatches", c.pipelineBatches);
    optBool(n, "loop", c.loop);
    optBool(n, "idle", c.idle);
    optBool(n, "showErrors", c.showErrors);
    optInt(n, "connectTimeoutMs", c.connectTimeoutMs, 0, INT_MAX);
    optInt(n, "replyTimeoutMs", c.replyTimeoutMs, 0, INT_MAX);
    optReal(n, "tickSeconds", c.tickSeconds);
    c.tests.clear();
    const Node tests = n.at("tests").array();
    for (std::size_t i = 0; i < tests.size(); ++i) {
        const Node t = tests.item(i).object();
        TestSpec spec;
        spec.name = t.at("name").string();
        if (auto args = t.get("args")) {
            args->array();
            for (std::size_t a = 0; a < args->size(); ++a)
                spec.args.push_back(args->item(a).string());
        }
        optBool(t, "inline", spec.inlineProtocol);
        optString(t, "commandStatName", spec.commandStatName);
        optInt(t, "keysPerRequest", spec.keysPerRequest, 0, UINT32_MAX);
        if (auto w = t.get("workload"))
            spec.generator = describedWorkload(w->string());
        c.tests.push_back(std::move(spec));
    }
}

static void readStringMap(const Node& n, std::map<std::string, std::string>& out)
{
    n.object();
    const JsonValue& v = n.value();
    for (std::size_t i = 0; i < v.memberCount(); ++i)
        out[v.keyAt(i)] = Node(v.valueAt(i), n.childPath(v.keyAt(i))).string();
}

void readEnvironment(const Node& n, Environment& e)
{
    n.object();
    optString(n, "toolVersion", e.toolVersion);
    optString(n, "hostName", e.hostName);
    optString(n, "cpuModel", e.cpuModel);
    optInt(n, "cpuCount", e.cpuCount, 0, INT_MAX);
    optString(n, "startedAtUtc", e.startedAtUtc);
    optString(n, "ioTransport", e.ioTransport);
    if (auto repeat = n.get("repeat")) {
        repeat->object();
        optString(*repeat, "group", e.repeatGroup);
        optInt(*repeat, "count", e.repeatCount, 1, 1000000);
        optInt(*repeat, "index", e.repeatIndex, 1, std::max(1, e.repeatCount));
    }
    if (!e.startedAtUtc.empty() && !parseUtcTimestamp(e.startedAtUtc))
        n.at("startedAtUtc").fail("not a UTC time like 2026-01-02T03:04:05Z: \"" + Node::clip(e.startedAtUtc) + "\"");
    if (auto m = n.get("serverInfo"))
        readStringMap(*m, e.serverInfo);
    if (auto m = n.get("serverConfig"))
        readStringMap(*m, e.serverConfig);
    if (auto capabilities = n.get("capabilities")) {
        capabilities->array();
        for (std::size_t i = 0; i < capabilities->size(); ++i) {
            const Node item = capabilities->item(i).object();
            Capability c;
            c.probe = item.at("probe").string();
            const Node verdict = item.at("verdict");
            const std::optional<CapabilityVerdict> known = capabilityVerdictFromName(verdict.string());
            if (!known)
                verdict.fail("expected \"allowed\", \"refused\", \"closed\" or \"no answer\", found \""
                             + Node::clip(verdict.string()) + "\"");
            c.verdict = *known;
            optString(item, "reply", c.reply);
            e.capabilities.push_back(std::move(c));
        }
    }
}

RunStatus readStatus(const Node& n)
{
    const std::string s = n.string();
    if (s == "completed")
        return RunStatus::Completed;
    if (s == "stopped")
        return RunStatus::Stopped;
    if (s == "failed")
        return RunStatus::Failed;
    n.fail("expected \"completed\", \"stopped\" or \"failed\", found \"" + Node::clip(s) + "\"");
}

void readSources(const Node& n, std::vector<RunSource>& out)
{
    n.array();
    for (std::size_t i = 0; i < n.size(); ++i) {
        const Node s = n.item(i).object();
        RunSource source;
        optString(s, "file", source.file);
        optString(s, "hostName", source.hostName);
        optString(s, "startedAtUtc", source.startedAtUtc);
        optString(s, "toolVersion", source.toolVersion);
        optUint64(s, "requests", source.requests);
        out.push_back(std::move(source));
    }
}

// The clean-up after the run (optional; written since --cleanup records it).
CleanupResult readCleanup(const Node& n)
{
    n.object();
    CleanupResult c;
    const Node status = n.at("status");
    const std::string s = status.string();
    if (s != "completed" && s != "failed")
        status.fail("expected \"completed\" or \"failed\", found \"" + Node::clip(s) + "\"");
    optString(n, "error", c.error);
    if (s == "failed" && c.error.empty())
        c.error = "failed (no reason recorded)";
    if (s == "completed" && !c.error.empty())
        n.at("error").fail("a completed clean-up has no error");
    if (auto patterns = n.get("patterns")) {
        patterns->array();
        for (std::size_t i = 0; i < patterns->size(); ++i)
            c.patterns.push_back(patterns->item(i).string());
    }
    c.removed = n.at("removed").uint64();
    std::uint64_t perNode = 0;
    if (auto nodes = n.get("nodes")) {
        nodes->array();
        for (std::size_t i = 0; i < nodes->size(); ++i) {
            const Node node = nodes->item(i).object();
            CleanupNode entry;
            entry.address = node.at("address").string();
            entry.removed = node.at("removed").uint64();
            if (__builtin_add_overflow(perNode, entry.removed, &perNode))
                node.at("removed").fail("the nodes' counts add up to more than 18446744073709551615");
            c.nodes.push_back(std::move(entry));
        }
        if (perNode != c.removed)
            n.at("removed").fail(std::to_string(c.removed) + " keys, but the nodes add up to " + std::to_string(perNode));
    }
    return c;
}

} // namespace tacho::engine::run_file_detail
