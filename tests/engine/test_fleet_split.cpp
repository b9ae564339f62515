// Issue 21: how one redis-benchmark line is divided among agents, and the
// messages the agents and the coordinator exchange.
#include <QTest>

#include <numeric>
#include <string>
#include <vector>

#include "engine/cli/fleet_split.h"
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
            words({ "-c", "2" }), words({ "-n", "2", "-c", "5" }), words({ "-l", "-c", "5" }),
            words({ "-I", "-c", "5" }), words({ "--cleanup", "-c", "5" }),
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
        const auto fine = words({ "-u", "redis://h:7000", "-c", "3" });
        checkRedisBenchmarkDivisible(fine, parseRedisBenchmarkArgs(fine), 3);
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
