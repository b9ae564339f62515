// Reading tacho-run/1 files back (issue #6): a written run reads back with
// its counts, percentiles (histograms within their precision), intervals,
// commands and cross-check; every malformed, truncated or wrong-version file
// gives a message naming the field, and none crashes the reader.
#include <QtTest>

#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"
#include "engine/workload/request_generator.h"

using namespace tacho::engine;

namespace {

const std::string kAwkward = "ERR \"bad\" \\ path\n\ttab \x01\x1f end é ✓ 😀";

// A run with every field the writer knows, open loop, two commands.
RunResult fullRun()
{
    RunResult r;
    RunConfig& c = r.config;
    c.endpoint.host = "10.0.0.5";
    c.endpoint.port = 6380;
    c.endpoint.tls = true;
    c.user = "bench";
    c.password = "secret-never-written";
    c.database = 3;
    c.protocol = 3;
    c.connections = 16;
    c.threads = 2;
    c.pipeline = 4;
    c.pipelineBatches = false;
    c.keepAlive = false;
    c.requests = 0;
    c.durationSeconds = 2.5;
    c.warmupSeconds = 0.5;
    c.keyspace = 1000;
    c.seed = 42;
    c.seedGiven = true;
    c.valueSize = 64;
    c.rate = 5000;
    c.connectTimeoutMs = 1234;
    c.tickSeconds = 0.25;
    TestSpec spec;
    spec.name = "SET:GET";
    spec.args = { "SET", "key:__rand_int__", "xxx" };
    spec.commandStatName = "set";
    spec.keysPerRequest = 1;
    c.tests.push_back(spec);
    TestSpec mset;
    mset.name = "MSET (10 keys)";
    mset.args = { "MSET", "k1", "v", "k2", "v" };
    mset.keysPerRequest = 10;
    mset.commandStatName = "mset";
    c.tests.push_back(mset);

    Environment& e = r.environment;
    e.toolVersion = "0.1.0";
    e.hostName = "bench-host";
    e.cpuModel = "Test CPU @ 3 GHz";
    e.cpuCount = 8;
    e.startedAtUtc = "2026-01-02T03:04:05Z";
    e.serverInfo["redis_version"] = "7.0.15";
    e.serverInfo["os"] = kAwkward;
    e.serverConfig["appendonly"] = "no";
    e.capabilities = { { "PING", CapabilityVerdict::Allowed, "" },
                       { "INFO server", CapabilityVerdict::Refused, std::string("NOPERM ") + kAwkward },
                       { "CONFIG GET", CapabilityVerdict::Closed, "" },
                       { "CLUSTER INFO", CapabilityVerdict::Allowed, "ERR This instance has cluster support disabled" },
                       { "HELLO 3", CapabilityVerdict::NoAnswer, "" } };
    r.totalSeconds = 3.75;
    r.status = RunStatus::Stopped;
    r.failure = "";

    std::mt19937_64 random(7);
    std::lognormal_distribution<double> latency(12.5, 1.0);   // ~270 µs median, long tail
    TestResult t;
    t.name = "SET:GET";
    t.commandStatName = "set,get";
    t.seconds = 2.5;
    t.connectSeconds = 0.01;
    t.warmupSeconds = 0.5;
    t.warmupRequests = 77;
    t.targetRate = 5000;
    t.maxSendLagNs = 1'500'000;
    CommandResult set, get;
    set.name = "SET";
    get.name = "GET";
    for (int i = 0; i < 5000; ++i) {
        const auto ns = static_cast<std::uint64_t>(latency(random));
        CommandResult& cmd = (i % 3 == 0) ? set : get;
        cmd.latency.record(ns);
        cmd.uncorrectedLatency.record(ns / 2);
        ++cmd.requests;
        t.latency.record(ns);
        t.uncorrectedLatency.record(ns / 2);
    }
    set.errors = 3;
    set.bytesSent = 1000;
    set.bytesReceived = 200;
    get.hits = 3000;
    get.misses = get.requests - 3000;
    t.requests = set.requests + get.requests;
    t.errors = 3;
    t.hits = 3000 + set.requests - 3;
    t.misses = get.misses;
    t.bytesSent = 123456;
    t.bytesReceived = 65432;
    t.connectErrors = 1;
    t.reconnects = 2;
    t.unanswered = 4;
    t.errorsByKind["WRONGTYPE"] = 2;
    t.errorsByKind["ERR"] = 1;
    t.firstErrors = { kAwkward, "WRONGTYPE Operation against a key" };
    for (int i = 0; i < 10; ++i) {
        IntervalPoint p;
        p.startSeconds = i * 0.25;
        p.endSeconds = (i + 1) * 0.25;
        p.requests = 500;
        p.errors = i == 3 ? 3 : 0;
        p.bytesSent = 12345;
        p.p50 = 250'000 + i;
        p.p99 = 900'000;
        p.p999 = 990'000;
        p.max = 1'000'000;
        p.mean = 300'000.5;
        p.commands = { CommandInterval { 167, p.errors, 250'000, 900'000, 0, 0, 310'000 },
                       CommandInterval { 333, 0, 240'000, 800'000, 0, 0, 290'000 } };
        t.intervals.push_back(p);
    }
    t.commands.push_back(std::move(set));
    t.commands.push_back(std::move(get));
    t.crossCheck.available = true;
    t.crossCheck.command = "set,get";
    t.crossCheck.serverCalls = 5000;
    t.crossCheck.serverFailedCalls = 3;
    t.crossCheck.clientRequests = 5000;
    t.status = RunStatus::Stopped;
    r.tests.push_back(std::move(t));

    TestResult m;
    m.name = "MSET (10 keys)";
    m.commandStatName = "mset";
    m.requests = 1;
    m.seconds = 0.001;
    m.latency.record(20'000'000'000);   // 20 s
    CommandResult mc;
    mc.name = "MSET (10 keys)";
    mc.requests = 1;
    mc.latency.record(20'000'000'000);
    m.commands.push_back(std::move(mc));
    m.status = RunStatus::Failed;
    m.failure = "server went away";
    r.tests.push_back(std::move(m));
    return r;
}

// Within the histograms' precision: 0.1 % above ~1 ms; below, one µs bucket of the export plus one bucket here.
bool close(double a, double b) { return std::fabs(a - b) <= std::max(0.0011 * std::max(a, b), 0.0015); }

// Replaces the first occurrence; fails the test when absent.
std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos) {
        qWarning("pattern not found: %s", from.c_str());
        return {};
    }
    return text.replace(at, from.size(), to);
}

std::string readError(const std::string& json)
{
    LoadedRun run;
    std::string error;
    if (runFileFromJson(json, "run.json", run, &error))
        return "(read fine)";
    return error;
}

} // namespace

class TestRunFileReader : public QObject {
    Q_OBJECT
private slots:
    void roundTripKeepsEverything()
    {
        const RunResult original = fullRun();
        const std::string json = runResultToJson(original);
        LoadedRun loaded;
        std::string error;
        QVERIFY2(runFileFromJson(json, "dir/run.json", loaded, &error), error.c_str());
        const RunResult& r = loaded.run;
        QCOMPARE(loaded.format, std::string("tacho-run/1"));
        QCOMPARE(loaded.label, std::string("run.json"));
        QCOMPARE(loaded.path, std::string("dir/run.json"));
        QCOMPARE(r.status, RunStatus::Stopped);
        QCOMPARE(r.totalSeconds, 3.75);

        const RunConfig& c = r.config;
        QCOMPARE(c.endpoint.host, std::string("10.0.0.5"));
        QCOMPARE(int(c.endpoint.port), 6380);
        QVERIFY(c.endpoint.tls);
        QCOMPARE(c.user, std::string("bench"));
        QVERIFY(c.password.empty());
        QCOMPARE(c.database, 3);
        QCOMPARE(c.protocol, 3);
        QCOMPARE(c.connections, 16);
        QCOMPARE(c.threads, 2);
        QCOMPARE(c.pipeline, 4);
        QCOMPARE(c.pipelineBatches, false);
        QCOMPARE(c.keepAlive, false);
        QCOMPARE(c.durationSeconds, 2.5);
        QCOMPARE(c.warmupSeconds, 0.5);
        QCOMPARE(c.keyspace, 1000u);
        QCOMPARE(c.seed, 42u);
        QVERIFY(c.seedGiven);
        QCOMPARE(c.valueSize, 64u);
        QCOMPARE(c.rate, 5000.0);
        QCOMPARE(c.connectTimeoutMs, 1234);
        QCOMPARE(c.tickSeconds, 0.25);
        QCOMPARE(c.tests.size(), std::size_t(2));
        QCOMPARE(c.tests[0].args, (std::vector<std::string> { "SET", "key:__rand_int__", "xxx" }));
        QCOMPARE(c.tests[1].keysPerRequest, 10u);
        QCOMPARE(c.tests[1].commandStatName, std::string("mset"));

        const Environment& e = r.environment;
        QCOMPARE(e.hostName, std::string("bench-host"));
        QCOMPARE(e.cpuModel, std::string("Test CPU @ 3 GHz"));
        QCOMPARE(e.cpuCount, 8);
        QCOMPARE(e.startedAtUtc, std::string("2026-01-02T03:04:05Z"));
        QCOMPARE(e.serverInfo.at("redis_version"), std::string("7.0.15"));
        QCOMPARE(e.serverInfo.at("os"), kAwkward);
        QCOMPARE(e.serverConfig.at("appendonly"), std::string("no"));
        // Issue 16: what the target allowed, in order, with the server's text.
        QCOMPARE(e.capabilities.size(), original.environment.capabilities.size());
        for (std::size_t i = 0; i < e.capabilities.size(); ++i) {
            QCOMPARE(e.capabilities[i].probe, original.environment.capabilities[i].probe);
            QVERIFY(e.capabilities[i].verdict == original.environment.capabilities[i].verdict);
            QCOMPARE(e.capabilities[i].reply, original.environment.capabilities[i].reply);
        }

        QCOMPARE(r.tests.size(), std::size_t(2));
        const TestResult& o = original.tests[0];
        const TestResult& t = r.tests[0];
        QCOMPARE(t.name, o.name);
        QCOMPARE(t.commandStatName, o.commandStatName);
        QCOMPARE(t.requests, o.requests);
        QCOMPARE(t.errors, o.errors);
        QCOMPARE(t.hits, o.hits);
        QCOMPARE(t.misses, o.misses);
        QCOMPARE(t.bytesSent, o.bytesSent);
        QCOMPARE(t.bytesReceived, o.bytesReceived);
        QCOMPARE(t.connectErrors, o.connectErrors);
        QCOMPARE(t.reconnects, o.reconnects);
        QCOMPARE(t.unanswered, o.unanswered);
        QCOMPARE(t.errorsByKind, o.errorsByKind);
        QCOMPARE(t.firstErrors, o.firstErrors);
        QCOMPARE(t.seconds, o.seconds);
        QCOMPARE(t.connectSeconds, o.connectSeconds);
        QCOMPARE(t.warmupSeconds, o.warmupSeconds);
        QCOMPARE(t.warmupRequests, o.warmupRequests);
        QCOMPARE(t.targetRate, o.targetRate);
        QCOMPARE(t.maxSendLagNs, o.maxSendLagNs);
        QCOMPARE(t.status, RunStatus::Stopped);

        // Histograms: counts exact, percentiles within precision.
        QCOMPARE(t.latency.count(), o.latency.count());
        QCOMPARE(t.uncorrectedLatency.count(), o.uncorrectedLatency.count());
        for (double p : { 0.0, 1.0, 25.0, 50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0 }) {
            const double a = o.latency.valueAtPercentile(p) / 1e6, b = t.latency.valueAtPercentile(p) / 1e6;
            QVERIFY2(close(a, b), qPrintable(QStringLiteral("p%1: %2 vs %3").arg(p).arg(a).arg(b)));
        }
        // The stated summary is exact.
        const StatedFigures& f = loaded.tests[0].figures;
        QVERIFY(f.p99Ms && f.p999Ms && f.avgMs && f.minMs && f.maxMs && f.p95Ms && f.p50Ms);
        QCOMPARE(*f.p99Ms, o.latency.valueAtPercentile(99) / 1e6);
        QCOMPARE(*f.maxMs, o.latency.max() / 1e6);
        QCOMPARE(*f.avgMs, o.latency.mean() / 1e6);
        QCOMPARE(*f.opsPerSec, o.requestsPerSecond());
        QCOMPARE(*f.requests, o.requests);

        QCOMPARE(t.commands.size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            QCOMPARE(t.commands[i].name, o.commands[i].name);
            QCOMPARE(t.commands[i].requests, o.commands[i].requests);
            QCOMPARE(t.commands[i].errors, o.commands[i].errors);
            QCOMPARE(t.commands[i].hits, o.commands[i].hits);
            QCOMPARE(t.commands[i].misses, o.commands[i].misses);
            QCOMPARE(t.commands[i].bytesSent, o.commands[i].bytesSent);
            QCOMPARE(t.commands[i].latency.count(), o.commands[i].latency.count());
            QVERIFY(close(t.commands[i].latency.valueAtPercentile(99) / 1e6, o.commands[i].latency.valueAtPercentile(99) / 1e6));
            QCOMPARE(*loaded.tests[0].commands[i].p99Ms, o.commands[i].latency.valueAtPercentile(99) / 1e6);
        }

        QCOMPARE(t.intervals.size(), o.intervals.size());
        for (std::size_t i = 0; i < t.intervals.size(); ++i) {
            const IntervalPoint& a = o.intervals[i];
            const IntervalPoint& b = t.intervals[i];
            QCOMPARE(b.startSeconds, a.startSeconds);
            QCOMPARE(b.endSeconds, a.endSeconds);
            QCOMPARE(b.requests, a.requests);
            QCOMPARE(b.errors, a.errors);
            QCOMPARE(b.bytesSent, a.bytesSent);
            QCOMPARE(b.p50, a.p50);   // ns → ms → ns is exact for whole nanoseconds
            QCOMPARE(b.p99, a.p99);
            QCOMPARE(b.p999, a.p999);
            QCOMPARE(b.max, a.max);
            QVERIFY(std::fabs(b.mean - a.mean) < 1e-6);
            QCOMPARE(b.commands.size(), std::size_t(2));
            QCOMPARE(b.commands[1].requests, 333u);
            QCOMPARE(b.commands[0].p99, 900'000u);
        }

        const ServerCrossCheck& x = t.crossCheck;
        QVERIFY(x.available);
        QCOMPARE(x.command, std::string("set,get"));
        QCOMPARE(x.serverCalls, 5000u);
        QCOMPARE(x.serverFailedCalls, 3u);
        QCOMPARE(x.clientRequests, 5000u);
        QVERIFY(x.agrees());

        // A 20 s latency survives, and the failed test's message.
        const TestResult& m = r.tests[1];
        QCOMPARE(m.status, RunStatus::Failed);
        QCOMPARE(m.failure, std::string("server went away"));
        QVERIFY(close(m.latency.max() / 1e6, 20000.0));

        // The workload description survives; its generator sends nothing.
        QVERIFY(!c.tests[0].generator);
    }

    void workloadDescriptionSurvives()
    {
        RunResult run = fullRun();
        run.config.tests[0].generator = describedWorkload("memtier ratio 1:10, keys 1..1000");
        LoadedRun loaded;
        std::string error;
        QVERIFY2(runFileFromJson(runResultToJson(run), "x", loaded, &error), error.c_str());
        QVERIFY(loaded.run.config.tests[0].generator);
        QCOMPARE(loaded.run.config.tests[0].generator->describe(), std::string("memtier ratio 1:10, keys 1..1000"));
        std::string out;
        auto g = loaded.run.config.tests[0].generator->create(0, 1, 0);
        QCOMPARE(g->appendNext(out), RequestGenerator::kExhausted);
    }

    void readsFromDisk()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("run.json").toStdString();
        std::string error;
        QVERIFY(writeRunFile(path, fullRun(), &error));
        LoadedRun loaded;
        QVERIFY2(readRunFile(path, loaded, &error), error.c_str());
        QCOMPARE(loaded.run.tests[0].requests, 5000u);
        QVERIFY(!readRunFile(dir.filePath("missing.json").toStdString(), loaded, &error));
        QVERIFY2(error.find("missing.json: cannot open") != std::string::npos, error.c_str());
        QVERIFY(!readRunFile(dir.path().toStdString(), loaded, &error));
        QVERIFY2(error.find("not a regular file") != std::string::npos, error.c_str());
    }

    // Every truncation says so, with a position; none crashes.
    void truncatedFilesSaySo()
    {
        const std::string json = runResultToJson(fullRun());
        // Every byte for the first 2 KB and the last 2 KB, every 97th between.
        for (std::size_t n = 0; n < json.size() - 2; n += (n < 2048 || n > json.size() - 2048) ? 1 : 97) {
            const std::string e = readError(json.substr(0, n));
            QVERIFY2(e.rfind("run.json: ", 0) == 0, e.c_str());
            QVERIFY2(e.find("truncated") != std::string::npos || e.find("empty input") != std::string::npos
                         || e.find("invalid UTF-8") != std::string::npos,
                     qPrintable(QStringLiteral("%1 bytes: %2").arg(n).arg(QString::fromStdString(e))));
            QVERIFY2(e.find("line ") != std::string::npos, e.c_str());
        }
    }

    void malformedFilesNameTheField_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        auto row = [](const char* name, const char* from, const char* to, const char* message) {
            QTest::newRow(name) << QString::fromUtf8(from) << QString::fromUtf8(to) << QString::fromUtf8(message);
        };
        row("newer version", "\"format\": \"tacho-run/1\"", "\"format\": \"tacho-run/2\"",
            "run.json: format: version \"tacho-run/2\" is not supported; this build reads \"tacho-run/1\"");
        row("other format", "\"format\": \"tacho-run/1\"", "\"format\": \"hdr\"",
            "format: \"hdr\" is not a Tacho run file format");
        row("format not a string", "\"format\": \"tacho-run/1\"", "\"format\": 1", "format: expected a string, found number 1");
        row("no format", "\"format\": \"tacho-run/1\",", "", "run.json: not a Tacho run file: no \"format\" field");
        row("requests as string", "\"requests\": 5000,\n      \"errors\"", "\"requests\": \"5000\",\n      \"errors\"",
            "tests[0].requests: expected a non-negative integer, found string \"5000\"");
        row("requests negative", "\"requests\": 5000,\n      \"errors\"", "\"requests\": -5,\n      \"errors\"",
            "tests[0].requests: expected a non-negative integer, found number -5");
        row("requests fractional", "\"requests\": 5000,\n      \"errors\"", "\"requests\": 1.5,\n      \"errors\"",
            "tests[0].requests: expected a non-negative integer, found number 1.5");
        row("requests huge integer", "\"requests\": 5000,\n      \"errors\"",
            "\"requests\": 99999999999999999999999,\n      \"errors\"",
            "tests[0].requests: number 99999999999999999999999 is out of range");
        row("requests huge exponent", "\"requests\": 5000,\n      \"errors\"", "\"requests\": 1e400,\n      \"errors\"",
            "tests[0].requests: number 1e400 is out of range");
        row("seconds huge", "\"seconds\": 2.5", "\"seconds\": 1e999", "tests[0].seconds: number 1e999 is out of range");
        row("seconds negative", "\"seconds\": 2.5", "\"seconds\": -1", "tests[0].seconds: expected a number >= 0, found -1");
        row("port out of range", "\"port\": 6380", "\"port\": 70000",
            "config.endpoint.port: number 70000 is out of range (0 to 65535)");
        row("connections as bool", "\"connections\": 16", "\"connections\": true",
            "config.connections: expected an integer, found true");
        row("tls as string", "\"tls\": true", "\"tls\": \"yes\"", "config.endpoint.tls: expected true or false, found string \"yes\"");
        row("tests not an array", "\"tests\": [\n    {\n      \"name\": \"SET:GET\",\n      \"commandStatName\"",
            "\"tests\": {\"x\": [\n    {\n      \"name\": \"SET:GET\",\n      \"commandStatName\"", "(read fine)");
        row("missing test name", "\"name\": \"SET:GET\",\n      \"commandStatName\"", "\"commandStatName\"",
            "tests[0].name: missing");
        row("histogram garbage", "\"histogram\": \"HISTF", "\"histogram\": \"@@@@HISTF",
            "tests[0].histogram: not a readable HdrHistogram: not valid base64");
        row("histogram count mismatch", "\"requests\": 5000,\n      \"errors\"", "\"requests\": 4999,\n      \"errors\"",
            "tests[0].histogram: holds 5000 latencies but the test counts 4999 requests");
        row("errors above requests", "\"errors\": 3,\n      \"hits\"", "\"errors\": 6000,\n      \"hits\"",
            "tests[0].errors: more errors (6000) than requests (5000)");
        row("bad status", "\"status\": \"stopped\"", "\"status\": \"paused\"",
            "status: expected \"completed\", \"stopped\" or \"failed\", found \"paused\"");
        row("bad start time", "\"startedAtUtc\": \"2026-01-02T03:04:05Z\"", "\"startedAtUtc\": \"yesterday\"",
            "environment.startedAtUtc: not a UTC time");
        row("interval backwards", "\"start\": 0,\n          \"end\": 0.25", "\"start\": 1,\n          \"end\": 0.25",
            "tests[0].intervals[0].end: interval ends before it starts");
        row("interval requests missing", "\"requests\": 500,", "", "tests[0].intervals[0].requests: missing");
        row("command histogram missing", "\"histogram\": \"HISTFAAA", "\"histogramX\": \"HISTFAAA", "tests[0].histogram: missing");
        row("server info value", "\"redis_version\": \"7.0.15\"", "\"redis_version\": 7",
            "environment.serverInfo.redis_version: expected a string, found number 7");
        row("capability verdict", "\"verdict\": \"closed\"", "\"verdict\": \"maybe\"",
            "environment.capabilities[2].verdict: expected \"allowed\", \"refused\", \"closed\" or \"no answer\", found \"maybe\"");
        row("capability probe missing", "\"probe\": \"PING\",", "", "environment.capabilities[0].probe: missing");
        row("unit", "\"histogramUnit\": \"us\"", "\"histogramUnit\": \"ns\"", "tests[0].histogramUnit: unsupported unit \"ns\"");
        row("duplicate key", "\"format\": \"tacho-run/1\",", "\"format\": \"tacho-run/1\", \"format\": \"x\",",
            "run.json: not valid JSON at line 2, column 28 (byte 29): duplicate key \"format\"");
        row("trailing garbage", "\"format\": \"tacho-run/1\",", "\"format\": \"tacho-run/1\",,", "not valid JSON at line 2");
        row("invalid utf8", "\"hostName\": \"bench-host\"", "\"hostName\": \"bench\xff-host\"", "invalid UTF-8 in a string");
    }

    void malformedFilesNameTheField()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        const std::string json = runResultToJson(fullRun());
        std::string toBytes = to.toStdString();
        if (QTest::currentDataTag() == QLatin1String("invalid utf8"))
            toBytes = "\"hostName\": \"bench\xff-host\"";
        const std::string bad = replaced(json, from.toStdString(), toBytes);
        QVERIFY(!bad.empty());
        const std::string e = readError(bad);
        if (message == QLatin1String("(read fine)")) {
            // The "tests" replacement breaks nesting: must be a JSON error, not a crash.
            QVERIFY2(e != "(read fine)", e.c_str());
            return;
        }
        QVERIFY2(QString::fromStdString(e).contains(message), e.c_str());
        QVERIFY2(e.rfind("run.json: ", 0) == 0, e.c_str());
    }

    void wrongTopLevel()
    {
        QVERIFY(QString::fromStdString(readError("[]")).contains("the document is a JSON array, not an object"));
        QVERIFY(QString::fromStdString(readError("")).contains("empty input"));
        QVERIFY(QString::fromStdString(readError("{\"format\":\"tacho-run/1\"}")).contains("config: missing"));
        QVERIFY(QString::fromStdString(readError("{\"format\":\"tacho-run/1\",\"config\":{\"tests\":[]},\"environment\":{},"
                                                 "\"tests\":{}}"))
                    .contains("tests: expected an array, found object"));
        // The smallest valid file.
        LoadedRun run;
        std::string error;
        QVERIFY2(runFileFromJson("{\"format\":\"tacho-run/1\",\"config\":{\"tests\":[]},\"environment\":{},\"tests\":[]}",
                                 "min.json", run, &error),
                 error.c_str());
        QVERIFY(run.run.tests.empty());
        QVERIFY(!run.known.serverVersion);
    }

    // The clean-up after a run (--cleanup, issue #8): absent when none ran;
    // a cluster's per-master counts and a failure's message read back as
    // written, whether the section came with the run or was added to the
    // saved file afterwards (as tacho-cli and the workbench do).
    void cleanupRoundTrip()
    {
        LoadedRun loaded;
        std::string error;
        QVERIFY2(runFileFromJson(runResultToJson(fullRun()), "x", loaded, &error), error.c_str());
        QVERIFY(!loaded.run.cleanup);

        RunResult run = fullRun();
        CleanupResult cleanup;
        cleanup.patterns = { "key{????:[0-9][0-9]", kAwkward };
        cleanup.nodes = { { "127.0.0.1:30001", 400 }, { "127.0.0.1:30002", 0 }, { "127.0.0.1:30003", 801 } };
        cleanup.removed = 1201;
        run.cleanup = cleanup;
        QVERIFY2(runFileFromJson(runResultToJson(run), "x", loaded, &error), error.c_str());
        QVERIFY(loaded.run.cleanup);
        const CleanupResult& back = *loaded.run.cleanup;
        QVERIFY(back.completed());
        QCOMPARE(back.patterns, cleanup.patterns);
        QCOMPARE(back.removed, 1201u);
        QCOMPARE(back.nodes.size(), 3u);
        QCOMPARE(back.nodes[2].address, std::string("127.0.0.1:30003"));
        QCOMPARE(back.nodes[2].removed, 801u);
        QCOMPARE(back.nodes[1].removed, 0u);

        // Added to a saved file: the rest of the file is untouched.
        QTemporaryDir dir;
        const std::string path = dir.filePath("run.json").toStdString();
        QVERIFY(writeRunFile(path, fullRun(), &error));
        CleanupResult failed;
        failed.patterns = { "memtier-[0-9]*" };
        failed.nodes = { { "127.0.0.1:6379", 7 } };
        failed.removed = 7;
        failed.error = "SCAN on 127.0.0.1:6379 failed: NOPERM \"scan\"";
        QVERIFY2(addRunFileSection(path, "cleanup", cleanupToJson(failed), &error), error.c_str());
        QVERIFY2(readRunFile(path, loaded, &error), error.c_str());
        QVERIFY(loaded.run.cleanup);
        QVERIFY(!loaded.run.cleanup->completed());
        QCOMPARE(loaded.run.cleanup->error, failed.error);
        QCOMPARE(loaded.run.cleanup->removed, 7u);
        QCOMPARE(loaded.run.cleanup->nodes.size(), 1u);
        QCOMPARE(loaded.run.tests[0].requests, 5000u);
        RunResult expected = fullRun();
        expected.cleanup = failed;
        std::string onDisk;
        QVERIFY(readTextFile(path, onDisk, &error));
        QCOMPARE(onDisk, runResultToJson(expected));   // same as written in one go

        // Not a run file: nothing is written.
        const std::string other = dir.filePath("other.json").toStdString();
        {
            std::FILE* f = std::fopen(other.c_str(), "w");
            QVERIFY(f);
            std::fputs("[1, 2]\n", f);
            std::fclose(f);
        }
        QVERIFY(!addRunFileSection(other, "cleanup", cleanupToJson(failed), &error));
        QVERIFY2(error.find("unexpected layout") != std::string::npos, error.c_str());
        QVERIFY(readTextFile(other, onDisk, &error));
        QCOMPARE(onDisk, std::string("[1, 2]\n"));
    }

    void malformedCleanupNamesTheField_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("status") << "\"status\": \"completed\",\n    \"error\"" << "\"status\": \"done\",\n    \"error\""
                                << "cleanup.status: expected \"completed\" or \"failed\", found \"done\"";
        QTest::newRow("sum") << "\"removed\": 3," << "\"removed\": 4,"
                             << "cleanup.removed: 4 keys, but the nodes add up to 3";
        QTest::newRow("node removed") << "\"removed\": 1\n" << "\"removed\": \"1\"\n"
                                      << "cleanup.nodes[0].removed: expected a non-negative integer";
        QTest::newRow("error on success") << "\"error\": \"\"" << "\"error\": \"x\""
                                          << "cleanup.error: a completed clean-up has no error";
    }

