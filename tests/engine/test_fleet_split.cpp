// Issue 21: how one redis-benchmark line is divided among agents, and the
// messages the agents and the coordinator exchange.
#include <QTest>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "engine/cli/fleet_split.h"
#include "engine/cli/secrets.h"
#include "engine/fleet/fleet_protocol.h"

using namespace tacho::engine;

namespace {

std::vector<std::string> words(std::initializer_list<const char*> list)
{
    return { list.begin(), list.end() };
}

// The value after `option` in args before the command ("" when absent).
std::string valueOf(const std::vector<std::string>& args, const std::string& option)
{
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == option)
            return args[i + 1];
    return {};
}

int occurrences(const std::vector<std::string>& args, const std::string& word)
{
    return int(std::count(args.begin(), args.end(), word));
}

} // namespace

class TestFleetSplit : public QObject {
    Q_OBJECT

private slots:
    // Every total, every number of parts: the shares add up and differ by at most one.
    void sharesAddUp()
    {
        for (std::uint64_t total : { 0ull, 1ull, 2ull, 7ull, 1000ull, 1001ull, 18446744073709551615ull })
            for (int count = 1; count <= 7; ++count) {
                std::uint64_t sum = 0, low = UINT64_MAX, high = 0;
                for (int i = 0; i < count; ++i) {
                    const std::uint64_t share = shareOf(total, i, count);
                    sum += share;
                    low = std::min(low, share);
                    high = std::max(high, share);
                }
                QCOMPARE(sum, total);
                QVERIFY(high - low <= 1);
            }
    }

    void fleetOptionsAreTakenOut()
    {
        auto args = words({ "-p", "7000", "--agents", "3", "-t", "set", "--control", "redis://h:1", "-q" });
        const FleetOptions fleet = takeRedisBenchmarkFleetOptions(args);
        QVERIFY(fleet.given);
        QCOMPARE(fleet.agentCount, 3);
        QCOMPARE(fleet.controlUri, std::string("redis://h:1"));
        QCOMPARE(args, words({ "-p", "7000", "-t", "set", "-q" }));

        auto named = words({ "--agents", "b,a", "--control", "redis://h", "SET", "k", "--agents" });
        const FleetOptions byName = takeRedisBenchmarkFleetOptions(named);
        QCOMPARE(byName.names, words({ "b", "a" }));
        // The command's own words stay, even one spelled like the option.
        QCOMPARE(named, words({ "SET", "k", "--agents" }));

        // A value that is an option's word is still a value.
        auto valued = words({ "-a", "--agents", "-n", "5" });
        QVERIFY(!takeRedisBenchmarkFleetOptions(valued).given);
        QCOMPARE(valued, words({ "-a", "--agents", "-n", "5" }));

        for (auto bad : { words({ "--agents", "3" }), words({ "--control", "redis://h" }),
                          words({ "--agents", "a,,b", "--control", "redis://h" }),
                          words({ "--agents", "a,a", "--control", "redis://h" }),
                          words({ "--agents", "0", "--control", "redis://h" }), words({ "--agents" }) }) {
            bool thrown = false;
            try {
                takeRedisBenchmarkFleetOptions(bad);
            } catch (const UsageError&) {
                thrown = true;
            }
            QVERIFY(thrown);
        }
    }

