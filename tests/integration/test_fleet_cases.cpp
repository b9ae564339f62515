// Issue 29, the cases of the fault matrix that are about what a run on agents
// carries and says, each against a control redis-server, real targets and
// `tacho-cli agent` processes on this machine, checked against what the
// targets saw (INFO commandstats, the bytes a key holds):
// - a target password with ':' reaches AUTH whole from memtier orders;
// - -x bytes that are not UTF-8 (0x00–0xFF) arrive byte for byte;
// - --csv and -q print what one machine prints, the fleet's lines apart;
// - agents that reach different servers (each machine's own at one address)
//   make a failed run that says so, not one server's figures.
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

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
constexpr int kRunMs = 60000;

using tacho::test::fleetControlUri;

// A control server, a target and agents a and b.
struct TwoAgents {
    RedisServer control;
    RedisServer target;
    std::vector<std::unique_ptr<BackgroundCli>> agents;
    QTemporaryDir scratch;   // the agents' TMPDIR

    QString uri() const { return fleetControlUri(control); }
    QString targetPort() const { return QString::number(target.port()); }
    // `beforeAgents` runs once the target is up (say, to set its password).
    QString start(const QStringList& environment = {}, const std::function<void()>& beforeAgents = {})
    {
        QString error;
        if (!control.start(&error) || !target.start(&error))
            return error;
        if (beforeAgents)
            beforeAgents();
        return tacho::test::startFleetAgents(agents, control, uri(), { "a", "b" }, environment, scratch.path(),
                                             kStartMs);
    }
};

// One field of an INFO commandstats line ("calls=4,usec=…,failed_calls=0").
quint64 commandStat(const RedisServer& server, const QString& command, const QString& field)
{
    const QString line = server.info("commandstats").value("cmdstat_" + command);
    for (const QString& part : line.split(','))
        if (part.startsWith(field + "="))
            return part.mid(field.size() + 1).toULongLong();
    return 0;
}

QList<QByteArray> nonEmptyLines(const QByteArray& text)
{
    QList<QByteArray> lines;
    for (const QByteArray& line : text.split('\n'))
        if (!line.trimmed().isEmpty())
            lines << line;
    return lines;
}

} // namespace

