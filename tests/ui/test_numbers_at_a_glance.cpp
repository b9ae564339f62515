// Numbers trusted at a glance: after a run against a real redis-server the
// KPI strip and the progress row show the run's totals (the results table's
// figures), live figures say which window they cover, the running row of the
// table says what its cells are, a failed row shows "–" rather than zeros,
// hits only for reads, and the colours used for text read (WCAG AA) on light
// and dark palettes.
#include <QApplication>
#include <QChart>
#include <QLineSeries>
#include <QMouseEvent>
#include <QTest>

#include <limits>

#include "support/redis_server.h"
#include "ui/model/number_format.h"
#include "ui/run/kpi_strip_widget.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/widgets/run_charts_widget.h"
#include "ui/widgets/command_colors.h"
#include "ui/results/results_page.h"
#include "ui/widgets/results_table_model.h"
#include "ui/widgets/run_chart_widget.h"
#include "ui/window/run_progress_widget.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestNumbersAtAGlance : public QObject {
    Q_OBJECT
private:
    static CommandRecord row(const QString& command, quint64 requests)
    {
        CommandRecord r;
        r.test = r.command = command;
        r.requests = requests;
        r.seconds = requests > 0 ? 2 : 0;
        r.hits = requests / 2;
        r.misses = requests - r.hits;
        r.latency = { 0.5, 0.1, 0.4, 0.9, 1.2, 3.5, 7.0 };
        return r;
    }

    static void checkAA(const QColor& text, const QColor& background, const char* what)
    {
        const double ratio = CommandColors::contrastRatio(text, background);
        QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1: %2 on %3 is %4:1")
                                              .arg(QLatin1String(what), text.name(), background.name()).arg(ratio, 0, 'f', 2)));
    }

    // A SET test of 0.1 s ticks at 1,000 + 10·i requests each, with no
    // interval between `stallFrom` and `stallTo` s when they differ.
    static RunRecord syntheticRun(double stallFrom = 0, double stallTo = 0)
    {
        RunRecord run;
        run.status = QStringLiteral("completed");
        TestRecord t;
        t.name = QStringLiteral("SET");
        double at = 0;
        for (int i = 0; at < 20 - 1e-9; ++i) {
            if (stallTo > stallFrom && at >= stallFrom - 1e-9 && at < stallTo - 1e-9) {
                at = stallTo;
                continue;
            }
            IntervalSample s;
            s.start = at;
            s.end = at + 0.1;
            s.requests = 1000 + 10 * static_cast<quint64>(i);
            s.p50 = 0.2;
            s.p99 = 0.9;
            s.p999 = 1.5;
            s.max = 2;
            s.avg = 0.3;
            t.intervals << s;
            t.requests += s.requests;
            at = s.end;
        }
        t.seconds = 20;
        t.commands << row(QStringLiteral("SET"), t.requests);
        run.tests << t;
        return run;
    }

    // Moves the pointer over `chart` to the data point `value` of its first series.
    static void hoverAt(RunChartWidget& chart, const QPointF& value)
    {
        QChart* c = chart.chart();
        const QPointF scene = c->mapToScene(c->mapToPosition(value, c->series().constFirst()));
        const QPoint at = chart.mapFromScene(scene);
        QMouseEvent move(QEvent::MouseMove, QPointF(at), chart.viewport()->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(chart.viewport(), &move);
    }

private Q_SLOTS:
    void finishedRunShowsTheRecordsTotals()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        auto window = tacho::test::windowOn(dir, tacho::test::loopbackProfile(server.host(), server.port()));
        QVERIFY(window->isTargetReady());
        WorkloadSettings settings;
        settings.connections = 20;
        settings.tests = QStringLiteral("set");
        settings.keyspace = 10000;
        settings.requests = 200000;
        window->runPage()->setup()->setSettings(settings);
        auto done = tacho::test::whenRunCompleted(*window);
        QVERIFY2(window->startRun(&error), qPrintable(error));

        // While it runs the figures say their window.
        KpiStripWidget* kpis = window->runPage()->kpis();
        QTRY_VERIFY_WITH_TIMEOUT(kpis->tileText(QStringLiteral("p99")) != QStringLiteral("–") || done->has_value(), 30000);
        if (!done->has_value()) {
            QVERIFY2(kpis->tileCaption(QStringLiteral("p99")).contains(QLatin1String("last")), qPrintable(kpis->tileCaption(QStringLiteral("p99"))));
            QVERIFY2(kpis->tileCaption(QStringLiteral("ops")).contains(QLatin1String("last 1 s")), qPrintable(kpis->tileCaption(QStringLiteral("ops"))));
            // Issue 31: the top strip shows the cards' figures, each with the cards' window.
            const QString strip = window->progress()->numbersText();
            const QString p99Window = kpis->tileCaption(QStringLiteral("p99")).section(QStringLiteral(" · "), 1);
            QVERIFY2(strip.contains(QStringLiteral("p99 %1: %2 ms").arg(p99Window, kpis->tileText(QStringLiteral("p99")))),
                     qPrintable(strip + QStringLiteral(" | ") + p99Window + QStringLiteral(" ") + kpis->tileText(QStringLiteral("p99"))));
            QVERIFY2(strip.startsWith(kpis->tileCaption(QStringLiteral("ops")).section(QStringLiteral(" · "), 1) + QStringLiteral(": ")
                                      + kpis->tileText(QStringLiteral("ops")) + QStringLiteral(" ops/s")),
                     qPrintable(strip));
        }
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 60000);
        const RunRecord& record = **done;
        QCOMPARE(record.status, QStringLiteral("completed"));
        QCOMPARE(record.tests.size(), 1);
        QCOMPARE(record.tests.at(0).commands.size(), 1);
        const CommandRecord& total = record.tests.at(0).commands.at(0);

        // The strip equals the record's (and so the results table's) figures.
        QCOMPARE(kpis->tileText(QStringLiteral("ops")), NumberFormat::rate(record.headlineOpsPerSecond()));
        QCOMPARE(kpis->tileText(QStringLiteral("ops")), NumberFormat::rate(total.opsPerSecond()));
        QCOMPARE(kpis->tileText(QStringLiteral("avg")), NumberFormat::milliseconds(total.latency.avg));
        QCOMPARE(kpis->tileText(QStringLiteral("p50")), NumberFormat::milliseconds(total.latency.p50));
        QCOMPARE(kpis->tileText(QStringLiteral("p99")), NumberFormat::milliseconds(total.latency.p99));
        QCOMPARE(kpis->tileText(QStringLiteral("p999")), NumberFormat::milliseconds(total.latency.p999));
        QCOMPARE(kpis->tileText(QStringLiteral("errors")), NumberFormat::count(record.totalErrors()));
        QCOMPARE(kpis->tileText(QStringLiteral("test")), QStringLiteral("completed"));
        for (const char* key : { "ops", "avg", "p50", "p99", "p999" })
            QVERIFY2(kpis->tileCaption(QString::fromLatin1(key)).contains(QLatin1String("whole run")), key);

        // The table shows the same row.
        ResultsTableModel* table = window->runPage()->tableModel();
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->data(table->index(0, ResultsTableModel::P99)).toString(), kpis->tileText(QStringLiteral("p99")));
        QCOMPARE(table->data(table->index(0, ResultsTableModel::P999)).toString(), kpis->tileText(QStringLiteral("p999")));
        // SET cannot miss: no hits column figure.
        QCOMPARE(table->data(table->index(0, ResultsTableModel::Hits)).toString(), QStringLiteral("–"));

        // The progress row too.
        const QString progress = window->progress()->numbersText();
        QVERIFY2(progress.startsWith(QLatin1String("whole run:")), qPrintable(progress));
        QVERIFY2(progress.contains(NumberFormat::rate(record.headlineOpsPerSecond())), qPrintable(progress));
        QVERIFY2(progress.contains(NumberFormat::millisecondsWithUnit(record.headlineP99())), qPrintable(progress));
    }

    void severalRowsGiveTheRunsOwnPercentiles()
    {
        RunRecord run;
        run.status = QStringLiteral("completed");
        TestRecord set, get;
        set.name = QStringLiteral("SET");
        set.seconds = 2;
        set.requests = 1000;
        set.commands << row(QStringLiteral("SET"), 1000);
        get.name = QStringLiteral("GET");
        get.seconds = 2;
        get.requests = 3000;
        get.commands << row(QStringLiteral("GET"), 3000);
        get.commands[0].latency.p99 = 9.5;
        get.commands[0].latency.avg = 1.5;
        run.tests << set << get;
        // The engine's merge of both distributions (issue 28), not the worst
        // row's p99 (9.5) beside another row's p99.9.
        run.allTestsLatency = LatencySummary { 1.25, 0.1, 0.4, 0.9, 2.5, 9.0, 9.9 };
        const KpiValues v = KpiValues::wholeRun(run);
        QCOMPARE(v.p99Ms, 2.5);
        QCOMPARE(v.p999Ms, 9.0);
        QCOMPARE(v.avgMs, 1.25);
        QCOMPARE(v.opsPerSecond, 1000.0);
        QVERIFY(!v.latencyNote.isEmpty());
        QCOMPARE(run.headlineP99(), 2.5);
    }

    void failedRunShowsDashesNotZeros()
    {
        RunRecord run;
        run.status = QStringLiteral("failed");
        TestRecord t;
        t.name = QStringLiteral("SET");
        t.commands << row(QStringLiteral("SET"), 0);
        run.tests << t;
        KpiStripWidget strip;
        strip.setValues(KpiValues::wholeRun(run));
        for (const char* key : { "ops", "avg", "p50", "p99", "p999" })
            QCOMPARE(strip.tileText(QString::fromLatin1(key)), QStringLiteral("–"));
        QCOMPARE(strip.tileText(QStringLiteral("test")), QStringLiteral("failed"));

        ResultsTableModel model;
        model.setRun(run);
        for (int c : { ResultsTableModel::OpsPerSecond, ResultsTableModel::Avg, ResultsTableModel::P99, ResultsTableModel::KilobytesPerSecond })
            QCOMPARE(model.data(model.index(0, c)).toString(), QStringLiteral("–"));
        QCOMPARE(model.data(model.index(0, ResultsTableModel::Requests)).toString(), QStringLiteral("0"));

        RunProgressWidget progress;
        const KpiValues totals = KpiValues::wholeRun(run);
        progress.showTotals(totals.opsPerSecond, totals.p99Ms, totals.errors);
        QVERIFY2(progress.numbersText().contains(QStringLiteral("– ops/s")), qPrintable(progress.numbersText()));
    }

    void hitsOnlyForReads()
    {
        QVERIFY(ResultsTableModel::canMiss(QStringLiteral("GET")));
        QVERIFY(ResultsTableModel::canMiss(QStringLiteral("lrange_100")));
        QVERIFY(ResultsTableModel::canMiss(QStringLiteral("HGET (field)")));
        QVERIFY(!ResultsTableModel::canMiss(QStringLiteral("SET")));
        QVERIFY(!ResultsTableModel::canMiss(QStringLiteral("INCR")));
        QVERIFY(!ResultsTableModel::canMiss(QStringLiteral("LPUSH")));
        RunRecord run;
        TestRecord t;
        t.name = QStringLiteral("mixed");
        t.commands << row(QStringLiteral("SET"), 100) << row(QStringLiteral("GET"), 100) << row(QStringLiteral("INCR"), 100);
        run.tests << t;
        ResultsTableModel model;
        model.setRun(run);
        QCOMPARE(model.data(model.index(0, ResultsTableModel::Hits)).toString(), QStringLiteral("–"));
        QCOMPARE(model.data(model.index(0, ResultsTableModel::Misses)).toString(), QStringLiteral("–"));
        QCOMPARE(model.data(model.index(1, ResultsTableModel::Hits)).toString(), QStringLiteral("50"));
        QCOMPARE(model.data(model.index(1, ResultsTableModel::Misses)).toString(), QStringLiteral("50"));
        QCOMPARE(model.data(model.index(2, ResultsTableModel::Hits)).toString(), QStringLiteral("–"));
    }

    void runningRowSaysWhatItIs()
    {
        ResultsTableModel model;
        CommandRecord live = row(QStringLiteral("SET"), 500);
        live.latency.min = live.latency.p95 = std::numeric_limits<double>::quiet_NaN();
        model.setLiveRow(0, live);
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(model.data(model.index(0, ResultsTableModel::Command)).toString().contains(QLatin1String("running")));
        QCOMPARE(model.data(model.index(0, ResultsTableModel::Min)).toString(), QStringLiteral("at end"));
        QCOMPARE(model.data(model.index(0, ResultsTableModel::P95)).toString(), QStringLiteral("at end"));
        // Every column has text, and the row explains itself.
        for (int c = 0; c < ResultsTableModel::ColumnCount; ++c)
            QVERIFY2(!model.data(model.index(0, c)).toString().isEmpty(), qPrintable(ResultsTableModel::columnTitle(c)));
        QVERIFY(model.data(model.index(0, ResultsTableModel::P99), Qt::ToolTipRole).toString().contains(QLatin1String("last tick")));
        // Not greyed (grey fails contrast on a dark base): italic instead.
        QVERIFY(!model.data(model.index(0, ResultsTableModel::P99), Qt::ForegroundRole).isValid());
        QVERIFY(model.data(model.index(0, ResultsTableModel::P99), Qt::FontRole).value<QFont>().italic());
    }

    void hoverShowsTheValuesAtThePointer()
    {
        const RunRecord run = syntheticRun();
        RunChartWidget chart(ChartKind::Throughput);
        chart.resize(800, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.refresh(run);
        QCoreApplication::processEvents();
        QVERIFY(chart.readoutText().isEmpty());
        // Tick 50 ends at 5.1 s with 1,500 requests in 0.1 s: 15,000 ops/s.
        const IntervalSample& tick = run.tests[0].intervals[50];
        hoverAt(chart, QPointF(tick.end, tick.opsPerSecond()));
        const QString text = chart.readoutText();
        QVERIFY2(text.contains(QLatin1String("SET  15,000")), qPrintable(text));
        QVERIFY2(text.startsWith(QLatin1String("5.1 s")), qPrintable(text));
        // New data under a still pointer: the read-out follows it.
        RunRecord doubled = run;
        for (IntervalSample& s : doubled.tests[0].intervals)
            s.requests *= 2;
        chart.refresh(doubled);
        QVERIFY2(chart.readoutText().contains(QLatin1String("SET  30,000")), qPrintable(chart.readoutText()));

        RunChartWidget latency(ChartKind::Latency);
        latency.resize(800, 400);
        latency.show();
        latency.refresh(run);
        QCoreApplication::processEvents();
        hoverAt(latency, QPointF(tick.end, tick.p50));
        QVERIFY2(latency.readoutText().contains(QLatin1String("p99  0.9")), qPrintable(latency.readoutText()));
        QVERIFY2(latency.readoutText().contains(QLatin1String("max  2")), qPrintable(latency.readoutText()));

        // Leaving the chart hides it.
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(&latency, &leave);
        QVERIFY(latency.readoutText().isEmpty());
    }

    void clientStallBreaksTheLineAndIsNamed()
    {
        const RunRecord run = syntheticRun(12, 14);
        const QList<RunChartWidget::Stall> stalls = RunChartWidget::clientStalls(run);
        QCOMPARE(stalls.size(), 1);
        QVERIFY(std::abs(stalls[0].from - 12) < 1e-6);
        QVERIFY(std::abs(stalls[0].to - 14) < 1e-6);
        QCOMPARE(RunChartWidget::stallNote(run), QStringLiteral("client stall at 12.0 s–14.0 s"));
        QVERIFY(RunChartWidget::clientStalls(syntheticRun()).isEmpty());

        RunChartWidget chart(ChartKind::Throughput);
        chart.resize(800, 400);
        chart.show();
        chart.refresh(run);
        // Two pieces of one line: nothing drawn from 12 s to 14 s.
        QCOMPARE(chart.seriesCount(), 2);
        const auto pieces = chart.chart()->series();
        const QList<QPointF> before = qobject_cast<QLineSeries*>(pieces[0])->points();
        const QList<QPointF> after = qobject_cast<QLineSeries*>(pieces[1])->points();
        QVERIFY(before.last().x() <= 12 + 1e-6);
        QVERIFY(after.first().x() > 14);
        QCOMPARE(before.size() + after.size(), run.tests[0].intervals.size());
        // One legend entry.
        QCOMPARE(pieces[0]->name(), pieces[1]->name());
        // No read-out inside the gap.
        hoverAt(chart, QPointF(13, before.last().y()));
        QVERIFY2(!chart.readoutText().contains(QLatin1String("SET")), qPrintable(chart.readoutText()));

        // The Results page names it.
        ResultsPage page;
        page.showRun(run);
        QVERIFY2(page.detailsText().contains(QStringLiteral("client stall at 12.0 s–14.0 s")), qPrintable(page.detailsText()));
    }

    // Pictures for a person to look at, only when asked:
    // TACHO_SCREENSHOT_DIR=… [TACHO_SCREENSHOT_SIZE=1280x800] [TACHO_SCREENSHOT_DARK=1]:
    // the Run page during a SET,GET run of 3 s a test (with a chart read-out) and after
    // it, and the Results page.
    void screenshotsWhenAsked()
    {
        const auto request = tacho::test::screenshotRequest();
        if (!request)
            QSKIP("set TACHO_SCREENSHOT_DIR to take the screenshots");
        const QPalette original = QApplication::palette();
        if (request->dark)
            QApplication::setPalette(tacho::test::darkPalette());
        const QString stem = request->stem + QStringLiteral("numbers-");
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        auto window = tacho::test::windowOn(dir, tacho::test::loopbackProfile(server.host(), server.port()));
        window->resize(request->size);
        WorkloadSettings settings;
        settings.connections = 50;
        settings.pipeline = 4;
        settings.tests = QStringLiteral("set,get");
        settings.keyspace = 100000;
        settings.amount = WorkloadSettings::Amount::Duration;
        settings.durationSeconds = 3;
        window->runPage()->setup()->setSettings(settings);
        auto done = tacho::test::whenRunCompleted(*window);
        QVERIFY2(window->startRun(&error), qPrintable(error));
        QTest::qWait(4500);   // into the second test
        QVERIFY(!done->has_value());
        RunChartWidget* throughput = window->runPage()->charts()->chart(ChartKind::Throughput);
        QChart* c = throughput->chart();
        if (auto* first = qobject_cast<QLineSeries*>(c->series().value(0)); first && first->count() > 10)
            hoverAt(*throughput, first->at(first->count() / 2));
        QVERIFY(window->grab().save(stem + QStringLiteral("run-live.png")));
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 30000);
        QTest::qWait(500);
        QVERIFY(window->grab().save(stem + QStringLiteral("run-after.png")));
        window->showPage(MainWindow::ResultsTab);
        QTest::qWait(1000);
        QVERIFY(window->grab().save(stem + QStringLiteral("results.png")));
        window.reset();
        QApplication::setPalette(original);
    }

    void textColoursMeetAA_data()
    {
        QTest::addColumn<QPalette>("palette");
        QTest::newRow("light") << QApplication::style()->standardPalette();
        QTest::newRow("dark") << tacho::test::darkPalette();
    }

    void textColoursMeetAA()
    {
        QFETCH(QPalette, palette);
        QCOMPARE(CommandColors::contrastRatio(Qt::black, Qt::white), 21.0);
        for (QPalette::ColorRole background : { QPalette::Base, QPalette::AlternateBase, QPalette::Window }) {
            const QColor bg = palette.color(background);
            checkAA(CommandColors::errorText(palette), bg, "errors");
            checkAA(CommandColors::goodText(palette), bg, "cross-check agrees");
            checkAA(palette.color(QPalette::Text), bg, "table text (the running row too)");
        }
        checkAA(CommandColors::linkText(palette), palette.color(QPalette::Window), "links");
        checkAA(palette.color(QPalette::WindowText), palette.color(QPalette::Window), "labels");
        checkAA(KpiStripWidget::captionColor(palette), palette.color(QPalette::Base), "KPI captions");
    }
};

QTEST_MAIN(TestNumbersAtAGlance)
#include "test_numbers_at_a_glance.moc"
