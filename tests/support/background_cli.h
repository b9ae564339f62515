#pragma once
// Test helper: tacho-cli started in the background, so a test can hurt the server
// while the run goes on. Main thread only. The child is killed by its PID when it
// outlives finish() or the object.
//
//   tacho::test::BackgroundCli cli({"memtier", "-p", port, "--test-time=4", "--json", run});
//   QVERIFY(cli.started());
//   QVERIFY(cli.waitUntil([&] { return server.commandStatsCalls().value("set") > 0; }, 20000));
//   ... hurt the server ...
//   const CliResult r = cli.finish(20000);
//
// Waiting is always for something that happened (traffic the server counted), never for a
// time to pass: a loaded machine only makes the waits longer.
#include <QProcess>
#include <QStringList>

#include <functional>

#include "support/cli_runner.h"

namespace tacho::test {

class BackgroundCli {
public:
    // `extraEnvironment` entries ("NAME=value") are added to this process's environment.
    explicit BackgroundCli(const QStringList& args, const QStringList& extraEnvironment = {});
    ~BackgroundCli();
    BackgroundCli(const BackgroundCli&) = delete;
    BackgroundCli& operator=(const BackgroundCli&) = delete;

    bool started() const { return m_started; }
    bool running() const { return m_process.state() != QProcess::NotRunning; }
    qint64 pid() const { return m_process.processId(); }
    // Polls `condition` (draining the child's pipes) until it holds (true), the CLI ends or
    // timeoutMs pass (false). The time limit only guards against a hang.
    bool waitUntil(const std::function<bool()>& condition, int timeoutMs);
    // Waits at most timeoutMs for the end (then kills it: timedOut) and returns what it did.
    CliResult finish(int timeoutMs);

private:
    QProcess m_process;
    bool m_started = false;
};

} // namespace tacho::test
