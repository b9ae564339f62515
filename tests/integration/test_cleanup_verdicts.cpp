// issue 15, "Data loss" and "Wrong numbers and wrong verdicts", against real
// redis-server processes:
//  - --cleanup (both dialects) removes exactly the names the run can have
//    written: a generated family of near-miss names (every prefix of a
//    written name plus one byte, leading zeros, out-of-range numbers,
//    suffixes, other prefixes, odd bytes) all survive, counted with EXISTS
//    and DBSIZE, while every written key is gone;
//  - compare --fail-if fails on a failed run and says it failed;
//  - merge refuses the same run twice;
//  - -t '' is a usage error, not the whole suite;
//  - the cross-check subtracts exactly what Tacho itself sent (INFO probe,
//    HELLO/AUTH/SELECT per connection) and says "unavailable", not
//    "disagree", when the counts cannot be read;
//  - a -d N run file does not hold the N-byte value.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

#include "support/cli_runner.h"
#include "support/fake_server.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

QString describe(const CliResult& r) { return tacho::test::describeCliResult(r); }

// Near misses of `written`: each prefix of a written name plus one odd byte
// (and that byte inserted or replacing one), leading zeros, other prefixes,
// suffixes; `isRunKey` says which names the run may write, and those are
// left out, so that every name returned is one the clean-up must keep.
std::vector<QByteArray> nearMisses(const std::vector<QByteArray>& written, const QByteArray& left,
                                   const std::function<bool(const QByteArray&)>& isRunKey)
{
    const QByteArray odd("05a- *?[\\\0\x01\xff\r\n", 15);
    std::set<QByteArray> out { "1e5", "2024-report", "007", "0", "00", "-1", "+1", " 1", "memtier-1-report", "memtier-05",
                               "memtier-99999999", "key:", "mylist2", "mylis", "Key:000000000001" };
    for (const QByteArray& name : written) {
        for (qsizetype i = 0; i <= name.size(); ++i)
            for (char c : odd) {
                out.insert(name.left(i) + c);
                out.insert(name.left(i) + c + name.mid(i));
                if (i < name.size())
                    out.insert(name.left(i) + c + name.mid(i + 1));
            }
        const QByteArray tail = name.mid(left.size());
        out.insert(left + "0" + tail);
        out.insert(left + "00" + tail);
        out.insert(name + "-report");
        out.insert(name + "0");   // out of range for the small ranges used here
        out.insert("x" + name);
        out.insert(name.left(name.size() - 1));
    }
    std::vector<QByteArray> kept;
    for (const QByteArray& name : out)
        if (!name.isEmpty() && !isRunKey(name))
            kept.push_back(name);
    return kept;
}

// Writes every name with one MSET; returns how many of them EXISTS finds.
void setAll(const RedisServer& server, const std::vector<QByteArray>& names)
{
    QList<QByteArray> args { "MSET" };
    for (const QByteArray& name : names)
        args << name << "the user's";
    QCOMPARE(server.commandBytes(args).type, tacho::test::RedisReply::Type::Status);
}
long long existing(const RedisServer& server, const std::vector<QByteArray>& names)
{
    QList<QByteArray> args { "EXISTS" };
    for (const QByteArray& name : names)
        args << name;
    return server.commandBytes(args).integer;
}

bool decimalIn(const QByteArray& digits, quint64 minimum, quint64 maximum)
{
    if (digits.isEmpty() || digits.size() > 19 || (digits.size() > 1 && digits[0] == '0'))
        return false;
    for (char c : digits)
        if (c < '0' || c > '9')
            return false;
    const quint64 n = digits.toULongLong();
    return n >= minimum && n <= maximum;
}

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
}

} // namespace

