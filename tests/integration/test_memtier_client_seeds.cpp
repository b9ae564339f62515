// memtier's seeds, counted by a real redis-server (issue 17): memtier seeds
// every client alike, so without --distinct-client-seed the random key
// pattern writes the same keys on every connection; with it each connection
// draws its own. The keyspace (DBSIZE) tells the two apart.
#include <QtTest>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

class TestMemtierClientSeeds : public QObject {
    Q_OBJECT

private:
    RedisServer m_server;

    // SETs only, random keys from a range far larger than the requests.
    long long keysWritten(const QStringList& extra)
    {
        m_server.flushAll();
        const CliResult r = runCli(QStringList { "memtier", "-s", "127.0.0.1", "-p", QString::number(m_server.port()),
                                                 "-t", "2", "-c", "2", "-n", "50", "--ratio=1:0", "--key-pattern=R:R",
                                                 "--key-maximum=100000000", "--hide-histogram" }
                                   + extra);
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(describeCliResult(r)));
        return r.exitCode == 0 ? m_server.dbSize() : -1;
    }

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void everyClientAlikeByDefault()
    {
        // 4 connections × the same 50 draws: at most 50 distinct keys.
        const long long keys = keysWritten({});
        QVERIFY2(keys > 0 && keys <= 50, qPrintable(QString::number(keys)));
    }

    void distinctClientSeedGivesEachItsOwn()
    {
        // 4 connections × 50 draws each from 10^8 keys: (nearly) 200 distinct.
        const long long keys = keysWritten({ "--distinct-client-seed" });
        QVERIFY2(keys > 190 && keys <= 200, qPrintable(QString::number(keys)));
    }

    void randomizeKeepsClientsAlike()
    {
        // --randomize seeds from the clock, still one seed for every client.
        const long long keys = keysWritten({ "--randomize" });
        QVERIFY2(keys > 0 && keys <= 50, qPrintable(QString::number(keys)));
    }
};

QTEST_GUILESS_MAIN(TestMemtierClientSeeds)
#include "test_memtier_client_seeds.moc"
