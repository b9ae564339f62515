// tacho-cli memtier --client-stats against a real redis-server (issue 17):
// one CSV per connection and run, named as memtier names them
// (PREFIX-<run>-<thread>-<client>.csv), with memtier's sections and columns;
// the per-client request counts add up to what the server's INFO
// commandstats counted, each client did its -n, and the byte columns add up.
// SET/GET layout, --command layout with -x 2, and SCAN iteration.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

// The first section of a client-stats file: its title, header cells and rows.
struct PerSecond {
    QString title;
    QStringList header;
    QList<QStringList> rows;
    QStringList sections;   // every "Full-Test … Latency" title
    QStringList lastLatencyRow;
    bool ok = false;
};

PerSecond readClientStats(const QString& path)
{
    PerSecond out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return out;
    const QStringList lines = QString::fromUtf8(file.readAll()).split('\n');
    if (lines.size() < 3)
        return out;
    out.title = lines[0];
    out.header = lines[1].split(',');
    int i = 2;
    for (; i < lines.size() && !lines[i].isEmpty(); ++i) {
        QStringList cells = lines[i].split(',');
        if (!cells.isEmpty() && cells.back().isEmpty())
            cells.removeLast();   // memtier ends arbitrary-command rows with a comma
        out.rows.push_back(cells);
    }
    for (; i < lines.size(); ++i) {
        if (lines[i].startsWith("Full-Test "))
            out.sections.push_back(lines[i]);
        else if (lines[i].contains(',') && !lines[i].startsWith("Latency") && !out.sections.isEmpty())
            out.lastLatencyRow = lines[i].split(',');
    }
    out.ok = true;
    return out;
}

// The sum of column `name` over the rows.
quint64 columnSum(const PerSecond& stats, const QString& name)
{
    const qsizetype column = stats.header.indexOf(name);
    if (column < 0)
        return quint64(-1);
    quint64 sum = 0;
    for (const QStringList& row : stats.rows)
        sum += row.value(column).toULongLong();
    return sum;
}

} // namespace

class TestMemtierClientStats : public QObject {
    Q_OBJECT

private:
    QStringList target() const
    {
        return { "memtier", "-s", m_server.host(), "-p", QString::number(m_server.port()), "--hide-histogram" };
    }

