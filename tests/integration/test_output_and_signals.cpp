// Issue 15: standard output that cannot be written, output files behind
// planted links or over a size limit, and the signals a run gets from a
// closed terminal or from kill — against a real redis-server.
//  - Every subcommand that prints (the list is read from `tacho-cli help`)
//    ends with status 1 when its standard output is /dev/full (saying
//    "write error: No space left on device") or a pipe nobody reads.
//  - SIGINT, SIGTERM and SIGHUP all stop a run the same way: the run file is
//    written, parses, and its counts agree with INFO commandstats.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

constexpr int kTimeoutMs = 60000;

enum class Stdout { DevFull, ClosedPipe, Captured };

struct Outcome {
    bool finished = false;
    QProcess::ExitStatus exitStatus = QProcess::CrashExit;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString describe() const
    {
        return QStringLiteral("finished %1, crashed %2, exit %3\n--- stdout ---\n%4\n--- stderr ---\n%5")
            .arg(finished)
            .arg(exitStatus == QProcess::CrashExit)
            .arg(exitCode)
            .arg(QString::fromUtf8(out.left(2000)), QString::fromUtf8(err.left(3000)));
    }
};

// tacho-cli with its standard output on /dev/full, on a pipe whose reading
// end is closed before it starts (every write gets EPIPE), or captured.
Outcome runWithStdout(const QStringList& args, Stdout where)
{
    QProcess process;
    process.setProgram(tacho::test::cliPath());
    process.setArguments(args);
    process.setStandardInputFile(QProcess::nullDevice());
    if (where == Stdout::DevFull)
        process.setStandardOutputFile(QStringLiteral("/dev/full"));
    const pid_t parent = ::getpid();
    process.setChildProcessModifier([parent, where] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(127);
        if (where == Stdout::ClosedPipe) {
            int fds[2];
            if (::pipe(fds) != 0 || ::dup2(fds[1], STDOUT_FILENO) < 0)
                ::_exit(126);
            ::close(fds[0]);
            ::close(fds[1]);
        }
    });
    process.start();
    Outcome outcome;
    if (!process.waitForStarted(10000))
        return outcome;
    outcome.finished = process.waitForFinished(kTimeoutMs);
    if (!outcome.finished) {
        process.kill();   // by its PID
        process.waitForFinished(5000);
    }
    outcome.exitStatus = process.exitStatus();
    outcome.exitCode = process.exitCode();
    outcome.out = process.readAllStandardOutput();
    outcome.err = process.readAllStandardError();
    return outcome;
}

QJsonObject readJson(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = path + ": " + file.errorString();
        return {};
    }
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parse);
    if (parse.error != QJsonParseError::NoError)
        *error = path + ": " + parse.errorString();
    return document.object();
}

} // namespace

class TestOutputAndSignals : public QObject {
    Q_OBJECT

    RedisServer m_server;
    QTemporaryDir m_dir;
    QString m_runA;
    QString m_runB;

    QStringList target() const
    {
        return { "-h", m_server.host(), "-p", QString::number(m_server.port()) };
    }

    // A command line for each subcommand `tacho-cli help` lists; empty for
    // one this suite does not know yet (which fails the test).
    QMap<QString, QStringList> recipes() const
    {
        const QStringList benchmark = QStringList { "redis-benchmark" } + target()
            + QStringList { "-n", "50", "-c", "1", "-t", "set" };
        return {
            { "redis-benchmark", benchmark },
            { "latency", QStringList { "latency" } + target() + QStringList { "--duration", "0.3" } },
            { "memtier", { "memtier", "-s", m_server.host(), "-p", QString::number(m_server.port()), "-n", "20", "-c",
                           "1", "-t", "1", "--ratio", "1:0", "--hide-histogram" } },
            { "capacity", QStringList { "capacity", "--from", "100", "--to", "200", "--step-seconds", "0.2", "--warmup",
                                        "0", "--objective", "p50<=1s", "--" }
                              + benchmark.mid(0, 5) + QStringList { "-c", "1", "-t", "set" } },
            { "sweep", QStringList { "sweep", "--connections", "1,2", "--" } + benchmark },
            { "compare", { "compare", m_runA, m_runB } },
            { "merge", { "merge", m_runA, m_runB, "-o", m_dir.filePath("merged.json") } },
            // An agent runs until stopped; its usage is what ends on its own.
            { "agent", { "agent", "--help" } },
            { "report", { "report", m_runA } },
            { "version", { "version" } },
            { "help", { "help" } },
        };
    }

