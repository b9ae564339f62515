// Issues 19 and 32, live metrics out: the Prometheus text and the StatsD
// lines made from a run's figures, with hostile test and server names
// (quotes, backslashes, line breaks, escape sequences, bad UTF-8), checked by
// the format's rules and by promtool, the Prometheus project's own parser;
// counters that keep each test's final counts, histograms at fixed bounds,
// StatsD names and tags that keep load machines apart.
#include <QDir>
#include <algorithm>
#include <cmath>
#include <set>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/report/live_metrics.h"
#include "engine/stats/interval_stats.h"
#include "engine/resp/printable_text.h"
#include "support/hostile_text.h"

using namespace tacho::engine;

namespace {

// What a label value reads as once the format's escapes are undone; *ok
// false when an escape is malformed or a quote is bare.
std::string unescapeLabel(const std::string& text, bool* ok)
{
    std::string out;
    *ok = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"')
            *ok = false;   // a bare quote would end the value
        if (text[i] != '\\') {
            out += text[i];
            continue;
        }
        if (i + 1 == text.size()) {
            *ok = false;
            break;
        }
        const char next = text[++i];
        if (next == '\\' || next == '"')
            out += next;
        else if (next == 'n')
            out += '\n';
        else
            *ok = false;
    }
    return out;
}

// A run of two tests: "SET" finished (a verdict, its final counts), then
// `testName` running with `servers`' telemetry.
LiveMetrics sampleMetrics(const std::string& testName, const std::vector<std::string>& servers)
{
    LiveMetrics m;
    m.host = "load-1";
    m.run = "20250101T000000Z-42";
    m.version = "1.2.3";
    m.startSeconds = 1735689600;
    m.updateSeconds = 1735689610;
    LatencyHistogram h;
    h.recordN(480'000, 98);
    h.recordN(1'200'000, 1);
    h.record(9'000'000);
    TestMetrics finished;
    finished.name = "SET";
    finished.finished = true;
    finished.elapsedSeconds = 2;
    finished.judged = true;
    finished.verdict = Bottleneck::Neither;
    CommandMetrics set;
    set.name = "SET";
    set.requests = 100;
    set.errors = 1;
    set.bytesSent = 4000;
    set.bytesReceived = 500;
    set.latencyBuckets = cumulativeBucketCounts(h);
    set.latencySumSeconds = h.mean() * double(h.count()) / 1e9;
    set.test = percentilesOf(h);
    finished.commands.push_back(set);
    m.tests.push_back(finished);

    TestMetrics running;
    running.name = testName;
    running.index = 1;
    running.elapsedSeconds = 1;
    running.connections = 50;
    CommandMetrics get = set;
    get.name = testName;
    get.requests = 12345;
    get.errors = 3;
    get.requestsPerSecond = 98765.5;
    get.lastSecond = { 480000, 1200000, 2500000, 9000000 };
    get.lastSecondMeasured = true;
    running.commands.push_back(get);
    auto telemetry = std::make_shared<TestTelemetry>();
    telemetry->intervalSeconds = 1;
    for (const std::string& address : servers) {
        ServerTelemetry server;
        server.address = address;
        ServerPoint point;
        point.endSeconds = 1;
        point.cpuPercent = 97.5;
        point.mainThreadCpuPercent = 95;
        point.opsPerSecond = 98000;
        point.connectedClients = 51;
        point.usedMemory = 1 << 20;
        point.fragmentation = 1.25;
        server.points.push_back(point);
        telemetry->servers.push_back(server);
    }
    ClientPoint client;
    client.endSeconds = 1;
    client.threadCpuPercent = { 40, 41 };
    client.threadWaitPercent = { 1, 2 };
    client.rssBytes = 9 << 20;
    client.hostBusyPercent = 30;
    client.hostStealPercent = 0.5;
    telemetry->client.points.push_back(client);
    telemetry->verdict.kind = Bottleneck::ServerBound;
    running.telemetry = telemetry;
    running.judged = true;
    running.verdict = Bottleneck::ServerBound;
    m.tests.push_back(running);
    return m;
}

// The value of the sample `name{…labels…}` whose label text contains every
// part; -1 when none.
double sampleValue(const std::string& text, const std::string& name, const std::vector<std::string>& parts = {})
{
    std::size_t at = 0;
    while ((at = text.find("\n" + name + "{", at)) != std::string::npos) {
        const std::size_t close = text.find("} ", at);
        const std::size_t eol = text.find('\n', close);
        const std::string labels = text.substr(at, close - at);
        at = close;
        if (std::all_of(parts.begin(), parts.end(), [&](const std::string& p) { return labels.find(p) != std::string::npos; }))
            return std::stod(text.substr(close + 2, eol - close - 2));
    }
    return -1;
}

IntervalStats tickStats(std::uint64_t requests, std::uint64_t latencyNs)
{
    IntervalStats stats(1);
    stats.commands[0].requests = requests;
    stats.commands[0].bytesSent = requests * 10;
    stats.commands[0].latency.recordN(latencyNs, requests);
    return stats;
}

TestResult finalResult(const std::string& name, std::uint64_t requests, std::uint64_t latencyNs)
{
    TestResult test;
    test.name = name;
    test.requests = requests;
    test.seconds = 0.5;
    CommandResult command;
    command.name = name;
    command.requests = requests;
    command.bytesSent = requests * 10;
    command.latency.recordN(latencyNs, requests);
    test.commands.push_back(std::move(command));
    return test;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// promtool's verdict on `text` (exit status 0 and no lint problem), or why not.
QString promtoolProblem(const std::string& text)
{
    const QString promtool = QStandardPaths::findExecutable("promtool");
    if (promtool.isEmpty())
        return "promtool not found: ./test.sh installs it (apt-get install prometheus)";
    QProcess process;
    process.start(promtool, { "check", "metrics" });
    if (!process.waitForStarted(10000))
        return "promtool did not start";
    process.write(text.data(), static_cast<qint64>(text.size()));
    process.closeWriteChannel();
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished(5000);
        return "promtool did not finish";
    }
    const QByteArray output = process.readAllStandardOutput() + process.readAllStandardError();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0 || !output.trimmed().isEmpty())
        return QString("promtool (status %1): %2").arg(process.exitCode()).arg(QString::fromUtf8(output));
    return {};
}

} // namespace

