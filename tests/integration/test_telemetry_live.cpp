// Issue 19: the live view's telemetry. Each measured snapshot carries the
// test's telemetry so far, rebuilt only when the sampler has read again; the
// test's record ends with at least what the live view last showed. Real
// redis-server; assertions on what the run recorded, never on time.
#include <QtTest>

#include <set>

#include "engine/run/run_controller.h"
#include "engine/workload/benchmark_suite.h"
#include "support/redis_server.h"
#include "support/run_config_for.h"

using namespace tacho::engine;
using tacho::test::RedisServer;

class TestTelemetryLive : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_server.start(&error), qPrintable(error));
    }

    void snapshotsCarryTheTelemetrySoFar()
    {
        RunConfig config = tacho::test::runConfigFor(m_server);
        config.tests = redisBenchmarkSuite("set", 3, 0);
        config.connections = 4;
        config.requests = 0;
        config.durationSeconds = 2;
        config.warmupSeconds = 0.3;
        config.telemetryIntervalSeconds = 0.25;
        std::vector<std::shared_ptr<const IntervalSnapshot>> snapshots;
        RunController controller(config);
        controller.onSnapshot([&](std::shared_ptr<const IntervalSnapshot> s) { snapshots.push_back(std::move(s)); });
        const RunResult result = controller.run();
        QCOMPARE(result.status, RunStatus::Completed);

        std::set<const TestTelemetry*> distinct;
        std::size_t lastServerPoints = 0;
        std::size_t lastClientPoints = 0;
        const TestTelemetry* last = nullptr;
        for (const auto& s : snapshots) {
            if (s->warmup) {
                QVERIFY2(!s->telemetry, "no telemetry is shown for the warm-up");
                continue;
            }
            if (!s->telemetry)
                continue;   // before the first reading of the measured part
            const TestTelemetry& live = *s->telemetry;
            QVERIFY(live.recorded());
            QCOMPARE(live.servers.size(), std::size_t(1));
            QVERIFY(live.servers[0].unavailable.empty());
            // Points only accumulate; a repeated object is the same reading.
            QVERIFY(live.servers[0].points.size() >= lastServerPoints);
            QVERIFY(live.client.points.size() >= lastClientPoints);
            lastServerPoints = live.servers[0].points.size();
            lastClientPoints = live.client.points.size();
            distinct.insert(&live);
            last = &live;
        }
        QVERIFY2(last, "no snapshot carried telemetry");
        QVERIFY2(lastServerPoints >= 2, qPrintable(QString::number(lastServerPoints)));
        QVERIFY(lastClientPoints >= 2);
        // Rebuilt per reading, not per tick: fewer objects than measured ticks.
        int measuredTicks = 0;
        for (const auto& s : snapshots)
            measuredTicks += s->warmup ? 0 : 1;
        QVERIFY2(int(distinct.size()) < measuredTicks,
                 qPrintable(QString("%1 objects for %2 ticks").arg(distinct.size()).arg(measuredTicks)));
        // The live verdict is judged (the server answered and the engine ran).
        QVERIFY(last->verdict.kind != Bottleneck::Unknown);
        QVERIFY(!last->verdict.reason.empty());
        // The record holds at least what the live view last showed.
        const TestTelemetry& recorded = result.tests.at(0).telemetry;
        QVERIFY(recorded.servers.at(0).points.size() >= lastServerPoints);
        QVERIFY(recorded.client.points.size() >= lastClientPoints);
    }

    void noTelemetryMeansNoneLive()
    {
        RunConfig config = tacho::test::runConfigFor(m_server);
        config.tests = redisBenchmarkSuite("set", 3, 0);
        config.requests = 20000;
        config.telemetry = false;
        int withTelemetry = 0, total = 0;
        RunController controller(config);
        controller.onSnapshot([&](std::shared_ptr<const IntervalSnapshot> s) {
            ++total;
            withTelemetry += s->telemetry ? 1 : 0;
        });
        const RunResult result = controller.run();
        QCOMPARE(result.status, RunStatus::Completed);
        QVERIFY(total > 0);
        QCOMPARE(withTelemetry, 0);
        QVERIFY(!result.tests.at(0).telemetry.recorded());
    }

private:
    RedisServer m_server;
};

QTEST_GUILESS_MAIN(TestTelemetryLive)
#include "test_telemetry_live.moc"
