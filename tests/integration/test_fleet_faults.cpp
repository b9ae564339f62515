// Issue 29: the faults a fleet sees every week, each against a control
// redis-server, a target redis-server and three `tacho-cli agent` processes on
// this machine. Every case ends within a bound (a generous time limit on each
// wait: a hang fails, a slow machine only waits longer), with a run file whose
// status says what happened, and an account that adds up against the
// target's INFO commandstats: the merged requests plus each lost agent's
// delivered and sent-after requests never exceed what the target saw (nothing
// counted twice), and with its unknownAtMost they cover it.
#include <QJsonArray>
#include <QJsonDocument>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QTemporaryDir>
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

// Bounds: only a hang reaches them.
constexpr int kStartMs = 30000;
constexpr int kEndMs = 60000;

// Three agents (a, b, c) on a control server, and the target.
struct FaultFleet {
    RedisServer control;
    RedisServer target;
    std::vector<std::unique_ptr<BackgroundCli>> agents;
    QTemporaryDir scratch;

    ~FaultFleet()
    {
        // A stalled agent goes on when resumed, and ends with the fixture.
        for (const auto& agent : agents)
            if (agent->running())
                ::kill(pid_t(agent->pid()), SIGCONT);
    }

    QString uri() const { return QStringLiteral("redis://127.0.0.1:%1").arg(control.port()); }
    QString targetPort() const { return QString::number(target.port()); }
    pid_t agentPid(int index) const { return pid_t(agents[std::size_t(index)]->pid()); }
    quint64 sets() const { return target.commandStatsCalls().value("set"); }

    QString start()
    {
        QString error;
        if (!control.start(&error) || !target.start(&error))
            return error;
        return tacho::test::startFleetAgents(agents, control, uri(), { "a", "b", "c" }, {}, scratch.path(), kStartMs);
    }

    // A coordinator: SET on six connections over the three agents for
    // `seconds`, once the target sees its traffic (nullptr if never).
    std::unique_ptr<BackgroundCli> startRun(const QString& seconds, const QString& json)
    {
        auto coordinator = std::make_unique<BackgroundCli>(
            QStringList { "redis-benchmark", "-p", targetPort(), "-t", "set", "-c", "6", "--duration", seconds, "-q",
                          "--agents", "3", "--control", uri(), "--json", json });
        if (!coordinator->waitUntil([&] { return sets() > 0; }, kStartMs))
            return nullptr;
        return coordinator;
    }

    // startRun(), once agent b has streamed an interval: its share under way,
    // what it delivered known (nullptr if never).
    std::unique_ptr<BackgroundCli> runUnderWay(const QString& seconds, const QString& json)
    {
        auto coordinator = startRun(seconds, json);
        if (!coordinator || !coordinator->waitUntil([&] { return streamedBy("b") > 0; }, kStartMs))
            return nullptr;
        return coordinator;
    }

    // How many intervals `agent` has streamed (every run on this control server).
    int streamedBy(const QByteArray& agent) const
    {
        int count = 0;
        for (const auto& key : control.command({ "KEYS", "tacho:fleet:intervals:*" }).elements)
            for (const auto& entry : control.command({ "XRANGE", QString::fromUtf8(key.text), "-", "+" }).elements) {
                const auto& fields = entry.elements.size() == 2 ? entry.elements[1].elements : entry.elements;
                for (qsizetype i = 0; i + 1 < fields.size(); i += 2)
                    count += fields[i].text == "agent" && fields[i + 1].text == agent;
            }
        return count;
    }

    // The agent's presence, as it announces it (empty: none).
    QJsonObject presence(const QString& agent) const
    {
        const auto text = control.commandString({ "GET", "tacho:fleet:agent:" + agent });
        return text ? QJsonDocument::fromJson(text->toUtf8()).object() : QJsonObject();
    }
    bool idle(const QString& agent) const
    {
        const QJsonObject p = presence(agent);
        return !p.isEmpty() && p["runId"].toString().isEmpty();
    }

    // A short run on all three agents works (nothing wedged): the target's
    // count grows by exactly the 300 requests asked for.
    QString shortRunWorks()
    {
        const quint64 before = sets();
        const CliResult run = runCli({ "redis-benchmark", "-p", targetPort(), "-t", "set", "-n", "300", "-c", "3", "-q",
                                       "--agents", "3", "--control", uri() },
                                     kEndMs);
        if (run.exitCode != 0)
            return describeCliResult(run);
        if (sets() != before + 300)
            return QStringLiteral("the target saw %1 SETs, not 300").arg(sets() - before);
        return {};
    }
};

