// The run form's later additions against a real redis-server: a pasted
// memtier_benchmark line becomes the workload (target and outputs split off,
// no password in the copied line) and runs with the server counting every
// request; the open-loop rate field round-trips and holds the run to its
// rate; the latency spectrum fills in during a test, not only at its end;
// charts zoom, keep the zoom while data streams, and reset; the reply
// timeout and clean-up fields go through paste, copy and the engine config,
// and a run with clean-up leaves the server as it found it (issue #8).
#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMouseEvent>
#include <QTest>
#include <QValueAxis>

#include <optional>

#include "support/redis_server.h"
#include "ui/bridges/engine_bridge.h"
#include "ui/window/main_window.h"
#include "ui/stores/preset_library.h"
#include "ui/widgets/run_chart_widget.h"
#include "ui/widgets/run_charts_widget.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/model/workload_settings.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestRunFormExtras : public QObject {
    Q_OBJECT
private:
    tacho::test::RedisServer m_server;
    QTemporaryDir m_dir;
    ConnectionProfile m_profile;

    std::unique_ptr<MainWindow> makeWindow() { return tacho::test::windowOn(m_dir, m_profile); }

    static std::shared_ptr<std::optional<RunRecord>> start(MainWindow& window)
    {
        auto done = tacho::test::whenRunCompleted(window);
        QString error;
        if (!window.startRun(&error))
            qWarning("startRun: %s", qPrintable(error));
        return done;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        m_profile = tacho::test::loopbackProfile(m_server.host(), m_server.port());
    }

    void memtierLineFillsTheForm()
    {
        QString error;
        QStringList ignored;
        WorkloadSettings::Target target;
        const auto s = WorkloadSettings::fromCommandLine(
            QStringLiteral("memtier_benchmark -s 10.0.0.7 -p 7000 -a s3cret --ratio=1:4 -c 5 -t 2 --test-time 3 -d 100 "
                           "--key-max=999 --key-prefix k: --json out.json --hide-histogram --pipeline 4"),
            &error, &ignored, &target);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->commands, WorkloadSettings::Commands::Memtier);
        QCOMPARE(s->connections, 10);
        QCOMPARE(s->threads, 2);
        QCOMPARE(s->pipeline, 4);
        QCOMPARE(s->amount, WorkloadSettings::Amount::Duration);
        QCOMPARE(s->durationSeconds, 3.0);
        QCOMPARE(s->valueSize, quint32(100));
        QCOMPARE(s->keyspace, quint64(1000));   // memtier's range starts at 0
        QVERIFY(s->memtierArguments.contains(QStringLiteral("--ratio=1:4")));
        QVERIFY(s->memtierArguments.contains(QStringLiteral("--key-maximum=999")));   // abbreviations resolved
        for (const QString& arg : s->memtierArguments)
            QVERIFY2(!arg.startsWith(QLatin1String("--server")) && !arg.startsWith(QLatin1String("--authenticate"))
                         && !arg.startsWith(QLatin1String("--json")) && !arg.startsWith(QLatin1String("--port")),
                     qPrintable(arg));
        QVERIFY(ignored.contains(QStringLiteral("--json")));
        QVERIFY(ignored.contains(QStringLiteral("--hide-histogram")));
        QVERIFY(target.given);
        QCOMPARE(target.host, QStringLiteral("10.0.0.7"));
        QCOMPARE(target.port, quint16(7000));
        const QString line = s->toCommandLine({ "-h", "127.0.0.1" });
        QVERIFY2(line.startsWith(QLatin1String("tacho-cli memtier -h 127.0.0.1 --ratio=1:4")), qPrintable(line));
        QVERIFY(!line.contains(QLatin1String("s3cret")));
        QVERIFY(s->toRunConfig(&error).has_value());

        // Errors name the option; the form keeps what it had.
        QVERIFY(!WorkloadSettings::fromCommandLine(QStringLiteral("memtier_benchmark --ratio=x"), &error));
        QVERIFY2(error.contains(QLatin1String("--ratio")), qPrintable(error));
        QVERIFY(!WorkloadSettings::fromCommandLine(QStringLiteral("memtier_benchmark --bogus 1"), &error));
        QVERIFY2(error.contains(QLatin1String("--bogus")), qPrintable(error));

        // In the form: the memtier radio is the workload, the fields describe it and are locked.
        Q_INIT_RESOURCE(tacho);
        RunSetupWidget form(PresetLibrary::load(QStringLiteral(":/presets")));
        QString message;
        QVERIFY2(form.applyCommandLine(QStringLiteral("memtier_benchmark --ratio 1:1 -c 2 -t 1 -n 50"), &message), qPrintable(message));
        QCOMPARE(form.settings().commands, WorkloadSettings::Commands::Memtier);
        QCOMPARE(form.settings().connections, 2);
        QVERIFY(form.isValid());
        QVERIFY(form.commandLine().contains(QLatin1String("tacho-cli memtier")));
    }

    void rateFieldRoundTrips()
    {
        QString error;
        const auto pasted = WorkloadSettings::fromCommandLine(QStringLiteral("redis-benchmark -t set --rate 2500 --duration 1"), &error);
        QVERIFY2(pasted, qPrintable(error));
        QCOMPARE(pasted->rate, 2500.0);
        QVERIFY(pasted->toArguments().join(QLatin1Char(' ')).contains(QLatin1String("--rate 2500")));
        QCOMPARE(pasted->toRunConfig(&error)->rate, 2500.0);
        QVERIFY(!WorkloadSettings::fromCommandLine(QStringLiteral("redis-benchmark --rate 0"), &error));
        QVERIFY2(error.startsWith(QLatin1String("--rate:")), qPrintable(error));
        QVERIFY(!WorkloadSettings::fromCommandLine(QStringLiteral("redis-benchmark --rate fast"), &error));
        QVERIFY2(error.startsWith(QLatin1String("--rate:")), qPrintable(error));
    }

    void replyTimeoutAndCleanupRoundTrip()
    {
        // redis-benchmark line → settings → arguments and engine config.
        QString error;
        const auto rb = WorkloadSettings::fromCommandLine(
            QStringLiteral("redis-benchmark -t set -n 10 --reply-timeout 2.5 --cleanup"), &error);
        QVERIFY2(rb, qPrintable(error));
        QCOMPARE(rb->replyTimeoutSeconds, 2.5);
        QVERIFY(rb->cleanup);
        QVERIFY2(rb->toArguments().join(QLatin1Char(' ')).contains(QLatin1String("--reply-timeout 2.5 --cleanup")),
                 qPrintable(rb->toArguments().join(QLatin1Char(' '))));
        QCOMPARE(rb->toRunConfig(&error)->replyTimeoutMs, 2500);
        const auto plain = WorkloadSettings::fromCommandLine(QStringLiteral("redis-benchmark -t set"), &error);
        QCOMPARE(plain->replyTimeoutSeconds, 5.0);   // the engine's default
        QVERIFY(!plain->cleanup);
        QVERIFY(!plain->toArguments().join(QLatin1Char(' ')).contains(QLatin1String("--reply-timeout")));
        QVERIFY(!plain->toArguments().contains(QLatin1String("--cleanup")));
        QVERIFY(!WorkloadSettings::fromCommandLine(QStringLiteral("redis-benchmark --reply-timeout -1"), &error));
        QVERIFY2(error.startsWith(QLatin1String("--reply-timeout:")), qPrintable(error));

        // memtier line: the two options become fields, not part of the kept workload.
        const auto mt = WorkloadSettings::fromCommandLine(
            QStringLiteral("memtier_benchmark --ratio 1:1 -c 2 -t 1 -n 50 --reply-timeout 0.5 --cleanup"), &error);
        QVERIFY2(mt, qPrintable(error));
        QCOMPARE(mt->replyTimeoutSeconds, 0.5);
        QVERIFY(mt->cleanup);
        for (const QString& arg : mt->memtierArguments)
            QVERIFY2(!arg.startsWith(QLatin1String("--reply-timeout")) && arg != QLatin1String("--cleanup"), qPrintable(arg));
        const QString mtLine = mt->toCommandLine({});
        QVERIFY2(mtLine.endsWith(QLatin1String("--reply-timeout=0.5 --cleanup")), qPrintable(mtLine));
        QCOMPARE(mt->toRunConfig(&error)->replyTimeoutMs, 500);
        const auto again = WorkloadSettings::fromCommandLine(mtLine, &error);   // copy → paste gives the same
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(*again, *mt);

        // The form: paste fills the fields, copy emits them, the engine config takes them.
        Q_INIT_RESOURCE(tacho);
        RunSetupWidget form(PresetLibrary::load(QStringLiteral(":/presets")));
        auto* timeout = form.findChild<QDoubleSpinBox*>();
        for (auto* box : form.findChildren<QDoubleSpinBox*>())
            if (box->accessibleName() == QLatin1String("Reply timeout in seconds"))
                timeout = box;
        QCheckBox* cleanup = nullptr;
        for (auto* box : form.findChildren<QCheckBox*>())
            if (box->text().remove(QLatin1Char('&')) == QLatin1String("Clean up keys after the run"))
                cleanup = box;
        QVERIFY(timeout && timeout->accessibleName() == QLatin1String("Reply timeout in seconds") && cleanup);
        QVERIFY(timeout->toolTip().contains(QLatin1String("--reply-timeout")));
        QVERIFY(cleanup->toolTip().contains(QLatin1String("--cleanup")));
        QCOMPARE(timeout->value(), 5.0);
        QVERIFY(!cleanup->isChecked());
        QString message;
        QVERIFY2(form.applyCommandLine(QStringLiteral("redis-benchmark -t set,get -n 1000 --reply-timeout 0.25 --cleanup"), &message),
                 qPrintable(message));
        QCOMPARE(timeout->value(), 0.25);
        QVERIFY(cleanup->isChecked());
        form.resize(1100, 760);
        form.show();
        tacho::test::keepPicture(form, QStringLiteral("run-form-timeout-cleanup.png"));
        QVERIFY2(form.commandLine().contains(QLatin1String("--reply-timeout 0.25 --cleanup")), qPrintable(form.commandLine()));
        QVERIFY2(!form.seriesCommandLine().contains(QLatin1String("--cleanup")), qPrintable(form.seriesCommandLine()));
        QCOMPARE(form.runConfig(&error)->replyTimeoutMs, 250);
        // Typed: 0 means wait forever; letters are not taken.
        timeout->clear();
        QTest::keyClicks(timeout, QStringLiteral("0"));
        QCOMPARE(form.runConfig(&error)->replyTimeoutMs, 0);
        QVERIFY(form.isValid());
        QTest::keyClicks(timeout, QStringLiteral("x"));
        QCOMPARE(timeout->value(), 0.0);
        timeout->setValue(12);
        cleanup->setChecked(false);
        QCOMPARE(form.runConfig(&error)->replyTimeoutMs, 12000);
        QVERIFY(!form.commandLine().contains(QLatin1String("--cleanup")));

        // Saved and restored with the form's other fields.
        cleanup->setChecked(true);
        const WorkloadSettings saved = form.settings();
        RunSetupWidget restored(PresetLibrary::load(QStringLiteral(":/presets")));
        restored.setSettings(saved);
        QCOMPARE(restored.settings(), saved);
        QCOMPARE(restored.settings().replyTimeoutSeconds, 12.0);
        QVERIFY(restored.settings().cleanup);
        QCOMPARE(restored.commandLine(), form.commandLine());
        // A memtier workload keeps both fields editable.
        QVERIFY2(form.applyCommandLine(QStringLiteral("memtier_benchmark --ratio 1:1 -n 5 --reply-timeout=3"), &message), qPrintable(message));
        QCOMPARE(timeout->value(), 3.0);
        QVERIFY(!cleanup->isChecked());
        QVERIFY(timeout->isEnabled() && cleanup->isEnabled());
        cleanup->setChecked(true);
        QVERIFY2(form.commandLine().endsWith(QLatin1String("--reply-timeout=3 --cleanup")), qPrintable(form.commandLine()));
        QVERIFY(form.isValid());
    }

    // A workbench run with clean-up: the server keeps only the keys it had,
    // and the run file says how many the clean-up removed.
    void runWithCleanupLeavesOnlyTheUsersKeys()
    {
        const QStringList userKeys { QStringLiteral("key:not-digits"), QStringLiteral("user:1"), QStringLiteral("key:12345") };
        m_server.flushAll();
        for (const QString& key : userKeys)
            QCOMPARE(m_server.commandString({ QStringLiteral("SET"), key, QStringLiteral("the user's") }), std::optional<QString>("OK"));
        auto window = makeWindow();
        QString message;
        // 5000 SETs over 100 random keys: every key is written.
        QVERIFY2(window->runPage()->setup()->applyCommandLine(QStringLiteral("redis-benchmark -t set -r 100 -n 5000 -c 2 --cleanup"), &message),
                 qPrintable(message));
        m_server.command({ QStringLiteral("CONFIG"), QStringLiteral("RESETSTAT") });
        auto done = start(*window);
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 30000);
        const RunRecord& run = **done;
        QCOMPARE(run.status, QStringLiteral("completed"));
        QCOMPARE(m_server.dbSize(), qint64(userKeys.size()));
        for (const QString& key : userKeys)
            QCOMPARE(m_server.commandString({ QStringLiteral("GET"), key }), std::optional<QString>("the user's"));
        const auto calls = m_server.commandStatsCalls();
        QCOMPARE(calls.value(QStringLiteral("set")), quint64(5000));
        QVERIFY(calls.value(QStringLiteral("scan")) > 0 && calls.value(QStringLiteral("unlink")) > 0);
        QVERIFY2(run.cleanup.startsWith(QLatin1String("cleanup: removed 100 keys matching key:")), qPrintable(run.cleanup));
        const QJsonObject section = QJsonDocument::fromJson(tacho::test::readAll(run.filePath)).object().value("cleanup").toObject();
        QCOMPARE(section.value("status").toString(), QStringLiteral("completed"));
        QCOMPARE(section.value("removed").toInteger(), 100);
        QCOMPARE(section.value("nodes").toArray().size(), 1);
        QVERIFY(!window->isRunning());

        // Without the box ticked nothing is removed.
        m_server.command({ QStringLiteral("CONFIG"), QStringLiteral("RESETSTAT") });
        QVERIFY(window->runPage()->setup()->applyCommandLine(QStringLiteral("redis-benchmark -t set -r 100 -n 5000 -c 2"), &message));
        done = start(*window);
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 30000);
        QCOMPARE(m_server.dbSize(), qint64(userKeys.size() + 100));
        QCOMPARE(m_server.commandStatsCalls().value(QStringLiteral("scan")), quint64(0));
        QVERIFY((*done)->cleanup.isEmpty());
        QVERIFY(!QJsonDocument::fromJson(tacho::test::readAll((*done)->filePath)).object().contains("cleanup"));
    }

    void memtierWorkloadRunsAndTheServerAgrees()
    {
        auto window = makeWindow();
        QString message;
        QVERIFY2(window->runPage()->setup()->applyCommandLine(
                     QStringLiteral("memtier_benchmark --ratio 1:1 -c 2 -t 1 -n 200 --key-maximum 99"), &message),
                 qPrintable(message));
        m_server.command({ QStringLiteral("CONFIG"), QStringLiteral("RESETSTAT") });
        auto done = start(*window);
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 30000);
        QCOMPARE((*done)->status, QStringLiteral("completed"));
        QCOMPARE((*done)->totalRequests(), quint64(400));   // 200 per connection
        const auto calls = m_server.commandStatsCalls();
        QCOMPARE(calls.value(QStringLiteral("set")) + calls.value(QStringLiteral("get")), quint64(400));
        QVERIFY(calls.value(QStringLiteral("set")) > 0 && calls.value(QStringLiteral("get")) > 0);
    }

    void openLoopRateHoldsAndTheSpectrumIsLive()
    {
        auto window = makeWindow();
        WorkloadSettings s;
        s.connections = 4;
        s.tests = QStringLiteral("set");
        s.keyspace = 1000;
        s.amount = WorkloadSettings::Amount::Duration;
        s.durationSeconds = 2.5;
        s.rate = 800;
        window->runPage()->setup()->setSettings(s);
        m_server.command({ QStringLiteral("CONFIG"), QStringLiteral("RESETSTAT") });

        // Before the test ends, the spectrum chart already draws the test so far.
        bool testFinished = false;
        int liveSpectrumPoints = 0;
        QObject::connect(window->bridge(), &EngineBridge::testFinished, window.get(), [&] { testFinished = true; });
        RunChartWidget* spectrum = window->runPage()->charts()->chart(ChartKind::Spectrum);
        auto done = start(*window);
        QTRY_VERIFY_WITH_TIMEOUT(window->runPage()->samplesReceived() >= 12, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(spectrum->pointCount() > 0 || testFinished, 5000);
        if (!testFinished)
            liveSpectrumPoints = spectrum->pointCount();
        QVERIFY2(liveSpectrumPoints > 5, "the spectrum was empty while the test ran");
        QVERIFY(!window->runPage()->liveRun().tests.value(0).spectrum.isEmpty());
        tacho::test::keepPicture(*window, QStringLiteral("run-page-live-spectrum.png"));

        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 20000);
        const RunRecord& run = **done;
        QCOMPARE(run.status, QStringLiteral("completed"));
        const quint64 sent = run.totalRequests();
        QCOMPARE(m_server.commandStatsCalls().value(QStringLiteral("set")), sent + run.tests.value(0).warmupRequests);
        // Open loop: about 800/s for 2.5 s, never far above it (closed loop would send tens of thousands).
        QVERIFY2(sent <= quint64(800 * 2.5 * 1.1 + 10), qPrintable(QString::number(sent)));
        QVERIFY2(sent >= quint64(800 * 2.5 * 0.5), qPrintable(QString::number(sent)));
        QCOMPARE(QJsonDocument::fromJson(tacho::test::readAll(run.filePath)).object().value("config").toObject().value("rate").toDouble(), 800.0);
    }

    void chartsZoomAndKeepTheZoom()
    {
        RunChartWidget chart(ChartKind::Throughput);
        chart.resize(600, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        RunRecord run = RunRecord::fromRunResult(tacho::test::syntheticResult(1000));
        chart.refresh(run);
        auto* x = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        const double fullMax = x->max();

        // A rubber-band drag over the left half of the plot zooms in.
        const QRectF plot = chart.chart()->plotArea();
        const QPoint from = chart.mapFromScene(plot.topLeft() + QPointF(2, 2));
        const QPoint to = chart.mapFromScene(QPointF(plot.center().x(), plot.bottom() - 2));
        QTest::mousePress(chart.viewport(), Qt::LeftButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, to, chart.viewport()->mapToGlobal(to), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(chart.viewport(), &move);
        QTest::mouseRelease(chart.viewport(), Qt::LeftButton, {}, to);
        QVERIFY(chart.isZoomed());
        const double zoomedMax = x->max();
        QVERIFY2(zoomedMax < fullMax, qPrintable(QStringLiteral("%1 vs %2").arg(zoomedMax).arg(fullMax)));

        // More data streams in: the zoom holds.
        IntervalSample more = run.tests[0].intervals.last();
        more.start += 5;
        more.end += 5;
        run.tests[0].intervals << more;
        chart.refresh(run);
        QCOMPARE(x->max(), zoomedMax);

        // Right-click: everything again, and the next refresh covers the new data.
        QTest::mouseClick(chart.viewport(), Qt::RightButton, {}, chart.viewport()->rect().center());
        QVERIFY(!chart.isZoomed());
        chart.refresh(run);
        QVERIFY(x->max() > fullMax);
    }
};

QTEST_MAIN(TestRunFormExtras)
#include "test_run_form_extras.moc"
