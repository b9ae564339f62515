// Issue 21: the coordinator's merge of the agents' streamed intervals — each
// seq counted once (a copy posted again after a control server's restart is
// ignored), a gap noticed and closed by the late copy, per-second merging
// across agents, and what a lost agent delivered. No server: the entries as
// the stream carries them.
#include <QTest>

#include <string>
#include <vector>

#include "engine/fleet/fleet_protocol.h"
#include "engine/fleet/interval_merger.h"
#include "engine/stats/latency_histogram.h"

using namespace tacho::engine;

namespace {

// `requests` replies of `latencyUs` µs each, one command.
FleetInterval interval(const std::string& agent, std::uint64_t seq, std::uint64_t second, std::uint64_t requests,
                       std::uint64_t latencyUs = 100, std::size_t test = 0)
{
    FleetInterval i;
    i.agent = agent;
    i.seq = seq;
    i.test = test;
    i.testName = test == 0 ? "SET" : "GET";
    i.second = second;
    i.startSeconds = double(second);
    i.endSeconds = double(second) + 1;
    LatencyHistogram latency;
    latency.recordN(latencyUs * 1000, requests);
    FleetCommandInterval command;
    command.requests = requests;
    command.errors = requests / 10;
    command.latency = requests ? latency.toCompressedBase64() : std::string();
    i.commands.push_back(command);
    return i;
}

// The entry as it travels: fields and back.
FleetInterval throughStream(const FleetInterval& sent)
{
    FleetInterval received;
    if (!fleetIntervalFromFields(fleetIntervalFields(sent), received))
        QTest::qFail("the interval did not survive its fields", __FILE__, __LINE__);
    return received;
}

} // namespace

class TestIntervalMerger : public QObject {
    Q_OBJECT

private slots:
    void fieldsCarryEverything()
    {
        FleetInterval sent = interval("a", 7, 3, 250, 420, 1);
        sent.startSeconds = 3.05;
        sent.endSeconds = 4.125;
        sent.sentAtMs = 1700000000123;
        const FleetInterval back = throughStream(sent);
        QCOMPARE(back.agent, std::string("a"));
        QCOMPARE(back.seq, std::uint64_t(7));
        QCOMPARE(back.test, std::size_t(1));
        QCOMPARE(back.testName, std::string("GET"));
        QCOMPARE(back.second, std::uint64_t(3));
        QCOMPARE(back.startSeconds, 3.05);
        QCOMPARE(back.endSeconds, 4.125);
        QCOMPARE(back.sentAtMs, std::int64_t(1700000000123));
        QCOMPARE(back.requests(), std::uint64_t(250));
        QCOMPARE(back.errors(), std::uint64_t(25));
        LatencyHistogram latency;
        QVERIFY(LatencyHistogram::fromCompressedBase64(back.commands.at(0).latency, latency));
        QCOMPARE(latency.count(), std::uint64_t(250));

        // Not an interval: no agent, no seq.
        FleetInterval out;
        QVERIFY(!fleetIntervalFromFields({ { "seq", "1" }, { "commands", "[]" } }, out));
        QVERIFY(!fleetIntervalFromFields({ { "agent", "a" }, { "seq", "0" }, { "commands", "[]" } }, out));
        QVERIFY(!fleetIntervalFromFields({ { "agent", "a" }, { "seq", "1" }, { "commands", "{}" } }, out));
    }

    void eachSeqCountsOnce()
    {
        IntervalMerger merger({ "a", "b" });
        QCOMPARE(merger.add(throughStream(interval("a", 1, 0, 100))), IntervalMerger::Added::New);
        QCOMPARE(merger.add(throughStream(interval("a", 2, 1, 100))), IntervalMerger::Added::New);
        // Posted again after a restart: the same seq, ignored.
        QCOMPARE(merger.add(throughStream(interval("a", 2, 1, 100))), IntervalMerger::Added::Duplicate);
        QCOMPARE(merger.add(throughStream(interval("a", 1, 0, 100))), IntervalMerger::Added::Duplicate);
        QCOMPARE(merger.add(interval("zz", 1, 0, 100)), IntervalMerger::Added::UnknownAgent);
        const IntervalMerger::AgentTally& a = *merger.agent("a");
        QCOMPARE(a.received, std::uint64_t(2));
        QCOMPARE(a.duplicates, std::uint64_t(2));
        QCOMPARE(a.requests(), std::uint64_t(200));
        QCOMPARE(merger.seconds().at({ 0, 1 }).requests, std::uint64_t(100));
        QVERIFY(merger.agent("zz") == nullptr);
    }

