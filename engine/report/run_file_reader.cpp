#include "engine/report/run_file_reader.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <memory>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/report/json_reader.h"
#include "engine/report/run_file.h"
#include "engine/workload/request_generator.h"

namespace tacho::engine {

namespace {

// Thrown inside the reader only; turned into the error message at the top.
struct ReadError {
    std::string message;
};

// A stored workload: its description survives, the generator does not.
// create() yields a generator with nothing to send, so a read config cannot
// be run by accident.
class DescribedWorkload final : public RequestGeneratorFactory {
public:
    explicit DescribedWorkload(std::string description) : m_description(std::move(description)) {}

    std::unique_ptr<RequestGenerator> create(std::size_t, std::size_t, std::uint64_t) const override
    {
        struct Nothing final : RequestGenerator {
            std::uint32_t appendNext(std::string&) override { return kExhausted; }
        };
        return std::make_unique<Nothing>();
    }
    std::vector<std::string> commandNames() const override { return {}; }
    std::vector<std::string> commandStatNames() const override { return {}; }
    std::string describe() const override { return m_description; }

private:
    std::string m_description;
};

// A value and its path in the document, for messages that name the field.
class Node {
public:
    Node(const JsonValue& value, std::string path) : m_value(&value), m_path(std::move(path)) {}

    const JsonValue& value() const { return *m_value; }
    const std::string& path() const { return m_path; }

    [[noreturn]] void fail(const std::string& message) const { throw ReadError { m_path + ": " + message }; }
    [[noreturn]] void wrongType(const char* expected) const
    {
        fail(std::string("expected ") + expected + ", found " + describeFound());
    }

    std::string describeFound() const
    {
        const JsonValue& v = *m_value;
        switch (v.type()) {
        case JsonValue::Type::Number: return "number " + clip(v.text());
        case JsonValue::Type::String: return "string \"" + clip(v.text()) + "\"";
        case JsonValue::Type::Bool: return v.boolValue() ? "true" : "false";
        default: return v.typeName();
        }
    }

    std::string childPath(std::string_view key) const { return m_path.empty() ? std::string(key) : m_path + "." + std::string(key); }

    // Required member.
    Node at(std::string_view key) const
    {
        requireObject();
        const JsonValue* child = m_value->find(key);
        if (!child)
            throw ReadError { childPath(key) + ": missing" };
        return Node(*child, childPath(key));
    }
    // Optional member (absent → nullopt).
    std::optional<Node> get(std::string_view key) const
    {
        requireObject();
        const JsonValue* child = m_value->find(key);
        if (!child)
            return std::nullopt;
        return Node(*child, childPath(key));
    }
    Node item(std::size_t i) const { return Node(m_value->items()[i], m_path + "[" + std::to_string(i) + "]"); }
    std::size_t size() const { return m_value->items().size(); }

    void requireObject() const
    {
        if (!m_value->isObject())
            wrongType("an object");
    }
    const Node& array() const
    {
        if (!m_value->isArray())
            wrongType("an array");
        return *this;
    }
    const Node& object() const
    {
        requireObject();
        return *this;
    }

    std::string string() const
    {
        if (!m_value->isString())
            wrongType("a string");
        return m_value->text();
    }
    bool boolean() const
    {
        if (!m_value->isBool())
            wrongType("true or false");
        return m_value->boolValue();
    }
    std::uint64_t uint64() const
    {
        if (!m_value->isNumber())
            wrongType("a non-negative integer");
        if (auto v = m_value->asUint64())
            return *v;
        const std::string& text = m_value->text();
        const double d = m_value->number();
        const bool integralText = text.find_first_of(".eE") == std::string::npos;
        if (text[0] != '-' && (integralText || !std::isfinite(d) || d > 9007199254740992.0))
            fail("number " + clip(text) + " is out of range (at most 18446744073709551615)");
        // Integral values other writers put in exponent or fraction form (1e3, 5.0).
        if (std::isfinite(d) && d >= 0 && d == std::floor(d))
            return static_cast<std::uint64_t>(d);
        wrongType("a non-negative integer");
    }
    // Integer within [lo, hi].
    long long integer(long long lo, long long hi) const
    {
        if (!m_value->isNumber())
            wrongType("an integer");
        std::optional<std::int64_t> v = m_value->asInt64();
        if (!v) {
            const double d = m_value->number();
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0)
                v = static_cast<std::int64_t>(d);
            else if (m_value->text().find_first_of(".eE") == std::string::npos || !std::isfinite(d)
                     || std::fabs(d) > 9007199254740992.0)
                fail("number " + clip(m_value->text()) + " is out of range");
            else
                wrongType("an integer");
        }
        if (*v < lo || *v > hi)
            fail("number " + clip(m_value->text()) + " is out of range (" + std::to_string(lo) + " to "
                 + std::to_string(hi) + ")");
        return *v;
    }
    // A finite number; null (how non-finite values are written) when allowed.
    double real(bool nullAllowed = false) const
    {
        if (nullAllowed && m_value->isNull())
            return std::numeric_limits<double>::quiet_NaN();
        if (!m_value->isNumber())
            wrongType("a number");
        const double d = m_value->number();
        if (!std::isfinite(d))
            fail("number " + clip(m_value->text()) + " is out of range");
        return d;
    }
    double nonNegative(bool nullAllowed = false) const
    {
        const double d = real(nullAllowed);
        if (d < 0)
            fail("expected a number >= 0, found " + clip(m_value->text()));
        return d;
    }

