// The workbench under faults and with remote targets: a redis-server
// killed mid-run leaves the GUI responsive, showing the failure, with the
// partial run saved in the history; closing the window during a run stops
// it and the history lists it after a restart; a target that is not on
// this machine is written to only after confirmation.
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTimer>

#include <optional>

#include <signal.h>

#include "support/redis_server.h"
#include "ui/bridges/engine_bridge.h"
#include "ui/history/history_model.h"
#include "ui/stores/history_store.h"
#include "ui/window/main_window.h"
#include "ui/targets/remote_write_guard.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestGuiFaults : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    static WorkloadSettings longSetRun()
    {
        WorkloadSettings s;
        s.connections = 8;
        s.tests = QStringLiteral("set");
        s.keyspace = 1000;
        s.amount = WorkloadSettings::Amount::Duration;
        s.durationSeconds = 30;
        return s;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void serverKilledMidRun()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        auto owner = tacho::test::windowOn(m_dir, tacho::test::loopbackProfile(server.host(), server.port(), QStringLiteral("doomed")));
        MainWindow& window = *owner;
        window.runPage()->setup()->setSettings(longSetRun());
        auto done = tacho::test::whenRunCompleted(window);
        QVERIFY(window.startRun(&error));
        QTRY_VERIFY_WITH_TIMEOUT(window.runPage()->samplesReceived() >= 3, 15000);

        // The failure reaches the GUI as an event (the run ends while its event loop runs);
        // how late the GUI thread's timers fire meanwhile is speed: bench/gui_vs_cli.sh.
        QVERIFY(::kill(static_cast<pid_t>(server.pid()), SIGKILL) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 30000);

        const RunRecord& run = **done;
        QCOMPARE(run.status, QStringLiteral("failed"));
        QVERIFY(!run.failure.isEmpty());
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Run failed")),
                 qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!window.isRunning());
        QVERIFY(window.runAction()->isEnabled());
        // The partial run is on disk and in the history, as failed, with what it measured.
        const QJsonObject file = QJsonDocument::fromJson(tacho::test::readAll(run.filePath)).object();
        QCOMPARE(file.value("status").toString(), QStringLiteral("failed"));
        QVERIFY(run.totalRequests() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(window.historyModel()->rowCount() >= 1, 5000);
        bool listed = false;
        for (int row = 0; row < window.historyModel()->rowCount(); ++row)
            listed = listed || window.historyModel()->entryAt(row).filePath == run.filePath;
        QVERIFY(listed);
    }

    void closingDuringARunSavesItInTheHistory()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        QString savedPath;
        {
            auto owner = tacho::test::windowOn(dir, tacho::test::loopbackProfile(server.host(), server.port(), QStringLiteral("closing")));
            MainWindow& window = *owner;
            window.runPage()->setup()->setSettings(longSetRun());
            auto done = tacho::test::whenRunCompleted(window);
            QVERIFY(window.startRun(&error));
            QTRY_VERIFY_WITH_TIMEOUT(window.runPage()->samplesReceived() >= 3, 15000);
            QVERIFY(!window.close());
            QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 10000);
            QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 2000);
            QCOMPARE((*done)->status, QStringLiteral("stopped"));
            savedPath = (*done)->filePath;
            // What the server counted is what the saved run says it sent.
            const quint64 sent = (*done)->totalRequests() + (*done)->tests.value(0).warmupRequests;
            QCOMPARE(server.commandStatsCalls().value(QStringLiteral("set")), sent);
        }
        MainWindow again(tacho::test::temporaryContext(dir));
        QTRY_VERIFY_WITH_TIMEOUT(again.historyModel()->rowCount() == 1, 5000);
        QCOMPARE(again.historyModel()->entryAt(0).filePath, savedPath);
        QCOMPARE(again.historyModel()->entryAt(0).status, QStringLiteral("stopped"));
    }

    void remoteTargetsAskFirst()
    {
        ConnectionProfile remote;
        remote.id = QStringLiteral("remote");
        remote.name = QStringLiteral("staging");
        remote.host = QStringLiteral("192.0.2.10");   // TEST-NET-1: never reached
        remote.port = 6379;
        QVERIFY(!isLoopbackTarget(remote));
        ConnectionProfile local = remote;
        for (const QString& host : { QStringLiteral("127.0.0.1"), QStringLiteral("127.1.2.3"), QStringLiteral("::1"),
                                     QStringLiteral("[::1]"), QStringLiteral("localhost") }) {
            local.host = host;
            QVERIFY2(isLoopbackTarget(local), qPrintable(host));
        }
        local.host = QStringLiteral("10.1.1.1");
        local.unixSocket = QStringLiteral("/tmp/redis.sock");
        QVERIFY(isLoopbackTarget(local));

        MainWindow window(tacho::test::temporaryContext(m_dir));
        window.saveProfile(remote, QString(), false);
        QVERIFY(window.selectTarget(remote.id));
        window.runPage()->setup()->setSettings(longSetRun());
        QStringList asked;
        window.setRemoteWriteConfirmation([&](const QString& question) {
            asked << question;
            return false;
        });
        QSignalSpy started(window.bridge(), &EngineBridge::runStarted);
        QString error;
        QVERIFY(!window.startRun(&error));
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked.first().contains(QStringLiteral("192.0.2.10:6379")));
        QVERIFY(asked.first().contains(QStringLiteral("writes data")));
        QVERIFY2(error.contains(QStringLiteral("not confirmed")), qPrintable(error));
        QCOMPARE(started.count(), 0);
        QVERIFY(!window.isRunning());
    }
};

QTEST_MAIN(TestGuiFaults)
#include "test_gui_faults.moc"
