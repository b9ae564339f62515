// The "Per test" bars (issue 20): the default 21-test suite as redis-benchmark
// -q pictures it, ops/s and p99 per test, from a real run against a real
// redis-server — every test there even when each lasts a few milliseconds
// (shorter than a chart tick), with the same figures as the results table.
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "ui/model/workload_settings.h"
#include "ui/results/results_page.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/widgets/results_table_model.h"
#include "ui/widgets/test_bars_widget.h"
#include "ui/window/main_window.h"
#include "support/redis_server.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestPerTestBars : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyTestOfTheDefaultSuiteHasItsBars()
    {
        tacho::test::screenshotRequest();   // the dark palette first, when asked
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        auto window = tacho::test::windowOn(dir, tacho::test::loopbackProfile(server.host(), server.port()));
        WorkloadSettings settings;   // every built-in test
        settings.connections = 5;
        settings.amount = WorkloadSettings::Amount::Requests;
        settings.requests = 300;     // a few milliseconds a test
        window->runPage()->setup()->setSettings(settings);
        auto done = tacho::test::whenRunCompleted(*window);
        QVERIFY2(window->startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(done->has_value(), 120000);   // a hang guard
        const RunRecord& run = **done;
        QCOMPARE(run.status, QStringLiteral("completed"));
        QCOMPARE(run.tests.size(), 21);

        const TestBarsWidget* bars = window->resultsPage()->testBars();
        QCOMPARE(bars->testNames().size(), 21);
        for (int i = 0; i < 21; ++i) {
            const TestRecord& test = run.tests[i];
            QCOMPARE(bars->testNames()[i], test.name);
            QVERIFY2(bars->opsPerSecond()[i] > 0, qPrintable(test.name));
            QCOMPARE(bars->opsPerSecond()[i], std::round(test.opsPerSecond()));
            QCOMPARE(bars->p99Ms()[i], test.latency.p99);
        }
        // The bars stand on the results table's figures: one row a test here.
        const ResultsTableModel* table = window->resultsPage()->tableModel();
        QCOMPARE(table->rowCount(), 21);
        for (int i = 0; i < 21; ++i) {
            const double tableOps = table->data(table->index(i, ResultsTableModel::OpsPerSecond), ResultsTableModel::RawRole).toDouble();
            QVERIFY2(std::round(tableOps) == bars->opsPerSecond()[i],
                     qPrintable(QStringLiteral("%1: table %2 ops/s, bar %3").arg(run.tests[i].name).arg(tableOps).arg(bars->opsPerSecond()[i])));
        }
        // What the server counted for SET is what the SET bar stands on.
        QCOMPARE(server.commandStatsCalls().value(QStringLiteral("set")), 300u);

        // On a laptop's screen the page scrolls; picking the tab brings the bars into view.
        const auto request = tacho::test::screenshotRequest();
        window->resize(request ? request->size : QSize(1260, 740));
        window->showPage(MainWindow::ResultsTab);
        QCoreApplication::processEvents();
        auto* tabWidget = qobject_cast<QTabWidget*>(bars->parentWidget()->parentWidget());
        QVERIFY(tabWidget);
        tabWidget->setCurrentWidget(const_cast<TestBarsWidget*>(bars));
        QCoreApplication::processEvents();
        QScrollArea* page = nullptr;
        for (QWidget* p = bars->parentWidget(); p && !page; p = p->parentWidget())
            page = qobject_cast<QScrollArea*>(p);
        QVERIFY(page);
        QVERIFY(page->viewport()->rect().contains(bars->mapTo(page->viewport(), QPoint(0, 0))));
        QVERIFY(page->verticalScrollBar()->value() > 0);   // it had to scroll: else this proves nothing
        if (request) {
            QDir().mkpath(QFileInfo(request->stem).path());
            window->grab().save(request->stem + QStringLiteral("per-test-bars.png"));
        }
    }
};

QTEST_MAIN(TestPerTestBars)
#include "test_per_test_bars.moc"
