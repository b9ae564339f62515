// History as an experiment log: titles made from the workload unless the
// person named the run, a column per workload setting, one filter over all
// of them (tags and notes too), tags kept in the sidecar; every run's
// command line shown, loaded back into the Run form or run again as it ran;
// the selected runs exported as one CSV with each row led by its run.
#include <QApplication>
#include <QFile>
#include <QRegularExpression>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include <optional>

#include "engine/report/run_file.h"
#include "support/redis_server.h"
#include "ui/compare/compare_page.h"
#include "ui/compare/comparison_chart_widget.h"
#include "ui/history/history_model.h"
#include "ui/history/history_page.h"
#include "ui/model/run_csv.h"
#include "ui/results/results_exporter.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/stores/history_store.h"
#include "ui/window/main_window.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestHistoryLog : public QObject {
    Q_OBJECT
private:
    // A run of SET,GET with 50 connections, pipeline 16, 64-byte values, 100k requests.
    static tacho::engine::RunResult workloadRun(const char* startedAtUtc)
    {
        auto r = tacho::test::syntheticResult(1000);
        r.config.connections = 50;
        r.config.pipeline = 16;
        r.config.valueSize = 64;
        r.config.requests = 100000;
        tacho::engine::TestSpec get = r.config.tests.front();
        get.name = "GET";
        get.args = { "GET", "key:__rand_int__" };
        get.commandStatName = "get";
        r.config.tests.push_back(get);
        r.environment.startedAtUtc = startedAtUtc;
        return r;
    }

    static void writeRun(const QString& path, const tacho::engine::RunResult& run, const RunMeta& meta = {})
    {
        std::string error;
        QVERIFY2(tacho::engine::writeRunFile(path.toStdString(), run, &error), error.c_str());
        if (!(meta == RunMeta {})) {
            QString why;
            QVERIFY2(RunMeta::writeFor(path, meta, &why), qPrintable(why));
        }
    }

    // A window's context whose history folder exists.
    static AppContext historyContext(const QTemporaryDir& dir)
    {
        const AppContext context = tacho::test::temporaryContext(dir);
        QDir().mkpath(context.historyDir);
        return context;
    }

    static int visibleRows(HistoryPage* page) { return page->view()->model()->rowCount(); }

