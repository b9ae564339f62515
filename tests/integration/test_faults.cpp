// Faults (issue #8): tacho-cli against servers that die, restart, stall, kill
// or pause our connections, refuse clients, run out of memory, are read-only
// replicas or want a password — and against a fake server that never answers,
// answers garbage or half a reply, resets connections, closes at once, or
// answers slowly. Every run is bounded in time; none may crash or hang past the
// configured timeouts; each ends with a specific message, its run file on disk,
// errors counted by kind and totals consistent with the server's own count.
//
// Where Tacho is known to fall short, the single check is marked
// QEXPECT_FAIL("", "bug: …") so the suite stays green and the bug stays visible.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <hiredis/hiredis.h>

#include <algorithm>
#include <csignal>
#include <memory>
#include <sys/prctl.h>
#include <unistd.h>
#include <vector>

#include "support/cli_runner.h"
#include "support/run_file_json.h"
#include "support/fake_server.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::FakeServer;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

QString describe(const CliResult& r)
{
    return QStringLiteral("exit %1, timedOut %2, crashed %3\n--- stdout ---\n%4\n--- stderr ---\n%5")
        .arg(r.exitCode)
        .arg(r.timedOut)
        .arg(r.crashed)
        .arg(QString::fromUtf8(r.out.left(4000)), QString::fromUtf8(r.err.left(3000)));
}

QJsonObject readJson(const QString& path)
{
    return tacho::test::readRunFileJson(path);
}

QJsonObject firstTest(const QJsonObject& run)
{
    return run.value("tests").toArray().at(0).toObject();
}

qint64 integer(const QJsonObject& object, const char* key)
{
    return object.value(QLatin1String(key)).toInteger();
}

// tacho-cli started in the background, so the test can hurt the server while
// it runs. Main thread only. The child is killed by PID if it outlives finish().
class AsyncCli {
public:
    explicit AsyncCli(const QStringList& args)
    {
        m_process.setProgram(tacho::test::cliPath());
        m_process.setArguments(args);
        m_process.setStandardInputFile(QProcess::nullDevice());
        m_timer.start();
        m_process.start();
        m_started = m_process.waitForStarted(10000);
    }
    ~AsyncCli()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    bool started() const { return m_started; }
    qint64 pid() const { return m_process.processId(); }
    qint64 elapsedMs() const { return m_timer.elapsed(); }
    // Lets time pass until `ms` after the start (draining the pipes); returns
    // early when the CLI has ended.
    void waitUntil(qint64 ms)
    {
        while (m_process.state() != QProcess::NotRunning && m_timer.elapsed() < ms)
            m_process.waitForFinished(static_cast<int>(std::min<qint64>(50, ms - m_timer.elapsed())));
    }
    CliResult finish(int timeoutMs)
    {
        CliResult result;
        if (!m_process.waitForFinished(timeoutMs)) {
            result.timedOut = true;
            m_process.kill();
            m_process.waitForFinished(5000);
        }
        result.out = m_process.readAllStandardOutput();
        result.err = m_process.readAllStandardError();
        if (result.timedOut) {
            result.exitCode = -1;
        } else if (m_process.exitStatus() == QProcess::CrashExit) {
            result.crashed = true;
        } else {
            result.exitCode = m_process.exitCode();
        }
        m_elapsedAtEnd = m_timer.elapsed();
        return result;
    }
    qint64 elapsedAtEnd() const { return m_elapsedAtEnd; }

private:
    QProcess m_process;
    QElapsedTimer m_timer;
    bool m_started = false;
    qint64 m_elapsedAtEnd = -1;
};

// One command on a fresh hiredis connection to 127.0.0.1:port (no auth);
// the reply as text ("" when there was none).
QByteArray quickCommand(quint16 port, const QList<QByteArray>& args)
{
    timeval timeout { 1, 0 };
    redisContext* context = redisConnectWithTimeout("127.0.0.1", port, timeout);
    if (!context)
        return {};
    if (context->err) {
        redisFree(context);
        return {};
    }
    redisSetTimeout(context, timeout);
    std::vector<const char*> argv;
    std::vector<size_t> lengths;
    for (const QByteArray& arg : args) {
        argv.push_back(arg.constData());
        lengths.push_back(static_cast<size_t>(arg.size()));
    }
    auto* reply = static_cast<redisReply*>(redisCommandArgv(context, int(argv.size()), argv.data(), lengths.data()));
    QByteArray text;
    if (reply && reply->str)
        text = QByteArray(reply->str, static_cast<qsizetype>(reply->len));
    if (reply)
        freeReplyObject(reply);
    redisFree(context);
    return text;
}

// calls + rejected_calls of one command in INFO commandstats text.
quint64 statCalls(const QByteArray& info, const QByteArray& command)
{
    const QRegularExpression re("cmdstat_" + QRegularExpression::escape(QString::fromUtf8(command))
                                + R"(:calls=(\d+).*?rejected_calls=(\d+))");
    const auto match = re.match(QString::fromUtf8(info));
    return match.hasMatch() ? match.captured(1).toULongLong() + match.captured(2).toULongLong() : 0;
}

