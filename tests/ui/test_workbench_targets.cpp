// The workbench and its targets (issue 20). Editing the selected target:
// everything that shows or records it follows — the status bar, the Latency
// page, "Copy as command line" (and so the line saved with each run) — also
// when a rename moves it in the list. Quitting during a run asks first, and a
// yes still saves the run (against a real redis-server).
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QAction>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <memory>
#include <optional>

#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "ui/bridges/engine_bridge.h"
#include "ui/latency/latency_page.h"
#include "ui/targets/profile_dialog.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/targets/profile_list_model.h"
#include "ui/model/run_record.h"
#include "ui/model/workload_settings.h"
#include "ui/window/main_window.h"
#include "support/redis_server.h"
#include "ui_test_support.h"

using namespace tacho::ui;

namespace {

// Whether any label under `parent` shows `text`.
bool anyLabelShows(const QWidget* parent, const QString& text)
{
    const auto labels = parent->findChildren<QLabel*>();
    return std::any_of(labels.begin(), labels.end(), [&](const QLabel* label) { return label->text().contains(text); });
}

ConnectionProfile profileNamed(const QString& name, quint16 port)
{
    ConnectionProfile profile;
    profile.id = ConnectionProfile::newId();
    profile.name = name;
    profile.host = QStringLiteral("127.0.0.1");
    profile.port = port;
    return profile;
}

QLineEdit* lineEdit(const QWidget& parent, const QString& accessibleName)
{
    for (QLineEdit* e : parent.findChildren<QLineEdit*>())
        if (e->accessibleName() == accessibleName)
            return e;
    return nullptr;
}

QPushButton* button(const QWidget& parent, const QString& text)
{
    for (QPushButton* b : parent.findChildren<QPushButton*>())
        if (b->text().remove(QLatin1Char('&')) == text)
            return b;
    return nullptr;
}

} // namespace

