// tacho-cli memtier against a real redis-server (issue #3): -n allkeys with
// P:P writes every key exactly once (uneven splits too; memtier does not),
// S:S writes the whole range, ratios hold in INFO commandstats, expiry ranges
// give TTLs in range, open loop meets its target rate, a server stalled by
// DEBUG SLEEP shows in the corrected latency but not the uncorrected one,
// memtier's text and JSON layouts (Totals average is the weighted mean), -x,
// HdrHistogram files, --preload, ACL auth, and bad input (exit 2 naming the
// option).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <cmath>
#include <thread>

#include "support/cli_runner.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::RedisServer;
using tacho::test::runCli;

namespace {

// For failure messages.
QString describe(const CliResult& r) { return tacho::test::describeCliResult(r); }

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The number in column `column` (0 = Ops/sec) of the table row `type`.
double tableValue(const QString& out, const QString& type, int column)
{
    const QRegularExpression row("^" + type + R"(\s+(.*)$)", QRegularExpression::MultilineOption);
    const auto match = row.match(out);
    if (!match.hasMatch())
        return -1;
    const QStringList cells = match.captured(1).split(' ', Qt::SkipEmptyParts);
    return column < cells.size() ? cells[column].toDouble() : -1;
}

} // namespace

class TestMemtierCli : public QObject {
    Q_OBJECT

private:
    QStringList target() const
    {
        return { "memtier", "-s", m_server.host(), "-p", QString::number(m_server.port()) };
    }

    static RedisServer::Options serverOptions()
    {
        RedisServer::Options options;
        options.extraArgs = QStringList { "--enable-debug-command", "yes" };   // DEBUG SLEEP
        return options;
    }