QJsonObject fleetAgent(const QJsonObject& file, const QString& name)
{
    for (const QJsonValue& agent : file["fleet"].toObject()["agents"].toArray())
        if (agent.toObject()["name"].toString() == name)
            return agent.toObject();
    return {};
}

// The account against the target's count: merged + delivered + sentAfter ≤
// seen ≤ that + unknownAtMost. Empty when it holds.
QString checkAccount(const QJsonObject& file, quint64 seen)
{
    quint64 known = 0, unknown = 0;
    for (const QJsonValue& test : file["tests"].toArray())
        known += quint64(test.toObject()["requests"].toInteger());
    const quint64 merged = known;
    for (const QJsonValue& value : file["fleet"].toObject()["agents"].toArray()) {
        const QJsonObject agent = value.toObject();
        if (agent["outcome"].toString() != "lost")
            continue;
        const QJsonObject account = agent["account"].toObject();
        if (!account["unknownAtMost"].isDouble())
            return "no bound for " + agent["name"].toString();
        known += quint64(account["delivered"].toInteger() + account["sentAfter"].toInteger());
        unknown += quint64(account["unknownAtMost"].toInteger());
    }
    // The figures, for the fault matrix.
    qInfo("target saw %llu; merged %llu, lost agents' known %llu, unknown at most %llu", seen, merged, known - merged,
          unknown);
    if (known <= seen && seen <= known + unknown)
        return {};
    return QStringLiteral("the target saw %1; merged %2, known %3, unknown at most %4").arg(seen).arg(merged).arg(known).arg(unknown);
}

QString compact(const QJsonObject& object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

} // namespace

