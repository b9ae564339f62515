// Comparing runs, merging them, and their reports (issue #6): the change
// arithmetic and its better/worse direction, normalisation per request / key /
// connection (seed 003: MGET of 1000 keys at 880 req/s beats pipelined HMGET
// at 105,263 req/s in keys per second), fairness warnings, CI thresholds,
// lossless merging, and a well-formed HTML report that links every chart.
#include <QtTest>

#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "engine/report/comparison.h"
#include "engine/report/comparison_charts.h"
#include "engine/report/csv_cell.h"
#include "engine/report/html_report.h"
#include "engine/report/merge.h"
#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"

using namespace tacho::engine;

namespace {

// A run with one single-command test, at `rps` with latencies `samplesUs`
// (µs), written to and read back from a run file like a real one.
struct TestShape {
    std::string name;
    std::vector<std::string> args;
    double rps = 1000;
    std::vector<double> samplesUs;
    std::uint64_t errors = 0;
    std::uint32_t keysPerRequest = 1;
};

RunResult makeRun(const std::vector<TestShape>& shapes, int connections = 50, int pipeline = 1,
                  const std::string& version = "7.0.15", std::uint32_t valueSize = 3, bool tls = false)
{
    RunResult r;
    r.config.connections = connections;
    r.config.pipeline = pipeline;
    r.config.valueSize = valueSize;
    r.config.endpoint.tls = tls;
    r.environment.serverInfo["redis_version"] = version;
    r.environment.startedAtUtc = "2026-01-02T03:04:05Z";
    r.environment.hostName = "loadgen";
    for (const TestShape& s : shapes) {
        TestSpec spec;
        spec.name = s.name;
        spec.args = s.args;
        spec.keysPerRequest = s.keysPerRequest;
        r.config.tests.push_back(spec);
        TestResult t;
        t.name = s.name;
        CommandResult c;
        c.name = s.name;
        for (double us : s.samplesUs) {
            t.latency.record(std::uint64_t(us * 1000));
            c.latency.record(std::uint64_t(us * 1000));
        }
        t.requests = c.requests = s.samplesUs.size();
        t.errors = c.errors = s.errors;
        t.seconds = double(t.requests) / s.rps;
        t.bytesSent = t.requests * 100;
        t.bytesReceived = t.requests * 10;
        c.bytesSent = t.bytesSent;
        c.bytesReceived = t.bytesReceived;
        t.commands.push_back(std::move(c));
        r.tests.push_back(std::move(t));
    }
    return r;
}

LoadedRun reread(const RunResult& run, const std::string& name)
{
    LoadedRun loaded;
    std::string error;
    if (!runFileFromJson(runResultToJson(run), name, loaded, &error))
        qFatal("%s", error.c_str());
    return loaded;
}

std::vector<double> constant(std::size_t n, double us) { return std::vector<double>(n, us); }

const ComparisonCell& cell(const Comparison& c, std::size_t row, std::size_t run, Metric m)
{
    return c.rows.at(row).cells.at(run)[std::size_t(m)];
}

bool hasWarning(const Comparison& c, const std::string& field)
{
    return std::any_of(c.warnings.begin(), c.warnings.end(), [&](const FairnessWarning& w) { return w.field == field; });
}

} // namespace

class TestComparison : public QObject {
    Q_OBJECT
private slots:
    void keysPerRequest()
    {
        QCOMPARE(keysPerRequestFromArgs({ "GET", "k" }), 1u);
        QCOMPARE(keysPerRequestFromArgs({ "mget", "a", "b", "c" }), 3u);
        QCOMPARE(keysPerRequestFromArgs({ "MSET", "a", "1", "b", "2" }), 2u);
        QCOMPARE(keysPerRequestFromArgs({ "DEL", "a", "b" }), 2u);
        QCOMPARE(keysPerRequestFromArgs({ "BLPOP", "a", "b", "0" }), 2u);
        QCOMPARE(keysPerRequestFromArgs({ "RENAME", "a", "b" }), 2u);
        QCOMPARE(keysPerRequestFromArgs({ "HMGET", "hash1", "key1", "hmget", "hash2", "key2" }), 1u);   // one hash key
        QCOMPARE(keysPerRequestFromArgs({ "MGET" }), 0u);   // cannot tell
        QCOMPARE(keysPerRequestFromArgs({}), 0u);
        QCOMPARE(keysPerRequestFromCommandLine("mget k1 k2 k3"), 3u);
        QCOMPARE(keysPerRequestFromCommandLine("SET"), 1u);
    }