    // Each agent's line parses, and the agents' requests, connections and
    // rates add up to the line's; what each must not carry is gone.
    void sharesOfALine()
    {
        const auto line = words({ "-a", "pw", "-h", "127.0.0.1", "-n", "1001", "-c", "10", "--rate", "1000",
                                  "--json", "out.json", "-t", "set,get", "-q" });
        const RedisBenchmarkInvocation whole = parseRedisBenchmarkArgs(line);
        for (int count = 1; count <= 4; ++count) {
            std::uint64_t requests = 0;
            int connections = 0;
            double rate = 0;
            for (int i = 0; i < count; ++i) {
                const auto share = redisBenchmarkShare(line, whole, i, count);
                QCOMPARE(occurrences(share, "-a"), 0);
                QCOMPARE(occurrences(share, "pw"), 0);
                QCOMPARE(occurrences(share, "--json"), 0);
                QCOMPARE(occurrences(share, "-n"), 1);
                QCOMPARE(valueOf(share, "-t"), std::string("set,get"));
                const RedisBenchmarkInvocation part = parseRedisBenchmarkArgs(share);
                requests += part.config.requests;
                connections += part.config.connections;
                rate += part.config.rate;
                QCOMPARE(part.config.endpoint.host, std::string("127.0.0.1"));
            }
            QCOMPARE(requests, std::uint64_t(1001));
            QCOMPARE(connections, 10);
            QVERIFY(std::abs(rate - 1000) < 1e-6);
        }
        // --duration alone: no request count appears.
        const auto timed = words({ "--duration", "5", "-c", "4", "SET", "k", "-n" });
        const auto share = redisBenchmarkShare(timed, parseRedisBenchmarkArgs(timed), 0, 2);
        QCOMPARE(parseRedisBenchmarkArgs(share).config.requests, std::uint64_t(0));
        QCOMPARE(std::vector<std::string>(share.end() - 3, share.end()), words({ "SET", "k", "-n" }));
        // The default -n (100000) is divided too.
        const auto plain = words({ "-c", "3" });
        QCOMPARE(parseRedisBenchmarkArgs(redisBenchmarkShare(plain, parseRedisBenchmarkArgs(plain), 2, 3)).config.requests,
                 std::uint64_t(33333));
    }

    void whatCannotBeDivided()
    {
        const std::vector<std::vector<std::string>> lines = {
            words({ "-c", "2" }), words({ "-n", "2", "-c", "5" }), words({ "-I", "-c", "5" }),
            words({ "--prometheus-file", "m.prom", "-c", "5" }), words({ "-u", "redis://:pw@h", "-c", "5" }),
        };
        for (const auto& line : lines) {
            bool thrown = false;
            try {
                checkRedisBenchmarkDivisible(line, parseRedisBenchmarkArgs(line), 3);
            } catch (const UsageError&) {
                thrown = true;
            }
            QVERIFY2(thrown, line.front().c_str());
        }
        // An endless loop runs until the coordinator is stopped; the clean-up
        // is the coordinator's, once, so the shares do not carry it.
        for (const auto& fine : { words({ "-u", "redis://h:7000", "-c", "3" }), words({ "-l", "-c", "5" }),
                                  words({ "--cleanup", "-c", "5" }) }) {
            const RedisBenchmarkInvocation parsed = parseRedisBenchmarkArgs(fine);
            checkRedisBenchmarkDivisible(fine, parsed, 3);
            const auto share = redisBenchmarkShare(fine, parsed, 0, 3);
            QVERIFY(std::find(share.begin(), share.end(), "--cleanup") == share.end());
            QCOMPARE(parseRedisBenchmarkArgs(share).config.loop, parsed.config.loop);
        }
    }

    // memtier: connections and the P:P key range divided exactly; the shares parse.
    void memtierShares()
    {
        for (const auto& line : { words({ "-t", "4", "-c", "5", "--ratio=1:0", "--key-pattern=P:P",
                                           "--key-minimum=1", "--key-maximum=1000", "-n", "allkeys", "--json",
                                           "x.json", "--authenticate=pw", "--rate=900", "--out-file=o.txt",
                                           "--json-out-file", "o.json", "--hdr-file-prefix=h", "--cleanup",
                                           "-x", "2" }),
                                   words({ "-t", "1", "-c", "7", "--test-time=5", "--key-pattern=R:R" }) }) {
            const MemtierInvocation whole = parseMemtierArgs(line);
            for (int count = 1; count <= 3; ++count) {
                int connections = 0;
                double rate = 0;
                std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
                for (int i = 0; i < count; ++i) {
                    const auto share = memtierShare(line, whole, i, count);
                    // The coordinator's outputs and clean-up are not the agents'.
                    for (const std::string& word : share)
                        for (const char* coordinators : { "--json", "--authenticate", "--out-file", "--hdr-file-prefix",
                                                          "--cleanup" })
                            QVERIFY2(word.rfind(coordinators, 0) != 0, word.c_str());
                    const MemtierInvocation part = parseMemtierArgs(share);
                    connections += part.config.connections;
                    rate += part.config.rate;
                    ranges.emplace_back(part.workload.keys.minimum, part.workload.keys.maximum);
                    QCOMPARE(part.requestsPerClient, whole.requestsPerClient);
                    QCOMPARE(part.workload.allKeys, whole.workload.allKeys);
                    QCOMPARE(part.runCount, whole.runCount);
                }
                QCOMPARE(connections, whole.config.connections);
                QVERIFY(std::abs(rate - whole.config.rate) < 1e-6);
                if (whole.workload.setPattern == KeyPattern::Parallel) {
                    // Contiguous, no gap, no overlap, the whole range.
                    QCOMPARE(ranges.front().first, whole.workload.keys.minimum);
                    QCOMPARE(ranges.back().second, whole.workload.keys.maximum);
                    for (std::size_t i = 1; i < ranges.size(); ++i)
                        QCOMPARE(ranges[i].first, ranges[i - 1].second + 1);
                } else {
                    for (const auto& range : ranges)
                        QVERIFY(range == std::make_pair(whole.workload.keys.minimum, whole.workload.keys.maximum));
                }
            }
        }
        auto args = words({ "-s", "h", "--agents=2", "--control", "redis://c", "--ratio=1:0" });
        const FleetOptions fleet = takeMemtierFleetOptions(args);
        QCOMPARE(fleet.agentCount, 2);
        QCOMPARE(args, words({ "-s", "h", "--ratio=1:0" }));
        for (const auto& line : { words({ "-t", "1", "-c", "2" }), words({ "--preload", "--key-minimum=1", "--key-maximum=2" }),
                                  words({ "--client-stats=cs" }), words({ "-u", "redis://:pw@h:1" }) }) {
            bool thrown = false;
            try {
                checkMemtierDivisible(line, parseMemtierArgs(line), 3);
            } catch (const UsageError&) {
                thrown = true;
            }
            QVERIFY2(thrown, line.front().c_str());
        }
    }

