// Issue 19, live metrics out: the Prometheus text and the StatsD lines made
// from a test's figures, with hostile test and server names (quotes,
// backslashes, line breaks, escape sequences, bad UTF-8), checked by the
// format's rules and by promtool, the Prometheus project's own parser.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/report/live_metrics.h"
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

LiveMetrics sampleMetrics(const std::string& testName, const std::vector<std::string>& servers)
{
    LiveMetrics m;
    m.host = "load-1";
    m.run = "20250101T000000Z-42";
    m.test = testName;
    m.requests = 12345;
    m.errors = 3;
    m.requestsPerSecond = 98765.5;
    m.connections = 50;
    m.latencyMeanNs = 510000;
    m.p50Ns = 480000;
    m.p99Ns = 1200000;
    m.p999Ns = 2500000;
    m.maxNs = 9000000;
    auto telemetry = std::make_shared<TestTelemetry>();
    telemetry->intervalSeconds = 1;
    for (const std::string& address : servers) {
        ServerTelemetry server;
        server.address = address;
        ServerPoint point;
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
    client.threadCpuPercent = { 40, 41 };
    client.threadWaitPercent = { 1, 2 };
    client.rssBytes = 9 << 20;
    client.hostBusyPercent = 30;
    client.hostStealPercent = 0.5;
    telemetry->client.points.push_back(client);
    telemetry->verdict.kind = Bottleneck::ServerBound;
    m.telemetry = telemetry;
    return m;
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

    // Issue 19: the whole exposition parses (promtool) with every hostile
    // text as the test name and as a server name; a missing promtool fails.
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

    // Issue 19: the figures land under their names, in base units, with the
    // verdict as one kind at 1 and the others at 0.
    void expositionHoldsTheFigures()
    {
        const std::string text = prometheusText(sampleMetrics("SET", { "127.0.0.1:6379" }));
        const std::string common = "host=\"load-1\",run=\"20250101T000000Z-42\",test=\"SET\"";
        for (const std::string& line : std::vector<std::string> {
                 "tacho_requests_total{" + common + "} 12345",
                 "tacho_errors_total{" + common + "} 3",
                 "tacho_requests_per_second{" + common + "} 98765.5",
                 "tacho_latency_seconds{" + common + ",percentile=\"99\"} 0.0012",
                 "tacho_latency_mean_seconds{" + common + "} 0.00051",
                 "tacho_server_cpu_ratio{" + common + ",server=\"127.0.0.1:6379\"} 0.975",
                 "tacho_server_requests_per_second{" + common + ",server=\"127.0.0.1:6379\"} 98000",
                 "tacho_engine_thread_cpu_ratio{" + common + ",thread=\"1\"} 0.41",
                 "tacho_host_cpu_steal_ratio{" + common + "} 0.005",
                 "tacho_bottleneck{" + common + ",kind=\"server-bound\"} 1",
                 "tacho_bottleneck{" + common + ",kind=\"client-bound\"} 0",
                 "# TYPE tacho_requests_total counter",
             })
            QVERIFY2(text.find("\n" + line + "\n") != std::string::npos, qPrintable(QString::fromStdString(line)));
        // Without telemetry (off, or before the first sample): the client's figures only.
        LiveMetrics bare = sampleMetrics("SET", {});
        bare.telemetry.reset();
        const std::string plain = prometheusText(bare);
        QVERIFY(plain.find("tacho_bottleneck") == std::string::npos);
        QVERIFY(plain.find("tacho_requests_per_second{") != std::string::npos);
        QVERIFY(promtoolProblem(plain).isEmpty());
    }

    // Issue 19: StatsD lines are "name:value|g" with names of safe characters
    // only, whatever the server is called, and datagrams stay small.
    void statsdLinesHaveTheirForm()
    {
        std::vector<std::string> servers { "127.0.0.1:6379" };
        for (const tacho::test::HostileText& hostile : tacho::test::hostileTexts())
            servers.push_back(hostile.bytes.toStdString());
        const std::vector<std::string> lines = statsdLines(sampleMetrics("x\ny", servers));
        const QRegularExpression form("^tacho\\.[A-Za-z0-9_.-]+:[0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?\\|g$");
        for (const std::string& line : lines)
            QVERIFY2(form.match(QString::fromStdString(line)).hasMatch(), line.c_str());
        const auto has = [&](const std::string& line) { return std::find(lines.begin(), lines.end(), line) != lines.end(); };
        QVERIFY(has("tacho.requests_per_second:98765.5|g"));
        QVERIFY(has("tacho.server.127_0_0_1_6379.requests_per_second:98000|g"));
        QVERIFY(has("tacho.bottleneck.server-bound:1|g"));
        QVERIFY(has("tacho.bottleneck.neither:0|g"));
        QVERIFY(has("tacho.latency_p99_ms:1.2|g"));
        std::size_t lineCount = 0;
        for (const std::string& datagram : statsdDatagrams(lines, 512)) {
            QVERIFY(datagram.size() <= 512);
            QVERIFY(!datagram.empty() && datagram.back() != '\n');
            lineCount += static_cast<std::size_t>(std::count(datagram.begin(), datagram.end(), '\n')) + 1;
        }
        QCOMPARE(lineCount, lines.size());
    }

    // Issue 19: the exporter writes the file (atomically: only whole
    // expositions), and a finished test's counts are the test's own.
    void exporterWritesTheFinishedTest()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        LiveMetricsOptions options;
        options.prometheusFile = dir.filePath("tacho.prom").toStdString();
        std::string error;
        auto exporter = LiveMetricsExporter::start(options, &error);
        QVERIFY2(exporter, error.c_str());
        for (int tick = 0; tick < 5; ++tick) {
            IntervalSnapshot snapshot;
            snapshot.testName = "GET";
            snapshot.point.startSeconds = 0.1 * tick;
            snapshot.point.endSeconds = 0.1 * (tick + 1);
            snapshot.point.requests = 100;
            snapshot.point.errors = 1;
            snapshot.requestsSoFar = 100 * static_cast<std::uint64_t>(tick + 1);
            exporter->onSnapshot(snapshot);
        }
        TestResult test;
        test.name = "GET";
        test.requests = 777;
        test.errors = 7;
        test.seconds = 0.5;
        exporter->onTestFinished(test);
        exporter->stop();
        QCOMPARE(exporter->firstError(), std::string());
        QFile file(dir.filePath("tacho.prom"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY2(QRegularExpression("\ntacho_requests_total\\{[^}]*test=\"GET\"\\} 777\n").match(text).hasMatch(), text.constData());
        QVERIFY(QRegularExpression("\ntacho_errors_total\\{[^}]*\\} 7\n").match(text).hasMatch());
        QVERIFY(QRegularExpression("\ntacho_requests_per_second\\{[^}]*\\} 1554\n").match(text).hasMatch());
        QVERIFY(QRegularExpression("\ntacho_test_finished\\{[^}]*\\} 1\n").match(text).hasMatch());
        QVERIFY(promtoolProblem(text.toStdString()).isEmpty());
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
        QVERIFY(!parseRedisBenchmarkArgs(std::vector<std::string> {}).liveMetrics.enabled());   // off by default
        for (const std::string& usage : { redisBenchmarkUsage(), memtierUsage() }) {
            QVERIFY(usage.find("--prometheus-file") != std::string::npos);
            QVERIFY(usage.find("--statsd") != std::string::npos);
        }
        for (const char* bad : { "8125", "host:", ":8125", "host:0", "host:65536", "host:-1", "::1:8125", "[::1:8125", "host:81x" })
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