class TestCleanupVerdicts : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // memtier form, with its default prefix and with an empty one.
    void memtierCleanupKeepsNearMisses_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::newRow("default prefix") << QByteArray("memtier-");
        QTest::newRow("empty prefix") << QByteArray();
    }
    void memtierCleanupKeepsNearMisses()
    {
        QFETCH(QByteArray, prefix);
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const auto isRunKey = [&](const QByteArray& name) {
            return name.startsWith(prefix) && decimalIn(name.mid(prefix.size()), 1, 300);
        };
        std::vector<QByteArray> written;
        for (int n = 1; n <= 300; ++n)
            written.push_back(prefix + QByteArray::number(n));
        const std::vector<QByteArray> sample { written[0], written[6], written[9], written[98], written[99], written[299] };
        const std::vector<QByteArray> misses = nearMisses(sample, prefix, isRunKey);
        QVERIFY2(misses.size() > 200, qPrintable(QString::number(misses.size())));
        setAll(server, misses);

        const CliResult r = runCli({ "memtier", "-p", QString::number(server.port()), "-t", "1", "-c", "3",
                                     "--ratio=1:0", "--key-prefix=" + QString::fromLatin1(prefix), "--key-minimum=1",
                                     "--key-maximum=300", "-n", "allkeys", "--key-pattern=P:P", "--hide-histogram",
                                     "--cleanup" },
                                   60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("cleanup: removed 300 keys matching " + prefix + "<1..300>"), qPrintable(describe(r)));
        QCOMPARE(existing(server, misses), qint64(misses.size()));
        QCOMPARE(existing(server, written), 0);
        QCOMPARE(server.dbSize(), qint64(misses.size()));
    }

    // redis-benchmark form: key:<12 digits> below -r, counter:…, mylist.
    void redisBenchmarkCleanupKeepsNearMisses()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const auto isRunKey = [](const QByteArray& name) {
            if (name == "mylist")
                return true;
            for (const QByteArray& left : { QByteArray("key:"), QByteArray("counter:") })
                if (name.startsWith(left) && name.size() == left.size() + 12) {
                    const QByteArray digits = name.mid(left.size());
                    bool ok = std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
                    return ok && digits.toULongLong() < 1000;
                }
            return false;
        };
        const std::vector<QByteArray> sample { "key:000000000000", "key:000000000999", "counter:000000000500",
                                               "mylist" };
        std::vector<QByteArray> misses = nearMisses(sample, "key:", isRunKey);
        for (const QByteArray& extra : { QByteArray("key:000000001000"), QByteArray("key:00000000001"),
                                         QByteArray("key:0000000000001"), QByteArray("key:__rand_int__") })
            misses.push_back(extra);
        QVERIFY(misses.size() > 500);
        setAll(server, misses);

        const QStringList run { "redis-benchmark", "-p", QString::number(server.port()), "-t", "set,incr,lpush", "-r",
                                "1000", "-n", "3000", "-c", "2", "-q", "--cleanup" };
        const CliResult r = runCli(run, 60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(existing(server, misses), qint64(misses.size()));
        QCOMPARE(server.dbSize(), qint64(misses.size()));   // every key the run wrote is gone
        QVERIFY2(r.out.contains("key:<12 digits, 0..999>"), qPrintable(describe(r)));
    }

    // Failed runs against a good one: the gate fails and the comparison says
    // the run failed — one that failed before its tests (NOAUTH), and one
    // whose tests failed with no replies (the server at maxclients refuses
    // every benchmark connection), whose latencies would read 0.000 ms.
    void compareGateFailsOnFailedRun()
    {
        RedisServer open;
        RedisServer locked({ {}, false, "secret" });
        RedisServer full({ { "--maxclients", "1" } });
        QString error;
        QVERIFY2(open.start(&error), qPrintable(error));
        QVERIFY2(locked.start(&error), qPrintable(error));
        QVERIFY2(full.start(&error), qPrintable(error));
        const QString good = m_dir.filePath("good.json"), noAuth = m_dir.filePath("noauth.json"),
                      refused = m_dir.filePath("refused.json");
        CliResult r = runCli({ "redis-benchmark", "-p", QString::number(open.port()), "-t", "set", "-n", "500", "-q",
                               "--json", good });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        r = runCli({ "redis-benchmark", "-p", QString::number(locked.port()), "-t", "set", "-n", "500", "-q", "--json",
                     noAuth });
        QVERIFY2(r.exitCode == 1 && QFile::exists(noAuth), qPrintable(describe(r)));
        r = runCli({ "redis-benchmark", "-p", QString::number(full.port()), "-t", "set", "-n", "500", "-q", "--json",
                     refused });
        QVERIFY2(r.exitCode == 1 && QFile::exists(refused), qPrintable(describe(r)));

        r = runCli({ "compare", good, noAuth, "--fail-if", "p99>+10%" });
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("noauth.json: tacho-run/1") && r.out.contains("FAILED: the server requires authentication"),
                 qPrintable(describe(r)));
        QVERIFY2(r.err.contains("p99>+10% crossed: [2] noauth.json: the run failed"), qPrintable(describe(r)));

        r = runCli({ "compare", good, refused, "--fail-if", "p99>+10%" });
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("[2] FAILED: the test failed"), qPrintable(describe(r)));
        QVERIFY2(r.err.contains("p99>+10% crossed: SET in [2] refused.json: the test failed"), qPrintable(describe(r)));
        QVERIFY2(!r.out.contains("-100.0%) better"), qPrintable(describe(r)));   // no latency for a failed test
        QVERIFY2(!r.out.contains("ok       p99>+10%"), qPrintable(describe(r)));
        // A failed baseline fails the gate too.
        r = runCli({ "compare", refused, good, "--fail-if", "ops<-10%" });
        QVERIFY2(r.exitCode == 1, qPrintable(describe(r)));
        QVERIFY2(r.err.contains("ops<-10% crossed: SET in [1] refused.json: the test failed"), qPrintable(describe(r)));
    }

    // The same run twice, or a byte copy of it: refused with both names, exit 2.
    void mergeRefusesTheSameRunTwice()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QString a = m_dir.filePath("m-a.json"), b = m_dir.filePath("m-b.json"), copy = m_dir.filePath("m-copy.json");
        const QStringList run { "redis-benchmark", "-p", QString::number(server.port()), "-t", "set", "-n", "500", "-q",
                                "--json" };
        QCOMPARE(runCli(QStringList(run) << a).exitCode, 0);
        QCOMPARE(runCli(QStringList(run) << b).exitCode, 0);
        QVERIFY(QFile::copy(a, copy));
        const QString out = m_dir.filePath("merged.json");
        for (const QString& second : { a, copy }) {
            const CliResult r = runCli({ "merge", a, second, "-o", out });
            QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
            QVERIFY2(r.err.contains("the same run is given twice: " + a.toUtf8() + " and " + second.toUtf8()),
                     qPrintable(describe(r)));
            QVERIFY(!QFile::exists(out));
        }
        const CliResult r = runCli({ "merge", a, b, "-o", out });   // two real runs still merge
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    }

    // redis-benchmark 7.0 runs nothing for -t '' (prints an empty line,
    // exits 0); Tacho refuses it as a usage error rather than running the
    // whole suite, and sends the server nothing.
    void emptyTestSelectionIsAUsageError()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        server.resetStats();
        for (const QString& selection : { QString(), QString(","), QString(" , ") }) {
            const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-t", selection,
                                         "-n", "10", "-q" });
            QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
            QVERIFY2(r.err.contains("-t: no test names given"), qPrintable(describe(r)));
        }
        const QMap<QString, quint64> calls = server.commandStatsCalls();
        QCOMPARE(calls.value("set") + calls.value("get") + calls.value("ping"), 0u);
    }

    // Tacho's own INFO and per-connection HELLO/SELECT/AUTH are not taken
    // for benchmark calls: each of these runs' checks agree.
    void crossCheckAgreesWithSetupCommands_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("password");
        QTest::addColumn<bool>("aclUser");
        QTest::newRow("INFO benchmarked") << QStringList { "-n", "300", "INFO", "commandstats" } << QString() << false;
        QTest::newRow("INFO, RESP3") << QStringList { "-3", "-n", "300", "INFO" } << QString() << false;
        QTest::newRow("-3 HELLO") << QStringList { "-3", "-n", "300", "HELLO", "3" } << QString() << false;
        QTest::newRow("--dbnum SELECT") << QStringList { "--dbnum", "3", "-n", "300", "SELECT", "3" } << QString() << false;
        QTest::newRow("-a AUTH") << QStringList { "-n", "300", "AUTH", "pw" } << QString("pw") << false;
        QTest::newRow("-a INFO") << QStringList { "-n", "300", "INFO", "server" } << QString("pw") << false;
        QTest::newRow("ACL user AUTH") << QStringList { "-n", "300", "AUTH", "bench", "benchpw" } << QString() << true;
        QTest::newRow("-3 -a --dbnum set") << QStringList { "-3", "--dbnum", "2", "-t", "set,get", "-n", "300" }
                                            << QString("pw") << false;
        QTest::newRow("no keep-alive") << QStringList { "-k", "0", "-3", "--dbnum", "1", "-n", "200", "SELECT", "1" }
                                       << QString() << false;
    }
    void crossCheckAgreesWithSetupCommands()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, password);
        QFETCH(bool, aclUser);
        RedisServer::Options options;
        options.password = password;
        RedisServer server(options);
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        QStringList run { "redis-benchmark", "-p", QString::number(server.port()), "-c", "4" };
        if (!password.isEmpty())
            run << "-a" << password;
        if (aclUser) {
            QCOMPARE(server.commandString({ "ACL", "SETUSER", "bench", "on", ">benchpw", "+@all", "~*" }),
                     std::optional<QString>("OK"));
            run << "--user" << "bench" << "-a" << "benchpw";
        }
        const CliResult r = runCli(run + args, 60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("server cross-check: INFO commandstats agrees"), qPrintable(describe(r)));
        QVERIFY2(!r.out.contains("disagree") && !r.out.contains("MISMATCH"), qPrintable(describe(r)));
    }

    // Counts that cannot be read (a server whose INFO commandstats lists
    // nothing — a fake one: a real redis-server lists at least Tacho's own
    // INFO server) are "not checked", never "2 of 2 tests disagree".
    void unreadableCountsAreNotCheckedNotDisagreeing()
    {
        tacho::test::FakeServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-t", "set,get", "-n",
                                     "200", "-c", "2" },
                                   60000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains("server cross-check: 2 of 2 tests not checked\n"), qPrintable(QString::fromUtf8(r.out.right(600))));
        QVERIFY2(r.out.contains("not checked (INFO commandstats could not be read: the server's INFO all lists no command statistics)"),
                 qPrintable(describe(r)));
        QVERIFY2(!r.out.contains("disagree"), qPrintable(describe(r)));
    }

    // -d 100000: the run file keeps the value's size, not its bytes, and
    // still reads back (report, compare).
    void runFileOfALargeValueHoldsItsSize()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QString file = m_dir.filePath("large.json");
        const CliResult r = runCli({ "redis-benchmark", "-p", QString::number(server.port()), "-t", "set", "-n", "20",
                                     "-d", "100000", "-q", "--json", file });
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(QFileInfo(file).size() < 50000);
        const QJsonObject config = readJson(file).value("config").toObject();
        QCOMPARE(config.value("valueSize").toInteger(), 100000);
        const QJsonArray args = config.value("tests").toArray().at(0).toObject().value("args").toArray();
        QCOMPARE(args.size(), 3);
        QVERIFY2(args.at(2).toString().endsWith("(100000 bytes)"), qPrintable(args.at(2).toString()));
        QCOMPARE(runCli({ "report", file }).exitCode, 0);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestCleanupVerdicts)
#include "test_cleanup_verdicts.moc"
