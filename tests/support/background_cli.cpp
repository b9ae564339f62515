#include "support/background_cli.h"

#include <QDeadlineTimer>

namespace tacho::test {

BackgroundCli::BackgroundCli(const QStringList& args, const QStringList& extraEnvironment)
{
    m_process.setProgram(cliPath());
    m_process.setArguments(args);
    m_process.setProcessEnvironment(environmentWith(extraEnvironment));
    m_process.setStandardInputFile(QProcess::nullDevice());
    m_process.start();
    m_started = m_process.waitForStarted(10000);
}

BackgroundCli::~BackgroundCli()
{
    if (running()) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

bool BackgroundCli::waitUntil(const std::function<bool()>& condition, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (condition())
            return true;
        if (!running())
            return false;
        m_process.waitForFinished(20);   // also reads the pipes, so the child never blocks on them
    }
    return condition();
}

CliResult BackgroundCli::finish(int timeoutMs)
{
    CliResult result;
    // Already reaped (waitUntil waits on it too): waitForFinished would say false.
    if (m_process.state() != QProcess::NotRunning && !m_process.waitForFinished(timeoutMs)) {
        result.timedOut = true;
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    result.out = m_process.readAllStandardOutput();
    result.err = m_process.readAllStandardError();
    if (result.timedOut)
        result.exitCode = -1;
    else if (m_process.exitStatus() == QProcess::CrashExit)
        result.crashed = true;
    else
        result.exitCode = m_process.exitCode();
    return result;
}

} // namespace tacho::test