class TestLiveMetrics : public QObject {
    Q_OBJECT

private slots:
    // Issue 19: a label value never ends its line or its quotes, whatever the text.
    void labelValuesEscapeHostileText()
    {
        QCOMPARE(prometheusLabelValue("a\"b\\c\nd"), std::string("a\\\"b\\\\c\\\\x0ad"));
        QCOMPARE(prometheusLabelValue("127.0.0.1:6379"), std::string("127.0.0.1:6379"));
        QCOMPARE(prometheusLabelValue("héllo ✓"), std::string("héllo ✓"));
        QList<tacho::test::HostileText> texts = tacho::test::hostileTexts();
        texts.append(tacho::test::HostileText { "quotes and backslashes", "\\\"\\\\\"\"\\" });
        texts.append(tacho::test::HostileText { "label injection", "x\"} 1\nevil_metric{a=\"b" });
        for (const tacho::test::HostileText& hostile : texts) {
            const std::string text = hostile.bytes.toStdString();
            const std::string escaped = prometheusLabelValue(text);
            for (unsigned char c : escaped)
                QVERIFY2(c >= 0x20 && c != 0x7f, qPrintable(hostile.name));
            bool ok = false;
            // Read back by the format's rules, it is the text as Tacho prints it everywhere.
            QCOMPARE(unescapeLabel(escaped, &ok), printable(text));
            QVERIFY2(ok, qPrintable(hostile.name));
        }
    }

    // Issues 19, 32: the whole exposition parses (promtool) with every
    // hostile text as the test name and as a server name; a missing promtool fails.
    void expositionPassesPromtool()
    {
        QList<tacho::test::HostileText> texts = tacho::test::hostileTexts();
        texts.append(tacho::test::HostileText { "label injection", "x\"} 1\nevil_metric{a=\"b" });
        std::vector<std::string> servers { "127.0.0.1:6379" };
        for (const tacho::test::HostileText& hostile : texts)
            servers.push_back(hostile.bytes.toStdString());
        for (const tacho::test::HostileText& hostile : texts) {
            const std::string text = prometheusText(sampleMetrics(hostile.bytes.toStdString(), servers));
            QVERIFY(text.find("\nevil_metric") == std::string::npos);   // no line of the attacker's
            const QString problem = promtoolProblem(text);
            QVERIFY2(problem.isEmpty(), qPrintable(hostile.name + ": " + problem));
        }
    }