    static std::string clip(const std::string& text)
    {
        return text.size() > 60 ? text.substr(0, 57) + "..." : text;
    }

private:
    const JsonValue* m_value;
    std::string m_path;
};

// Optional member helpers: absent → default (kept), present → checked.
void optString(const Node& n, std::string_view key, std::string& out)
{
    if (auto c = n.get(key))
        out = c->string();
}
void optBool(const Node& n, std::string_view key, bool& out)
{
    if (auto c = n.get(key))
        out = c->boolean();
}
void optUint64(const Node& n, std::string_view key, std::uint64_t& out)
{
    if (auto c = n.get(key))
        out = c->uint64();
}
template <class Int>
void optInt(const Node& n, std::string_view key, Int& out, long long lo, long long hi)
{
    if (auto c = n.get(key))
        out = static_cast<Int>(c->integer(lo, hi));
}
void optReal(const Node& n, std::string_view key, double& out)
{
    if (auto c = n.get(key))
        out = c->nonNegative();
}

constexpr double kNsPerMs = 1e6;

std::uint64_t msToNs(double ms)
{
    if (!(ms > 0))
        return 0;
    const double ns = ms * kNsPerMs + 0.5;
    return ns >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(ns);
}

LatencyHistogram decodeHistogram(const Node& n)
{
    const std::string text = n.string();
    LatencyHistogram h;
    std::string error;
    if (!LatencyHistogram::fromCompressedBase64(text, h, &error)) {
        // The decoder says "histogram: …"; the path already names it.
        if (error.rfind("histogram: ", 0) == 0)
            error = error.substr(11);
        n.fail("not a readable HdrHistogram: " + error);
    }
    return h;
}

// latencyMs-style summary: every present field must be a number >= 0.
void readLatencySummary(const Node& n, StatedFigures& f)
{
    n.object();
    auto take = [&](const char* key, std::optional<double>& out) {
        if (auto c = n.get(key)) {
            const double v = c->nonNegative(true);
            if (!std::isnan(v))
                out = v;
        }
    };
    take("avg", f.avgMs);
    take("min", f.minMs);
    take("p50", f.p50Ms);
    take("p95", f.p95Ms);
    take("p99", f.p99Ms);
    take("p999", f.p999Ms);
    take("max", f.maxMs);
}

void readEndpoint(const Node& n, Endpoint& e)
{
    n.object();
    optString(n, "host", e.host);
    optInt(n, "port", e.port, 0, 65535);
    optString(n, "unixSocket", e.unixSocket);
    optBool(n, "tls", e.tls);
}

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
            spec.generator = std::make_shared<const DescribedWorkload>(w->string());
        c.tests.push_back(std::move(spec));
    }
}

void readStringMap(const Node& n, std::map<std::string, std::string>& out)
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

