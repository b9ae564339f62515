// tacho-cli redis-benchmark against real redis-server processes: what the
// server counted (INFO commandstats, DBSIZE, LLEN) must match what the run
// reports, in every built-in test and for custom commands. Issue #2.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <QProcess>

#include <csignal>
#include <thread>

#include "support/cli_runner.h"
#include "support/redis_server.h"
#include "support/sanitized_build.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

QStringList target(const RedisServer& server)
{
    return { "redis-benchmark", "-h", server.host(), "-p", QString::number(server.port()) };
}

// For failure messages.
QString describe(const CliResult& r) { return tacho::test::describeCliResult(r); }

RedisServer::Options withPassword(const QString& password)
{
    RedisServer::Options options;
    options.password = password;
    return options;
}

RedisServer::Options withUnixSocket()
{
    RedisServer::Options options;
    options.unixSocket = true;
    return options;
}

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestRedisBenchmarkCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void init()
    {
        m_server.flushAll();
        m_server.resetStats();
    }

    // Every built-in test: the server saw exactly what we report.
    void defaultSuiteCountsMatchCommandStats()
    {
        const int n = 2000;
        CliResult r = runCli(target(m_server) << "-n" << QString::number(n) << "-c" << "10" << "-q", 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString out = QString::fromUtf8(r.out);
        const QStringList names = { "PING_INLINE", "PING_MBULK", "SET", "GET", "INCR", "LPUSH", "RPUSH", "LPOP", "RPOP",
                                    "SADD", "HSET", "SPOP", "ZADD", "ZPOPMIN", "LPUSH (needed to benchmark LRANGE)",
                                    "LRANGE_100 (first 100 elements)", "LRANGE_300 (first 300 elements)",
                                    "LRANGE_500 (first 500 elements)", "LRANGE_600 (first 600 elements)",
                                    "MSET (10 keys)", "XADD" };
        for (const QString& name : names) {
            const QRegularExpression line("^" + QRegularExpression::escape(name)
                                          + R"(: \d+\.\d\d requests per second, p50=\d+\.\d{3} msec$)",
                                          QRegularExpression::MultilineOption);
            QVERIFY2(line.match(out).hasMatch(), qPrintable(name + " missing in\n" + out));
        }
        QVERIFY2(!r.out.contains('\r'), "progress lines written into a pipe");

        const auto calls = m_server.commandStatsCalls();
        const QMap<QString, quint64> expected = {
            { "ping", 2 * n }, { "set", n }, { "get", n }, { "incr", n }, { "lpush", 2 * n }, { "rpush", n },
            { "lpop", n }, { "rpop", n }, { "sadd", n }, { "hset", n }, { "spop", n }, { "zadd", n },
            { "zpopmin", n }, { "lrange", 4 * n }, { "mset", n }, { "xadd", n },
        };
        for (auto it = expected.begin(); it != expected.end(); ++it)
            QVERIFY2(calls.value(it.key()) == it.value(),
                     qPrintable(QString("%1: server %2, expected %3").arg(it.key()).arg(calls.value(it.key())).arg(it.value())));
        QVERIFY2(out.contains("server cross-check: INFO commandstats agrees with the requests sent in all 21 tests"),
                 qPrintable(out));
        // Data effects: the XADD test appended n entries; LPUSH pushed 2n, LPOP/RPOP took 2n.
        QCOMPARE(m_server.commandInteger({ "XLEN", "mystream" }), n);
    }

    void randomKeysStayInKeyspace()
    {
        CliResult r = runCli(target(m_server) << "-t" << "set" << "-n" << "5000" << "-r" << "1000" << "-q");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const long long keys = m_server.dbSize();
        QVERIFY2(keys <= 1000 && keys >= 900, qPrintable(QString::number(keys)));
        const auto key = m_server.commandString({ "RANDOMKEY" });
        QVERIFY(key.has_value());
        QVERIFY2(QRegularExpression(R"(^key:\d{12}$)").match(*key).hasMatch(), qPrintable(*key));
        QCOMPARE(m_server.commandStatsCalls().value("set"), 5000u);
    }

    // Issue #2's memory target: under 10 MiB at 50 connections, as the kernel
    // counts it (peak resident set, from wait4 in support/peak_memory). Qt's
    // libraries alone take about 10 MB: tacho-cli loads them only for report
    // --pdf/--png.
    void memoryAtFiftyConnectionsStaysUnderTenMiB()
    {
        if (tacho::test::kSanitizedBuild)
            QSKIP("sanitizer builds carry shadow memory; the memory target is checked in normal builds");
        QProcess p;
        p.start(TACHO_PEAK_MEMORY_PATH, QStringList { tacho::test::cliPath() } << target(m_server)
                                            << "-t" << "set,get" << "-c" << "50" << "-P" << "16" << "-n" << "200000"
                                            << "-d" << "32" << "-r" << "100000" << "-q");
        QVERIFY(p.waitForFinished(120000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
        QCOMPARE(m_server.commandStatsCalls().value("set"), 200000u);
        QCOMPARE(m_server.commandStatsCalls().value("get"), 200000u);
        const QRegularExpressionMatch peak = QRegularExpression("peak_rss_kib (\\d+)").match(QString::fromUtf8(err));
        QVERIFY2(peak.hasMatch(), err.constData());
        QVERIFY2(peak.captured(1).toLongLong() < 10 * 1024,
                 qPrintable(QStringLiteral("peak resident set %1 KiB at 50 connections").arg(peak.captured(1))));
    }

    void withoutKeyspaceTheKeyIsLiteral()
    {
        CliResult r = runCli(target(m_server) << "-t" << "set,get" << "-n" << "1000" << "-q");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server.dbSize(), 1);
        QCOMPARE(m_server.commandString({ "GET", "key:__rand_int__" }), std::optional<QString>("xxx"));
    }

    void msetWritesTenKeysPerCall()
    {
        CliResult r = runCli(target(m_server) << "-t" << "mset" << "-n" << "50" << "-c" << "1" << "-r" << "100000000" << "-d" << "5" << "-q");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const long long keys = m_server.dbSize();
        QVERIFY2(keys > 490 && keys <= 500, qPrintable(QString::number(keys)));
        QCOMPARE(m_server.commandStatsCalls().value("mset"), 50u);
    }

    void lpushGrowsTheList()
    {
        CliResult r = runCli(target(m_server) << "-t" << "lpush" << "-n" << "3000" << "-q");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server.commandInteger({ "LLEN", "mylist" }), 3000);
    }

    void customCommandWithPlaceholder()
    {
        CliResult r = runCli(target(m_server) << "-n" << "1000" << "-r" << "50" << "-q" << "sadd" << "myset2" << "__rand_int__");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.startsWith("sadd myset2 __rand_int__: "), r.out.constData());
        QCOMPARE(m_server.commandStatsCalls().value("sadd"), 1000u);
        const long long members = m_server.commandInteger({ "SCARD", "myset2" });
        QVERIFY2(members <= 50 && members >= 40, qPrintable(QString::number(members)));
    }

    void pipelineThreadsAndReconnectCountExactly_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("pipeline 16") << QStringList { "-P", "16", "-n", "10007", "-c", "7" };
        QTest::newRow("threads 2") << QStringList { "--threads", "2", "-n", "10001", "-c", "9" };
        QTest::newRow("pipeline 3, threads 2") << QStringList { "-P", "3", "--threads", "2", "-n", "9999", "-c", "5" };
        QTest::newRow("reconnect per request") << QStringList { "-k", "0", "-n", "500", "-c", "5" };
    }

    void pipelineThreadsAndReconnectCountExactly()
    {
        QFETCH(QStringList, options);
        const quint64 n = options.at(options.indexOf("-n") + 1).toULongLong();
        const auto connectionsBefore = m_server.info("stats").value("total_connections_received").toULongLong();
        CliResult r = runCli(target(m_server) << options << "-t" << "incr" << "-q");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server.commandStatsCalls().value("incr"), n);
        QCOMPARE(m_server.commandString({ "GET", "counter:__rand_int__" }), std::optional<QString>(QString::number(n)));
        if (options.contains("-k")) {
            const auto connections = m_server.info("stats").value("total_connections_received").toULongLong() - connectionsBefore;
            QVERIFY2(connections >= n, qPrintable(QString("%1 connections for %2 requests").arg(connections).arg(n)));
        }
    }

    void csvOutputMatchesRedisBenchmark()
    {
        CliResult r = runCli(target(m_server) << "-t" << "set,get" << "-n" << "2000" << "--csv");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0], QString(R"re("test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms")re"));
        const QRegularExpression row(R"re(^"(SET|GET)","\d+\.\d\d"(,"\d+\.\d{3}"){6}$)re");
        QVERIFY2(row.match(lines[1]).hasMatch(), qPrintable(lines[1]));
        QVERIFY2(row.match(lines[2]).hasMatch(), qPrintable(lines[2]));
        QVERIFY(lines[1].startsWith("\"SET\"") && lines[2].startsWith("\"GET\""));
    }

    void defaultReportHasEverySection()
    {
        CliResult r = runCli(target(m_server) << "-t" << "get" << "-n" << "3000" << "-c" << "20");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString out = QString::fromUtf8(r.out);
        for (const char* part : { "====== GET ======", "  3000 requests completed in ", "  20 parallel clients",
                                  "  3 bytes payload", "  keep alive: 1", "Latency by percentile distribution:",
                                  "Cumulative distribution of latencies:", "Summary:", "  throughput summary: ",
                                  "  latency summary (msec):", "server cross-check: INFO commandstats agrees" })
            QVERIFY2(out.contains(part), qPrintable(QString("missing '%1' in\n%2").arg(part, out)));
        QVERIFY2(out.contains(QRegularExpression(R"(100\.000% <= \d+\.\d{3} milliseconds \(cumulative count 3000\))")), qPrintable(out));
    }

    void runFileHoldsTheRunWithoutSecrets()
    {
        RedisServer server(withPassword("s3cret-Pa55"));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        const QString path = dir.filePath("run.json");
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-a", "s3cret-Pa55",
                               "-t", "set,get", "-n", "1500", "-q", "--json", path });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY2(!bytes.contains("s3cret-Pa55"), "the password leaked into the run file");
        const QJsonObject run = QJsonDocument::fromJson(bytes).object();
        QCOMPARE(run.value("format").toString(), QString("tacho-run/1"));
        QCOMPARE(run.value("status").toString(), QString("completed"));
        const QJsonArray tests = run.value("tests").toArray();
        QCOMPARE(tests.size(), 2);
        QCOMPARE(tests[0].toObject().value("name").toString(), QString("SET"));
        QCOMPARE(tests[0].toObject().value("requests").toInteger(), 1500);
        QVERIFY(tests[1].toObject().value("histogram").toString().startsWith("HISTFAAA"));
        QCOMPARE(tests[1].toObject().value("crossCheck").toObject().value("agrees").toBool(), true);
        const QString transport = run.value("environment").toObject().value("ioTransport").toString();
        if (qEnvironmentVariable("TACHO_IO") == "epoll")
            QCOMPARE(transport, QString("epoll"));
        else
            QVERIFY2(transport == "io_uring" || transport == "epoll", qPrintable(transport));
    }

    // TACHO_IO picks the transport; both count exactly, and a typo is named.
    void transportIsChosenByEnvironment_data()
    {
        QTest::addColumn<QString>("io");
        QTest::addColumn<QString>("pipeline");
        QTest::newRow("epoll") << "epoll" << "1";
        QTest::newRow("io_uring") << "io_uring" << "1";
        QTest::newRow("io_uring pipelined, reconnecting") << "io_uring" << "7";
    }
    void transportIsChosenByEnvironment()
    {
        QFETCH(QString, io);
        QFETCH(QString, pipeline);
        QTemporaryDir dir;
        const QString path = dir.filePath("io.json");
        QStringList args = target(m_server) << "-t" << "set,get" << "-n" << "3001" << "-c" << "7" << "-P" << pipeline
                                            << "-q" << "--json" << path;
        if (pipeline != "1")
            args << "-k" << "0";   // a new connection per batch: streams opened and closed
        CliResult r = runCli(args, 60000, {}, { "TACHO_IO=" + io });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server.commandStatsCalls().value("set"), quint64(3001));
        QCOMPARE(m_server.commandStatsCalls().value("get"), quint64(3001));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject run = QJsonDocument::fromJson(file.readAll()).object();
        const QString transport = run.value("environment").toObject().value("ioTransport").toString();
        if (io == "epoll")
            QCOMPARE(transport, QString("epoll"));
        else   // io_uring where the kernel allows it, else the epoll fallback
            QVERIFY2(transport == "io_uring" || transport == "epoll", qPrintable(transport));

        CliResult bad = runCli(target(m_server) << "-n" << "10" << "-q", 20000, {}, { "TACHO_IO=epol" });
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("TACHO_IO") && bad.err.contains("\"epol\""), qPrintable(describe(bad)));
    }

    void authenticationFailuresAreSpecific()
    {
        RedisServer server(withPassword("right-pw"));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QStringList base = { "redis-benchmark", "-p", QString::number(server.port()), "-t", "ping", "-n", "100", "-q" };

        CliResult none = runCli(base, 20000);
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("NOAUTH"), qPrintable(describe(none)));

        CliResult wrong = runCli(QStringList(base) << "-a" << "wrong-pw", 20000);
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.err.contains("authentication failed") && wrong.err.contains("WRONGPASS"), qPrintable(describe(wrong)));

        server.command({ "ACL", "SETUSER", "bench", "on", ">bench-pw", "~*", "+@all" });
        CliResult acl = runCli(QStringList(base) << "--user" << "bench" << "-a" << "bench-pw", 20000);
        QVERIFY2(acl.exitCode == 0, qPrintable(describe(acl)));
        CliResult uri = runCli({ "redis-benchmark", "-u", QString("redis://bench:bench-pw@127.0.0.1:%1").arg(server.port()),
                                 "-t", "ping", "-n", "100", "-q" }, 20000);
        QVERIFY2(uri.exitCode == 0, qPrintable(describe(uri)));
    }

    void unixSocketDatabaseAndResp3()
    {
        RedisServer server(withUnixSocket());
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        CliResult r = runCli({ "redis-benchmark", "-s", server.unixSocketPath(), "--dbnum", "3", "-3",
                               "-t", "set", "-n", "1000", "-q" });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(server.commandStatsCalls().value("set"), 1000u);
        QVERIFY2(server.commandStatsCalls().value("hello") >= 50, "no HELLO 3 sent");
        QVERIFY2(server.info("keyspace").value("db3").startsWith("keys=1,"), qPrintable(server.info("keyspace").value("db3")));
    }

    void errorRepliesAreCountedByKind()
    {
        m_server.command({ "LPUSH", "alist", "x" });
        QTemporaryDir dir;
        const QString path = dir.filePath("errors.json");
        CliResult r = runCli(target(m_server) << "-n" << "300" << "--json" << path << "incr" << "alist");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("WRONGTYPE"), qPrintable(describe(r)));
        const QJsonObject test = readJson(path).value("tests").toArray().at(0).toObject();
        QCOMPARE(test.value("errors").toInteger(), 300);
        QCOMPARE(test.value("errorsByKind").toObject().value("WRONGTYPE").toInteger(), 300);
        QCOMPARE(m_server.commandStatsCalls().value("incr"), 300u);
    }

    void durationAndWarmupAreHonoured()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("timed.json");
        CliResult r = runCli(target(m_server) << "-t" << "get" << "-c" << "4" << "--duration" << "1" << "--warmup" << "0.5"
                                              << "-q" << "--json" << path, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = readJson(path).value("tests").toArray().at(0).toObject();
        // Measured for its duration, not less. How soon after the second the workers stop
        // is speed (under two busy loops a few hundred requests still went out); that they
        // stop at all is runCli's hang guard.
        const double seconds = test.value("seconds").toDouble();
        QVERIFY2(seconds >= 0.95, qPrintable(QString::number(seconds)));
        QVERIFY(test.value("warmupRequests").toInteger() > 0);
        const qint64 requests = test.value("requests").toInteger();
        QVERIFY(requests > 0);
        QCOMPARE(qint64(m_server.commandStatsCalls().value("get")), requests + test.value("warmupRequests").toInteger());
    }

    // Mean latency plus the in-client gap is what Little's law implies:
    // connections × pipeline ÷ throughput.
    void latencyAgreesWithLittlesLaw()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("little.json");
        CliResult r = runCli(target(m_server) << "-t" << "set" << "-c" << "8" << "-P" << "4" << "-n" << "200000"
                                              << "-q" << "--json" << path, 60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject test = readJson(path).value("tests").toArray().at(0).toObject();
        const double rps = test.value("requestsPerSecond").toDouble();
        const double cycleMs = test.value("latencyMs").toObject().value("avg").toDouble()
            + test.value("clientGapMs").toObject().value("avg").toDouble();
        const double littleMs = 8 * 4 / rps * 1000;
        QVERIFY2(std::abs(cycleMs - littleMs) / littleMs < 0.25,
                 qPrintable(QString("latency+gap %1 ms, Little %2 ms").arg(cycleMs).arg(littleMs)));
    }

    void badInputExitsWithSpecificMessages()
    {
        CliResult unknown = runCli({ "redis-benchmark", "--bogus" });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("--bogus"), qPrintable(describe(unknown)));

        CliResult malformed = runCli({ "redis-benchmark", "-c", "many" });
        QCOMPARE(malformed.exitCode, 2);
        QVERIFY2(malformed.err.contains("-c"), qPrintable(describe(malformed)));

        CliResult missing = runCli({ "redis-benchmark", "-n" });
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("-n"), qPrintable(describe(missing)));

        const quint16 closed = tacho::test::pickFreeLoopbackPort();
        CliResult refused = runCli({ "redis-benchmark", "-p", QString::number(closed), "-n", "10" }, 20000);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("Connection refused"), qPrintable(describe(refused)));

        CliResult noHost = runCli({ "redis-benchmark", "-h", "no-such-host.invalid", "-n", "10" }, 20000);
        QCOMPARE(noHost.exitCode, 1);
        QVERIFY2(noHost.err.contains("cannot resolve host 'no-such-host.invalid'"), qPrintable(describe(noHost)));

        CliResult tls = runCli({ "redis-benchmark", "-p", QString::number(m_server.port()), "--tls", "-n", "10" }, 20000);
        QCOMPARE(tls.exitCode, 1);
        QVERIFY2(tls.err.contains("did not answer with TLS"), qPrintable(describe(tls)));
    }

    // The server dies mid-run: the run fails with a specific message and the
    // run file with the partial data is still written.
    void serverDeathMidRunIsReportedAndSaved()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QTemporaryDir dir;
        const QString path = dir.filePath("dead.json");
        const qint64 pid = server.pid();
        std::thread killer([pid] {
            std::this_thread::sleep_for(std::chrono::milliseconds(800));
            ::kill(static_cast<pid_t>(pid), SIGKILL);
        });
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-t", "set", "--duration", "10",
                               "-q", "--json", path }, 30000);
        killer.join();
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("lost"), qPrintable(describe(r)));
        const QJsonObject run = readJson(path);
        QCOMPARE(run.value("status").toString(), QString("failed"));
        QVERIFY(run.value("tests").toArray().at(0).toObject().value("requests").toInteger() > 0);
    }

private:
    RedisServer m_server;
};

QTEST_GUILESS_MAIN(TestRedisBenchmarkCli)
#include "test_redis_benchmark_cli.moc"
