// Capacity search (issue #7), driven by a synthetic latency model instead of
// a server (capacity_model.h): the step-up and bisection converge on the knee
// for continuous (rate) and whole-number (connections) dimensions, percentile
// objectives are read from the histogram, noisy steps are repeated (and judged
// on the median when they never settle), every stop condition ends the search
// with its reason, the steps so far survive a stop.
#include <QtTest>

#include <cmath>
#include <map>

#include "engine/cli/capacity_command.h"
#include "engine/report/sweep_table.h"
#include "engine/run/capacity_search.h"

#include "capacity_model.h"

using namespace tacho::engine;
using namespace tacho::test::capacity_model;

class TestCapacitySearch : public QObject {
    Q_OBJECT

private slots:
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
};

QTEST_APPLESS_MAIN(TestCapacitySearch)
#include "test_capacity_search.moc"
