// Capacity search (issue #7), driven by a synthetic latency model instead of
// a server: the step-up and bisection converge on the knee for continuous
// (rate) and whole-number (connections) dimensions, percentile objectives
// are read from the histogram, noisy steps are repeated (and judged on the
// median when they never settle), every stop condition ends the search with
// its reason, the steps so far survive a stop, invalid objectives and ranges
// are rejected with specific messages; also the sweep table's text and CSV,
// the step configurations the engine runner makes, and the CLI's numbers.
#include <QtTest>

#include <cmath>
#include <functional>
#include <map>

#include "engine/cli/capacity_command.h"
#include "engine/report/sweep_table.h"
#include "engine/run/capacity_search.h"

using namespace tacho::engine;

namespace {

// What the model says one run at a setting gives.
struct Sample {
    double throughput = 0;
    double targetRate = 0;
    double latencyUs = 100;          // the bulk of the requests
    double tailUs = 0;               // 2% of requests at this latency (0: none)
    double firstHalf = -1;           // steadiness within the run
    double secondHalf = -1;
    double uncertainty = 0;
    std::uint64_t errors = 0;
    RunStatus status = RunStatus::Completed;
    std::string failure;
};

class ModelRunner : public CapacityStepRunner {
public:
    explicit ModelRunner(std::function<Sample(double setting, int attempt)> model) : m_model(std::move(model)) {}

    CapacityMeasurement runStep(double setting, int attempt) override
    {
        calls.push_back({ setting, attempt });
        Sample s = m_model(setting, attempt);
        if (stopped)
            s.status = RunStatus::Stopped;
        CapacityMeasurement m;
        m.status = s.status;
        m.failure = s.failure;
        m.seconds = 1;
        m.throughput = s.throughput;
        m.targetRate = s.targetRate;
        m.requests = static_cast<std::uint64_t>(s.throughput);
        m.errors = s.errors;
        if (s.errors)
            m.firstError = "ERR model says no";
        m.firstHalfThroughput = s.firstHalf;
        m.secondHalfThroughput = s.secondHalf;
        m.halvesUncertainty = s.uncertainty;
        const std::uint64_t bulk = s.tailUs > 0 ? 980 : 1000;
        m.latency.recordN(static_cast<std::uint64_t>(s.latencyUs * 1000), bulk);
        if (s.tailUs > 0)
            m.latency.recordN(static_cast<std::uint64_t>(s.tailUs * 1000), 1000 - bulk);
        return m;
    }
    void requestStop() override { stopped = true; }

    std::vector<std::pair<double, int>> calls;
    bool stopped = false;

private:
    std::function<Sample(double, int)> m_model;
};

// An open-loop server with capacity `capacity` requests/s: below it, the
// target is met and latency = base / (1 - load); at or above it, achieved
// throughput is the capacity and latency explodes.
Sample openLoopServer(double rate, double capacity = 10000, double baseUs = 90)
{
    Sample s;
    s.targetRate = rate;
    if (rate < capacity) {
        s.throughput = rate;
        s.latencyUs = baseUs / (1 - rate / capacity);
    } else {
        s.throughput = capacity;
        s.latencyUs = 50000;
    }
    return s;
}

CapacitySearchOptions rateOptions(double from, double to)
{
    CapacitySearchOptions o;
    o.dimension = CapacityDimension::Rate;
    o.from = from;
    o.to = to;
    return o;   // default objective: avg <= 1 ms
}

LatencyObjective objective(const char* text)
{
    LatencyObjective o;
    std::string error;
    if (!parseLatencyObjective(text, &o, &error))
        qFatal("objective %s: %s", text, error.c_str());
    return o;
}

std::string objectiveError(const char* text)
{
    LatencyObjective o;
    std::string error;
    if (parseLatencyObjective(text, &o, &error))
        return "(accepted)";
    return error;
}

} // namespace

