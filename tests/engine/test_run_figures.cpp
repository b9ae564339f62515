// Issue 28: the whole run's figures are computed once (run_figures.h), from
// the tests' histograms merged, never the worst test's; the run file states
// them ("allTests") and a reader quotes what it states, or merges the tests'
// histograms when the section is absent; a section whose counts do not match
// the tests is set aside.
#include <QtTest>

#include <string>

#include "engine/report/run_figures.h"
#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"

using namespace tacho::engine;

namespace {

constexpr std::uint64_t kUs = 1000;

// A: 1,000 × 100 µs and 20 × 10 ms (its own p99 is 10 ms); B: 9,000 × 200 µs.
// Together 10,020 latencies: p50 and p99 are 200 µs, p99.9 10 ms.
RunResult twoTests()
{
    RunResult run;
    TestResult a, b;
    a.name = "SET";
    a.seconds = 1;
    a.latency.recordN(100 * kUs, 1000);
    a.latency.recordN(10'000 * kUs, 20);
    a.requests = 1020;
    a.errors = 3;
    a.bytesSent = 1024 * 100;
    b.name = "GET";
    b.seconds = 2;
    b.latency.recordN(200 * kUs, 9000);
    b.requests = 9000;
    b.bytesReceived = 1024 * 200;
    run.tests.push_back(std::move(a));
    run.tests.push_back(std::move(b));
    return run;
}

bool near(double a, double b, double relative = 0.005) { return std::abs(a - b) <= relative * std::max(a, b) + 1e-9; }

LoadedRun read(const std::string& json)
{
    LoadedRun loaded;
    std::string error;
    if (!runFileFromJson(json, "run.json", loaded, &error))
        qFatal("%s", error.c_str());
    return loaded;
}

} // namespace

class TestRunFigures : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mergedDistributionNotTheWorstTest()
    {
        const RunResult run = twoTests();
        QVERIFY(near(double(run.tests[0].latency.valueAtPercentile(99)) / 1e6, 10.0));   // the worst row's p99
        const StatedFigures f = wholeRunFigures(run);
        QVERIFY(f.p99Ms && near(*f.p99Ms, 0.2));
        QVERIFY(f.p50Ms && near(*f.p50Ms, 0.2));
        QVERIFY(f.p999Ms && near(*f.p999Ms, 10.0));
        QVERIFY(f.avgMs && near(*f.avgMs, (1000 * 0.1 + 9000 * 0.2 + 20 * 10.0) / 10020));
        QVERIFY(f.minMs && near(*f.minMs, 0.1));
        QVERIFY(f.maxMs && near(*f.maxMs, 10.0));
        QCOMPARE(*f.requests, 10020ull);
        QCOMPARE(*f.errors, 3ull);
        QCOMPARE(*f.opsPerSec, 10020.0 / 3);
        QCOMPARE(*f.kbPerSec, 300.0 / 3);
    }

    void oneTestIsItsOwnFigures()
    {
        RunResult run = twoTests();
        run.tests.pop_back();
        const StatedFigures f = wholeRunFigures(run);
        const LatencyHistogram& h = run.tests[0].latency;
        QCOMPARE(*f.p99Ms, double(h.valueAtPercentile(99)) / 1e6);
        QCOMPARE(*f.p50Ms, double(h.valueAtPercentile(50)) / 1e6);
        QCOMPARE(*f.avgMs, h.mean() / 1e6);
        QCOMPARE(*f.opsPerSec, 1020.0);
    }

    void noAnswersNoLatency()
    {
        RunResult run;
        TestResult t;
        t.name = "SET";
        t.seconds = 1;
        run.tests.push_back(std::move(t));
        const StatedFigures f = wholeRunFigures(run);
        QVERIFY(!f.p99Ms && !f.avgMs);
        QCOMPARE(*f.requests, 0ull);
    }