// A redis-server on a given port (to restart one on the port of a killed one),
// stopped by its PID at the end; dies with the test process.
class RedisOnPort {
public:
    bool start(quint16 port, QString* error)
    {
        if (!m_dir.isValid()) {
            *error = "no temporary directory";
            return false;
        }
        m_process.setProgram(QStandardPaths::findExecutable("redis-server"));
        m_process.setArguments({ "--port", QString::number(port), "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no", "--daemonize", "no", "--dir", m_dir.path() });
        m_process.setStandardOutputFile(m_dir.filePath("redis.log"));
        const pid_t parent = ::getpid();
        m_process.setChildProcessModifier([parent] {
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (::getppid() != parent)
                ::_exit(127);
        });
        m_process.start();
        if (!m_process.waitForStarted(5000)) {
            *error = "cannot start redis-server: " + m_process.errorString();
            return false;
        }
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 5000) {
            if (quickCommand(port, { "PING" }) == "PONG")
                return true;
            if (m_process.waitForFinished(50))
                break;
        }
        QFile log(m_dir.filePath("redis.log"));
        log.open(QIODevice::ReadOnly);
        *error = "restarted redis-server did not answer on port " + QString::number(port) + ": "
            + QString::fromUtf8(log.readAll().right(2000));
        return false;
    }
    ~RedisOnPort()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();   // SIGTERM to its PID
            if (!m_process.waitForFinished(5000)) {
                m_process.kill();
                m_process.waitForFinished(5000);
            }
        }
    }

private:
    QTemporaryDir m_dir;
    QProcess m_process;
};

// Zero-request intervals of a test: their total length in seconds, and the
// time span they cover.
struct Outage {
    double zeroSeconds = 0;
    double firstStart = -1;
    double lastEnd = -1;
};

Outage outageOf(const QJsonObject& test, double from, double to)
{
    Outage outage;
    for (const QJsonValue& v : test.value("intervals").toArray()) {
        const QJsonObject p = v.toObject();
        const double start = p.value("start").toDouble();
        const double end = p.value("end").toDouble();
        if (p.value("requests").toInteger() != 0 || start < from || end > to)
            continue;
        outage.zeroSeconds += end - start;
        if (outage.firstStart < 0)
            outage.firstStart = start;
        outage.lastEnd = end;
    }
    return outage;
}

qint64 sumIntervals(const QJsonObject& test, const char* key)
{
    qint64 sum = 0;
    for (const QJsonValue& v : test.value("intervals").toArray())
        sum += v.toObject().value(QLatin1String(key)).toInteger();
    return sum;
}

// "12 requests got no reply" → 12; -1 without such a sentence.
qint64 noReplyCount(const QByteArray& err)
{
    const auto match = QRegularExpression(R"((\d+) requests got no reply)").match(QString::fromUtf8(err));
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

// "connection to 127.0.0.1:PORT lost: <why>" where why is how a peer that went
// away shows: FIN, or — when our request was already on its way — RST or EPIPE.
bool saysConnectionLost(const QByteArray& err, quint16 port)
{
    return err.contains(QString("connection to 127.0.0.1:%1 lost: ").arg(port).toUtf8())
        && (err.contains("server closed the connection") || err.contains("Connection reset by peer")
            || err.contains("Broken pipe"));
}

} // namespace