    // Issue 32: the figures land under their names, in base units: counters
    // per test and command, the run's identity and liveness, the verdict as
    // one kind at 1.
    void expositionHoldsTheFigures()
    {
        const std::string text = prometheusText(sampleMetrics("GET", { "127.0.0.1:6379" }));
        const std::string run = "host=\"load-1\",run=\"20250101T000000Z-42\"";
        const std::string set = run + ",test=\"SET\",test_index=\"0\",command=\"SET\"";
        const std::string get = run + ",test=\"GET\",test_index=\"1\"";
        for (const std::string& line : std::vector<std::string> {
                 "tacho_run_info{" + run + ",version=\"1.2.3\"} 1",
                 "tacho_run_active{" + run + "} 1",
                 "tacho_last_update_timestamp_seconds{" + run + "} 1735689610",
                 "tacho_requests_total{" + set + "} 100",
                 "tacho_errors_total{" + set + "} 1",
                 "tacho_sent_bytes_total{" + set + "} 4000",
                 "tacho_requests_total{" + get + ",command=\"GET\"} 12345",
                 "tacho_test_finished{" + run + ",test=\"SET\",test_index=\"0\"} 1",
                 "tacho_test_finished{" + get + "} 0",
                 "tacho_requests_per_second{" + get + ",command=\"GET\"} 98765.5",
                 "tacho_last_second_latency_seconds{" + get + ",command=\"GET\",percentile=\"99\"} 0.0012",
                 "tacho_request_latency_seconds_bucket{" + set + ",le=\"0.0005\"} 98",
                 "tacho_request_latency_seconds_bucket{" + set + ",le=\"0.00125\"} 99",
                 "tacho_request_latency_seconds_bucket{" + set + ",le=\"+Inf\"} 100",
                 "tacho_request_latency_seconds_count{" + set + "} 100",
                 "tacho_server_cpu_ratio{" + get + ",server=\"127.0.0.1:6379\"} 0.975",
                 "tacho_server_requests_per_second{" + get + ",server=\"127.0.0.1:6379\"} 98000",
                 "tacho_engine_thread_cpu_ratio{" + get + ",thread=\"1\"} 0.41",
                 "tacho_host_cpu_steal_ratio{" + get + "} 0.005",
                 "tacho_bottleneck{" + get + ",kind=\"server-bound\"} 1",
                 "tacho_bottleneck{" + get + ",kind=\"client-bound\"} 0",
                 "tacho_bottleneck{" + run + ",test=\"SET\",test_index=\"0\",kind=\"neither\"} 1",
                 "# TYPE tacho_requests_total counter",
                 "# TYPE tacho_request_latency_seconds histogram",
             })
            QVERIFY2(text.find("\n" + line + "\n") != std::string::npos, qPrintable(QString::fromStdString(line)));
        // The whole-test percentile is the histogram's own.
        QCOMPARE(sampleValue(text, "tacho_test_latency_seconds", { "test=\"SET\"", "percentile=\"50\"" }),
                 double(sampleMetrics("GET", {}).tests[0].commands[0].test.p50Ns) / 1e9);
        // Each family once (the format wants its samples together).
        std::set<std::string> types;
        for (std::size_t at = 0; (at = text.find("# TYPE ", at)) != std::string::npos; ++at)
            QVERIFY2(types.insert(text.substr(at, text.find(' ', at + 7) - at)).second, text.substr(at, 60).c_str());
    }