class TestWorkbenchTargets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void editedTargetIsShownAndRecordedEverywhere_data()
    {
        QTest::addColumn<QString>("newName");
        QTest::newRow("same name") << QStringLiteral("bravo");
        QTest::newRow("renamed, moves first") << QStringLiteral("aaa-first");
        QTest::newRow("renamed, moves last") << QStringLiteral("zulu");
    }

    void editedTargetIsShownAndRecordedEverywhere()
    {
        QFETCH(QString, newName);
        QTemporaryDir dir;
        MainWindow window(tacho::test::temporaryContext(dir));
        window.show();
        window.saveProfile(profileNamed(QStringLiteral("alpha"), 7101), QString(), false);
        window.saveProfile(profileNamed(QStringLiteral("charlie"), 7103), QString(), false);
        ConnectionProfile target = profileNamed(QStringLiteral("bravo"), 7102);
        window.saveProfile(target, QString(), false);
        QVERIFY(window.selectTarget(target.id));

        RunSetupWidget* setup = window.runPage()->setup();
        QVERIFY2(setup->commandLine().contains(QLatin1String("7102")), qPrintable(setup->commandLine()));
        QVERIFY(anyLabelShows(window.statusBar(), QStringLiteral("127.0.0.1:7102")));
        QVERIFY(anyLabelShows(window.latencyPage(), QStringLiteral("127.0.0.1:7102")));

        target.name = newName;
        target.port = 7202;
        window.saveProfile(target, QString(), false);

        QCOMPARE(window.currentTarget().id, target.id);
        QCOMPARE(window.currentTarget().port, quint16(7202));
        QCOMPARE(window.currentTarget().name, newName);
        auto* combo = window.findChild<QComboBox*>();
        QVERIFY(combo);
        QCOMPARE(combo->currentIndex(), window.profiles()->rowOf(target.id));
        const QString line = setup->commandLine();
        QVERIFY2(line.contains(QLatin1String("7202")) && !line.contains(QLatin1String("7102")), qPrintable(line));
        QVERIFY(anyLabelShows(window.statusBar(), QStringLiteral("127.0.0.1:7202")));
        QVERIFY(!anyLabelShows(window.statusBar(), QStringLiteral("7102")));
        QVERIFY(anyLabelShows(window.latencyPage(), QStringLiteral("127.0.0.1:7202")));
        QVERIFY(!anyLabelShows(window.latencyPage(), QStringLiteral("7102")));

        // Editing another target leaves the selection alone.
        ConnectionProfile other = profileNamed(QStringLiteral("alpha-2"), 7301);
        window.saveProfile(other, QString(), false);
        QCOMPARE(window.currentTarget().id, target.id);
        QVERIFY(setup->commandLine().contains(QLatin1String("7202")));
    }

    void targetDialogSavesOnlyWhatItParsed()
    {
        EngineBridge bridge;
        ProfileDialog dialog(ConnectionProfile {}, QString(), QString(), &bridge);
        dialog.show();
        QLineEdit* uri = lineEdit(dialog, QStringLiteral("Server URI"));
        QLineEdit* host = lineEdit(dialog, QStringLiteral("Host"));
        QPushButton* ok = button(dialog, QStringLiteral("OK"));
        QPushButton* test = button(dialog, QStringLiteral("Test connection"));
        QVERIFY(uri && host && ok && test);

        // A new target shows its default fields as a URI.
        QCOMPARE(uri->text(), dialog.profile().uri());
        // host:port is a URI too; the fields take it.
        uri->clear();
        QTest::keyClicks(uri, QStringLiteral("127.0.0.1:7400"));
        Q_EMIT uri->editingFinished();
        QCOMPARE(dialog.profile().host, QStringLiteral("127.0.0.1"));
        QCOMPARE(dialog.profile().port, quint16(7400));
        // A connection test needs no name; saving does.
        QVERIFY(test->isEnabled());
        QVERIFY(!ok->isEnabled());
        lineEdit(dialog, QStringLiteral("Profile name"))->setText(QStringLiteral("local"));
        QVERIFY(ok->isEnabled());

        // While the URI does not parse, OK is off, and the fields keep what they had.
        uri->clear();
        QTest::keyClicks(uri, QStringLiteral("http://example.invalid:1"));
        QVERIFY(!ok->isEnabled());
        Q_EMIT uri->editingFinished();
        QVERIFY(!ok->isEnabled());
        QCOMPARE(dialog.profile().host, QStringLiteral("127.0.0.1"));
        QTest::mouseClick(ok, Qt::LeftButton);
        QVERIFY(dialog.isVisible());   // not accepted
        uri->clear();

        // The fields move the URI (when it is not being typed in).
        host->setFocus();
        host->setText(QStringLiteral("::1"));
        for (QSpinBox* box : dialog.findChildren<QSpinBox*>())
            if (box->accessibleName() == QLatin1String("Port"))
                box->setValue(7401);
        QCOMPARE(uri->text(), QStringLiteral("redis://[::1]:7401"));
        QVERIFY(ok->isEnabled());
    }

    void quitDuringARunAsksFirstAndSavesTheRun()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        MainWindow window(tacho::test::temporaryContext(dir));
        window.show();
        ConnectionProfile target = profileNamed(QStringLiteral("fixture"), server.port());
        target.host = server.host();
        window.saveProfile(target, QString(), false);
        QVERIFY(window.selectTarget(target.id));
        WorkloadSettings settings;
        settings.connections = 4;
        settings.tests = QStringLiteral("set");
        settings.keyspace = 1000;
        settings.amount = WorkloadSettings::Amount::Duration;
        settings.durationSeconds = 30;   // bounded; the quit ends it long before
        window.runPage()->setup()->setSettings(settings);
        std::optional<RunRecord> done;
        connect(&window, &MainWindow::runCompleted, &window, [&done](const RunRecord& r) { done = r; });
        QVERIFY2(window.startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(window.runPage()->samplesReceived() >= 2, 15000);
        QVERIFY(window.isRunning());

        int asked = 0;
        bool answer = false;
        window.setQuitConfirmation([&] { ++asked; return answer; });
        window.quitAction()->trigger();   // "no": the run goes on
        QCOMPARE(asked, 1);
        QVERIFY(window.isRunning());
        QVERIFY(window.isVisible());
        QVERIFY(!done.has_value());

        answer = true;
        window.quitAction()->trigger();   // "yes": the run stops, is saved, the window closes
        QCOMPARE(asked, 2);
        QTRY_VERIFY_WITH_TIMEOUT(done.has_value(), 30000);   // a hang guard, not a speed check
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 10000);
        QCOMPARE(done->status, QStringLiteral("stopped"));
        const QJsonObject file = QJsonDocument::fromJson(tacho::test::readAll(done->filePath)).object();
        QCOMPARE(file.value(QStringLiteral("status")).toString(), QStringLiteral("stopped"));

        // Closing from code (a signal, the scripted mode) does not ask.
        QCOMPARE(asked, 2);
    }
};

QTEST_MAIN(TestWorkbenchTargets)
#include "test_workbench_targets.moc"