class TestFaults : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    static QStringList memtier(quint16 port)
    {
        return { "memtier", "-s", "127.0.0.1", "-p", QString::number(port), "-t", "1", "-c", "2", "--ratio=1:0",
                 "--key-maximum=1000", "--hide-histogram" };
    }
    static QStringList redisBenchmark(quint16 port)
    {
        return { "redis-benchmark", "-p", QString::number(port), "-q" };
    }
    QString path(const QString& name) const { return m_dir.filePath(name); }

    static bool startServer(RedisServer& server)
    {
        QString error;
        if (!server.start(&error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        return true;
    }
    static RedisServer::Options debugOptions()
    {
        RedisServer::Options options;
        options.extraArgs = QStringList { "--enable-debug-command", "yes" };
        return options;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // ---- a real server, killed --------------------------------------------------------------

    // Without --reconnect-on-error the first lost connection ends the run at
    // once: exit 1, a message naming the server and the reason, the run file
    // (status failed, the partial data) and memtier's JSON on disk.
    void killedWithoutReconnectFailsAtOnceAndSaves()
    {
        RedisServer server;
        QVERIFY(startServer(server));
        const QString run = path("killed.json");
        const QString memtierJson = path("killed-memtier.json");
        AsyncCli cli(memtier(server.port()) << "--test-time=6" << "--json" << run << "--json-out-file" << memtierJson);
        QVERIFY(cli.started());
        cli.waitUntil(800);
        QCOMPARE(::kill(static_cast<pid_t>(server.pid()), SIGKILL), 0);
        const qint64 killedAt = cli.elapsedMs();
        const CliResult r = cli.finish(20000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(cli.elapsedAtEnd() - killedAt < 3000,
                 qPrintable(QString("ended %1 ms after the kill").arg(cli.elapsedAtEnd() - killedAt)));
        QVERIFY2(saysConnectionLost(r.err, server.port()), qPrintable(describe(r)));

        const QJsonObject file = readJson(run);
        QCOMPARE(file.value("status").toString(), QString("failed"));
        QVERIFY2(file.value("failure").toString().contains("lost"), qPrintable(file.value("failure").toString()));
        const QJsonObject test = firstTest(file);
        QCOMPARE(test.value("status").toString(), QString("failed"));
        QVERIFY(integer(test, "requests") > 0);
        QCOMPARE(sumIntervals(test, "requests"), integer(test, "requests"));
        QVERIFY(integer(test, "connectErrors") >= 1);

        const QJsonObject memtierRun = readJson(memtierJson).value("tacho").toObject().value("runs").toArray().at(0).toObject();
        QCOMPARE(memtierRun.value("status").toString(), QString("failed"));
        QVERIFY(memtierRun.value("failure").toString().contains("lost"));
    }

    // With --reconnect-on-error and a bounded number of attempts: the run
    // tries, then fails naming the attempts; the file counts the losses.
    void killedWithBoundedReconnectGivesUp()
    {
        RedisServer server;
        QVERIFY(startServer(server));
        const QString run = path("gave-up.json");
        AsyncCli cli(memtier(server.port()) << "--test-time=6" << "--reconnect-on-error"
                                            << "--max-reconnect-attempts=3" << "--json" << run);
        QVERIFY(cli.started());
        cli.waitUntil(700);
        QCOMPARE(::kill(static_cast<pid_t>(server.pid()), SIGKILL), 0);
        const qint64 killedAt = cli.elapsedMs();
        const CliResult r = cli.finish(20000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(cli.elapsedAtEnd() - killedAt < 3000,
                 qPrintable(QString("ended %1 ms after the kill").arg(cli.elapsedAtEnd() - killedAt)));
        QVERIFY2(r.err.contains(QString("cannot connect to 127.0.0.1:%1: Connection refused (after 3 reconnect attempts)")
                                    .arg(server.port()).toUtf8()),
                 qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(test.value("status").toString(), QString("failed"));
        QVERIFY2(integer(test, "connectErrors") >= 4, qPrintable(QString::number(integer(test, "connectErrors"))));
        QVERIFY(integer(test, "reconnects") >= 3);
        QVERIFY(integer(test, "requests") > 0);
    }

    // Killed and restarted on the same port while a reconnecting run goes on:
    // the run completes, the losses and reconnects are counted, and the outage
    // is in the series as intervals without requests.
    void killedAndRestartedRunContinues()
    {
        RedisServer server;
        QVERIFY(startServer(server));
        const quint16 port = server.port();
        const QString run = path("restarted.json");
        AsyncCli cli(memtier(port) << "--test-time=4" << "--reconnect-on-error" << "--json" << run);
        QVERIFY(cli.started());
        cli.waitUntil(1000);
        QCOMPARE(::kill(static_cast<pid_t>(server.pid()), SIGKILL), 0);
        cli.waitUntil(2000);
        RedisOnPort restarted;
        QString error;
        QVERIFY2(restarted.start(port, &error), qPrintable(error));
        const CliResult r = cli.finish(20000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(QString::fromUtf8(r.out).contains(QRegularExpression(R"(connections: \d+ lost or failed, \d+ reconnects)")),
                 qPrintable(describe(r)));

        const QJsonObject file = readJson(run);
        QCOMPARE(file.value("status").toString(), QString("completed"));
        const QJsonObject test = firstTest(file);
        QVERIFY2(integer(test, "connectErrors") >= 2, qPrintable(QString::number(integer(test, "connectErrors"))));
        QVERIFY2(integer(test, "reconnects") >= 2, qPrintable(QString::number(integer(test, "reconnects"))));
        QCOMPARE(sumIntervals(test, "requests"), integer(test, "requests"));
        QCOMPARE(sumIntervals(test, "connectErrors"), integer(test, "connectErrors"));
        QCOMPARE(sumIntervals(test, "reconnects"), integer(test, "reconnects"));
        // About a second with no requests between the kill and the restart.
        const Outage outage = outageOf(test, 0.5, 2.6);
        QVERIFY2(outage.zeroSeconds >= 0.6,
                 qPrintable(QString("zero-request intervals cover %1 s (from %2 to %3)")
                                .arg(outage.zeroSeconds).arg(outage.firstStart).arg(outage.lastEnd)));
        // Traffic again after the restart, and the new server saw it.
        qint64 after = 0;
        for (const QJsonValue& v : test.value("intervals").toArray())
            if (v.toObject().value("start").toDouble() >= 2.3)
                after += v.toObject().value("requests").toInteger();
        QVERIFY2(after > 0, "no requests after the restart");
        const quint64 served = statCalls(quickCommand(port, { "INFO", "commandstats" }), "set");
        QVERIFY2(served >= quint64(after) && served <= quint64(integer(test, "requests") + integer(test, "unanswered")),
                 qPrintable(QString("restarted server counted %1 SETs; %2 answered after the restart, %3 in all")
                                .arg(served).arg(after).arg(integer(test, "requests"))));
    }

    // ---- a real server that stalls or drops our connections -------------------------------

    // DEBUG SLEEP 1 mid-run: no failure, the stall is the maximum latency, the
    // server's count agrees.
    void debugSleepStallShowsInMaxLatency()
    {
        RedisServer server(debugOptions());
        QVERIFY(startServer(server));
        const QString run = path("sleep.json");
        AsyncCli cli(redisBenchmark(server.port()) << "-t" << "set" << "-c" << "4" << "--duration" << "2.5" << "--json" << run);
        QVERIFY(cli.started());
        cli.waitUntil(800);
        const auto reply = server.command({ "DEBUG", "SLEEP", "1" });
        QVERIFY2(reply.type == tacho::test::RedisReply::Type::Status, qPrintable(reply.describe()));
        const CliResult r = cli.finish(20000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(test.value("status").toString(), QString("completed"));
        const double maxMs = test.value("latencyMs").toObject().value("max").toDouble();
        QVERIFY2(maxMs >= 900 && maxMs < 2500, qPrintable(QString("max latency %1 ms").arg(maxMs)));
        QVERIFY2(outageOf(test, 0, 10).zeroSeconds >= 0.5, "the stall is not visible in the intervals");
        const QJsonObject check = test.value("crossCheck").toObject();
        QVERIFY2(check.value("agrees").toBool(), qPrintable(QJsonDocument(check).toJson()));
        QCOMPARE(qint64(server.commandStatsCalls().value("set")), integer(test, "requests"));
    }

    // CLIENT KILL TYPE normal without reconnect: the run fails saying the
    // server closed the connection; the file keeps the partial counts, which
    // the surviving server's count bounds.
    void clientKillWithoutReconnectFails()
    {
        RedisServer server;
        QVERIFY(startServer(server));
        const QString run = path("client-kill.json");
        AsyncCli cli(redisBenchmark(server.port()) << "-t" << "set" << "-c" << "4" << "--duration" << "4" << "--json" << run);
        QVERIFY(cli.started());
        cli.waitUntil(700);
        const long long killed = server.commandInteger({ "CLIENT", "KILL", "TYPE", "normal" });
        QVERIFY2(killed >= 4, qPrintable(QString::number(killed)));
        const CliResult r = cli.finish(20000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(saysConnectionLost(r.err, server.port()), qPrintable(describe(r)));
        const QJsonObject file = readJson(run);
        QCOMPARE(file.value("status").toString(), QString("failed"));
        const QJsonObject test = firstTest(file);
        const qint64 requests = integer(test, "requests");
        const qint64 served = qint64(server.commandStatsCalls().value("set"));
        QVERIFY(requests > 0);
        QVERIFY2(served >= requests, qPrintable(QString("server %1, answered %2").arg(served).arg(requests)));
        // (Whether the server also ran requests whose replies were lost depends on timing;
        // the deterministic check of unanswered requests is resetWithoutReconnectCountsUnanswered.)
        if (served > requests + integer(test, "unanswered"))
            qInfo("server ran %lld SETs, run file: %lld answered + %lld unanswered", served, requests,
                  integer(test, "unanswered"));
    }

    // CLIENT KILL with --reconnect-on-error: the run goes on; losses and
    // reconnects counted; answered <= server count <= answered + unanswered.
    void clientKillWithReconnectContinues()
    {
        RedisServer server;
        QVERIFY(startServer(server));
        const QString run = path("client-kill-reconnect.json");
        AsyncCli cli(QStringList { "memtier", "-s", "127.0.0.1", "-p", QString::number(server.port()), "-t", "2", "-c", "2",
                                   "--ratio=1:0", "--key-maximum=1000", "--hide-histogram", "--test-time=2",
                                   "--reconnect-on-error", "--json", run });
        QVERIFY(cli.started());
        cli.waitUntil(700);
        const long long killed = server.commandInteger({ "CLIENT", "KILL", "TYPE", "normal" });
        QVERIFY2(killed >= 4, qPrintable(QString::number(killed)));
        const CliResult r = cli.finish(20000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(test.value("status").toString(), QString("completed"));
        QVERIFY2(integer(test, "connectErrors") >= 4, qPrintable(QString::number(integer(test, "connectErrors"))));
        QVERIFY2(integer(test, "reconnects") >= 4, qPrintable(QString::number(integer(test, "reconnects"))));
        const qint64 requests = integer(test, "requests");
        const qint64 unanswered = integer(test, "unanswered");
        const qint64 served = qint64(server.commandStatsCalls().value("set"));
        QVERIFY2(served >= requests && served <= requests + unanswered,
                 qPrintable(QString("server %1, answered %2, unanswered %3").arg(served).arg(requests).arg(unanswered)));
        // The server survived, so Tacho's own cross-check is still there: the
        // control connection, killed too, was opened again. Its figures are
        // the server's, and bracketed like the test's own.
        const QJsonObject check = test.value("crossCheck").toObject();
        QVERIFY2(check.value("available").toBool(), qPrintable(QJsonDocument(check).toJson()));
        QCOMPARE(check.value("serverCalls").toInteger(), served);
    }

    // CLIENT PAUSE 500 mid-run: no failure, the pause is the maximum latency.
    void clientPauseShowsInMaxLatency()
    {
        RedisServer server;
        QVERIFY(startServer(server));
        const QString run = path("pause.json");
        AsyncCli cli(redisBenchmark(server.port()) << "-t" << "get" << "-c" << "4" << "--duration" << "2" << "--json" << run);
        QVERIFY(cli.started());
        cli.waitUntil(700);
        QCOMPARE(server.commandString({ "CLIENT", "PAUSE", "500" }), std::optional<QString>("OK"));
        const CliResult r = cli.finish(20000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        const double maxMs = test.value("latencyMs").toObject().value("max").toDouble();
        QVERIFY2(maxMs >= 400 && maxMs < 2000, qPrintable(QString("max latency %1 ms").arg(maxMs)));
        QVERIFY2(test.value("crossCheck").toObject().value("agrees").toBool(),
                 qPrintable(QJsonDocument(test.value("crossCheck").toObject()).toJson()));
    }

    // ---- a real server that refuses work ------------------------------------------------------

    // --maxclients 5 and -c 20: the run fails and says why; the server's
    // refusal ("-ERR max number of clients reached", sent before it closes) is
    // not the answer to a request.
    void maxClientsReachedIsNamed()
    {
        RedisServer::Options options;
        options.extraArgs = QStringList { "--maxclients", "5" };
        RedisServer server(options);
        QVERIFY(startServer(server));
        const QString run = path("maxclients.json");
        const CliResult r = runCli(redisBenchmark(server.port()) << "-t" << "set" << "-c" << "20" << "-n" << "2000"
                                                                 << "--json" << run, 20000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(readJson(run).value("status").toString(), QString("failed"));
        QVERIFY2(r.err.contains("max number of clients reached"), qPrintable(describe(r)));
        const qint64 served = qint64(server.commandStatsCalls().value("set"));
        const QJsonObject test = firstTest(readJson(run));
        QVERIFY2(integer(test, "requests") <= served,
                 qPrintable(QString("%1 replies counted, the server ran %2 SETs").arg(integer(test, "requests")).arg(served)));
    }

    // The same with a password: the refusal is the reply to AUTH.
    void maxClientsReachedIsNotAnAuthenticationFailure()
    {
        RedisServer::Options options;
        options.extraArgs = QStringList { "--maxclients", "5" };
        options.password = "pw-maxclients";
        RedisServer server(options);
        QVERIFY(startServer(server));
        const CliResult r = runCli(redisBenchmark(server.port()) << "-a" << "pw-maxclients" << "-t" << "set" << "-c" << "20"
                                                                 << "-n" << "2000", 20000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("max number of clients reached"), qPrintable(describe(r)));
        QVERIFY2(!r.err.contains("authentication failed"), qPrintable(describe(r)));
    }

    // OOM under --maxmemory with noeviction: error replies counted by kind,
    // the run completes, the server's count (rejected calls included) agrees.
    void oomRepliesAreCountedByKind()
    {
        RedisServer::Options options;
        options.extraArgs = QStringList { "--maxmemory", "1mb", "--maxmemory-policy", "noeviction" };
        RedisServer server(options);
        QVERIFY(startServer(server));
        const QString run = path("oom.json");
        const CliResult r = runCli(redisBenchmark(server.port()) << "-t" << "set" << "-d" << "20000" << "-r" << "100000"
                                                                 << "-n" << "500" << "-c" << "4" << "--json" << run, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(integer(test, "requests"), 500);
        const qint64 oom = test.value("errorsByKind").toObject().value("OOM").toInteger();
        QVERIFY2(oom > 0, qPrintable(QJsonDocument(test.value("errorsByKind").toObject()).toJson()));
        QCOMPARE(integer(test, "errors"), oom);
        QVERIFY(test.value("firstErrors").toArray().at(0).toString().startsWith("OOM"));
        const QJsonObject check = test.value("crossCheck").toObject();
        QVERIFY2(check.value("agrees").toBool(), qPrintable(QJsonDocument(check).toJson()));
        QCOMPARE(qint64(server.commandStatsCalls().value("set")), 500);
    }

    // SET against a read-only replica: every reply is READONLY, counted.
    void readonlyReplicaRepliesAreCounted()
    {
        RedisServer master;
        QVERIFY(startServer(master));
        RedisServer::Options options;
        options.extraArgs = QStringList { "--replicaof", "127.0.0.1", QString::number(master.port()) };
        RedisServer replica(options);
        QVERIFY(startServer(replica));
        QElapsedTimer linked;
        linked.start();
        while (replica.info("replication").value("master_link_status") != "up" && linked.elapsed() < 10000)
            QTest::qWait(50);
        QCOMPARE(replica.info("replication").value("master_link_status"), QString("up"));

        const QString run = path("readonly.json");
        const CliResult r = runCli(redisBenchmark(replica.port()) << "-t" << "set" << "-n" << "300" << "-c" << "2"
                                                                  << "--json" << run, 20000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(integer(test, "requests"), 300);
        QCOMPARE(test.value("errorsByKind").toObject().value("READONLY").toInteger(), 300);
        QVERIFY2(test.value("crossCheck").toObject().value("agrees").toBool(),
                 qPrintable(QJsonDocument(test.value("crossCheck").toObject()).toJson()));
        QCOMPARE(master.commandStatsCalls().value("set"), 0u);
    }

    // NOAUTH: fails before any traffic with a message that says what to do,
    // in the dialect's own words; the failed run is still saved.
    void noauthIsSpecificAndSaved()
    {
        RedisServer::Options options;
        options.password = "needs-a-password";
        RedisServer server(options);
        QVERIFY(startServer(server));
        const QString run = path("noauth.json");
        const CliResult r = runCli(memtier(server.port()) << "-n" << "100" << "--json" << run, 20000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("NOAUTH") && r.err.contains("requires authentication") && r.err.contains("-a"),
                 qPrintable(describe(r)));
        const QJsonObject file = readJson(run);
        QCOMPARE(file.value("status").toString(), QString("failed"));
        QVERIFY(file.value("failure").toString().contains("NOAUTH"));
        QCOMPARE(server.commandStatsCalls().value("set"), 0u);
        // memtier has no --user: the advice names what it has.
        QVERIFY2(!r.err.contains("--user"), qPrintable(describe(r)));
        QVERIFY2(r.err.contains("-a USER:PASSWORD"), qPrintable(describe(r)));
        // redis-benchmark's words are its own.
        const CliResult rb = runCli(redisBenchmark(server.port()) << "-t" << "set" << "-n" << "10", 20000);
        QCOMPARE(rb.exitCode, 1);
        QVERIFY2(rb.err.contains("NOAUTH") && rb.err.contains("give a password with -a") && rb.err.contains("--user"),
                 qPrintable(describe(rb)));
    }

    // ---- a fake server ----------------------------------------------------------------------

    // Never answers (duration run): the run ends after the drain window with
    // the number of requests that got no reply, and the file counts them.
    void silentServerEndsAfterTheDrainWindow()
    {
        FakeServer::Options options;
        options.behaviour = FakeServer::Behaviour::Silent;
        FakeServer fake(options);
        QString error;
        QVERIFY2(fake.start(&error), qPrintable(error));
        const QString run = path("silent.json");
        QElapsedTimer timer;
        timer.start();
        const CliResult r = runCli(memtier(fake.port()) << "--test-time=1" << "--connection-timeout=1" << "--json" << run, 15000);
        const qint64 took = timer.elapsed();
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        // 1 s of test, 2 s of drain window, some slack.
        QVERIFY2(took < 5500, qPrintable(QString("took %1 ms").arg(took)));
        QVERIFY2(r.err.contains(QString("got no reply from 127.0.0.1:%1 within 2 s of the end of the test").arg(fake.port()).toUtf8()),
                 qPrintable(describe(r)));
        const qint64 noReply = noReplyCount(r.err);
        QCOMPARE(noReply, 2);   // two connections, one request in flight each
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(test.value("status").toString(), QString("failed"));
        QCOMPARE(integer(test, "requests"), 0);
        QCOMPARE(integer(test, "unanswered"), noReply);
    }

    // Never answers (count-limited run, no duration): must still end in
    // bounded time rather than wait forever — by the default reply timeout
    // (5 s) in memtier's dialect, by --reply-timeout in redis-benchmark's. The
    // lost requests are counted, and the timeout by its kind.
    void silentServerCountRunDoesNotHang_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("memtier, default timeout") << QStringList { "-n", "100", "--connection-timeout=1" }
                                                  << "no reply within 5000 ms (1 request in flight)";
        QTest::newRow("redis-benchmark --reply-timeout 0.5")
            << QStringList { "-t", "set", "-c", "2", "-P", "3", "-n", "100", "--reply-timeout", "0.5" }
            << "no reply within 500 ms (3 requests in flight)";
    }
    void silentServerCountRunDoesNotHang()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        FakeServer::Options options;
        options.behaviour = FakeServer::Behaviour::Silent;
        FakeServer fake(options);
        QString error;
        QVERIFY2(fake.start(&error), qPrintable(error));
        const QString run = path("silent-count.json");
        const bool memtierDialect = QString(QTest::currentDataTag()).startsWith("memtier");
        const QStringList base = memtierDialect ? memtier(fake.port()) : QStringList { "redis-benchmark", "-p", QString::number(fake.port()) };
        const CliResult r = runCli(base + args + QStringList { "--json", run }, 8000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("connection to 127.0.0.1:%1 lost: ").arg(fake.port()).toUtf8() + message.toUtf8()),
                 qPrintable(describe(r)));
        const QJsonObject file = readJson(run);
        QCOMPARE(file.value("status").toString(), QString("failed"));
        const QJsonObject test = firstTest(file);
        QCOMPARE(integer(test, "requests"), 0);
        QVERIFY2(integer(test, "replyTimeouts") >= 1, qPrintable(QJsonDocument(test).toJson()));
        // Every request sent is accounted for: one (memtier) or three (-P 3) per connection.
        QCOMPARE(integer(test, "unanswered"), memtierDialect ? 2 : 6);
    }

    // A stall longer than --reply-timeout with --reconnect-on-error: the
    // stalled connections are given up, counted, and reconnected; the run
    // completes, and the server's count is bracketed by ours.
    void stallBeyondReplyTimeoutReconnects()
    {
        RedisServer server(debugOptions());
        QVERIFY(startServer(server));
        const QString run = path("stall-reconnect.json");
        AsyncCli cli(memtier(server.port()) << "--test-time=3" << "--reply-timeout=0.4" << "--reconnect-on-error"
                                            << "--json" << run);
        QVERIFY(cli.started());
        cli.waitUntil(700);
        const auto slept = server.command({ "DEBUG", "SLEEP", "1.2" });
        QVERIFY2(!slept.isError(), qPrintable(slept.describe()));
        const CliResult r = cli.finish(20000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("reply timeouts"), qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(test.value("status").toString(), QString("completed"));
        const qint64 timeouts = integer(test, "replyTimeouts");
        QVERIFY2(timeouts >= 2, qPrintable(QJsonDocument(test).toJson()));
        QVERIFY(integer(test, "connectErrors") >= timeouts);
        QVERIFY(integer(test, "reconnects") >= timeouts);
        QVERIFY(integer(test, "unanswered") >= timeouts);
        const qint64 requests = integer(test, "requests");
        const qint64 served = qint64(server.commandStatsCalls().value("set"));
        QVERIFY2(served >= requests && served <= requests + integer(test, "unanswered"),
                 qPrintable(QString("server %1, answered %2, unanswered %3").arg(served).arg(requests).arg(integer(test, "unanswered"))));
    }

    // Never answers the session setup (SELECT) or the control connection:
    // bounded by the connect timeout, with a message that says so.
    void silentServerDuringSetupTimesOut()
    {
        {
            FakeServer::Options options;
            options.behaviour = FakeServer::Behaviour::Silent;
            FakeServer fake(options);
            QString error;
            QVERIFY2(fake.start(&error), qPrintable(error));
            QElapsedTimer timer;
            timer.start();
            const CliResult r = runCli(memtier(fake.port()) << "-n" << "10" << "--select-db=1" << "--connection-timeout=1", 10000);
            QVERIFY2(!r.timedOut && r.exitCode == 1, qPrintable(describe(r)));
            QVERIFY2(timer.elapsed() < 4000, qPrintable(QString("took %1 ms").arg(timer.elapsed())));
            QVERIFY2(r.err.contains("timed out after 1000 ms"), qPrintable(describe(r)));
        }
        {
            FakeServer::Options options;
            options.behaviour = FakeServer::Behaviour::Silent;
            options.healthyConnections = 0;   // the control connection too
            FakeServer fake(options);
            QString error;
            QVERIFY2(fake.start(&error), qPrintable(error));
            QElapsedTimer timer;
            timer.start();
            const CliResult r = runCli(memtier(fake.port()) << "-n" << "10" << "--connection-timeout=1", 10000);
            QVERIFY2(!r.timedOut && r.exitCode == 1, qPrintable(describe(r)));
            QVERIFY2(timer.elapsed() < 4000, qPrintable(QString("took %1 ms").arg(timer.elapsed())));
            // The whole reply counts (issue 15), so the message names the command it waited for.
            QVERIFY2(r.err.contains(QString("no complete reply to PING from 127.0.0.1:%1 within 1000 ms").arg(fake.port()).toUtf8()),
                     qPrintable(describe(r)));
        }
    }

    // Garbage instead of a reply: a protocol error, named, at once.
    void garbageReplyIsAProtocolError()
    {
        FakeServer::Options options;
        options.behaviour = FakeServer::Behaviour::Garbage;
        options.healthyReplies = 20;
        FakeServer fake(options);
        QString error;
        QVERIFY2(fake.start(&error), qPrintable(error));
        const QString run = path("garbage.json");
        const CliResult r = runCli(redisBenchmark(fake.port()) << "-t" << "set" << "-c" << "2" << "-n" << "100000"
                                                               << "--json" << run, 15000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("connection to 127.0.0.1:%1 lost: protocol error").arg(fake.port()).toUtf8()),
                 qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(test.value("status").toString(), QString("failed"));
        QVERIFY2(integer(test, "requests") >= 20 && integer(test, "requests") <= 40,
                 qPrintable(QString::number(integer(test, "requests"))));
    }

    // Half a reply, then the server closes: a loss, named; the request whose
    // reply was cut off is counted as unanswered.
    void truncatedReplyThenCloseIsALoss()
    {
        FakeServer::Options options;
        options.behaviour = FakeServer::Behaviour::Truncated;
        options.healthyReplies = 10;
        FakeServer fake(options);
        QString error;
        QVERIFY2(fake.start(&error), qPrintable(error));
        const QString run = path("truncated.json");
        const CliResult r = runCli(redisBenchmark(fake.port()) << "-t" << "get" << "-c" << "1" << "-n" << "1000"
                                                               << "--json" << run, 15000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("connection to 127.0.0.1:%1 lost: server closed the connection").arg(fake.port()).toUtf8()),
                 qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(integer(test, "requests"), 10);
        QCOMPARE(integer(test, "unanswered"), 1);
    }

    // TCP reset mid-run without reconnect: named, and the requests on the
    // wire are accounted for (answered + unanswered = what was sent).
    void resetWithoutReconnectCountsUnanswered()
    {
        FakeServer::Options options;
        options.behaviour = FakeServer::Behaviour::Reset;
        options.healthyReplies = 50;
        FakeServer fake(options);
        QString error;
        QVERIFY2(fake.start(&error), qPrintable(error));
        const QString run = path("reset.json");
        const CliResult r = runCli(redisBenchmark(fake.port()) << "-t" << "set" << "-c" << "1" << "-P" << "4" << "-n" << "100000"
                                                               << "--json" << run, 15000);
        QVERIFY2(!r.timedOut && !r.crashed, qPrintable(describe(r)));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString("connection to 127.0.0.1:%1 lost: Connection reset by peer").arg(fake.port()).toUtf8()),
                 qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        const qint64 requests = integer(test, "requests");
        QVERIFY2(requests >= 48 && requests <= 50, qPrintable(QString::number(requests)));
        QVERIFY(fake.trafficCommandsReceived() >= quint64(requests));
        QVERIFY2(quint64(requests + integer(test, "unanswered")) >= fake.trafficCommandsReceived(),
                 qPrintable(QString("server read %1 commands; %2 answered + %3 unanswered")
                                .arg(fake.trafficCommandsReceived()).arg(requests).arg(integer(test, "unanswered"))));
    }

    // TCP resets with --reconnect-on-error: the run goes on to its end; losses,
    // reconnects and the requests lost on the wire are counted.
    void resetWithReconnectContinues()
    {
        FakeServer::Options options;
        options.behaviour = FakeServer::Behaviour::Reset;
        options.healthyReplies = 200;
        FakeServer fake(options);
        QString error;
        QVERIFY2(fake.start(&error), qPrintable(error));
        const QString run = path("reset-reconnect.json");
        const CliResult r = runCli(memtier(fake.port()) << "--test-time=1" << "--pipeline=4" << "--reconnect-on-error"
                                                        << "--json" << run, 15000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(test.value("status").toString(), QString("completed"));
        const qint64 losses = integer(test, "connectErrors");
        QVERIFY2(losses >= 2, qPrintable(QString::number(losses)));
        QVERIFY2(integer(test, "reconnects") >= losses - 2, qPrintable(QString::number(integer(test, "reconnects"))));
        QVERIFY2(integer(test, "unanswered") >= losses, qPrintable(QString::number(integer(test, "unanswered"))));
        const qint64 requests = integer(test, "requests");
        QVERIFY(fake.trafficCommandsReceived() >= quint64(requests));
        QVERIFY2(quint64(requests + integer(test, "unanswered")) >= fake.trafficCommandsReceived(),
                 qPrintable(QString("server read %1 commands; %2 answered + %3 unanswered")
                                .arg(fake.trafficCommandsReceived()).arg(requests).arg(integer(test, "unanswered"))));
        QVERIFY(r.out.contains("lost or failed"));
    }

    // Accepts, then closes at once: named; for the control connection too.
    void acceptThenCloseIsNamed()
    {
        {
            FakeServer::Options options;
            options.behaviour = FakeServer::Behaviour::AcceptClose;
            FakeServer fake(options);
            QString error;
            QVERIFY2(fake.start(&error), qPrintable(error));
            const CliResult r = runCli(redisBenchmark(fake.port()) << "-t" << "set" << "-c" << "2" << "-n" << "1000", 15000);
            QVERIFY2(!r.timedOut && !r.crashed && r.exitCode == 1, qPrintable(describe(r)));
            // Closed before answering the first SET of the connection: named as such (issue 16).
            QVERIFY2(r.err.contains(QString("server 127.0.0.1:%1 closed the connection without answering SET").arg(fake.port()).toUtf8())
                         || r.err.contains(QString("lost connection to 127.0.0.1:%1 without an answer to SET: ").arg(fake.port()).toUtf8())
                         || saysConnectionLost(r.err, fake.port()),
                     qPrintable(describe(r)));
        }
        {
            FakeServer::Options options;
            options.behaviour = FakeServer::Behaviour::AcceptClose;
            options.healthyConnections = 0;
            FakeServer fake(options);
            QString error;
            QVERIFY2(fake.start(&error), qPrintable(error));
            const CliResult r = runCli(redisBenchmark(fake.port()) << "-t" << "set" << "-n" << "1000", 15000);
            QVERIFY2(!r.timedOut && !r.crashed && r.exitCode == 1, qPrintable(describe(r)));
            QVERIFY2(r.err.contains(QString("server 127.0.0.1:%1 closed the connection without answering").arg(fake.port()).toUtf8())
                         || r.err.contains(QString("lost connection to 127.0.0.1:%1 without an answer to PING: Connection reset by peer").arg(fake.port()).toUtf8()),
                     qPrintable(describe(r)));
        }
    }

    // LOADING replies (a server loading its dataset): counted by kind.
    void loadingRepliesAreCountedByKind()
    {
        FakeServer::Options options;
        options.behaviour = FakeServer::Behaviour::ErrorReply;
        FakeServer fake(options);
        QString error;
        QVERIFY2(fake.start(&error), qPrintable(error));
        const QString run = path("loading.json");
        const CliResult r = runCli(redisBenchmark(fake.port()) << "-t" << "set" << "-c" << "2" << "-n" << "200" << "--json" << run, 15000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(integer(test, "requests"), 200);
        QCOMPARE(integer(test, "errors"), 200);
        QCOMPARE(test.value("errorsByKind").toObject().value("LOADING").toInteger(), 200);
        QCOMPARE(fake.trafficCommandsReceived(), 200u);
    }

    // Slow replies (300 ms each) stay below every timeout: the run completes and
    // the latency shows the delay.
    void slowRepliesCompleteWithTheirLatency()
    {
        FakeServer::Options options;
        options.behaviour = FakeServer::Behaviour::Slow;
        options.delayMs = 300;
        FakeServer fake(options);
        QString error;
        QVERIFY2(fake.start(&error), qPrintable(error));
        const QString run = path("slow.json");
        const CliResult r = runCli(redisBenchmark(fake.port()) << "-t" << "set" << "-c" << "2" << "-n" << "8" << "--json" << run, 15000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = firstTest(readJson(run));
        QCOMPARE(integer(test, "requests"), 8);
        const QJsonObject latency = test.value("latencyMs").toObject();
        QVERIFY2(latency.value("min").toDouble() >= 290 && latency.value("max").toDouble() < 1000,
                 qPrintable(QJsonDocument(latency).toJson()));
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "test_faults.moc"