    RedisServer m_server { serverOptions() };
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        m_server.flushAll();
        m_server.resetStats();
    }

    // The seed's fill command (without --cluster-mode): exactly N keys, each
    // 32 bytes, N SETs — for splits that do not divide N too.
    void allKeysParallelWritesEveryKeyOnce_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("clients");
        QTest::addColumn<int>("keys");
        QTest::newRow("1 x 1") << 1 << 1 << 2000;
        QTest::newRow("2 x 3, 5003 keys") << 2 << 3 << 5003;
        QTest::newRow("3 x 7, 19999 keys (memtier: 20013 SETs)") << 3 << 7 << 19999;
        QTest::newRow("2 x 50, 1001 keys") << 2 << 50 << 1001;
    }
    void allKeysParallelWritesEveryKeyOnce()
    {
        QFETCH(int, threads);
        QFETCH(int, clients);
        QFETCH(int, keys);
        CliResult r = runCli(target() << "-c" << QString::number(clients) << "-t" << QString::number(threads) << "-n"
                                      << "allkeys" << "--key-prefix=xxxx" << "--key-minimum=1"
                                      << QString("--key-maximum=%1").arg(keys) << "--key-pattern=P:P" << "--ratio=1:0"
                                      << "-d" << "32" << "--hide-histogram");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server.dbSize(), (long long)keys);
        QCOMPARE(m_server.commandStatsCalls().value("set"), quint64(keys));
        const int connections = threads * clients;
        // Samples: both ends, slice boundaries, the middle.
        QList<int> samples { 1, keys, keys / 2 };
        for (int c = 1; c < connections; ++c)
            samples << keys * c / connections << keys * c / connections + 1;
        for (int k : samples)
            QCOMPARE(m_server.commandInteger({ "STRLEN", QString("xxxx%1").arg(k) }), 32LL);
        QCOMPARE(m_server.commandInteger({ "EXISTS", "xxxx0", QString("xxxx%1").arg(keys + 1) }), 0LL);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(QString("%1 Requests per client").arg(QString::number((keys + connections - 1) / connections), -9)),
                 qPrintable(out));
        QVERIFY2(out.contains("server cross-check: INFO commandstats agrees (set: " + QString::number(keys)),
                 qPrintable(out));
    }

    // PITFALLS: memtier writes N - 1 keys for S:S over 1..N.
    void allKeysSequentialWritesTheWholeRange()
    {
        CliResult r = runCli(target() << "-c" << "1" << "-t" << "1" << "-n" << "allkeys" << "--key-minimum=1"
                                      << "--key-maximum=3000" << "--key-pattern=S:S" << "--ratio=1:0" << "--pipeline=50"
                                      << "--hide-histogram");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server.dbSize(), 3000LL);
        QCOMPARE(m_server.commandInteger({ "EXISTS", "memtier-3000" }), 1LL);
        QCOMPARE(m_server.commandStatsCalls().value("set"), 3000u);
    }

    void ratioHoldsInCommandStats()
    {
        CliResult r = runCli(target() << "-c" << "4" << "-t" << "2" << "--test-time=1" << "--ratio=1:4"
                                      << "--key-maximum=1000" << "--hide-histogram");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const auto calls = m_server.commandStatsCalls();
        const double sets = calls.value("set");
        const double gets = calls.value("get");
        // Each of the 8 connections goes SET, GET ×4, SET, …: when the time is up it may be
        // inside a cycle, so GETs are 4 × SETs give or take 4 per connection, however many
        // requests the machine's speed allowed.
        QVERIFY2(sets > 0 && std::abs(gets - 4 * sets) <= 4 * 8, qPrintable(QString("%1 gets / %2 sets").arg(gets).arg(sets)));
        // The table agrees with the server (ops/s over the same one-second test).
        const QString out = QString::fromUtf8(r.out);
        const double setOps = tableValue(out, "Sets", 0);
        const double getOps = tableValue(out, "Gets", 0);
        QVERIFY2(setOps > 0 && std::abs(getOps - 4 * setOps) <= 4 * 8 + 1, qPrintable(out));
        QVERIFY2(out.contains("1         Seconds"), qPrintable(out));
    }

    void expiryRangeGivesTtlsInRange()
    {
        CliResult r = runCli(target() << "-c" << "2" << "-t" << "1" << "-n" << "100" << "--ratio=1:0"
                                      << "--key-pattern=P:P" << "--key-minimum=1" << "--key-maximum=200"
                                      << "--expiry-range=50-100" << "--hide-histogram");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QCOMPARE(m_server.dbSize(), 200LL);
        int below75 = 0;
        for (int k = 1; k <= 200; k += 7) {
            const long long ttl = m_server.commandInteger({ "TTL", QString("memtier-%1").arg(k) });
            QVERIFY2(ttl >= 49 && ttl <= 100, qPrintable(QString("memtier-%1: %2").arg(k).arg(ttl)));
            below75 += ttl < 75 ? 1 : 0;
        }
        QVERIFY(below75 > 3 && below75 < 26);   // spread over the range, not one value
        QCOMPARE(m_server.commandStatsCalls().value("set"), 200u);
    }

    // Open loop: the target is reported, and the run never runs ahead of it (2000/s for
    // 2 s, one due request per connection at most beyond); how close it comes is speed,
    // measured by bench/open_loop.sh (issue 18).
    void openLoopNeverExceedsItsTargetRate()
    {
        const QString json = m_dir.filePath("open-loop.json");
        CliResult r = runCli(target() << "-c" << "5" << "-t" << "1" << "--test-time=2" << "--rate=2000"
                                      << "--ratio=1:1" << "--key-maximum=1000" << "--hide-histogram"
                                      << "--json-out-file" << json);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString out = QString::fromUtf8(r.out);
        const auto match = QRegularExpression(R"(target 2000\.00 ops/sec, achieved (\d+\.\d\d) ops/sec)").match(out);
        QVERIFY2(match.hasMatch(), qPrintable(out));
        const double achieved = match.captured(1).toDouble();
        QVERIFY2(achieved > 0 && achieved <= 2000 * 1.01, qPrintable(out));
        const auto calls = m_server.commandStatsCalls();
        const double served = calls.value("set") + calls.value("get");
        QVERIFY2(served > 0 && served <= 4000 + 20 + 5, qPrintable(QString::number(served)));   // + 10 ms, + a request each
        const QJsonObject run = readJson(json)["tacho"].toObject()["runs"].toArray().first().toObject();
        QCOMPARE(run["open loop"].toObject()["target ops/sec"].toDouble(), 2000.0);
        // Per connection too (memtier's --rate-limiting): 5 × 300 = 1500/s.
        m_server.resetStats();
        CliResult perConnection = runCli(target() << "-c" << "5" << "-t" << "1" << "-n" << "300"
                                                  << "--rate-limiting=300" << "--ratio=1:1" << "--key-maximum=1000"
                                                  << "--hide-histogram");
        QVERIFY2(perConnection.exitCode == 0, qPrintable(describe(perConnection)));
        const QString text = QString::fromUtf8(perConnection.out);
        QVERIFY2(text.contains("target 1500.00 ops/sec"), qPrintable(text));
        QVERIFY2(tableValue(text, "Totals", 0) <= 1500 * 1.01, qPrintable(text));
        const auto perConnectionCalls = m_server.commandStatsCalls();
        QCOMPARE(perConnectionCalls.value("set") + perConnectionCalls.value("get"), 1500u);
    }

    // Coordinated omission: a 1 s stall during a rate-limited run must show in
    // the latency measured from the due time, and is hidden from the latency
    // measured from the send; both are reported.
    void stalledServerShowsInCorrectedLatencyOnly()
    {
        const QString json = m_dir.filePath("stall.json");
        std::thread staller([this] {   // once the run's traffic flows (a hang guard of 20 s)
            if (m_server.waitForCalls("set", 1, 20000)) {
                const tacho::test::RedisReply reply = m_server.command({ "DEBUG", "SLEEP", "1" });
                Q_UNUSED(reply);
            }
        });
        CliResult r = runCli(target() << "-c" << "4" << "-t" << "1" << "--test-time=3" << "--rate=4000"
                                      << "--ratio=1:1" << "--key-maximum=1000" << "--hide-histogram"
                                      << "--json-out-file" << json,
                             30000);
        staller.join();
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QJsonObject loop = readJson(json)["tacho"].toObject()["runs"].toArray().first().toObject()["open loop"].toObject();
        const double corrected = loop["corrected latency (from due time)"].toObject()["p99.9 Latency"].toDouble();
        const double uncorrected = loop["uncorrected latency (from actual send)"].toObject()["p99.9 Latency"].toDouble();
        // The shape, not the speed: the stall (at least its second) in the corrected figure
        // alone; upper bounds on either would fail on a loaded machine, not on a wrong one.
        QVERIFY2(corrected > 800, qPrintable(QString::number(corrected)));
        QVERIFY2(uncorrected < corrected / 2, qPrintable(QString::number(uncorrected)));
        QVERIFY2(loop["max send lag msec"].toDouble() > 800, qPrintable(QString::number(loop["max send lag msec"].toDouble())));
        // The text says both, labelled; the table shows the corrected one.
        const QString out = QString::fromUtf8(r.out);
        const auto row = [&](const char* kind) {
            return QRegularExpression(QString(R"(^ALL STATS: %1\s+Totals\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)$)").arg(kind),
                                      QRegularExpression::MultilineOption)
                .match(out);
        };
        QVERIFY2(row("corrected").hasMatch() && row("uncorrected").hasMatch(), qPrintable(out));
        QVERIFY(row("corrected").captured(1).toDouble() > 800);
        QVERIFY(row("uncorrected").captured(1).toDouble() < 200);
        QVERIFY2(tableValue(out, "Totals", 6) > 800, qPrintable(out));   // p99.9 column
        QVERIFY(out.contains("from each request's due time"));
    }

    void textAndJsonLayout()
    {
        const QString json = m_dir.filePath("layout.json");
        CliResult r = runCli(target() << "-c" << "3" << "-t" << "2" << "-n" << "500" << "--ratio=1:3"
                                      << "--key-maximum=100" << "--json-out-file" << json);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.startsWith("2         Threads\n3         Connections per thread\n500       Requests per client\n"),
                 qPrintable(out));
        QVERIFY(out.contains("\n\n\nALL STATS\n" + QString(124, '=') + "\n"
                             "Type         Ops/sec     Hits/sec   Misses/sec    Avg. Latency     p50 Latency     "
                             "p99 Latency   p99.9 Latency       KB/sec \n"
                             + QString(124, '-') + "\n"));
        const QString latency = R"(\s+\d+\.\d{5})";
        for (const char* type : { "Sets", "Gets", "Totals" })
            QVERIFY2(QRegularExpression(QString("^%1%2").arg(type, QString(R"(\s+\d+\.\d\d)")), QRegularExpression::MultilineOption)
                         .match(out).hasMatch(),
                     qPrintable(out));
        QVERIFY(QRegularExpression(R"(^Sets\s+\d+\.\d\d\s+---\s+---)" + latency + latency + latency + latency
                                   + R"(\s+\d+\.\d\d $)", QRegularExpression::MultilineOption)
                    .match(out).hasMatch());
        QVERIFY(QRegularExpression(R"(^Waits\s+0\.00\s+---\s+---\s+---\s+---\s+---\s+---\s+--- $)",
                                   QRegularExpression::MultilineOption)
                    .match(out).hasMatch());
        QVERIFY(out.contains("\n\n\nRequest Latency Distribution\nType     <= msec         Percent\n"));
        QVERIFY(QRegularExpression(R"(^SET\s+\d+\.\d{3}\s+100\.000$)", QRegularExpression::MultilineOption).match(out).hasMatch());
        QVERIFY(QRegularExpression(R"(^GET\s+\d+\.\d{3}\s+0\.000$)", QRegularExpression::MultilineOption).match(out).hasMatch());
        QVERIFY2(!r.out.contains('\r'), "progress written into a pipe");

        // JSON: memtier's layout, with a real Totals average.
        const QJsonObject doc = readJson(json);
        QCOMPARE(doc["run information"].toObject()["Threads"].toInt(), 2);
        QCOMPARE(doc["run information"].toObject()["Requests per client"].toInt(), 500);
        QCOMPARE(doc["configuration"].toObject()["ratio"].toString(), QString("1:3"));
        QCOMPARE(doc["configuration"].toObject()["key_prefix"].toString(), QString("memtier-"));
        const QJsonObject all = doc["ALL STATS"].toObject();
        const QJsonObject sets = all["Sets"].toObject();
        const QJsonObject gets = all["Gets"].toObject();
        const QJsonObject totals = all["Totals"].toObject();
        QCOMPARE(sets["Count"].toInt() + gets["Count"].toInt(), 3000);
        QCOMPARE(totals["Count"].toInt(), 3000);
        QCOMPARE(sets["Count"].toInt(), 750);
        const double weighted = (sets["Average Latency"].toDouble() * sets["Count"].toInt()
                                 + gets["Average Latency"].toDouble() * gets["Count"].toInt())
            / 3000.0;
        QVERIFY2(totals["Average Latency"].toDouble() > 0, "Totals average is 0 (memtier's bug)");
        QVERIFY2(std::abs(totals["Average Latency"].toDouble() - weighted) < 0.002,
                 qPrintable(QString("%1 vs %2").arg(totals["Average Latency"].toDouble()).arg(weighted)));
        QVERIFY(totals["Percentile Latencies"].toObject().contains("p99.90"));
        QVERIFY(totals["Time-Serie"].toObject().contains("0"));
        QVERIFY(std::abs(gets["Hits/sec"].toDouble() + gets["Misses/sec"].toDouble() - gets["Ops/sec"].toDouble()) < 0.02);
        QVERIFY(all["GET"].toArray().size() > 1);
        QCOMPARE(all["Runtime"].toObject()["Time unit"].toString(), QString("MILLISECONDS"));
        QVERIFY(doc["tacho"].toObject()["runs"].toArray().first().toObject()["server cross-check"].toObject()["agrees"].toBool());
    }

    void runCountPrintsBestWorstAggregated()
    {
        const QString json = m_dir.filePath("runs.json");
        const QString hdr = m_dir.filePath("hdr");
        CliResult r = runCli(target() << "-c" << "2" << "-t" << "1" << "-n" << "300" << "-x" << "3"
                                      << "--key-maximum=100" << "--hide-histogram" << "--print-all-runs"
                                      << "--json-out-file" << json << "--hdr-file-prefix" << hdr);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString out = QString::fromUtf8(r.out);
        for (const char* header : { "RUN #1 RESULTS", "RUN #3 RESULTS", "BEST RUN RESULTS", "WORST RUN RESULTS",
                                    "AGGREGATED AVERAGE RESULTS (3 runs)" })
            QVERIFY2(out.contains(QString("\n\n%1\n====").arg(header)), qPrintable(out));
        QVERIFY(!out.contains("ALL STATS\n"));
        QCOMPARE(m_server.commandStatsCalls().value("set") + m_server.commandStatsCalls().value("get"), 3u * 600);
        const QJsonObject doc = readJson(json);
        QCOMPARE(doc["AGGREGATED AVERAGE RESULTS (3 runs)"].toObject()["Totals"].toObject()["Count"].toInt(), 1800);
        QVERIFY(doc.contains("BEST RUN RESULTS") && doc.contains("WORST RUN RESULTS"));
        for (int run = 1; run <= 3; ++run)
            for (const char* suffix : { ".txt", ".hgrm" })   // memtier's names (issue 17)
                QVERIFY(QFile::exists(QString("%1_FULL_RUN_%2%3").arg(hdr).arg(run).arg(suffix)));
        QFile text(hdr + "_GET_command_run_1.txt");
        QVERIFY(text.open(QIODevice::ReadOnly));
        QVERIFY(text.readLine().startsWith("       Value   Percentile   TotalCount 1/(1-Percentile)"));
        QFile hlog(hdr + "_FULL_RUN_2.hgrm");
        QVERIFY(hlog.open(QIODevice::ReadOnly));
        QVERIFY(hlog.readAll().contains("#[Histogram log format version 1.3]"));
    }

    void preloadFillsFirstAndIsReportedApart()
    {
        const QString runFile = m_dir.filePath("run.json");
        CliResult r = runCli(target() << "-c" << "3" << "-t" << "1" << "-n" << "200" << "--ratio=0:1"
                                      << "--key-minimum=1" << "--key-maximum=999" << "--preload" << "--hide-histogram"
                                      << "--json" << runFile);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.indexOf("PRELOAD RESULTS") >= 0 && out.indexOf("PRELOAD RESULTS") < out.indexOf("ALL STATS"),
                 qPrintable(out));
        QCOMPARE(m_server.dbSize(), 999LL);
        const auto calls = m_server.commandStatsCalls();
        QCOMPARE(calls.value("set"), 999u);
        QCOMPARE(calls.value("get"), 600u);
        // Every GET of the measured run hits: the preload wrote every key.
        QCOMPARE(tableValue(out.mid(out.indexOf("ALL STATS")), "Gets", 2), 0.0);   // Misses/sec
        const QJsonObject file = readJson(runFile);
        QCOMPARE(file["format"].toString(), QString("tacho-run/1"));
        QCOMPARE(file["tests"].toArray().size(), 2);
    }

    void arbitraryCommandsAndAclAuth()
    {
        QCOMPARE(m_server.commandString({ "ACL", "SETUSER", "bench", "on", ">s3cret", "~*", "+@all" }),
                 std::optional<QString>("OK"));
        CliResult r = runCli(target() << "-a" << "bench:s3cret" << "-c" << "2" << "-t" << "1" << "-n" << "300"
                                      << "--key-maximum=50" << "--command=hset __key__ f __data__" << "--command-ratio=2"
                                      << "--command=hget __key__ f" << "--hide-histogram");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const auto calls = m_server.commandStatsCalls();
        QCOMPARE(calls.value("hset"), 400u);
        QCOMPARE(calls.value("hget"), 200u);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(QRegularExpression(R"(^Hsets\s+\d+\.\d\d\s+\d+\.\d{5})", QRegularExpression::MultilineOption).match(out).hasMatch(),
                 qPrintable(out));
        QVERIFY(!out.contains("Hits/sec"));   // memtier's layout for --command

        CliResult wrong = runCli(target() << "-a" << "bench:nope" << "-c" << "1" << "-t" << "1" << "-n" << "10");
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.err.contains("authentication failed"), qPrintable(describe(wrong)));
        m_server.command({ "ACL", "DELUSER", "bench" });
    }

    void badInputExitsTwoNamingTheOption_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("option");
        QTest::newRow("ratio") << QStringList { "--ratio=1-2" } << "--ratio";
        QTest::newRow("pattern") << QStringList { "--key-pattern=Q:R" } << "--key-pattern";
        QTest::newRow("range") << QStringList { "--key-minimum=9", "--key-maximum=1" } << "--key-minimum";
        QTest::newRow("size list") << QStringList { "--data-size-list=1:x" } << "--data-size-list";
        QTest::newRow("zero rate") << QStringList { "--rate=0" } << "--rate";
        QTest::newRow("negative rate") << QStringList { "--rate-limiting=-1" } << "--rate-limiting";
        QTest::newRow("unknown") << QStringList { "--frobnicate" } << "--frobnicate";
        QTest::newRow("tls option without --tls") << QStringList { "--cacert=ca.crt" } << "--tls";
    }
    void badInputExitsTwoNamingTheOption()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, option);
        CliResult r = runCli(target() << args, 10000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(option.toUtf8()), qPrintable(describe(r)));
        // memtier's own tests and users' scripts look for "error" (issue 17).
        QVERIFY2(r.err.contains("tacho-cli memtier: error: "), qPrintable(describe(r)));
        QVERIFY(r.out.isEmpty());
        QCOMPARE(m_server.commandStatsCalls().value("set"), 0u);   // nothing was sent
    }
};

QTEST_GUILESS_MAIN(TestMemtierCli)
#include "test_memtier_cli.moc"
