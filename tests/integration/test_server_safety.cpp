// Safety towards the user's server (issue #8, "Secrets and safety"): a
// benchmark run sends nothing destructive (FLUSHALL, FLUSHDB, CONFIG SET …)
// unless asked, and the optional clean-up (--cleanup, both dialects) removes
// the keys the run wrote — by their pattern, with SCAN and UNLINK — and leaves
// every other key alone. Counted on real servers: INFO commandstats and
// DBSIZE before and after.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

QString describe(const CliResult& r) { return tacho::test::describeCliResult(r); }

// Commands that lose data or change the server; none may appear unasked.
const QStringList kDestructive { "flushall", "flushdb", "config|set", "config|resetstat", "config|rewrite",
                                 "swapdb", "shutdown", "debug", "del", "unlink", "script|flush", "function|flush",
                                 "client|kill", "acl|setuser", "acl|deluser", "replicaof", "slaveof", "save",
                                 "bgsave", "bgrewriteaof", "module|load" };

// "removed N keys" → N; -1 without that sentence.
qint64 removedCount(const QByteArray& text)
{
    const auto match = QRegularExpression(R"(cleanup: removed (\d+) keys? matching )").match(QString::fromUtf8(text));
    return match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

// The run file's "cleanup" section.
QJsonObject cleanupSection(const QString& runFile)
{
    QFile file(runFile);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value("cleanup").toObject();
}

} // namespace

class TestServerSafety : public QObject {
    Q_OBJECT

private:
    // Keys the user had before the run; the run must leave all of them.
    static void addUserKeys(const RedisServer& server, const QStringList& keys)
    {
        for (const QString& key : keys)
            QCOMPARE(server.commandString({ "SET", key, "the user's" }), std::optional<QString>("OK"));
    }
    static void checkUserKeys(const RedisServer& server, const QStringList& keys)
    {
        for (const QString& key : keys)
            QVERIFY2(server.commandString({ "GET", key }) == std::optional<QString>("the user's"), qPrintable(key));
    }

private slots:
    // Default runs of both dialects (redis-benchmark's whole built-in suite,
    // memtier's SET:GET mix) against a server: its commandstats show none of
    // the destructive commands, and the user's keys are all still there.
    void defaultRunsSendNothingDestructive()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QStringList userKeys { "user:1", "mylist-of-the-user", "memtier-but-mine" };
        addUserKeys(server, userKeys);
        const QString port = QString::number(server.port());
        const CliResult rb = runCli({ "redis-benchmark", "-p", port, "-n", "200", "-c", "2", "-q" }, 60000);
        QVERIFY2(rb.exitCode == 0, qPrintable(describe(rb)));
        const CliResult mt = runCli({ "memtier", "-p", port, "-t", "1", "-c", "2", "-n", "100", "--hide-histogram" }, 60000);
        QVERIFY2(mt.exitCode == 0, qPrintable(describe(mt)));

