#include "support/child_process.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QThread>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace tacho::test {

std::unique_ptr<QProcess> startChildProcess(const QString& program, const QStringList& args, const QString& directory,
                                            const QString& outputFile, int timeoutMs, QString* error)
{
    auto process = std::make_unique<QProcess>();
    process->setProgram(program);
    process->setArguments(args);
    process->setWorkingDirectory(directory);
    process->setStandardInputFile(QProcess::nullDevice());
    process->setStandardOutputFile(outputFile);
    process->setProcessChannelMode(QProcess::MergedChannels);
    const pid_t parent = ::getpid();
    process->setChildProcessModifier([parent] {
        // In the child, before exec: die with the test process, however it ends.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent)
            ::_exit(127);
    });
    process->start();
    if (!process->waitForStarted(timeoutMs)) {
        *error = QStringLiteral("cannot start %1: %2").arg(program, process->errorString());
        return nullptr;
    }
    return process;
}

bool waitUntilServing(QProcess& process, int timeoutMs, const std::function<bool()>& serving)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (process.state() != QProcess::Running || process.waitForFinished(0))
            return false;
        if (serving())
            return true;
        QThread::msleep(50);
    }
    return false;
}

void stopChildProcess(QProcess& process, const char* what, int timeoutMs)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.terminate();   // SIGTERM to its PID
    if (!process.waitForFinished(timeoutMs)) {
        qWarning("%s %lld ignored SIGTERM for %d ms; sending SIGKILL", what, static_cast<long long>(process.processId()),
                 timeoutMs);
        process.kill();    // SIGKILL to its PID
        process.waitForFinished(timeoutMs);
    }
}

} // namespace tacho::test