    QStringList subcommands() const
    {
        const CliResult help = runCli({ "help" });
        QStringList names;
        static const QRegularExpression line(QStringLiteral("^  ([a-z][a-z-]*) "), QRegularExpression::MultilineOption);
        for (auto it = line.globalMatch(QString::fromUtf8(help.out)); it.hasNext();)
            names << it.next().captured(1);
        return names;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
        m_runA = m_dir.filePath("a.json");
        m_runB = m_dir.filePath("b.json");
        for (const QString& run : { m_runA, m_runB }) {
            const CliResult r = runCli(QStringList { "redis-benchmark" } + target()
                                       + QStringList { "-n", "200", "-c", "2", "-t", "set", "--json", run });
            QVERIFY2(r.exitCode == 0 && QFileInfo::exists(run), qPrintable(tacho::test::describeCliResult(r)));
        }
        QVERIFY(subcommands().size() >= 8);
    }

    void unwritableStdoutFailsEveryCommand_data()
    {
        QTest::addColumn<QString>("subcommand");
        QTest::addColumn<int>("where");
        for (const QString& name : subcommands()) {
            QTest::newRow(qPrintable(name + " > /dev/full")) << name << int(Stdout::DevFull);
            QTest::newRow(qPrintable(name + " | closed pipe")) << name << int(Stdout::ClosedPipe);
        }
    }
    void unwritableStdoutFailsEveryCommand()
    {
        QFETCH(QString, subcommand);
        QFETCH(int, where);
        const QStringList args = recipes().value(subcommand);
        QVERIFY2(!args.isEmpty(), qPrintable("no command line for the subcommand " + subcommand));
        // What it prints when it can: something, with status 0.
        const Outcome normal = runWithStdout(args, Stdout::Captured);
        QVERIFY2(normal.finished && normal.exitStatus == QProcess::NormalExit && normal.exitCode == 0,
                 qPrintable(normal.describe()));
        QVERIFY2(!normal.out.isEmpty(), qPrintable(normal.describe()));

        const Outcome failed = runWithStdout(args, Stdout(where));
        QVERIFY2(failed.finished, qPrintable(failed.describe()));
        QVERIFY2(failed.exitStatus == QProcess::NormalExit, qPrintable(failed.describe()));   // not killed by SIGPIPE
        QVERIFY2(failed.exitCode == 1, qPrintable(failed.describe()));
        if (Stdout(where) == Stdout::DevFull)
            QVERIFY2(failed.err.contains("tacho-cli: write error: No space left on device\n"), qPrintable(failed.describe()));
        else
            QVERIFY2(!failed.err.contains("write error"), qPrintable(failed.describe()));   // a reader that left: quiet
    }

