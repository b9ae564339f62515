// Issue 21: the control server secured as users run it. Over TLS (rediss://,
// the control server's CA trusted through SSL_CERT_FILE as OpenSSL reads it),
// and as an ACL user whose password is in the URL: three agents and a
// coordinator make one run whose counts the target's commandstats confirm,
// the control server saw that user's commands, and the password shows
// neither in the agents' argv (what `ps` reads) nor in anything they print.
//
// Issue 29: what write access to the control server no longer buys. Orders
// signed with another key, unsigned, replayed, naming a target outside the
// agent's TACHO_AGENT_TARGETS, or asking for files on the agent are refused
// before any connection, reported so the coordinator ends at once, and the
// target (or a listener of the test's own) sees nothing of them.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <memory>
#include <vector>

#include "engine/fleet/fleet_key.h"
#include "engine/fleet/fleet_protocol.h"
#include "support/background_cli.h"
#include "support/cli_runner.h"
#include "support/fleet_agents.h"
#include "support/redis_server.h"
#include "support/tls_certificates.h"

using tacho::test::BackgroundCli;
using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::describeCliResult;
using tacho::test::runCli;

namespace {

constexpr int kAgentStartMs = 30000;
constexpr int kRunMs = 90000;   // hang guards, not speed checks

// Three agents on `controlUri`, once all three have announced themselves.
std::vector<std::unique_ptr<BackgroundCli>> startAgents(RedisServer& control, const QString& controlUri,
                                                        const QStringList& environment, QString* error)
{
    static QTemporaryDir scratch;   // the agents' TMPDIR: nothing of theirs is left in the system's
    std::vector<std::unique_ptr<BackgroundCli>> agents;
    *error = tacho::test::startFleetAgents(agents, control, controlUri, { "a", "b", "c" }, environment, scratch.path(),
                                           kAgentStartMs);
    return agents;
}

// The default user, which the fixture's helpers use, behind a password:
// the fleet's users are the only way in for anyone else.
const QString kAdminPassword = QStringLiteral("admin-pw");
RedisServer::Options withAdminPassword()
{
    RedisServer::Options options;
    options.password = kAdminPassword;
    return options;
}

// Every string in a reply, depth first (for messages).
QByteArray allStrings(const tacho::test::RedisReply& reply)
{
    QByteArray text = reply.text;
    for (const auto& element : reply.elements)
        text += " " + allStrings(element);
    return text;
}

const QString kTargetPassword = QStringLiteral("target-Secret-2929");

// A TCP listener on 127.0.0.1 that answers nothing: what reaches it, counted
// after the fact without blocking (a connection attempt waits in its backlog).
class SilentListener {
public:
    SilentListener()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t size = sizeof address;
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr*>(&address), size) != 0 || ::listen(m_fd, 16) != 0
            || ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&address), &size) != 0)
            return;
        m_port = ntohs(address.sin_port);
    }
    ~SilentListener()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    SilentListener(const SilentListener&) = delete;
    SilentListener& operator=(const SilentListener&) = delete;

    quint16 port() const { return m_port; }
    // The connections waiting and every byte they sent so far (at most 100 connections).
    QByteArray received(int* connections)
    {
        QByteArray bytes;
        *connections = 0;
        for (int i = 0; i < 100; ++i) {
            const int client = ::accept4(m_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (client < 0)
                break;
            ++*connections;
            char buffer[4096];
            for (ssize_t n; (n = ::recv(client, buffer, sizeof buffer, 0)) > 0;)
                bytes.append(buffer, qsizetype(n));
            ::close(client);
        }
        return bytes;
    }

private:
    int m_fd = -1;
    quint16 m_port = 0;
};

// The control server's clock, in ms, as agents read it.
qint64 serverTimeMs(const RedisServer& control)
{
    const auto time = control.command({ "TIME" });
    return time.elements.size() == 2 ? time.elements[0].text.toLongLong() * 1000 + time.elements[1].text.toLongLong() / 1000
                                     : 0;
}

