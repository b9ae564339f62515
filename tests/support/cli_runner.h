#pragma once
// Runs the tacho-cli binary built by this tree (TACHO_CLI_PATH) as a child process.
#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace tacho::test {

struct CliResult {
    int exitCode = -1;        // -1 when it crashed or timed out
    QByteArray out;           // standard output
    QByteArray err;           // standard error
    bool timedOut = false;    // killed (SIGKILL) after timeoutMs
    bool crashed = false;     // ended by a signal (other than our timeout kill)
};

// Path of the tacho-cli under test.
QString cliPath();

// The NUL-separated command line the kernel shows for `pid` (what `ps` reads); empty once it is gone.
QByteArray processCommandLine(qint64 pid);

// Runs `tacho-cli args…`, writes stdinData to its standard input and closes it, waits at
// most timeoutMs and kills it after that. `extraEnvironment` entries ("NAME=value") are added
// to this process's environment for the child.
CliResult runCli(const QStringList& args, int timeoutMs = 60000, const QByteArray& stdinData = {},
                 const QStringList& extraEnvironment = {});

// This process's environment plus `extraEnvironment` entries ("NAME=value").
QProcessEnvironment environmentWith(const QStringList& extraEnvironment);

// For failure messages: the exit status and the start of both outputs.
QString describeCliResult(const CliResult& result);

} // namespace tacho::test
