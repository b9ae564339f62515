// tacho-cli latency against real redis-server processes: redis-cli's lines
// (into a pipe and on a terminal), history windows, the sample count the
// server saw, Ctrl+C, and the exit status of every failure. Issue #5
// ("Latency monitor").
#include <QDeadlineTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <atomic>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <thread>
#include <vector>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/run/latency_monitor.h"
#include "support/cli_runner.h"
#include "support/redis_server.h"
#if __has_include("support/tls_certificates.h")
#include "support/tls_certificates.h"
#define TACHO_TEST_TLS 1
#endif

using tacho::engine::LatencyMonitor;
using tacho::engine::LatencyMonitorOptions;
using tacho::engine::LatencyMonitorResult;
using tacho::engine::LatencyMonitorStatus;
using tacho::engine::LatencySample;
using tacho::engine::RunConfig;
using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

// min and max whole milliseconds, avg two decimals, as redis-cli prints them.
const QString kLine = QStringLiteral(R"(min: (\d+), max: (\d+), avg: (\d+\.\d\d) \((\d+) samples\))");
const QString kRange = QStringLiteral(R"( -- (\d+\.\d\d) seconds range)");

QStringList target(const RedisServer& server)
{
    return { "latency", "-h", server.host(), "-p", QString::number(server.port()) };
}

// For failure messages.
QString describe(const CliResult& r) { return tacho::test::describeCliResult(r); }

QStringList lines(const QByteArray& out)
{
    return QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

RedisServer::Options withPassword(const QString& password)
{
    RedisServer::Options options;
    options.password = password;
    return options;
}

struct TerminalRun {
    int exitCode = -1;
    QByteArray out;   // what the terminal received (its line discipline turns \n into \r\n)
};

// Runs tacho-cli with standard output on a pseudo-terminal, so that it sees
// isatty() and writes its live line.
TerminalRun runOnTerminal(const QStringList& args, int timeoutMs)
{
    TerminalRun run;
    const int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
        if (master >= 0)
            ::close(master);
        run.out = "cannot open a pseudo-terminal";
        return run;
    }
    QProcess process;
    process.setProgram(tacho::test::cliPath());
    process.setArguments(args);
    process.setStandardOutputFile(QString::fromLocal8Bit(ptsname(master)));
    process.start();
    if (!process.waitForStarted(10000)) {
        ::close(master);
        return run;
    }
    // Drain the terminal while the child runs, so it never blocks on a full buffer.
    QElapsedTimer timer;
    timer.start();
    bool finished = false;
    while (timer.elapsed() < timeoutMs) {
        pollfd p { master, POLLIN, 0 };
        if (::poll(&p, 1, 20) > 0) {
            char buffer[4096];
            const ssize_t n = ::read(master, buffer, sizeof buffer);
            if (n > 0)
                run.out.append(buffer, n);
            else if (n < 0 && errno != EINTR && errno != EAGAIN)
                break;   // EIO: the child closed its end
        }
        if (!finished && process.waitForFinished(0))
            finished = true;
        if (finished && ::poll(&p, 1, 0) <= 0)
            break;
    }
    if (!finished && !process.waitForFinished(1000)) {
        process.kill();
        process.waitForFinished(5000);
    } else {
        run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }
    ::close(master);
    return run;
}

} // namespace

class TestLatencyCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        RedisServer::Options options;
        options.unixSocket = true;
        m_server = std::make_unique<RedisServer>(options);
        QString error;
        QVERIFY2(m_server->start(&error), qPrintable(error));
    }

    void init() { m_server->resetStats(); }

    // The engine API as the workbench uses it: run() on its own thread,
    // requestStop() from another; samples arrive in order and windows restart.
    void monitorStopsFromAnotherThread()
    {
        RunConfig config;
        config.endpoint.port = m_server->port();
        LatencyMonitorOptions options;
        options.history = true;
        options.windowSeconds = 0.1;
        LatencyMonitor monitor(config, options);
        std::vector<LatencySample> samples;   // filled by the runner thread
        std::atomic<int> windowsClosed { 0 };
        std::atomic<std::size_t> sampled { 0 };
        LatencyMonitorResult result;
        std::thread runner([&] {
            result = monitor.run([&](const LatencySample& s) {
                samples.push_back(s);
                windowsClosed += s.windowClosed ? 1 : 0;
                sampled = samples.size();
            });
        });
        // Stop once three windows have closed and six samples came (at most 20 s: a hang guard), not after a
        // guessed time. A stop lets at most the PING in flight be answered.
        QDeadlineTimer deadline(20000);
        while ((windowsClosed < 3 || sampled < 6) && !deadline.hasExpired())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        const std::size_t seenAtStop = sampled;
        monitor.requestStop();
        runner.join();

        QCOMPARE(result.status, LatencyMonitorStatus::Stopped);
        QVERIFY2(windowsClosed >= 3, qPrintable(QString::number(windowsClosed)));
        QVERIFY2(samples.size() <= seenAtStop + 1, qPrintable(QString("%1 samples at the stop, %2 in all").arg(seenAtStop).arg(samples.size())));
        QVERIFY(samples.size() > 5);
        QCOMPARE(result.totalSamples, std::uint64_t(samples.size()));
        QCOMPARE(m_server->commandStatsCalls().value("ping"), quint64(samples.size()));
        int closed = 0;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const LatencySample& s = samples[i];
            QCOMPARE(s.totalSamples, std::uint64_t(i + 1));
            QVERIFY(s.rttMs > 0);
            QVERIFY(s.window.minMs <= s.rttMs && s.rttMs <= s.window.maxMs);
            QVERIFY(s.window.minMs <= s.window.avgMs && s.window.avgMs <= s.window.maxMs);
            if (i == 0) {
                QCOMPARE(s.window.samples, std::uint64_t(1));
                continue;
            }
            const LatencySample& before = samples[i - 1];
            QVERIFY(s.elapsedSeconds >= before.elapsedSeconds);
            if (before.windowClosed) {
                QVERIFY2(before.window.elapsedSeconds > 0.1, "a window closed early");
                QCOMPARE(s.window.samples, std::uint64_t(1));
                QCOMPARE(s.windowIndex, before.windowIndex + 1);
                QCOMPARE(s.window.minMs, s.rttMs);
                ++closed;
            } else {
                QCOMPARE(s.window.samples, before.window.samples + 1);
                QCOMPARE(s.windowIndex, before.windowIndex);
            }
        }
        QVERIFY2(closed >= 2, qPrintable(QString::number(closed)));
        QCOMPARE(result.windowIndex, samples.back().windowIndex + (samples.back().windowClosed ? 1 : 0));
    }

    void monitorEndsAfterItsDurationOrOnError()
    {
        RunConfig config;
        config.endpoint.port = m_server->port();
        LatencyMonitorOptions options;
        options.durationSeconds = 0.2;
        LatencyMonitor monitor(config, options);
        const auto start = std::chrono::steady_clock::now();
        const LatencyMonitorResult done = monitor.run({});
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // Ended by itself (nobody asked it to stop), and not before its duration: a lower
        // bound, which a loaded machine cannot break.
        QCOMPARE(done.status, LatencyMonitorStatus::Completed);
        QVERIFY(done.totalSamples > 0 && done.openWindow.samples == done.totalSamples);
        QVERIFY2(took >= 0.2, qPrintable(QString::number(took)));

        config.endpoint.port = tacho::test::pickFreeLoopbackPort();
        LatencyMonitor refused(config, options);
        const LatencyMonitorResult failed = refused.run({});
        QCOMPARE(failed.status, LatencyMonitorStatus::Failed);
        QVERIFY2(failed.error.find("Connection refused") != std::string::npos, failed.error.c_str());
        QCOMPARE(failed.totalSamples, std::uint64_t(0));
    }

    // Into a pipe: exactly one line at the end, with every PING the server saw.
    void durationPrintsOneLine()
    {
        const CliResult r = runCli(target(*m_server) << "--duration" << "1", 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(!r.out.contains('\r') && !r.out.contains('\x1b'), "terminal control written into a pipe");
        const QRegularExpression line("^" + kLine + "\n$");
        const auto match = line.match(QString::fromUtf8(r.out));
        QVERIFY2(match.hasMatch(), qPrintable(describe(r)));

        const long long min = match.captured(1).toLongLong();
        const long long max = match.captured(2).toLongLong();
        const double avg = match.captured(3).toDouble();
        const long long samples = match.captured(4).toLongLong();
        QVERIFY2(samples > 0, qPrintable(describe(r)));
        // One PING, then a 10 ms pause: at most 101 in a second.
        QVERIFY2(samples <= 101, qPrintable(describe(r)));
        QVERIFY(min <= max);
        QVERIFY(avg >= 0 && avg <= max + 0.5);
        QCOMPARE(m_server->commandStatsCalls().value("ping"), quint64(samples));
        QVERIFY2(r.err.isEmpty(), r.err.constData());
    }

    void historyPrintsOneLinePerWindow()
    {
        const CliResult r = runCli(target(*m_server) << "--history" << "--interval" << "0.3" << "--duration" << "1", 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QStringList all = lines(r.out);
        QVERIFY2(all.size() >= 2, qPrintable(describe(r)));
        const QRegularExpression line("^" + kLine + kRange + "$");
        long long total = 0;
        for (qsizetype i = 0; i < all.size(); ++i) {
            const auto match = line.match(all[i]);
            QVERIFY2(match.hasMatch(), qPrintable("line " + QString::number(i) + ": " + describe(r)));
            QVERIFY(match.captured(4).toLongLong() > 0);
            total += match.captured(4).toLongLong();
            // A window ends with the first reply after its length: never
            // shorter (the last one may be cut short by --duration).
            if (i + 1 < all.size())
                QVERIFY2(match.captured(5).toDouble() >= 0.30, qPrintable(all[i]));
        }
        QVERIFY2(all.size() <= 4, qPrintable(describe(r)));   // 1 s in windows of 0.3 s
        QCOMPARE(m_server->commandStatsCalls().value("ping"), quint64(total));
    }

    void rawOutput()
    {
        const CliResult r = runCli(target(*m_server) << "--raw" << "--duration" << "0.3", 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(QRegularExpression(R"(^\d+ \d+ \d+\.\d\d [1-9]\d*\n$)").match(QString::fromUtf8(r.out)).hasMatch(),
                 qPrintable(describe(r)));
    }

    void unixSocketAndUri()
    {
        CliResult r = runCli({ "latency", "-s", m_server->unixSocketPath(), "--duration", "0.2" }, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(QRegularExpression("^" + kLine + "\n$").match(QString::fromUtf8(r.out)).hasMatch(), qPrintable(describe(r)));

        r = runCli({ "latency", "-u", QStringLiteral("redis://127.0.0.1:%1/2").arg(m_server->port()), "--duration", "0.2" },
                   30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    }

    // On a terminal: redis-cli's clear-line prefix before every update, each
    // closed window on its own line, a newline at the end.
    void terminalUpdatesInPlace()
    {
        const TerminalRun run = runOnTerminal(target(*m_server) << "--history" << "-i" << "0.2" << "--duration" << "0.5",
                                              30000);
        QVERIFY2(run.exitCode == 0, run.out.constData());
        QVERIFY2(run.out.count("\x1b[0G\x1b[2K") >= 5, run.out.constData());
        const QString text = QString::fromUtf8(run.out);
        const QRegularExpression closed("\x1b\\[0G\x1b\\[2K" + kLine + kRange + "\r\n");
        QVERIFY2(text.count(closed) >= 2, run.out.constData());
        QVERIFY2(text.endsWith("seconds range\r\n"), run.out.constData());

        const TerminalRun plain = runOnTerminal(target(*m_server) << "--duration" << "0.3", 30000);
        QVERIFY2(plain.exitCode == 0, plain.out.constData());
        QVERIFY2(QString::fromUtf8(plain.out).contains(QRegularExpression("\x1b\\[0G\x1b\\[2K" + kLine + "\r\n$")),
                 plain.out.constData());
    }

    // Ctrl+C (SIGINT) ends the run cleanly with the line so far.
    void interruptPrintsTheResult()
    {
        QProcess process;
        process.start(tacho::test::cliPath(), target(*m_server));
        QVERIFY(process.waitForStarted(10000));
        QTest::qWait(600);
        QVERIFY(process.state() == QProcess::Running);
        ::kill(static_cast<pid_t>(process.processId()), SIGINT);
        QVERIFY2(process.waitForFinished(10000), "did not stop on SIGINT");
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        const auto match = QRegularExpression("^" + kLine + "\n$").match(out);
        QVERIFY2(match.hasMatch(), qPrintable(out));
        QVERIFY(match.captured(4).toLongLong() > 0);
    }

    void refusedConnection()
    {
        const quint16 port = tacho::test::pickFreeLoopbackPort();
        QVERIFY(port != 0);
        const CliResult r = runCli({ "latency", "-h", "127.0.0.1", "-p", QString::number(port), "--duration", "1" }, 30000);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY2(r.err.contains("Connection refused"), qPrintable(describe(r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(r)));
    }

    void authentication()
    {
        RedisServer server(withPassword("s3cret"));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));

        CliResult r = runCli(target(server) << "--duration" << "0.2", 30000);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY2(r.err.contains("requires authentication") && r.err.contains("NOAUTH"), qPrintable(describe(r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(r)));

        r = runCli(target(server) << "-a" << "wrong" << "--duration" << "0.2", 30000);
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY2(r.err.contains("authentication failed") && r.err.contains("WRONGPASS"), qPrintable(describe(r)));

        r = runCli(target(server) << "-a" << "s3cret" << "--duration" << "0.2", 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));

        r = runCli({ "latency", "-u", QStringLiteral("redis://s3cret@127.0.0.1:%1").arg(server.port()), "--duration", "0.2" },
                   30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    }

    // redis-cli's TLS options (moc does not evaluate __has_include, so the
    // slot always exists).
    void tls()
    {
#ifndef TACHO_TEST_TLS
        QSKIP("this tree has no TLS test fixture (tests/support/tls_certificates.h)");
#else
        tacho::test::TlsCertificates certificates;
        QString error;
        QVERIFY2(certificates.generate(&error), qPrintable(error));
        RedisServer::Options options;
        options.tls = RedisServer::TlsOptions::from(certificates);
        RedisServer server(options);
        QVERIFY2(server.start(&error), qPrintable(error));

        const QStringList tlsTarget { "latency", "-h", "127.0.0.1", "-p", QString::number(server.tlsPort()), "--tls" };
        CliResult r = runCli(tlsTarget + QStringList { "--cacert", certificates.caCert(), "--duration", "0.3" }, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(QRegularExpression("^" + kLine + "\n$").match(QString::fromUtf8(r.out)).hasMatch(), qPrintable(describe(r)));

        r = runCli(tlsTarget + QStringList { "--duration", "0.3" }, 30000);   // CA not trusted
        QVERIFY2(r.exitCode == 1 && r.err.contains("TLS"), qPrintable(describe(r)));
#endif
    }

    // The server goes away mid-run: exit 1 saying so, the figures so far on stdout.
    void connectionLost()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QProcess process;
        process.start(tacho::test::cliPath(), target(server) << "--duration" << "20");
        QVERIFY(process.waitForStarted(10000));
        QTest::qWait(500);
        server.stop();
        QVERIFY2(process.waitForFinished(15000), "did not notice the server stopping");
        QCOMPARE(process.exitCode(), 1);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(err.contains("closed the connection") || err.contains("lost connection"), qPrintable(err));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(QRegularExpression("^" + kLine + "\n$").match(out).hasMatch(), qPrintable(out));
    }

    void badOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        QTest::newRow("unknown") << QStringList { "--bogus" } << "--bogus";
        QTest::newRow("port") << QStringList { "-p", "http" } << "-p";
        QTest::newRow("port range") << QStringList { "-p", "70000" } << "-p";
        QTest::newRow("missing value") << QStringList { "-h" } << "-h";
        QTest::newRow("duration zero") << QStringList { "--duration", "0" } << "--duration";
        QTest::newRow("duration text") << QStringList { "--duration", "soon" } << "--duration";
        QTest::newRow("interval negative") << QStringList { "--history", "-i", "-1" } << "-i";
        QTest::newRow("interval without history") << QStringList { "--interval", "2" } << "--interval";
        QTest::newRow("uri") << QStringList { "-u", "http://x" } << "-u";
        QTest::newRow("stray argument") << QStringList { "ping" } << "ping";
    }

    void badOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const CliResult r = runCli(QStringList { "latency" } + args, 30000);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(QString::fromUtf8(r.err).contains(named), qPrintable(describe(r)));
        QVERIFY(r.out.isEmpty());
    }

    void help()
    {
        const CliResult r = runCli({ "latency", "--help" }, 30000);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--history"));
    }

private:
    std::unique_ptr<RedisServer> m_server;
};

QTEST_GUILESS_MAIN(TestLatencyCli)
#include "test_latency_cli.moc"
