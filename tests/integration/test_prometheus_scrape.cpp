// Issue 32, what a Grafana user sees: Debian's prometheus-node-exporter reads
// tacho-cli's --prometheus-file through its textfile collector, Debian's
// Prometheus scrapes the exporter every second (both on loopback ports, in
// a temporary folder), and a real two-test run goes against a real
// redis-server. Through Prometheus' HTTP API — what a Grafana panel asks —
// each test's final tacho_requests_total is the run file's and the server's
// count (INFO commandstats), histogram_quantile(0.99, …) over the buckets
// lands in the bucket that holds the run file's p99 (the bounds are the
// precision), and the run reads as finished once it has ended. Skipped, with
// the packages named, only when Prometheus or the node exporter is not
// installed (./test.sh installs them). Nothing is asserted on time.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "engine/report/live_metrics_format.h"
#include "support/child_process.h"
#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::describeCliResult;
using tacho::test::runCli;

namespace {

// One HTTP/1.0 GET to 127.0.0.1:port; the body, or empty when the status is
// not 200 or the listener does not answer within 5 s.
QByteArray httpGet(quint16 port, const QByteArray& target)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return {};
    timeval timeout { 5, 0 };
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QByteArray response;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
        const QByteArray request = "GET " + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
        if (::send(fd, request.constData(), static_cast<size_t>(request.size()), MSG_NOSIGNAL) == request.size()) {
            char buffer[65536];
            for (int i = 0; i < 4096; ++i) {   // at most 256 MiB: bounded
                const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
                if (n <= 0)
                    break;
                response.append(buffer, static_cast<int>(n));
            }
        }
    }
    ::close(fd);
    const qsizetype bodyAt = response.indexOf("\r\n\r\n");
    if (!response.startsWith("HTTP/1.") || response.mid(9, 3) != "200" || bodyAt < 0)
        return {};
    return response.mid(bodyAt + 4);
}