void readInterval(const Node& n, IntervalPoint& p)
{
    n.object();
    p.startSeconds = n.at("start").real();
    p.endSeconds = n.at("end").real();
    if (p.endSeconds < p.startSeconds)
        n.at("end").fail("interval ends before it starts");
    p.requests = n.at("requests").uint64();
    optUint64(n, "errors", p.errors);
    optUint64(n, "hits", p.hits);
    optUint64(n, "misses", p.misses);
    optUint64(n, "bytesSent", p.bytesSent);
    optUint64(n, "bytesReceived", p.bytesReceived);
    optUint64(n, "reconnects", p.reconnects);
    optUint64(n, "connectErrors", p.connectErrors);
    optUint64(n, "unanswered", p.unanswered);
    optUint64(n, "connections", p.connections);
    auto latency = [&](const char* key, std::uint64_t& out) {
        if (auto c = n.get(key)) {
            const double v = c->nonNegative(true);
            out = std::isnan(v) ? 0 : msToNs(v);
        }
    };
    latency("p50Ms", p.p50);
    latency("p99Ms", p.p99);
    latency("p999Ms", p.p999);
    latency("maxMs", p.max);
    if (auto c = n.get("avgMs")) {
        const double v = c->nonNegative(true);
        p.mean = std::isnan(v) ? 0 : v * kNsPerMs;
    }
    if (auto commands = n.get("commands")) {
        commands->array();
        for (std::size_t i = 0; i < commands->size(); ++i) {
            const Node c = commands->item(i).object();
            CommandInterval ci;
            ci.requests = c.at("requests").uint64();
            optUint64(c, "errors", ci.errors);
            std::uint64_t p50 = 0, p99 = 0;
            if (auto v = c.get("p50Ms")) {
                const double d = v->nonNegative(true);
                p50 = std::isnan(d) ? 0 : msToNs(d);
            }
            if (auto v = c.get("p99Ms")) {
                const double d = v->nonNegative(true);
                p99 = std::isnan(d) ? 0 : msToNs(d);
            }
            ci.p50 = p50;
            ci.p99 = p99;
            if (auto v = c.get("avgMs")) {
                const double d = v->nonNegative(true);
                ci.mean = std::isnan(d) ? 0 : d * kNsPerMs;
            }
            p.commands.push_back(ci);
        }
    }
}

