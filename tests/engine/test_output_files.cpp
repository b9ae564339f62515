// Issue 15: one rule for every output file (engine/report/atomic_file.h).
// Modes follow the umask or the replaced file; links the kernel refuses to
// follow under fs.protected_symlinks = 1 are refused here too, whatever the
// sysctl says on this machine; a failed write leaves nothing at the target.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "engine/report/atomic_file.h"

using namespace tacho::engine;

namespace {

constexpr uid_t kOtherUid = 65534;   // nobody: any uid that is not ours

struct stat statOf(const QString& path)
{
    struct stat st {};
    ::lstat(path.toLocal8Bit().constData(), &st);
    return st;
}

QByteArray contentOf(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

void writeText(const QString& path, const QByteArray& text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(text), text.size());
}

int readSysctl(const char* path)
{
    QFile file(QString::fromLatin1(path));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toInt() : -1;
}

} // namespace

class TestOutputFiles : public QObject {
    Q_OBJECT

private slots:
    void newFileModeFollowsTheUmask_data()
    {
        QTest::addColumn<int>("mask");
        for (const int mask : { 0, 002, 022, 027, 077, 0177, 0222 })
            QTest::newRow(qPrintable(QStringLiteral("umask %1").arg(mask, 4, 8, QChar('0')))) << mask;
    }
    void newFileModeFollowsTheUmask()
    {
        QFETCH(int, mask);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("new.csv");
        const mode_t previous = ::umask(mode_t(mask));
        std::string error;
        const bool ok = writeFileAtomically(path.toStdString(), "a,b\n", &error);
        ::umask(previous);
        QVERIFY2(ok, error.c_str());
        QCOMPARE(int(statOf(path).st_mode & 07777), 0666 & ~mask);
        QCOMPARE(contentOf(path), QByteArray("a,b\n"));
    }