    // Repeats of one setup (their files share a repeat group) give a noise
    // band: a difference inside it is "noise", one clear of it better or worse.
    void repeatsGiveANoiseBand()
    {
        const auto repeat = [](double rps, double us, const std::string& group, int index) {
            RunResult r = makeRun({ { "SET", {}, rps, constant(1000, us) } });
            r.environment.repeatGroup = group;
            r.environment.repeatIndex = index;
            r.environment.repeatCount = 3;
            return reread(r, group + "-" + std::to_string(index) + ".json");
        };
        // Before: 1000, 1100, 900 req/s. After A overlaps (1050 … 1250); after B is clear of it (1300 … 1400).
        const LoadedRun b1 = repeat(1000, 500, "before", 1), b2 = repeat(1100, 480, "before", 2), b3 = repeat(900, 520, "before", 3);
        const LoadedRun a1 = repeat(1050, 500, "after-a", 1), a2 = repeat(1250, 490, "after-a", 2), a3 = repeat(1150, 495, "after-a", 3);
        const LoadedRun c1 = repeat(1300, 400, "after-b", 1), c2 = repeat(1400, 390, "after-b", 2), c3 = repeat(1350, 410, "after-b", 3);
        QCOMPARE(b2.run.environment.repeatGroup, std::string("before"));   // kept by the run file
        QCOMPARE(b2.run.environment.repeatIndex, 2);
        const Comparison c = compareRuns({ &b1, &b2, &b3, &a1, &a2, &a3, &c1, &c2, &c3 });
        QCOMPARE(c.setups, (std::vector<std::size_t> { 0, 0, 0, 1, 1, 1, 2, 2, 2 }));
        // The baseline's own repeats: noise whatever their difference.
        QCOMPARE(cell(c, 0, 1, Metric::Ops).verdict, Verdict::Noise);
        QCOMPARE(*cell(c, 0, 2, Metric::Ops).spreadLow, 900.0);
        QCOMPARE(*cell(c, 0, 2, Metric::Ops).spreadHigh, 1100.0);
        // a2 alone is 25% faster than the baseline run, but its setup overlaps the baseline's.
        QCOMPARE(cell(c, 0, 4, Metric::Ops).verdict, Verdict::Noise);
        QVERIFY(*cell(c, 0, 4, Metric::Ops).percent > 20);
        // B's slowest run beats the baseline's fastest: better, for every run of B.
        for (std::size_t r : { 6, 7, 8 }) {
            QCOMPARE(cell(c, 0, r, Metric::Ops).verdict, Verdict::Better);
            QCOMPARE(cell(c, 0, r, Metric::P99).verdict, Verdict::Better);
        }
        const std::string notes = [&] { std::string all; for (const auto& n : c.notes) all += n + "\n"; return all; }();
        QVERIFY2(notes.find("[1] [2] [3] repeat one setup") != std::string::npos, notes.c_str());
        QVERIFY2(notes.find("±10.0%") != std::string::npos, notes.c_str());   // 900 … 1100 around 1000
        QVERIFY2(formatComparison(c).find("noise") != std::string::npos, formatComparison(c).c_str());

        // One run each of one workload: a note says the difference may be noise; verdicts as before.
        const Comparison single = compareRuns({ &b1, &a2 });
        QCOMPARE(single.setups, (std::vector<std::size_t> { 0, 1 }));
        QCOMPARE(cell(single, 0, 1, Metric::Ops).verdict, Verdict::Better);
        QVERIFY(!cell(single, 0, 1, Metric::Ops).spreadLow);
        const bool onceEach = std::any_of(single.notes.begin(), single.notes.end(), [](const std::string& n) {
            return n.find("ran the same workload once each") != std::string::npos;
        });
        QVERIFY(onceEach);
    }

    void changesAndDirection()
    {
        // New: twice the throughput, half the latency, more errors.
        const LoadedRun base = reread(makeRun({ { "SET", {}, 1000, constant(1000, 1000), 2 } }), "base.json");
        const LoadedRun fresh = reread(makeRun({ { "SET", {}, 2000, constant(1000, 500), 5 } }), "new.json");
        const Comparison c = compareRuns({ &base, &fresh });
        QCOMPARE(c.labels, (std::vector<std::string> { "base.json", "new.json" }));
        QCOMPARE(c.rows.size(), std::size_t(1));
        QCOMPARE(c.rows[0].test, std::string("SET"));

        const ComparisonCell& ops = cell(c, 0, 1, Metric::Ops);
        QCOMPARE(*ops.value, 2000.0);
        QCOMPARE(*ops.change, 1000.0);
        QCOMPARE(*ops.percent, 100.0);
        QCOMPARE(ops.verdict, Verdict::Better);   // higher throughput is better

        const ComparisonCell& p99 = cell(c, 0, 1, Metric::P99);
        QVERIFY(std::fabs(*p99.percent + 50.0) < 0.2);
        QCOMPARE(p99.verdict, Verdict::Better);   // lower latency is better
        QCOMPARE(cell(c, 0, 1, Metric::Avg).verdict, Verdict::Better);
        QCOMPARE(cell(c, 0, 1, Metric::Max).verdict, Verdict::Better);

        const ComparisonCell& errors = cell(c, 0, 1, Metric::Errors);
        QCOMPARE(*errors.change, 3.0);
        QCOMPARE(*errors.percent, 150.0);
        QCOMPARE(errors.verdict, Verdict::Worse);   // more errors are worse

        QCOMPARE(cell(c, 0, 1, Metric::KBps).verdict, Verdict::Better);
        QCOMPARE(cell(c, 0, 0, Metric::Ops).verdict, Verdict::Baseline);

        // The other way round, everything flips.
        const Comparison back = compareRuns({ &base, &fresh }, 1);
        QCOMPARE(cell(back, 0, 0, Metric::Ops).verdict, Verdict::Worse);
        QCOMPARE(*cell(back, 0, 0, Metric::Ops).percent, -50.0);
        QCOMPARE(cell(back, 0, 0, Metric::P99).verdict, Verdict::Worse);
        QCOMPARE(cell(back, 0, 0, Metric::Errors).verdict, Verdict::Better);

        // Identical runs: same.
        const Comparison same = compareRuns({ &base, &base });
        for (Metric m : kAllMetrics)
            QCOMPARE(cell(same, 0, 1, m).verdict, Verdict::Same);
        // A zero baseline: change but no percentage.
        const LoadedRun clean = reread(makeRun({ { "SET", {}, 1000, constant(10, 1000), 0 } }), "clean.json");
        const LoadedRun dirty = reread(makeRun({ { "SET", {}, 1000, constant(10, 1000), 4 } }), "dirty.json");
        // Keep the comparison: a reference into a temporary one dangles (ASan, issue 8).
        const Comparison compared = compareRuns({ &clean, &dirty });
        const ComparisonCell& e = cell(compared, 0, 1, Metric::Errors);
        QCOMPARE(*e.change, 4.0);
        QVERIFY(!e.percent);
        QCOMPARE(e.verdict, Verdict::Worse);
    }