// An order as a coordinator holding `key` posts it (the test forges what a
// coordinator never sends): for `agent`, issued now, starting 1.5 s later.
void postSignedOrder(const RedisServer& control, const QString& agent, const QString& runId, const QString& dialect,
                     const QStringList& args, const char* key = tacho::test::kTestFleetKey)
{
    tacho::engine::FleetOrder order;
    order.runId = runId.toStdString();
    order.agent = agent.toStdString();
    order.dialect = dialect.toStdString();
    for (const QString& a : args)
        order.args.push_back(a.toStdString());
    order.issuedAtMs = serverTimeMs(control);
    order.startAtMs = order.issuedAtMs + 1500;
    order.nonce = (runId + agent).toStdString();
    const std::string json = tacho::engine::orderToJson(order);
    const std::string mac = tacho::engine::FleetKey(key).sign(tacho::engine::kOrderSignatureContext, json);
    control.command({ "XADD", "tacho:fleet:orders:" + agent, "*", "order", QString::fromStdString(json), "mac",
                      QString::fromStdString(mac) });
}

// The fields of the first report of `kind` in the run's results stream,
// polled for at most timeoutMs (a hang guard); empty when none came.
QMap<QByteArray, QByteArray> waitForReport(const RedisServer& control, const QString& runId, const QByteArray& kind,
                                           int timeoutMs)
{
    for (int waited = 0; waited <= timeoutMs; waited += 100) {
        for (const auto& entry : control.command({ "XRANGE", "tacho:fleet:results:" + runId, "-", "+" }).elements) {
            QMap<QByteArray, QByteArray> fields;
            const auto& list = entry.elements.value(1).elements;
            for (qsizetype i = 0; i + 1 < list.size(); i += 2)
                fields[list[i].text] = list[i + 1].text;
            if (fields.value("kind") == kind)
                return fields;
        }
        QThread::msleep(100);
    }
    return {};
}

// A control server, a target that wants kTargetPassword, and agents a, b, c
// holding it, allowed that target only.
struct GuardedFleet {
    RedisServer control;
    RedisServer target;
    std::vector<std::unique_ptr<BackgroundCli>> agents;

    QString uri() const { return QStringLiteral("redis://127.0.0.1:%1").arg(control.port()); }
    QString targetPort() const { return QString::number(target.port()); }
    QString start()
    {
        QString error;
        if (!control.start(&error) || !target.start(&error))
            return error;
        target.command({ "CONFIG", "SET", "requirepass", kTargetPassword });
        target.setAuth(kTargetPassword);
        agents = startAgents(control, uri(),
                             { "REDISCLI_AUTH=" + kTargetPassword, "TACHO_AGENT_TARGETS=127.0.0.1:" + targetPort() },
                             &error);
        return error;
    }
    // Stops every agent (SIGINT, by its PID) and returns what they printed.
    QByteArray stopAgents()
    {
        QByteArray printed;
        for (const auto& agent : agents) {
            ::kill(pid_t(agent->pid()), SIGINT);
            const CliResult r = agent->finish(kRunMs);
            printed += r.out + r.err;
        }
        return printed;
    }
};

} // namespace