    // Every command that writes a file, against each way a write can go
    // wrong: a full device, the file-size limit (EFBIG: a write that fails
    // half-way), a link planted in a sticky shared folder by another user.
    void fileOutputErrorsFailTheCommand_data()
    {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<QString>("failure");
        for (const char* writer : { "report --csv", "report --html", "report --hgrm", "merge -o", "compare --csv",
                                    "redis-benchmark --json", "memtier --json-out-file" })
            for (const char* failure : { "/dev/full", "file-size limit", "planted link" })
                QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(writer, failure))) << QString(writer) << QString(failure);
    }
    void fileOutputErrorsFailTheCommand()
    {
        QFETCH(QString, writer);
        QFETCH(QString, failure);
        if (failure == "planted link" && ::geteuid() != 0)
            QSKIP("a link owned by another user needs root to make");
        if (failure == "/dev/full" && writer == "report --hgrm")
            QSKIP("--hgrm takes a folder");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString shared = dir.filePath("shared");
        QVERIFY(QDir().mkdir(shared));
        QCOMPARE(::chmod(shared.toLocal8Bit().constData(), 01777), 0);
        const QString victim = dir.filePath("victim.txt");
        {
            QFile file(victim);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("precious");
        }
        QString path = shared + "/out";
        if (failure == "/dev/full") {
            path = QStringLiteral("/dev/full");
        } else if (failure == "planted link") {
            const bool folder = writer == "report --hgrm";
            QVERIFY(QFile::link(folder ? dir.path() : victim, path));
            QCOMPARE(::lchown(path.toLocal8Bit().constData(), 65534, 65534), 0);
        }
        const QString port = QString::number(m_server.port());
        const QMap<QString, QStringList> commands {
            { "report --csv", { "report", m_runA, "--csv", path } },
            { "report --html", { "report", m_runA, "--html", path } },
            { "report --hgrm", { "report", m_runA, "--hgrm", path } },
            { "merge -o", { "merge", m_runA, m_runB, "-o", path } },
            { "compare --csv", { "compare", m_runA, m_runB, "--csv", path } },
            { "redis-benchmark --json", QStringList { "redis-benchmark" } + target()
                                            + QStringList { "-n", "20", "-c", "1", "-t", "set", "--json", path } },
            { "memtier --json-out-file", { "memtier", "-s", m_server.host(), "-p", port, "-n", "10", "-c", "1", "-t", "1",
                                           "--ratio", "1:0", "--hide-histogram", "--json-out-file", path } },
        };
        QStringList args = commands.value(writer);
        QVERIFY(!args.isEmpty());
        QProcess process;
        process.setStandardInputFile(QProcess::nullDevice());
        if (failure == "file-size limit") {
            // No file may grow past 0 bytes; SIGXFSZ ignored, so writes fail with EFBIG.
            process.setProgram(QStringLiteral("/bin/sh"));
            process.setArguments(QStringList { "-c", "trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\"", tacho::test::cliPath() } + args);
        } else {
            process.setProgram(tacho::test::cliPath());
            process.setArguments(args);
        }
        process.start();
        QVERIFY(process.waitForStarted(10000));
        const bool ended = process.waitForFinished(kTimeoutMs);
        if (!ended) {
            process.kill();
            process.waitForFinished(5000);
        }
        const QByteArray err = process.readAllStandardError();
        const QByteArray all = process.readAllStandardOutput() + "\n--- stderr ---\n" + err;
        QVERIFY2(ended && process.exitStatus() == QProcess::NormalExit, all.constData());
        // compare keeps 1 for "a threshold crossed"; its errors are 2.
        const int expected = writer == "compare --csv" ? 2 : 1;
        if (failure == "planted link")
            QVERIFY2(process.exitCode() != 0, all.constData());   // refused, maybe before the run (a usage error)
        else
            QVERIFY2(process.exitCode() == expected, all.constData());
        QVERIFY2(err.contains("cannot write"), all.constData());
        QVERIFY2(err.contains(failure == "/dev/full"         ? "No space left on device"
                                  : failure == "planted link" ? "symbolic link"
                                                              : "File too large"),
                 all.constData());
        // Nothing partial anywhere: the victim untouched, no temporary left.
        QFile file(victim);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("precious"));
        const QStringList left = QDir(shared).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        QVERIFY2(left.isEmpty() || left == QStringList { "out" }, qPrintable(left.join(", ")));
        if (failure == "file-size limit" && writer == "report --hgrm")   // the folder it made, empty
            QCOMPARE(QDir(path).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList {});
        else if (failure == "file-size limit")
            QVERIFY2(left.isEmpty(), "a partial file was left at the target");
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { "victim.txt" });
    }

    // A closed terminal (SIGHUP), kill (SIGTERM) and Ctrl+C (SIGINT) stop a
    // long run cleanly: drained, its results printed and its run file written.
    void signalsStopTheRunAndKeepTheRunFile_data()
    {
        QTest::addColumn<int>("signal");
        for (const int signal : { SIGINT, SIGTERM, SIGHUP })
            QTest::newRow(::sigabbrev_np(signal)) << signal;
    }
    void signalsStopTheRunAndKeepTheRunFile()
    {
        QFETCH(int, signal);
        m_server.flushAll();
        m_server.resetStats();
        const QString json = m_dir.filePath(QStringLiteral("signal-%1.json").arg(signal));
        QProcess process;
        process.setProgram(tacho::test::cliPath());
        process.setArguments(QStringList { "redis-benchmark" } + target()
                             + QStringList { "-n", "100000000", "-c", "4", "-P", "4", "-t", "set", "--json", json });
        process.setStandardInputFile(QProcess::nullDevice());
        process.start();
        QVERIFY(process.waitForStarted(10000));
        // Until the server has seen SETs (bounded: 20 s, 400 polls).
        quint64 seen = 0;
        QElapsedTimer timer;
        timer.start();
        for (int poll = 0; poll < 400 && seen < 1000 && timer.elapsed() < 20000; ++poll) {
            QTest::qWait(50);
            seen = m_server.commandStatsCalls().value("set");
        }
        QVERIFY2(seen >= 1000, "the run did not start sending");
        QVERIFY(process.state() == QProcess::Running);
        QCOMPARE(::kill(pid_t(process.processId()), signal), 0);
        const bool ended = process.waitForFinished(30000);
        if (!ended) {
            process.kill();
            process.waitForFinished(5000);
        }
        const QByteArray out = process.readAllStandardOutput();
        const QByteArray err = process.readAllStandardError();
        const QByteArray all = out + "\n--- stderr ---\n" + err;
        QVERIFY2(ended, all.constData());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit, all.constData());   // not killed by the signal
        QString error;
        const QJsonObject run = readJson(json, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error + "\n" + all));
        const QJsonObject test = run["tests"].toArray().at(0).toObject();
        const qint64 requests = test["requests"].toInteger(-1);
        const qint64 errors = test["errors"].toInteger(-1);
        QVERIFY2(requests > 0 && errors == 0, all.constData());
        QCOMPARE(test["unanswered"].toInteger(-1), 0);
        QVERIFY(requests < 100000000);   // stopped, not run to the end
        QCOMPARE(qint64(m_server.commandStatsCalls().value("set")), requests + test["warmupRequests"].toInteger());
        QCOMPARE(m_server.dbSize(), 1);   // redis-benchmark's SET writes one key
    }
};

QTEST_GUILESS_MAIN(TestOutputAndSignals)
#include "test_output_and_signals.moc"