// A child process (node exporter or Prometheus) with its output in a file,
// stopped by its PID when the object goes.
struct Child {
    std::unique_ptr<QProcess> process;
    const char* what = "";
    ~Child()
    {
        if (process)
            tacho::test::stopChildProcess(*process, what, 5000);
    }
};

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestPrometheusScrape : public QObject {
    Q_OBJECT

private:
    // Prometheus' answer to an instant query: its result vector ("data.result").
    QJsonArray query(const QString& promql)
    {
        const QByteArray body = httpGet(m_prometheusPort, "/api/v1/query?query=" + QUrl::toPercentEncoding(promql));
        return QJsonDocument::fromJson(body).object()["data"].toObject()["result"].toArray();
    }
    // The value of a query that yields one sample; NaN when it yields none or several.
    double scalar(const QString& promql)
    {
        const QJsonArray result = query(promql);
        if (result.size() != 1)
            return std::nan("");
        return result.at(0).toObject()["value"].toArray().at(1).toString().toDouble();
    }

    QTemporaryDir m_dir;
    quint16 m_prometheusPort = 0;

private slots:
    void nodeExporterAndPrometheusSeeTheRunAsItWas()
    {
        const QString prometheus = QStandardPaths::findExecutable("prometheus");
        const QString exporter = QStandardPaths::findExecutable("prometheus-node-exporter");
        const QString promtool = QStandardPaths::findExecutable("promtool");
        if (prometheus.isEmpty() || exporter.isEmpty() || promtool.isEmpty())
            QSKIP("needs Debian's prometheus and prometheus-node-exporter (apt-get install prometheus "
                  "prometheus-node-exporter; ./test.sh installs them)");
        QVERIFY(m_dir.isValid());
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));

        // The node exporter: the textfile collector alone, over a folder of ours.
        const QString textDir = m_dir.filePath("textfile");
        QVERIFY(QDir().mkpath(textDir));
        const quint16 exporterPort = tacho::test::pickFreeLoopbackPort();
        Child nodeExporter { tacho::test::startChildProcess(
                                 exporter,
                                 { "--web.listen-address=127.0.0.1:" + QString::number(exporterPort),
                                   "--collector.disable-defaults", "--collector.textfile",
                                   "--collector.textfile.directory=" + textDir },
                                 m_dir.path(), m_dir.filePath("node-exporter.log"), 10000, &error),
                             "node exporter" };
        QVERIFY2(nodeExporter.process, qPrintable(error));
        QVERIFY2(tacho::test::waitUntilServing(*nodeExporter.process, 20000,
                                               [&] { return !httpGet(exporterPort, "/metrics").isEmpty(); }),
                 readFile(m_dir.filePath("node-exporter.log")).constData());

        // Prometheus scraping it every second, its storage in our folder.
        m_prometheusPort = tacho::test::pickFreeLoopbackPort();
        QFile config(m_dir.filePath("prometheus.yml"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                     "scrape_configs:\n  - job_name: tacho\n    static_configs:\n      - targets: ['127.0.0.1:"
                     + QByteArray::number(exporterPort) + "']\n");
        config.close();
        Child prometheusServer { tacho::test::startChildProcess(
                                     prometheus,
                                     { "--config.file=" + config.fileName(),
                                       "--storage.tsdb.path=" + m_dir.filePath("data"),
                                       "--web.listen-address=127.0.0.1:" + QString::number(m_prometheusPort) },
                                     m_dir.path(), m_dir.filePath("prometheus.log"), 10000, &error),
                                 "prometheus" };
        QVERIFY2(prometheusServer.process, qPrintable(error));
        QVERIFY2(tacho::test::waitUntilServing(*prometheusServer.process, 60000,
                                               [&] { return !httpGet(m_prometheusPort, "/-/ready").isEmpty(); }),
                 readFile(m_dir.filePath("prometheus.log")).right(4000).constData());

        // The run: two tests of 2 s each.
        const QString prom = textDir + "/tacho.prom";
        const QString json = m_dir.filePath("run.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-t", "set,get", "-c", "10",
                                       "--duration", "2", "--json", json, "--prometheus-file", prom }, 120000);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QString problem = [&] {
            QProcess check;
            check.start(promtool, { "check", "metrics" });
            check.waitForStarted(10000);
            check.write(readFile(prom));
            check.closeWriteChannel();
            check.waitForFinished(30000);
            const QByteArray out = check.readAllStandardOutput() + check.readAllStandardError();
            return check.exitCode() == 0 && out.trimmed().isEmpty() ? QString() : QString::fromUtf8(out);
        }();
        QVERIFY2(problem.isEmpty(), qPrintable("promtool: " + problem));

        // Wait until Prometheus has scraped the ended run (bounded: the loop
        // ends when it has, or when the node exporter or Prometheus is gone).
        const QJsonObject runFile = QJsonDocument::fromJson(readFile(json)).object();
        QVERIFY(tacho::test::waitUntilServing(*prometheusServer.process, 60000,
                                              [&] { return scalar("tacho_run_active") == 0.0; }));

        const QJsonArray tests = runFile["tests"].toArray();
        QCOMPARE(tests.size(), 2);
        const auto& bounds = tacho::engine::latencyBucketBoundsNs();
        for (const QJsonValue& value : tests) {
            const QJsonObject test = value.toObject();
            const QString name = test["name"].toString();
            const double requests = test["requests"].toDouble();
            QVERIFY(requests > 0);
            const QString selector = "{test=\"" + name + "\"}";
            // The final count: the run file's, the server's, and what the
            // highest value ever scraped was (no final count lost).
            QCOMPARE(scalar("tacho_requests_total" + selector), requests);
            QCOMPARE(scalar("max_over_time(tacho_requests_total" + selector + "[10m])"), requests);
            QCOMPARE(double(server.commandStatsCalls().value(name.toLower())), requests);
            QCOMPARE(scalar("tacho_test_finished" + selector), 1.0);
            // p99 from the histogram: in the bucket that holds the run file's.
            const double p99Ns = test["commands"].toArray().at(0).toObject()["latencyMs"].toObject()["p99"].toDouble() * 1e6;
            const double quantile = scalar("histogram_quantile(0.99, sum by (le) (tacho_request_latency_seconds_bucket"
                                           + selector + "))") * 1e9;
            std::size_t bucket = 0;
            while (bucket < bounds.size() && p99Ns > double(bounds[bucket]) * (1 + 1e-9))
                ++bucket;
            QVERIFY2(bucket < bounds.size(), qPrintable(QString("p99 %1 ns beyond the buckets").arg(p99Ns)));
            const double low = bucket == 0 ? 0 : double(bounds[bucket - 1]);
            const double high = double(bounds[bucket]);
            QVERIFY2(quantile >= low * (1 - 1e-9) && quantile <= high * (1 + 1e-9),
                     qPrintable(QString("%1: histogram_quantile %2 ns, run file p99 %3 ns, bucket (%4, %5]")
                                    .arg(name).arg(quantile).arg(p99Ns).arg(low).arg(high)));
        }
        // Finished, in both readings the README gives: the run's own word,
        // and the staleness recipe (true once the file is no longer written).
        QCOMPARE(scalar("tacho_run_active"), 0.0);
        QVERIFY(!query("tacho_run_active == 0 or time() - tacho_last_update_timestamp_seconds > 5").isEmpty());
        QCOMPARE(query("tacho_requests_per_second").size(), 0);   // no live rate of an ended run
    }
};

QTEST_GUILESS_MAIN(TestPrometheusScrape)
#include "test_prometheus_scrape.moc"