    // Issue 32: a figure keeps its meaning when its test ends — the finished
    // test keeps its counters, histogram, whole-test percentiles and verdict,
    // and has no "last second" figure, rate or server reading (they were the
    // running test's); the ended run says so.
    void aFinishedTestKeepsItsMeaning()
    {
        LiveMetrics m = sampleMetrics("GET", { "127.0.0.1:6379" });
        m.tests.pop_back();
        m.active = false;
        const std::string text = prometheusText(m);
        for (const char* absent : { "tacho_requests_per_second{", "tacho_last_second_latency_seconds{", "tacho_server_",
                                    "tacho_connections{", "tacho_engine_thread" })
            QVERIFY2(text.find(absent) == std::string::npos, absent);
        QCOMPARE(sampleValue(text, "tacho_run_active"), 0.0);
        QCOMPARE(sampleValue(text, "tacho_requests_total", { "test=\"SET\"" }), 100.0);
        QCOMPARE(sampleValue(text, "tacho_test_latency_seconds", { "percentile=\"100\"" }), 0.009);
        QCOMPARE(sampleValue(text, "tacho_bottleneck", { "kind=\"neither\"" }), 1.0);
        QVERIFY(promtoolProblem(text).isEmpty());
        // Before any test: the run alone, still valid.
        LiveMetrics empty;
        empty.host = "h";
        empty.run = "r";
        const std::string bare = prometheusText(empty);
        QCOMPARE(sampleValue(bare, "tacho_run_active"), 1.0);
        QVERIFY(bare.find("tacho_requests_total") == std::string::npos);
        QVERIFY(promtoolProblem(bare).isEmpty());
    }