class TestFleetFaults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // SIGKILL one agent mid-run and start it again under its name, as
    // systemd's Restart=on-failure does: the coordinator ends (the old
    // incarnation lost), the run file says so, and the restarted agent runs
    // the next line.
    void killedAgentRestartedUnderItsName()
    {
        FaultFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString json = m_dir.filePath("restarted.json");
        const auto coordinator = fleet.runUnderWay("3", json);
        QVERIFY(coordinator);
        QCOMPARE(::kill(fleet.agentPid(1), SIGKILL), 0);
        QElapsedTimer sinceFault;
        sinceFault.start();
        BackgroundCli restarted({ "agent", "--control", fleet.uri(), "--name", "b" },
                                { "TMPDIR=" + fleet.scratch.path() });
        QVERIFY(restarted.started());
        const CliResult run = coordinator->finish(kEndMs);
        qInfo("ended %lld ms after the fault", qint64(sinceFault.elapsed()));
        QVERIFY2(!run.timedOut && run.exitCode == 1, qPrintable(describeCliResult(run)));
        const quint64 seen = fleet.sets();
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["status"].toString(), QString("failed"));
        QVERIFY2(file["failure"].toString().contains("agent b lost"), qPrintable(file["failure"].toString()));
        QCOMPARE(file["fleet"].toObject()["complete"].toBool(true), false);
        const QJsonObject b = fleetAgent(file, "b");
        QCOMPARE(b["outcome"].toString(), QString("lost"));
        QVERIFY2(b["account"].toObject()["delivered"].toInteger() > 0, qPrintable(compact(b)));
        const QString account = checkAccount(file, seen);
        QVERIFY2(account.isEmpty(), qPrintable(account));
        QVERIFY2(run.err.contains("agent b: lost;") && run.err.contains("unknown: at most "), run.err.constData());
        // The new b holds the name and takes the next order.
        QVERIFY(restarted.waitUntil([&] { return fleet.idle("b"); }, kStartMs));
        const QString next = fleet.shortRunWorks();
        QVERIFY2(next.isEmpty(), qPrintable(next));
    }

    // SIGSTOP shorter than detection: the agent goes on, nothing is lost,
    // the run file holds every request the target saw.
    void briefStallLosesNothing()
    {
        FaultFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString json = m_dir.filePath("brief-stall.json");
        const auto coordinator = fleet.runUnderWay("3", json);
        QVERIFY(coordinator);
        const int aBefore = fleet.streamedBy("a");
        QCOMPARE(::kill(fleet.agentPid(1), SIGSTOP), 0);
        // About a second: until a streams its next interval.
        const bool aStreamed = coordinator->waitUntil([&] { return fleet.streamedBy("a") > aBefore; }, kStartMs);
        QCOMPARE(::kill(fleet.agentPid(1), SIGCONT), 0);
        QVERIFY(aStreamed);
        const CliResult run = coordinator->finish(kEndMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["status"].toString(), QString("completed"));
        QCOMPARE(file["fleet"].toObject()["complete"].toBool(false), true);
        qInfo("target saw %llu; merged %lld", fleet.sets(), file["tests"].toArray().at(0).toObject()["requests"].toInteger());
        QCOMPARE(quint64(file["tests"].toArray().at(0).toObject()["requests"].toInteger()), fleet.sets());
    }

    // FLUSHALL on the control server mid-run (presence, leases, streams and
    // acknowledgements gone at once): agents claim their names again, the
    // coordinator its leases, what was not acknowledged is posted again; no
    // agent is lost or stopped, nothing is counted twice.
    void controlServerFlushedMidRun()
    {
        FaultFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString json = m_dir.filePath("flushed.json");
        const auto coordinator = fleet.runUnderWay("3", json);
        QVERIFY(coordinator);
        QCOMPARE(fleet.control.command({ "FLUSHALL" }).text, QByteArray("OK"));
        const CliResult run = coordinator->finish(kEndMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["status"].toString(), QString("completed"));
        qint64 streamed = 0;
        for (const QJsonValue& agent : file["fleet"].toObject()["agents"].toArray())
            streamed += agent.toObject()["intervals"].toObject()["requests"].toInteger();
        qInfo("target saw %llu; merged %lld, streamed %lld", fleet.sets(),
              file["tests"].toArray().at(0).toObject()["requests"].toInteger(), streamed);
        QCOMPARE(quint64(file["tests"].toArray().at(0).toObject()["requests"].toInteger()), fleet.sets());
        QCOMPARE(quint64(streamed), fleet.sets());
    }

    // SIGSTOP longer than detection: lost, the run says failed and accounts
    // for it; resumed after the run, it stops, reports once and is idle again.
    void longStallIsLostAndComesBackIdle()
    {
        FaultFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString json = m_dir.filePath("long-stall.json");
        const auto coordinator = fleet.runUnderWay("2", json);
        QVERIFY(coordinator);
        QCOMPARE(::kill(fleet.agentPid(1), SIGSTOP), 0);
        QElapsedTimer sinceFault;
        sinceFault.start();
        const CliResult run = coordinator->finish(kEndMs);
        qInfo("ended %lld ms after the fault", qint64(sinceFault.elapsed()));
        const quint64 seen = fleet.sets();   // b is still stopped: it adds nothing
        QVERIFY2(!run.timedOut && run.exitCode == 1, qPrintable(describeCliResult(run)));
        QVERIFY2(run.err.contains("agent b went away (its heartbeat expired)"), run.err.constData());
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["status"].toString(), QString("failed"));
        const QJsonObject b = fleetAgent(file, "b");
        QCOMPARE(b["outcome"].toString(), QString("lost"));
        const QString account = checkAccount(file, seen);
        QVERIFY2(account.isEmpty(), qPrintable(account));
        QCOMPARE(::kill(fleet.agentPid(1), SIGCONT), 0);
        QVERIFY(fleet.agents[1]->waitUntil([&] { return fleet.idle("b"); }, kEndMs));
        const QString next = fleet.shortRunWorks();
        QVERIFY2(next.isEmpty(), qPrintable(next));
    }

    // A second agent under a live agent's name does not start, and says who
    // holds it; the run on the three is exact, no sequence number collides.
    void duplicateNameIsRefused()
    {
        FaultFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        BackgroundCli second({ "agent", "--control", fleet.uri(), "--name", "a" }, { "TMPDIR=" + fleet.scratch.path() });
        const CliResult refused = second.finish(kEndMs);
        QVERIFY2(!refused.timedOut && refused.exitCode == 2, qPrintable(describeCliResult(refused)));
        QVERIFY2(refused.err.contains("another live agent holds this name") && refused.err.contains("(host "),
                 refused.err.constData());
        const QString json = m_dir.filePath("duplicate.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", fleet.targetPort(), "-t", "set", "-n", "600", "-c", "3",
                                       "-q", "--agents", "3", "--control", fleet.uri(), "--json", json },
                                     kEndMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(fleet.sets(), quint64(600));
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["tests"].toArray().at(0).toObject()["requests"].toInteger(), 600);
        for (const QJsonValue& agent : file["fleet"].toObject()["agents"].toArray())
            QCOMPARE(agent.toObject()["intervals"].toObject()["duplicatesIgnored"].toInteger(), 0);
        // Every key the fleet leaves expires, the orders too (issue 29's footprint).
        for (const auto& key : fleet.control.command({ "KEYS", "tacho:fleet:*" }).elements)
            QVERIFY2(fleet.control.commandInteger({ "PTTL", QString::fromUtf8(key.text) }) > 0, key.text.constData());
    }

    // SIGTERM with an agent stalled: the others stop and report; a second
    // SIGTERM ends the wait at once, and the run file holds what arrived.
    void secondSigtermEndsTheWait()
    {
        FaultFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString json = m_dir.filePath("sigterm.json");
        const auto coordinator = fleet.runUnderWay("60", json);
        QVERIFY(coordinator);
        QCOMPARE(::kill(fleet.agentPid(1), SIGSTOP), 0);
        QCOMPARE(::kill(pid_t(coordinator->pid()), SIGTERM), 0);
        QElapsedTimer sinceFault;
        sinceFault.start();
        QVERIFY(coordinator->waitUntil([&] { return fleet.idle("a") && fleet.idle("c"); }, kEndMs));
        if (coordinator->running())
            ::kill(pid_t(coordinator->pid()), SIGTERM);
        const CliResult run = coordinator->finish(kEndMs);
        qInfo("ended %lld ms after the fault", qint64(sinceFault.elapsed()));
        const quint64 seen = fleet.sets();
        QVERIFY2(!run.timedOut && run.exitCode == 1, qPrintable(describeCliResult(run)));
        QVERIFY2(run.err.contains("stopping the agents"), run.err.constData());
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["status"].toString(), QString("failed"));
        QCOMPARE(fleetAgent(file, "a")["outcome"].toString(), QString("reported"));
        QCOMPARE(fleetAgent(file, "b")["outcome"].toString(), QString("lost"));
        const QString account = checkAccount(file, seen);
        QVERIFY2(account.isEmpty(), qPrintable(account));
    }

    // A coordinator killed mid-run: its agents notice its lease is gone and
    // stop, also a -l run that would otherwise load the target for ever.
    void agentsStopWhenTheirCoordinatorIsGone()
    {
        FaultFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        BackgroundCli coordinator({ "redis-benchmark", "-p", fleet.targetPort(), "-t", "set", "-n", "3000", "-c", "3",
                                    "-l", "-q", "--agents", "3", "--control", fleet.uri() });
        QVERIFY(coordinator.waitUntil([&] { return fleet.sets() > 0 && !fleet.idle("a"); }, kStartMs));
        QCOMPARE(::kill(pid_t(coordinator.pid()), SIGKILL), 0);
        QElapsedTimer sinceFault;
        sinceFault.start();
        QVERIFY(fleet.agents[0]->waitUntil(
            [&] { return fleet.idle("a") && fleet.idle("b") && fleet.idle("c"); }, kEndMs));
        qInfo("agents idle %lld ms after their coordinator was killed", qint64(sinceFault.elapsed()));
        // Idle means their runs ended: the next line runs exactly.
        const QString next = fleet.shortRunWorks();
        QVERIFY2(next.isEmpty(), qPrintable(next));
    }

    // Two coordinators: the second is refused, naming the run that holds the
    // agents; the first's run is exact.
    void secondCoordinatorIsRefused()
    {
        FaultFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString json = m_dir.filePath("first.json");
        const auto first = fleet.startRun("60", json);
        QVERIFY(first);
        const CliResult second = runCli({ "redis-benchmark", "-p", fleet.targetPort(), "-t", "get", "-n", "100",
                                          "--agents", "1", "--control", fleet.uri() },
                                        kEndMs);
        QVERIFY2(second.exitCode == 2, qPrintable(describeCliResult(second)));
        QVERIFY2(second.err.contains("is used by run ") && second.err.contains("(coordinator on "),
                 second.err.constData());
        QCOMPARE(::kill(pid_t(first->pid()), SIGINT), 0);
        const CliResult run = first->finish(kEndMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(fleet.target.commandStatsCalls().value("get"), quint64(0));
        QCOMPARE(quint64(readRunFileJson(json)["tests"].toArray().at(0).toObject()["requests"].toInteger()),
                 fleet.sets());
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestFleetFaults)
#include "test_fleet_faults.moc"
