// Issue 21: several load machines as one run. A control redis-server, a
// target redis-server and three `tacho-cli agent` processes on this machine;
// the coordinator is `tacho-cli redis-benchmark … --agents …`. Every count is
// checked against what the target's INFO commandstats saw; faults (an agent
// killed, the control server restarted, Ctrl+C) end as the issue describes.
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QMap>
#include <QTest>

#include <csignal>
#include <memory>
#include <vector>

#include "support/background_cli.h"
#include "support/cli_runner.h"
#include "support/fleet_agents.h"
#include "support/redis_server.h"
#include "support/run_file_json.h"

using tacho::test::BackgroundCli;
using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::describeCliResult;
using tacho::test::readRunFileJson;
using tacho::test::runCli;

namespace {

constexpr int kAgentStartMs = 30000;
constexpr int kRunMs = 90000;

using tacho::test::fleetControlUri;

using tacho::test::fleetAgentsOnline;

// Every string in a reply, depth first, joined.
QByteArray allText(const tacho::test::RedisReply& reply)
{
    QByteArray text = reply.text;
    for (const auto& element : reply.elements)
        text += "\n" + allText(element);
    return text;
}

RedisServer::Options onPort(quint16 port)
{
    RedisServer::Options options;
    options.port = port;
    return options;
}

// Three agents (a, b, c) waiting on a control server, and the target.
struct Fleet {
    std::unique_ptr<RedisServer> controlServer;
    RedisServer target;
    std::vector<std::unique_ptr<BackgroundCli>> agents;
    QTemporaryDir scratch;   // the agents' TMPDIR: a killed agent's folder goes with it

    RedisServer& control() { return *controlServer; }
    QString targetPort() const { return QString::number(target.port()); }

    QString start(const QStringList& environment = {}, quint16 controlPort = 0)
    {
        controlServer = std::make_unique<RedisServer>(onPort(controlPort));
        QString error;
        if (!control().start(&error) || !target.start(&error))
            return error;
        return tacho::test::startFleetAgents(agents, control(), fleetControlUri(control()), { "a", "b", "c" },
                                             environment, scratch.path(), kAgentStartMs);
    }

    // A coordinator for `seconds` of SET on six connections over the three
    // agents, once its traffic reaches the target (nullptr if it never does).
    std::unique_ptr<BackgroundCli> startTimedRun(const QString& seconds, const QString& json)
    {
        auto coordinator = std::make_unique<BackgroundCli>(
            QStringList { "redis-benchmark", "-p", targetPort(), "-t", "set", "-c", "6", "--duration", seconds, "-q",
                          "--agents", "3", "--control", fleetControlUri(control()), "--json", json });
        if (!coordinator->waitUntil([&] { return target.commandStatsCalls().value("set") > 0; }, kRunMs))
            return nullptr;
        return coordinator;
    }
};

QStringList sourceNames(const QJsonObject& run)
{
    QStringList names;
    for (const QJsonValue& s : run["sources"].toArray())
        names << s.toObject()["file"].toString();
    return names;
}

qint64 testRequests(const QJsonObject& run, int index)
{
    return run["tests"].toArray().at(index).toObject()["requests"].toInteger();
}

// Entries of the run's intervals stream on `control` posted by `agent`.
int streamedBy(const RedisServer& control, const QByteArray& agent)
{
    int count = 0;
    for (const auto& key : control.command({ "KEYS", "tacho:fleet:intervals:*" }).elements)
        for (const auto& entry : control.command({ "XRANGE", QString::fromUtf8(key.text), "-", "+" }).elements) {
            if (entry.elements.size() != 2)
                continue;
            const auto& fields = entry.elements[1].elements;
            for (qsizetype i = 0; i + 1 < fields.size(); i += 2)
                count += fields[i].text == "agent" && fields[i + 1].text == agent;
        }
    return count;
}

// What the fleet section says each reporting agent streamed: every seq
// 1..N once (none missing), summing to the agent's own run file's count;
// and the per-second series sums to all of them. Empty when all holds.
QString checkStreamedIntervals(const QJsonObject& file, qint64 total)
{
    const QJsonObject fleet = file["fleet"].toObject();
    QMap<QString, qint64> reported;
    for (const QJsonValue& s : file["sources"].toArray())
        reported[s.toObject()["file"].toString()] = s.toObject()["requests"].toInteger();
    qint64 streamedTotal = 0;
    for (const QJsonValue& value : fleet["agents"].toArray()) {
        const QJsonObject agent = value.toObject();
        const QString name = agent["name"].toString();
        const QJsonObject intervals = agent["intervals"].toObject();
        const qint64 received = intervals["received"].toInteger();
        const qint64 lastSeq = intervals["lastSeq"].toInteger();
        const qint64 requests = intervals["requests"].toInteger();
        if (received < 1 || received != lastSeq || !intervals["missingSeqs"].toArray().isEmpty())
            return QStringLiteral("agent %1: %2 intervals received, last seq %3, missing %4")
                .arg(name)
                .arg(received)
                .arg(lastSeq)
                .arg(QString::fromUtf8(QJsonDocument(intervals["missingSeqs"].toArray()).toJson(QJsonDocument::Compact)));
        if (reported.contains(name) && requests != reported[name])
            return QStringLiteral("agent %1 streamed %2 requests, reported %3").arg(name).arg(requests).arg(reported[name]);
        streamedTotal += requests;
    }
    qint64 seriesTotal = 0;
    for (const QJsonValue& second : fleet["seconds"].toArray())
        seriesTotal += second.toObject()["requests"].toInteger();
    if (streamedTotal != total || seriesTotal != total)
        return QStringLiteral("streamed %1 requests, per-second series %2, expected %3")
            .arg(streamedTotal)
            .arg(seriesTotal)
            .arg(total);
    return {};
}

} // namespace