        const QMap<QString, quint64> calls = server.commandStatsCalls();
        QVERIFY2(calls.value("lpush") > 0 && calls.value("set") > 0 && calls.value("get") > 0,
                 qPrintable(QStringList(calls.keys()).join(' ')));   // the runs did reach the server
        for (const QString& command : kDestructive)
            QVERIFY2(calls.value(command) == 0, qPrintable(QString("%1 was sent %2 times").arg(command).arg(calls.value(command))));
        // No clean-up unless asked: the runs' keys are still there too.
        QVERIFY2(server.dbSize() > userKeys.size(), qPrintable(QString::number(server.dbSize())));
        QCOMPARE(calls.value("scan"), 0u);
        checkUserKeys(server, userKeys);
    }

    // redis-benchmark --cleanup: the keys of the tests (key:<12 digits> with
    // -r, mylist, …) go, counted; look-alikes stay. A first run without
    // --cleanup writes the same keys (same --seed), so the count is known.
    void redisBenchmarkCleanupRemovesOnlyItsKeys()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QStringList userKeys { "user:1", "key:not-digits", "key:12345", "mylist2", "counter" };
        addUserKeys(server, userKeys);
        const QStringList run { "redis-benchmark", "-p", QString::number(server.port()), "-t", "set,incr,lpush",
                                "-r", "1000", "-n", "600", "-c", "2", "--seed", "7", "-q" };
        const CliResult plain = runCli(run, 60000);
        QVERIFY2(plain.exitCode == 0, qPrintable(describe(plain)));
        const long long written = server.dbSize() - userKeys.size();
        QVERIFY2(written > 100, qPrintable(QString::number(written)));   // key:…, counter:…, mylist

        const CliResult cleaned = runCli(QStringList(run) << "--cleanup", 60000);
        QVERIFY2(cleaned.exitCode == 0, qPrintable(describe(cleaned)));
        QCOMPARE(removedCount(cleaned.out), qint64(written));
        QVERIFY2(cleaned.out.contains("key:<12 digits, 0..999>"), qPrintable(describe(cleaned)));   // issue 15: exact names
        QCOMPARE(server.dbSize(), qint64(userKeys.size()));
        checkUserKeys(server, userKeys);
        const QMap<QString, quint64> calls = server.commandStatsCalls();
        QVERIFY(calls.value("scan") > 0);
        QVERIFY(calls.value("unlink") > 0);
        QCOMPARE(calls.value("flushall") + calls.value("flushdb") + calls.value("del"), 0u);
    }

    // memtier --cleanup with its own --key-prefix: exactly the keys of the
    // range (allkeys, P:P writes each once) go; other prefixes and
    // non-numbered look-alikes stay. The count is on standard output.
    void memtierCleanupRemovesOnlyItsPrefix()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QStringList userKeys { "bench:x", "bench:", "memtier-1", "other:5" };
        addUserKeys(server, userKeys);
        QTemporaryDir dir;
        const QString runFile = dir.filePath("run.json");
        const CliResult r = runCli({ "memtier", "-p", QString::number(server.port()), "-t", "1", "-c", "3", "--ratio=1:0",
                                     "--key-prefix=bench:", "--key-minimum=1", "--key-maximum=300", "-n", "allkeys",
                                     "--key-pattern=P:P", "--hide-histogram", "--cleanup", "--json", runFile },
                                   60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(removedCount(r.out), qint64(300));
        // The run file says the same, with the server as its one node.
        const QJsonObject section = cleanupSection(runFile);
        QCOMPARE(section.value("status").toString(), QString("completed"));
        QCOMPARE(section.value("removed").toInteger(), 300);
        QCOMPARE(section.value("patterns").toArray(), QJsonArray({ "bench:<1..300>" }));
        const QJsonArray nodes = section.value("nodes").toArray();
        QCOMPARE(nodes.size(), 1);
        QCOMPARE(nodes[0].toObject().value("address").toString(), QString("127.0.0.1:%1").arg(server.port()));
        QCOMPARE(nodes[0].toObject().value("removed").toInteger(), 300);
        QVERIFY2(r.out.contains("matching bench:<1..300>"), qPrintable(describe(r)));
        QCOMPARE(server.dbSize(), qint64(userKeys.size()));
        checkUserKeys(server, userKeys);
        QCOMPARE(server.commandStatsCalls().value("set"), quint64(300 + userKeys.size()));
    }

    // A clean-up that cannot start (here: an ACL user without SCAN) says
    // why, in the capability model's words (issue 16), and the exit status is 1.
    void cleanupThatCannotScanSaysSo()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QVERIFY(!server.command({ "ACL", "SETUSER", "writer", "on", ">writer-pw", "~*", "+@all", "-scan" }).isError());
        QTemporaryDir dir;
        const QString runFile = dir.filePath("run.json");
        const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "--user", "writer", "-a",
                                     "writer-pw", "-t", "set", "-n", "50", "-c", "1", "-q", "--cleanup", "--json", runFile },
                                   60000);
        QCOMPARE(r.exitCode, 1);
        const QJsonObject section = cleanupSection(runFile);
        QCOMPARE(section.value("status").toString(), QString("failed"));
        QVERIFY2(section.value("error").toString().startsWith("127.0.0.1:")
                     && section.value("error").toString().contains(": the server refused SCAN: NOPERM"),
                 qPrintable(section.value("error").toString()));
        QCOMPARE(section.value("removed").toInteger(), 0);
        QVERIFY2(r.out.contains("cleanup: nothing removed (127.0.0.1:") && r.out.contains(": the server refused SCAN: NOPERM"),
                 qPrintable(describe(r)));
        QCOMPARE(server.dbSize(), 1LL);
    }
};

QTEST_GUILESS_MAIN(TestServerSafety)
#include "test_server_safety.moc"
