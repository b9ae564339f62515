// Capacity search (issue #7), what it is asked: latency objectives parsed or
// rejected with specific messages, invalid ranges and options rejected, valid
// ones accepted, the dimensions and how their settings read.
#include <QtTest>

#include <cmath>
#include <map>

#include "engine/cli/capacity_command.h"
#include "engine/report/sweep_table.h"
#include "engine/run/capacity_search.h"

#include "capacity_model.h"

using namespace tacho::engine;
using namespace tacho::test::capacity_model;

class TestCapacityObjectives : public QObject {
    Q_OBJECT

private slots:
    // ---- objectives ----

    void parsesObjectives()
    {
        LatencyObjective o = objective("avg<=1ms");
        QVERIFY(o.mean);
        QCOMPARE(o.limitNs, 1e6);
        QCOMPARE(QString::fromStdString(o.describe()), QStringLiteral("avg <= 1 ms"));

        o = objective("p99<=2ms");
        QVERIFY(!o.mean);
        QCOMPARE(o.percentile, 99.0);
        QCOMPARE(o.limitNs, 2e6);
        QCOMPARE(QString::fromStdString(o.describe()), QStringLiteral("p99 <= 2 ms"));

        o = objective(" P99.9 <= 500us ");
        QCOMPARE(o.percentile, 99.9);
        QCOMPARE(o.limitNs, 500e3);
        QCOMPARE(QString::fromStdString(o.describe()), QStringLiteral("p99.9 <= 500 us"));

        QVERIFY(objective("mean<=0.5ms").mean);
        QVERIFY(objective("average<=0.5ms").mean);
        QCOMPARE(objective("median<=1ms").percentile, 50.0);
        QCOMPARE(objective("max<=1s").percentile, 100.0);
        QCOMPARE(objective("max<=1s").limitNs, 1e9);
        QCOMPARE(objective("p50<=250000ns").limitNs, 250000.0);
        QCOMPARE(objective("avg<=1e-3s").limitNs, 1e6);
        QCOMPARE(objective("avg<=750\xc2\xb5s").limitNs, 750e3);   // µs
    }