    void replacedFileKeepsModeAndOwner_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("otherOwner");
        for (const int mode : { 0600, 0640, 0644, 0660, 0664, 0444, 0755 })
            for (const bool other : { false, true })
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(mode, 4, 8, QChar('0')).arg(other ? "nobody's" : "ours")))
                    << mode << other;
    }
    void replacedFileKeepsModeAndOwner()
    {
        QFETCH(int, mode);
        QFETCH(bool, otherOwner);
        if (otherOwner && ::geteuid() != 0)
            QSKIP("giving a file to another user needs root");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("run.json");
        writeText(path, "old");
        const QByteArray local = path.toLocal8Bit();
        QCOMPARE(::chmod(local.constData(), mode_t(mode)), 0);
        if (otherOwner)
            QCOMPARE(::chown(local.constData(), kOtherUid, kOtherUid), 0);
        const struct stat before = statOf(path);
        const mode_t previous = ::umask(077);   // must not matter for a replaced file
        std::string error;
        const bool ok = writeFileAtomically(path.toStdString(), "new", &error);
        ::umask(previous);
        QVERIFY2(ok, error.c_str());
        const struct stat after = statOf(path);
        QCOMPARE(contentOf(path), QByteArray("new"));
        QVERIFY(after.st_ino != before.st_ino);   // really replaced, not rewritten in place
        QCOMPARE(int(after.st_mode & 07777), mode);
        QCOMPARE(after.st_uid, before.st_uid);
        QCOMPARE(after.st_gid, before.st_gid);
    }

    // Every combination the kernel's rule (fs/namei.c may_follow_link) tells
    // apart: folder sticky or not, world-writable or not, link owned by us,
    // by the folder's owner or by a third user; the link last in the path or
    // a folder on the way.
    void linksFollowedOnlyWhereTheKernelWould_data()
    {
        QTest::addColumn<int>("folderMode");
        QTest::addColumn<bool>("folderOurs");
        QTest::addColumn<bool>("linkOurs");
        QTest::addColumn<bool>("linkIsFolder");
        QTest::addColumn<bool>("followed");
        for (const int folderMode : { 01777, 0777, 01775, 01755 })
            for (const bool folderOurs : { true, false })
                for (const bool linkOurs : { true, false })
                    for (const bool linkIsFolder : { false, true }) {
                        const bool shared = (folderMode & 01000) && (folderMode & 02);
                        // A link not ours belongs to nobody; so does a folder not ours.
                        const bool followed = !shared || linkOurs || !folderOurs;
                        QTest::newRow(qPrintable(QStringLiteral("folder %1 %2, link %3%4")
                                                     .arg(folderMode, 4, 8, QChar('0'))
                                                     .arg(folderOurs ? "ours" : "nobody's")
                                                     .arg(linkOurs ? "ours" : "nobody's")
                                                     .arg(linkIsFolder ? " to a folder" : "")))
                            << folderMode << folderOurs << linkOurs << linkIsFolder << followed;
                    }
    }
    void linksFollowedOnlyWhereTheKernelWould()
    {
        QFETCH(int, folderMode);
        QFETCH(bool, folderOurs);
        QFETCH(bool, linkOurs);
        QFETCH(bool, linkIsFolder);
        QFETCH(bool, followed);
        if (::geteuid() != 0)
            QSKIP("links and folders of another user need root to make");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString shared = dir.filePath("shared");
        const QString victimDir = dir.filePath("victim");
        QVERIFY(QDir().mkdir(shared) && QDir().mkdir(victimDir));
        const QString victim = victimDir + "/.bashrc";
        writeText(victim, "precious");
        const QString link = shared + "/link";
        QVERIFY(QFile::link(linkIsFolder ? victimDir : victim, link));
        if (!linkOurs)
            QCOMPARE(::lchown(link.toLocal8Bit().constData(), kOtherUid, kOtherUid), 0);
        if (!folderOurs)
            QCOMPARE(::chown(shared.toLocal8Bit().constData(), kOtherUid, kOtherUid), 0);
        QCOMPARE(::chmod(shared.toLocal8Bit().constData(), mode_t(folderMode)), 0);
        const QString path = linkIsFolder ? link + "/.bashrc" : link;

        // Where the kernel enforces the rule itself, it must agree with ours.
        if (readSysctl("/proc/sys/fs/protected_symlinks") == 1) {
            const int fd = ::open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
            QCOMPARE(fd >= 0, followed);
            if (fd >= 0)
                ::close(fd);
        }

        std::string error;
        const bool ok = writeFileAtomically(path.toStdString(), "planted", &error);
        QCOMPARE(ok, followed);
        QVERIFY(QFileInfo(link).isSymLink());   // the link itself is never replaced
        if (followed) {
            QCOMPARE(contentOf(victim), QByteArray("planted"));
        } else {
            QCOMPARE(contentOf(victim), QByteArray("precious"));
            QVERIFY2(error.find(path.toStdString()) != std::string::npos, error.c_str());
            QVERIFY2(error.find("symbolic link") != std::string::npos, error.c_str());
            error.clear();
            QVERIFY(!checkWritable(path.toStdString(), &error));   // refused before a run, too
        }
        QCOMPARE(QDir(victimDir).entryList(QDir::Files | QDir::Hidden), QStringList { ".bashrc" });
        QCOMPARE(QDir(shared).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System),
                 QStringList { "link" });
    }

    // A write that fails half-way (here: the file-size limit, EFBIG) leaves
    // the old file, or no file, and no temporary beside it.
    void failedWriteLeavesNothingPartial_data()
    {
        QTest::addColumn<bool>("existing");
        QTest::newRow("new file") << false;
        QTest::newRow("replaced file") << true;
    }
    void failedWriteLeavesNothingPartial()
    {
        QFETCH(bool, existing);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath("report.html");
        if (existing)
            writeText(path, "old report");
        struct rlimit saved {};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &saved), 0);
        struct rlimit small = saved;
        small.rlim_cur = 4096;
        const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
        std::string error;
        const bool ok = writeFileAtomically(path.toStdString(), std::string(100000, 'x'), &error);
        ::setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, previousHandler);
        QVERIFY(!ok);
        QVERIFY2(error.find(path.toStdString()) != std::string::npos, error.c_str());
        QVERIFY2(error.find("File too large") != std::string::npos, error.c_str());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 existing ? QStringList { "report.html" } : QStringList {});
        if (existing)
            QCOMPARE(contentOf(path), QByteArray("old report"));
    }
    // Issue 30: an output path that is not a regular file is refused at once
    // with a message naming its type (a FIFO used to block the open forever:
    // the run printed its results and never exited), or written in place
    // without waiting (/dev/null). SIGALRM bounds each call: a hang ends the
    // test process instead of ctest's timeout.
    void nonRegularOutputsNeverBlock_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("writable");
        QTest::addColumn<QString>("message");
        QTest::newRow("fifo") << "fifo" << false << "is a named pipe (FIFO)";
        QTest::newRow("socket") << "socket" << false << "is a socket";
        QTest::newRow("folder") << "folder" << false << "is a folder";
        QTest::newRow("/dev/null") << "null" << true << "";
    }

    void nonRegularOutputsNeverBlock()
    {
        QFETCH(QString, kind);
        QFETCH(bool, writable);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string path = (dir.path() + "/out-" + kind).toStdString();
        int listener = -1;
        if (kind == "fifo") {
            QVERIFY(::mkfifo(path.c_str(), 0600) == 0);
        } else if (kind == "socket") {
            listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            sockaddr_un address {};
            address.sun_family = AF_UNIX;
            QVERIFY(path.size() < sizeof address.sun_path);
            std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
            QVERIFY(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
        } else if (kind == "folder") {
            QVERIFY(QDir().mkdir(QString::fromStdString(path)));
        } else {
            path = "/dev/null";
        }
        ::alarm(30);
        std::string checkError, writeError;
        const bool checked = checkWritable(path, &checkError);
        const bool written = writeFileAtomically(path, "metric 1\n", &writeError);
        ::alarm(0);
        if (listener >= 0)
            ::close(listener);
        QCOMPARE(checked, writable);
        QCOMPARE(written, writable);
        if (!writable) {
            for (const std::string& error : { checkError, writeError }) {
                QVERIFY2(error.find(path) != std::string::npos, error.c_str());
                QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
            }
            if (kind == "fifo")   // still the FIFO: nothing renamed over it
                QVERIFY(S_ISFIFO(statOf(QString::fromStdString(path)).st_mode));
        }
    }
};

QTEST_GUILESS_MAIN(TestOutputFiles)
#include "test_output_files.moc"