    // --preload on agents: a line of its own that fills the range as the
    // preload on one machine does (same connections, keys, values, pipeline;
    // nothing of the measured workload), and shares without --preload.
    void memtierPreloadLine()
    {
        for (const auto& line : { words({ "--preload", "-t", "2", "-c", "3", "--key-pattern=R:R", "--ratio=0:1",
                                           "--test-time=5", "--key-minimum=10", "--key-maximum=1009", "-d", "100",
                                           "--key-prefix=p:", "--pipeline=4", "--preload-pipeline=64", "-x", "2",
                                           "--rate=500", "--expiry-range=5-10", "--json=r.json" }),
                                   words({ "--preload", "-c", "2", "--command=HSET __key__ f __data__",
                                           "--command-key-pattern=G", "-n", "50", "--pipeline=40",
                                           "--data-size-range=10-20", "--data-size-pattern=S", "--cleanup" }),
                                   words({ "--preload", "--clients=1", "--threads=1", "--key-maximum=7",
                                           "--multi-key-get=3", "--random-data" }) }) {
            const MemtierInvocation whole = parseMemtierArgs(line);
            const RunConfig expected = memtierPreloadConfig(whole);
            const std::vector<std::string> fillLine = tacho::engine::memtierPreloadLine(line, whole);
            const MemtierInvocation fill = parseMemtierArgs(fillLine);
            const std::string said = std::accumulate(fillLine.begin(), fillLine.end(), std::string(),
                                                     [](std::string a, const std::string& w) { return a + " " + w; });
            QVERIFY2(!fill.preload && fill.workload.allKeys && !fill.workload.arbitrary(), said.c_str());
            QCOMPARE(fill.workload.setRatio, 1u);
            QCOMPARE(fill.workload.getRatio, 0u);
            QCOMPARE(fill.workload.multiKeyGet, 0u);
            QVERIFY(fill.workload.setPattern == KeyPattern::Parallel && fill.workload.getPattern == KeyPattern::Parallel);
            QCOMPARE(fill.runCount, 1u);
            QCOMPARE(fill.config.connections, expected.connections);
            QCOMPARE(fill.config.pipeline, expected.pipeline);
            QCOMPARE(fill.config.durationSeconds, 0.0);
            QCOMPARE(fill.config.rate, 0.0);
            QCOMPARE(fill.config.ratePerConnection, 0.0);
            QVERIFY(fill.jsonPath.empty() && !fill.cleanup);
            QCOMPARE(fill.workload.keys.minimum, whole.workload.keys.minimum);
            QCOMPARE(fill.workload.keys.maximum, whole.workload.keys.maximum);
            QCOMPARE(fill.workload.keys.prefix, whole.workload.keys.prefix);
            const MemtierValueOptions& a = fill.workload.values;
            const MemtierValueOptions& b = whole.workload.values;
            QVERIFY2(a.fixedSize == b.fixedSize && a.rangeMin == b.rangeMin && a.rangeMax == b.rangeMax
                         && a.sizeFollowsKey == b.sizeFollowsKey && a.sizeList == b.sizeList
                         && a.randomData == b.randomData && a.expiryMin == b.expiryMin && a.expiryMax == b.expiryMax,
                     said.c_str());
            // The measured shares leave the preload to the coordinator.
            for (int i = 0; i < 2; ++i)
                for (const std::string& word : memtierShare(line, whole, i, 2))
                    QVERIFY2(word.rfind("--preload", 0) != 0, word.c_str());
        }
    }

