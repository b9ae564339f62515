// The workbench against a real redis-server: the live charts receive points,
// the GUI gets at most five deliveries a second, the table's counts equal the
// server's commandstats, the exports are what the table and charts show,
// Stop and closing the window mid-run end the run cleanly and save it, the
// history lists it after a restart, and the GUI thread stays responsive at
// full pipelined speed: live numbers repaint without re-laying out the
// window, and live chart axes move in steps, not at every tick.
#include <QElapsedTimer>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QProgressBar>
#include <QTabWidget>
#include <QToolBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QStatusBar>
#include <QTest>
#include <QTimer>
#include <QValueAxis>

#include <algorithm>
#include <optional>

#include "support/redis_cluster.h"
#include "support/redis_server.h"
#include "ui/bridges/engine_bridge.h"
#include "ui/history/history_model.h"
#include "ui/run/kpi_strip_widget.h"
#include "ui/latency/latency_page.h"
#include "ui/widgets/live_text.h"
#include "ui/window/main_window.h"
#include "ui/results/results_page.h"
#include "ui/widgets/results_table_model.h"
#include "ui/widgets/run_chart_widget.h"
#include "ui/widgets/run_charts_widget.h"
#include "ui/run/run_page.h"
#include "ui/window/run_progress_widget.h"
#include "ui/run/run_setup_widget.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestLiveRun : public QObject {
    Q_OBJECT
