// The capability model (engine/run/target_capabilities.h) against real
// redis-server processes shaped like managed services (issue 16): an ACL
// user limited to +@read +@write -@admin -info -config -client, and a server
// with INFO and CONFIG renamed away. Runs complete, the run file records what
// the target refused with the server's own words, the skipped checks are
// named, and the server's own counts (read as an admin, or from the data)
// equal what was sent.
#include <QtTest>

#include "engine/net/sync_client.h"
#include "engine/run/connection_check.h"
#include "engine/run/target_capabilities.h"
#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "support/run_file_json.h"
#include "support/run_config_for.h"

using namespace tacho::engine;
using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::readRunFileJson;
using tacho::test::RedisServer;
using tacho::test::runCli;

using tacho::test::runConfigFor;

namespace {

// The run file's environment.capabilities as probe → {verdict, reply}.
QMap<QString, QPair<QString, QString>> capabilitiesIn(const QString& runFile)
{
    QMap<QString, QPair<QString, QString>> out;
    const QJsonArray list = readRunFileJson(runFile).value("environment").toObject().value("capabilities").toArray();
    for (const QJsonValue& item : list) {
        const QJsonObject o = item.toObject();
        out.insert(o.value("probe").toString(), { o.value("verdict").toString(), o.value("reply").toString() });
    }
    return out;
}

QString both(const CliResult& r) { return QString::fromUtf8(r.out + r.err); }

const char* const kManagedUser = "bench";
const char* const kManagedPassword = "bench-pw";

} // namespace