    // A sweep row's line: the options set anew wherever the line gave them,
    // a redis-benchmark command's own words untouched.
    void linesWithOptionsSetAnew()
    {
        QCOMPARE(redisBenchmarkLineWith(words({ "-c", "5", "-P", "2", "-n", "9", "SET", "-c", "v" }),
                                        { { "-c", "10" }, { "--duration", "2" } }, { "-n" }),
                 words({ "-c", "10", "--duration", "2", "-P", "2", "SET", "-c", "v" }));
        QCOMPARE(redisBenchmarkLineWith(words({ "-q", "-t", "set" }), { { "-P", "4" } }),
                 words({ "-P", "4", "-q", "-t", "set" }));
        const auto line = memtierLineWith(words({ "-n", "5", "-t", "2", "--pipeline", "3", "--hide-histogram" }),
                                          { { "--test-time", "3" }, { "--pipeline", "8" } }, { "--requests" });
        QCOMPARE(line, words({ "--threads=2", "--hide-histogram", "--test-time=3", "--pipeline=8" }));
        const MemtierInvocation parsed = parseMemtierArgs(line);
        QCOMPARE(parsed.config.pipeline, 8);
        QCOMPARE(parsed.testTimeSeconds, 3.0);
    }

    // The control server's password (in its URL) is hidden wherever the
    // target's would be: argv, usage errors, workload lines.
    void controlPasswordIsASecret()
    {
        for (const char* command : { "redis-benchmark", "memtier", "agent" }) {
            const auto args = words({ "--control", "redis://u:Ctl9Pw@h:1", "--agents", "2" });
            std::string hidden;
            for (const std::string& word : withSecretsHidden(command, args))
                hidden += word + " ";
            QVERIFY2(hidden.find("Ctl9Pw") == std::string::npos, hidden.c_str());
            QVERIFY2(hidden.find("redis://") != std::string::npos, hidden.c_str());
        }
    }

    void messagesRoundTrip()
    {
        FleetOrder order;
        order.runId = "0123abcd";
        order.dialect = "redis-benchmark";
        order.args = words({ "-t", "set", "\"quoted\"\n\x01" });
        order.index = 2;
        order.count = 3;
        order.startAtMs = 1764000000123;
        FleetOrder back;
        std::string error;
        QVERIFY2(orderFromJson(orderToJson(order), back, &error), error.c_str());
        QCOMPARE(back.args, order.args);
        QCOMPARE(back.startAtMs, order.startAtMs);
        QCOMPARE(back.index, 2);
        QVERIFY(!orderFromJson(R"({"runId":"x","dialect":"redis-benchmark","index":3,"count":3})", back, &error));
        QVERIFY(!orderFromJson(R"({"runId":"a:b","dialect":"redis-benchmark","index":0,"count":1})", back, &error));
        QVERIFY(!orderFromJson("[]", back, &error));

        AgentInfo info;
        info.name = "load-1";
        info.clockOffsetMs = -42;
        info.cores = 2;
        AgentInfo infoBack;
        QVERIFY(agentInfoFromJson(agentInfoToJson(info), infoBack, &error));
        QCOMPARE(infoBack.clockOffsetMs, std::int64_t(-42));
        QCOMPARE(infoBack.name, std::string("load-1"));
        for (const char* bad : { "", "a b", "a:b", "a*", "x/y" })
            QVERIFY2(!isValidAgentName(bad), bad);
        QVERIFY(isValidAgentName(std::string(64, 'a')));
        QVERIFY(!isValidAgentName(std::string(65, 'a')));
    }
};

QTEST_GUILESS_MAIN(TestFleetSplit)
#include "test_fleet_split.moc"