    void malformedCleanupNamesTheField()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        RunResult run = fullRun();
        CleanupResult cleanup;
        cleanup.patterns = { "key:*" };
        cleanup.nodes = { { "a:1", 1 }, { "b:2", 2 } };
        cleanup.removed = 3;
        run.cleanup = cleanup;
        std::string json = runResultToJson(run);
        const std::size_t section = json.find("\"cleanup\": {");
        QVERIFY(section != std::string::npos);
        const std::string bad = json.substr(0, section) + replaced(json.substr(section), from.toStdString(), to.toStdString());
        QVERIFY(bad.size() > section);
        // issue 18: the run still reads; the section is set aside with the message.
        LoadedRun loaded;
        std::string error;
        QVERIFY2(runFileFromJson(bad, "run.json", loaded, &error), error.c_str());
        QVERIFY(!loaded.run.cleanup);
        QCOMPARE(loaded.run.tests.size(), run.tests.size());
        const KeptSection* damaged = loaded.damagedSection("cleanup");
        QVERIFY(damaged);
        QVERIFY2(QString::fromStdString(damaged->problem).startsWith(message), damaged->problem.c_str());
    }

    // Random byte damage anywhere: an error or a valid read, never a crash.
    void randomDamageNeverCrashes()
    {
        const std::string json = runResultToJson(fullRun());
        std::mt19937 random(1234);
        int errors = 0;
        for (int i = 0; i < 400; ++i) {
            std::string bad = json;
            const int edits = 1 + int(random() % 3);
            for (int k = 0; k < edits; ++k) {
                const std::size_t at = random() % bad.size();
                switch (random() % 3) {
                case 0: bad[at] = char(random() % 256); break;
                case 1: bad.erase(at, 1 + random() % 8); break;
                default: bad.insert(at, 1, "{}[]\",:0-e"[random() % 10]); break;
                }
            }
            LoadedRun run;
            std::string error;
            if (!runFileFromJson(bad, "x", run, &error)) {
                ++errors;
                QVERIFY(!error.empty());
            }
        }
        QVERIFY(errors > 100);
    }

    void timestamps()
    {
        QCOMPARE(parseUtcTimestamp("1970-01-01T00:00:00Z").value(), 0.0);
        QCOMPARE(parseUtcTimestamp("2026-01-02T03:04:05Z").value(), 1767323045.0);
        QCOMPARE(parseUtcTimestamp("2026-01-02T03:04:05.250Z").value(), 1767323045.25);
        QVERIFY(!parseUtcTimestamp("2026-01-02 03:04:05"));
        QVERIFY(!parseUtcTimestamp("2026-13-02T03:04:05Z"));
        QVERIFY(!parseUtcTimestamp("2026-01-02T03:04:05.Z"));
        QCOMPARE(formatUtcTimestamp(1767323045.0), std::string("2026-01-02T03:04:05Z"));
        QCOMPARE(formatUtcTimestamp(1767323045.25), std::string("2026-01-02T03:04:05.250Z"));
        QCOMPARE(formatUtcTimestamp(1767323045.9996), std::string("2026-01-02T03:04:06Z"));
    }
};

QTEST_APPLESS_MAIN(TestRunFileReader)
#include "test_run_file_reader.moc"