class TestFleetControlSecurity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void controlServerOverTls()
    {
        tacho::test::TlsCertificates certificates;
        QString error;
        QVERIFY2(certificates.generate(&error), qPrintable(error));
        RedisServer::Options options;
        options.tls = RedisServer::TlsOptions::from(certificates);
        RedisServer control(options);
        RedisServer target;
        QVERIFY2(control.start(&error) && target.start(&error), qPrintable(error));
        // Only the TLS port is given: nothing but a TLS session can reach the control server there.
        const QString uri = QStringLiteral("rediss://127.0.0.1:%1").arg(control.tlsPort());
        const QStringList trustTheCa { "SSL_CERT_FILE=" + certificates.caCert() };
        auto agents = startAgents(control, uri, trustTheCa, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(target.port()), "-t", "set", "-n",
                                       "900", "-c", "3", "-q", "--agents", "3", "--control", uri },
                                     kRunMs, {}, trustTheCa);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QVERIFY2(run.err.contains("Running on 3 agents (a, b, c)"), run.err.constData());
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(900));
        QVERIFY(control.commandStatsCalls().value("xadd") >= 6);   // three orders, three reports

        // Without the CA the coordinator refuses the control server, and says why.
        const CliResult untrusted = runCli({ "redis-benchmark", "-p", QString::number(target.port()), "-t", "set",
                                             "-n", "30", "-q", "--agents", "3", "--control", uri },
                                           kRunMs);
        QCOMPARE(untrusted.exitCode, 1);
        QVERIFY2(untrusted.err.contains("certificate"), qPrintable(describeCliResult(untrusted)));
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(900));
    }

    void controlServerAsAnAclUser()
    {
        const QString secret = QStringLiteral("ctl-Secret-0815");
        RedisServer control(withAdminPassword());
        RedisServer target;
        QString error;
        QVERIFY2(control.start(&error) && target.start(&error), qPrintable(error));
        // Only the fleet's keys, and no administration.
        QCOMPARE(control.command({ "ACL", "SETUSER", "fleet", "on", ">" + secret, "~tacho:fleet:*", "+@all",
                                   "-@admin" }).text,
                 QByteArray("OK"));
        const QString uri = QStringLiteral("redis://fleet:%1@127.0.0.1:%2").arg(secret).arg(control.port());
        auto agents = startAgents(control, uri, {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));

        BackgroundCli coordinator({ "redis-benchmark", "-p", QString::number(target.port()), "-t", "set", "-n",
                                    "600", "-c", "3", "-q", "--agents", "3", "--control", uri });
        QVERIFY(coordinator.started());
        QVERIFY(coordinator.waitUntil([&] { return target.commandStatsCalls().value("set") > 0; }, kRunMs));
        // What `ps` shows of each process while the run goes on.
        for (const auto& agent : agents)
            QVERIFY2(!tacho::test::processCommandLine(agent->pid()).contains(secret.toUtf8()), tacho::test::processCommandLine(agent->pid()).constData());
        const QByteArray coordinatorLine = tacho::test::processCommandLine(coordinator.pid());
        const CliResult run = coordinator.finish(kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QVERIFY2(!coordinatorLine.contains(secret.toUtf8()), coordinatorLine.constData());
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(600));

        // The fleet worked as that user, and nothing it sent was denied.
        QCOMPARE(control.command({ "ACL", "LOG" }).elements.size(), 0);
        const QByteArray clients = control.command({ "CLIENT", "LIST" }).text;
        QVERIFY2(clients.count("user=fleet") >= 3, clients.constData());   // the three agents, still waiting
        QVERIFY(control.commandStatsCalls().value("xadd") >= 6);
        QVERIFY(!run.out.contains(secret.toUtf8()) && !run.err.contains(secret.toUtf8()));
    }

    // Issue 29: the control server's ACL for agents and coordinators as the
    // man page gives it (tacho-cli(1), "agent"): a whole run works with
    // those rights and nothing it sends is denied; an agent's user cannot
    // post an order, nor a coordinator's read anything but the fleet's keys.
    void documentedAclsSuffice()
    {
        RedisServer control(withAdminPassword());
        RedisServer target;
        QString error;
        QVERIFY2(control.start(&error) && target.start(&error), qPrintable(error));
        const QStringList agentRights { "ACL", "SETUSER", "tacho-agent", "on", ">agent-pw", "resetkeys", "-@all",
                                        "+ping", "+time", "+get", "+set", "+del", "+exists", "+expire", "+xadd",
                                        "+xread", "+xrevrange", "~tacho:fleet:agent:*", "~tacho:fleet:results:*",
                                        "~tacho:fleet:intervals:*", "%R~tacho:fleet:orders:*", "%R~tacho:fleet:stop:*",
                                        "%R~tacho:fleet:ack:*", "%R~tacho:fleet:intervals-ack:*",
                                        "%R~tacho:fleet:lease:*" };
        const QStringList coordinatorRights { "ACL", "SETUSER", "tacho-coordinator", "on", ">coordinator-pw",
                                              "resetkeys", "-@all", "+ping", "+time", "+scan", "+get", "+set",
                                              "+del", "+expire", "+xadd", "+xread", "%R~tacho:fleet:agent:*",
                                              "~tacho:fleet:orders:*", "%R~tacho:fleet:results:*",
                                              "%R~tacho:fleet:intervals:*", "~tacho:fleet:stop:*", "~tacho:fleet:ack:*",
                                              "~tacho:fleet:intervals-ack:*", "~tacho:fleet:lease:*" };
        QCOMPARE(control.command(agentRights).text, QByteArray("OK"));
        QCOMPARE(control.command(coordinatorRights).text, QByteArray("OK"));
        const QString port = QString::number(control.port());
        auto agents = startAgents(control, "redis://tacho-agent:agent-pw@127.0.0.1:" + port, {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const CliResult run = runCli({ "memtier", "-s", "127.0.0.1", "-p", QString::number(target.port()),
                                       "--ratio=1:0", "--requests=200", "--threads=3", "--clients=1", "--agents", "3",
                                       "--control", "redis://tacho-coordinator:coordinator-pw@127.0.0.1:" + port },
                                     kRunMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeCliResult(run)));
        QCOMPARE(target.commandStatsCalls().value("set"), quint64(600));
        const auto denied = control.command({ "ACL", "LOG" });
        QVERIFY2(denied.elements.isEmpty(), qPrintable(QString::fromUtf8(allStrings(denied))));

        // What the rights keep apart.
        const auto tryAs = [&](const QString& user, const QString& password, const QStringList& command) {
            control.setAuth(password, user);
            const auto reply = control.command(command);
            control.setAuth(kAdminPassword);
            return reply;
        };
        QVERIFY(tryAs("tacho-agent", "agent-pw", { "XADD", "tacho:fleet:orders:a", "*", "order", "{}" }).isError());
        QVERIFY(tryAs("tacho-agent", "agent-pw", { "SET", "tacho:fleet:stop:x", "1" }).isError());
        // Nor take an agent away from its coordinator (issue 29: the lease is the coordinator's).
        QVERIFY(tryAs("tacho-agent", "agent-pw", { "SET", "tacho:fleet:lease:a", "x" }).isError());
        QVERIFY(tryAs("tacho-coordinator", "coordinator-pw", { "GET", "elsewhere" }).isError());
        QVERIFY(!tryAs("tacho-coordinator", "coordinator-pw", { "GET", "tacho:fleet:agent:a" }).isError());
    }

    // Issue 29: an agent without a fleet key does not start (unless told to
    // run anyone's orders, and then never with a password), nor one that
    // holds a password without a list of targets to send it to.
    void agentsRefuseToStartUnguarded()
    {
        const QStringList agent { "agent", "--control", "redis://127.0.0.1:1", "--name", "a" };
        const CliResult noKey = runCli(agent, kRunMs, {}, { "TACHO_FLEET_KEY=" });
        QCOMPARE(noKey.exitCode, 2);
        QVERIFY2(noKey.err.contains("no fleet key"), noKey.err.constData());
        const CliResult insecureWithPassword = runCli(QStringList(agent) << "--insecure-orders", kRunMs, {},
                                                      { "TACHO_FLEET_KEY=", "REDISCLI_AUTH=" + kTargetPassword });
        QCOMPARE(insecureWithPassword.exitCode, 2);
        QVERIFY2(insecureWithPassword.err.contains("REDISCLI_AUTH"), insecureWithPassword.err.constData());
        const CliResult noTargets = runCli(agent, kRunMs, {},
                                           { QStringLiteral("TACHO_FLEET_KEY=") + tacho::test::kTestFleetKey,
                                             "REDISCLI_AUTH=" + kTargetPassword, "TACHO_AGENT_TARGETS=" });
        QCOMPARE(noTargets.exitCode, 2);
        QVERIFY2(noTargets.err.contains("TACHO_AGENT_TARGETS"), noTargets.err.constData());
        const CliResult shortKey = runCli(agent, kRunMs, {}, { "TACHO_FLEET_KEY=abc" });
        QCOMPARE(shortKey.exitCode, 2);
        for (const CliResult* r : { &noKey, &insecureWithPassword, &noTargets, &shortKey })
            QVERIFY(!r->err.contains(kTargetPassword.toUtf8()) && !r->err.contains("=abc"));
    }

    // Orders signed with another key, unsigned or replayed are refused; the
    // coordinator ends on the refusal with the agent's reason, and the
    // target saw no request of theirs. The right key still runs.
    void forgedUnsignedAndReplayedOrdersAreRefused()
    {
        GuardedFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList line { "redis-benchmark", "-p", fleet.targetPort(), "-t", "set", "-n", "300", "-c", "3", "-q",
                                 "--agents", "3", "--control", fleet.uri() };
        const QString password = "REDISCLI_AUTH=" + kTargetPassword;
        const CliResult forged = runCli(line, kRunMs, {}, { "TACHO_FLEET_KEY=not-the-fleets-key-0000", password });
        QCOMPARE(forged.exitCode, 1);
        QVERIFY2(forged.err.contains("refused its order: the order's signature does not match"),
                 qPrintable(describeCliResult(forged)));
        const CliResult unsignedRun = runCli(line, kRunMs, {}, { "TACHO_FLEET_KEY=", password });
        QCOMPARE(unsignedRun.exitCode, 1);
        QVERIFY2(unsignedRun.err.contains("warning: no fleet key"), qPrintable(describeCliResult(unsignedRun)));
        QVERIFY2(unsignedRun.err.contains("the order is not signed"), qPrintable(describeCliResult(unsignedRun)));
        QCOMPARE(fleet.target.commandStatsCalls().value("set"), quint64(0));

        const CliResult signedRun = runCli(line, kRunMs, {}, { password });
        QVERIFY2(signedRun.exitCode == 0, qPrintable(describeCliResult(signedRun)));
        QCOMPARE(fleet.target.commandStatsCalls().value("set"), quint64(300));

        // The signed order of agent a, posted again byte for byte.
        const auto last = fleet.control.command({ "XREVRANGE", "tacho:fleet:orders:a", "+", "-", "COUNT", "1" });
        QCOMPARE(last.elements.size(), 1);
        const auto& fields = last.elements[0].elements.value(1).elements;
        QStringList replay { "XADD", "tacho:fleet:orders:a", "*" };
        for (const auto& field : fields)
            replay << QString::fromUtf8(field.text);
        QVERIFY(fields.size() == 4 && fields[2].text == "mac");
        tacho::engine::FleetOrder order;
        std::string parseError;
        QVERIFY(tacho::engine::orderFromJson(fields[1].text.toStdString(), order, &parseError));
        QVERIFY(!fleet.control.command(replay).isError());
        const auto refusal = waitForReport(fleet.control, QString::fromStdString(order.runId), "refused", kRunMs);
        // Refused as seen before, or (on a machine slow enough) as too old: not run either way.
        const QByteArray why = refusal.value("message");
        QVERIFY2(why.contains("replay") || why.contains("was issued"), why.constData());
        QCOMPARE(fleet.target.commandStatsCalls().value("set"), quint64(300));
        const QByteArray printed = fleet.stopAgents();
        QVERIFY2(printed.contains("refused an order for run " + QByteArray::fromStdString(order.runId)), printed.constData());
        // Neither secret is printed, by the agents nor by the coordinators.
        const QByteArray fleetKey = tacho::test::kTestFleetKey;
        for (const QByteArray& text : { printed, forged.out + forged.err, unsignedRun.out + unsignedRun.err,
                                        signedRun.out + signedRun.err })
            QVERIFY(!text.contains(kTargetPassword.toUtf8()) && !text.contains(fleetKey));
    }

    // An order naming a target outside the agent's list is refused before a
    // connection is opened: a listener of the test's own receives nothing,
    // in particular no AUTH with the agent's password.
    void orderForAnotherTargetReachesNothing()
    {
        GuardedFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        SilentListener rogue;
        QVERIFY(rogue.port() != 0);
        const CliResult run = runCli({ "redis-benchmark", "-p", QString::number(rogue.port()), "-t", "set", "-n", "300",
                                       "-c", "3", "-q", "--agents", "3", "--control", fleet.uri() },
                                     kRunMs);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("is not among this agent's TACHO_AGENT_TARGETS"), qPrintable(describeCliResult(run)));
        const QByteArray printed = fleet.stopAgents();   // every agent is done with its order
        QVERIFY2(printed.count("is not among this agent's TACHO_AGENT_TARGETS") == 3, printed.constData());
        int connections = -1;
        const QByteArray received = rogue.received(&connections);
        QCOMPARE(connections, 0);
        QCOMPARE(received.size(), 0);
        QVERIFY(!received.contains("AUTH") && !received.contains(kTargetPassword.toUtf8()));
    }

    // Options a coordinator never sends — files on the agent's machine to
    // write or read, metrics sent elsewhere, a clean-up or a preload — are
    // refused even in an order signed with the fleet's key: nothing is
    // written, the target sees nothing, the refusal names them.
    void ordersAskingForFilesAreRefused()
    {
        GuardedFleet fleet;
        const QString error = fleet.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString written = dir.filePath("written-by-an-order");
        const QString port = fleet.targetPort();
        const struct {
            const char* run;
            const char* dialect;
            QStringList args;
            const char* option;
        } orders[] = {
            { "files01", "memtier", { "-s", "127.0.0.1", "-p", port, "-n", "10", "--out-file=" + written }, "--out-file" },
            { "files02", "memtier", { "-s", "127.0.0.1", "-p", port, "-n", "10", "--hdr-file-prefix", written },
              "--hdr-file-prefix" },
            { "files03", "memtier", { "-s", "127.0.0.1", "-p", port, "--data-import=/etc/passwd" }, "--data-import" },
            { "files04", "redis-benchmark", { "-p", port, "-t", "set", "-n", "10", "--json", written }, "--json" },
            { "files05", "redis-benchmark", { "-p", port, "-t", "set", "-n", "10", "--prometheus-file", written },
              "--prometheus-file" },
            // Not files, but what only a coordinator does, once: deleting keys, filling the range.
            { "files07", "redis-benchmark", { "-p", port, "-t", "set", "-n", "10", "--cleanup" }, "--cleanup" },
            { "files08", "memtier", { "-s", "127.0.0.1", "-p", port, "-n", "10", "--preload" }, "--preload" },
            { "files09", "memtier", { "-s", "127.0.0.1", "-p", port, "-n", "10", "--statsd", "127.0.0.1:9" },
              "send metrics" },
        };
        for (const auto& order : orders) {
            postSignedOrder(fleet.control, "a", order.run, order.dialect, order.args);
            const auto refusal = waitForReport(fleet.control, order.run, "refused", kRunMs);
            QVERIFY2(refusal.value("message").contains(order.option), order.run);
            QVERIFY2(refusal.value("agent") == "a", order.run);
        }
        QVERIFY(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
        QCOMPARE(fleet.target.commandStatsCalls().value("set"), quint64(0));
        // The same agent still runs a valid signed order (the refusals were the options, not the key).
        postSignedOrder(fleet.control, "a", "files06", "redis-benchmark",
                        { "-p", port, "-t", "set", "-n", "10", "-c", "1", "-q" });
        const auto report = waitForReport(fleet.control, "files06", "final", kRunMs);
        fleet.control.command({ "SET", "tacho:fleet:ack:files06:a", "1" });   // as its coordinator would
        QCOMPARE(report.value("status"), QByteArray("0"));
        QCOMPARE(fleet.target.commandStatsCalls().value("set"), quint64(10));
    }
};

QTEST_GUILESS_MAIN(TestFleetControlSecurity)
#include "test_fleet_control_security.moc"