void readTest(const Node& n, TestResult& t, LoadedTest& loaded)
{
    n.object();
    t.name = n.at("name").string();
    optString(n, "commandStatName", t.commandStatName);
    t.requests = n.at("requests").uint64();
    t.errors = n.at("errors").uint64();
    if (t.errors > t.requests)
        n.at("errors").fail("more errors (" + std::to_string(t.errors) + ") than requests ("
                            + std::to_string(t.requests) + ")");
    optUint64(n, "hits", t.hits);
    optUint64(n, "misses", t.misses);
    optUint64(n, "bytesSent", t.bytesSent);
    optUint64(n, "bytesReceived", t.bytesReceived);
    optUint64(n, "connectErrors", t.connectErrors);
    optUint64(n, "reconnects", t.reconnects);
    optUint64(n, "unanswered", t.unanswered);
    optUint64(n, "replyTimeouts", t.replyTimeouts);
    optUint64(n, "scanKeys", t.scanKeys);
    optUint64(n, "scanPasses", t.scanPasses);
    optUint64(n, "clampedLatencies", t.clampedLatencies);
    if (auto m = n.get("errorsByKind")) {
        m->object();
        const JsonValue& v = m->value();
        for (std::size_t i = 0; i < v.memberCount(); ++i)
            t.errorsByKind[v.keyAt(i)] = Node(v.valueAt(i), m->childPath(v.keyAt(i))).uint64();
    }
    if (auto a = n.get("firstErrors")) {
        a->array();
        for (std::size_t i = 0; i < a->size(); ++i)
            t.firstErrors.push_back(a->item(i).string());
    }
    t.seconds = n.at("seconds").nonNegative();
    optReal(n, "warmupSeconds", t.warmupSeconds);
    optUint64(n, "warmupRequests", t.warmupRequests);
    optReal(n, "connectSeconds", t.connectSeconds);
    optReal(n, "targetRate", t.targetRate);

    StatedFigures& f = loaded.figures;
    readLatencySummary(n.at("latencyMs"), f);
    if (auto rps = n.get("requestsPerSecond"))
        f.opsPerSec = rps->nonNegative();
    f.requests = t.requests;
    f.errors = t.errors;
    if (t.seconds > 0)
        f.kbPerSec = double(t.bytesSent + t.bytesReceived) / 1024.0 / t.seconds;

    const Node histogram = n.at("histogram");
    t.latency = decodeHistogram(histogram);
    if (auto unit = n.get("histogramUnit"); unit && unit->string() != "us")
        unit->fail("unsupported unit \"" + Node::clip(unit->string()) + "\" (this build reads \"us\")");
    // The histogram's count is the number of latencies recorded: every
    // answered request, none of the unanswered ones.
    if (t.latency.count() != t.requests)
        histogram.fail("holds " + std::to_string(t.latency.count()) + " latencies but the test counts "
                       + std::to_string(t.requests) + " requests");
    if (t.targetRate > 0) {
        if (auto u = n.get("uncorrectedHistogram"))
            t.uncorrectedLatency = decodeHistogram(*u);
        if (auto lag = n.get("maxSendLagMs"))
            t.maxSendLagNs = msToNs(lag->nonNegative());
    }

    if (auto commands = n.get("commands")) {
        commands->array();
        for (std::size_t i = 0; i < commands->size(); ++i) {
            const Node c = commands->item(i).object();
            CommandResult command;
            command.name = c.at("name").string();
            command.requests = c.at("requests").uint64();
            optUint64(c, "errors", command.errors);
            optUint64(c, "hits", command.hits);
            optUint64(c, "misses", command.misses);
            optUint64(c, "bytesSent", command.bytesSent);
            optUint64(c, "bytesReceived", command.bytesReceived);
            StatedFigures cf;
            if (auto s = c.get("latencyMs"))
                readLatencySummary(*s, cf);
            const Node h = c.at("histogram");
            command.latency = decodeHistogram(h);
            if (command.latency.count() != command.requests)
                h.fail("holds " + std::to_string(command.latency.count()) + " latencies but the command counts "
                       + std::to_string(command.requests) + " requests");
            cf.requests = command.requests;
            cf.errors = command.errors;
            if (t.seconds > 0) {
                cf.opsPerSec = double(command.requests) / t.seconds;
                cf.kbPerSec = double(command.bytesSent + command.bytesReceived) / 1024.0 / t.seconds;
            }
            t.commands.push_back(std::move(command));
            loaded.commands.push_back(cf);
            loaded.commandKeysPerRequest.push_back(0);
        }
    }

    if (auto intervals = n.get("intervals")) {
        intervals->array();
        for (std::size_t i = 0; i < intervals->size(); ++i) {
            IntervalPoint p;
            readInterval(intervals->item(i), p);
            t.intervals.push_back(std::move(p));
        }
    }

    if (auto check = n.get("crossCheck")) {
        check->object();
        ServerCrossCheck& c = t.crossCheck;
        optBool(*check, "available", c.available);
        optString(*check, "command", c.command);
        optString(*check, "unavailable", c.unavailable);
        optUint64(*check, "serverCalls", c.serverCalls);
        optUint64(*check, "serverRejectedCalls", c.serverRejectedCalls);
        optUint64(*check, "serverFailedCalls", c.serverFailedCalls);
        optUint64(*check, "tachoCalls", c.tachoCalls);
        optUint64(*check, "clientRequests", c.clientRequests);
    }
    if (auto s = n.get("status"))
        t.status = readStatus(*s);
    optString(n, "failure", t.failure);
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

void readDocument(const JsonValue& root, LoadedRun& out)
{
    const Node top(root, "");
    if (!root.isObject())
        throw ReadError { std::string("not a Tacho run file: the document is a JSON ") + root.typeName()
                          + ", not an object" };
    const auto format = top.get("format");
    if (!format)
        throw ReadError { "not a Tacho run file: no \"format\" field" };
    const std::string f = format->string();
    if (f != kRunFileFormat) {
        if (f.rfind("tacho-run/", 0) == 0)
            format->fail("version \"" + Node::clip(f) + "\" is not supported; this build reads \"" + kRunFileFormat
                         + "\" (a newer Tacho wrote it?)");
        format->fail("\"" + Node::clip(f) + "\" is not a Tacho run file format (expected \"" + kRunFileFormat + "\")");
    }
    out.format = kRunFileFormat;
    RunResult& r = out.run;
    if (auto s = top.get("status"))
        r.status = readStatus(*s);
    optString(top, "failure", r.failure);
    optReal(top, "totalSeconds", r.totalSeconds);
    readConfig(top.at("config"), r.config);
    readEnvironment(top.at("environment"), r.environment);
    const Node tests = top.at("tests").array();
    for (std::size_t i = 0; i < tests.size(); ++i) {
        TestResult t;
        LoadedTest loaded;
        readTest(tests.item(i), t, loaded);
        r.tests.push_back(std::move(t));
        out.tests.push_back(std::move(loaded));
    }
    if (auto sources = top.get("sources"))
        readSources(*sources, out.sources);
    if (auto cleanup = top.get("cleanup"))
        r.cleanup = readCleanup(*cleanup);
    out.known = KnownConfig {};
    if (r.environment.serverInfo.empty())
        out.known.serverVersion = false;
    out.lacks.clear();
    if (r.environment.serverInfo.empty())
        out.lacks.push_back("server version (INFO could not be read)");
}

} // namespace