    void theFileStatesThemAndReadsThemBack()
    {
        const RunResult run = twoTests();
        const std::string json = runResultToJson(run);
        QVERIFY(json.find("\"allTests\"") != std::string::npos);
        const LoadedRun loaded = read(json);
        QVERIFY(loaded.allTests.has_value());
        QVERIFY(loaded.keptSections.empty());
        const StatedFigures live = wholeRunFigures(run), file = wholeRunFigures(loaded);
        QCOMPARE(*file.p99Ms, *live.p99Ms);
        QCOMPARE(*file.p999Ms, *live.p999Ms);
        QCOMPARE(*file.avgMs, *live.avgMs);
        QCOMPARE(*file.opsPerSec, *live.opsPerSec);
        QCOMPARE(*file.requests, 10020ull);
    }

    void withoutTheSectionTheFilesHistogramsAreMerged()
    {
        LoadedRun loaded = read(runResultToJson(twoTests()));
        loaded.allTests.reset();   // an older file, or one another tool wrote
        const StatedFigures f = wholeRunFigures(loaded);
        QVERIFY(f.p99Ms && near(*f.p99Ms, 0.2));
        QVERIFY(f.p999Ms && near(*f.p999Ms, 10.0));
        // avg, min and max from the tests' exact stated figures, not bucket midpoints.
        QVERIFY(f.avgMs && near(*f.avgMs, (1000 * 0.1 + 9000 * 0.2 + 20 * 10.0) / 10020, 1e-9));
        QVERIFY(f.minMs && near(*f.minMs, 0.1, 1e-9));
        QCOMPARE(*f.requests, 10020ull);
    }

    // Figures that are not these tests' (a hand-edited or spliced file) are
    // never quoted: every count of the section, wrong in turn.
    void aSectionThatDoesNotAddUpIsSetAside_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("expected");
        QTest::newRow("requests") << "\"requests\": 10020" << "10020";
        QTest::newRow("errors") << "\"errors\": 3" << "3";
    }
    void aSectionThatDoesNotAddUpIsSetAside()
    {
        QFETCH(QString, field);
        QFETCH(QString, expected);
        std::string json = runResultToJson(twoTests());
        const std::size_t section = json.find("\"allTests\"");
        QVERIFY(section != std::string::npos);
        const std::size_t at = json.find(field.toStdString(), section);
        QVERIFY(at != std::string::npos);
        const std::string wrong = field.toStdString().substr(0, field.indexOf(':') + 2) + "7";
        json.replace(at, std::size_t(field.size()), wrong);
        const LoadedRun loaded = read(json);
        QVERIFY(!loaded.allTests);
        const KeptSection* damaged = loaded.damagedSection("allTests");
        QVERIFY(damaged);
        QVERIFY2(damaged->problem.find("the tests add up to " + expected.toStdString()) != std::string::npos, damaged->problem.c_str());
        const StatedFigures f = wholeRunFigures(loaded);
        QVERIFY(f.p99Ms && near(*f.p99Ms, 0.2));
    }

    void summariesWithoutDistributionsMergeToUnknown()
    {
        // A peer's file: two tests with stated percentiles and no histogram.
        LoadedRun loaded;
        loaded.format = "memtier_benchmark --json-out-file";
        for (int i = 0; i < 2; ++i) {
            TestResult t;
            t.name = i ? "GET" : "SET";
            t.requests = 100;
            t.seconds = 1;
            loaded.run.tests.push_back(std::move(t));
            LoadedTest stated;
            stated.hasHistogram = false;
            stated.figures.p99Ms = 1.0 + i;
            loaded.tests.push_back(stated);
        }
        const StatedFigures f = wholeRunFigures(loaded);
        QVERIFY(!f.p99Ms);
        QCOMPARE(*f.requests, 200ull);
        QCOMPARE(*f.opsPerSec, 100.0);
    }
};

QTEST_APPLESS_MAIN(TestRunFigures)
#include "test_run_figures.moc"
