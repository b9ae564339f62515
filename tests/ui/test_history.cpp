// History: every run file in the folder is listed; a corrupt one is listed
// as such with its reason and hides nothing; rename, notes and delete go
// through the sidecar and survive a restart.
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include "engine/report/run_file.h"
#include "ui/history/history_model.h"
#include "ui/stores/history_store.h"
#include "ui/window/main_window.h"
#include "ui_test_support.h"

using namespace tacho::ui;

class TestHistory : public QObject {
    Q_OBJECT
private:
    static void write(const QString& path, const QByteArray& bytes)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }

private Q_SLOTS:
    void corruptFileIsListedWithoutHidingOthers()
    {
        QTemporaryDir dir;
        const AppContext context = tacho::test::temporaryContext(dir);
        QVERIFY(QDir().mkpath(context.historyDir));
        const QDir runs(context.historyDir);
        std::string error;
        QVERIFY(tacho::engine::writeRunFile(runs.filePath("20250101-100000-000-good.json").toStdString(),
                                            tacho::test::syntheticResult(1000), &error));
        QVERIFY(tacho::engine::writeRunFile(runs.filePath("20250102-100000-000-stopped.json").toStdString(),
                                            tacho::test::syntheticResult(500, "stopped"), &error));
        write(runs.filePath("20250103-100000-000-broken.json"), "{\"format\": \"tacho-run/1\", \"tests\": [ {\"na");
        write(runs.filePath("20250104-100000-000-alien.json"), "{\"format\": \"something-else/3\"}");
        write(runs.filePath("ignored.json.tmp-AbC123"), "partial");   // a write in progress is not a run

        MainWindow window(context);
        HistoryModel* model = window.historyModel();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 4, 10000);
        int readable = 0;
        QStringList reasons;
        for (int r = 0; r < model->rowCount(); ++r) {
            const HistoryEntry& e = model->entryAt(r);
            if (e.readable) {
                ++readable;
                QCOMPARE(e.requests, e.status == QLatin1String("stopped") ? 500ull : 1000ull);
            } else {
                QCOMPARE(e.status, QStringLiteral("corrupt"));
                reasons << e.error;
                QVERIFY(model->index(r, HistoryModel::Status).data().toString().startsWith(QLatin1String("corrupt: ")));
            }
        }
        QCOMPARE(readable, 2);
        window.showPage(MainWindow::HistoryTab);
        tacho::test::keepPicture(window, QStringLiteral("history-page.png"));
        QCOMPARE(reasons.size(), 2);
        QVERIFY2(reasons.join('|').contains(QLatin1String("not valid JSON")), qPrintable(reasons.join('|')));
        QVERIFY2(reasons.join('|').contains(QLatin1String("format: \"something-else/3\" is not a Tacho run file format")), qPrintable(reasons.join('|')));
    }

    void renameNotesAndDeleteSurviveRestart()
    {
        QTemporaryDir dir;
        const AppContext context = tacho::test::temporaryContext(dir);
        QVERIFY(QDir().mkpath(context.historyDir));
        const QString path = QDir(context.historyDir).filePath("20250101-100000-000-run.json");
        const QString other = QDir(context.historyDir).filePath("20250101-110000-000-other.json");
        std::string error;
        QVERIFY(tacho::engine::writeRunFile(path.toStdString(), tacho::test::syntheticResult(), &error));
        QVERIFY(tacho::engine::writeRunFile(other.toStdString(), tacho::test::syntheticResult(), &error));
        const QByteArray runFileBefore = tacho::test::readAll(path);
        {
            HistoryStore store(context.historyDir);
            QString why;
            QVERIFY2(store.rename(path, QStringLiteral("baseline before upgrade"), &why), qPrintable(why));
            QVERIFY2(store.setNotes(path, QStringLiteral("THP off\nmaxmemory 2gb"), &why), qPrintable(why));
            QVERIFY2(store.remove(other, &why), qPrintable(why));
            QVERIFY(!QFile::exists(other));
        }
        // The engine's run file is untouched; the sidecar holds the edits.
        QCOMPARE(tacho::test::readAll(path), runFileBefore);
        QVERIFY(QFile::exists(RunMeta::sidecarPath(path)));

        MainWindow window(context);
        HistoryModel* model = window.historyModel();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
        QCOMPARE(model->entryAt(0).title, QStringLiteral("baseline before upgrade"));
        QCOMPARE(model->entryAt(0).notes, QStringLiteral("THP off\nmaxmemory 2gb"));

        // Reopening loads the whole run off the GUI thread.
        std::optional<RunRecord> opened;
        connect(window.historyStore(), &HistoryStore::recordLoaded, this, [&](const RunRecord& r) { opened = r; });
        window.historyStore()->open(path);
        QTRY_VERIFY_WITH_TIMEOUT(opened.has_value(), 10000);
        const RunRecord record = *opened;
        QCOMPARE(record.meta.title, QStringLiteral("baseline before upgrade"));
        QCOMPARE(record.tests.size(), 1);
    }
};

QTEST_MAIN(TestHistory)
#include "test_history.moc"