    void normalisationPerConnection()
    {
        const LoadedRun a = reread(makeRun({ { "GET", {}, 10000, constant(100, 200) } }, 10), "a.json");
        const LoadedRun b = reread(makeRun({ { "GET", {}, 15000, constant(100, 200) } }, 50), "b.json");
        const Comparison perRequest = compareRuns({ &a, &b });
        QCOMPARE(cell(perRequest, 0, 1, Metric::Ops).verdict, Verdict::Better);
        const Comparison perConnection = compareRuns({ &a, &b }, 0, Normalisation::PerConnection);
        QCOMPARE(*cell(perConnection, 0, 0, Metric::Ops).value, 1000.0);
        QCOMPARE(*cell(perConnection, 0, 1, Metric::Ops).value, 300.0);
        QCOMPARE(cell(perConnection, 0, 1, Metric::Ops).verdict, Verdict::Worse);
        QCOMPARE(metricLabel(Metric::Ops, Normalisation::PerConnection), std::string("req/s/conn"));
        // Latency stays per request.
        QCOMPARE(*cell(perConnection, 0, 1, Metric::P50).value, *cell(perRequest, 0, 1, Metric::P50).value);
        QVERIFY(hasWarning(perConnection, "connections"));
    }

    // Seed 003: "we were able to fetch 880*1000 = 880000 keys/sec via mget
    // compared to 105263 keys/sec via hmget in pipeline".
    void seed003MgetAgainstPipelinedHmget()
    {
        std::vector<std::string> hmget { "hmget", "hash1", "key1", "hmget", "hash2", "key2", "hmget", "hash3", "key3" };
        std::vector<std::string> mget { "mget" };
        for (int i = 1; i <= 1000; ++i)
            mget.push_back("hash" + std::to_string(i) + "_key" + std::to_string(i));
        std::string mgetName;
        for (const std::string& a : mget)
            mgetName += (mgetName.empty() ? "" : " ") + a;
        // redis-benchmark -P 1000 hmget …: 100000 requests at 105263.16/s.
        const LoadedRun hm = reread(makeRun({ { "hmget hash1 key1 hmget hash2 key2 hmget hash3 key3", hmget, 105263.16,
                                               constant(100000, 96000) } },
                                             50, 1000),
                                    "hmget-pipelined.json");
        // redis-benchmark mget <1000 keys>: 100000 requests at 880.72/s (customCommandTest keeps keysPerRequest 1).
        const LoadedRun mg = reread(makeRun({ { mgetName, mget, 880.72, constant(100000, 49000) } }, 50, 1), "mget.json");

        // Per request, MGET looks 99 % slower.
        const Comparison perRequest = compareRuns({ &hm, &mg });
        QCOMPARE(perRequest.rows.size(), std::size_t(1));   // matched by position
        QCOMPARE(cell(perRequest, 0, 1, Metric::Ops).verdict, Verdict::Worse);
        QVERIFY(hasWarning(perRequest, "workload"));
        QVERIFY(hasWarning(perRequest, "pipeline"));
        bool byPosition = false;
        for (const FairnessWarning& w : perRequest.warnings)
            byPosition = byPosition || w.message.find("matched by position") != std::string::npos;
        QVERIFY(byPosition);

        // Per key it reads correctly: 880,720 keys/s against 105,263 keys/s.
        const Comparison perKey = compareRuns({ &hm, &mg }, 0, Normalisation::PerKey);
        QCOMPARE(perKey.rows[0].keysPerRequest[0], 1.0);
        QCOMPARE(perKey.rows[0].keysPerRequest[1], 1000.0);
        QVERIFY(std::fabs(*cell(perKey, 0, 0, Metric::Ops).value - 105263.16) < 0.01);
        QVERIFY(std::fabs(*cell(perKey, 0, 1, Metric::Ops).value - 880720.0) < 0.01);
        QCOMPARE(cell(perKey, 0, 1, Metric::Ops).verdict, Verdict::Better);
        QVERIFY(*cell(perKey, 0, 1, Metric::Ops).percent > 700);
        const std::string text = formatComparison(perKey);
        QVERIFY2(text.find("keys/s") != std::string::npos, text.c_str());
        QVERIFY2(text.find("880720.00") != std::string::npos, text.c_str());
        QVERIFY2(text.find("keys per request: [1] 1 [2] 1000") != std::string::npos, text.c_str());
        QVERIFY2(text.find("better") != std::string::npos, text.c_str());
        QCOMPARE(metricLabel(Metric::Ops, Normalisation::PerKey), std::string("keys/s"));
    }