    void rejectsInvalidObjectivesWithSpecificMessages_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "" << "empty";
        QTest::newRow("no operator") << "p99" << "expected '<='";
        QTest::newRow("floor") << "p99>=2ms" << "use '<='";
        QTest::newRow("percentile above 100") << "p101<=1ms" << "percentile 101 is out of range";
        QTest::newRow("percentile 0") << "p0<=1ms" << "percentile 0 is out of range";
        QTest::newRow("not a percentile") << "pabc<=1ms" << "'pabc' is not a latency statistic";
        QTest::newRow("unknown statistic") << "foo<=1ms" << "unknown statistic 'foo'";
        QTest::newRow("no statistic") << "<=1ms" << "statistic before '<=' is missing";
        QTest::newRow("no limit") << "avg<=" << "limit after '<=' is missing";
        QTest::newRow("no unit") << "avg<=1" << "needs a unit";
        QTest::newRow("unknown unit") << "avg<=2min" << "unknown unit 'min'";
        QTest::newRow("zero") << "avg<=0ms" << "greater than 0";
        QTest::newRow("negative") << "avg<=-1ms" << "greater than 0";
        QTest::newRow("not a number") << "avg<=fastms" << "is not a latency limit";
        QTest::newRow("beyond the histogram") << "avg<=120s" << "above 60 s";
    }
    void rejectsInvalidObjectivesWithSpecificMessages()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString error = QString::fromStdString(objectiveError(text.toUtf8().constData()));
        QVERIFY2(error.contains(message), qPrintable(text + " -> " + error));
    }

    // ---- options ----

    void rejectsInvalidRangesAndOptions_data()
    {
        QTest::addColumn<int>("dimension");
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::addColumn<QString>("tweak");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("message");
        const int rate = int(CapacityDimension::Rate);
        const int connections = int(CapacityDimension::Connections);
        const int threads = int(CapacityDimension::Threads);
        const int pipeline = int(CapacityDimension::Pipeline);
        QTest::newRow("rate from 0") << rate << 0.0 << 100.0 << "" << "from" << "greater than 0";
        QTest::newRow("rate negative to") << rate << 10.0 << -5.0 << "" << "to" << "greater than 0";
        QTest::newRow("downward range") << rate << 1000.0 << 500.0 << "" << "to" << "below the start of the range (1000)";
        QTest::newRow("fractional connections") << connections << 1.5 << 10.0 << "" << "from"
                                                << "connections must be a whole number";
        QTest::newRow("zero pipeline") << pipeline << 0.0 << 10.0 << "" << "from" << "pipeline must be at least 1";
        QTest::newRow("too many connections") << connections << 1.0 << 200000.0 << "" << "to" << "at most 100,000";
        QTest::newRow("too many threads") << threads << 1.0 << 5000.0 << "" << "to" << "at most 1,024";
        QTest::newRow("infinite") << rate << 1.0 << double(INFINITY) << "" << "to" << "finite";
        QTest::newRow("step seconds") << rate << 1.0 << 2.0 << "step" << "step-seconds" << "greater than 0 seconds";
        QTest::newRow("warm-up") << rate << 1.0 << 2.0 << "warmup" << "warmup" << "must not be negative";
        QTest::newRow("growth") << rate << 1.0 << 2.0 << "growth" << "growth" << "above 1";
        QTest::newRow("resolution") << rate << 1.0 << 2.0 << "resolution" << "resolution" << "below 1";
        QTest::newRow("min achieved") << rate << 1.0 << 2.0 << "achieved" << "min-achieved" << "at most 1";
        QTest::newRow("noise") << rate << 1.0 << 2.0 << "noise" << "noise" << "below 1";
        QTest::newRow("attempts") << rate << 1.0 << 2.0 << "attempts" << "attempts" << "between 1 and 10";
        QTest::newRow("steps") << rate << 1.0 << 2.0 << "steps" << "max-steps" << "between 1 and 1000";
        QTest::newRow("price") << rate << 1.0 << 2.0 << "price" << "price-per-hour" << "positive amount";
        QTest::newRow("objective percentile") << rate << 1.0 << 2.0 << "percentile" << "objective" << "out of range";
        QTest::newRow("objective limit") << rate << 1.0 << 2.0 << "limit" << "objective" << "greater than 0";
    }
    void rejectsInvalidRangesAndOptions()
    {
        QFETCH(int, dimension);
        QFETCH(double, from);
        QFETCH(double, to);
        QFETCH(QString, tweak);
        QFETCH(QString, field);
        QFETCH(QString, message);
        CapacitySearchOptions o;
        o.dimension = CapacityDimension(dimension);
        o.from = from;
        o.to = to;
        if (tweak == "step") o.stepSeconds = 0;
        if (tweak == "warmup") o.warmupSeconds = -1;
        if (tweak == "growth") o.growthFactor = 1;
        if (tweak == "resolution") o.resolution = 1;
        if (tweak == "achieved") o.minAchievedRatio = 1.5;
        if (tweak == "noise") o.noiseTolerance = 1;
        if (tweak == "attempts") o.maxAttempts = 0;
        if (tweak == "steps") o.maxSteps = 0;
        if (tweak == "price") o.pricePerHour = -1;
        if (tweak == "percentile") { o.objective.mean = false; o.objective.percentile = 120; }
        if (tweak == "limit") o.objective.limitNs = 0;
        const auto error = validateCapacityOptions(o);
        QVERIFY(error.has_value());
        QCOMPARE(QString::fromStdString(error->field), field);
        QVERIFY2(QString::fromStdString(error->message).contains(message), error->describe().c_str());

        // The search refuses them too, without running anything.
        ModelRunner runner([](double rate, int) { return openLoopServer(rate); });
        CapacitySearch search(o);
        const CapacityResult result = search.run(runner);
        QCOMPARE(result.stopReason, CapacityStopReason::InvalidOptions);
        QVERIFY(QString::fromStdString(result.stopDetail).startsWith(field + ": "));
        QVERIFY(runner.calls.empty());
        QVERIFY(result.steps.empty());
    }

    void acceptsValidOptions()
    {
        QVERIFY(!validateCapacityOptions(rateOptions(100, 100)).has_value());   // a single step
        CapacitySearchOptions o;
        o.dimension = CapacityDimension::Connections;
        o.from = 1;
        o.to = 100000;
        QVERIFY(!validateCapacityOptions(o).has_value());
        o.dimension = CapacityDimension::Rate;
        o.from = 0.5;   // fractional rates are fine
        QVERIFY(!validateCapacityOptions(o).has_value());
    }

    void dimensions()
    {
        CapacityDimension d {};
        QVERIFY(parseCapacityDimension("pipeline", &d));
        QCOMPARE(d, CapacityDimension::Pipeline);
        QVERIFY(!parseCapacityDimension("clients", &d));
        QVERIFY(capacityDimensionIsInteger(CapacityDimension::Threads));
        QVERIFY(!capacityDimensionIsInteger(CapacityDimension::Rate));
        QCOMPARE(QString::fromStdString(capacitySettingText(CapacityDimension::Rate, 12500)),
                 QStringLiteral("rate 12,500/s"));
        QCOMPARE(QString::fromStdString(capacitySettingText(CapacityDimension::Connections, 1)),
                 QStringLiteral("1 connection"));
        QCOMPARE(QString::fromStdString(capacitySettingText(CapacityDimension::Pipeline, 16)),
                 QStringLiteral("pipeline 16"));
    }
};

QTEST_APPLESS_MAIN(TestCapacityObjectives)
#include "test_capacity_objectives.moc"