private:
    tacho::test::RedisServer m_server;
    QTemporaryDir m_dir;
    ConnectionProfile m_profile;

    std::unique_ptr<MainWindow> makeWindow()
    {
        auto window = std::make_unique<MainWindow>(tacho::test::temporaryContext(m_dir));
        window->show();
        return window;
    }

    void useServer(MainWindow& window)
    {
        window.saveProfile(m_profile, QString(), false);
        QVERIFY(window.selectTarget(m_profile.id));
        QVERIFY(window.isTargetReady());
    }

    static WorkloadSettings workload(const QString& tests, quint64 requests, double duration = 0, int pipeline = 1)
    {
        WorkloadSettings s;
        s.connections = 20;
        s.pipeline = pipeline;
        s.tests = tests;
        s.keyspace = 10000;
        if (duration > 0) {
            s.amount = WorkloadSettings::Amount::Duration;
            s.durationSeconds = duration;
        } else {
            s.requests = requests;
        }
        return s;
    }

    // Starts a run and returns where its record will arrive.
    static std::shared_ptr<std::optional<RunRecord>> start(MainWindow& window)
    {
        auto done = std::make_shared<std::optional<RunRecord>>();
        QObject::connect(&window, &MainWindow::runCompleted, &window, [done](const RunRecord& r) { *done = r; });
        QString error;
        if (!window.startRun(&error))
            qWarning("startRun: %s", qPrintable(error));
        return done;
    }

    static QJsonObject readJson(const QString& path)
    {
        return QJsonDocument::fromJson(tacho::test::readAll(path)).object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        m_profile.id = QStringLiteral("fixture");
        m_profile.name = QStringLiteral("fixture server");
        m_profile.host = m_server.host();
        m_profile.port = m_server.port();
    }

    void fullRunMatchesTheServer()
    {
        auto window = makeWindow();
        useServer(*window);
        m_server.resetStats();
        window->runPage()->setup()->setSettings(workload(QStringLiteral("set,get"), 150000));
        QElapsedTimer clock;
        clock.start();
        auto done = start(*window);
        QVERIFY(window->isRunning());

        // The live charts get points while the run goes on.
        RunChartsWidget* charts = window->runPage()->charts();
        QTRY_VERIFY_WITH_TIMEOUT(charts->chart(ChartKind::Throughput)->pointCount() > 0 || done->has_value(), 20000);
        QVERIFY2(!done->has_value(), "the run ended before the live charts showed a point");
        QTRY_VERIFY_WITH_TIMEOUT(charts->chart(ChartKind::Latency)->pointCount() > 0, 5000);
        QVERIFY(window->runPage()->kpis()->tileText(QStringLiteral("ops")) != QStringLiteral("–"));

        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 60000);
        const RunRecord record = **done;
        QCOMPARE(record.status, QStringLiteral("completed"));
        // At most five deliveries a second reach the GUI (plus the first).
        const double seconds = clock.elapsed() / 1000.0;
        QVERIFY2(window->bridge()->deliveryCount() <= int(seconds * 1000 / EngineBridge::kMinDeliveryIntervalMs) + 2,
                 qPrintable(QStringLiteral("%1 deliveries in %2 s").arg(window->bridge()->deliveryCount()).arg(seconds)));
        QVERIFY(window->runPage()->samplesReceived() > 0);

        // The table's counts are the server's own.
        ResultsTableModel* table = window->resultsPage()->tableModel();
        QCOMPARE(table->rowCount(), 2);
        const QMap<QString, quint64> calls = m_server.commandStatsCalls();
        QMap<QString, quint64> counted;
        for (int r = 0; r < table->rowCount(); ++r)
            counted[table->rowAt(r).command.toLower()] = table->rowAt(r).requests;
        QCOMPARE(counted.value(QStringLiteral("set")), 150000ull);
        QCOMPARE(counted.value(QStringLiteral("set")), calls.value(QStringLiteral("set")));
        QCOMPARE(counted.value(QStringLiteral("get")), calls.value(QStringLiteral("get")));
        QVERIFY2(window->resultsPage()->crossCheckText().contains(QLatin1String("agrees")), qPrintable(window->resultsPage()->crossCheckText()));

        // Exports: PNG at the requested size × pixel ratio, not blank; CSV = the table.
        const QString out = QDir(m_dir.path()).filePath(QStringLiteral("export"));
        QStringList written;
        QString error;
        QVERIFY2(window->resultsPage()->exportTo(out, QSize(640, 400), 2.0, &written, &error), qPrintable(error));
        QCOMPARE(written.size(), 6);
        const QImage png(QDir(out).filePath(QStringLiteral("throughput.png")));
        QCOMPARE(png.size(), QSize(1280, 800));
        QSet<QRgb> colours;
        int lineish = 0;
        const QColor setColour(0x4e, 0x79, 0xa7);
        for (int y = 0; y < png.height(); y += 2) {
            for (int x = 0; x < png.width(); x += 2) {
                const QColor c = png.pixelColor(x, y);
                colours.insert(c.rgb());
                if (std::abs(c.red() - setColour.red()) < 24 && std::abs(c.green() - setColour.green()) < 24 && std::abs(c.blue() - setColour.blue()) < 24)
                    ++lineish;
            }
        }
        QVERIFY2(colours.size() > 16, qPrintable(QStringLiteral("%1 colours").arg(colours.size())));
        QVERIFY2(lineish > 50, qPrintable(QStringLiteral("%1 pixels of the SET line").arg(lineish)));

        const QStringList csv = QString::fromUtf8(tacho::test::readAll(QDir(out).filePath(QStringLiteral("results.csv")))).trimmed().split('\n');
        // The header, a line per row of the table, and (several rows) the run's own "All tests" line.
        QCOMPARE(csv.size(), table->rowCount() + 1 + (table->rowCount() > 1 ? 1 : 0));
        const QStringList header = csv.first().split(',');
        const int testColumn = header.indexOf(QStringLiteral("test"));
        const int requestsColumn = header.indexOf(QStringLiteral("requests"));
        const int opsColumn = header.indexOf(QStringLiteral("ops_per_sec"));
        QVERIFY(requestsColumn > 0 && opsColumn > 0);
        for (int r = 0; r < table->rowCount(); ++r) {
            const QStringList cells = tacho::test::csvCells(csv.at(r + 1));   // the title may hold commas
            QCOMPARE(cells.at(testColumn), table->rowAt(r).test);
            QCOMPARE(cells.at(requestsColumn).toULongLong(), table->rowAt(r).requests);
            QVERIFY(std::abs(cells.at(opsColumn).toDouble() - table->rowAt(r).opsPerSecond()) < 0.01);
        }
        if (table->rowCount() > 1) {
            const QStringList all = tacho::test::csvCells(csv.last());
            QCOMPARE(all.at(testColumn), QStringLiteral("All tests"));
            QCOMPARE(all.at(requestsColumn).toULongLong(), record.totalRequests());
        }
        QCOMPARE(readJson(QDir(out).filePath(QStringLiteral("run.json"))).value("status").toString(), QStringLiteral("completed"));

        // Saved as it ended, and listed again after the window is recreated.
        QVERIFY(QFile::exists(record.filePath));
        QTRY_VERIFY_WITH_TIMEOUT(window->historyModel()->rowOf(record.filePath) >= 0, 5000);
        window.reset();
        auto again = makeWindow();
        QTRY_VERIFY_WITH_TIMEOUT(again->historyModel()->rowOf(record.filePath) >= 0, 10000);
        const HistoryEntry& entry = again->historyModel()->entryAt(again->historyModel()->rowOf(record.filePath));
        QCOMPARE(entry.status, QStringLiteral("completed"));
        QCOMPARE(entry.requests, 300000ull);
        QCOMPARE(entry.profile, m_profile.name);
    }

    void stopEndsTheRunCleanly()
    {
        auto window = makeWindow();
        useServer(*window);
        window->runPage()->setup()->setSettings(workload(QStringLiteral("set"), 0, 30));
        auto done = start(*window);
        QTRY_VERIFY_WITH_TIMEOUT(window->runPage()->samplesReceived() >= 5, 15000);
        window->stopRun();
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 30000);   // a hang guard, not a speed check
        QCOMPARE((*done)->status, QStringLiteral("stopped"));
        QVERIFY((*done)->totalRequests() > 0);
        // The stop ended the 30 s test early: the run file says so, and the test's own
        // measured time is short of its duration.
        const QJsonObject file = readJson((*done)->filePath);
        QCOMPARE(file.value("status").toString(), QStringLiteral("stopped"));
        const double measured = file.value("tests").toArray().at(0).toObject().value("seconds").toDouble();
        QVERIFY2(measured > 0 && measured < 30, qPrintable(QString::number(measured)));
        QVERIFY(!window->isRunning());
        QVERIFY(window->runAction()->isEnabled());
        // Issue 31: "Stopping…" is not left beside the finished run.
        QVERIFY2(!window->statusBar()->currentMessage().startsWith(QLatin1String("Stopping")),
                 qPrintable(window->statusBar()->currentMessage()));
    }

    void closingTheWindowStopsAndSaves()
    {
        auto window = makeWindow();
        useServer(*window);
        window->runPage()->setup()->setSettings(workload(QStringLiteral("get"), 0, 30));
        auto done = start(*window);
        QTRY_VERIFY_WITH_TIMEOUT(window->runPage()->samplesReceived() >= 3, 15000);
        QVERIFY(!window->close());   // refused for now: the run stops first
        QVERIFY(window->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!window->isVisible(), 2000);
        QCOMPARE((*done)->status, QStringLiteral("stopped"));
        QCOMPARE(readJson((*done)->filePath).value("status").toString(), QStringLiteral("stopped"));
    }

    // How late a GUI-thread timer fires during a run is speed, not correctness:
    // bench/gui_vs_cli.sh measures it (worst timer delay), issue 18.

    void clusterTargetRunsOnEveryMaster()
    {
        // A target marked "Redis Cluster" runs in cluster mode: keys go to
        // their slot's master, multi-key MSET gets the "{tag}" that keeps
        // its keys in one slot, and the masters together saw every request.
        tacho::test::RedisCluster cluster;
        QString error;
        QVERIFY2(cluster.start(&error), qPrintable(error));
        auto window = makeWindow();
        ConnectionProfile profile;
        profile.id = QStringLiteral("cluster");
        profile.name = QStringLiteral("cluster fixture");
        profile.host = cluster.host();
        profile.port = cluster.seedPort();
        profile.cluster = true;
        window->saveProfile(profile, QString(), false);
        QVERIFY(window->selectTarget(profile.id));
        QVERIFY(window->isTargetReady());
        window->runPage()->setup()->setSettings(workload(QStringLiteral("set,get,mset"), 3000));
        QVERIFY2(window->runPage()->setup()->commandLine().contains(QLatin1String(" --cluster")),
                 qPrintable(window->runPage()->setup()->commandLine()));

        auto done = start(*window);
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 60000);
        const RunRecord& run = **done;
        QCOMPARE(run.status, QStringLiteral("completed"));
        QCOMPARE(run.totalErrors(), 0ull);
        QMap<QString, quint64> total;
        for (quint16 port : cluster.masterPorts()) {
            const QMap<QString, quint64> calls = cluster.server(port)->commandStatsCalls();
            QVERIFY2(calls.value(QStringLiteral("set")) > 0, qPrintable(QStringLiteral("master %1 saw no SET").arg(port)));
            for (const QString& command : { QStringLiteral("set"), QStringLiteral("get"), QStringLiteral("mset") })
                total[command] += calls.value(command);
        }
        QCOMPARE(total.value(QStringLiteral("set")), 3000ull);
        QCOMPARE(total.value(QStringLiteral("get")), 3000ull);
        QCOMPARE(total.value(QStringLiteral("mset")), 3000ull);
    }

    void liveNumbersTouchNothingElse()
    {
        // A re-layout climbs to the window's splitters, which then repaint
        // the whole window; a live widget that is not opaque makes every
        // ancestor repaint the area behind it (tab frame, splitters, tool
        // bar, window), and Qt's raster engine hands those shapes to its
        // thread pool, waking threads beside the engine. At every delivery,
        // that was most of the GUI thread's work during a run.
        auto window = makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        KpiValues v;
        v.connections = 50;
        v.test = QStringLiteral("SET (1/2)");
        window->runPage()->kpis()->setValues(v);
        window->progress()->start(2);
        QTest::qWait(50);   // the first texts may size their tiles once

        struct Counter : QObject {
            int relayouts = 0, livePaints = 0;
            QStringList paintedBehind;
            QList<QWidget*> live;   // every widget behind one of these is an ancestor of it
            bool eventFilter(QObject* watched, QEvent* event) override
            {
                auto* widget = qobject_cast<QWidget*>(watched);
                const bool ancestor = widget && std::any_of(live.cbegin(), live.cend(), [widget](QWidget* w) {
                    return widget != w && widget->isAncestorOf(w);
                });
                if (event->type() == QEvent::LayoutRequest && (qobject_cast<QSplitter*>(watched) || qobject_cast<QMainWindow*>(watched)))
                    ++relayouts;
                if (event->type() == QEvent::Paint && (qobject_cast<LiveText*>(watched) || qobject_cast<QProgressBar*>(watched)))
                    ++livePaints;
                if (event->type() == QEvent::Paint && ancestor)
                    paintedBehind << QString::fromLatin1(watched->metaObject()->className());
                return false;
            }
        } counter;
        for (LiveText* text : window->findChildren<LiveText*>())
            counter.live << text;
        for (QProgressBar* bar : window->findChildren<QProgressBar*>())
            counter.live << bar;
        qApp->installEventFilter(&counter);
        for (int i = 0; i < 24; ++i) {
            v.opsPerSecond = 1000.0 * (1 << (i % 12));   // 1,000 … 2,048,000: every width
            v.avgMs = v.p50Ms = 0.05 * (i + 1);
            v.p99Ms = 0.5 * (i + 1);
            v.p999Ms = 1.5 * (i + 1);
            v.errors = static_cast<quint64>(i * i * 37);
            window->runPage()->kpis()->setValues(v);
            window->progress()->update(i / 12, (i % 12) / 12.0, false, v);
            QCoreApplication::processEvents();
        }
        qApp->removeEventFilter(&counter);
        QCOMPARE(window->runPage()->kpis()->tileText(QStringLiteral("ops")), QStringLiteral("2,048,000"));
        QCOMPARE(counter.relayouts, 0);
        QVERIFY2(counter.livePaints >= 24, qPrintable(QString::number(counter.livePaints)));
        QVERIFY2(counter.paintedBehind.isEmpty(), qPrintable(counter.paintedBehind.join(QLatin1Char(' '))));
    }

    void progressBarIsDrawnFlat()
    {
        // Fusion draws the bar's done part as a gradient with moving stripes;
        // the run's bar is one flat fill (see FlatProgressStyle).
        RunProgressWidget progress;
        progress.resize(600, 30);
        progress.start(1);
        KpiValues live;
        live.opsPerSecond = 1000;
        live.p99Ms = 1;
        progress.update(0, 0.5, false, live);
        auto* bar = progress.findChild<QProgressBar*>();
        QVERIFY(bar);
        bar->setTextVisible(false);
        const QImage image = bar->grab().toImage();
        const QColor highlight = bar->palette().color(QPalette::Highlight);
        const int y = image.height() / 2;
        int highlighted = 0;
        for (int x = 2; x < image.width() / 2 - 2; ++x)
            highlighted += QColor(image.pixel(x, y)) == highlight && QColor(image.pixel(x, y - 3)) == highlight;
        QVERIFY2(highlighted == image.width() / 2 - 4, qPrintable(QString::number(highlighted)));
        QVERIFY(QColor(image.pixel(image.width() * 3 / 4, y)) != highlight);
    }

    void liveChartAxesMoveInSteps()
    {
        // Each axis range change re-lays out every label of the chart: live,
        // a steady run must not move the axes at every tick.
        RunChartWidget chart(ChartKind::Throughput);
        chart.resize(600, 400);
        // Solid: Qt's raster engine fills a gradient row by row through its thread pool.
        QCOMPARE(chart.backgroundBrush().style(), Qt::SolidPattern);
        ChartOptions options;
        options.windowSeconds = RunChartsWidget::kLiveWindowSeconds;
        chart.setOptions(options);
        auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
        auto* y = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).value(0));
        QVERIFY(x && y);
        RunRecord run = RunRecord::fromRunResult(tacho::test::syntheticResult(1000));
        QSignalSpy xMoves(x, &QValueAxis::rangeChanged);
        QSignalSpy yMoves(y, &QValueAxis::rangeChanged);
        constexpr int kTicks = 300;   // 30 s of 0.1 s ticks at a steady 10,000 ops/s, ±5 %
        for (int i = 0; i < kTicks; ++i) {
            IntervalSample tick = run.tests[0].intervals.last();
            tick.start = tick.end;
            tick.end = tick.start + 0.1;
            tick.requests = 1000 + (i % 3 - 1) * 50;
            run.tests[0].intervals << tick;
            run.tests[0].seconds = tick.end;
            chart.refresh(run);
        }
        // The axis holds the run and is at most twice as long (its lengths double at most).
        QVERIFY2(x->max() >= run.tests[0].seconds && x->max() <= run.tests[0].seconds * 2, qPrintable(QString::number(x->max())));
        QVERIFY2(y->max() >= 10500 && y->max() <= 2 * 10500, qPrintable(QString::number(y->max())));
        QVERIFY2(xMoves.count() <= 5, qPrintable(QString::number(xMoves.count())));   // 5, 10, 20, 30, 60 s
        QVERIFY2(yMoves.count() <= 2, qPrintable(QString::number(yMoves.count())));
    }

    void testConnectionSaysWhatIsThere()
    {
        EngineBridge bridge;
        std::optional<ConnectionTestResult> result;
        quint64 resultId = 0;
        connect(&bridge, &EngineBridge::connectionTested, this, [&](quint64 id, const ConnectionTestResult& r) {
            resultId = id;
            result = r;
        });
        tacho::engine::RunConfig config;
        m_profile.applyTo(config, QString());
        const quint64 stale = bridge.testConnection(config);
        const quint64 latest = bridge.testConnection(config);
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 10000);
        QTest::qWait(200);   // the older one would arrive by now
        QCOMPARE(resultId, latest);
        QVERIFY(stale != latest);
        QVERIFY2(result->ok, qPrintable(result->error));
        QVERIFY2(result->server.startsWith(QLatin1String("redis 7")), qPrintable(result->server));
        QCOMPARE(result->mode, QStringLiteral("standalone"));
        QCOMPARE(result->role, QStringLiteral("master"));
        QVERIFY(result->roundTripMs > 0);

        result.reset();
        config.endpoint.port = static_cast<std::uint16_t>(tacho::test::pickFreeLoopbackPort());
        bridge.testConnection(config);
        QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 10000);
        QVERIFY(!result->ok);
        QVERIFY2(result->error.contains(QLatin1String("refused")), qPrintable(result->error));
    }

    void latencyMonitorSamples()
    {
        auto window = makeWindow();
        useServer(*window);
        LatencyPage* page = window->latencyPage();
        std::optional<QString> status;
        connect(window->bridge(), &EngineBridge::latencyFinished, this, [&](const QString& s, const QString&) { status = s; });
        Q_EMIT page->startRequested();
        QTRY_VERIFY_WITH_TIMEOUT(page->pointCount() >= 20, 10000);
        QVERIFY2(page->statsText().startsWith(QLatin1String("min: ")), qPrintable(page->statsText()));
        window->showPage(MainWindow::LatencyTab);
        QTest::qWait(300);
        tacho::test::keepPicture(*window, QStringLiteral("latency-page.png"));
        Q_EMIT page->stopRequested();
        QTRY_VERIFY_WITH_TIMEOUT(status.has_value(), 5000);
        QCOMPARE(*status, QStringLiteral("stopped"));
    }
};

QTEST_MAIN(TestLiveRun)
#include "test_live_run.moc"