class TestFleetCases : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // memtier's dialect reads --authenticate=USER:PASSWORD at the first
    // colon: the agent's password with colons in it must still reach AUTH
    // whole, on every connection, and the run counts what the target saw.
    void passwordWithColonsReachesAuthWhole()
    {
        const QString password = QStringLiteral("pw:with:two-colons");
        TwoAgents fleet;
        QString error = fleet.start({ "REDISCLI_AUTH=" + password, "TACHO_AGENT_TARGETS=127.0.0.1:*" }, [&] {
            fleet.target.command({ "CONFIG", "SET", "requirepass", password });
            fleet.target.setAuth(password);
        });
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const CliResult run = runCli({ "memtier", "-s", "127.0.0.1", "-p", fleet.targetPort(), "--ratio=1:0",
                                       "--requests=150", "--threads=2", "--clients=1", "--hide-histogram",
                                       "--agents", "2", "--control", fleet.uri() },
                                     kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(fleet.target.commandStatsCalls().value("set"), quint64(300));
        // Each agent's connection authenticated, none with a password cut at a colon.
        QVERIFY(commandStat(fleet.target, "auth", "calls") >= 2);
        QCOMPARE(commandStat(fleet.target, "auth", "failed_calls"), quint64(0));
        QVERIFY(!run.out.contains(password.toUtf8()) && !run.err.contains(password.toUtf8()));
    }

    // -x's bytes travel in the order (JSON text): every byte 0x00–0xFF must
    // arrive as it left, so the key the command set holds exactly them.
    void binaryStandardInputArrivesByteForByte()
    {
        TwoAgents fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QByteArray bytes;
        for (int b = 0; b < 256; ++b)
            bytes.append(char(b));
        QTemporaryDir dir;
        const QString json = dir.filePath("run.json");
        const CliResult run = runCli({ "redis-benchmark", "-p", fleet.targetPort(), "-n", "20", "-c", "2", "-q",
                                       "--agents", "2", "--control", fleet.uri(), "--json", json, "-x", "set",
                                       "tacho:fleet-binary" },
                                     kRunMs, bytes);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(fleet.target.commandStatsCalls().value("set"), quint64(20));
        const auto stored = fleet.target.commandBytes({ "GET", "tacho:fleet-binary" });
        QCOMPARE(stored.text.size(), 256);
        QCOMPARE(stored.text, bytes);

        // One server: every agent recorded its run_id, the run is one server's.
        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["status"].toString(), QStringLiteral("completed"));
        const QJsonObject section = file["fleet"].toObject();
        QCOMPARE(section["oneServer"].toBool(false), true);
        const QString runId = fleet.target.info("server").value("run_id");
        QVERIFY(!runId.isEmpty());
        for (const QJsonValue& agent : section["agents"].toArray())
            QCOMPARE(agent.toObject()["serverRunId"].toString(), runId);
    }

    // --csv and -q on agents: standard output is what the same line prints
    // on this machine (the same rows, header and row names); who ran it
    // and each agent's count go to standard error. Not the lines after -q's
    // rows: the commandstats cross-check and the bottleneck verdict are not
    // known for a merged run (each agent's INFO window saw the others).
    void csvAndQuietPrintWhatOneMachinePrints()
    {
        TwoAgents fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList fleetOptions { "--agents", "2", "--control", fleet.uri() };
        for (const QString& style : { QStringLiteral("--csv"), QStringLiteral("-q") }) {
            const QStringList line { "redis-benchmark", "-p", fleet.targetPort(), "-t", "set,get", "-n", "200", "-c",
                                     "2", style };
            const CliResult here = runCli(line, kRunMs);
            const CliResult onAgents = runCli(QStringList(line) << fleetOptions, kRunMs);
            QVERIFY2(here.exitCode == 0, qPrintable(describeCliResult(here)));
            QVERIFY2(onAgents.exitCode == 0, qPrintable(describeCliResult(onAgents)));
            QList<QByteArray> mine = nonEmptyLines(here.out);
            const QList<QByteArray> theirs = nonEmptyLines(onAgents.out);
            if (style == "-q")
                mine.removeIf([](const QByteArray& l) { return !l.contains(" requests per second"); });
            QCOMPARE(mine.size(), style == "--csv" ? 3 : 2);   // SET and GET (and the CSV header)
            QVERIFY2(mine.size() == theirs.size(), (here.out + "\n--- on agents:\n" + onAgents.out).constData());
            for (qsizetype i = 0; i < mine.size(); ++i) {
                // The figures differ; the shape does not: the first cell (or "SET:") and the cell count.
                const char separator = style == "--csv" ? ',' : ':';
                QCOMPARE(theirs[i].split(separator).first(), mine[i].split(separator).first());
                if (style == "--csv")
                    QCOMPARE(theirs[i].count(','), mine[i].count(','));
            }
            if (style == "--csv")
                QCOMPARE(theirs.first(), mine.first());   // the header
            QVERIFY2(onAgents.err.contains("Running on 2 agents (a, b)"), onAgents.err.constData());
            QVERIFY2(onAgents.err.contains("agent a: 200 requests"), onAgents.err.constData());
        }
        // Each line ran once here and once on the agents.
        QCOMPARE(fleet.target.commandStatsCalls().value("set"), quint64(4 * 200));
        QCOMPARE(fleet.target.commandStatsCalls().value("get"), quint64(4 * 200));
    }

    // The same address reaching a different server on each machine (as
    // `-h 127.0.0.1` does on agents on other machines): here a relative
    // Unix socket path, which each agent resolves in its own working
    // directory, each a different redis-server's. Every agent records its
    // server's run_id; the coordinator compares them, and the merged run is
    // failed, saying which agent measured which server.
    void agentsReachingDifferentServersAreNotOneRun()
    {
        RedisServer::Options withSocket;
        withSocket.unixSocket = true;
        RedisServer control, first(withSocket), second(withSocket);
        QString error;
        QVERIFY2(control.start(&error) && first.start(&error) && second.start(&error), qPrintable(error));
        QCOMPARE(QFileInfo(first.unixSocketPath()).fileName(), QFileInfo(second.unixSocketPath()).fileName());
        tacho::test::holdTestFleetKey();
        QTemporaryDir scratch;
        std::vector<std::unique_ptr<BackgroundCli>> agents;
        const QString here = QDir::currentPath();
        // A child starts in the working directory its parent has then.
        for (const auto& [name, server] : { std::pair { "a", &first }, std::pair { "b", &second } }) {
            QVERIFY(QDir::setCurrent(QFileInfo(server->unixSocketPath()).absolutePath()));
            agents.push_back(std::make_unique<BackgroundCli>(
                QStringList { "agent", "--control", fleetControlUri(control), "--name", name },
                QStringList { "TMPDIR=" + scratch.path() }));
        }
        QVERIFY(QDir::setCurrent(here));
        QVERIFY(agents.front()->waitUntil([&] { return tacho::test::fleetAgentsOnline(control) == 2; }, kStartMs));

        QTemporaryDir dir;
        const QString json = dir.filePath("run.json");
        const CliResult run = runCli({ "redis-benchmark", "-s", QFileInfo(first.unixSocketPath()).fileName(), "-t",
                                       "set", "-n", "200", "-c", "2", "-q", "--agents", "2", "--control",
                                       fleetControlUri(control), "--json", json },
                                     kRunMs);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("the agents measured different servers"), qPrintable(describeCliResult(run)));
        // Each agent loaded its own server, with its whole share.
        QCOMPARE(first.commandStatsCalls().value("set"), quint64(100));
        QCOMPARE(second.commandStatsCalls().value("set"), quint64(100));

        const QJsonObject file = readRunFileJson(json);
        QCOMPARE(file["status"].toString(), QStringLiteral("failed"));
        const QString failure = file["failure"].toString();
        QVERIFY2(failure.contains("not one server's"), qPrintable(failure));
        const QString firstId = first.info("server").value("run_id"), secondId = second.info("server").value("run_id");
        QVERIFY(!firstId.isEmpty() && firstId != secondId);
        QVERIFY2(failure.contains("run_id " + firstId + ": a") && failure.contains("run_id " + secondId + ": b"),
                 qPrintable(failure));
        const QJsonObject section = file["fleet"].toObject();
        QCOMPARE(section["oneServer"].toBool(true), false);
        QMap<QString, QString> recorded;
        for (const QJsonValue& agent : section["agents"].toArray())
            recorded[agent.toObject()["name"].toString()] = agent.toObject()["serverRunId"].toString();
        QCOMPARE(recorded.value("a"), firstId);
        QCOMPARE(recorded.value("b"), secondId);
    }
};

QTEST_GUILESS_MAIN(TestFleetCases)
#include "test_fleet_cases.moc"