private Q_SLOTS:
    void titlesColumnsFilterAndTags()
    {
        QTemporaryDir dir;
        const AppContext context = historyContext(dir);
        const QDir runs(context.historyDir);
        const QString custom = runs.filePath("20250131-120000-000-custom.json");
        const QString named = runs.filePath("20250201-120000-000-named.json");
        const QString plain = runs.filePath("20250202-120000-000-plain.json");
        RunMeta customMeta;
        customMeta.workload = customMeta.title = QStringLiteral("Custom");   // what the workbench stored before
        customMeta.profile = QStringLiteral("staging cache");
        customMeta.notes = QStringLiteral("kernel 6.8, THP off");
        writeRun(custom, workloadRun("2025-01-31T12:00:00Z"), customMeta);
        RunMeta namedMeta;
        namedMeta.workload = QStringLiteral("Custom");
        namedMeta.title = QStringLiteral("baseline before upgrade");
        writeRun(named, workloadRun("2025-02-01T12:00:00Z"), namedMeta);
        writeRun(plain, tacho::test::syntheticResult(1000));   // SET, 10 connections, no sidecar

        MainWindow window(context);
        HistoryModel* model = window.historyModel();
        HistoryPage* page = window.historyPage();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 10000);
        const auto cell = [&](const QString& path, int column) { return model->index(model->rowOf(path), column).data().toString(); };
        QCOMPARE(cell(custom, HistoryModel::Title), QStringLiteral("SET,GET c50 P16 64B 100k"));
        QCOMPARE(cell(named, HistoryModel::Title), QStringLiteral("baseline before upgrade"));
        QCOMPARE(cell(plain, HistoryModel::Title), QStringLiteral("SET c10 P1 3B 1k"));
        QCOMPARE(cell(custom, HistoryModel::Connections), QStringLiteral("50"));
        QCOMPARE(cell(custom, HistoryModel::Pipeline), QStringLiteral("16"));
        QCOMPARE(cell(custom, HistoryModel::ValueSize), QStringLiteral("64 B"));
        QCOMPARE(cell(custom, HistoryModel::Tests), QStringLiteral("SET,GET"));
        QCOMPARE(cell(custom, HistoryModel::Length), QStringLiteral("100k"));
        QCOMPARE(cell(custom, HistoryModel::Target), QStringLiteral("staging cache (127.0.0.1:6379)"));
        QCOMPARE(cell(plain, HistoryModel::Target), QStringLiteral("127.0.0.1:6379"));

        // The filter matches any column, the notes and the tags.
        page->setFilterText(QStringLiteral("c50"));
        QCOMPARE(visibleRows(page), 2);
        page->setFilterText(QStringLiteral("THP"));
        QCOMPARE(visibleRows(page), 1);
        page->setFilterText(QStringLiteral("staging"));
        QCOMPARE(visibleRows(page), 1);
        page->setFilterText(QStringLiteral("nothing like this"));
        QCOMPARE(visibleRows(page), 0);
        page->setFilterText(QString());
        QCOMPARE(visibleRows(page), 3);

        QVERIFY(page->selectPath(plain));
        page->tagSelected(QStringList { QStringLiteral(" canary "), QStringLiteral("canary"), QStringLiteral("io_uring") });
        QCOMPARE(cell(plain, HistoryModel::Tags), QStringLiteral("canary, io_uring"));
        page->setFilterText(QStringLiteral("io_uring"));
        QCOMPARE(visibleRows(page), 1);
        QCOMPARE(page->view()->model()->index(0, 0).data(HistoryModel::PathRole).toString(), plain);
        tacho::test::keepPicture(window, QStringLiteral("history-log.png"));

        // The tags live in the sidecar: a new store reads them back.
        QCOMPARE(HistoryStore::readEntry(plain).tags, (QStringList { QStringLiteral("canary"), QStringLiteral("io_uring") }));
        QCOMPARE(HistoryStore::readEntry(custom).notes, QStringLiteral("kernel 6.8, THP off"));
    }

    void selectedRunsExportAsOneCsv()
    {
        QTemporaryDir dir;
        const AppContext context = historyContext(dir);
        const QDir runs(context.historyDir);
        const QString first = runs.filePath("20250131-120000-000-first.json");
        const QString second = runs.filePath("20250201-120000-000-second.json");
        writeRun(first, workloadRun("2025-01-31T12:00:00Z"));
        writeRun(second, tacho::test::syntheticResult(500));

        MainWindow window(context);
        QTRY_COMPARE_WITH_TIMEOUT(window.historyModel()->rowCount(), 2, 10000);
        HistoryPage* page = window.historyPage();
        QVERIFY(page->selectPaths({ first, second }));
        const QString out = dir.filePath(QStringLiteral("runs.csv"));
        QString error;
        QVERIFY2(page->exportSelectedCsv(out, &error), qPrintable(error));

        const QStringList lines = QString::fromUtf8(tacho::test::readAll(out)).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.first(), RunCsv::header());
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^run_id,"))).size(), 1);
        const QStringList header = lines.first().split(QLatin1Char(','));
        const int idColumn = header.indexOf(QStringLiteral("run_id"));
        const int connectionsColumn = header.indexOf(QStringLiteral("connections"));
        const int testColumn = header.indexOf(QStringLiteral("test"));
        const int requestsColumn = header.indexOf(QStringLiteral("requests"));
        QMap<QString, QStringList> testsById;
        QMap<QString, QString> connectionsById;
        quint64 requests = 0;
        for (const QString& line : lines.mid(1)) {
            const QStringList cells = tacho::test::csvCells(line);
            QCOMPARE(cells.size(), header.size());
            if (cells.at(idColumn).endsWith(QLatin1String("first")))
                QCOMPARE(cells.at(header.indexOf(QStringLiteral("title"))), QStringLiteral("SET,GET c50 P16 64B 100k"));
            testsById[cells.at(idColumn)] << cells.at(testColumn);
            connectionsById[cells.at(idColumn)] = cells.at(connectionsColumn);
            requests += cells.at(requestsColumn).toULongLong();
        }
        QCOMPARE(testsById.keys(), (QStringList { QStringLiteral("20250131-120000-000-first"), QStringLiteral("20250201-120000-000-second") }));
        QCOMPARE(testsById.value(QStringLiteral("20250131-120000-000-first")), (QStringList { QStringLiteral("SET") }));
        QCOMPARE(testsById.value(QStringLiteral("20250201-120000-000-second")), (QStringList { QStringLiteral("SET") }));
        QCOMPARE(connectionsById.value(QStringLiteral("20250131-120000-000-first")), QStringLiteral("50"));
        QCOMPARE(connectionsById.value(QStringLiteral("20250201-120000-000-second")), QStringLiteral("10"));
        QCOMPARE(requests, 1500ull);
    }

    void chartCaptionNamesWorkloadTargetAndDate()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.json"));
        writeRun(path, workloadRun("2025-01-31T12:00:00Z"));
        QString error;
        auto record = HistoryStore::readRecord(path, &error);
        QVERIFY2(record, qPrintable(error));
        QCOMPARE(ResultsExporter::captionOf(*record), QStringLiteral("SET,GET c50 P16 64B 100k · 127.0.0.1:6379 · 2025-01-31 12:00 UTC"));
        record->meta.profile = QStringLiteral("staging cache");
        record->meta.title = QStringLiteral("after kernel upgrade");
        QCOMPARE(ResultsExporter::captionOf(*record),
                 QStringLiteral("after kernel upgrade · staging cache (127.0.0.1:6379) · 2025-01-31 12:00 UTC"));
    }

    void compareLegendsNameRunsByTitle()
    {
        QTemporaryDir dir;
        const AppContext context = historyContext(dir);
        const QString first = QDir(context.historyDir).filePath("20250131-120000-000-first.json");
        const QString second = QDir(context.historyDir).filePath("20250201-120000-000-second.json");
        writeRun(first, workloadRun("2025-01-31T12:00:00Z"));
        RunMeta named;
        named.title = QStringLiteral("after kernel upgrade");
        writeRun(second, workloadRun("2025-02-01T12:00:00Z"), named);
        MainWindow window(context);
        window.resize(1920, 1080);   // room for the legend: a narrower chart leaves it to the run list
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.historyModel()->rowCount(), 2, 10000);
        QVERIFY(window.historyPage()->selectPaths({ first, second }));
        window.historyPage()->compareSelected();
        ComparisonChartWidget* latency = window.comparePage()->chart(ComparisonChartWidget::Kind::Latency);
        QTRY_COMPARE_WITH_TIMEOUT(latency->seriesCount(), 4, 10000);   // p99 and p50 of each run
        QTRY_VERIFY(latency->legendShown());
        QStringList legend;
        for (QLegendMarker* marker : latency->chart()->legend()->markers())
            if (marker->isVisible())
                legend << marker->label();
        QCOMPARE(legend, (QStringList { QStringLiteral("SET,GET c50 P16 64B 100k"), QStringLiteral("after kernel upgrade") }));
    }

    void pastRunLoadsIntoTheFormAndRunsAgain()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        const AppContext context = tacho::test::temporaryContext(dir);
        MainWindow window(context);
        window.show();
        const ConnectionProfile profile = tacho::test::loopbackProfile(server.host(), server.port());
        window.saveProfile(profile, QString(), false);
        QVERIFY(window.selectTarget(profile.id));

        WorkloadSettings past;
        past.connections = 7;
        past.pipeline = 3;
        past.tests = QStringLiteral("set,get");
        past.valueSize = 40;
        past.requests = 3000;
        past.keyspace = 1000;
        RunSetupWidget* setup = window.runPage()->setup();
        setup->setSettings(past);
        std::optional<RunRecord> done;
        connect(&window, &MainWindow::runCompleted, this, [&](const RunRecord& r) { done = r; });
        QVERIFY2(window.startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(done.has_value(), 60000);
        const RunRecord first = *done;
        QVERIFY(!first.meta.commandLine.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(window.historyModel()->rowOf(first.filePath) >= 0, 10000);

        // The History page shows the run's exact command line.
        HistoryPage* page = window.historyPage();
        QVERIFY(page->selectPath(first.filePath));
        QCOMPARE(page->shownCommandLine(), first.meta.commandLine);
        QLabel* shown = nullptr;
        for (QLabel* label : page->findChildren<QLabel*>())
            if (label->accessibleName() == QLatin1String("Command line of the selected run"))
                shown = label;
        QVERIFY(shown);
        QCOMPARE(shown->text(), first.meta.commandLine);

        // Load into Run form: the form holds the past workload again.
        WorkloadSettings other = past;
        other.connections = 1;
        other.pipeline = 1;
        other.tests = QStringLiteral("ping");
        other.valueSize = 3;
        setup->setSettings(other);
        QVERIFY(setup->commandLine() != first.meta.commandLine);
        page->loadSelected();
        QCOMPARE(setup->settings().connections, 7);
        QCOMPARE(setup->settings().pipeline, 3);
        QCOMPARE(setup->settings().valueSize, 40u);
        QCOMPARE(setup->commandLine(), first.meta.commandLine);

        // Run again: a new run whose command line equals the past one's.
        setup->setSettings(other);
        done.reset();
        page->runSelectedAgain();
        QTRY_VERIFY_WITH_TIMEOUT(done.has_value(), 60000);
        QCOMPARE(done->status, QStringLiteral("completed"));
        QVERIFY(done->filePath != first.filePath);
        QCOMPARE(done->meta.commandLine, first.meta.commandLine);
        QCOMPARE(done->totalRequests(), first.totalRequests());
        QCOMPARE(done->displayTitle(), QStringLiteral("SET,GET c7 P3 40B 3k"));
    }

    // Pictures for a person to look at, only when asked (screenshotRequest):
    // the History page with runs of several workloads, then three of them compared.
    void screenshotsWhenAsked()
    {
        const auto shots = tacho::test::screenshotRequest();
        if (!shots)
            QSKIP("set TACHO_SCREENSHOT_DIR to take the screenshots");
        const QString stem = shots->stem;
        QTemporaryDir dir;
        const AppContext context = historyContext(dir);
        QStringList paths;
        for (int i = 0; i < 6; ++i) {
            auto run = workloadRun(qPrintable(QStringLiteral("2025-02-0%1T1%1:00:00Z").arg(i + 1)));
            run.config.connections = 10 << i;
            run.config.pipeline = 1 << (i % 3);
            RunMeta meta;
            meta.workload = meta.title = QStringLiteral("Custom");
            meta.profile = i % 2 ? QStringLiteral("staging cache") : QStringLiteral("local redis");
            meta.commandLine = QStringLiteral("tacho-cli redis-benchmark -h 127.0.0.1 -p 6379 -c %1 -P %2 -d 64 -n 100000 -t set,get")
                                   .arg(run.config.connections).arg(run.config.pipeline);
            if (i == 2)
                meta.tags = QStringList { QStringLiteral("baseline"), QStringLiteral("THP off") };
            if (i == 4)
                meta.title = QStringLiteral("after kernel upgrade");
            paths << QDir(context.historyDir).filePath(QStringLiteral("2025020%1-120000-000-run.json").arg(i + 1));
            writeRun(paths.last(), run, meta);
        }
        MainWindow window(context);
        window.resize(shots->size);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.historyModel()->rowCount(), 6, 10000);
        window.showPage(MainWindow::HistoryTab);
        QVERIFY(window.historyPage()->selectPaths({ paths[1], paths[2], paths[4] }));
        QTest::qWait(300);
        QVERIFY(window.grab().save(stem + QStringLiteral("history.png")));
        window.historyPage()->compareSelected();
        QTest::qWait(3000);   // the comparison reads the files off the GUI thread
        QVERIFY(window.grab().save(stem + QStringLiteral("compare.png")));
    }
};

QTEST_MAIN(TestHistoryLog)
#include "test_history_log.moc"
