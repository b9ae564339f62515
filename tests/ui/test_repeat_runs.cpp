// "Repeat ×N" (issue 20): one click runs the workload N times against a real
// redis-server; each run file records its place in the series, the server
// counts N times the requests, and the series opens in Compare, where the
// runs' spread is the noise band: a repeat is never "better" or "worse"
// than another, and the note gives the spread.
#include <QJsonDocument>
#include <QJsonObject>
#include <QLegendMarker>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include "engine/report/comparison.h"
#include "ui/compare/compare_page.h"
#include "ui/compare/comparison_chart_widget.h"
#include "ui/model/workload_settings.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/window/main_window.h"
#include "support/redis_server.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestRepeatRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void repeatsRunInARowAndOpenInCompare()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        auto window = tacho::test::windowOn(dir, tacho::test::loopbackProfile(server.host(), server.port()));
        window->runPage()->setup()->setSettings(tacho::test::smallSetWorkload(2, 2000));
        QSpinBox* repeat = nullptr;
        for (QSpinBox* box : window->findChildren<QSpinBox*>())
            if (box->accessibleName() == QLatin1String("Repeat"))
                repeat = box;
        QVERIFY(repeat);
        repeat->setValue(3);
        QStringList completed;
        QList<RunRecord> records;
        connect(window.get(), &MainWindow::runCompleted, window.get(), [&](const RunRecord& r) {
            completed << r.filePath;
            records << r;
        });

        QVERIFY2(window->startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(completed.size() == 3, 60000);   // a hang guard
        QTRY_COMPARE(window->comparePage()->runCount(), 3);
        QCOMPARE(window->pages()->currentIndex(), int(MainWindow::CompareTab));
        QCOMPARE(server.commandStatsCalls().value(QStringLiteral("set")), 6000u);
        QTest::qWait(200);
        QCOMPARE(completed.size(), 3);   // and no fourth

        QString group;
        for (int i = 0; i < 3; ++i) {
            const QJsonObject repeatJson = QJsonDocument::fromJson(tacho::test::readAll(completed[i]))
                                               .object()[QStringLiteral("environment")]
                                               .toObject()[QStringLiteral("repeat")]
                                               .toObject();
            QCOMPARE(repeatJson[QStringLiteral("index")].toInt(), i + 1);
            QCOMPARE(repeatJson[QStringLiteral("count")].toInt(), 3);
            if (i == 0)
                group = repeatJson[QStringLiteral("group")].toString();
            QVERIFY(!group.isEmpty());
            QCOMPARE(repeatJson[QStringLiteral("group")].toString(), group);
            // Issue 31: titled by what ran, not "Custom (repeat 1 of 3)".
            const QString title = RunMeta::readFor(completed[i]).title;
            QCOMPARE(title, QStringLiteral("SET c2 P1 3B 2k (repeat %1 of 3)").arg(i + 1));
            QCOMPARE(records[i].displayTitle(), title);
        }

        const tacho::engine::Comparison* comparison = window->comparePage()->comparison();
        QVERIFY(comparison);
        QCOMPARE(comparison->setups, (std::vector<std::size_t> { 0, 0, 0 }));
        for (std::size_t run : { 1, 2 })
            QCOMPARE(comparison->rows.at(0).cells.at(run)[std::size_t(tacho::engine::Metric::Ops)].verdict,
                     tacho::engine::Verdict::Noise);
        const bool spreadNoted = std::any_of(comparison->notes.begin(), comparison->notes.end(), [](const std::string& n) {
            return n.find("[1] [2] [3] repeat one setup") != std::string::npos;
        });
        QVERIFY(spreadNoted);
        tacho::test::keepPicture(*window, QStringLiteral("repeats-in-compare.png"));

        // A chart's legend shows only when every run's name fits uncut; the
        // run list beside the charts names them in the same colours.
        ComparisonChartWidget standalone(ComparisonChartWidget::Kind::Throughput);
        standalone.setCharts(window->comparePage()->charts());
        standalone.resize(1600, 400);
        standalone.show();
        const auto legendLabels = [&standalone] {
            QStringList labels;
            for (const QLegendMarker* marker : standalone.chart()->legend()->markers())
                if (marker->isVisible())
                    labels << marker->label();
            return labels.join(QStringLiteral(" | "));
        };
        QTRY_VERIFY2(standalone.legendShown(), qPrintable(legendLabels()));
        standalone.resize(330, 240);
        QTRY_VERIFY(!standalone.legendShown());

        // Back to one: the next run is a single run, not a fourth repeat.
        repeat->setValue(1);
        QVERIFY2(window->startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(completed.size() == 4, 60000);
        QVERIFY(!QJsonDocument::fromJson(tacho::test::readAll(completed[3])).object()[QStringLiteral("environment")]
                     .toObject().contains(QStringLiteral("repeat")));
    }
};

QTEST_MAIN(TestRepeatRuns)
#include "test_repeat_runs.moc"