bool cleanupFromJson(std::string_view json, CleanupResult& out, std::string* error)
{
    JsonParseError parseError;
    const std::optional<JsonValue> root = parseJson(json, &parseError);
    if (!root) {
        if (error)
            *error = "cleanup: not valid JSON at " + parseError.describe();
        return false;
    }
    try {
        out = readCleanup(Node(*root, "cleanup"));
    } catch (const ReadError& e) {
        if (error)
            *error = e.message;
        return false;
    }
    return true;
}

bool runFileFromJson(std::string_view json, const std::string& name, LoadedRun& out, std::string* error)
{
    const std::string prefix = name.empty() ? std::string() : name + ": ";
    JsonParseError parseError;
    const std::optional<JsonValue> root = parseJson(json, &parseError);
    if (!root) {
        if (error)
            *error = prefix + "not valid JSON at " + parseError.describe();
        return false;
    }
    out = LoadedRun {};
    out.path = name;
    out.label = fileBaseName(name);
    try {
        readDocument(*root, out);
    } catch (const ReadError& e) {
        if (error)
            *error = prefix + e.message;
        return false;
    } catch (const std::exception& e) {   // allocation failure on absurd input
        if (error)
            *error = prefix + "cannot read: " + e.what();
        return false;
    }
    return true;
}

bool readTextFile(const std::string& path, std::string& out, std::string* error, std::uint64_t maxBytes)
{
    const auto failWith = [&](const std::string& what) {
        if (error)
            *error = path + ": " + what;
        return false;
    };
    const auto tooLarge = [&](const std::string& size) {
        return "too large to read (" + size + "; at most " + std::to_string(maxBytes) + " bytes, "
            + std::to_string(maxBytes >> 20) + " MiB)";
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return failWith("cannot open: " + std::generic_category().message(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return failWith("not a regular file");
    }
    if (std::uint64_t(st.st_size) > maxBytes) {
        ::close(fd);
        return failWith(tooLarge(std::to_string(st.st_size) + " bytes"));
    }
    out.clear();
    out.reserve(std::size_t(st.st_size));
    char buffer[65536];
    while (true) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int code = errno;
            ::close(fd);
            return failWith("read failed: " + std::generic_category().message(code));
        }
        if (n == 0)
            break;
        out.append(buffer, std::size_t(n));
        if (out.size() > maxBytes) {
            ::close(fd);
            return failWith(tooLarge("more than " + std::to_string(maxBytes) + " bytes"));
        }
    }
    ::close(fd);
    return true;
}

bool readRunFile(const std::string& path, LoadedRun& out, std::string* error)
{
    std::string text;
    if (!readTextFile(path, text, error))
        return false;
    return runFileFromJson(text, path, out, error);
}

std::shared_ptr<const RequestGeneratorFactory> describedWorkload(std::string description)
{
    return std::make_shared<const DescribedWorkload>(std::move(description));
}

std::string fileBaseName(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::optional<double> parseUtcTimestamp(const std::string& text)
{
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    int consumed = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second, &consumed)
            != 6
        || consumed != 19)
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60 || year < 1970)
        return std::nullopt;
    double fraction = 0;
    std::size_t pos = 19;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        double scale = 0.1;
        const std::size_t digits = pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            fraction += (text[pos] - '0') * scale;
            scale /= 10;
            ++pos;
        }
        if (pos == digits)
            return std::nullopt;
    }
    if (pos + 1 != text.size() || text[pos] != 'Z')
        return std::nullopt;
    std::tm tm {};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    tm.tm_sec = second;
    const std::time_t t = timegm(&tm);
    if (t == static_cast<std::time_t>(-1))
        return std::nullopt;
    return double(t) + fraction;
}

std::string formatUtcTimestamp(double epochSeconds)
{
    if (!std::isfinite(epochSeconds) || epochSeconds < 0)
        return {};
    const auto whole = static_cast<std::time_t>(std::floor(epochSeconds));
    const int millis = static_cast<int>(std::lround((epochSeconds - double(whole)) * 1000));
    std::time_t seconds = whole;
    int ms = millis;
    if (ms >= 1000) {
        seconds += 1;
        ms -= 1000;
    }
    std::tm utc {};
    gmtime_r(&seconds, &utc);
    char stamp[40];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
    std::string out = stamp;
    if (ms > 0) {
        char frac[16];
        std::snprintf(frac, sizeof frac, ".%03d", ms);
        out += frac;
    }
    return out + "Z";
}

} // namespace tacho::engine
