// One test of a run file (run_file_reader.h): its counts, latency summary
// and histograms, per-command rows and intervals.
#include "engine/report/run_file_node.h"
#include "engine/report/telemetry_json.h"

namespace tacho::engine::run_file_detail {

namespace {

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

// One of a test's commands, with its figures as stated over the test's seconds.
void readCommand(const Node& c, TestResult& t, LoadedTest& loaded)
{
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

void readCrossCheck(const Node& check, ServerCrossCheck& c)
{
    optBool(check, "available", c.available);
    optString(check, "command", c.command);
    optString(check, "unavailable", c.unavailable);
    optUint64(check, "serverCalls", c.serverCalls);
    optUint64(check, "serverRejectedCalls", c.serverRejectedCalls);
    optUint64(check, "serverFailedCalls", c.serverFailedCalls);
    optUint64(check, "tachoCalls", c.tachoCalls);
    optUint64(check, "clientRequests", c.clientRequests);
}

} // namespace

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
        for (std::size_t i = 0; i < commands->size(); ++i)
            readCommand(commands->item(i).object(), t, loaded);
    }

    if (auto intervals = n.get("intervals")) {
        intervals->array();
        for (std::size_t i = 0; i < intervals->size(); ++i) {
            IntervalPoint p;
            readInterval(intervals->item(i), p);
            t.intervals.push_back(std::move(p));
        }
    }

    if (auto check = n.get("crossCheck"))
        readCrossCheck(check->object(), t.crossCheck);
    if (auto telemetry = n.get("telemetry")) {
        std::string error;
        if (!readTelemetryJson(telemetry->value(), telemetry->path(), t.telemetry, &error))
            throw ReadError { error };
    }
    if (auto s = n.get("status"))
        t.status = readStatus(*s);
    optString(n, "failure", t.failure);
}

StatedFigures readAllTests(const Node& n, const RunResult& run)
{
    n.object();
    StatedFigures f;
    std::uint64_t requests = 0, errors = 0;
    for (const TestResult& t : run.tests) {
        requests += t.requests;
        errors += t.errors;
    }
    // Figures that do not belong to these tests (an edited or spliced file)
    // would be quoted as the run's: set aside, and computed from the tests.
    f.requests = n.at("requests").uint64();
    if (*f.requests != requests)
        n.at("requests").fail(std::to_string(*f.requests) + ", but the tests add up to " + std::to_string(requests));
    f.errors = n.at("errors").uint64();
    if (*f.errors != errors)
        n.at("errors").fail(std::to_string(*f.errors) + ", but the tests add up to " + std::to_string(errors));
    f.opsPerSec = n.at("requestsPerSecond").nonNegative();
    if (auto kb = n.get("kbPerSecond"))
        f.kbPerSec = kb->nonNegative();
    if (auto latency = n.get("latencyMs"))   // absent: no test had a distribution to merge
        readLatencySummary(*latency, f);
    return f;
}

} // namespace tacho::engine::run_file_detail
