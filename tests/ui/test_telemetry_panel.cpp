// issue 19: the telemetry panel beside the run charts — fed a test's
// telemetry it shows the verdict, the latest figures and the charts' points;
// a run without telemetry (--no-telemetry, a run file from before telemetry)
// opens exactly as before, panel hidden; a run file with telemetry reopens
// with it; "not available" is said once; a cluster gets a master selector;
// the Compare page says what limited each run; and a live run against a real
// redis-server fills the panel while it runs.
#include <QApplication>
#include <QComboBox>
#include <QPalette>
#include <QTest>

#include <optional>

#include "engine/report/comparison.h"
#include "engine/report/run_file.h"
#include "engine/telemetry/bottleneck.h"
#include "engine/telemetry/telemetry.h"
#include "support/redis_server.h"
#include "ui/compare/compare_page.h"
#include "ui/model/run_record.h"
#include "ui/results/results_page.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/widgets/run_chart_widget.h"
#include "ui/widgets/run_charts_widget.h"
#include "ui/widgets/telemetry_panel_widget.h"
#include "ui/window/main_window.h"
#include "ui_test_support.h"

using namespace tacho::ui;
namespace engine = tacho::engine;

namespace {

// Three one-second samples of one server (or more: a cluster) and of this
// machine, and the verdict the engine would draw.
engine::TestTelemetry syntheticTelemetry(engine::Bottleneck kind, int servers = 1)
{
    engine::TestTelemetry t;
    t.intervalSeconds = 1;
    for (int s = 0; s < servers; ++s) {
        engine::ServerTelemetry server;
        server.address = "127.0.0.1:" + std::to_string(7000 + s);
        for (int i = 0; i < 3; ++i) {
            engine::ServerPoint p;
            p.startSeconds = i;
            p.endSeconds = i + 1;
            p.cpuPercent = 97 - s;
            p.mainThreadCpuPercent = 95 - s;
            p.opsPerSecond = 40000 + 1000 * s;
            p.connectedClients = 51;
            p.usedMemory = 3 * 1024 * 1024;
            p.usedMemoryRss = 9 * 1024 * 1024;
            p.fragmentation = 3.0;
            if (i == 2) {   // the wind-down: replies done, connections closing
                p.cpuPercent = 5;
                p.connectedClients = 2;
            }
            server.points.push_back(p);
        }
        // The last, partial sample (0.1 s of the test's end): not drawn.
        engine::ServerPoint tail = server.points.back();
        tail.startSeconds = 3;
        tail.endSeconds = 3.1;
        tail.opsPerSecond = 0;
        server.points.push_back(tail);
        t.servers.push_back(server);
    }
    t.client.host = "here";
    t.client.cpuCount = 2;
    for (int i = 0; i < 3; ++i) {
        engine::ClientPoint p;
        p.startSeconds = i;
        p.endSeconds = i + 1;
        p.threadCpuPercent = { 41, 38 };
        p.threadWaitPercent = { 1, 1 };
        p.hostBusyPercent = 70;
        p.hostStealPercent = 2;
        if (i == 2)
            p.threadCpuPercent = { 0, 0 };
        t.client.points.push_back(p);
    }
    engine::ClientPoint tail = t.client.points.back();
    tail.startSeconds = 3;
    tail.endSeconds = 3.1;
    t.client.points.push_back(tail);
    t.verdict.kind = kind;
    t.verdict.reason = "server main thread 95% of a core; engine threads ≤ 41%";
    t.verdict.advice = kind == engine::Bottleneck::ClientBound ? "more --threads, or another load machine" : "";
    return t;
}

RunRecord runWith(std::optional<engine::TestTelemetry> telemetry)
{
    engine::RunResult result = tacho::test::syntheticResult(3000);
    result.tests[0].seconds = 3;
    if (telemetry)
        result.tests[0].telemetry = *telemetry;
    return RunRecord::fromRunResult(result);
}

} // namespace

class TestTelemetryPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void panelShowsTheFiguresAndTheVerdict()
    {
        const RunRecord run = runWith(syntheticTelemetry(engine::Bottleneck::ServerBound));
        QVERIFY(run.tests[0].telemetry);
        RunChartsWidget charts;
        charts.resize(1400, 700);
        charts.show();
        charts.setRun(&run, false);
        TelemetryPanelWidget* panel = charts.telemetryPanel();
        QVERIFY(panel->isVisible());
        QVERIFY2(panel->verdict().contains(QStringLiteral("server-bound")), qPrintable(panel->verdict()));
        QVERIFY(panel->verdict().contains(QStringLiteral("server main thread 95% of a core")));
        // A finished test's figures are a sample from its middle, not its wind-down.
        QVERIFY2(panel->figures().startsWith(QStringLiteral("SET at 2 s")), qPrintable(panel->figures()));
        QVERIFY2(panel->figures().contains(QStringLiteral("server CPU 97% (main thread 95%)")), qPrintable(panel->figures()));
        QVERIFY(panel->figures().contains(QStringLiteral("51 clients")));
        QVERIFY(panel->figures().contains(QStringLiteral("used 3.0 MiB, RSS 9.0 MiB")));
        QVERIFY(panel->figures().contains(QStringLiteral("engine threads 41%, 38%")));
        QVERIFY(panel->figures().contains(QStringLiteral("host busy 70% (steal 2%)")));
        // CPU: server, main thread, busiest engine thread, host busy, steal — three
        // points each (the 0.1 s tail is left out, as the verdict leaves it out).
        QTRY_COMPARE(charts.chart(ChartKind::Cpu)->pointCount(), 15);
        // The charts redraw in turn on a timer: the second may come a tick later.
        QTRY_COMPARE(charts.chart(ChartKind::ServerOps)->seriesCount(), 2);
        QTRY_COMPARE(charts.chart(ChartKind::ServerOps)->pointCount(), 6);
    }

    void runWithoutTelemetryHidesThePanel()
    {
        const RunRecord run = runWith(std::nullopt);
        QVERIFY(!run.tests[0].telemetry);
        RunChartsWidget charts;
        charts.show();
        charts.setRun(&run, false);
        QVERIFY(charts.telemetryPanel()->isHidden());
        // The run's own charts draw as before.
        QTRY_VERIFY(charts.chart(ChartKind::Throughput)->pointCount() > 0);
        QCOMPARE(charts.chart(ChartKind::Cpu)->pointCount(), 0);
    }

    void aRunFileReopensWithItsTelemetry()
    {
        engine::RunResult with = tacho::test::syntheticResult(3000);
        with.tests[0].telemetry = syntheticTelemetry(engine::Bottleneck::ClientBound);
        QString error;
        const std::optional<RunRecord> reopened = RunRecord::fromJson(QByteArray::fromStdString(engine::runResultToJson(with)), &error);
        QVERIFY2(reopened, qPrintable(error));
        QVERIFY(reopened->tests[0].telemetry);
        QCOMPARE(reopened->tests[0].telemetry->verdict.kind, engine::Bottleneck::ClientBound);
        QCOMPARE(reopened->tests[0].telemetry->servers.at(0).points.size(), std::size_t(4));

        ResultsPage page;
        page.resize(1400, 800);
        page.show();
        page.showRun(*reopened);
        TelemetryPanelWidget* panel = page.charts()->telemetryPanel();
        QVERIFY(panel->isVisible());
        QVERIFY2(panel->verdict().contains(QStringLiteral("client-bound")), qPrintable(panel->verdict()));
        QVERIFY(panel->verdict().contains(QStringLiteral("more --threads")));
        QTRY_VERIFY(page.charts()->chart(ChartKind::Cpu)->pointCount() > 0);

        // A file from before telemetry: no section, no panel.
        const std::optional<RunRecord> old =
            RunRecord::fromJson(QByteArray::fromStdString(engine::runResultToJson(tacho::test::syntheticResult(3000))), &error);
        QVERIFY2(old, qPrintable(error));
        QVERIFY(!old->tests[0].telemetry);
        page.showRun(*old);
        QVERIFY(panel->isHidden());
    }

    void notAvailableIsSaidOnce()
    {
        engine::TestTelemetry refused;
        refused.intervalSeconds = 1;
        engine::ServerTelemetry server;
        server.address = "127.0.0.1:6379";
        server.unavailable = "not available: NOPERM this user has no permissions to run the 'info' command";
        refused.servers.push_back(server);
        refused.verdict = engine::judgeBottleneck(refused, engine::VerdictContext { 0, 6000, 10, 1, 1 });
        QVERIFY(refused.verdict.reason.find("NOPERM") != std::string::npos);   // the engine's reason names it…
        RunRecord run = runWith(refused);
        run.tests << run.tests[0];
        run.tests[1].name = QStringLiteral("GET");
        const QString text = TelemetryPanelWidget::verdictText(run);
        QCOMPARE(text.count(QStringLiteral("NOPERM")), 1);   // …the panel says it once
        QCOMPARE(text.count(QStringLiteral("not available")), 2);   // the line, and the latest test's reason
        QCOMPARE(TelemetryPanelWidget::verdictDetails(run).count(QStringLiteral("unknown")), 2);
        QVERIFY(text.contains(QStringLiteral("<b>GET</b>")));
        QVERIFY(text.contains(QStringLiteral("unknown")));
    }

    void aClusterGetsAMasterSelector()
    {
        const RunRecord run = runWith(syntheticTelemetry(engine::Bottleneck::ServerBound, 3));
        RunChartsWidget charts;
        charts.resize(1400, 700);
        charts.show();
        charts.setRun(&run, false);
        auto* selector = charts.telemetryPanel()->findChild<QComboBox*>();
        QVERIFY(selector);
        QVERIFY(selector->isVisible());
        QCOMPARE(selector->count(), 3);
        QCOMPARE(selector->itemText(2), QStringLiteral("127.0.0.1:7002"));
        selector->setCurrentIndex(2);
        QTRY_VERIFY(charts.telemetryPanel()->figures().contains(QStringLiteral("server CPU 95%")));
        // ops/s: the masters summed (40,000 + 41,000 + 42,000).
        QTRY_COMPARE(charts.chart(ChartKind::ServerOps)->pointCount(), 6);
    }

    void compareSaysWhatLimitedEachRun()
    {
        engine::LoadedRun a, b, old;
        a.run = tacho::test::syntheticResult(3000);
        a.run.tests[0].telemetry = syntheticTelemetry(engine::Bottleneck::ServerBound);
        b.run = tacho::test::syntheticResult(2000);
        b.run.tests[0].telemetry = syntheticTelemetry(engine::Bottleneck::ClientBound);
        old.run = tacho::test::syntheticResult(2500);
        const std::vector<const engine::LoadedRun*> runs { &a, &b, &old };
        const engine::Comparison comparison = engine::compareRuns(runs);
        const QStringList lines = ComparePage::bottleneckLines(comparison, runs, false);
        QVERIFY2(lines.join(QLatin1Char('\n')).contains(QStringLiteral("SET: [1] server-bound · [2] client-bound · [3] no telemetry")),
                 qPrintable(lines.join(QLatin1Char('\n'))));
        QVERIFY(lines.last().startsWith(QStringLiteral("Client-bound: [2] in SET")));
        // No run with telemetry: nothing to say.
        const std::vector<const engine::LoadedRun*> none { &old, &old };
        QVERIFY(ComparePage::bottleneckLines(engine::compareRuns(none), none, false).isEmpty());
    }

    void aLiveRunFillsThePanel()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        MainWindow window(tacho::test::temporaryContext(dir));
        window.show();
        ConnectionProfile profile;
        profile.id = QStringLiteral("fixture");
        profile.name = QStringLiteral("fixture server");
        profile.host = server.host();
        profile.port = server.port();
        window.saveProfile(profile, QString(), false);
        QVERIFY(window.selectTarget(profile.id));
        WorkloadSettings settings;
        settings.connections = 10;
        settings.tests = QStringLiteral("set");
        settings.keyspace = 1000;
        settings.amount = WorkloadSettings::Amount::Duration;
        settings.durationSeconds = 4;
        window.runPage()->setup()->setSettings(settings);
        std::optional<RunRecord> done;
        connect(&window, &MainWindow::runCompleted, &window, [&done](const RunRecord& r) { done = r; });
        QVERIFY2(window.startRun(&error), qPrintable(error));

        RunChartsWidget* charts = window.runPage()->charts();
        TelemetryPanelWidget* panel = charts->telemetryPanel();
        // Points arrive while the run goes on, with the verdict so far.
        QTRY_VERIFY_WITH_TIMEOUT(charts->chart(ChartKind::ServerOps)->pointCount() > 0 || done, 20000);
        QVERIFY2(!done, "the run ended before the panel showed a point");
        QVERIFY(!panel->isHidden());
        QVERIFY2(panel->verdict().contains(QStringLiteral("(so far)")), qPrintable(panel->verdict()));
        QVERIFY(window.runPage()->liveRun().tests.at(0).telemetry);
        QVERIFY(!window.runPage()->liveRun().tests.at(0).telemetry->servers.at(0).points.empty());

        QTRY_VERIFY_WITH_TIMEOUT(done.has_value(), 30000);
        QCOMPARE(done->status, QStringLiteral("completed"));
        QVERIFY(done->tests.at(0).telemetry);
        // The final verdict replaces the one so far.
        QVERIFY(!panel->verdict().contains(QStringLiteral("(so far)")));
        const std::string kind = engine::bottleneckName(done->tests.at(0).telemetry->verdict.kind);
        QVERIFY2(panel->verdict().contains(QString::fromStdString(kind)), qPrintable(panel->verdict()));
    }

    // Pictures for a person to look at, only when asked:
    // TACHO_SCREENSHOT_DIR=… [TACHO_SCREENSHOT_SIZE=1280x800] [TACHO_SCREENSHOT_DARK=1],
    // under xvfb-run: the Run page 6 s into a 10 s SET,GET run against a real
    // redis-server, then that run reopened from its run file on the Results page.
    void screenshotsWhenAsked()
    {
        const auto shots = tacho::test::screenshotRequest();
        if (!shots)
            QSKIP("set TACHO_SCREENSHOT_DIR to take the screenshots");
        const QString stem = shots->stem;
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        MainWindow window(tacho::test::temporaryContext(dir));
        window.resize(shots->size);
        window.show();
        ConnectionProfile profile;
        profile.id = QStringLiteral("local");
        profile.name = QStringLiteral("local redis");
        profile.host = server.host();
        profile.port = server.port();
        window.saveProfile(profile, QString(), false);
        QVERIFY(window.selectTarget(profile.id));
        WorkloadSettings settings;
        settings.connections = 50;
        settings.pipeline = 4;
        settings.tests = QStringLiteral("set,get");
        settings.keyspace = 100000;
        settings.amount = WorkloadSettings::Amount::Duration;
        settings.durationSeconds = 5;
        window.runPage()->setup()->setSettings(settings);
        std::optional<RunRecord> done;
        connect(&window, &MainWindow::runCompleted, &window, [&done](const RunRecord& r) { done = r; });
        window.runPage()->showDashboard();
        QTest::qWait(200);
        qInfo("window before the run: %dx%d (min %dx%d)", window.width(), window.height(),
              window.minimumSizeHint().width(), window.minimumSizeHint().height());
        QVERIFY2(window.startRun(&error), qPrintable(error));
        QTest::qWait(7000);   // into the second test
        qInfo("window during the run: %dx%d (min %dx%d)", window.width(), window.height(),
              window.minimumSizeHint().width(), window.minimumSizeHint().height());
        QVERIFY(!done);
        QVERIFY(window.grab().save(stem + QStringLiteral("live.png")));
        QTRY_VERIFY_WITH_TIMEOUT(done.has_value(), 30000);
        QVERIFY(!done->filePath.isEmpty());
        const std::optional<RunRecord> reopened = RunRecord::fromJson(tacho::test::readAll(done->filePath), &error);
        QVERIFY2(reopened, qPrintable(error));
        window.resultsPage()->showRun(*reopened);
        window.showPage(MainWindow::ResultsTab);
        QTest::qWait(1500);
        QVERIFY(window.grab().save(stem + QStringLiteral("reopened.png")));
        // The run against itself on the Compare page: what limited each side.
        window.comparePage()->setRunFiles({ done->filePath, done->filePath });
        window.showPage(MainWindow::CompareTab);
        QTRY_COMPARE_WITH_TIMEOUT(window.comparePage()->runCount(), 2, 10000);
        QVERIFY(!window.comparePage()->bottleneckLines().isEmpty());
        QTest::qWait(1000);
        QVERIFY(window.grab().save(stem + QStringLiteral("compare.png")));
    }
};

QTEST_MAIN(TestTelemetryPanel)
#include "test_telemetry_panel.moc"
