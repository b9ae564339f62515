// issue 17: tacho-cli memtier --monitor-input and --data-import against a
// real redis-server. A capture taken by a real MONITOR session (redis-cli
// MONITOR while commands with awkward bytes are sent) is replayed: the
// server's INFO commandstats per command is what was replayed (once per
// line from one connection, six times from six connections dealt in turn),
// the keys hold the captured bytes; random replay is reproducible; an
// import file's items land with their values and TTLs (SETEX), counted by
// the server; bad placeholders and files are refused before any request.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

using Command = QList<QByteArray>;

const QByteArray kImportHeader = "dumpflags, time, exptime, nbytes, nsuffix, it_flags, clsid, nkey, key, data\n";

// The commands captured: binary-safe keys and values, several types, a
// subcommand, a counter whose final value counts the replays.
QList<Command> capturedCommands()
{
    return {
        { "SET", "plain", "value" },
        { "SET", "with space", "a \"quoted\" \\ back\\slash" },
        { "SET", "bin\x01", QByteArray("\x00\xff\r\n\t\x1b[2J", 9) },
        { "SET", "utf8-\xc3\xa9", "" },
        { "HSET", "hash", "field", "v" },
        { "RPUSH", "list", "item" },
        { "SADD", "set", "member" },
        { "INCR", "counter" },
        { "INCR", "counter" },
        { "OBJECT", "ENCODING", "plain" },   // a subcommand Tacho itself never sends
        { "GET", "plain" },
    };
}

QString statName(const Command& command)
{
    QString name = QString::fromUtf8(command.front()).toLower();
    if (name == "object")
        name += "|" + QString::fromUtf8(command[1]).toLower();
    return name;
}

} // namespace

class TestMemtierReplayCli : public QObject {
    Q_OBJECT

private:
    RedisServer m_server;
    QTemporaryDir m_dir;
    QString m_capture;

    QStringList target() const
    {
        return { "memtier", "-s", m_server.host(), "-p", QString::number(m_server.port()), "--hide-histogram" };
    }

    QString writeFile(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (file.open(QIODevice::WriteOnly))
            file.write(bytes);
        return path;
    }

