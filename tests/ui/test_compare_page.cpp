// The Compare page (issue #6) on runs made by real processes against a real
// redis-server: two tacho-cli runs (pipeline 1 and 8) picked in the History,
// the table against a chosen baseline (checked with QAbstractItemModelTester,
// its verdict colours follow the sign of each change), per key and per
// connection normalisation, the fairness banner, the overlaid charts, the
// CSV (formula-like labels neutralised) and PNG exports; and peer results
// (redis-benchmark --csv run for real, memtier JSON) marked as imported
// with what they lack; two concurrent runs merged from the History count
// what the server counted.
#include <QAbstractItemModelTester>
#include <QChart>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

#include "engine/report/peer_import.h"
#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "ui/compare/compare_page.h"
#include "ui/compare/comparison_chart_widget.h"
#include "ui/compare/comparison_table_model.h"
#include "ui/history/history_model.h"
#include "ui/history/history_page.h"
#include "ui/window/main_window.h"
#include "ui/model/run_meta.h"
#include "ui_test_support.h"

using namespace tacho::ui;
using tacho::engine::Metric;
using tacho::engine::Normalisation;

namespace {

QString describe(const tacho::test::CliResult& r)
{
    return QStringLiteral("exit %1\n%2\n%3").arg(r.exitCode).arg(QString::fromUtf8(r.out.left(3000)), QString::fromUtf8(r.err.left(3000)));
}

double valueAt(const ComparisonTableModel& model, int row, int column)
{
    return model.index(row, column).data(ComparisonTableModel::ValueRole).toDouble();
}

} // namespace

class TestComparePage : public QObject {
    Q_OBJECT
private:
    tacho::test::RedisServer m_server;
    QTemporaryDir m_dir;
    QString m_historyDir;
    QString m_plain, m_pipelined;   // run files in the history folder
    quint64 m_setCallsPlain = 0, m_msetCallsPlain = 0;

