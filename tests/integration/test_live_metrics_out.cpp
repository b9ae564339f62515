// Issues 19 and 32, live metrics out: tacho-cli against a real redis-server
// with --prometheus-file (the file exists while the run goes on and after it,
// promtool parses it, its counts are the run's) and with --statsd (lines
// arrive on a loopback UDP socket the test opens, in StatsD's form, their
// increments adding up to the server's count). Both dialects. Assertions on
// counts and forms, never on time.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <map>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "support/background_cli.h"
#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::BackgroundCli;
using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::describeCliResult;
using tacho::test::runCli;

namespace {

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The value of the one sample of `name` whose labels contain `labelPart`; -1 when none.
double sampleValue(const QByteArray& text, const QString& name, const QString& labelPart = {})
{
    const QRegularExpression line("^" + QRegularExpression::escape(name) + "\\{([^\\n]*)\\} ([^ \\n]+)$",
                                  QRegularExpression::MultilineOption);
    for (auto it = line.globalMatch(QString::fromUtf8(text)); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        if (labelPart.isEmpty() || match.captured(1).contains(labelPart))
            return match.captured(2).toDouble();
    }
    return -1;
}

// promtool's problems with `text`; empty when it parses and lints clean. A
// missing promtool is a failure: ./test.sh installs it.
QString promtoolProblem(const QByteArray& text)
{
    const QString promtool = QStandardPaths::findExecutable("promtool");
    if (promtool.isEmpty())
        return "promtool not found: ./test.sh installs it (apt-get install prometheus)";
    QProcess process;
    process.start(promtool, { "check", "metrics" });
    if (!process.waitForStarted(10000))
        return "promtool did not start";
    process.write(text);
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

QJsonObject firstTest(const QString& runFile)
{
    return QJsonDocument::fromJson(readFile(runFile)).object()["tests"].toArray().at(0).toObject();
}

// A UDP socket on 127.0.0.1 (a free port), closed with the object.
class UdpReceiver {
public:
    UdpReceiver()
    {
        m_fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
            return;
        int size = 4 << 20;   // a whole run's datagrams wait here until the test reads them
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
        socklen_t length = sizeof address;
        if (::getsockname(m_fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            m_port = ntohs(address.sin_port);
    }
    ~UdpReceiver()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    quint16 port() const { return m_port; }
    // Every line of every datagram waiting now (bounded in count).
    QStringList drain()
    {
        QStringList lines;
        char buffer[65536];
        for (int i = 0; i < 100000; ++i) {
            const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, MSG_DONTWAIT);
            if (n <= 0)
                break;
            lines += QString::fromUtf8(buffer, static_cast<int>(n)).split('\n');
        }
        return lines;
    }

private:
    int m_fd = -1;
    quint16 m_port = 0;
};

} // namespace

class TestLiveMetricsOut : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(m_dir.isValid(), "temporary directory"); }