class TestTargetCapabilities : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        // A managed service's shape: data commands only (the ACL).
        QVERIFY(!m_server
                     .command({ "ACL", "SETUSER", kManagedUser, "on", QString(">") + kManagedPassword, "~*", "+@read",
                                "+@write", "-@admin", "-info", "-config", "-client" })
                     .isError());
    }

    void init() { QVERIFY(!m_server.command({ "FLUSHALL" }).isError()); }

    // A plain server allows everything a run asks, and each probe is
    // recorded once, in order, INFO server first.
    void plainServerAllowsEverything()
    {
        SyncClient client;
        std::string error;
        const RunConfig config = runConfigFor(m_server);
        QVERIFY2(client.open(config, &error), error.c_str());
        Environment environment;
        QVERIFY2(probeTarget(client, config, environment, &error), error.c_str());
        QVERIFY(!environment.capabilities.empty());
        QCOMPARE(QString::fromStdString(environment.capabilities.front().probe), QString("INFO server"));
        // PING only when INFO goes unanswered: a run adds no PING to the
        // server's counts (redis-benchmark's own suite counts its PINGs).
        QVERIFY(!findCapability(environment.capabilities, "PING"));
        for (const char* probe : { "INFO server", "INFO replication", "CONFIG GET", "CLIENT ID", "HELLO 3", "SELECT",
                                   "CLUSTER INFO" }) {
            const Capability* capability = findCapability(environment.capabilities, probe);
            QVERIFY2(capability, probe);
            QVERIFY2(capability->verdict == CapabilityVerdict::Allowed,
                     qPrintable(QString("%1: %2").arg(probe, QString::fromStdString(describeRefusal(*capability)))));
        }
        QCOMPARE(QString::fromStdString(environment.serverInfo.at("redis_version")),
                 m_server.info("server").value("redis_version"));
        QVERIFY(environmentNotices(environment.capabilities).empty());
        // The control connection is left open and on RESP2 (HELLO 3 was undone).
        QVERIFY(client.isOpen());
        const auto reply = client.command({ "INFO", "server" }, &error);
        QVERIFY2(reply && reply->type == ReplyType::BulkString, error.c_str());
    }

    // The ACL user: the run completes, the server's own counts (read
    // as admin) are exactly what was sent, the run file names each refusal
    // with the server's text, and the summary says the counts were not
    // checked, and why — not that they disagree.
    void aclUserOfAManagedService()
    {
        QTemporaryDir dir;
        const QString runFile = dir.filePath("run.json");
        const auto before = m_server.commandStatsCalls();
        const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(m_server.port()), "--user", kManagedUser,
                                     "-a", kManagedPassword, "-t", "set,get", "-n", "200", "-c", "2", "-P", "4",
                                     "--json", runFile },
                                   120000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const auto after = m_server.commandStatsCalls();
        QCOMPARE(after.value("set") - before.value("set"), quint64(200));
        QCOMPARE(after.value("get") - before.value("get"), quint64(200));

        const auto capabilities = capabilitiesIn(runFile);
        for (const char* probe : { "INFO server", "CONFIG GET", "CLIENT ID" }) {
            QVERIFY2(capabilities.contains(probe), probe);
            QCOMPARE(capabilities.value(probe).first, QString("refused"));
            QVERIFY2(capabilities.value(probe).second.startsWith("NOPERM"), qPrintable(capabilities.value(probe).second));
        }
        QVERIFY2(both(r).contains("server cross-check: not checked (the server refused INFO server: NOPERM"),
                 qPrintable(describeCliResult(r)));
        QVERIFY2(!both(r).contains("MISMATCH"), qPrintable(describeCliResult(r)));
        QVERIFY2(r.err.contains("environment: server details not recorded (the server refused INFO server: NOPERM"),
                 qPrintable(describeCliResult(r)));
        // Said once, not per test.
        QCOMPARE(r.err.count("environment: server details not recorded"), 1);

        // The run file reads back, reason and all.
        const CliResult report = runCli({ "report", runFile });
        QVERIFY2(report.exitCode == 0, qPrintable(describeCliResult(report)));
        QVERIFY2(report.out.contains("not checked (the server refused INFO server"), qPrintable(describeCliResult(report)));
    }

    // The memtier form through the same user: every request reaches the server.
    void aclUserMemtierForm()
    {
        const auto before = m_server.commandStatsCalls();
        const CliResult r = runCli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(m_server.port()), "-a",
                                     QString(kManagedUser) + ":" + kManagedPassword, "-t", "1", "-c", "2", "-n", "100",
                                     "--ratio", "1:1", "--hide-histogram" },
                                   120000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const auto after = m_server.commandStatsCalls();
        QCOMPARE(after.value("set") + after.value("get") - before.value("set") - before.value("get"), quint64(200));
        QVERIFY2(both(r).contains("not checked (the server refused INFO server: NOPERM"),
                 qPrintable(describeCliResult(r)));
    }

    // "Test connection" with that user: ok, with notes naming what is refused.
    void aclUserConnectionCheck()
    {
        RunConfig config = runConfigFor(m_server);
        config.user = kManagedUser;
        config.password = kManagedPassword;
        const ConnectionReport report = checkConnection(config);
        QVERIFY2(report.ok, report.error.c_str());
        QCOMPARE(report.serverType, std::string("unknown"));
        QString notes;
        for (const std::string& note : report.notes)
            notes += QString::fromStdString(note) + "\n";
        QVERIFY2(notes.contains("INFO refused: the server refused INFO server: NOPERM"), qPrintable(notes));
        QVERIFY2(notes.contains("not allowed here: ") && notes.contains("CONFIG GET") && notes.contains("CLIENT ID"),
                 qPrintable(notes));
        // +@read +@write has no PING: no round-trip time, said as a note.
        QVERIFY2(notes.contains("no round-trip time: the server refused PING: NOPERM"), qPrintable(notes));
    }

    // INFO and CONFIG renamed away (rename-command INFO ""): the run
    // completes, the counts are read from the data instead (INCR of one key).
    void renamedInfoAndConfig()
    {
        RedisServer::Options options;
        options.extraArgs = QStringList { "--rename-command", "INFO", "", "--rename-command", "CONFIG", "" };
        RedisServer renamed(options);
        QString error;
        QVERIFY2(renamed.start(&error), qPrintable(error));
        QTemporaryDir dir;
        const QString runFile = dir.filePath("run.json");
        const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(renamed.port()), "-t", "incr", "-n", "300",
                                     "-c", "3", "--json", runFile },
                                   120000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QCOMPARE(renamed.commandString({ "GET", "counter:__rand_int__" }), std::optional<QString>("300"));
        const auto capabilities = capabilitiesIn(runFile);
        for (const char* probe : { "INFO server", "CONFIG GET" }) {
            QCOMPARE(capabilities.value(probe).first, QString("refused"));
            QVERIFY2(capabilities.value(probe).second.startsWith("ERR unknown command"),
                     qPrintable(capabilities.value(probe).second));
        }
        QVERIFY2(both(r).contains("server cross-check: not checked (the server refused INFO server: ERR unknown command"),
                 qPrintable(describeCliResult(r)));
    }

private:
    RedisServer m_server;
};

QTEST_GUILESS_MAIN(TestTargetCapabilities)
#include "test_target_capabilities.moc"