    void pipelinedRequestsCountEachCommand()
    {
        // -P 16 counts every command of a batch as a request: per key equals per request for GET.
        const LoadedRun p1 = reread(makeRun({ { "GET", { "GET", "key" }, 50000, constant(100, 900) } }, 50, 1), "p1.json");
        const LoadedRun p16 = reread(makeRun({ { "GET", { "GET", "key" }, 400000, constant(1600, 1800) } }, 50, 16), "p16.json");
        const Comparison perKey = compareRuns({ &p1, &p16 }, 0, Normalisation::PerKey);
        QCOMPARE(*cell(perKey, 0, 1, Metric::Ops).value, 400000.0);
        QCOMPARE(*cell(perKey, 0, 0, Metric::Ops).value, 50000.0);
        // MSET's ten keys from TestSpec::keysPerRequest.
        const LoadedRun mset = reread(makeRun({ { "MSET (10 keys)", { "MSET", "k", "v" }, 1000, constant(10, 100), 0, 10 } }),
                                      "mset.json");
        QCOMPARE(keysPerRequestOf(mset, 0), 10.0);
    }

    void fairnessWarningsListDifferences()
    {
        const LoadedRun a = reread(makeRun({ { "SET", { "SET", "k", "v" }, 1000, constant(10, 100) } }, 50, 1, "7.0.15", 3, false),
                                   "a.json");
        const LoadedRun b = reread(makeRun({ { "SET", { "SET", "k", "vv" }, 1000, constant(10, 100) } }, 100, 16, "7.2.4", 1024, true),
                                   "b.json");
        const Comparison c = compareRuns({ &a, &b });
        for (const char* field : { "server version", "workload", "value size", "connections", "pipeline", "TLS" })
            QVERIFY2(hasWarning(c, field), field);
        std::string all;
        for (const FairnessWarning& w : c.warnings)
            all += w.message + "\n";
        QVERIFY2(all.find("server version differs: [1] a.json redis 7.0.15 · [2] b.json redis 7.2.4") != std::string::npos,
                 all.c_str());
        QVERIFY2(all.find("pipeline differs: [1] a.json 1 · [2] b.json 16") != std::string::npos, all.c_str());
        QVERIFY2(all.find("TLS differs: [1] a.json off · [2] b.json on") != std::string::npos, all.c_str());
        QVERIFY2(all.find("value size differs: [1] a.json 3 B · [2] b.json 1024 B") != std::string::npos, all.c_str());
        // Same setup: no warnings.
        QVERIFY(compareRuns({ &a, &a }).warnings.empty());
        // The text output carries them.
        QVERIFY(formatComparison(c).find("Warning: the runs differ") != std::string::npos);
    }

    void missingTestsAndMixedCommands()
    {
        LoadedRun a = reread(makeRun({ { "SET", {}, 1000, constant(10, 100) }, { "GET", {}, 1000, constant(10, 100) } }), "a.json");
        LoadedRun b = reread(makeRun({ { "get", {}, 1000, constant(10, 100) }, { "INCR", {}, 1000, constant(10, 100) } }), "b.json");
        const Comparison c = compareRuns({ &a, &b });
        QCOMPARE(c.rows.size(), std::size_t(3));
        QCOMPARE(c.rows[0].test, std::string("SET"));
        QVERIFY(!c.rows[0].presentIn(1));
        QCOMPARE(c.rows[1].test, std::string("GET"));
        QCOMPARE(c.rows[1].testNames[1], std::string("get"));   // matched ignoring case
        QVERIFY(c.rows[1].presentIn(1));
        QCOMPARE(c.rows[2].test, std::string("INCR"));
        QVERIFY(!c.rows[2].presentIn(0));
        QVERIFY(formatComparison(c).find("INCR") != std::string::npos);
    }