class TestCapacitySearch : public QObject {
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

    // ---- the search ----

    void bisectionConvergesOnTheKneeOfTheRate()
    {
        // avg <= 1 ms holds up to 10000 × (1 - 90/1000) = 9100 requests/s.
        const double knee = 9100;
        ModelRunner runner([](double rate, int) { return openLoopServer(rate); });
        CapacitySearch search(rateOptions(500, 100000));
        std::vector<std::size_t> reported;
        search.onStep([&](const CapacityStep& step, const CapacityResult& soFar) {
            reported.push_back(step.number);
            QCOMPARE(soFar.steps.size(), step.number);
        });
        const CapacityResult r = search.run(runner);

        QCOMPARE(r.stopReason, CapacityStopReason::KneeFound);
        QVERIFY(r.best && r.nextFailing);
        const CapacityStep& best = r.steps[*r.best];
        const CapacityStep& next = r.steps[*r.nextFailing];
        QVERIFY(best.met());
        QVERIFY(!next.met());
        QVERIFY2(best.setting <= knee && next.setting > knee,
                 qPrintable(QString("best %1, next %2").arg(best.setting).arg(next.setting)));
        // Within the resolution (5%) of each other, so within 5% of the knee.
        QVERIFY(next.setting - best.setting <= 0.05 * best.setting);
        QVERIFY(best.setting >= knee / 1.05);
        QCOMPARE(r.maxThroughput(), best.throughput);
        QVERIFY(best.objectiveNs <= 1e6);
        QVERIFY(next.objectiveNs > 1e6 || next.verdict == CapacityVerdict::RateShortfall);
        // Geometric steps first: 500, 1000, …, 16000; then bisection.
        QCOMPARE(runner.calls[0].first, 500.0);
        QCOMPARE(runner.calls[1].first, 1000.0);
        QCOMPARE(runner.calls[5].first, 16000.0);
        QCOMPARE(r.steps[5].verdict, CapacityVerdict::RateShortfall);
        QVERIFY(r.steps.size() <= 14);
        QCOMPARE(reported.size(), r.steps.size());
        // The curve is ordered by setting.
        const std::vector<std::size_t> curve = r.curve();
        QCOMPARE(curve.size(), r.steps.size());
        for (std::size_t i = 1; i < curve.size(); ++i)
            QVERIFY(r.steps[curve[i - 1]].setting < r.steps[curve[i]].setting);
        // Every step's statistics come from its histogram.
        QVERIFY(best.p50Ns > 0 && best.p99Ns >= best.p50Ns && best.p999Ns >= best.p99Ns);
        QVERIFY(QString::fromStdString(r.summary()).contains("max throughput meeting avg <= 1 ms"));
    }

