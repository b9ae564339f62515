#include "support/cli_runner.h"

#include <QFile>

#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>

namespace tacho::test {

QString cliPath()
{
    return QStringLiteral(TACHO_CLI_PATH);
}

QByteArray processCommandLine(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QProcessEnvironment environmentWith(const QStringList& extraEnvironment)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString& entry : extraEnvironment) {
        const qsizetype eq = entry.indexOf(QLatin1Char('='));
        if (eq > 0)
            environment.insert(entry.left(eq), entry.mid(eq + 1));
    }
    return environment;
}

CliResult runCli(const QStringList& args, int timeoutMs, const QByteArray& stdinData,
                 const QStringList& extraEnvironment)
{
    CliResult result;
    QProcess process;
    process.setProgram(cliPath());
    process.setArguments(args);
    process.setProcessEnvironment(environmentWith(extraEnvironment));
    process.start();
    if (!process.waitForStarted(10000)) {
        result.err = QStringLiteral("cannot start %1: %2").arg(cliPath(), process.errorString()).toUtf8();
        return result;
    }
    if (!stdinData.isEmpty())
        process.write(stdinData);
    process.closeWriteChannel();   // flushes what is buffered, then EOF

    // waitForFinished drains both output pipes while it waits, so a chatty child cannot block.
    if (!process.waitForFinished(timeoutMs)) {
        result.timedOut = true;
        process.kill();
        process.waitForFinished(5000);
    }
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    if (result.timedOut) {
        result.exitCode = -1;
    } else if (process.exitStatus() == QProcess::CrashExit) {
        result.crashed = true;
        result.exitCode = -1;
    } else {
        result.exitCode = process.exitCode();
    }
    return result;
}

namespace {

// At most `limit` characters of `text`: its start and its end (where a failed
// run's error is), marked where cut.
QString startAndEnd(const QString& text, qsizetype limit)
{
    if (text.size() <= limit)
        return text;
    return text.left(limit / 3) + QStringLiteral("\n[… cut …]\n") + text.right(limit - limit / 3);
}

} // namespace

QString describeCliResult(const CliResult& result)
{
    // memtier's progress lines ("[RUN #1 …]", each ended by a carriage return)
    // would fill the room where the error message should be.
    QString err = QString::fromUtf8(result.err);
    err.remove(QRegularExpression(QStringLiteral("\\[RUN #[^\\r\\n]*\\r")));
    // Standard error first, and both short: QVERIFY2 keeps about 1000
    // characters of its message.
    return QStringLiteral("exit %1, timedOut %2, crashed %3\n--- stderr ---\n%4\n--- stdout ---\n%5")
        .arg(result.exitCode)
        .arg(result.timedOut)
        .arg(result.crashed)
        .arg(startAndEnd(err, 500), startAndEnd(QString::fromUtf8(result.out), 300));
}

} // namespace tacho::test