    // A run's repeated tests (redis-benchmark -l, one "SET" per pass) merge
    // with the other runs' same repetition, none dropped.
    void mergeKeepsRepeatedTests()
    {
        LoadedRun a = reread(makeRun({ { "SET", {}, 1000, constant(10, 100) }, { "SET", {}, 1000, constant(20, 100) } }),
                             "a.json");
        LoadedRun b = reread(makeRun({ { "SET", {}, 1000, constant(30, 100) } }), "b.json");
        LoadedRun merged;
        std::vector<std::string> warnings;
        std::string error;
        QVERIFY2(mergeRuns({ &a, &b }, merged, &warnings, &error), error.c_str());
        QCOMPARE(merged.run.tests.size(), std::size_t(2));
        QCOMPARE(merged.run.tests[0].requests, std::uint64_t(40));
        QCOMPARE(merged.run.tests[1].requests, std::uint64_t(20));
        QVERIFY(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
            return w.find("test \"SET\" (repetition 2) is missing in b.json") != std::string::npos;
        }));
    }

    void thresholdsParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("detail");
        QTest::newRow("percent up") << "p99>+10%" << true << "p99 > 10 percent";
        QTest::newRow("percent down") << "ops<-5%" << true << "ops < -5 percent";
        QTest::newRow("absolute change ms") << "avg>+0.5ms" << true << "avg > 0.5 change";
        QTest::newRow("absolute change us") << "p50>+250us" << true << "p50 > 0.25 change";
        QTest::newRow("absolute value") << "p99>2ms" << true << "p99 > 2 absolute";
        QTest::newRow("absolute value seconds") << "max>1s" << true << "max > 1000 absolute";
        QTest::newRow("errors") << "errors>0" << true << "errors > 0 absolute";
        QTest::newRow("scoped") << "SET:p99>+10%" << true << "p99 > 10 percent @SET";
        QTest::newRow("scoped with spaces") << "LRANGE_100 (first 100 elements):p999>+5%" << true
                                            << "p999 > 5 percent @LRANGE_100 (first 100 elements)";
        QTest::newRow("alias p99.9") << "p99.9<+1%" << true << "p999 < 1 percent";
        QTest::newRow("no operator") << "p99=10" << false << "expected [TEST:]METRIC>VALUE";
        QTest::newRow("double operator") << "p99>>10" << false << "expected a number after '>'";
        QTest::newRow("greater equal") << "p99>=10" << false << "'>=' and '<=' are not supported";
        QTest::newRow("unknown metric") << "p98>10" << false << "unknown metric \"p98\"";
        QTest::newRow("no value") << "p99>" << false << "expected a number after '>'";
        QTest::newRow("unit on ops") << "ops<-5ms" << false << "only latency takes a unit";
        QTest::newRow("bad unit") << "p99>5min" << false << "unexpected unit";
        QTest::newRow("empty scope") << ":p99>1" << false << "empty test name";
        QTest::newRow("nan") << "ops>nan" << false << "expected a number after '>', found \"nan\"";
    }

    void thresholdsParse()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, detail);
        Threshold t;
        std::string error;
        QCOMPARE(parseThreshold(text.toStdString(), t, &error), ok);
        if (!ok) {
            QVERIFY2(QString::fromStdString(error).contains(detail), error.c_str());
            return;
        }
        const char* kinds[] = { "absolute", "change", "percent" };
        QString got = QStringLiteral("%1 %2 %3 %4")
                          .arg(metricKey(t.metric))
                          .arg(t.above ? ">" : "<")
                          .arg(t.value)
                          .arg(kinds[int(t.kind)]);
        if (!t.scope.empty())
            got += " @" + QString::fromStdString(t.scope);
        QCOMPARE(got, detail);
    }

    void thresholdsEvaluate()
    {
        const LoadedRun base = reread(makeRun({ { "SET", {}, 1000, constant(100, 1000) }, { "GET", {}, 1000, constant(100, 1000) } }),
                                      "base.json");
        // SET got 20 % slower at p99, GET 3 % faster throughput.
        const LoadedRun fresh = reread(makeRun({ { "SET", {}, 1000, constant(100, 1200) }, { "GET", {}, 1030, constant(100, 1000) } }),
                                       "new.json");
        const Comparison c = compareRuns({ &base, &fresh });
        auto run = [&](std::vector<std::string> texts) {
            std::vector<Threshold> thresholds;
            for (const std::string& text : texts) {
                Threshold t;
                std::string error;
                if (!parseThreshold(text, t, &error))
                    qFatal("%s", error.c_str());
                thresholds.push_back(t);
            }
            return evaluateThresholds(c, thresholds);
        };
        ThresholdOutcome o = run({ "p99>+10%" });
        QCOMPARE(o.crossed.size(), std::size_t(1));
        QVERIFY2(o.crossed[0].find("p99>+10% crossed: SET in [2] new.json") != std::string::npos, o.crossed[0].c_str());
        QVERIFY2(o.crossed[0].find("(+20.") != std::string::npos, o.crossed[0].c_str());
        QCOMPARE(run({ "p99>+25%" }).crossed.size(), std::size_t(0));
        QCOMPARE(run({ "GET:p99>+10%" }).crossed.size(), std::size_t(0));
        QCOMPARE(run({ "set:p99>+10%" }).crossed.size(), std::size_t(1));   // names ignore case
        QCOMPARE(run({ "ops<-5%" }).crossed.size(), std::size_t(0));
        QCOMPARE(run({ "ops>+2%" }).crossed.size(), std::size_t(1));       // GET +3 %
        QCOMPARE(run({ "p99>+0.1ms" }).crossed.size(), std::size_t(1));    // SET +0.2 ms
        QCOMPARE(run({ "p99>1.1" }).crossed.size(), std::size_t(1));       // SET's value 1.2 ms
        QCOMPARE(run({ "errors>0" }).crossed.size(), std::size_t(0));
        o = run({ "NOPE:p99>+10%" });
        QCOMPARE(o.unmatched.size(), std::size_t(1));
        QVERIFY(o.unmatched[0].find("no test or command named \"NOPE\"") != std::string::npos);

        // A peer file without p99.9: not evaluated, said so.
        LoadedRun csv;
        csv.format = "redis-benchmark --csv";
        csv.label = "rb.csv";
        csv.known = KnownConfig { false, false, false, false, false, false, false };
        TestResult t;
        t.name = "SET";
        csv.run.tests.push_back(std::move(t));
        LoadedTest lt;
        lt.hasHistogram = false;
        lt.figures.opsPerSec = 900;
        csv.tests.push_back(lt);
        const Comparison withCsv = compareRuns({ &base, &csv });
        std::vector<Threshold> th(1);
        std::string error;
        QVERIFY(parseThreshold("p999>+10%", th[0], &error));
        o = evaluateThresholds(withCsv, th);
        QVERIFY(o.crossed.empty());
        QCOMPARE(o.notEvaluated.size(), std::size_t(1));
        QVERIFY2(o.notEvaluated[0].find("not recorded in [2] rb.csv") != std::string::npos, o.notEvaluated[0].c_str());
        QVERIFY(parseThreshold("ops<-5%", th[0], &error));
        QCOMPARE(evaluateThresholds(withCsv, th).crossed.size(), std::size_t(1));   // 1000 → 900
    }

    void csvOfComparison()
    {
        const LoadedRun a = reread(makeRun({ { "SET", {}, 1000, constant(10, 100) } }), "a.json");
        const LoadedRun b = reread(makeRun({ { "SET", {}, 2000, constant(10, 100) } }), "b,2.json");
        const std::string csv = comparisonCsv(compareRuns({ &a, &b }));
        QVERIFY(csv.rfind("test,command,metric,unit,run,label,value,baseline,change,change_percent,verdict\n", 0) == 0);
        QVERIFY2(csv.find("SET,,ops,req/s,2,\"b,2.json\",2000.00,1000.00,1000.00,100.00,better\n") != std::string::npos,
                 csv.c_str());
        QVERIFY2(csv.find("SET,,ops,req/s,1,a.json,1000.00,1000.00,,,baseline\n") != std::string::npos, csv.c_str());
    }

    // Formula-like run labels never reach a spreadsheet as formulas (the cell
    // rules themselves are tested in test_csv_cell).
    void csvFieldsNeutraliseFormulas()
    {
        LoadedRun a = reread(makeRun({ { "SET", {}, 1000, constant(10, 100) } }), "a.json");
        a.label = "=cmd|' /C calc'!A0";
        const std::string csv = comparisonCsv(compareRuns({ &a }));
        QVERIFY2(csv.find(",\"'=cmd|' /C calc'!A0\",") != std::string::npos, csv.c_str());
    }

    // The charts' data: each run on its own clock (tests one after another,
    // after connect and warm-up), throughput in the comparison's unit.
    void chartDataFollowsRunClockAndNormalisation()
    {
        RunResult ra = makeRun({ { "SET", {}, 1000, constant(1000, 100) }, { "MSET (10 keys)", { "MSET", "k", "v" }, 500, constant(500, 100), 0, 10 } }, 4);
        for (TestResult& t : ra.tests) {
            t.connectSeconds = 0.5;
            t.warmupSeconds = 1;
            IntervalPoint p;
            p.startSeconds = 0;
            p.endSeconds = t.seconds;
            p.requests = t.requests;
            p.p50 = p.p99 = 100'000;
            t.intervals = { p };
        }
        const LoadedRun a = reread(ra, "a.json");
        QCOMPARE(testStartOffset(a.run, 0), 1.5);
        QCOMPARE(testStartOffset(a.run, 1), 1.5 + 1.0 + 1.5);
        Comparison cmp = compareRuns({ &a, &a }, 0, Normalisation::PerKey);
        ComparisonCharts charts = comparisonCharts(cmp, { &a, &a });
        QCOMPARE(charts.throughput.size(), std::size_t(2));
        QCOMPARE(charts.throughputUnit, std::string("keys/s"));
        const ChartPoints& points = charts.throughput[0].points;
        QCOMPARE(points.size(), std::size_t(2));
        QCOMPARE(points[0], std::make_pair(1.5 + 0.5, 1000.0));          // SET: 1 key per request
        QCOMPARE(points[1], std::make_pair(4.0 + 0.5, 500.0 * 10));      // MSET: 10 keys per request
        QCOMPARE(charts.latency.size(), std::size_t(4));                  // p99 and p50 per run
        QCOMPARE(charts.spectrum.size(), std::size_t(4));                 // per run and test
        QVERIFY(charts.spectrum[0].name.find("SET") != std::string::npos);
        cmp = compareRuns({ &a, &a }, 0, Normalisation::PerConnection);
        charts = comparisonCharts(cmp, { &a, &a }, 1);                    // MSET only, on its own clock
        QCOMPARE(charts.throughput[0].points.at(0), std::make_pair(0.5, 500.0 / 4));
        QCOMPARE(charts.spectrum.size(), std::size_t(2));
        QCOMPARE(spectrumX(99), 2.0);
    }

    // A merged histogram's percentiles are those of the union of the samples.
    void mergeIsLossless()
    {
        std::mt19937_64 random(99);
        std::lognormal_distribution<double> la(6.0, 0.8), lb(7.0, 1.2);   // µs
        std::vector<double> sa, sb;
        for (int i = 0; i < 20000; ++i)
            sa.push_back(la(random));
        for (int i = 0; i < 7000; ++i)
            sb.push_back(lb(random));
        RunResult ra = makeRun({ { "GET", {}, 20000, sa, 3 } }, 20);
        RunResult rb = makeRun({ { "GET", {}, 7000, sb, 1 } }, 30);
        ra.environment.hostName = "load-a";
        rb.environment.hostName = "load-b";
        rb.environment.startedAtUtc = "2026-01-02T03:04:06Z";   // one second later
        for (RunResult* r : { &ra, &rb })
            for (int i = 0; i < 10; ++i) {
                IntervalPoint p;
                p.startSeconds = i * 0.1;
                p.endSeconds = (i + 1) * 0.1;
                p.requests = r == &ra ? 2000 : 700;
                p.p99 = 1'000'000;
                p.mean = 500'000;
                r->tests[0].intervals.push_back(p);
            }
        const LoadedRun a = reread(ra, "a.json");
        const LoadedRun b = reread(rb, "b.json");
        LoadedRun merged;
        std::vector<std::string> warnings;
        std::string error;
        QVERIFY2(mergeRuns({ &a, &b }, merged, &warnings, &error), error.c_str());
        const TestResult& t = merged.run.tests.at(0);
        QCOMPARE(t.requests, 27000u);
        QCOMPARE(t.errors, 4u);
        QCOMPARE(t.bytesSent, 2700000u);
        QCOMPARE(merged.run.config.connections, 50);
        // Throughput adds up.
        QVERIFY(std::fabs(t.requestsPerSecond() - 27000.0) < 1e-6);

        // Percentiles over the union of all samples.
        LatencyHistogram all;
        for (double us : sa)
            all.record(std::uint64_t(us * 1000));
        for (double us : sb)
            all.record(std::uint64_t(us * 1000));
        // The run files carry the histograms in HdrHistogram's µs form; the
        // union written in that form reads back exactly as the merge.
        LatencyHistogram allAsStored;
        QVERIFY(LatencyHistogram::fromCompressedBase64(all.toCompressedBase64(), allAsStored));
        QCOMPARE(t.latency.count(), all.count());
        for (double p : { 0.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0 }) {
            QCOMPARE(t.latency.valueAtPercentile(p), allAsStored.valueAtPercentile(p));
            const double raw = all.valueAtPercentile(p), fromMerge = t.latency.valueAtPercentile(p);
            QVERIFY(std::fabs(raw - fromMerge) <= std::max(raw * 0.0011, 1500.0));
        }
        // And against the exact sample percentile, within the histogram's precision.
        std::vector<double> union_(sa);
        union_.insert(union_.end(), sb.begin(), sb.end());
        std::sort(union_.begin(), union_.end());
        const double exact99 = union_[std::size_t(std::ceil(0.99 * double(union_.size()))) - 1];
        QVERIFY(std::fabs(t.latency.valueAtPercentile(99) / 1000.0 - exact99) <= exact99 * 0.002 + 1.0);
        // Averaging the two p99s would be wrong by far more.
        const double averaged = (a.run.tests[0].latency.valueAtPercentile(99) + b.run.tests[0].latency.valueAtPercentile(99)) / 2000.0;
        QVERIFY(std::fabs(averaged - exact99) > exact99 * 0.05);

        // Intervals on the common clock: b started a second later.
        std::uint64_t sum = 0;
        for (const IntervalPoint& p : t.intervals)
            sum += p.requests;
        QCOMPARE(sum, std::uint64_t(20000 + 7000));
        QCOMPARE(t.intervals.size(), std::size_t(20));   // 0..1 s from a, 1..2 s from b
        QCOMPARE(t.intervals[0].requests, 2000u);
        QCOMPARE(t.intervals[15].requests, 700u);

        // Sources listed and written.
        QCOMPARE(merged.sources.size(), std::size_t(2));
        QCOMPARE(merged.sources[0].hostName, std::string("load-a"));
        QCOMPARE(merged.sources[1].requests, 7000u);
        QCOMPARE(merged.run.environment.hostName, std::string("load-a + load-b"));
        LoadedRun back;
        QVERIFY2(runFileFromJson(mergedRunToJson(merged), "merged.json", back, &error), error.c_str());
        QCOMPARE(back.sources.size(), std::size_t(2));
        QCOMPARE(back.sources[1].file, std::string("b.json"));
        QCOMPARE(back.run.tests[0].requests, 27000u);
        QCOMPARE(back.run.tests[0].latency.valueAtPercentile(99.9), t.latency.valueAtPercentile(99.9));
        // Merging a merged run flattens its sources.
        LoadedRun twice;
        QVERIFY(mergeRuns({ &back, &a }, twice, nullptr, &error));
        QCOMPARE(twice.sources.size(), std::size_t(3));
        QCOMPARE(twice.run.tests[0].requests, 47000u);
    }

    // Sources years apart (a wrong clock, a reused file): no billions of
    // empty ticks, a warning instead.
    void mergeFarApartStaysBounded()
    {
        RunResult ra = makeRun({ { "GET", {}, 1000, constant(100, 100) } });
        RunResult rb = makeRun({ { "GET", {}, 1000, constant(100, 100) } });
        rb.environment.startedAtUtc = "2016-01-02T03:04:05Z";
        for (RunResult* r : { &ra, &rb })
            for (int i = 0; i < 3; ++i) {
                IntervalPoint p;
                p.startSeconds = i * 0.1;
                p.endSeconds = (i + 1) * 0.1;
                p.requests = 33;
                r->tests[0].intervals.push_back(p);
            }
        const LoadedRun a = reread(ra, "a.json"), b = reread(rb, "b.json");
        LoadedRun merged;
        std::vector<std::string> warnings;
        std::string error;
        QVERIFY2(mergeRuns({ &a, &b }, merged, &warnings, &error), error.c_str());
        QCOMPARE(merged.run.tests[0].intervals.size(), std::size_t(6));
        QCOMPARE(merged.run.tests[0].requests, 200u);
        QCOMPARE(merged.run.environment.startedAtUtc, std::string("2016-01-02T03:04:05Z"));
        std::string all;
        for (const std::string& w : warnings)
            all += w + "\n";
        QVERIFY2(all.find("did not overlap in time") != std::string::npos, all.c_str());
        QVERIFY2(all.find("gaps between them are not filled") != std::string::npos, all.c_str());
    }

    void mergeRefusesPercentileOnlySources()
    {
        const LoadedRun a = reread(makeRun({ { "SET", {}, 1000, constant(10, 100) } }), "a.json");
        LoadedRun csv;
        csv.format = "redis-benchmark --csv";
        csv.path = "rb.csv";
        TestResult t;
        t.name = "SET";
        t.requests = 0;
        csv.run.tests.push_back(std::move(t));
        LoadedTest lt;
        lt.hasHistogram = false;
        csv.tests.push_back(lt);
        csv.run.tests[0].requests = 5;
        LoadedRun merged;
        std::string error;
        QVERIFY(!mergeRuns({ &a, &csv }, merged, nullptr, &error));
        QVERIFY2(error.find("rb.csv (redis-benchmark --csv): test \"SET\" has no exact latency histogram") != std::string::npos,
                 error.c_str());
    }

    void htmlReportIsWellFormedAndLinksEveryChart()
    {
        RunResult ra = makeRun({ { "SET", { "SET", "k", "<v&\"'>" }, 1000, constant(100, 300) },
                                 { "GET", {}, 1000, constant(100, 200) } });
        for (int i = 0; i < 5; ++i) {
            IntervalPoint p;
            p.startSeconds = i * 0.1;
            p.endSeconds = (i + 1) * 0.1;
            p.requests = 20;
            p.p50 = 200'000;
            p.p99 = 300'000;
            ra.tests[0].intervals.push_back(p);
        }
        ra.tests[0].firstErrors.push_back("ERR <script>alert(1)</script> \x01");
        ra.environment.serverInfo["os"] = "Linux <&> \"x\"";
        const LoadedRun a = reread(ra, "a<1>.json");
        const LoadedRun b = reread(makeRun({ { "SET", {}, 2000, constant(100, 250) } }, 10), "b.json");

        for (const std::vector<const LoadedRun*>& runs : { std::vector<const LoadedRun*> { &a },
                                                           std::vector<const LoadedRun*> { &a, &b } }) {
            const HtmlReport report = htmlReport(runs);
            QVERIFY(!report.chartIds.empty());
            QXmlStreamReader xml(QString::fromStdString(report.html));
            QSet<QString> ids, hrefs;
            int svgs = 0;
            while (!xml.atEnd()) {
                xml.readNext();
                if (xml.isStartElement()) {
                    if (xml.attributes().hasAttribute("id"))
                        ids.insert(xml.attributes().value("id").toString());
                    if (xml.name() == QLatin1String("a"))
                        hrefs.insert(xml.attributes().value("href").toString());
                    if (xml.name() == QLatin1String("svg"))
                        ++svgs;
                    QVERIFY2(xml.name() != QLatin1String("script"), "no scripts");
                    QVERIFY2(!xml.attributes().hasAttribute("src"), "no external files");
                }
            }
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString() + " at line " + QString::number(xml.lineNumber())));
            QCOMPARE(svgs, int(report.chartIds.size()));
            for (const std::string& id : report.chartIds) {
                QVERIFY2(ids.contains(QString::fromStdString(id)), id.c_str());
                QVERIFY2(hrefs.contains("#" + QString::fromStdString(id)), id.c_str());
            }
            QVERIFY(report.html.find("Server cross-check") != std::string::npos);
            QVERIFY(report.html.find("Configuration") != std::string::npos);
            QVERIFY(report.html.find("Environment") != std::string::npos);
            QVERIFY(report.html.find("&lt;v&amp;&quot;&#39;&gt;") != std::string::npos);
            QVERIFY(report.html.find("Latency in milliseconds") != std::string::npos);
        }
        const HtmlReport comparison = htmlReport({ &a, &b });
        QVERIFY(comparison.html.find("Comparison per request") != std::string::npos);
        QVERIFY(comparison.html.find("class=\"better\"") != std::string::npos);
        QVERIFY(comparison.html.find("connections differs") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestComparison)
#include "test_comparison.moc"
