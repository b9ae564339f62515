// A cluster behind a loopback seed (issue 15): the workbench asks nothing
// before writing to this machine, so the run must not follow the cluster to
// other machines. Its nodes are announced by a fake seed; the off-machine one
// (TEST-NET 192.0.2.1) is a replica, which a run never connects to even when
// unguarded, so no step of this test can reach off loopback.
#include <QStatusBar>
#include <QTest>

#include <atomic>
#include <string>
#include <vector>

#include "support/resp_wire.h"
#include "support/scripted_server.h"
#include "ui/window/main_window.h"
#include "ui/targets/remote_write_guard.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui_test_support.h"

using namespace tacho::ui;
using tacho::test::Conversation;
using tacho::test::respBulk;
using tacho::test::upperAscii;

class TestClusterConfirmation : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void confinedOnlyWhenNothingWasConfirmed_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("unixSocket");
        QTest::addColumn<bool>("cluster");
        QTest::addColumn<bool>("confined");
        // A loopback seed (not confirmed): its cluster is kept on this machine.
        for (const char* host : { "127.0.0.1", "::1", "localhost" })
            QTest::newRow(qPrintable(QString("cluster at %1").arg(host))) << QString(host) << QString() << true << true;
        QTest::newRow("cluster at a Unix socket") << QString() << QString("/tmp/redis.sock") << true << true;
        // A remote seed was confirmed, and with it its cluster.
        for (const char* host : { "10.0.0.5", "192.0.2.1", "redis.example" })
            QTest::newRow(qPrintable(QString("cluster at %1").arg(host))) << QString(host) << QString() << true << false;
        // Not a cluster: nothing to follow.
        QTest::newRow("single server at 127.0.0.1") << QString("127.0.0.1") << QString() << false << false;
    }

    void confinedOnlyWhenNothingWasConfirmed()
    {
        QFETCH(QString, host);
        QFETCH(QString, unixSocket);
        QFETCH(bool, cluster);
        QFETCH(bool, confined);
        ConnectionProfile target = tacho::test::loopbackProfile(host, 7000);
        target.unixSocket = unixSocket;
        target.cluster = cluster;
        tacho::engine::RunConfig config;
        config.clusterStaysOnLoopback = !confined;   // set either way, not left as it was
        confineToConfirmedMachine(target, config);
        QCOMPARE(config.clusterStaysOnLoopback, confined);
    }

    // The run the window starts carries the guard: the cluster announcing a
    // node off this machine fails the run with that node named, on screen,
    // before a single SET, and nobody was asked anything.
    void loopbackClusterRunFailsOnAnOffMachineNode()
    {
        std::atomic<quint16> self { 0 };
        std::atomic<int> sets { 0 };
        tacho::test::ScriptedServer seed([&](Conversation& c) {
            std::vector<std::string> args;
            while (c.readCommand(&args)) {
                const std::string name = upperAscii(args.empty() ? std::string() : args[0]);
                const std::string sub = args.size() > 1 ? upperAscii(args[1]) : std::string();
                if (name == "CLUSTER" && sub == "SLOTS")
                    c.send("*1\r\n*4\r\n:0\r\n:16383\r\n*3\r\n" + respBulk("127.0.0.1") + ":" + std::to_string(self.load())
                           + "\r\n" + respBulk(std::string(40, 'a')) + "*3\r\n" + respBulk("192.0.2.1") + ":7000\r\n"
                           + respBulk(std::string(40, 'b')));
                else if (name == "CLUSTER" && sub == "INFO")
                    c.send(respBulk("cluster_state:ok\r\ncluster_slots_assigned:16384\r\n"));
                else if (name == "CLUSTER")
                    c.send("-ERR unknown subcommand '" + args[1] + "'. Try CLUSTER HELP.\r\n");
                else {
                    sets += name == "SET" ? 1 : 0;
                    c.send(tacho::test::healthyReply(args));
                }
            }
        });
        QString error;
        QVERIFY2(seed.start(&error), qPrintable(error));
        self = seed.port();

        QTemporaryDir dir;
        ConnectionProfile target = tacho::test::loopbackProfile(seed.host(), seed.port(), QStringLiteral("cluster"));
        target.cluster = true;
        auto owner = tacho::test::windowOn(dir, target);
        MainWindow& window = *owner;
        int asked = 0;
        window.setRemoteWriteConfirmation([&](const QString&) { return ++asked, true; });
        WorkloadSettings settings;
        settings.connections = 2;
        settings.tests = QStringLiteral("set");
        settings.requests = 20;
        window.runPage()->setup()->setSettings(settings);
        auto done = tacho::test::whenRunCompleted(window);
        QVERIFY2(window.startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 30000);
        seed.stop();

        const RunRecord& run = **done;
        const QString message = QStringLiteral("cluster node 192.0.2.1:7000 is not on this machine; "
                                               "the run was confirmed for this machine only");
        QCOMPARE(run.status, QStringLiteral("failed"));
        QVERIFY2(run.failure.contains(message), qPrintable(run.failure));
        QVERIFY2(window.statusBar()->currentMessage().contains(message), qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(sets.load(), 0);
        QCOMPARE(asked, 0);
    }
};

QTEST_MAIN(TestClusterConfirmation)
#include "test_cluster_confirmation.moc"