class TestFleetAgents : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The whole line's counts, divided among three agents and merged: the
    // target saw exactly what was asked for, and so does the run file.
    void threeAgentsMakeOneRun()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString json = m_dir.filePath("three.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", fleet.targetPort(), "-t", "set,get", "-n",
                                       "1000", "-c", "10", "-q", "--agents", "3", "--control",
                                       fleetControlUri(fleet.control()), "--json", json },
                                     kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const auto calls = target.commandStatsCalls();
        QCOMPARE(calls.value("set"), quint64(1000));
        QCOMPARE(calls.value("get"), quint64(1000));
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(testRequests(file, 0), 1000);
        QCOMPARE(testRequests(file, 1), 1000);
        QCOMPARE(sourceNames(file), (QStringList { "a", "b", "c" }));
        const QJsonArray sources = file["sources"].toArray();
        // 1000 over three: 334, 333, 333 per test; two tests.
        QCOMPARE(sources.at(0).toObject()["requests"].toInteger(), 668);
        QCOMPARE(sources.at(1).toObject()["requests"].toInteger(), 666);
        // What each agent was given and how it ended.
        const QJsonArray given = file["fleet"].toObject()["agents"].toArray();
        QCOMPARE(given.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const QJsonObject agent = given.at(i).toObject();
            QCOMPARE(agent["outcome"].toString(), QString("reported"));
            const QJsonArray args = agent["args"].toArray();
            QCOMPARE(args.at(0).toString(), QString("-n"));
            QCOMPARE(args.at(1).toString(), QString(i == 0 ? "334" : "333"));
            QVERIFY(!args.contains(QJsonValue("--json")));
        }
        // -q: standard output holds the rows only (issue 29), the fleet's lines are on standard error.
        QVERIFY2(run.err.contains("Running on 3 agents (a, b, c)"), run.err.constData());
        QVERIFY2(run.out.contains("SET: ") && run.out.contains("GET: "), run.out.constData());
        QVERIFY2(!run.out.contains("Running on") && !run.out.contains("agent a: "), run.out.constData());
        // The streamed intervals add up to each agent's report and to what
        // the target saw; -q keeps the progress lines away.
        const QString streamed = checkStreamedIntervals(file, 2000);
        QVERIFY2(streamed.isEmpty(), qPrintable(streamed));
        QVERIFY2(!run.err.contains("[fleet "), run.err.constData());
    }

    // memtier's line: P:P over a range that does not divide by three, every
    // key written exactly once across the agents.
    void memtierAllKeysWritesEachKeyOnce()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString json = m_dir.filePath("memtier.json");
        const CliResult run = runCli({ "memtier", "-s", "127.0.0.1", "-p", fleet.targetPort(), "--ratio=1:0",
                                       "--key-pattern=P:P", "--key-minimum=1", "--key-maximum=1000", "-n", "allkeys",
                                       "-t", "1", "-c", "4", "--hide-histogram", "--agents=3",
                                       "--control=" + fleetControlUri(fleet.control()), "--json", json },
                                     kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(target.dbSize(), 1000);
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(1000));
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(testRequests(file, 0), 1000);
        QCOMPARE(sourceNames(file), (QStringList { "a", "b", "c" }));
        QVERIFY2(run.out.contains("ALL STATS") && run.out.contains("Sets "), run.out.constData());
        QVERIFY2(!run.err.contains("warning"), run.err.constData());
        const QString streamed = checkStreamedIntervals(file, 1000);
        QVERIFY2(streamed.isEmpty(), qPrintable(streamed));
        // memtier's line has no -q: the merged progress, a line a second.
        QVERIFY2(run.err.contains("[fleet RUN #1 0 s] ") && run.err.contains(" (a "), run.err.constData());
    }

    // --preload on agents: the key range filled once across the agents
    // (each key SET exactly once, 1000 keys over three), then the measured
    // line (GETs only, random keys) on the same agents; one run file, the
    // preload first, as on one machine.
    void memtierPreloadOnceAcrossAgents()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString json = m_dir.filePath("memtier-preload.json");
        const CliResult run = runCli({ "memtier", "-s", "127.0.0.1", "-p", fleet.targetPort(), "--preload",
                                       "--ratio=0:1", "--key-pattern=R:R", "--key-minimum=1", "--key-maximum=1000",
                                       "-n", "50", "-t", "1", "-c", "3", "--hide-histogram", "--agents=3",
                                       "--control=" + fleetControlUri(fleet.control()), "--json", json },
                                     kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(target.dbSize(), 1000);
        const auto calls = target.commandStatsCalls();
        QCOMPARE(calls.value("set"), quint64(1000));
        QCOMPARE(calls.value("get"), quint64(3 * 50));
        const QJsonObject file = readRunFileJson(json);
        const QJsonArray tests = file["tests"].toArray();
        QCOMPARE(tests.size(), 2);
        QCOMPARE(tests[0].toObject()["name"].toString(), QString("PRELOAD"));
        QCOMPARE(testRequests(file, 0), 1000);
        QCOMPARE(testRequests(file, 1), 150);
        QVERIFY2(run.out.contains("Preloading on 3 agents") && run.out.contains("PRELOAD RESULTS"),
                 run.out.constData());
        // The agents' measured shares do not preload again.
        for (const QJsonValue& agent : file["fleet"].toObject()["agents"].toArray())
            for (const QJsonValue& word : agent.toObject()["args"].toArray())
                QVERIFY2(!word.toString().startsWith("--preload"), qPrintable(word.toString()));
    }

    // tacho-cli sweep … --agents: every row's line divided among the agents,
    // the merged run is the row's; memtier's preload once, before the rows.
    void sweepRowsOnAgents()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString ctl = fleetControlUri(fleet.control());
        const QString json = m_dir.filePath("sweep-agents.json");
        CliResult run = runCli({ "sweep", "--connections", "3,6", "--agents", "3", "--control", ctl, "--json", json,
                                 "--", "redis-benchmark", "-p", fleet.targetPort(), "-t", "set", "-n", "300", "-q" },
                               kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(2 * 300));
        QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["tests"].toArray().size(), 2);
        QCOMPARE(testRequests(file, 0), 300);
        QCOMPARE(testRequests(file, 1), 300);
        const QJsonObject sweep = file["sweep"].toObject();
        QCOMPARE(sweep["agents"].toObject()["count"].toInt(), 3);
        QCOMPARE(sweep["rows"].toArray().size(), 2);
        QVERIFY2(run.err.contains("Running on 3 agents"), run.err.constData());
        QVERIFY2(run.out.contains("Connections"), run.out.constData());

        target.command({ "CONFIG", "RESETSTAT" });
        target.command({ "FLUSHALL" });
        run = runCli({ "sweep", "--pipeline", "1,4", "--agents", "3", "--control", ctl, "--", "memtier", "-s",
                       "127.0.0.1", "-p", fleet.targetPort(), "--preload", "--ratio=0:1", "--key-minimum=1",
                       "--key-maximum=500", "-n", "20", "-t", "1", "-c", "3", "--hide-histogram" },
                     kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(target.dbSize(), 500);
        const auto calls = target.commandStatsCalls();
        QCOMPARE(calls.value("set"), quint64(500));        // the preload, once across the agents
        QCOMPARE(calls.value("get"), quint64(2 * 3 * 20)); // two rows of three connections x 20

        // What the agents cannot take is said before anything runs.
        target.command({ "CONFIG", "RESETSTAT" });
        run = runCli({ "sweep", "--connections", "2,6", "--agents", "3", "--control", ctl, "--", "redis-benchmark",
                       "-p", fleet.targetPort(), "-t", "set", "-n", "300" },
                     kRunMs);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("connections 2 on agents: --agents: 3 agents need at least as many connections"),
                 run.err.constData());
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(0));
    }

    // tacho-cli capacity … --agents: every step's words divided among the
    // agents, the merged run measured as a step here; the steps' requests are
    // what the target counted.
    void capacityStepsOnAgents()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString ctl = fleetControlUri(fleet.control());
        const QString json = m_dir.filePath("capacity-agents.json");
        CliResult run = runCli({ "capacity", "--dimension", "connections", "--from", "3", "--to", "6",
                                 "--step-seconds", "1", "--warmup", "0", "--objective", "avg<=10s", "--attempts", "1",
                                 "--agents", "3", "--control", ctl, "--json", json, "--", "redis-benchmark", "-p",
                                 fleet.targetPort(), "-t", "set", "-q" },
                               kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QJsonObject file = readRunFileJson(json);
        const QJsonArray tests = file["tests"].toArray();
        QCOMPARE(tests.size(), 2);   // 3 connections, then 6: the objective held at the top
        qint64 requests = 0;
        for (int i = 0; i < tests.size(); ++i) {
            QVERIFY(testRequests(file, i) > 0);
            requests += testRequests(file, i);
        }
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(requests));
        QVERIFY2(run.err.contains("Running on 3 agents"), run.err.constData());
        QCOMPARE(file["capacity"].toObject()["steps"].toArray().size(), 2);

        // memtier's words have no warm-up: said before anything runs.
        run = runCli({ "capacity", "--from", "3", "--to", "6", "--dimension", "connections", "--agents", "3",
                       "--control", ctl, "--", "memtier", "-p", fleet.targetPort() },
                     kRunMs);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("--warmup 0"), run.err.constData());
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(requests));
    }

    // memtier's own outputs, as for a run on one machine, written by the
    // coordinator from the merged runs; the clean-up once, at the end.
    void memtierOutputsFromTheMergedRuns()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString json = m_dir.filePath("memtier-runs.json");
        const QString outFile = m_dir.filePath("memtier-runs.txt");
        const QString jsonOut = m_dir.filePath("memtier-runs-memtier.json");
        const QString hdr = m_dir.filePath("memtier-runs-hdr");
        const CliResult run = runCli({ "memtier", "-s", "127.0.0.1", "-p", fleet.targetPort(), "--ratio=1:0",
                                       "--key-maximum=500", "-n", "200", "-t", "1", "-c", "3", "--run-count=2",
                                       "--hide-histogram", "--out-file=" + outFile, "--json-out-file=" + jsonOut,
                                       "--hdr-file-prefix=" + hdr, "--cleanup", "--agents=3",
                                       "--control=" + fleetControlUri(fleet.control()), "--json", json },
                                     kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        // Two runs of three connections × 200 requests, as the target counted.
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(1200));
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["tests"].toArray().size(), 2);
        QCOMPARE(testRequests(file, 0) + testRequests(file, 1), 1200);
        QCOMPARE(sourceNames(file), (QStringList { "a", "b", "c" }));
        // The clean-up ran once, after every agent, and is in the run file.
        QCOMPARE(target.dbSize(), 0);
        QVERIFY2(file.contains("cleanup"), qPrintable(QJsonDocument(file).toJson().left(400)));
        // memtier's text and JSON: the best run, the worst, the average.
        QFile text(outFile);
        QVERIFY(text.open(QIODevice::ReadOnly));
        const QByteArray report = text.readAll();
        for (const char* block : { "BEST RUN RESULTS", "WORST RUN RESULTS",
                                   "AGGREGATED AVERAGE RESULTS (2 runs)" })
            QVERIFY2(report.contains(block), block);
        QFile memtierJson(jsonOut);
        QVERIFY(memtierJson.open(QIODevice::ReadOnly));
        const QJsonObject blocks = QJsonDocument::fromJson(memtierJson.readAll()).object();
        QVERIFY2(blocks.contains("AGGREGATED AVERAGE RESULTS (2 runs)"), qPrintable(blocks.keys().join(", ")));
        // Each run's full latency histogram, from the merged histograms.
        for (const char* name : { "_FULL_RUN_1.txt", "_FULL_RUN_2.txt", "_FULL_RUN_1.hgrm" })
            QVERIFY2(QFileInfo::exists(hdr + name), name);
        // The shares carried none of it: the agents wrote nothing of their own.
        for (const QJsonValue& agent : file["fleet"].toObject()["agents"].toArray())
            for (const QJsonValue& word : agent.toObject()["args"].toArray())
                QVERIFY2(!word.toString().startsWith("--out-file") && !word.toString().startsWith("--cleanup"),
                         qPrintable(word.toString()));
    }

    // redis-benchmark's -x (standard input read once, sent to every agent as
    // the command's last word), and -l until Ctrl+C with --cleanup.
    void standardInputLoopAndCleanup()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString ctl = fleetControlUri(fleet.control());
        const QByteArray value = "value from standard input";
        const CliResult fromStdin = runCli({ "redis-benchmark", "-p", fleet.targetPort(), "-n", "30", "-c", "3", "-q",
                                             "--agents", "3", "--control", ctl, "-x", "SET", "fleet:stdin" },
                                           kRunMs, value);
        QVERIFY2(fromStdin.exitCode == 0, qPrintable(describeCliResult(fromStdin)));
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(30));
        QCOMPARE(target.commandString({ "GET", "fleet:stdin" }).value_or(QString()).toUtf8(), value);

        const QString json = m_dir.filePath("loop.json");
        BackgroundCli loop({ "redis-benchmark", "-p", fleet.targetPort(), "-t", "set", "-r", "1000", "-c", "3", "-n",
                             "3000", "-l", "-q", "--cleanup", "--agents", "3", "--control", ctl, "--json", json });
        // Passes of 1000 per agent: several of them before the stop.
        QVERIFY(loop.waitUntil([&] { return target.commandStatsCalls().value("set") > 6000; }, kRunMs));
        QCOMPARE(::kill(pid_t(loop.pid()), SIGINT), 0);
        const CliResult run = loop.finish(kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(sourceNames(file), (QStringList { "a", "b", "c" }));
        // -l keeps each agent's latest pass (as on one machine: a long loop
        // stays bounded), merged; every pass was streamed as it ran, and the
        // streamed intervals hold every request the target counted.
        const QJsonArray tests = file["tests"].toArray();
        QCOMPARE(tests.size(), 1);
        qint64 latest = 0, streamed = 0;
        for (const QJsonValue& source : file["sources"].toArray())
            latest += source.toObject()["requests"].toInteger();
        for (const QJsonValue& agent : file["fleet"].toObject()["agents"].toArray())
            streamed += agent.toObject()["intervals"].toObject()["requests"].toInteger();
        QCOMPARE(testRequests(file, 0), latest);
        QVERIFY2(latest > 0 && latest <= 3000 && latest < streamed,
                 qPrintable(QString("%1 of %2").arg(latest).arg(streamed)));
        QCOMPARE(quint64(streamed) + 30, target.commandStatsCalls().value("set"));
        // The loop's keys went; the key it did not write stayed.
        QCOMPARE(target.dbSize(), 1);
        QVERIFY(file.contains("cleanup"));
    }

    void namedAgentsAndWhatCannotBeDivided()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString port = fleet.targetPort();
        const QString ctl = fleetControlUri(fleet.control());
        const QString json = m_dir.filePath("named.json");
        const CliResult named = runCli({ "redis-benchmark", "-p", port, "-t", "set", "-n", "501", "-c", "4", "-q",
                                         "--agents", "c,a", "--control", ctl, "--json", json },
                                       kRunMs);
        QVERIFY2(named.exitCode == 0, qPrintable(describeCliResult(named)));
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(501));
        QCOMPARE(sourceNames(readRunFileJson(json)), (QStringList { "c", "a" }));

        const CliResult tooMany = runCli({ "redis-benchmark", "-p", port, "-t", "set", "-n", "100", "--agents", "4",
                                           "--control", ctl });
        QCOMPARE(tooMany.exitCode, 2);
        QVERIFY2(tooMany.err.contains("only 3 idle agents") && tooMany.err.contains("(a, b, c)"),
                 tooMany.err.constData());
        const CliResult unknown = runCli({ "redis-benchmark", "-p", port, "-t", "set", "-n", "100", "--agents",
                                           "a,zz", "--control", ctl });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("zz is not an idle agent"), unknown.err.constData());
        const CliResult fewConnections = runCli({ "redis-benchmark", "-p", port, "-t", "set", "-n", "100", "-c",
                                                  "2", "--agents", "3", "--control", ctl });
        QCOMPARE(fewConnections.exitCode, 2);
        QVERIFY2(fewConnections.err.contains("at least as many connections"), fewConnections.err.constData());
        const CliResult noControl = runCli({ "redis-benchmark", "-p", port, "--agents", "3" });
        QCOMPARE(noControl.exitCode, 2);
        QVERIFY2(noControl.err.contains("--control"), noControl.err.constData());
        // Nothing ran after the first line.
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(501));
    }

    // An open-loop rate divided among the agents: the sum holds.
    void rateIsDividedSoTheSumHolds()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString json = m_dir.filePath("rate.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", fleet.targetPort(), "-t", "set", "-c",
                                       "6", "--rate", "600", "--duration", "4", "-q", "--agents", "3", "--control",
                                       fleetControlUri(fleet.control()), "--json", json },
                                     kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const qint64 requests = testRequests(readRunFileJson(json), 0);
        QCOMPARE(quint64(requests), target.commandStatsCalls().value("set"));
        QVERIFY2(std::abs(requests - 2400) <= 120, qPrintable(QString::number(requests)));
    }

    // The target's password stays with the machines that use it: not in an
    // order, a report, a presence key, or any command the control server saw.
    void passwordNeverReachesTheControlServer()
    {
        const QString secret = QStringLiteral("fleet-Secret-4711");
        Fleet fleet;
        // An agent with a password names the targets it may send it to (issue 29).
        const QString error = fleet.start({ "REDISCLI_AUTH=" + secret, "TACHO_AGENT_TARGETS=127.0.0.1:*" });
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        QVERIFY(target.command({ "CONFIG", "SET", "requirepass", secret }).text == "OK");
        target.setAuth(secret);

        QProcess monitor;
        monitor.start("redis-cli", { "-p", QString::number(fleet.control().port()), "MONITOR" });
        QVERIFY(monitor.waitForStarted(10000));
        QVERIFY(fleet.control().waitForCalls("monitor", 1, 10000));
        const CliResult run = runCli({ "redis-benchmark", "-p", fleet.targetPort(), "-t", "set", "-n",
                                       "300", "-c", "3", "-q", "--agents", "3", "--control",
                                       fleetControlUri(fleet.control()) },
                                     kRunMs, {}, { "REDISCLI_AUTH=" + secret });
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(300));

        QByteArray everything;
        for (const auto& keyReply : fleet.control().command({ "KEYS", "*" }).elements) {
            const QString key = QString::fromUtf8(keyReply.text);
            const QString type = fleet.control().commandString({ "TYPE", key }).value_or(QString());
            if (type == "stream")
                everything += allText(fleet.control().command({ "XRANGE", key, "-", "+" }));
            else if (type == "string")
                everything += fleet.control().commandString({ "GET", key }).value_or(QString()).toUtf8();
        }
        // The orders and the run files were read (they name the test).
        QVERIFY2(everything.contains("\"order\"") || everything.contains("redis-benchmark"), everything.left(400).constData());
        QVERIFY2(everything.contains("tacho-run/1"), everything.left(400).constData());
        QVERIFY(!everything.contains(secret.toUtf8()));
        // Nor the fleet's key (issue 29): the orders carry a signature made with it, never the key.
        const QByteArray fleetKey = tacho::test::kTestFleetKey;
        QVERIFY(everything.contains("\"nonce\""));
        QVERIFY(!everything.contains(fleetKey));
        monitor.terminate();
        QVERIFY(monitor.waitForFinished(10000));
        const QByteArray monitored = monitor.readAllStandardOutput();
        QVERIFY2(monitored.contains("XADD"), monitored.left(400).constData());
        QVERIFY2(monitored.contains("\"mac\""), monitored.left(400).constData());
        QVERIFY(!monitored.contains(secret.toUtf8()) && !monitored.contains(fleetKey));
        QVERIFY(!run.out.contains(secret.toUtf8()) && !run.err.contains(secret.toUtf8()));
        QVERIFY(!run.out.contains(fleetKey) && !run.err.contains(fleetKey));
    }

    // An agent killed mid-run is lost; the others' results make the run,
    // and the file is a run file like any other.
    void agentKilledMidRunIsLost()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString json = m_dir.filePath("killed.json");
        const auto coordinator = fleet.startTimedRun("6", json);
        QVERIFY(coordinator);
        // b's share under way before it dies: every agent connected (two
        // benchmark connections and a control connection each), then more
        // traffic — what b sent is then in the server's count, not the run's.
        QVERIFY(coordinator->waitUntil([&] { return target.info("clients").value("connected_clients").toInt() >= 9; },
                                       kRunMs));
        const quint64 before = target.commandStatsCalls().value("set");
        QVERIFY(coordinator->waitUntil([&] { return target.commandStatsCalls().value("set") > before + 1000; }, kRunMs));
        // And b has streamed at least one interval: what it delivered is known.
        QVERIFY(coordinator->waitUntil([&] { return streamedBy(fleet.control(), "b") > 0; }, kRunMs));
        QCOMPARE(::kill(pid_t(fleet.agents[1]->pid()), SIGKILL), 0);
        const CliResult run = coordinator->finish(kRunMs);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("agent b: lost; its share is missing from the result (-c 2)"), run.err.constData());
        QVERIFY2(run.err.contains("agent b went away (its heartbeat expired) after its interval "), run.err.constData());
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(sourceNames(file), (QStringList { "a", "c" }));
        // Issue 29: the run says it is not whole, and names who is missing.
        QCOMPARE(file["status"].toString(), QString("failed"));
        QVERIFY2(file["failure"].toString().startsWith("agent b lost: went away"), qPrintable(file["failure"].toString()));
        const QJsonObject b = file["fleet"].toObject()["agents"].toArray().at(1).toObject();
        QCOMPARE(b["outcome"].toString(), QString("lost"));
        QVERIFY(!b["lastSeenUtc"].toString().isEmpty());
        // What b delivered before it was lost, from its streamed intervals:
        // some of its share, not all of it (six seconds).
        const QJsonObject delivered = b["delivered"].toObject();
        QVERIFY2(delivered["requests"].toInteger() > 0, qPrintable(QJsonDocument(b).toJson()));
        QVERIFY2(delivered["seconds"].toDouble() < 6, qPrintable(QJsonDocument(b).toJson()));
        QCOMPARE(b["given"].toObject()["seconds"].toDouble(), 6.0);
        QVERIFY(b["missing"].toObject()["seconds"].toDouble() > 0);
        QVERIFY(b["missing"].toObject()["requestsEstimate"].toInteger() > 0);
        QCOMPARE(b["lostAfter"].toObject()["seq"].toInteger(), b["intervals"].toObject()["lastSeq"].toInteger());
        QCOMPARE(delivered["requests"].toInteger(), b["intervals"].toObject()["requests"].toInteger());
        QVERIFY2(run.err.contains(QByteArray::number(delivered["requests"].toInteger()) + " requests delivered in "),
                 run.err.constData());
        QVERIFY2(run.err.contains("missing: ") && run.err.contains(" requests at its rate\n"), run.err.constData());
        // Its requests are in the server's count, not in the merged tests:
        // the reporting agents' plus b's streamed ones make at most that.
        QVERIFY(quint64(testRequests(file, 0) + delivered["requests"].toInteger())
                <= target.commandStatsCalls().value("set"));
        // What b sent is in the server's count but not in the run.
        QVERIFY(quint64(testRequests(file, 0)) < target.commandStatsCalls().value("set"));
        const CliResult report = runCli({ "report", json });
        QVERIFY2(report.exitCode == 0, qPrintable(describeCliResult(report)));
    }

    // The control server restarted (without persistence) mid-run: agents and
    // coordinator reconnect, reports are posted again until acknowledged,
    // nothing is lost or counted twice.
    void controlServerRestartMidRun()
    {
        Fleet fleet;
        const quint16 port = tacho::test::pickFreeLoopbackPort();
        const QString error = fleet.start({}, port);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString json = m_dir.filePath("restart.json");
        const auto coordinator = fleet.startTimedRun("6", json);
        QVERIFY(coordinator);
        const auto everyAgentStreamed = [&](int intervals) {
            return streamedBy(fleet.control(), "a") >= intervals && streamedBy(fleet.control(), "b") >= intervals
                && streamedBy(fleet.control(), "c") >= intervals;
        };
        QVERIFY(coordinator->waitUntil([&] { return everyAgentStreamed(1); }, kRunMs));
        // The coordinator paused while the agents stream on: what it has not
        // read when the restart empties the streams is posted again.
        QCOMPARE(::kill(pid_t(coordinator->pid()), SIGSTOP), 0);
        const bool streamedOn = coordinator->waitUntil([&] { return everyAgentStreamed(3); }, kRunMs);
        fleet.control().stop();
        RedisServer restarted(onPort(port));
        QString restartError;
        const bool restartedOk = restarted.start(&restartError);
        // Back once the agents are (so that it does not take them for lost).
        const bool agentsBack = restartedOk && coordinator->waitUntil([&] { return fleetAgentsOnline(restarted) == 3; }, kRunMs);
        QCOMPARE(::kill(pid_t(coordinator->pid()), SIGCONT), 0);
        QVERIFY(streamedOn);
        QVERIFY2(restartedOk, qPrintable(restartError));
        QVERIFY(agentsBack);
        const CliResult run = coordinator->finish(kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(sourceNames(file), (QStringList { "a", "b", "c" }));
        const quint64 sets = target.commandStatsCalls().value("set");
        QCOMPARE(quint64(testRequests(file, 0)), sets);
        // The intervals streamed across the restart: each seq once, none
        // lost, none counted twice — they still add up to the target's count.
        const QString streamed = checkStreamedIntervals(file, qint64(sets));
        QVERIFY2(streamed.isEmpty(), qPrintable(streamed));
    }

    // Ctrl+C on the coordinator stops every agent; the partial run is merged
    // and written, every request in it.
    void interruptStopsEveryAgent()
    {
        Fleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        RedisServer& target = fleet.target;
        const QString json = m_dir.filePath("interrupted.json");
        const auto coordinator = fleet.startTimedRun("600", json);
        QVERIFY(coordinator);
        QCOMPARE(::kill(pid_t(coordinator->pid()), SIGINT), 0);
        const CliResult run = coordinator->finish(kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QVERIFY2(run.err.contains("stopping the agents"), run.err.constData());
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(sourceNames(file), (QStringList { "a", "b", "c" }));
        QCOMPARE(quint64(testRequests(file, 0)), target.commandStatsCalls().value("set"));
        for (const QJsonValue& s : file["sources"].toArray())
            QVERIFY(s.toObject()["requests"].toInteger() > 0);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestFleetAgents)
#include "test_fleet_agents.moc"