    // Sends `commands` while redis-cli MONITOR listens; its output is the capture.
    bool capture(const QList<Command>& commands, const QString& path, QString* error)
    {
        QProcess monitor;
        monitor.start("redis-cli", { "-h", m_server.host(), "-p", QString::number(m_server.port()), "MONITOR" });
        if (!monitor.waitForStarted(5000)) {
            *error = "redis-cli did not start";
            return false;
        }
        QByteArray out;
        for (int i = 0; i < 100 && !out.startsWith("OK\n"); ++i) {   // at most 10 s
            monitor.waitForReadyRead(100);
            out += monitor.readAllStandardOutput();
        }
        for (const Command& command : commands)
            m_server.commandBytes(command);
        for (int i = 0; i < 100 && out.count('\n') < commands.size() + 1; ++i) {
            monitor.waitForReadyRead(100);
            out += monitor.readAllStandardOutput();
        }
        monitor.kill();   // the process this test started
        monitor.waitForFinished(5000);
        if (out.count('\n') != commands.size() + 1) {
            *error = "the MONITOR capture is incomplete:\n" + QString::fromUtf8(out);
            return false;
        }
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(out) != out.size()) {
            *error = "cannot write " + path;
            return false;
        }
        return true;
    }

    void checkReplayed(int times)
    {
        const QMap<QString, quint64> calls = m_server.commandStatsCalls();
        std::map<QString, quint64> expected;
        for (const Command& command : capturedCommands())
            expected[statName(command)] += quint64(times);
        for (const auto& [name, count] : expected)
            QVERIFY2(calls.value(name) == count,
                     qPrintable(QString("%1: server %2, replayed %3").arg(name).arg(calls.value(name)).arg(count)));
        for (const Command& command : capturedCommands())
            if (command.front() == "SET")
                QCOMPARE(m_server.commandBytes({ "GET", command[1] }).text, command[2]);
        QCOMPARE(m_server.commandString({ "GET", "counter" }), std::optional<QString>(QString::number(2 * times)));
        QCOMPARE(m_server.commandInteger({ "LLEN", "list" }), 1LL * times);
        QCOMPARE(m_server.dbSize(), 8LL);
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
        m_capture = m_dir.filePath("monitor.txt");
        QVERIFY2(capture(capturedCommands(), m_capture, &error), qPrintable(error));
    }

    void init()
    {
        m_server.flushAll();
        m_server.resetStats();
    }

    // One connection, one request per line: every captured command once.
    void replayInTurnSendsEachCapturedCommand()
    {
        const int lines = int(capturedCommands().size());
        CliResult r = runCli(target() << "-t" << "1" << "-c" << "1" << "-n" << QString::number(lines)
                                      << "--monitor-input" << m_capture << "--command=__monitor_line@__");
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QVERIFY2(r.err.contains(QString("Loaded %1 monitor commands from %2 total lines").arg(lines).arg(lines + 1).toUtf8()),
                 r.err.constData());
        QVERIFY2(r.out.contains("server cross-check: INFO commandstats agrees"), r.out.constData());
        checkReplayed(1);
    }

    // Six connections, as many requests each as lines: memtier's shared
    // sequence dealt out sends every line six times.
    void replayInTurnOverConnectionsSendsTheWholeSequence()
    {
        const int lines = int(capturedCommands().size());
        CliResult r = runCli(target() << "-t" << "2" << "-c" << "3" << "-n" << QString::number(lines)
                                      << "--monitor-input=" + m_capture << "--command=__monitor_line@__"
                                      << "--monitor-pattern=S");
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QVERIFY2(r.out.contains("server cross-check: INFO commandstats agrees"), r.out.constData());
        checkReplayed(6);
    }

    // memtier's "mixed" use: a fixed line at a ratio beside random lines;
    // the same seed gives the same server state (memtier without --randomize).
    void randomReplayIsReproducible()
    {
        QList<Command> counters;
        for (int i = 1; i <= 5; ++i)
            counters.append({ "INCR", QByteArray("c") + QByteArray::number(i) });
        const QString path = m_dir.filePath("counters.txt");
        QString error;
        QVERIFY2(capture(counters, path, &error), qPrintable(error));
        QList<long long> runs[2];
        for (auto& values : runs) {
            m_server.flushAll();
            CliResult r = runCli(target() << "-t" << "1" << "-c" << "1" << "-n" << "100" << "--monitor-input=" + path
                                          << "--command=__monitor_line5__" << "--command-ratio=3"
                                          << "--command=__monitor_line@__" << "--command-ratio=7"
                                          << "--monitor-pattern=R");
            QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
            long long total = 0;
            int distinct = 0;
            for (int i = 1; i <= 5; ++i) {
                const auto value = m_server.commandString({ "GET", QString("c%1").arg(i) });
                values.append(value ? value->toLongLong() : 0);
                total += values.back();
                distinct += values.back() > 0;
            }
            QCOMPARE(total, 100LL);
            QVERIFY(values[4] >= 30);   // the fixed line: 30 of every 100, plus its random share
            QVERIFY(distinct >= 4);
        }
        QCOMPARE(runs[0], runs[1]);
    }

    // memtier's suite: each malformed placeholder fails, saying "error".
    void malformedPlaceholdersAreRefused_data()
    {
        QTest::addColumn<QString>("placeholder");
        for (const char* bad : { "__monitor_line1", "__monitor_line1_", "__monitor_line1__garbage",
                                 "__monitor_line1abc__", "__monitor_line__", "__monitor_line0__", "__monitor_line12__" })
            QTest::newRow(bad) << QString(bad);
    }
    void malformedPlaceholdersAreRefused()
    {
        QFETCH(QString, placeholder);
        CliResult r = runCli(target() << "-n" << "10" << "--monitor-input=" + m_capture << "--command=" + placeholder);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.toLower().contains("error") && r.err.contains("invalid monitor placeholder"), r.err.constData());
        QCOMPARE(m_server.commandStatsCalls().value("set"), 0u);   // nothing sent
    }

    // memtier's own import files, as its suite runs them (10 x 5
    // connections, 1000 requests each, 1:1): two keys, every request counted
    // by the server; with expiry the SETs are SETEX and the keys have TTLs.
    void importWritesTheItems_data()
    {
        QTest::addColumn<int>("exptime");
        QTest::newRow("no expiry") << 0;
        QTest::newRow("expiry") << 10;
    }
    void importWritesTheItems()
    {
        QFETCH(int, exptime);
        const QByteArray e = QByteArray::number(exptime);
        const QString path = writeFile("import.txt", kImportHeader + "0, 0, " + e + ", 12, 0, 0, 0, 4, key1, xxxxxxxxxx\n"
                                                     "0, 0, " + e + ", 14, 0, 0, 0, 4, key2, aaaaaaaaaaaa\n");
        CliResult r = runCli(target() << "-t" << "10" << "-c" << "5" << "-n" << "1000" << "--ratio=1:1"
                                      << "--data-import=" + path, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QCOMPARE(m_server.dbSize(), 2LL);
        const QMap<QString, quint64> calls = m_server.commandStatsCalls();
        QCOMPARE(calls.value(exptime ? "setex" : "set"), 25000u);
        QCOMPARE(calls.value(exptime ? "set" : "setex"), 0u);
        QCOMPARE(calls.value("get"), 25000u);
        QCOMPARE(m_server.commandString({ "GET", "key1" }), std::optional<QString>("xxxxxxxxxx"));
        QCOMPARE(m_server.commandString({ "GET", "key2" }), std::optional<QString>("aaaaaaaaaaaa"));
        for (const char* key : { "key1", "key2" }) {
            const long long ttl = m_server.commandInteger({ "TTL", key });
            if (exptime)
                QVERIFY2(ttl > 0 && ttl <= exptime, qPrintable(QString::number(ttl)));
            else
                QCOMPARE(ttl, -1LL);
        }
        QVERIFY2(r.out.contains("server cross-check: INFO commandstats agrees"), r.out.constData());
    }

    // Quoted binary data, per-item expiry, --no-expiry and --generate-keys.
    void importedBytesAndExpiryOptions()
    {
        const QByteArray value("a\"\r\nb,c\x00\xfe", 9);
        QByteArray quoted = value;
        quoted.replace("\"", "\"\"");
        const QString path = writeFile("binary.txt", kImportHeader + "0, 0, 100, 11, 0, 0, 0, 5, \"k\"\"e,y\", \"" + quoted
                                                         + "\"\n0, 0, 0, 3, 0, 0, 0, 1, z, q\n");
        CliResult r = runCli(target() << "-t" << "1" << "-c" << "1" << "-n" << "4" << "--ratio=1:1" << "--data-import=" + path);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QCOMPARE(m_server.commandBytes({ "GET", "k\"e,y" }).text, value);
        const long long ttl = m_server.commandInteger({ "TTL", "k\"e,y" });
        QVERIFY2(ttl > 0 && ttl <= 100, qPrintable(QString::number(ttl)));
        QCOMPARE(m_server.commandInteger({ "TTL", "z" }), -1LL);

        m_server.flushAll();
        r = runCli(target() << "-t" << "1" << "-c" << "1" << "-n" << "2" << "--ratio=1:0" << "--data-import=" + path
                            << "--no-expiry");
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QCOMPARE(m_server.commandInteger({ "TTL", "k\"e,y" }), -1LL);

        m_server.flushAll();
        r = runCli(target() << "-t" << "1" << "-c" << "1" << "-n" << "2" << "--ratio=1:0" << "--data-import=" + path
                            << "--generate-keys" << "--key-minimum=1" << "--key-maximum=2" << "--key-pattern=S:S");
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QCOMPARE(m_server.dbSize(), 2LL);
        QCOMPARE(m_server.commandBytes({ "GET", "memtier-1" }).text, value);
        QCOMPARE(m_server.commandString({ "GET", "memtier-2" }), std::optional<QString>("q"));
    }

    // A bad file is refused before any request, naming the line and fault.
    void badImportFileIsRefused()
    {
        const QString path = writeFile("bad.txt", kImportHeader + "0, 0, 0, 3, 0, 0, 0, 1, k, v\n0, 0, 0, 9, 0, 0, 0, 1, k, v\n");
        CliResult r = runCli(target() << "-n" << "10" << "--data-import=" + path);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("line 3: the data column holds 1 bytes, nbytes - 2 says 7"), r.err.constData());
        QCOMPARE(m_server.dbSize(), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestMemtierReplayCli)
#include "test_memtier_replay_cli.moc"