    // Issues 19, 32: redis-benchmark dialect, --prometheus-file. While the
    // test runs the file holds its counters, its rate beside the server's and
    // the live verdict; promtool parses it then and after the run; after it,
    // the final counts are the run file's and the server's, the whole-test
    // p99 is the run file's, the live figures are gone and the run is ended.
    void prometheusFileDuringAndAfterTheRun()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QString prom = m_dir.filePath("live.prom");
        const QString json = m_dir.filePath("live.json");
        BackgroundCli cli({ "redis-benchmark", "-p", QString::number(server.port()), "-t", "set", "-c", "10",
                            "--duration", "4", "--json", json, "--prometheus-file", prom });
        QVERIFY(cli.started());
        const QString serverLabel = "server=\"127.0.0.1:" + QString::number(server.port()) + "\"";
        QByteArray during;
        const bool live = cli.waitUntil([&] {
            during = readFile(prom);
            return sampleValue(during, "tacho_test_finished") == 0 && sampleValue(during, "tacho_requests_total") > 0
                && sampleValue(during, "tacho_requests_per_second") > 0
                && sampleValue(during, "tacho_server_requests_per_second", serverLabel) > 0
                && sampleValue(during, "tacho_bottleneck", "kind=\"unknown\"") >= 0;
        }, 30000);
        QVERIFY2(live, during.constData());
        const QString duringProblem = promtoolProblem(during);
        QVERIFY2(duringProblem.isEmpty(), qPrintable(duringProblem));
        QCOMPARE(sampleValue(during, "tacho_run_active"), 1.0);
        // The server's own ops/s beside ours, each over about the last second.
        const double ours = sampleValue(during, "tacho_requests_per_second");
        const double theirs = sampleValue(during, "tacho_server_requests_per_second", serverLabel);
        QVERIFY2(theirs > ours / 5 && theirs < ours * 5, qPrintable(QString("ours %1, server %2").arg(ours).arg(theirs)));
        QVERIFY(sampleValue(during, "tacho_server_cpu_ratio", serverLabel) >= 0);
        QVERIFY(sampleValue(during, "tacho_engine_thread_cpu_ratio", "thread=\"0\"") >= 0);
        const CliResult run = cli.finish(60000);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));

        const QByteArray after = readFile(prom);
        const QString afterProblem = promtoolProblem(after);
        QVERIFY2(afterProblem.isEmpty(), qPrintable(afterProblem + "\n" + QString::fromUtf8(after)));
        const QJsonObject test = firstTest(json);
        QVERIFY(test["requests"].toDouble() > 0);
        // Our counter is the run's count exactly, and the server's: the
        // cross-check read INFO commandstats before and after.
        QCOMPARE(sampleValue(after, "tacho_requests_total", "test=\"SET\""), test["requests"].toDouble());
        QCOMPARE(sampleValue(after, "tacho_request_latency_seconds_count", "test=\"SET\""), test["requests"].toDouble());
        QCOMPARE(sampleValue(after, "tacho_test_finished"), 1.0);
        QCOMPARE(static_cast<double>(server.commandStatsCalls().value("set")), test["requests"].toDouble());
        QCOMPARE(sampleValue(after, "tacho_errors_total"), 0.0);
        const double p99Ms = test["commands"].toArray().at(0).toObject()["latencyMs"].toObject()["p99"].toDouble();
        const double p99 = sampleValue(after, "tacho_test_latency_seconds", "percentile=\"99\"");
        QVERIFY2(p99 > 0 && std::abs(p99 * 1e3 - p99Ms) <= 1e-6 * p99Ms, qPrintable(QString("%1 s, file %2 ms").arg(p99).arg(p99Ms)));
        // The verdict: the run file's kind at 1, and only it.
        const QString kind = test["telemetry"].toObject()["verdict"].toObject()["kind"].toString();
        QVERIFY(!kind.isEmpty());
        QCOMPARE(sampleValue(after, "tacho_bottleneck", "kind=\"" + kind + "\""), 1.0);
        int ones = 0;
        for (const char* k : { "server-bound", "client-bound", "neither", "unknown" })
            ones += sampleValue(after, "tacho_bottleneck", QString("kind=\"%1\"").arg(k)) == 1.0 ? 1 : 0;
        QCOMPARE(ones, 1);
        // The running test's figures went with it; the run says it ended.
        QCOMPARE(sampleValue(after, "tacho_requests_per_second"), -1.0);
        QCOMPARE(sampleValue(after, "tacho_server_requests_per_second"), -1.0);
        QCOMPARE(sampleValue(after, "tacho_run_active"), 0.0);
        // Only the file itself beside the run file: no temporary left behind.
        QVERIFY(!QDir(m_dir.path()).entryList({ "*.tmp*", ".live.prom*" }, QDir::Files | QDir::Hidden).size());

        // Issue 32: every series the Grafana dashboard in packaging/ queries
        // is in what this real run wrote, during it or after it.
        const QJsonObject dashboard
            = QJsonDocument::fromJson(readFile(TACHO_SOURCE_DIR "/packaging/grafana/tacho-dashboard.json")).object();
        QStringList queried;
        const QRegularExpression metric("\\b(tacho_[a-z_]+)\\b");
        for (const QJsonValue& panel : dashboard["panels"].toArray())
            for (const QJsonValue& target : panel.toObject()["targets"].toArray())
                for (auto it = metric.globalMatch(target.toObject()["expr"].toString()); it.hasNext();)
                    queried << it.next().captured(1);
        QVERIFY2(queried.size() >= 6, qPrintable(queried.join(' ')));
        for (const QString& name : queried) {
            const QByteArray sample = "\n" + name.toUtf8() + "{";
            QVERIFY2(during.contains(sample) || after.contains(sample), qPrintable(name + " is in no file the run wrote"));
        }
    }

    // Issues 19, 32: memtier dialect, --statsd and --prometheus-file
    // together: lines arrive on the test's UDP socket as
    // "tacho.<host>.<test>.…:<number>|g" or "|c"; the counters' increments add
    // up to what the server counted, the final lines carry the test's counts
    // and one verdict, the server's figures came while it ran.
    void statsdLinesArriveFromMemtier()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        UdpReceiver receiver;
        QVERIFY(receiver.port() != 0);
        const QString prom = m_dir.filePath("memtier.prom");
        const CliResult run = runCli({ "memtier", "-p", QString::number(server.port()), "--threads=1", "--clients=5",
                                       "--test-time=3", "--hide-histogram",
                                       "--statsd=127.0.0.1:" + QString::number(receiver.port()),
                                       "--prometheus-file=" + prom }, 60000);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QStringList lines = receiver.drain();
        QVERIFY2(lines.size() > 20, qPrintable(QString::number(lines.size())));
        char host[256] = {};
        QCOMPARE(::gethostname(host, sizeof host - 1), 0);
        QString hostPart = QString::fromUtf8(host);
        hostPart.replace(QRegularExpression("[^A-Za-z0-9_-]"), "_");
        const QString test = "tacho." + hostPart + ".RUN__1.";
        const QRegularExpression form("^tacho\\.([A-Za-z0-9_.-]+):([0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?)\\|([gc])$");
        std::map<QString, double> last;
        double counted = 0;
        for (const QString& line : lines) {
            const QRegularExpressionMatch match = form.match(line);
            QVERIFY2(match.hasMatch(), qPrintable(line));
            const QString name = "tacho." + match.captured(1);
            last[name] = match.captured(2).toDouble();
            if (name.startsWith(test) && name.endsWith(".requests") && match.captured(5) == "c")
                counted += match.captured(2).toDouble();
        }
        const double requests = static_cast<double>(server.commandStatsCalls().value("set") + server.commandStatsCalls().value("get"));
        QCOMPARE(counted, requests);   // the increments add up to the server's count
        QCOMPARE(last[test + "SET.test_requests"] + last[test + "GET.test_requests"], requests);
        QCOMPARE(last[test + "test_finished"], 1.0);
        const QString serverPart = test + "server.127_0_0_1_" + QString::number(server.port()) + ".";
        QVERIFY2(last.count(serverPart + "server_requests_per_second"), qPrintable(lines.join('\n')));
        QVERIFY(last.count(serverPart + "server_cpu_percent"));
        double verdicts = 0;
        for (const char* kind : { "server-bound", "client-bound", "neither", "unknown" }) {
            const QString name = test + "bottleneck_" + kind;
            QVERIFY2(last.count(name), qPrintable(name));
            verdicts += last[name];
        }
        QCOMPARE(verdicts, 1.0);   // the final verdict: one kind
        QCOMPARE(last["tacho." + hostPart + ".run_active"], 0.0);
        const QByteArray file = readFile(prom);
        QCOMPARE(sampleValue(file, "tacho_requests_total", "command=\"SET\"") + sampleValue(file, "tacho_requests_total", "command=\"GET\""),
                 requests);
        const QString problem = promtoolProblem(file);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // Issue 19: malformed --statsd and an unwritable --prometheus-file are
    // refused before any traffic (status 2), in both dialects.
    void badOptionsAreRefused()
    {
        const struct { QStringList args; QString expected; } cases[] = {
            { { "redis-benchmark", "--statsd", "localhost" }, "--statsd: expected HOST:PORT" },
            { { "redis-benchmark", "--statsd", "::1:8125" }, "--statsd: expected HOST:PORT" },
            { { "redis-benchmark", "--statsd", "127.0.0.1:70000" }, "--statsd: expected HOST:PORT" },
            { { "memtier", "--statsd=127.0.0.1:" }, "--statsd: expected HOST:PORT" },
            { { "redis-benchmark", "-p", "1", "--prometheus-file", "/nonexistent-tacho-dir/x.prom" }, "--prometheus-file: " },
            { { "memtier", "-p", "1", "--prometheus-file=/nonexistent-tacho-dir/x.prom" }, "--prometheus-file: " },
            { { "capacity", "--from", "1000", "--to", "2000", "--", "redis-benchmark", "--statsd", "127.0.0.1:8125" }, "live metrics are not available" },
        };
        for (const auto& c : cases) {
            const CliResult run = runCli(c.args, 30000);
            QVERIFY2(run.exitCode == 2, qPrintable(c.args.join(' ') + ": " + describeCliResult(run)));
            QVERIFY2(run.err.contains(c.expected.toUtf8()), qPrintable(c.args.join(' ') + ": " + run.err));
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestLiveMetricsOut)
#include "test_live_metrics_out.moc"
