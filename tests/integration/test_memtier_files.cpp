// Issue 17: `tacho-cli memtier`'s files read by the readers memtier's users
// have. Against a real redis-server: the JSON's per-second "Time-Serie"
// entries carry every key memtier writes and add up to the totals and to
// the server's INFO commandstats; the "configuration" section has every key
// memtier's has; --hdr-file-prefix writes memtier's names (…_FULL_RUN_1.txt /
// .hgrm, …_SET_command_run_1.txt / .hgrm); HdrHistogram's own
// HistogramLogProcessor (Debian's libhdrhistogram-java) reads the .hgrm logs
// and finds the server's count and our JSON's percentiles; and the fields
// PerfKitBenchmarker's memtier parser reads (stdout table, latency
// distribution, JSON Runtime and Totals series) are there and agree.
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "support/cli_runner.h"
#include "support/hdr_log_processor.h"
#include "support/redis_server.h"

using tacho::test::CliResult;
using tacho::test::describeCliResult;
using tacho::test::hdrHistogramJar;
using tacho::test::ProcessorOutput;
using tacho::test::runLogProcessor;
using tacho::test::RedisServer;
using tacho::test::runCli;
using tacho::test::closeWithinHistogramPrecision;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestMemtierFiles : public QObject {
    Q_OBJECT

private:
    QStringList target() const
    {
        return { "memtier", "-s", m_server.host(), "-p", QString::number(m_server.port()) };
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

    void init()
    {
        m_server.flushAll();
        m_server.resetStats();
    }

    void jsonSecondsAndHdrFilesAsMemtiersReadersReadThem()
    {
        const QString json = m_dir.filePath("mb.json");
        const QString prefix = m_dir.filePath("percentiles-test");
        const QStringList printed { "50", "90", "99", "99.9", "100" };
        CliResult r = runCli(target() << "-c" << "2" << "-t" << "2" << "--test-time=3" << "--ratio=1:3"
                                      << "--key-maximum=1000" << "--print-percentiles=" + printed.join(',')
                                      << "--json-out-file" << json << "--hdr-file-prefix" << prefix,
                             120000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QMap<QString, quint64> calls = m_server.commandStatsCalls();
        const quint64 served = calls.value("set") + calls.value("get");
        QVERIFY(calls.value("set") > 0 && calls.value("get") > 0);

        const QByteArray text = readAll(json);
        const QJsonObject doc = QJsonDocument::fromJson(text).object();
        QVERIFY2(!doc.isEmpty(), text.left(2000).constData());

        // Every key of memtier's configuration section (its config_print_to_json).
        const QJsonObject configuration = doc["configuration"].toObject();
        for (const char* key :
             { "server", "port", "uri", "unix socket", "address family", "protocol", "out_file", "tls", "cert", "key",
               "cacert", "tls_skip_verify", "sni", "client_stats", "run_count", "debug", "requests", "rate_limit",
               "clients", "threads", "test_time", "ratio", "pipeline", "data_size", "data_offset", "random_data",
               "data_size_range", "data_size_list", "data_size_pattern", "expiry_range", "data_import", "data_verify",
               "verify_only", "generate_keys", "key_prefix", "key_minimum", "key_maximum", "key_pattern", "key_stddev",
               "key_median", "key_zipf_exp", "reconnect_interval", "connection_timeout",
               "thread_conn_start_min_jitter_micros", "thread_conn_start_max_jitter_micros", "multi_key_get",
               "authenticate", "select-db", "no-expiry", "wait-ratio", "num-slaves", "wait-timeout", "print-all-runs" })
            QVERIFY2(configuration.contains(key), key);

        // Per second: memtier's keys, counts adding up to the row's and the
        // server's, percentiles in order and p100 equal to the second's max.
        const QJsonObject all = doc["ALL STATS"].toObject();
        const QStringList percentileKeys { "p50.00", "p90.00", "p99.00", "p99.90", "p100.0" };
        quint64 totalsSum = 0;
        for (const char* row : { "Sets", "Gets", "Totals" }) {
            const QJsonObject stats = all[row].toObject();
            const QJsonObject series = stats["Time-Serie"].toObject();
            QVERIFY2(series.size() >= 3, row);   // a 3-second run
            quint64 count = 0, rx = 0, tx = 0;
            for (const QString& second : series.keys()) {
                const QJsonObject s = series[second].toObject();
                for (const char* key : { "Bytes RX", "Bytes TX", "Count" })
                    QVERIFY2(s.contains(key), qPrintable(QString("%1 %2 %3").arg(row, second, key)));
                count += s["Count"].toInteger();
                rx += s["Bytes RX"].toInteger();
                tx += s["Bytes TX"].toInteger();
                if (s["Count"].toInteger() == 0)
                    continue;
                for (const char* key : { "Average Latency", "Accumulated Latency", "Min Latency", "Max Latency" })
                    QVERIFY2(s.contains(key), qPrintable(QString("%1 %2 %3").arg(row, second, key)));
                double previous = s["Min Latency"].toDouble();
                for (const QString& key : percentileKeys) {
                    QVERIFY2(s.contains(key), qPrintable(QString("%1 %2 %3").arg(row, second, key)));
                    // The percentile's bucket top may pass the exact minimum by a bucket.
                    QVERIFY2(s[key].toDouble() + 0.002 >= previous, qPrintable(QString("%1 %2 %3").arg(row, second, key)));
                    previous = s[key].toDouble();
                }
                QCOMPARE(s["p100.0"].toDouble(), s["Max Latency"].toDouble());
                QVERIFY(s["Min Latency"].toDouble() <= s["Average Latency"].toDouble() + 0.0005);
                QVERIFY(s["Average Latency"].toDouble() <= s["Max Latency"].toDouble() + 0.0005);
            }
            QCOMPARE(count, quint64(stats["Count"].toInteger()));
            QVERIFY2(rx > 0 && tx > 0, row);
            if (QString(row) == "Totals")
                totalsSum = count;
        }
        QCOMPARE(totalsSum, served);
        // memtier's fixed decimals: the empty Waits row reads 0.00, never 0.
        QVERIFY(QString::fromUtf8(text).contains(QRegularExpression(R"("Waits":\s*\{\s*"Count":\s*0,\s*"Ops/sec":\s*0\.00,)")));

        // memtier's file names: FULL_RUN and per command, .txt and .hgrm; no WAIT.
        for (const char* stem : { "_FULL_RUN_1", "_SET_command_run_1", "_GET_command_run_1" })
            for (const char* extension : { ".txt", ".hgrm" })
                QVERIFY2(QFile::exists(prefix + stem + extension), stem);
        QVERIFY(!QFile::exists(prefix + "_WAIT_command_run_1.txt"));

        // The .txt: HdrHistogram_c's distribution, its count the server's.
        const QStringList lines = QString::fromUtf8(readAll(prefix + "_FULL_RUN_1.txt")).split('\n');
        QCOMPARE(lines.value(0), QString("       Value   Percentile   TotalCount 1/(1-Percentile)"));
        const QRegularExpression txtRow(R"(^\s+(\d+\.\d{3})\s+(\d\.\d{6})\s+(\d+)\s+(\d+\.\d{2}|inf)$)");
        quint64 lastCount = 0;
        QString lastPercentile;
        for (const QString& line : lines)
            if (const auto m = txtRow.match(line); m.hasMatch()) {
                lastCount = m.captured(3).toULongLong();
                lastPercentile = m.captured(2);
            }
        QCOMPARE(lastPercentile, QString("1.000000"));
        QCOMPARE(lastCount, served);
        QVERIFY(lines.filter(QRegularExpression(QString(R"(Total count\s+=\s+%1\])").arg(served))).size() == 1);

        // HdrHistogram's own reader on the .hgrm logs.
        const QString jar = hdrHistogramJar();
        if (jar.isEmpty() || QStandardPaths::findExecutable("java").isEmpty())
            QFAIL("needs libhdrhistogram-java and default-jre-headless (scripts/common.sh installs them)");
        const ProcessorOutput full = runLogProcessor(jar, prefix + "_FULL_RUN_1.hgrm", m_dir.filePath("hlp-full"));
        QVERIFY2(full.ok, qPrintable(full.error));
        QCOMPARE(full.totalCount, served);
        QCOMPARE(full.intervalCount, served);
        const QJsonObject totalPercentiles = all["Totals"].toObject()["Percentile Latencies"].toObject();
        const QStringList compared { "p50.00", "p90.00", "p99.00", "p99.90" };   // its first four columns
        for (int i = 0; i < compared.size(); ++i) {
            const double ours = totalPercentiles[compared[i]].toDouble();
            const double theirs = full.totalPercentiles[i];
            QVERIFY2(closeWithinHistogramPrecision(ours, theirs),
                     qPrintable(QString("%1: JSON %2, HistogramLogProcessor %3").arg(compared[i]).arg(ours).arg(theirs)));
        }
        QVERIFY(closeWithinHistogramPrecision(all["Totals"].toObject()["Max Latency"].toDouble(), full.totalPercentiles[5]));
        for (const auto& [stem, command] :
             { QPair<QString, QString> { "_SET_command_run_1", "set" }, { "_GET_command_run_1", "get" } }) {
            const ProcessorOutput one = runLogProcessor(jar, prefix + stem + ".hgrm", m_dir.filePath("hlp" + stem));
            QVERIFY2(one.ok, qPrintable(one.error));
            QCOMPARE(one.totalCount, calls.value(command));
            const QString row = command == "set" ? "Sets" : "Gets";
            const double ours = all[row].toObject()["Percentile Latencies"].toObject()["p99.00"].toDouble();
            QVERIFY2(closeWithinHistogramPrecision(ours, one.totalPercentiles[2]),
                     qPrintable(QString("%1 p99: JSON %2, HistogramLogProcessor %3").arg(row).arg(ours).arg(one.totalPercentiles[2])));
        }
    }

    // What PerfKitBenchmarker's memtier parser reads, with the options it
    // passes (--print-percentile abbreviated, eight percentiles): the table's
    // "Type" and "Totals" lines split into as many fields, the columns it
    // fetches, "SET"/"GET" distribution lines of three fields, and the JSON's
    // Runtime and Totals Time-Serie.
    void fieldsPerfKitBenchmarkerReads()
    {
        const QString json = m_dir.filePath("pkb.json");
        CliResult r = runCli(target() << "-c" << "2" << "-t" << "1" << "-n" << "500" << "--ratio=1:4"
                                      << "--key-maximum=1000" << "--print-percentile"
                                      << "50,90,95,99,99.5,99.9,99.95,99.99" << "--json-out-file" << json,
                             120000);
        QVERIFY2(r.exitCode == 0, qPrintable(describeCliResult(r)));
        const QStringList lines = QString::fromUtf8(r.out).split('\n');
        QStringList columns;
        QStringList totals;
        for (const QString& raw : lines) {
            const QString line = raw.trimmed();
            if (line.startsWith("Type") && columns.isEmpty())
                columns = QString(line).replace("Latency", "Latency ").split(QRegularExpression(" \\s+"));
            if (line.startsWith("Totals") && totals.isEmpty())
                totals = line.split(' ', Qt::SkipEmptyParts);
        }
        QCOMPARE(totals.size(), columns.size());
        const auto fetch = [&](const QString& name) { return totals.value(columns.indexOf(name), "-1").toDouble(); };
        for (const char* p : { "50", "90", "95", "99", "99.5", "99.9", "99.950", "99.990" })
            QVERIFY2(columns.contains(QString("p%1 Latency").arg(p)), qPrintable(columns.join('|')));
        QVERIFY(fetch("Ops/sec") > 0);
        QVERIFY(fetch("KB/sec") > 0);
        QVERIFY(fetch("Avg. Latency") > 0);
        QVERIFY(fetch("p50 Latency") <= fetch("p99.990 Latency"));
        int setLines = 0, getLines = 0;
        for (const QString& raw : lines) {
            const QString line = raw.trimmed();
            const QStringList fields = line.split(' ', Qt::SkipEmptyParts);
            if (fields.size() == 3 && (fields[0] == "SET" || fields[0] == "GET")) {
                bool numbers = false;
                fields[1].toDouble(&numbers);
                QVERIFY2(numbers, qPrintable(line));
                (fields[0] == "SET" ? setLines : getLines) += 1;
            }
        }
        QVERIFY(setLines > 10 && getLines > 10);

        const QJsonObject all = QJsonDocument::fromJson(readAll(json)).object()["ALL STATS"].toObject();
        const QJsonObject runtime = all["Runtime"].toObject();
        for (const char* key : { "Start time", "Finish time", "Total duration", "Time unit", "Interrupted" })
            QVERIFY2(runtime.contains(key), key);
        QVERIFY(runtime["Start time"].toInteger() > 0);
        const QJsonObject series = all["Totals"].toObject()["Time-Serie"].toObject();
        QVERIFY(!series.isEmpty());
        qint64 count = 0;
        for (const QString& second : series.keys()) {
            bool integer = false;
            second.toInt(&integer);
            QVERIFY(integer);
            const QJsonObject s = series[second].toObject();
            count += s["Count"].toInteger();
            if (s["Count"].toInteger() == 0)
                continue;
            for (const char* key : { "Average Latency", "Min Latency", "Max Latency", "p50.00", "p90.00", "p95.00",
                                     "p99.00", "p99.50", "p99.90", "p99.95", "p99.99" })
                QVERIFY2(s.contains(key) && s[key].isDouble(), key);
        }
        QCOMPARE(count, qint64(1000));
        const QMap<QString, quint64> calls = m_server.commandStatsCalls();
        QCOMPARE(calls.value("set") + calls.value("get"), quint64(1000));
    }
};

QTEST_GUILESS_MAIN(TestMemtierFiles)
#include "test_memtier_files.moc"
