// Issue 19: telemetry and the bottleneck verdict against a real redis-server,
// through tacho-cli and its run file. Assertions are on what the run
// recorded (and what the kernel and the server counted), never on time.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <vector>
#include <sstream>
#include <csignal>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::describeCliResult;
using tacho::test::runCli;

namespace {

// utime + stime of a process, in seconds (/proc/<pid>/stat fields 14 and 15).
double processCpuSeconds(qint64 pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i)
        if (i == 14 || i == 15)
            ticks += std::stod(field);
    return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

QJsonObject firstTestTelemetry(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object()["tests"].toArray().at(0).toObject()["telemetry"].toObject();
}

QString verdictOf(const QJsonObject& telemetry)
{
    return telemetry["verdict"].toObject()["kind"].toString();
}

// Keeps `pid` (0: this thread) on one CPU.
bool pinTo(pid_t pid, int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(pid, sizeof set, &set) == 0;
}

QString describe(const QJsonObject& telemetry)
{
    return QString::fromUtf8(QJsonDocument(telemetry["verdict"].toObject()).toJson(QJsonDocument::Compact));
}

} // namespace

class TestTelemetryVerdicts : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(m_dir.isValid(), "temporary directory");
    }

    // Issue 19: the server CPU Tacho reports agrees with the kernel's count.
    void serverCpuAgreesWithProc()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QString json = m_dir.filePath("cpu.json");
        QElapsedTimer wall;
        const double before = processCpuSeconds(server.pid());
        wall.start();
        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-t", "set", "-c", "20",
                                       "-P", "4", "--duration", "4", "--json", json });
        const double seconds = static_cast<double>(wall.nsecsElapsed()) / 1e9;
        const double after = processCpuSeconds(server.pid());
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const double procPercent = 100 * (after - before) / seconds;

        const QJsonObject telemetry = firstTestTelemetry(json);
        const QJsonArray points = telemetry["servers"].toArray().at(0).toObject()["points"].toArray();
        QVERIFY2(points.size() >= 3, qPrintable(QString::number(points.size())));
        double cpuSeconds = 0, span = 0;
        int maxClients = 0;
        for (const QJsonValue& value : points) {
            const QJsonObject p = value.toObject();
            const double length = p["endSeconds"].toDouble() - p["startSeconds"].toDouble();
            cpuSeconds += p["cpuPercent"].toDouble() / 100 * length;
            span += length;
            QVERIFY(p.contains("mainThreadCpuPercent"));   // Redis 7 reports it
            QVERIFY(p.contains("mainThreadWaitPercent"));  // a server on this machine: its wait for a CPU
            QVERIFY(p["opsPerSecond"].toDouble() > 0);
            maxClients = std::max(maxClients, p["connectedClients"].toInt());
        }
        QVERIFY(maxClients >= 21);   // 20 benchmark connections and the sampler's
        const double tachoPercent = 100 * cpuSeconds / span;
        qInfo("server CPU: Tacho %.1f%%, /proc %.1f%% (difference %.1f points)", tachoPercent, procPercent,
              tachoPercent - procPercent);
        QVERIFY2(std::abs(tachoPercent - procPercent) <= 10,
                 qPrintable(QString("Tacho %1%, /proc %2%").arg(tachoPercent).arg(procPercent)));
        // The engine thread and the process were sampled too.
        const QJsonArray client = telemetry["client"].toObject()["points"].toArray();
        QVERIFY(!client.isEmpty());
        QCOMPARE(client.at(0).toObject()["threadCpuPercent"].toArray().size(), 1);
        QVERIFY(client.at(0).toObject()["rssBytes"].toDouble() > 0);
        // The server's own time per SET, from the cross-check's INFO all.
        const QJsonObject setTime = telemetry["commandTimes"].toArray().at(0).toObject();
        QCOMPARE(setTime["command"].toString(), QString("set"));
        QVERIFY(setTime["usecPerCall"].toDouble() > 0);
        QVERIFY(!setTime["latencyPercentiles"].toString().isEmpty());
        // The sampler's own INFO did not disturb the count.
        QVERIFY2(run.out.contains("server cross-check: INFO commandstats agrees"), run.out.constData());
        QVERIFY2(run.out.contains("\nbottleneck: "), run.out.constData());
    }

    // Issue 19: a server kept busy by a slow Lua script per request is the limit.
    void busyServerIsServerBound()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QString json = m_dir.filePath("lua.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-c", "2",
                                       "--duration", "4", "--json", json, "EVAL",
                                       "local i = 0 while i < 2000000 do i = i + 1 end return i", "0" });
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QJsonObject telemetry = firstTestTelemetry(json);
        QVERIFY2(verdictOf(telemetry) == "server-bound", qPrintable(describe(telemetry)));
        QVERIFY2(run.out.contains("bottleneck: server-bound (server main thread "), run.out.constData());
    }

    // Issue 19: one connection whose every request waits at the server (a
    // BLPOP that times out after 10 ms) leaves both sides idle: neither.
    void oneConnectionAgainstAnIdleServerIsNeither()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QString json = m_dir.filePath("idle.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-c", "1",
                                       "--duration", "3", "--json", json, "BLPOP", "tacho:telemetry:none", "0.01" });
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QJsonObject telemetry = firstTestTelemetry(json);
        QVERIFY2(verdictOf(telemetry) == "neither", qPrintable(describe(telemetry)));
        QVERIFY2(run.out.contains("more connections or a deeper pipeline"), run.out.constData());
        // blocked_clients shows the waiting connection in some second.
        bool blocked = false;
        for (const QJsonValue& p : telemetry["servers"].toArray().at(0).toObject()["points"].toArray())
            blocked = blocked || p.toObject()["blockedClients"].toInt() == 1;
        QVERIFY(blocked);
    }

    // Issue 19: a client-bound run made on purpose. The engine shares CPU 0
    // with five processes that spin there; the server has CPU 1. Every
    // engine thread is runnable all the time (50 connections, pipeline 16)
    // and gets about a sixth of its core, while the server only answers
    // what the starved engine sends.
    void engineStarvedOfItsCoreIsClientBound()
    {
        if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
            QSKIP("needs two CPUs: one shared with spinning processes, one for the server");
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QVERIFY2(pinTo(pid_t(server.pid()), 1), "could not pin the server to CPU 1");
        cpu_set_t before;
        QVERIFY(sched_getaffinity(0, sizeof before, &before) == 0);
        std::vector<pid_t> spinners;
        for (int i = 0; i < 5; ++i) {
            const pid_t child = fork();
            if (child == 0) {
                // Bounded even if this test dies before stopping it.
                alarm(30);
                if (!pinTo(0, 0))
                    _exit(1);
                volatile unsigned long spin = 0;
                for (;;)
                    spin = spin + 1;
            }
            QVERIFY(child > 0);
            spinners.push_back(child);
        }
        // tacho-cli inherits this process's CPU set.
        QVERIFY(pinTo(0, 0));
        const QString json = m_dir.filePath("starved.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-t", "set", "-c",
                                       "50", "-P", "16", "--duration", "4", "--json", json });
        sched_setaffinity(0, sizeof before, &before);
        for (const pid_t child : spinners) {
            kill(child, SIGKILL);
            waitpid(child, nullptr, 0);
        }
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QJsonObject telemetry = firstTestTelemetry(json);
        QVERIFY2(verdictOf(telemetry) == "client-bound", qPrintable(describe(telemetry)));
        // Any reading of it: an engine thread that wanted a whole core, one
        // kept waiting by a busy host, or by the CPU it may run on.
        QVERIFY2(run.out.contains("bottleneck: client-bound (an engine thread wanted ")
                     || run.out.contains("bottleneck: client-bound (the host was ")
                     || run.out.contains("bottleneck: client-bound (an engine thread waited "),
                 run.out.right(400).constData());
    }

    // Issue 19: a user without +info gets its run, exact counts, and one
    // "not available" line with the server's own error.
    void infoRefusedRunStillCompletes()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QCOMPARE(server.command({ "ACL", "SETUSER", "u", "on", ">pw", "~*", "+@all", "-info" }).text, QByteArray("OK"));
        server.resetStats();
        const QString json = m_dir.filePath("noinfo.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "--user", "u", "-a", "pw",
                                       "-t", "set", "-n", "3000", "-c", "5", "--json", json });
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(server.commandStatsCalls().value("set"), quint64(3000));
        const QJsonObject telemetry = firstTestTelemetry(json);
        const QString unavailable = telemetry["servers"].toArray().at(0).toObject()["unavailable"].toString();
        QVERIFY2(unavailable.startsWith("not available: ") && unavailable.contains("NOPERM"), qPrintable(unavailable));
        QCOMPARE(run.out.count("not available: "), 1);
        // Without the server's side nothing rests on it: the verdict is "unknown", or on a machine
        // busy enough to saturate this client "client-bound" (judged from this machine's own
        // readings), and either way it says what of the server could not be read.
        const bool unknown = run.out.contains("bottleneck: unknown (server telemetry not available: ");
        const bool clientBound = run.out.contains("bottleneck: client-bound (")
            && run.out.contains("; server telemetry not available: ");
        QVERIFY2(unknown || clientBound, run.out.constData());
        QVERIFY(telemetry["servers"].toArray().at(0).toObject()["points"].toArray().isEmpty());
    }

    // --no-telemetry asks the server nothing more; --telemetry-interval sets the pace.
    void telemetryFlags()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        auto infoCallsOf = [&](const QStringList& flags, const QString& json) {
            server.resetStats();
            const CliResult run = runCli(QStringList { "redis-benchmark", "-p", QString::number(server.port()), "-t", "set",
                                                       "-c", "2", "--duration", "3", "--json", json } + flags);
            return std::make_pair(run, server.commandStatsCalls().value("info"));
        };
        const auto [off, offInfos] = infoCallsOf({ "--no-telemetry" }, m_dir.filePath("off.json"));
        QVERIFY2(off.exitCode == 0, qPrintable(describeCliResult(off)));
        QVERIFY(firstTestTelemetry(m_dir.filePath("off.json")).isEmpty());
        QVERIFY(!off.out.contains("bottleneck:"));
        const auto [on, onInfos] = infoCallsOf({ "--telemetry-interval", "0.5" }, m_dir.filePath("on.json"));
        QVERIFY2(on.exitCode == 0, qPrintable(describeCliResult(on)));
        const QJsonObject telemetry = firstTestTelemetry(m_dir.filePath("on.json"));
        QCOMPARE(telemetry["intervalSeconds"].toDouble(), 0.5);
        const auto points = telemetry["servers"].toArray().at(0).toObject()["points"].toArray().size();
        QVERIFY2(points >= 5, qPrintable(QString::number(points)));
        // One plain INFO per reading (points + 1), and nothing else.
        QCOMPARE(onInfos, offInfos + quint64(points) + 1);
        QVERIFY2(on.out.contains("server cross-check: INFO commandstats agrees"), on.out.constData());
        // The memtier dialect takes both flags too.
        const CliResult memtier = runCli({ "memtier", "-p", QString::number(server.port()), "-n", "200", "-c", "2", "-t",
                                           "1", "--no-telemetry", "--hide-histogram" });
        QVERIFY2(memtier.exitCode == 0, qPrintable(describeCliResult(memtier)));
        QVERIFY(!memtier.out.contains("bottleneck:"));
        const CliResult memtierOn = runCli({ "memtier", "-p", QString::number(server.port()), "-n", "200", "-c", "2",
                                             "-t", "1", "--telemetry-interval=0.2", "--hide-histogram" });
        QVERIFY2(memtierOn.exitCode == 0, qPrintable(describeCliResult(memtierOn)));
        QVERIFY2(memtierOn.out.contains("bottleneck: "), memtierOn.out.constData());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestTelemetryVerdicts)
#include "test_telemetry_verdicts.moc"
