#include "support/cli_runner.h"

#include <QProcess>
#include <QProcessEnvironment>

namespace tacho::test {

QString cliPath()
{
    return QStringLiteral(TACHO_CLI_PATH);
}

CliResult runCli(const QStringList& args, int timeoutMs, const QByteArray& stdinData,
                 const QStringList& extraEnvironment)
{
    CliResult result;
    QProcess process;
    process.setProgram(cliPath());
    process.setArguments(args);
    if (!extraEnvironment.isEmpty()) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const QString& entry : extraEnvironment) {
            const qsizetype eq = entry.indexOf(QLatin1Char('='));
            if (eq > 0)
                environment.insert(entry.left(eq), entry.mid(eq + 1));
        }
        process.setProcessEnvironment(environment);
    }
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

QString describeCliResult(const CliResult& result)
{
    return QStringLiteral("exit %1, timedOut %2, crashed %3\n--- stdout ---\n%4\n--- stderr ---\n%5")
        .arg(result.exitCode)
        .arg(result.timedOut)
        .arg(result.crashed)
        .arg(QString::fromUtf8(result.out.left(4000)), QString::fromUtf8(result.err.left(3000)));
}

} // namespace tacho::test
