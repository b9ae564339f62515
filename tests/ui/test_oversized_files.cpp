// Issue 30: one oversized file in the workbench's History or profiles folder
// killed the workbench at every start (read whole, without the 256 MiB limit
// tacho-cli applies; std::bad_alloc rethrown in the GUI thread). The
// workbench now applies the CLI's limits to every file it reads: the files
// here are sparse (ftruncate: no real disk), past each limit by a little, and
// each is set aside with its reason while the window starts and lists the rest.
#include <QAbstractItemModelTester>
#include <QFile>
#include <QStatusBar>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/report/run_file.h"
#include "ui/history/history_model.h"
#include "ui/model/bounded_file.h"
#include "ui/stores/profile_store.h"
#include "ui/targets/profile_list_model.h"
#include "ui/window/main_window.h"
#include "ui_test_support.h"

using namespace tacho::ui;

namespace {

// A file of `bytes` that takes no disk: a hole.
bool sparseFile(const QString& path, std::uint64_t bytes)
{
    const int fd = ::open(path.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const bool ok = fd >= 0 && ::ftruncate(fd, off_t(bytes)) == 0;
    if (fd >= 0)
        ::close(fd);
    return ok;
}

} // namespace

class TestOversizedFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void oversizedFilesAreSetAsideNotFatal()
    {
        QTemporaryDir dir;
        const AppContext context = tacho::test::temporaryContext(dir);
        QVERIFY(QDir().mkpath(context.historyDir));
        QVERIFY(QDir().mkpath(context.profilesDir));
        const QDir runs(context.historyDir);
        std::string error;
        const QString good = runs.filePath("20250101-100000-000-good.json");
        QVERIFY(tacho::engine::writeRunFile(good.toStdString(), tacho::test::syntheticResult(1000), &error));
        const QString noted = runs.filePath("20250102-100000-000-noted.json");
        QVERIFY(tacho::engine::writeRunFile(noted.toStdString(), tacho::test::syntheticResult(700), &error));
        // Past each limit by a MiB: the run file's (the CLI's), and a sidecar's.
        const QString huge = runs.filePath("20250103-100000-000-huge.json");
        QVERIFY(sparseFile(huge, maxRunFileBytes() + (1 << 20)));
        QVERIFY(sparseFile(noted.chopped(5) + ".meta.json", kMaxSettingsFileBytes + (1 << 20)));
        // A named pipe among the runs: never opened (a reader would wait for a writer).
        QVERIFY(::mkfifo(runs.filePath("20250104-100000-000-pipe.json").toLocal8Bit().constData(), 0600) == 0);

        ConnectionProfile profile;
        profile.id = ConnectionProfile::newId();
        profile.name = QStringLiteral("kept");
        QString why;
        QVERIFY2(ProfileStore(context.profilesDir).save(profile, &why), qPrintable(why));
        const QString hugeProfile = QDir(context.profilesDir).filePath("huge.json");
        QVERIFY(sparseFile(hugeProfile, kMaxSettingsFileBytes + (1 << 20)));

        MainWindow window(context);
        HistoryModel* model = window.historyModel();
        QAbstractItemModelTester historyTester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester profilesTester(window.profiles(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 30000);
        int readable = 0;
        for (int r = 0; r < model->rowCount(); ++r) {
            const HistoryEntry& e = model->entryAt(r);
            if (e.readable) {
                ++readable;
                QVERIFY(e.notes.isEmpty());   // the oversized sidecar set aside: the run still shows
                continue;
            }
            QCOMPARE(e.filePath, huge);
            QCOMPARE(e.status, QStringLiteral("corrupt"));
            QVERIFY2(e.error.contains(QLatin1String("too large to read")), qPrintable(e.error));
            QVERIFY2(e.error.contains(QLatin1String("256 MiB")), qPrintable(e.error));
        }
        QCOMPARE(readable, 2);

        QStringList names;   // the saved one listed (beside the sandbox's), nothing from the huge file
        for (int r = 0; r < window.profiles()->rowCount(); ++r)
            names << window.profiles()->profileAt(r).name;
        QVERIFY2(names.count(QStringLiteral("kept")) == 1, qPrintable(names.join('|')));
        QVERIFY2(window.profiles()->rowCount() <= 2, qPrintable(names.join('|')));
        QStringList problems;
        ProfileStore(context.profilesDir).load(&problems);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.at(0).contains(hugeProfile) && problems.at(0).contains(QLatin1String("too large to read")),
                 qPrintable(problems.join('|')));
        QVERIFY2(window.statusBar()->currentMessage().contains(QLatin1String("too large to read")),
                 qPrintable(window.statusBar()->currentMessage()));
    }

    void aFileNotRegularIsRefusedWithoutWaiting()
    {
        QTemporaryDir dir;
        const QString fifo = QDir(dir.path()).filePath("pipe.json");
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        QString why;
        QVERIFY(!readBoundedFile(fifo, kMaxSettingsFileBytes, &why));
        QVERIFY2(why.contains(QLatin1String("not a regular file")), qPrintable(why));
        QVERIFY(!readBoundedFile(dir.path(), kMaxSettingsFileBytes, &why));
        QVERIFY2(why.contains(QLatin1String("not a regular file")), qPrintable(why));
    }
};

QTEST_MAIN(TestOversizedFiles)
#include "test_oversized_files.moc"
