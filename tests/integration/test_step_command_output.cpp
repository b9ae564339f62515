// issue 18: capacity and sweep share one step runner, with no change in what
// they print or write. This pins their whole output — standard output, the
// lines on standard error, the live progress lines of an interactive
// terminal, the CSV files and the run file's section — against a real
// redis-server, with every measured number masked ("#") and the padding that
// depends on a number's width collapsed, so the text is the same run to run.
// Commands run in-process with interactive progress on (a terminal is not
// needed for it here).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>
#include <string>
#include <vector>

#include "engine/cli/capacity_command.h"
#include "engine/cli/sweep_command.h"
#include "support/redis_server.h"

using tacho::test::RedisServer;

namespace {

// Measured numbers (123, 1,234.5, 0.001) become "#", runs of spaces one space.
QString masked(const QString& text)
{
    static const QRegularExpression number(QStringLiteral("[0-9]+([.,][0-9]+)*"));
    static const QRegularExpression spaces(QStringLiteral(" +"));
    QString out = text;
    out.replace(number, QStringLiteral("#"));
    out.replace(spaces, QStringLiteral(" "));
    return out;
}

// CSV: every cell masked on its own (commas separate cells, not thousands).
QString maskedCsv(const QString& text)
{
    QStringList lines;
    for (const QString& line : text.split('\n')) {
        QStringList cells = line.split(',');
        for (QString& cell : cells)
            cell = masked(cell);
        lines << cells.join(',');
    }
    return lines.join('\n');
}

QString readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("(cannot read %1)").arg(path);
    return QString::fromUtf8(file.readAll());
}

QJsonObject readRunFile(const QString& path)
{
    return QJsonDocument::fromJson(readFile(path).toUtf8()).object();
}

struct Output {
    int status = -1;
    QString out;                         // masked standard output
    QString err;                         // masked standard error without the progress lines
    QSet<QString> progress;              // the distinct masked progress lines
    int progressLines = 0;
};

// Standard error of an interactive run: each progress line starts with
// "\r\033[K" and has no newline; a clear ("\r\033[K") precedes ordinary lines.
Output run(std::vector<std::string> args)
{
    std::ostringstream out, err;
    tacho::engine::StepCommandIo io;
    io.out = &out;
    io.err = &err;
    io.interactive = true;
    Output o;
    const std::span<const std::string> span(args.data() + 1, args.size() - 1);
    o.status = args.front() == "capacity" ? tacho::engine::runCapacityCommand(span, io)
                                          : tacho::engine::runSweepCommand(span, io);
    o.out = masked(QString::fromStdString(out.str()));
    const QString clear = QStringLiteral("\r\033[K");
    for (const QString& piece : QString::fromStdString(err.str()).split(clear)) {
        if (!piece.isEmpty() && !piece.contains('\n')) {
            o.progress.insert(masked(piece));
            ++o.progressLines;
        } else {
            o.err += masked(piece);
        }
    }
    return o;
}

QString describe(const Output& o)
{
    QStringList progress = o.progress.values();
    progress.sort();
    return QStringLiteral("status %1\n--- out ---\n%2--- err ---\n%3--- progress ---\n%4\n")
        .arg(o.status)
        .arg(o.out, o.err, progress.join('\n'));
}

// QCOMPARE shortens long strings; this shows both in full.
#define COMPARE_TEXT(actual, expected)                                                                              \
    do {                                                                                                            \
        const QString a = (actual), e = (expected);                                                                 \
        QVERIFY2(a == e, qPrintable(QStringLiteral("\n--- actual ---\n%1\n--- expected ---\n%2").arg(a, e))); \
    } while (false)

} // namespace

