// Issue 30: --cleanup after a GET-only (or memtier --ratio 0:1) run removed
// every existing key of the run's key shapes — keys the user loaded and the
// run only read. Clean-up now derives from what the run wrote, by command
// (engine/workload/write_commands.h): against a real redis-server, keys
// loaded first survive every read-only run with --cleanup (DBSIZE unchanged,
// and the line says nothing was written), while a writing run still removes
// its own keys. Over both dialects and several read-only commands (not
// -t lrange_*: redis-benchmark's LRANGE tests run the LPUSH that fills
// their list, which writes it).
#include <QTest>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::describeCliResult;
using tacho::test::runCli;

class TestCleanupReadOnly : public QObject {
    Q_OBJECT

private slots:
    void readOnlyRunsRemoveNothing()
    {
        RedisServer server;
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const QString port = QString::number(server.port());
        // The user's keys, loaded by a run without --cleanup: both dialects' shapes.
        const CliResult loadRb = runCli({ "redis-benchmark", "-p", port, "-t", "set,lpush", "-r", "100", "-n", "2000",
                                          "-c", "2", "-q" }, 60000);
        QVERIFY2(loadRb.exitCode == 0, qPrintable(describeCliResult(loadRb)));
        const CliResult loadMt = runCli({ "memtier", "-p", port, "-t", "1", "-c", "2", "--ratio=1:0", "--key-minimum=1",
                                          "--key-maximum=200", "-n", "allkeys", "--key-pattern=P:P", "--hide-histogram" },
                                        60000);
        QVERIFY2(loadMt.exitCode == 0, qPrintable(describeCliResult(loadMt)));
        const qint64 loaded = server.dbSize();
        QVERIFY2(loaded > 200, qPrintable(QString::number(loaded)));

        const QList<QStringList> readOnly {
            { "redis-benchmark", "-p", port, "-t", "get", "-r", "100", "-n", "500", "-c", "2", "-q", "--cleanup" },
            { "redis-benchmark", "-p", port, "-n", "300", "-q", "--cleanup", "LRANGE", "mylist", "0", "9" },
            { "redis-benchmark", "-p", port, "-r", "100", "-n", "300", "-q", "--cleanup", "GET", "key:__rand_int__" },
            { "memtier", "-p", port, "-t", "1", "-c", "2", "--ratio=0:1", "--key-minimum=1", "--key-maximum=200",
              "-n", "100", "--hide-histogram", "--cleanup" },
            { "memtier", "-p", port, "-t", "1", "-c", "2", "--command=GET __key__", "--key-minimum=1",
              "--key-maximum=200", "-n", "100", "--hide-histogram", "--cleanup" },
        };
        for (const QStringList& run : readOnly) {
            const CliResult r = runCli(run, 60000);
            const QString what = run.join(' ') + ": " + describeCliResult(r);
            QVERIFY2(r.exitCode == 0, qPrintable(what));
            QVERIFY2(server.dbSize() == loaded, qPrintable(what + " — DBSIZE " + QString::number(server.dbSize())));
            QVERIFY2(r.out.contains("cleanup: nothing to remove (the tests wrote no keys"), qPrintable(what));
        }

        // A writing run still removes what it wrote: memtier's SETs over the
        // loaded range, then redis-benchmark's SET and LPUSH keys.
        const CliResult mt = runCli({ "memtier", "-p", port, "-t", "1", "-c", "2", "--ratio=1:0", "--key-minimum=1",
                                      "--key-maximum=200", "-n", "allkeys", "--key-pattern=P:P", "--hide-histogram",
                                      "--cleanup" }, 60000);
        QVERIFY2(mt.exitCode == 0 && mt.out.contains("cleanup: removed 200 keys"), qPrintable(describeCliResult(mt)));
        const CliResult rb = runCli({ "redis-benchmark", "-p", port, "-t", "set,lpush", "-r", "100", "-n", "2000", "-c",
                                      "2", "-q", "--cleanup" }, 60000);
        QVERIFY2(rb.exitCode == 0 && rb.out.contains("cleanup: removed"), qPrintable(describeCliResult(rb)));
        QCOMPARE(server.dbSize(), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestCleanupReadOnly)
#include "test_cleanup_read_only.moc"
