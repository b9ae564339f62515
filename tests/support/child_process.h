#pragma once
// Test helper: the start and stop of a server process that the fixtures
// (RedisServer, NutcrackerProxy) share. The child dies with the test process
// however that ends (PR_SET_PDEATHSIG), and is stopped by its PID.
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QProcess;

namespace tacho::test {

// Starts `program args` in `directory`, standard input empty, standard output and error
// into `outputFile`. Null with a message in *error when it cannot be started.
std::unique_ptr<QProcess> startChildProcess(const QString& program, const QStringList& args, const QString& directory,
                                            const QString& outputFile, int timeoutMs, QString* error);

// Polls `serving` every 50 ms until it holds (true), the child exits or timeoutMs pass (false).
bool waitUntilServing(QProcess& process, int timeoutMs, const std::function<bool()>& serving);

// SIGTERM to the child's PID; SIGKILL when it is still there after timeoutMs (said as a
// warning naming `what`). Nothing when it is not running.
void stopChildProcess(QProcess& process, const char* what, int timeoutMs);

} // namespace tacho::test
