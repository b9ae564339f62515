// Issue 32, StatsD as a receiver we did not write reads it: collectd's statsd
// plugin (Debian's collectd-core) on a loopback port, its csv plugin writing
// what it received. Two load machines send to it: this one, a real two-test
// run of tacho-cli against a real redis-server, and a second one whose lines
// the engine makes for host "load-2". Each machine's counters stay apart,
// and each adds up to its own count: this machine's to the run file's and
// the server's (INFO commandstats). Skipped, with the package named, only
// when collectd or its statsd plugin is not installed (./test.sh installs
// it). Nothing is asserted on time.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
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

constexpr const char* kPlugin = "/usr/lib/collectd/statsd.so";
constexpr const char* kTypes = "/usr/share/collectd/types.db";

QByteArray readFile(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The last value collectd's csv plugin wrote for `type`-`name` (the file
// carries the day after the name); -1 when there is none yet.
double lastCsvValue(const QString& folder, const QString& type, const QString& name)
{
    const QStringList files = QDir(folder).entryList({ type + "-" + name + "-*" }, QDir::Files);
    if (files.size() != 1)
        return -1;
    const QList<QByteArray> lines = readFile(folder + "/" + files.front()).trimmed().split('\n');
    if (lines.size() < 2)
        return -1;
    return lines.back().split(',').value(1).toDouble();
}

void sendUdp(quint16 port, const std::string& datagram)
{
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::sendto(fd, datagram.data(), datagram.size(), 0, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::close(fd);
}

// What a second load machine sends at the end of its test SET: 777 requests.
std::vector<std::string> secondMachineLines()
{
    tacho::engine::LiveMetrics m;
    m.host = "load-2";
    m.run = "20250101T000000Z-42";
    tacho::engine::TestMetrics test;
    test.name = "SET";
    test.finished = true;
    test.elapsedSeconds = 1;
    tacho::engine::CommandMetrics command;
    command.name = "SET";
    command.requests = 777;
    test.commands.push_back(command);
    m.tests.push_back(test);
    tacho::engine::StatsdProgress progress;
    return tacho::engine::statsdDatagrams(tacho::engine::statsdLines(m, tacho::engine::StatsdTags::InName, progress));
}

} // namespace

class TestStatsdCollectd : public QObject {
    Q_OBJECT

private slots:
    void collectdKeepsTwoLoadMachinesApart()
    {
        const QString collectd = QStandardPaths::findExecutable("collectd", { "/usr/sbin", "/sbin" });
        if (collectd.isEmpty() || !QFile::exists(kPlugin) || !QFile::exists(kTypes))
            QSKIP("needs Debian's collectd-core (collectd and its statsd plugin; ./test.sh installs it)");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));

        const quint16 port = tacho::test::pickFreeLoopbackPort();
        QFile config(dir.filePath("collectd.conf"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QString("Hostname \"collector\"\nFQDNLookup false\nInterval 1\nBaseDir \"%1\"\n"
                             "PIDFile \"%1/collectd.pid\"\nTypesDB \"%2\"\nLoadPlugin statsd\nLoadPlugin csv\n"
                             "<Plugin statsd>\n  Host \"127.0.0.1\"\n  Port \"%3\"\n</Plugin>\n"
                             "<Plugin csv>\n  DataDir \"%1/csv\"\n  StoreRates false\n</Plugin>\n")
                         .arg(dir.path(), kTypes)
                         .arg(port)
                         .toUtf8());
        config.close();
        const QString log = dir.filePath("collectd.log");
        std::unique_ptr<QProcess> process
            = tacho::test::startChildProcess(collectd, { "-C", config.fileName(), "-f" }, dir.path(), log, 10000, &error);
        QVERIFY2(process, qPrintable(error));
        const auto stop = qScopeGuard([&] { tacho::test::stopChildProcess(*process, "collectd", 5000); });
        QVERIFY2(tacho::test::waitUntilServing(*process, 20000, [&] { return readFile(log).contains("Listening on"); }),
                 readFile(log).constData());

        const QString json = dir.filePath("run.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-t", "set,get", "-c", "5",
                                       "--duration", "1", "--json", json, "--statsd", "127.0.0.1:" + QString::number(port) },
                                     120000);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        for (const std::string& datagram : secondMachineLines())
            sendUdp(port, datagram);

        char host[256] = {};
        QCOMPARE(::gethostname(host, sizeof host - 1), 0);
        const QString here = QString::fromStdString(tacho::engine::statsdComponent(host));
        const QString folder = dir.filePath("csv/collector/statsd");
        const QJsonArray tests = QJsonDocument::fromJson(readFile(json)).object()["tests"].toArray();
        QCOMPARE(tests.size(), 2);
        for (const QJsonValue& value : tests) {
            const QString name = value.toObject()["name"].toString();
            const double requests = value.toObject()["requests"].toDouble();
            QVERIFY(requests > 0);
            QCOMPARE(double(server.commandStatsCalls().value(name.toLower())), requests);
            // The counter's increments, summed by collectd, are the test's count;
            // the final gauge says the same.
            const QString stem = "tacho." + here + "." + name + "." + name + ".";
            QVERIFY2(tacho::test::waitUntilServing(*process, 30000,
                                                   [&] { return lastCsvValue(folder, "derive", stem + "requests") == requests; }),
                     qPrintable(QString("%1: %2, expected %3").arg(stem).arg(lastCsvValue(folder, "derive", stem + "requests")).arg(requests)));
            QCOMPARE(lastCsvValue(folder, "gauge", stem + "test_requests"), requests);
        }
        // The second machine's SET is its own series, with its own count.
        QVERIFY2(tacho::test::waitUntilServing(*process, 30000,
                                               [&] { return lastCsvValue(folder, "derive", "tacho.load-2.SET.SET.requests") == 777; }),
                 qPrintable(QDir(folder).entryList().join('\n')));
        QCOMPARE(lastCsvValue(folder, "gauge", "tacho.load-2.SET.SET.test_requests"), 777.0);
        QVERIFY2(!readFile(log).contains("Unable to parse"), readFile(log).constData());   // collectd took every line
    }
};

QTEST_GUILESS_MAIN(TestStatsdCollectd)
#include "test_statsd_collectd.moc"