    RedisServer m_server;
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
    }

    void setGetFilesAddUpToTheServersCounts()
    {
        const QString prefix = m_dir.filePath("setget");
        m_server.flushAll();
        m_server.resetStats();
        const CliResult r = runCli(target() + QStringList { "-t", "2", "-c", "3", "-n", "200", "--ratio", "1:1",
                                                            "--key-maximum", "100", "--client-stats", prefix });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        QVERIFY(r.err.contains("Writing client stats files"));

        const QStringList expectedHeader = QString(
            "Second,SET Requests,SET Average Latency,SET Total Bytes,SET Total Bytes TX,SET Total Bytes RX,"
            "GET Requests,GET Average Latency,GET Total Bytes,GET Total Bytes TX,GET Total Bytes RX,GET Misses,"
            "GET Hits,WAIT Requests,WAIT Average Latency").split(',');
        quint64 sets = 0, gets = 0;
        for (int thread = 0; thread < 2; ++thread)
            for (int client = 0; client < 3; ++client) {
                const QString path = QStringLiteral("%1-1-%2-%3.csv").arg(prefix).arg(thread).arg(client);
                const PerSecond stats = readClientStats(path);
                QVERIFY2(stats.ok, qPrintable(path));
                QCOMPARE(stats.title, QString("Per-Second Benchmark Data"));
                QCOMPARE(stats.header, expectedHeader);
                QVERIFY(!stats.rows.isEmpty());
                QCOMPARE(stats.rows.front().value(0), QString("0"));
                for (const QStringList& row : stats.rows) {
                    QCOMPARE(row.size(), expectedHeader.size());
                    QCOMPARE(row[3].toULongLong(), row[4].toULongLong() + row[5].toULongLong());   // SET bytes
                    QCOMPARE(row[8].toULongLong(), row[9].toULongLong() + row[10].toULongLong());  // GET bytes
                    QCOMPARE(row[11].toULongLong() + row[12].toULongLong(), row[6].toULongLong()); // misses + hits
                    QVERIFY(QRegularExpression(R"(^\d+\.\d{6}$)").match(row[2]).hasMatch());
                }
                const quint64 mySets = columnSum(stats, "SET Requests");
                const quint64 myGets = columnSum(stats, "GET Requests");
                QCOMPARE(mySets + myGets, quint64(200));   // -n per client
                QCOMPARE(mySets, quint64(100));            // 1:1
                sets += mySets;
                gets += myGets;
                QCOMPARE(stats.sections, (QStringList { "Full-Test GET Latency", "Full-Test SET Latency",
                                                        "Full-Test WAIT Latency" }));
            }
        QVERIFY(!QFile::exists(prefix + "-1-2-0.csv"));
        QVERIFY(!QFile::exists(prefix + "-1-0-3.csv"));
        const QMap<QString, quint64> server = m_server.commandStatsCalls();
        QCOMPARE(sets, server.value("set"));
        QCOMPARE(gets, server.value("get"));
    }

    void commandFilesPerRunAddUpToTheServersCounts()
    {
        const QString prefix = m_dir.filePath("cmd");
        m_server.flushAll();
        m_server.resetStats();
        const CliResult r = runCli(target() + QStringList {
            "-t", "1", "-c", "2", "-n", "50", "-x", "2", "--command", "HSET __key__ f __data__", "--command",
            "HGET __key__ f", "--key-maximum", "20", "--client-stats", prefix });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QStringList header = QString("Second,HSET Requests,HSET Average Latency,HSET Total Bytes,"
                                           "HSET Total Bytes TX,HSET Total Bytes RX,HGET Requests,"
                                           "HGET Average Latency,HGET Total Bytes,HGET Total Bytes TX,"
                                           "HGET Total Bytes RX").split(',');
        quint64 hsets = 0, hgets = 0;
        for (int run = 1; run <= 2; ++run)
            for (int client = 0; client < 2; ++client) {
                const QString path = QStringLiteral("%1-%2-0-%3.csv").arg(prefix).arg(run).arg(client);
                const PerSecond stats = readClientStats(path);
                QVERIFY2(stats.ok, qPrintable(path));
                QCOMPARE(stats.title, QString("Per-Second Benchmark Arbitrary Commands Data"));
                QCOMPARE(stats.header, header);
                for (const QStringList& row : stats.rows)
                    QCOMPARE(row.size(), header.size());
                const quint64 mine = columnSum(stats, "HSET Requests") + columnSum(stats, "HGET Requests");
                QCOMPARE(mine, quint64(50));
                hsets += columnSum(stats, "HSET Requests");
                hgets += columnSum(stats, "HGET Requests");
                QCOMPARE(stats.sections, (QStringList { "Full-Test HSET Latency", "Full-Test HGET Latency" }));
                QCOMPARE(stats.lastLatencyRow.value(1), QString("100.000"));
            }
        QVERIFY(!QFile::exists(prefix + "-3-0-0.csv"));
        const QMap<QString, quint64> server = m_server.commandStatsCalls();
        QCOMPARE(hsets, server.value("hset"));
        QCOMPARE(hgets, server.value("hget"));
        QCOMPARE(hsets + hgets, quint64(2 * 2 * 50));
    }

    void scanIterationHasItsTwoColumnGroups()
    {
        const QString prefix = m_dir.filePath("scan");
        m_server.flushAll();
        for (int i = 0; i < 50; ++i)
            QVERIFY(m_server.commandString({ "SET", QStringLiteral("k%1").arg(i), "v" }).has_value());
        m_server.resetStats();
        const CliResult r = runCli(target() + QStringList { "-t", "1", "-c", "2", "-n", "30", "--command",
                                                            "SCAN 0 COUNT 5", "--scan-incremental-iteration",
                                                            "--client-stats", prefix });
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        quint64 scans = 0;
        for (int client = 0; client < 2; ++client) {
            const PerSecond stats = readClientStats(QStringLiteral("%1-1-0-%2.csv").arg(prefix).arg(client));
            QVERIFY(stats.ok);
            QCOMPARE(stats.header.value(1), QString("SCAN 0 Requests"));
            QCOMPARE(stats.header.value(6), QString("SCAN <cursor> Requests"));
            const quint64 first = columnSum(stats, "SCAN 0 Requests");
            const quint64 continued = columnSum(stats, "SCAN <cursor> Requests");
            QVERIFY(first >= 1 && continued >= 1);
            QCOMPARE(first + continued, quint64(30));
            scans += first + continued;
        }
        QCOMPARE(scans, m_server.commandStatsCalls().value("scan"));
    }

    void unwritablePrefixIsRefusedBeforeTheRun()
    {
        m_server.resetStats();
        const CliResult r = runCli(target() + QStringList { "-n", "10", "--client-stats",
                                                            m_dir.filePath("missing-dir/stats") });
        QVERIFY2(r.exitCode == 2, qPrintable(describeCliResult(r)));
        QVERIFY(r.err.contains("--client-stats"));
        QCOMPARE(m_server.commandStatsCalls().value("set"), quint64(0));
    }
};

QTEST_GUILESS_MAIN(TestMemtierClientStats)
#include "test_memtier_client_stats.moc"