    // A tacho-cli run of SET and MSET (10 keys per request) into `path`;
    // returns what INFO commandstats counted for set.
    QMap<QString, quint64> benchmark(const QString& path, const QString& pipeline)
    {
        m_server.flushAll();
        m_server.resetStats();
        const auto r = tacho::test::runCli({ "redis-benchmark", "-h", m_server.host(), "-p", QString::number(m_server.port()), "-t",
                                             "set,mset", "-n", "20000", "-c", "4", "-r", "1000", "-P", pipeline, "-q", "--json", path },
                                           60000);
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(describe(r)));
        return m_server.commandStatsCalls();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
        m_historyDir = QDir(m_dir.path()).filePath(QStringLiteral("runs"));
        QVERIFY(QDir().mkpath(m_historyDir));
        m_plain = QDir(m_historyDir).filePath(QStringLiteral("20250101-100000-000-plain.json"));
        m_pipelined = QDir(m_historyDir).filePath(QStringLiteral("20250101-110000-000-pipelined.json"));
        const auto plainStats = benchmark(m_plain, QStringLiteral("1"));
        m_setCallsPlain = plainStats.value(QStringLiteral("set"));
        m_msetCallsPlain = plainStats.value(QStringLiteral("mset"));
        QCOMPARE(m_setCallsPlain, 20000ull);
        QCOMPARE(m_msetCallsPlain, 20000ull);
        QCOMPARE(benchmark(m_pipelined, QStringLiteral("8")).value(QStringLiteral("set")), 20000ull);
        // A title that a spreadsheet would take for a formula.
        RunMeta meta;
        meta.title = QStringLiteral("=HYPERLINK(\"x\")");
        QVERIFY2(RunMeta::writeFor(m_pipelined, meta, &error), qPrintable(error));
    }

    void compareFromHistory()
    {
        QTemporaryDir home;
        AppContext context = tacho::test::temporaryContext(home);
        context.historyDir = m_historyDir;
        MainWindow window(context);
        window.resize(1600, 1000);
        QTRY_COMPARE_WITH_TIMEOUT(window.historyModel()->rowCount(), 2, 10000);

        ComparePage* page = window.comparePage();
        ComparisonTableModel* model = page->tableModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(window.pages()->isTabEnabled(MainWindow::CompareTab));

        // Multi-select in the History, then Compare.
        HistoryPage* history = window.historyPage();
        QVERIFY(history->selectPaths({ m_plain, m_pipelined }));
        QCOMPARE(history->selectedPaths().size(), 2);
        QSignalSpy changed(page, &ComparePage::runsChanged);
        history->compareSelected();
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 10000);
        QCOMPARE(window.pages()->currentIndex(), int(MainWindow::CompareTab));
        QCOMPARE(page->runCount(), 2);
        QCOMPARE(QString::fromStdString(page->run(0).path), m_plain);   // oldest first: the baseline

        // The table: SET and MSET rows, both runs, the change of [2] against [1].
        const int opsRow = model->rowOf(QStringLiteral("SET"), QString(), Metric::Ops);
        const int p99Row = model->rowOf(QStringLiteral("SET"), QString(), Metric::P99);
        const int msetOps = model->rowOf(QStringLiteral("MSET (10 keys)"), QString(), Metric::Ops);
        QVERIFY(opsRow >= 0 && p99Row >= 0);
        QVERIFY2(msetOps >= 0, qPrintable(QString::fromStdString(tacho::engine::formatComparison(*page->comparison()))));
        const int plainValue = model->columnOf(0, ComparisonTableModel::CellKind::Value);
        const int pipedValue = model->columnOf(1, ComparisonTableModel::CellKind::Value);
        const int change = model->columnOf(1, ComparisonTableModel::CellKind::Change);
        const int percent = model->columnOf(1, ComparisonTableModel::CellKind::Percent);
        QVERIFY(plainValue >= 0 && pipedValue >= 0 && change >= 0 && percent >= 0);
        QCOMPARE(model->columnOf(0, ComparisonTableModel::CellKind::Change), -1);   // the baseline has no change
        QVERIFY(model->headerData(plainValue, Qt::Horizontal).toString().contains(QLatin1String("baseline")));

        // The figures are the engine's: requests the server counted ÷ measured seconds.
        const auto& plain = page->run(0);
        QCOMPARE(plain.run.tests[0].requests, m_setCallsPlain);
        const double plainOps = double(m_setCallsPlain) / plain.run.tests[0].seconds;
        QVERIFY(std::fabs(valueAt(*model, opsRow, plainValue) - plainOps) < plainOps * 1e-9);
        const double pipedOps = valueAt(*model, opsRow, pipedValue);
        QVERIFY(std::fabs(valueAt(*model, opsRow, change) - (pipedOps - plainOps)) < plainOps * 1e-9);
        QVERIFY(std::fabs(valueAt(*model, opsRow, percent) - (pipedOps - plainOps) / plainOps * 100) < 1e-6);
        // Colour follows the verdict; the verdict follows "higher ops, lower latency is better".
        for (int row : { opsRow, p99Row }) {
            const double delta = valueAt(*model, row, change);
            const QString verdict = model->index(row, change).data(ComparisonTableModel::VerdictRole).toString();
            const bool higherBetter = row == opsRow;
            if (std::fabs(delta) > 1e-9 && verdict != QLatin1String("same")) {
                QCOMPARE(verdict, QString::fromLatin1((delta > 0) == higherBetter ? "better" : "worse"));
                const QColor expected = verdict == QLatin1String("better") ? ComparisonTableModel::betterColor() : ComparisonTableModel::worseColor();
                QCOMPARE(model->index(row, change).data(Qt::ForegroundRole).value<QBrush>().color(), expected);
            }
        }
        QCOMPARE(model->index(model->rowOf(QStringLiteral("SET"), QString(), Metric::Errors), plainValue).data().toString(), QStringLiteral("0"));

        // Unfair: the pipeline differs, and the banner says so.
        QVERIFY2(page->bannerLines().join('\n').contains(QLatin1String("pipeline")), qPrintable(page->bannerLines().join('\n')));

        // Charts: one throughput line per run, aligned at each run's start;
        // p99 and p50 per run; a spectrum per run and test.
        auto* throughput = page->chart(ComparisonChartWidget::Kind::Throughput);
        QCOMPARE(throughput->seriesCount(), 2);
        QVERIFY(throughput->pointCount() > 2);
        QCOMPARE(page->chart(ComparisonChartWidget::Kind::Latency)->seriesCount(), 4);
        QCOMPARE(page->chart(ComparisonChartWidget::Kind::Spectrum)->seriesCount(), 4);
        for (const auto& line : page->charts().throughput)
            QVERIFY(line.points.front().first < line.points.back().first);

        tacho::test::keepPicture(window, QStringLiteral("compare-page.png"));

        // Per key: MSET sends 10 keys per request; SET one.
        page->setNormalisation(Normalisation::PerKey);
        QCOMPARE(model->index(msetOps, 2).data().toString(), QStringLiteral("keys/s"));
        const auto& msetTest = plain.run.tests[1];
        QCOMPARE(msetTest.requests, m_msetCallsPlain);
        const double msetKeys = 10.0 * double(m_msetCallsPlain) / msetTest.seconds;
        QVERIFY(std::fabs(valueAt(*model, msetOps, plainValue) - msetKeys) < msetKeys * 1e-9);
        QVERIFY(std::fabs(valueAt(*model, opsRow, plainValue) - plainOps) < plainOps * 1e-9);
        // Per connection: ÷ 4 connections.
        page->setNormalisation(Normalisation::PerConnection);
        QVERIFY(std::fabs(valueAt(*model, opsRow, plainValue) - plainOps / 4) < plainOps * 1e-9);
        QCOMPARE(page->charts().throughputUnit, std::string("req/s/conn"));

        // Another baseline: the pipelined run; now [1] has the change columns.
        page->setNormalisation(Normalisation::PerRequest);
        page->setBaseline(1);
        QCOMPARE(model->columnOf(1, ComparisonTableModel::CellKind::Change), -1);
        QVERIFY(model->columnOf(0, ComparisonTableModel::CellKind::Change) >= 0);

        // One test's charts, on the test's own clock.
        page->setChartRow(model->rowOf(QStringLiteral("MSET (10 keys)"), QString(), Metric::Ops) / int(tacho::engine::kMetricCount));
        QCOMPARE(page->chart(ComparisonChartWidget::Kind::Spectrum)->seriesCount(), 2);

        // Exports.
        const QString csv = QDir(m_dir.path()).filePath(QStringLiteral("comparison.csv"));
        QString error;
        QVERIFY2(page->exportCsv(csv, &error), qPrintable(error));
        const QByteArray text = tacho::test::readAll(csv);
        QVERIFY(text.startsWith("test,command,metric,unit,run,label,value,baseline,change,change_percent,verdict\n"));
        QVERIFY2(text.contains("\"'=HYPERLINK(\"\"x\"\")\""), text.left(600).constData());   // neutralised, never a formula
        QVERIFY(!text.contains(",=HYPERLINK"));
        QVERIFY(text.contains("MSET (10 keys)"));
        QStringList written;
        QVERIFY2(page->exportCharts(QDir(m_dir.path()).filePath(QStringLiteral("charts")), QSize(800, 500), 1.0, &written, &error),
                 qPrintable(error));
        QCOMPARE(written.size(), 3);
        for (const QString& png : written) {
            const QImage image(png);
            QCOMPARE(image.size(), QSize(800, 500));
        }
        // The report as PDF, with the page's baseline; poppler reads it and finds every test.
        const QString pdf = QDir(m_dir.path()).filePath(QStringLiteral("comparison.pdf"));
        QVERIFY2(page->exportPdf(pdf, &error), qPrintable(error));
        QProcess pdftotext;
        pdftotext.start(QStandardPaths::findExecutable(QStringLiteral("pdftotext")), { pdf, QStringLiteral("-") });
        QVERIFY(pdftotext.waitForFinished(30000));
        QCOMPARE(pdftotext.exitCode(), 0);
        const QByteArray words = pdftotext.readAllStandardOutput().simplified();
        for (const char* expected : { "Tacho comparison", "SET", "MSET (10 keys)", "Comparison per request", "Fairness warnings", "pipeline" })
            QVERIFY2(words.contains(expected), qPrintable(QString::fromLatin1(expected) + QLatin1String(" not in: ") + QString::fromUtf8(words.left(1500))));
    }

    // Two load generators at the same time against one server, merged in
    // the History: the new run counts what the server counted.
    // On a dark palette the comparison charts are dark like the run charts
    // (they were white); a saved image stays light, for documents.
    void chartsFollowTheDarkPalette()
    {
        const QPalette original = QApplication::palette();
        QApplication::setPalette(tacho::test::darkPalette());
        {
            ComparisonChartWidget dark(ComparisonChartWidget::Kind::Latency);
            dark.setCharts({});
            QCOMPARE(dark.chart()->theme(), QChart::ChartThemeDark);
            QVERIFY(dark.chart()->backgroundBrush().color().lightness() < 128);
        }
        QApplication::setPalette(original);
        ComparisonChartWidget light(ComparisonChartWidget::Kind::Latency);
        QCOMPARE(light.chart()->theme(), QChart::ChartThemeLight);
        const QImage saved = ComparisonChartWidget::renderImage(ComparisonChartWidget::Kind::Latency, {}, QSize(300, 200), 1);
        QVERIFY(QColor(saved.pixel(2, 2)).lightness() > 200);
    }

    void mergeConcurrentRunsIntoHistory()
    {
        QTemporaryDir home;
        AppContext context = tacho::test::temporaryContext(home);
        QVERIFY(QDir().mkpath(context.historyDir));
        const QString a = QDir(context.historyDir).filePath(QStringLiteral("20250102-100000-000-loadgen-a.json"));
        const QString b = QDir(context.historyDir).filePath(QStringLiteral("20250102-100000-001-loadgen-b.json"));
        m_server.flushAll();
        m_server.resetStats();
        const QStringList common { "redis-benchmark", "-h", m_server.host(), "-p", QString::number(m_server.port()),
                                   "-t", "set,get", "-n", "6000", "-c", "4", "-r", "1000", "-q" };
        QProcess pa, pb;
        pa.start(tacho::test::cliPath(), QStringList(common) << "--json" << a);
        pb.start(tacho::test::cliPath(), QStringList(common) << "--json" << b);
        QVERIFY(pa.waitForFinished(60000) && pb.waitForFinished(60000));
        QCOMPARE(pa.exitCode(), 0);
        QCOMPARE(pb.exitCode(), 0);
        const auto stats = m_server.commandStatsCalls();
        QCOMPARE(stats.value(QStringLiteral("set")), 12000ull);

        MainWindow window(context);
        QTRY_COMPARE_WITH_TIMEOUT(window.historyModel()->rowCount(), 2, 10000);
        HistoryPage* history = window.historyPage();
        QVERIFY(history->selectPaths({ a, b }));
        QSignalSpy merged(history, &HistoryPage::merged);
        QSignalSpy failed(history, &HistoryPage::mergeFailed);
        history->mergeSelected(QStringLiteral("two load machines"));
        QTRY_VERIFY_WITH_TIMEOUT(merged.size() + failed.size() == 1, 10000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        const QString path = merged.first().first().toString();
        QVERIFY(path.startsWith(context.historyDir));
        QTRY_COMPARE_WITH_TIMEOUT(window.historyModel()->rowCount(), 3, 10000);
        const HistoryEntry& entry = window.historyModel()->entryAt(window.historyModel()->rowOf(path));
        QVERIFY2(entry.readable, qPrintable(entry.error));
        QCOMPARE(entry.title, QStringLiteral("two load machines"));
        QCOMPARE(entry.requests, stats.value(QStringLiteral("set")) + stats.value(QStringLiteral("get")));

        tacho::engine::LoadedRun run;
        std::string error;
        QVERIFY2(tacho::engine::loadRun(path.toStdString(), run, &error), error.c_str());
        QCOMPARE(run.sources.size(), std::size_t(2));
        for (const auto& t : run.run.tests) {
            QCOMPARE(t.requests, stats.value(QString::fromStdString(t.name).toLower()));
            QCOMPARE(t.latency.count(), t.requests);   // histograms merged, not averaged
        }
    }

    void importedPeerResultsAreMarked()
    {
        const QString rbPath = QStandardPaths::findExecutable(QStringLiteral("redis-benchmark"));
        QVERIFY2(!rbPath.isEmpty(), "redis-benchmark not found: ./test.sh installs it (apt-get install redis-tools)");
        m_server.resetStats();
        QProcess rb;
        rb.start(rbPath, { "-h", m_server.host(), "-p", QString::number(m_server.port()), "-t", "set", "-n", "3000", "-c", "4", "--csv" });
        QVERIFY(rb.waitForFinished(60000));
        QCOMPARE(rb.exitCode(), 0);
        QVERIFY(m_server.commandStatsCalls().value(QStringLiteral("set")) >= 3000ull);
        const QString csvPath = QDir(m_dir.path()).filePath(QStringLiteral("redis-benchmark.csv"));
        {
            QFile f(csvPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(rb.readAllStandardOutput());
        }
        const QString memtier = QDir(m_dir.path()).filePath(QStringLiteral("memtier.json"));
        const auto r = tacho::test::runCli({ "memtier", "-s", m_server.host(), "-p", QString::number(m_server.port()), "-t", "1", "-c", "2",
                                             "-n", "300", "--ratio", "1:0", "--key-maximum", "500", "--hide-histogram", "--json-out-file", memtier },
                                           60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));

        ComparePage page;
        QAbstractItemModelTester tester(page.tableModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&page, &ComparePage::runsChanged);
        page.setRunFiles({ m_plain, csvPath, memtier, QDir(m_dir.path()).filePath(QStringLiteral("missing.json")) });
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 10000);
        QCOMPARE(page.runCount(), 3);   // the missing file is reported, not compared
        const QStringList texts = page.runListTexts();
        QVERIFY2(!texts[0].contains(QLatin1String("imported")), qPrintable(texts[0]));
        QVERIFY2(texts[1].contains(QLatin1String("imported: redis-benchmark --csv")), qPrintable(texts[1]));
        QVERIFY2(texts[1].contains(QLatin1String("lacks:")), qPrintable(texts[1]));
        QVERIFY2(texts[2].contains(QLatin1String("imported: memtier_benchmark")), qPrintable(texts[2]));
        QVERIFY(page.bannerLines().join('\n').contains(QLatin1String("does not record")));

        // redis-benchmark's CSV has no p99.9: "n/a", never 0.
        ComparisonTableModel* model = page.tableModel();
        const int row = model->rowOf(QStringLiteral("SET"), QString(), Metric::P999);
        QVERIFY(row >= 0);
        const int column = model->columnOf(1, ComparisonTableModel::CellKind::Value);
        QCOMPARE(model->index(row, column).data().toString(), QStringLiteral("n/a"));
        QVERIFY(!model->index(row, column).data(ComparisonTableModel::ValueRole).isValid());
        QVERIFY(model->index(model->rowOf(QStringLiteral("SET"), QString(), Metric::Ops), column).data(ComparisonTableModel::ValueRole).toDouble() > 0);
    }
};

QTEST_MAIN(TestComparePage)
#include "test_compare_page.moc"