    void wholeNumberDimensionsBisectToAdjacentSettings()
    {
        // Closed loop against a serial server: latency grows with connections.
        CapacitySearchOptions o;
        o.dimension = CapacityDimension::Connections;
        o.from = 1;
        o.to = 64;
        ModelRunner runner([](double connections, int) {
            Sample s;
            s.latencyUs = 300 * connections;   // 0.9 ms at 3, 1.2 ms at 4
            s.throughput = connections / (s.latencyUs / 1e6);
            return s;
        });
        CapacitySearch search(o);
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::KneeFound);
        std::vector<double> settings;
        for (const CapacityStep& s : r.steps)
            settings.push_back(s.setting);
        QCOMPARE(settings, (std::vector<double> { 1, 2, 4, 3 }));
        QCOMPARE(r.steps[*r.nextFailing].setting, 4.0);
        QVERIFY(r.steps[*r.best].met());
        // Flat throughput: on a tie the higher setting proves it.
        QCOMPARE(r.steps[*r.best].setting, 3.0);
    }

    void percentileObjectivesReadThePercentile()
    {
        // The average stays low while the tail (2% of requests) grows with the rate.
        CapacitySearchOptions o = rateOptions(1000, 64000);
        o.objective = objective("p99<=2ms");
        ModelRunner runner([](double rate, int) {
            Sample s;
            s.targetRate = rate;
            s.throughput = rate;
            s.latencyUs = 100;
            s.tailUs = rate / 10;   // p99 = rate/10 µs: 2 ms at 20000/s
            return s;
        });
        CapacitySearch search(o);
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::KneeFound);
        const CapacityStep& best = r.steps[*r.best];
        const CapacityStep& next = r.steps[*r.nextFailing];
        QVERIFY(best.objectiveNs <= 2e6 && next.objectiveNs > 2e6);
        QVERIFY(best.setting >= 20000 / 1.06 && next.setting <= 20000 * 1.06);
        QVERIFY(best.meanNs < 1e6 && next.meanNs < 1e6);   // the average alone would never fail
        QCOMPARE(best.objectiveNs, best.p99Ns);
        QVERIFY(next.reason.find("p99") != std::string::npos);
    }

    // ---- noise ----

    void repeatsANoisyStepUntilItIsSteady()
    {
        CapacitySearchOptions o = rateOptions(1000, 1000);
        ModelRunner runner([](double rate, int attempt) {
            Sample s = openLoopServer(rate);
            // The first run's halves differ by 40%: a noisy neighbour.
            s.firstHalf = attempt == 1 ? rate * 0.7 : rate;
            s.secondHalf = attempt == 1 ? rate * 1.2 : rate;
            s.throughput = attempt == 1 ? rate * 0.6 : rate;   // and it disagrees with the second run
            return s;
        });
        CapacitySearch search(o);
        std::vector<std::pair<double, int>> repeats;
        search.onRepeat([&](double setting, int attempt, const std::string& why) {
            repeats.push_back({ setting, attempt });
            QVERIFY(why.find("unsteady") != std::string::npos);
        });
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.steps.size(), std::size_t(1));
        const CapacityStep& s = r.steps.front();
        QCOMPARE(s.attempts, 2);
        QVERIFY(!s.noisy);
        QCOMPARE(s.keptAttempt, std::size_t(1));
        QCOMPARE(s.throughput, 1000.0);
        QCOMPARE(s.attemptThroughputs, (std::vector<double> { 600, 1000 }));
        QCOMPARE(repeats, (std::vector<std::pair<double, int>> { { 1000.0, 2 } }));
        QCOMPARE(r.stopReason, CapacityStopReason::RangeEnded);
    }

    void twoRunsThatAgreeSettleAStep()
    {
        ModelRunner runner([](double rate, int attempt) {
            Sample s = openLoopServer(rate);
            s.firstHalf = rate * 0.6;   // every run is unsteady within itself…
            s.secondHalf = rate * 1.2;
            s.throughput = rate * (attempt == 1 ? 1.0 : 0.95);   // …but the runs agree within 10%
            return s;
        });
        CapacitySearch search(rateOptions(1000, 1000));
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.steps.front().attempts, 2);
        QVERIFY(!r.steps.front().noisy);
    }

    void samplingUncertaintyIsNotNoise()
    {
        // Halves 18% apart, but tick sampling explains 10%: 18% <= 10% + 10%.
        ModelRunner runner([](double rate, int) {
            Sample s = openLoopServer(rate);
            s.firstHalf = rate * 0.9;
            s.secondHalf = rate * 1.1;
            s.uncertainty = 0.10;
            return s;
        });
        CapacitySearch search(rateOptions(1000, 1000));
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.steps.front().attempts, 1);
        QCOMPARE(runner.calls.size(), std::size_t(1));
    }

    void aStepThatNeverSettlesIsJudgedOnTheMedianAndFlagged()
    {
        CapacitySearchOptions o = rateOptions(1000, 1000);
        o.maxAttempts = 3;
        ModelRunner runner([](double rate, int attempt) {
            Sample s = openLoopServer(rate);
            s.firstHalf = rate * 0.5;
            s.secondHalf = rate;
            s.throughput = rate * (attempt == 1 ? 0.5 : attempt == 2 ? 1.0 : 0.75);
            return s;
        });
        CapacitySearch search(o);
        const CapacityResult r = search.run(runner);
        const CapacityStep& s = r.steps.front();
        QCOMPARE(s.attempts, 3);
        QVERIFY(s.noisy);
        QCOMPARE(s.throughput, 750.0);           // the median run
        QCOMPARE(s.keptAttempt, std::size_t(2));
        // 750 of 1000 asked is a shortfall: the noisy step does not pass.
        QCOMPARE(s.verdict, CapacityVerdict::RateShortfall);
        QVERIFY(s.reason.find("unsteady: 3 runs gave 500, 1,000, 750 ops/s") != std::string::npos);
        QCOMPARE(r.stopReason, CapacityStopReason::NotMetAtStart);
    }

    // ---- stop conditions ----

    void serverErrorsFailAStep()
    {
        ModelRunner runner([](double rate, int) {
            Sample s = openLoopServer(rate);
            if (rate >= 4000)
                s.errors = 3;   // e.g. OOM or max clients past this load
            return s;
        });
        CapacitySearch search(rateOptions(1000, 100000));
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::KneeFound);
        const CapacityStep& next = r.steps[*r.nextFailing];
        QCOMPARE(next.verdict, CapacityVerdict::ServerErrors);
        QVERIFY(next.reason.find("3 requests with errors (first: ERR model says no)") != std::string::npos);
        QVERIFY(r.steps[*r.best].setting < 4000);
        QVERIFY(r.steps[*r.best].setting >= 4000 / 1.05);

        // Up to --max-errors error replies are tolerated.
        CapacitySearchOptions tolerant = rateOptions(1000, 5000);
        tolerant.maxErrors = 3;
        CapacitySearch again(tolerant);
        ModelRunner runner2([](double rate, int) {
            Sample s = openLoopServer(rate);
            s.errors = 3;
            return s;
        });
        QCOMPARE(again.run(runner2).stopReason, CapacityStopReason::RangeEnded);
    }

    void rateShortfallFailsAStep()
    {
        // Latency stays low but the server (or client) cannot keep up past 5000/s.
        ModelRunner runner([](double rate, int) {
            Sample s;
            s.targetRate = rate;
            s.throughput = std::min(rate, 5000.0);
            s.latencyUs = 200;
            return s;
        });
        CapacitySearchOptions o = rateOptions(1000, 100000);
        CapacitySearch search(o);
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::KneeFound);
        const CapacityStep& next = r.steps[*r.nextFailing];
        QCOMPARE(next.verdict, CapacityVerdict::RateShortfall);
        QVERIFY(next.throughput < 0.95 * next.targetRate);
        QVERIFY(next.reason.find("achieved 5,000 of the") != std::string::npos);
        // 95% of the target still passes: the knee lies in (5000, 5000 / 0.95].
        const CapacityStep& best = r.steps[*r.best];
        QVERIFY(best.setting > 5000 && best.setting <= 5000 / 0.95);
    }

    void theRangeCanEndBeforeTheKnee()
    {
        ModelRunner runner([](double rate, int) { return openLoopServer(rate); });
        CapacitySearchOptions o = rateOptions(1000, 5000);
        o.pricePerHour = 0.5;
        CapacitySearch search(o);
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::RangeEnded);
        std::vector<double> settings;
        for (const CapacityStep& s : r.steps)
            settings.push_back(s.setting);
        QCOMPARE(settings, (std::vector<double> { 1000, 2000, 4000, 5000 }));   // the last step is `to`
        QCOMPARE(r.steps[*r.best].setting, 5000.0);
        QVERIFY(!r.nextFailing);
        QCOMPARE(r.throughputPerDollarHour(), 10000.0);   // 5000 ops/s at $0.5/h
        QVERIFY(QString::fromStdString(r.summary()).contains("10,000 ops/s per $/h"));
        QVERIFY(QString::fromStdString(r.summary()).contains("range ended"));
    }

    void notMetAtTheStart()
    {
        ModelRunner runner([](double rate, int) { return openLoopServer(rate); });
        CapacitySearch search(rateOptions(20000, 100000));
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::NotMetAtStart);
        QCOMPARE(r.steps.size(), std::size_t(1));
        QVERIFY(!r.best);
        QCOMPARE(r.nextFailing, std::optional<std::size_t>(0));
        QCOMPARE(r.maxThroughput(), 0.0);
        QCOMPARE(r.throughputPerDollarHour(), 0.0);
        QVERIFY(QString::fromStdString(r.summary()).contains("no step met"));
        QVERIFY(QString::fromStdString(r.stopDetail).contains("start lower"));
    }

    void aFailedFirstRunEndsTheSearch()
    {
        ModelRunner runner([](double, int) {
            Sample s;
            s.status = RunStatus::Failed;
            s.failure = "cannot connect to 127.0.0.1:1: Connection refused";
            return s;
        });
        CapacitySearch search(rateOptions(1000, 100000));
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::Failed);
        QCOMPARE(r.steps.size(), std::size_t(1));
        QCOMPARE(r.steps.front().verdict, CapacityVerdict::Failed);
        QCOMPARE(r.steps.front().attempts, 1);   // failures are not repeated
        QVERIFY(QString::fromStdString(r.stopDetail).contains("Connection refused"));
    }

    void aFailedRunHigherUpIsAFailedStep()
    {
        // e.g. the open-files limit at many connections: bisect below it.
        CapacitySearchOptions o;
        o.dimension = CapacityDimension::Connections;
        o.from = 10;
        o.to = 10000;
        ModelRunner runner([](double connections, int) {
            Sample s;
            s.throughput = 1000;
            s.latencyUs = 100;
            if (connections > 1000) {
                s.status = RunStatus::Failed;
                s.failure = "open files limit";
            }
            return s;
        });
        CapacitySearch search(o);
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::KneeFound);
        QCOMPARE(r.steps[*r.nextFailing].setting, 1001.0);
        QCOMPARE(r.steps[*r.nextFailing].verdict, CapacityVerdict::Failed);
    }

    void stopsAtAnyTimeKeepingTheSteps()
    {
        ModelRunner runner([](double rate, int) { return openLoopServer(rate); });
        CapacitySearch search(rateOptions(500, 100000));
        search.onStep([&](const CapacityStep& step, const CapacityResult&) {
            if (step.number == 3)
                search.requestStop();   // as Ctrl+C or the GUI's Stop would, from any thread
        });
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::Stopped);
        QCOMPARE(r.steps.size(), std::size_t(3));
        QVERIFY(runner.stopped);   // forwarded to the runner
        QVERIFY(r.best);
        QCOMPARE(r.steps[*r.best].setting, 2000.0);
        QVERIFY(!r.nextFailing);
    }

    void aStepStoppedHalfwayEndsTheSearch()
    {
        ModelRunner* self = nullptr;
        ModelRunner runner([&](double rate, int) {
            Sample s = openLoopServer(rate);
            if (rate >= 4000)
                self->requestStop();   // the runner is stopped during this step
            return s;
        });
        self = &runner;
        CapacitySearch search(rateOptions(1000, 100000));
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::Stopped);
        QCOMPARE(r.steps.size(), std::size_t(3));
        QCOMPARE(r.steps.back().verdict, CapacityVerdict::Stopped);
        QVERIFY(!r.steps.back().met());
        QCOMPARE(r.steps[*r.best].setting, 2000.0);
        QVERIFY(!r.nextFailing);   // a stopped step proves nothing
    }

    void theStepLimitEndsTheSearch()
    {
        ModelRunner runner([](double rate, int) { return openLoopServer(rate); });
        CapacitySearchOptions o = rateOptions(500, 100000);
        o.maxSteps = 7;
        CapacitySearch search(o);
        const CapacityResult r = search.run(runner);
        QCOMPARE(r.stopReason, CapacityStopReason::StepLimit);
        QCOMPARE(r.steps.size(), std::size_t(7));
        QVERIFY(r.best && r.nextFailing);
        QVERIFY(QString::fromStdString(r.stopDetail).contains("knee between"));
    }

    // ---- helpers around the engine ----

    void halvesFromIntervals()
    {
        TestResult t;
        for (int i = 0; i < 10; ++i) {
            IntervalPoint p;
            p.startSeconds = i * 0.1;
            p.endSeconds = (i + 1) * 0.1;
            p.requests = i < 5 ? 100 : 50;
            t.intervals.push_back(p);
        }
        double first = 0, second = 0, uncertainty = 0;
        QVERIFY(halfThroughputs(t, 0.1, &first, &second, &uncertainty));
        QVERIFY(std::fabs(first - 1000) < 1e-6);
        QVERIFY(std::fabs(second - 500) < 1e-6);
        QVERIFY(std::fabs(uncertainty - 0.4) < 1e-9);   // 0.1 × (1/0.5 + 1/0.5)
        t.intervals.resize(1);
        QVERIFY(!halfThroughputs(t, 0.1, &first, &second, &uncertainty));
    }

    void runnerConfiguresEachStep()
    {
        RunConfig base;
        base.connections = 50;
        base.threads = 4;
        base.pipeline = 1;
        base.requests = 100000;
        base.ratePerConnection = 10;
        base.rampStartConnections = 5;
        base.rampStep = 5;
        base.rampStepSeconds = 1;
        base.tests.resize(3);
        base.tests[0].name = "SET";

        RunControllerStepRunner rate(base, CapacityDimension::Rate, 2.5, 0.5);
        RunConfig c = rate.configFor(12000);
        QCOMPARE(c.rate, 12000.0);
        QCOMPARE(c.ratePerConnection, 0.0);
        QCOMPARE(c.requests, std::uint64_t(0));
        QCOMPARE(c.durationSeconds, 2.5);
        QCOMPARE(c.warmupSeconds, 0.5);
        QCOMPARE(c.tests.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(c.tests[0].name), QStringLiteral("SET"));
        QCOMPARE(c.rampStep, 0);

        RunControllerStepRunner connections(base, CapacityDimension::Connections, 1, 0);
        c = connections.configFor(2);
        QCOMPARE(c.connections, 2);
        QCOMPARE(c.threads, 2);   // never more threads than connections

        RunControllerStepRunner threads(base, CapacityDimension::Threads, 1, 0);
        QCOMPARE(threads.configFor(8).threads, 8);
        QCOMPARE(threads.configFor(8).connections, 50);
        threads.setConnectionsPerThread(25);   // memtier: threads × clients
        QCOMPARE(threads.configFor(8).connections, 200);

        RunControllerStepRunner pipeline(base, CapacityDimension::Pipeline, 1, 0);
        QCOMPARE(pipeline.configFor(16).pipeline, 16);

        // A stop before anything ran: every step returns Stopped at once.
        rate.requestStop();
        const CapacityMeasurement m = rate.runStep(1000, 1);
        QCOMPARE(m.status, RunStatus::Stopped);
        QVERIFY(rate.stepTests().empty());
    }

    void scaledNumbers()
    {
        double v = 0;
        QVERIFY(parseScaledNumber("2.5k", &v));
        QCOMPARE(v, 2500.0);
        QVERIFY(parseScaledNumber("1M", &v));
        QCOMPARE(v, 1e6);
        QVERIFY(parseScaledNumber("40", &v));
        QCOMPARE(v, 40.0);
        QVERIFY(!parseScaledNumber("k", &v));
        QVERIFY(!parseScaledNumber("12x", &v));
        QVERIFY(!parseScaledNumber("", &v));
    }

    // ---- sweep tables ----

    void sweepTableHasTheSeedsShape()
    {
        SweepTable table;
        table.settingColumns = { "Connections", "TLS" };
        const auto row = [](std::string connections, std::string tls, double qps, double avg, double p99, double p999) {
            SweepRow r;
            r.settings = { std::move(connections), std::move(tls) };
            r.test = "SET";
            r.qps = qps;
            r.avgMs = avg;
            r.p99Ms = p99;
            r.p999Ms = p999;
            r.requests = 1000;
            r.crossCheck.available = true;
            r.crossCheck.serverCalls = 1000;
            r.crossCheck.clientRequests = 1000;
            return r;
        };
        table.rows.push_back(row("1000", "off", 322899.21, 2.661, 4.319, 8.511));
        table.rows.push_back(row("10000", "on", 111913.19, 57.537, 96.767, 121.343));
        SweepRow failed;
        failed.settings = { "3000", "on" };
        failed.status = RunStatus::Failed;
        failed.failure = "TLS handshake failed, \"bad\"";
        table.rows.push_back(failed);

        const QString text = QString::fromStdString(formatSweepTable(table));
        const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].startsWith("Connections  TLS"));
        QVERIFY(lines[0].contains("QPS"));
        QVERIFY(lines[0].contains("Average Latency (ms)"));
        QVERIFY(lines[0].contains("99th-Percentile Latency (ms)"));
        QVERIFY(lines[0].contains("99.9th-Percentile Latency (ms)"));
        QVERIFY(lines[1].contains("322,899.21"));
        QVERIFY(lines[1].contains("2.661"));
        QVERIFY(lines[1].contains("8.511"));
        QVERIFY(lines[1].contains("agrees"));
        QVERIFY(lines[2].startsWith("10000"));
        QVERIFY(lines[2].contains("111,913.19"));
        QVERIFY(lines[3].contains("failed: TLS handshake failed"));
        QVERIFY(!lines[0].contains("Test"));   // one test per setting: no Test column

        const QString csv = QString::fromStdString(sweepTableCsv(table));
        const QStringList rows = csv.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 4);
        QVERIFY(rows[0].startsWith("connections,tls,qps,avg_ms,p50_ms,p99_ms,p999_ms,max_ms,requests"));
        QVERIFY(rows[1].startsWith("1000,off,322899.21,2.661,"));
        QVERIFY(rows[1].contains(",1000,true,completed,"));
        QVERIFY(rows[3].endsWith("\"TLS handshake failed, \"\"bad\"\"\""));

        table.showTest = true;
        QVERIFY(QString::fromStdString(formatSweepTable(table)).split('\n')[0].contains("Test"));
        QVERIFY(QString::fromStdString(sweepTableCsv(table)).startsWith("connections,tls,test,qps"));
    }

    void sweepRowFromATest()
    {
        TestResult t;
        t.name = "GET";
        t.requests = 2000;
        t.seconds = 2;
        t.warmupRequests = 10;
        for (int i = 0; i < 100; ++i)
            t.latency.record(1'000'000);   // 1 ms
        const SweepRow row = sweepRowFromTest({ "50" }, t);
        QCOMPARE(row.qps, 1000.0);
        QVERIFY(std::fabs(row.avgMs - 1.0) < 0.01);
        QVERIFY(std::fabs(row.p99Ms - 1.0) < 0.01);
        QCOMPARE(row.warmupRequests, std::uint64_t(10));
        QCOMPARE(QString::fromStdString(row.test), QStringLiteral("GET"));
    }
};

QTEST_APPLESS_MAIN(TestCapacitySearch)
#include "test_capacity_search.moc"