    // Issue 32: the buckets are cumulative counts at the documented fixed
    // bounds, the last is the count, and the bucket where the count crosses
    // 99% holds the histogram's own p99 (what histogram_quantile then finds).
    void bucketsAreCumulativeAtFixedBounds()
    {
        const auto& bounds = latencyBucketBoundsNs();
        QCOMPARE(bounds.front(), std::uint64_t(10'000));
        QCOMPARE(bounds[10], std::uint64_t(100'000));
        QCOMPARE(bounds.back(), std::uint64_t(10'000'000'000));
        QVERIFY(std::is_sorted(bounds.begin(), bounds.end()));
        LatencyHistogram h;
        std::uint64_t value = 3'000;
        for (int i = 0; i < 5000; ++i) {
            h.record(value);
            value = value * 1103 % 20'000'000 + 3'000;   // spread over 3 µs .. 20 ms
        }
        h.record(61'000'000'000);   // above the histogram's range: clamped, still counted
        const auto counts = cumulativeBucketCounts(h);
        QVERIFY(std::is_sorted(counts.begin(), counts.end()));
        QCOMPARE(counts.back(), h.count());
        const std::uint64_t p99 = h.valueAtPercentile(99);
        const auto rank = static_cast<std::uint64_t>(std::ceil(0.99 * double(h.count())));
        const std::size_t bucket = std::lower_bound(counts.begin(), counts.end(), rank) - counts.begin();
        QVERIFY(bucket < bounds.size());
        QVERIFY2(p99 <= bounds[bucket] && (bucket == 0 || p99 > bounds[bucket - 1]),
                 qPrintable(QString("p99 %1 ns, bucket %2").arg(p99).arg(bucket)));
    }

    // Issue 32: StatsD names carry host and test (plain), or tags carry
    // host, run, test and command (DogStatsD, Graphite): two load machines
    // never write the same series. Counters go as increments that add up to
    // the totals; a finished test's final lines go once.
    void statsdKeepsMachinesAndTestsApart()
    {
        std::vector<std::string> servers { "127.0.0.1:6379" };
        for (const tacho::test::HostileText& hostile : tacho::test::hostileTexts())
            servers.push_back(hostile.bytes.toStdString());
        LiveMetrics a = sampleMetrics("x\ny", servers);
        LiveMetrics b = a;
        b.host = "load-2";
        StatsdProgress pa, pb;
        const std::vector<std::string> la = statsdLines(a, StatsdTags::InName, pa);
        const std::vector<std::string> lb = statsdLines(b, StatsdTags::InName, pb);
        const QRegularExpression form("^tacho\\.[A-Za-z0-9_.-]+:[0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?\\|[gc]$");
        for (const std::string& line : la)
            QVERIFY2(form.match(QString::fromStdString(line)).hasMatch(), line.c_str());
        const auto has = [](const std::vector<std::string>& lines, const std::string& line) {
            return std::find(lines.begin(), lines.end(), line) != lines.end();
        };
        QVERIFY(has(la, "tacho.load-1.SET.SET.requests:100|c"));
        QVERIFY(has(la, "tacho.load-1.SET.SET.test_requests:100|g"));
        QVERIFY(has(la, "tacho.load-1.SET.test_finished:1|g"));
        QVERIFY(has(la, "tacho.load-1.x_y.x_y.requests_per_second:98765.5|g"));
        QVERIFY(has(la, "tacho.load-1.x_y.server.127_0_0_1_6379.server_requests_per_second:98000|g"));
        QVERIFY(has(la, "tacho.load-1.x_y.bottleneck_server-bound:1|g"));
        QVERIFY(has(lb, "tacho.load-2.SET.SET.requests:100|c"));
        for (const std::string& line : la)   // no name of one machine is the other's
            QVERIFY2(line.rfind("tacho.load-1.", 0) == 0 && !has(lb, line), line.c_str());

        // The next publication: the finished test is not repeated; the running
        // one sends what it counted since.
        a.tests[1].commands[0].requests += 55;
        const std::vector<std::string> next = statsdLines(a, StatsdTags::InName, pa);
        QVERIFY(has(next, "tacho.load-1.x_y.x_y.requests:55|c"));
        QVERIFY(std::none_of(next.begin(), next.end(), [](const std::string& l) { return l.find(".SET.") != std::string::npos; }));

        StatsdProgress pd, pg;
        const std::vector<std::string> dog = statsdLines(sampleMetrics("GET", servers), StatsdTags::DogStatsd, pd);
        QVERIFY(has(dog, "tacho.requests:100|c|#host:load-1,run:20250101T000000Z-42,test:SET,test_index:0,command:SET"));
        QVERIFY(has(dog, "tacho.server_requests_per_second:98000|g|#host:load-1,run:20250101T000000Z-42,test:GET,"
                         "test_index:1,server:127.0.0.1:6379"));
        const QRegularExpression dogForm("^tacho\\.[a-z0-9_-]+:[0-9.e+-]+\\|[gc]\\|#([a-z_]+:[^,|#\\s]+)(,[a-z_]+:[^,|#\\s]+)*$");
        for (const std::string& line : dog)
            QVERIFY2(dogForm.match(QString::fromStdString(line)).hasMatch(), line.c_str());
        const std::vector<std::string> graphite = statsdLines(sampleMetrics("GET", servers), StatsdTags::Graphite, pg);
        QVERIFY(has(graphite, "tacho.requests;host=load-1;run=20250101T000000Z-42;test=SET;test_index=0;command=SET:100|c"));
        const QRegularExpression graphiteForm("^tacho\\.[a-z0-9_-]+(;[a-z_]+=[A-Za-z0-9_.-]+)+:[0-9.e+-]+\\|[gc]$");
        for (const std::string& line : graphite)
            QVERIFY2(graphiteForm.match(QString::fromStdString(line)).hasMatch(), line.c_str());

        std::size_t lineCount = 0;
        for (const std::string& datagram : statsdDatagrams(la, 512)) {
            QVERIFY(datagram.size() <= 512);
            QVERIFY(!datagram.empty() && datagram.back() != '\n');
            lineCount += static_cast<std::size_t>(std::count(datagram.begin(), datagram.end(), '\n')) + 1;
        }
        QCOMPARE(lineCount, la.size());
    }

    // Issue 32: the exporter publishes each test's final counts before the
    // next test begins and keeps them; the counts it took from the ticks
    // while the test ran never exceed them; the ended run reads as ended.
    void exporterKeepsEveryTestsFinalCounts()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("tacho.prom");
        LiveMetricsOptions options;
        options.prometheusFile = path.toStdString();
        std::string error;
        auto exporter = LiveMetricsExporter::start(options, &error);
        QVERIFY2(exporter, error.c_str());
        const std::vector<std::string> names[] = { { "SET" }, { "GET" } };
        for (std::size_t t = 0; t < 2; ++t) {
            const std::string name = names[t].front();
            for (int tick = 0; tick < 5; ++tick) {
                const IntervalStats stats = tickStats(100, 200'000 * (t + 1));
                exporter->onMeasuredTick(MeasuredTick { t, &name, &stats, 0.1 * tick, 0.1 * (tick + 1), false, &names[t] });
                IntervalSnapshot snapshot;
                snapshot.testIndex = t;
                snapshot.testName = name;
                snapshot.point.connections = 5;
                exporter->onSnapshot(snapshot);
            }
            const std::uint64_t before = exporter->publications();
            exporter->onTestFinished(finalResult(name, 500 + t, 200'000 * (t + 1)));
            QVERIFY(exporter->publications() > before);   // published before it returned
            const std::string text = readAll(path).toStdString();
            QCOMPARE(sampleValue(text, "tacho_requests_total", { "test=\"SET\"" }), 500.0);
            QCOMPARE(sampleValue(text, "tacho_test_finished", { "test=\"" + name + "\"" }), 1.0);
            QCOMPARE(sampleValue(text, "tacho_sent_bytes_total", { "test=\"" + name + "\"" }), double(10 * (500 + t)));
            QCOMPARE(sampleValue(text, "tacho_run_active"), 1.0);
        }
        exporter->stop();
        QCOMPARE(exporter->firstError(), std::string());
        const std::string text = readAll(path).toStdString();
        QCOMPARE(sampleValue(text, "tacho_requests_total", { "test=\"SET\"" }), 500.0);
        QCOMPARE(sampleValue(text, "tacho_requests_total", { "test=\"GET\"", "test_index=\"1\"" }), 501.0);
        QCOMPARE(sampleValue(text, "tacho_request_latency_seconds_count", { "test=\"GET\"" }), 501.0);
        QCOMPARE(sampleValue(text, "tacho_run_active"), 0.0);
        QVERIFY(sampleValue(text, "tacho_last_update_timestamp_seconds") > 1.7e9);
        QVERIFY(promtoolProblem(text).isEmpty());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);   // no temporary left
    }

    // Issue 19: both dialects take the options, documented in their --help.
    void bothDialectsParseAndDocumentTheOptions()
    {
        const std::vector<std::string> rb { "--prometheus-file", "m.prom", "--statsd", "[::1]:8125" };
        const LiveMetricsOptions a = parseRedisBenchmarkArgs(rb).liveMetrics;
        QCOMPARE(a.prometheusFile, std::string("m.prom"));
        QCOMPARE(a.statsdHost, std::string("::1"));
        QCOMPARE(a.statsdPort, std::uint16_t(8125));
        const std::vector<std::string> mt { "--prometheus-file=n.prom", "--statsd=stats.example:9125" };
        const LiveMetricsOptions b = parseMemtierArgs(mt).liveMetrics;
        QCOMPARE(b.prometheusFile, std::string("n.prom"));
        QCOMPARE(b.statsdHost, std::string("stats.example"));
        QCOMPARE(b.statsdPort, std::uint16_t(9125));
        QCOMPARE(b.statsdTags, StatsdTags::InName);
        const auto tagsOf = [](const char* address) {
            return parseRedisBenchmarkArgs(std::vector<std::string> { "--statsd", address }).liveMetrics;
        };
        QCOMPARE(tagsOf("dogstatsd://127.0.0.1:8125").statsdTags, StatsdTags::DogStatsd);
        QCOMPARE(tagsOf("graphite://[::1]:8125").statsdHost, std::string("::1"));
        QCOMPARE(tagsOf("graphite://[::1]:8125").statsdTags, StatsdTags::Graphite);
        QCOMPARE(tagsOf("statsd://h:1").statsdTags, StatsdTags::InName);
        QVERIFY(!parseRedisBenchmarkArgs(std::vector<std::string> {}).liveMetrics.enabled());   // off by default
        for (const std::string& usage : { redisBenchmarkUsage(), memtierUsage() }) {
            QVERIFY(usage.find("--prometheus-file") != std::string::npos);
            QVERIFY(usage.find("--statsd") != std::string::npos);
        }
        for (const char* bad : { "8125", "host:", ":8125", "host:0", "host:65536", "host:-1", "::1:8125", "[::1:8125", "host:81x",
                                 "udp://host:8125", "dogstatsd://" })
            QVERIFY_THROWS_EXCEPTION(UsageError, parseRedisBenchmarkArgs(std::vector<std::string> { "--statsd", bad }));
    }

    // Issue 19: a file in a folder that does not exist is refused before a run.
    void unwritableFileIsRefused()
    {
        LiveMetricsOptions options;
        options.prometheusFile = "/nonexistent-folder-of-tacho/x.prom";
        std::string error;
        QVERIFY(!LiveMetricsExporter::start(options, &error));
        QVERIFY2(error.starts_with("--prometheus-file: "), error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLiveMetrics)
#include "test_live_metrics.moc"
