// Issue 17: a fatal signal prints a bug report before the process dies, as
// memtier_benchmark does — in the memtier form with memtier's markers and
// sections (its users' scripts and its test suite look for them), listing
// every benchmark connection with its state; on the main thread and on a
// worker thread; in the other forms with Tacho's own markers. The report
// holds no command line (it may hold a password). The run
// is a real one against a real redis-server, signalled once the server has
// counted its requests; no core file is written (RLIMIT_CORE 0).
#include <QtTest>

#include <csignal>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <QDir>
#include <QProcess>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::RedisServer;

namespace {

// A thread of `pid` other than its main thread, or 0.
pid_t workerThreadOf(qint64 pid)
{
    const QStringList tasks = QDir(QStringLiteral("/proc/%1/task").arg(pid)).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& task : tasks)
        if (task.toLongLong() != pid)
            return pid_t(task.toLongLong());
    return 0;
}

} // namespace

class TestCrashReport : public QObject {
    Q_OBJECT

private:
    RedisServer m_server;

    // Starts the run, waits until the server has counted its SETs, sends
    // `sig` to the main thread or a worker thread; returns standard error.
    QByteArray crash(const QStringList& args, bool onWorker, QProcess::ExitStatus* status, int* exitCode)
    {
        m_server.resetStats();
        QProcess process;
        process.setProgram(tacho::test::cliPath());
        process.setArguments(args);
        process.setStandardInputFile(QProcess::nullDevice());
        process.setChildProcessModifier([] {
            const rlimit none { 0, 0 };
            ::setrlimit(RLIMIT_CORE, &none);
        });
        process.start();
        if (!process.waitForStarted(10000))
            return "did not start";
        quint64 seen = 0;   // until the server has counted SETs (bounded: 20 s, 400 polls)
        for (int poll = 0; poll < 400 && seen < 1000; ++poll) {
            QTest::qWait(50);
            seen = m_server.commandStatsCalls().value("set");
        }
        pid_t target = pid_t(process.processId());
        if (onWorker)
            target = workerThreadOf(process.processId());
        if (seen < 1000 || target == 0) {
            process.kill();
            process.waitForFinished(5000);
            return "the run did not start sending";
        }
        if (onWorker)
            ::syscall(SYS_tgkill, pid_t(process.processId()), target, SIGSEGV);
        else
            ::kill(target, SIGSEGV);
        if (!process.waitForFinished(30000)) {
            process.kill();
            process.waitForFinished(5000);
            return "did not end after SIGSEGV";
        }
        *status = process.exitStatus();
        *exitCode = process.exitCode();
        return process.readAllStandardError();
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void memtierReport_data()
    {
        QTest::addColumn<bool>("onWorker");
        QTest::newRow("main thread") << false;
        QTest::newRow("worker thread") << true;
    }

    void memtierReport()
    {
        QFETCH(bool, onWorker);
        QProcess::ExitStatus status = QProcess::NormalExit;
        int code = 0;
        const QByteArray err = crash({ "memtier", "-s", "127.0.0.1", "-p", QString::number(m_server.port()), "-t", "2",
                                       "-c", "2", "--pipeline=10", "--test-time=60", "--ratio", "1:0",
                                       "--hide-histogram" },
                                     onWorker, &status, &code);
        // Died of the signal (its default action after the report).
        QVERIFY2(status == QProcess::CrashExit, err.constData());
        for (const char* expected : { "=== MEMTIER_BENCHMARK BUG REPORT START", "memtier_benchmark crashed by signal: 11",
                                      "tacho-cli memtier", "Crashed running signal <SIGSEGV>", "--- STACK TRACE",
                                      "current/crashing thread", "--- INFO OUTPUT", "tacho_version:",
                                      "--- CLIENT LIST OUTPUT", "=== MEMTIER_BENCHMARK BUG REPORT END" })
            QVERIFY2(err.contains(expected), qPrintable(QStringLiteral("no '%1' in:\n%2").arg(expected, err)));
        QCOMPARE(err.contains("(current/crashing thread, worker thread"), onWorker);
        // Every connection: 2 threads × 2 clients, connected to the server's port.
        int connected = 0;
        for (const QByteArray& line : err.split('\n')) {
            if (!line.contains(" thread=") || !line.contains(" client="))
                continue;
            for (const char* field : { " conn=", " local_port=", " state=", " pending=" })
                QVERIFY2(line.contains(field), line.constData());
            if (line.contains("addr=127.0.0.1:" + QByteArray::number(m_server.port())) && line.contains("state=connected"))
                ++connected;
        }
        QVERIFY2(connected == 4, qPrintable(QStringLiteral("%1 connected lines in:\n%2").arg(connected).arg(err)));
    }

    void otherFormsSayTacho()
    {
        QProcess::ExitStatus status = QProcess::NormalExit;
        int code = 0;
        // A word only the command line holds: the report must not repeat it.
        const QString marker = QStringLiteral("crash-report-marker-7291");
        const QByteArray err = crash({ "redis-benchmark", "-h", "127.0.0.1", "-p", QString::number(m_server.port()), "-c",
                                       "3", "-n", "100000000", "-q", "SET", marker, "v" },
                                     false, &status, &code);
        QVERIFY2(status == QProcess::CrashExit, err.constData());
        QVERIFY2(err.contains("=== TACHO BUG REPORT START") && err.contains("tacho-cli crashed by signal: 11")
                     && err.contains("=== TACHO BUG REPORT END"),
                 err.constData());
        QVERIFY2(!err.contains("MEMTIER") && !err.contains("memtier_benchmark"), err.constData());
        QVERIFY2(!err.contains(marker.toUtf8()), err.constData());
        QCOMPARE(err.count("state=connected"), 3);
    }
};

QTEST_GUILESS_MAIN(TestCrashReport)
#include "test_crash_report.moc"
