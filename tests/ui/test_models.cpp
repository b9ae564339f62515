// Every model of the workbench under QAbstractItemModelTester, through the
// changes the workbench makes to it; and what the cells say.
#include <QAbstractItemModelTester>
#include <QTest>

#include "ui/history/history_model.h"
#include "ui/model/number_format.h"
#include "ui/targets/profile_list_model.h"
#include "ui/widgets/results_table_model.h"
#include "ui/model/run_record.h"
#include "ui_test_support.h"

using namespace tacho::ui;
using Mode = QAbstractItemModelTester::FailureReportingMode;

class TestModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void resultsTable()
    {
        ResultsTableModel model;
        QAbstractItemModelTester tester(&model, Mode::QtTest);
        const RunRecord run = RunRecord::fromRunResult(tacho::test::syntheticResult(123456));
        model.setRun(run);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(ResultsTableModel::ColumnCount));
        // Thousands separators, right alignment, units in the header.
        QCOMPARE(model.index(0, ResultsTableModel::Requests).data().toString(), QStringLiteral("123,456"));
        QCOMPARE(model.index(0, ResultsTableModel::OpsPerSecond).data().toString(), QStringLiteral("246,912"));
        QCOMPARE(model.index(0, ResultsTableModel::OpsPerSecond).data(Qt::TextAlignmentRole).toInt(),
                 int(Qt::AlignRight | Qt::AlignVCenter));
        QCOMPARE(model.headerData(ResultsTableModel::P999, Qt::Horizontal).toString(), QStringLiteral("p99.9 ms"));
        QCOMPARE(model.index(0, ResultsTableModel::Requests).data(ResultsTableModel::RawRole).toULongLong(), 123456ull);

        // Live row: inserted, updated in place, replaced by the finished test.
        CommandRecord live;
        live.command = QStringLiteral("GET");
        live.requests = 10;
        live.seconds = 1;
        model.setLiveRow(1, live);
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(model.isLiveRow(1));
        live.requests = 20;
        model.setLiveRow(1, live);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1, ResultsTableModel::Requests).data().toString(), QStringLiteral("20"));
        TestRecord finished = run.tests.first();
        finished.name = QStringLiteral("GET");
        finished.commands.first().command = QStringLiteral("GET");
        model.addTest(1, finished);
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(!model.isLiveRow(1));
        model.setLiveRow(2, live);
        model.clearLiveRow();
        QCOMPARE(model.rowCount(), 2);

        // CSV: a header and one row per finished command, plain numbers.
        const QStringList lines = model.toCsv().trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines.first().startsWith(QLatin1String("test,command,ops_per_sec")));
        QVERIFY2(lines.at(1).contains(QLatin1String(",123456,")), qPrintable(lines.at(1)));
        QVERIFY(model.toTsv({ 0 }).contains(QLatin1String("123,456")));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void historyModel()
    {
        HistoryModel model;
        QAbstractItemModelTester tester(&model, Mode::QtTest);
        HistoryEntry a = HistoryEntry::fromRecord(RunRecord::fromRunResult(tacho::test::syntheticResult()), QStringLiteral("/x/a.json"));
        a.started = QDateTime(QDate(2025, 1, 1), QTime(10, 0));
        HistoryEntry b = a;
        b.filePath = QStringLiteral("/x/b.json");
        b.started = QDateTime(QDate(2025, 1, 2), QTime(10, 0));
        HistoryEntry corrupt;
        corrupt.filePath = QStringLiteral("/x/c.json");
        corrupt.status = QStringLiteral("corrupt");
        corrupt.error = QStringLiteral("not valid JSON");
        corrupt.title = QStringLiteral("c.json");
        corrupt.started = QDateTime(QDate(2024, 12, 31), QTime(10, 0));
        model.setEntries({ a, corrupt, b });
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.entryAt(0).filePath, b.filePath);   // newest first
        QCOMPARE(model.rowOf(corrupt.filePath), 2);
        QVERIFY(model.index(2, HistoryModel::Status).data().toString().contains(QLatin1String("not valid JSON")));
        HistoryEntry c = a;
        c.filePath = QStringLiteral("/x/d.json");
        c.started = QDateTime(QDate(2025, 1, 3), QTime(10, 0));
        model.upsert(c);
        QCOMPARE(model.rowOf(c.filePath), 0);
        model.upsert(c);   // again: updated, not added
        QCOMPARE(model.rowCount(), 4);
        model.setTitle(a.filePath, QStringLiteral("renamed"));
        QCOMPARE(model.index(model.rowOf(a.filePath), HistoryModel::Title).data().toString(), QStringLiteral("renamed"));
        model.setNotes(a.filePath, QStringLiteral("note"));
        model.removePath(b.filePath);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowOf(b.filePath), -1);
    }

    void profileList()
    {
        ProfileListModel model;
        QAbstractItemModelTester tester(&model, Mode::QtTest);
        QCOMPARE(model.rowCount(), 1);   // the sandbox is always there
        QCOMPARE(model.profileAt(0).name, QStringLiteral("Local sandbox"));
        ConnectionProfile b;
        b.id = QStringLiteral("b");
        b.name = QStringLiteral("beta");
        ConnectionProfile a = b;
        a.id = QStringLiteral("a");
        a.name = QStringLiteral("alpha");
        model.setProfiles({ b });
        model.upsert(a);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.profileAt(1).name, QStringLiteral("alpha"));   // in name order
        a.port = 7000;
        model.upsert(a);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.profileAt(1).port, quint16(7000));
        model.setSandbox(4242, QStringLiteral("ready"), false);
        QCOMPARE(model.profileAt(0).port, quint16(4242));
        QCOMPARE(model.find(QStringLiteral("sandbox"))->port, quint16(4242));
        QCOMPARE(model.find(QStringLiteral("BETA"))->id, QStringLiteral("b"));
        model.remove(QStringLiteral("a"));
        QCOMPARE(model.rowCount(), 2);
        model.remove(QString::fromLatin1(ConnectionProfile::kSandboxId));   // cannot be removed
        QCOMPARE(model.rowCount(), 2);
    }

    void numberFormat()
    {
        QCOMPARE(NumberFormat::count(1234567), QStringLiteral("1,234,567"));
        QCOMPARE(NumberFormat::rate(412380.4), QStringLiteral("412,380"));
        QCOMPARE(NumberFormat::milliseconds(0.9123), QStringLiteral("0.912"));
        QCOMPARE(NumberFormat::duration(3723), QStringLiteral("1:02:03"));
        QCOMPARE(NumberFormat::compactRate(574000), QStringLiteral("574k"));
    }
};

QTEST_MAIN(TestModels)
#include "test_models.moc"
