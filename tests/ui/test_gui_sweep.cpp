// Run ▸ Sweep… (issue 20): the Run page's workload once per value of one
// setting, like tacho-cli sweep, against a real redis-server: each run has its
// value (its run file's connections), the server counts every run's requests,
// the runs share a tag in History and open in Compare together as different
// setups (not repeats), and the form is given back as it was.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "engine/report/comparison.h"
#include "ui/compare/compare_page.h"
#include "ui/model/run_meta.h"
#include "ui/model/sweep_plan.h"
#include "ui/model/workload_settings.h"
#include "ui/run/run_page.h"
#include "ui/run/run_setup_widget.h"
#include "ui/run/sweep_dialog.h"
#include "ui/window/main_window.h"
#include "support/redis_server.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestGuiSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void valuesAreCheckedBeforeASweep()
    {
        QString error;
        QCOMPARE(*parseSweepValues(QStringLiteral("1, 2,4k"), SweepDimension::Connections, &error), (QList<double> { 1, 2, 4000 }));
        QVERIFY(!parseSweepValues(QStringLiteral("1,2.5"), SweepDimension::Pipeline, &error));
        QVERIFY2(error.contains(QLatin1String("whole number")), qPrintable(error));
        QVERIFY(!parseSweepValues(QStringLiteral("8"), SweepDimension::Connections, &error));
        QVERIFY(!parseSweepValues(QStringLiteral("4,4"), SweepDimension::Connections, &error));
        QVERIFY(parseSweepValues(QStringLiteral("500.5,1000"), SweepDimension::Rate, &error));

        SweepDialog dialog(QStringLiteral("SET c4"));
        QVERIFY(!dialog.canAccept());
        dialog.setValuesText(QStringLiteral("1,x"));
        QVERIFY(!dialog.canAccept());
        QVERIFY2(dialog.feedback().contains(QLatin1String("'x'")), qPrintable(dialog.feedback()));
        dialog.setDimension(SweepDimension::ValueSize);
        dialog.setValuesText(QStringLiteral("64,1024"));
        QVERIFY(dialog.canAccept());
        QVERIFY2(dialog.feedback().contains(QLatin1String("value size 1024 B")), qPrintable(dialog.feedback()));
    }

    void sweepRunsOncePerValueAndOpensInCompare()
    {
        tacho::test::RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        auto window = tacho::test::windowOn(dir, tacho::test::loopbackProfile(server.host(), server.port()));
        window->runPage()->setup()->setSettings(tacho::test::smallSetWorkload(7, 1000));
        QStringList completed;
        connect(window.get(), &MainWindow::runCompleted, window.get(), [&](const RunRecord& r) { completed << r.filePath; });

        QVERIFY2(window->startSweep(SweepDimension::Connections, { 1, 2, 4 }, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(completed.size() == 3, 60000);   // a hang guard
        QTRY_COMPARE(window->comparePage()->runCount(), 3);
        QCOMPARE(window->pages()->currentIndex(), int(MainWindow::CompareTab));
        QCOMPARE(server.commandStatsCalls().value(QStringLiteral("set")), 3000u);

        QString tag;
        const int expected[] = { 1, 2, 4 };
        for (int i = 0; i < 3; ++i) {
            const QJsonObject file = QJsonDocument::fromJson(tacho::test::readAll(completed[i])).object();
            QCOMPARE(file[QStringLiteral("config")].toObject()[QStringLiteral("connections")].toInt(), expected[i]);
            QVERIFY(!file[QStringLiteral("environment")].toObject().contains(QStringLiteral("repeat")));
            const RunMeta meta = RunMeta::readFor(completed[i]);
            // Issue 31: titled by what ran and the swept setting, not "Custom (connections 1)".
            QCOMPARE(meta.title, QStringLiteral("SET c%1 P1 3B 1k (connections %1)").arg(expected[i]));
            QCOMPARE(meta.tags.size(), 1);
            if (i == 0)
                tag = meta.tags.first();
            QVERIFY(tag.startsWith(QLatin1String("sweep-")));
            QCOMPARE(meta.tags.first(), tag);
        }
        // Different setups: each its own, so differences are better or worse, not noise.
        QCOMPARE(window->comparePage()->comparison()->setups, (std::vector<std::size_t> { 0, 1, 2 }));
        // The form as it was before the sweep.
        QCOMPARE(window->runPage()->setup()->settings().connections, 7);
    }
};

QTEST_MAIN(TestGuiSweep)
#include "test_gui_sweep.moc"