class TestStepCommandOutput : public QObject {
    Q_OBJECT

private:
    std::vector<std::string> workload() const
    {
        return { "--", "redis-benchmark", "-h", m_server.host().toStdString(), "-p",
                 std::to_string(m_server.port()), "-t", "set", "-r", "1000" };
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

    // Connections 1, 2, 4 against an objective every step meets: the range ends.
    // --noise 0.99 and one attempt: no step is run again, so the lines are fixed.
    void capacityOutput()
    {
        const QString csv = m_dir.filePath("cap.csv");
        const QString json = m_dir.filePath("cap.json");
        std::vector<std::string> args { "capacity", "--dimension", "connections", "--from", "1", "--to", "4",
                                        "--objective", "avg<=10s", "--step-seconds", "0.4", "--warmup", "0",
                                        "--noise", "0.99", "--attempts", "1", "--csv", csv.toStdString(),
                                        "--json", json.toStdString() };
        const std::vector<std::string> w = workload();
        args.insert(args.end(), w.begin(), w.end());
        const Output o = run(args);
        const QString what = describe(o);
        QVERIFY2(o.status == 0, qPrintable(what));
        // Which step is the best is the machine's doing (one connection may be fastest here).
        QString out = o.out;
        out.replace(QStringLiteral("at # connection ("), QStringLiteral("at # connections ("));
        COMPARE_TEXT(out, QStringLiteral(
            "Capacity search over connections: # connection to # connections, objective avg <= # s\n"
            "Steps: # s measured after # s warm-up; up x#, then bisection\n"
            "Workload: redis-benchmark -h # -p # -t set -r #\n"
            " #:#, # connection, # thread, pipeline # at the first step\n"
            "\n"
            "step connections ops/s avg ms p# ms p# ms p# ms result\n"
            " # # # # # # # met\n"
            " # # # # # # # met\n"
            " # # # # # # # met\n"
            "\n"
            "max throughput meeting avg <= # s: # ops/s at # connections (step #: avg # ms, p# # ms, p# # ms); the "
            "range ended before the objective was crossed. The range ended at # connections with the objective still "
            "met: the knee lies higher.\n"
            "\n"
            "Curve by connections:\n"
            "step connections ops/s avg ms p# ms p# ms p# ms result\n"
            " # # # # # # # met\n"
            " # # # # # # # met\n"
            " # # # # # # # met\n"
            "server cross-check: INFO commandstats agrees with the requests sent in all # runs\n"));
        COMPARE_TEXT(o.err, QString());
        QVERIFY2(o.progressLines >= 3, qPrintable(what));   // at least one per step
        const QSet<QString> allowed { QStringLiteral("[# connection #/# s] # ops/s, avg # ms"),
                                      QStringLiteral("[# connections #/# s] # ops/s, avg # ms") };
        QVERIFY2(QSet<QString>(o.progress).subtract(allowed).isEmpty(), qPrintable(what));

        QString curve = maskedCsv(readFile(csv));
        QCOMPARE(curve.count(QStringLiteral(",met,true,")), 1);
        curve.replace(QStringLiteral(",met,true,"), QStringLiteral(",met,false,"));
        COMPARE_TEXT(curve, QStringLiteral(
            "connections,step,target_rate,ops_per_sec,avg_ms,p#_ms,p#_ms,p#_ms,max_ms,objective_ms,verdict,best,reason,"
            "attempts,noisy,requests,errors,seconds\n"
            "#,#,#,#,#,#,#,#,#,#,met,false,,#,false,#,#,#\n"
            "#,#,#,#,#,#,#,#,#,#,met,false,,#,false,#,#,#\n"
            "#,#,#,#,#,#,#,#,#,#,met,false,,#,false,#,#,#\n"));

        const QJsonObject run = readRunFile(json);
        COMPARE_TEXT(run.keys().join(','),
                     QStringLiteral("allTests,capacity,config,environment,failure,format,status,tests,totalSeconds"));
        QCOMPARE(run["tests"].toArray().size(), 3);
        const QJsonObject capacity = run["capacity"].toObject();
        COMPARE_TEXT(capacity.keys().join(','),
                     QStringLiteral("bestStep,curve,dimension,from,growthFactor,maxAttempts,maxErrors,maxSteps,"
                                    "maxThroughput,minAchievedRatio,nextFailingStep,noiseTolerance,objective,"
                                    "preloadTest,pricePerHour,resolution,stepSeconds,steps,stopDetail,stopReason,"
                                    "summary,throughputPerDollarHour,to,warmupSeconds,workload"));
        COMPARE_TEXT(capacity["steps"].toArray()[0].toObject().keys().join(','),
                     QStringLiteral("attemptThroughputs,attempts,avgMs,errors,maxMs,met,noisy,number,objectiveMs,"
                                    "p50Ms,p999Ms,p99Ms,reason,requests,seconds,setting,targetRate,test,tests,"
                                    "throughput,verdict"));
        COMPARE_TEXT(capacity["stopReason"].toString(), QStringLiteral("range-ended"));
        COMPARE_TEXT(masked(capacity["workload"].toString()), QStringLiteral("redis-benchmark -h # -p # -t set -r #"));
    }

    // Two rows over connections, two tests each: the rows, the table, the files.
    void sweepOutput()
    {
        const QString csv = m_dir.filePath("sweep.csv");
        const QString json = m_dir.filePath("sweep.json");
        std::vector<std::string> args { "sweep", "--connections", "1,2", "--duration", "0.3", "--csv",
                                        csv.toStdString(), "--json", json.toStdString() };
        std::vector<std::string> w = workload();
        w[7] = "set,get";
        args.insert(args.end(), w.begin(), w.end());
        const Output o = run(args);
        const QString what = describe(o);
        QVERIFY2(o.status == 0, qPrintable(what));
        COMPARE_TEXT(o.out, QStringLiteral(
            "Connections Test QPS Average Latency (ms) #th-Percentile Latency (ms) #th-Percentile Latency (ms) Errors "
            "Server check\n"
            "# SET # # # # # agrees\n"
            "# GET # # # # # agrees\n"
            "# SET # # # # # agrees\n"
            "# GET # # # # # agrees\n"));
        COMPARE_TEXT(o.err, QStringLiteral(
            "[#/#] connections #, SET: # ops/s, avg # ms, p# # ms, p# # ms, server agrees\n"
            "[#/#] connections #, GET: # ops/s, avg # ms, p# # ms, p# # ms, server agrees\n"
            "[#/#] connections #, SET: # ops/s, avg # ms, p# # ms, p# # ms, server agrees\n"
            "[#/#] connections #, GET: # ops/s, avg # ms, p# # ms, p# # ms, server agrees\n"));
        QVERIFY2(o.progressLines >= 2, qPrintable(what));   // at least one per row
        const QSet<QString> allowed { QStringLiteral("[connections #: SET # s] # replies, avg # ms"),
                                      QStringLiteral("[connections #: GET # s] # replies, avg # ms") };
        QVERIFY2(QSet<QString>(o.progress).subtract(allowed).isEmpty(), qPrintable(what));
        COMPARE_TEXT(maskedCsv(readFile(csv)), QStringLiteral(
            "connections,test,qps,avg_ms,p#_ms,p#_ms,p#_ms,max_ms,requests,warmup_requests,errors,connect_errors,seconds,"
            "server_calls,server_agrees,status,failure\n"
            "#,SET,#,#,#,#,#,#,#,#,#,#,#,#,true,completed,\n"
            "#,GET,#,#,#,#,#,#,#,#,#,#,#,#,true,completed,\n"
            "#,SET,#,#,#,#,#,#,#,#,#,#,#,#,true,completed,\n"
            "#,GET,#,#,#,#,#,#,#,#,#,#,#,#,true,completed,\n"));
        const QJsonObject run = readRunFile(json);
        COMPARE_TEXT(run.keys().join(','),
                     QStringLiteral("allTests,config,environment,failure,format,status,sweep,tests,totalSeconds"));
        QStringList names;
        for (const QJsonValue& test : run["tests"].toArray())
            names << test.toObject()["name"].toString();
        COMPARE_TEXT(names.join('|'),
                     QStringLiteral("connections 1: SET|connections 1: GET|connections 2: SET|connections 2: GET"));
        const QString row = QStringLiteral(
            R"({"avgMs":#,"errors":#,"maxMs":#,"p#Ms":#,"p#Ms":#,"p#Ms":#,"qps":#,"requests":#,"settings":{"Connections":"#"},"status":"completed","test":"%1","testIndex":#})");
        COMPARE_TEXT(masked(QString::fromUtf8(QJsonDocument(run["sweep"].toObject()).toJson(QJsonDocument::Compact))),
                     QStringLiteral(R"({"columns":["Connections"],"preloadTest":null,"rows":[%1,%2,%1,%2],)"
                                    R"("workload":"redis-benchmark -h # -p # -t set,get -r #"})")
                         .arg(row.arg(QStringLiteral("SET")), row.arg(QStringLiteral("GET"))));
    }

    // memtier --preload: capacity reports it on standard output, sweep on standard error.
    void preloadLines()
    {
        const std::vector<std::string> memtier { "--", "memtier", "-s", m_server.host().toStdString(), "-p",
                                                 std::to_string(m_server.port()), "-c", "1", "-t", "1",
                                                 "--key-maximum", "200", "--ratio", "1:0", "--preload" };
        std::vector<std::string> capacity { "capacity", "--dimension", "connections", "--from", "1", "--to", "1",
                                            "--objective", "avg<=10s", "--step-seconds", "0.2", "--warmup", "0" };
        capacity.insert(capacity.end(), memtier.begin(), memtier.end());
        Output o = run(capacity);
        QVERIFY2(o.status == 0, qPrintable(describe(o)));
        COMPARE_TEXT(o.out.split('\n').mid(0, 6).join('\n'),
                     QStringLiteral("Capacity search over connections: # connection to # connection, objective avg <= # s\n"
                                    "Steps: # s measured after # s warm-up; up x#, then bisection\n"
                                    "Workload: memtier -s # -p # -c # -t # --key-maximum # --ratio #:# --preload\n"
                                    " #:#, # connection, # thread, pipeline # at the first step\n"
                                    "Preload: # keys written in # s (# ops/s)\n"));

        std::vector<std::string> sweep { "sweep", "--connections", "1", "--duration", "0.2" };
        sweep.insert(sweep.end(), memtier.begin(), memtier.end());
        o = run(sweep);
        QVERIFY2(o.status == 0, qPrintable(describe(o)));
        COMPARE_TEXT(o.err, QStringLiteral("preload: # keys written in # s\n"
                                           "[#/#] connections #: # ops/s, avg # ms, p# # ms, p# # ms, server agrees\n"));
    }
};

QTEST_GUILESS_MAIN(TestStepCommandOutput)
#include "test_step_command_output.moc"
