// Issue 21: the control server secured as users run it. Over TLS (rediss://,
// the control server's CA trusted through SSL_CERT_FILE as OpenSSL reads it),
// and as an ACL user whose password is in the URL: three agents and a
// coordinator make one run whose counts the target's commandstats confirm,
// the control server saw that user's commands, and the password shows
// neither in the agents' argv (what `ps` reads) nor in anything they print.
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

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
        QVERIFY2(run.out.contains("Running on 3 agents (a, b, c)"), run.out.constData());
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
        RedisServer::Options options;
        options.password = QStringLiteral("admin-pw");   // the default user: the fixture's own
        RedisServer control(options);
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
};

QTEST_GUILESS_MAIN(TestFleetControlSecurity)
#include "test_fleet_control_security.moc"