    void aGapIsNoticedAndClosedByTheLateCopy()
    {
        IntervalMerger merger({ "a" });
        merger.add(interval("a", 1, 0, 10));
        merger.add(interval("a", 4, 3, 40));
        merger.add(interval("a", 2, 1, 20));
        const IntervalMerger::AgentTally& a = *merger.agent("a");
        QCOMPARE(a.complete, std::uint64_t(2));
        QCOMPARE(a.lastSeq, std::uint64_t(4));
        QCOMPARE(a.missing(), (std::vector<std::uint64_t> { 3 }));
        QCOMPARE(a.requests(), std::uint64_t(70));
        QCOMPARE(merger.add(interval("a", 3, 2, 30)), IntervalMerger::Added::New);
        QCOMPARE(a.complete, std::uint64_t(4));
        QVERIFY(a.missing().empty());
        QCOMPARE(a.requests(), std::uint64_t(100));
        QCOMPARE(merger.add(interval("a", 3, 2, 30)), IntervalMerger::Added::Duplicate);
        QCOMPARE(a.requests(), std::uint64_t(100));
    }

    // The same second of the same test from every agent: counts summed,
    // histograms merged losslessly, each agent's share kept.
    void secondsAreMergedAcrossAgents()
    {
        IntervalMerger merger({ "a", "b" });
        merger.add(throughStream(interval("a", 1, 0, 300, 100)));
        merger.add(throughStream(interval("b", 1, 0, 100, 5000)));
        merger.add(throughStream(interval("b", 2, 0, 50, 100, 1)));   // the next test's first second
        const IntervalMerger::Second& first = merger.seconds().at({ 0, 0 });
        QCOMPARE(first.requests, std::uint64_t(400));
        QCOMPARE(first.errors, std::uint64_t(40));
        QCOMPARE(first.agents.at("a").requests, std::uint64_t(300));
        QCOMPARE(first.agents.at("b").requests, std::uint64_t(100));
        QCOMPARE(first.perSecond(), 400.0);
        const LatencyHistogram latency = first.mergedLatency();
        QCOMPARE(latency.count(), std::uint64_t(400));
        // 300 at 100 µs, 100 at 5 ms: the median is the fast one, p99 the slow one.
        QVERIFY(latency.valueAtPercentile(50) < 200'000);
        QVERIFY(latency.valueAtPercentile(99) > 4'000'000);
        QCOMPARE(merger.seconds().at({ 1, 0 }).testName, std::string("GET"));
        // Per agent and test.
        QCOMPARE(merger.agent("b")->tests.at(0).requests, std::uint64_t(100));
        QCOMPARE(merger.agent("b")->tests.at(1).requests, std::uint64_t(50));
        QCOMPARE(merger.agent("b")->tests.at(0).latency.count(), std::uint64_t(100));
        QCOMPARE(merger.agent("b")->seconds(), 2.0);
    }

    // A second is shown once every agent has gone past it (or finished).
    void secondsAreReadyWhenEveryAgentIsPast()
    {
        IntervalMerger merger({ "a", "b" });
        merger.add(interval("a", 1, 0, 10));
        merger.add(interval("b", 1, 0, 10));
        QVERIFY(merger.takeReady({}).empty());
        merger.add(interval("a", 2, 1, 10));
        QVERIFY(merger.takeReady({}).empty());
        merger.add(interval("b", 2, 1, 10));
        auto ready = merger.takeReady({});
        QCOMPARE(ready.size(), std::size_t(1));
        QCOMPARE(ready.front()->key.second, std::uint64_t(0));
        QVERIFY(merger.takeReady({}).empty());   // each once
        // b lost: a alone decides.
        merger.add(interval("a", 3, 2, 10));
        ready = merger.takeReady({ "b" });
        QCOMPARE(ready.size(), std::size_t(1));
        QCOMPARE(ready.front()->key.second, std::uint64_t(1));
        ready = merger.takeReady({ "a", "b" });
        QCOMPARE(ready.size(), std::size_t(1));
        QCOMPARE(ready.front()->key.second, std::uint64_t(2));
    }
};

QTEST_GUILESS_MAIN(TestIntervalMerger)
#include "test_interval_merger.moc"
