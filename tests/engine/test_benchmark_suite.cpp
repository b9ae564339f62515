// redis-benchmark's built-in suite, -t selection and custom command tests.
#include <QtTest/QtTest>

#include <string>
#include <vector>

#include "engine/workload/benchmark_suite.h"
#include "support/qt_strings.h"

using namespace tacho::engine;

using tacho::test::toQStringList;

namespace {

using Args = std::vector<std::string>;

QStringList qNames(const std::vector<TestSpec>& tests)
{
    QStringList out;
    for (const TestSpec& test : tests)
        out << QString::fromStdString(test.name);
    return out;
}

} // namespace

class TestBenchmarkSuite : public QObject {
    Q_OBJECT

private slots:
    void defaultSuiteOrderAndShape()
    {
        std::vector<std::string> unknown;
        const auto tests = redisBenchmarkSuite("", 3, 0, &unknown);
        QVERIFY(unknown.empty());
        QCOMPARE(tests.size(), std::size_t(21));

        struct Expected {
            const char* name;
            Args args;
            const char* stat;
            bool inlineProtocol;
            std::uint32_t keys;
        };
        const Args mset = {"MSET",
                           "key:__rand_int__", "xxx", "key:__rand_int__", "xxx", "key:__rand_int__", "xxx",
                           "key:__rand_int__", "xxx", "key:__rand_int__", "xxx", "key:__rand_int__", "xxx",
                           "key:__rand_int__", "xxx", "key:__rand_int__", "xxx", "key:__rand_int__", "xxx",
                           "key:__rand_int__", "xxx"};
        const std::vector<Expected> expected = {
            {"PING_INLINE", {"PING"}, "ping", true, 1},
            {"PING_MBULK", {"PING"}, "ping", false, 1},
            {"SET", {"SET", "key:__rand_int__", "xxx"}, "set", false, 1},
            {"GET", {"GET", "key:__rand_int__"}, "get", false, 1},
            {"INCR", {"INCR", "counter:__rand_int__"}, "incr", false, 1},
            {"LPUSH", {"LPUSH", "mylist", "xxx"}, "lpush", false, 1},
            {"RPUSH", {"RPUSH", "mylist", "xxx"}, "rpush", false, 1},
            {"LPOP", {"LPOP", "mylist"}, "lpop", false, 1},
            {"RPOP", {"RPOP", "mylist"}, "rpop", false, 1},
            {"SADD", {"SADD", "myset", "element:__rand_int__"}, "sadd", false, 1},
            {"HSET", {"HSET", "myhash", "element:__rand_int__", "xxx"}, "hset", false, 1},
            {"SPOP", {"SPOP", "myset"}, "spop", false, 1},
            {"ZADD", {"ZADD", "myzset", "0", "element:__rand_int__"}, "zadd", false, 1},
            {"ZPOPMIN", {"ZPOPMIN", "myzset"}, "zpopmin", false, 1},
            {"LPUSH (needed to benchmark LRANGE)", {"LPUSH", "mylist", "xxx"}, "lpush", false, 1},
            {"LRANGE_100 (first 100 elements)", {"LRANGE", "mylist", "0", "99"}, "lrange", false, 1},
            {"LRANGE_300 (first 300 elements)", {"LRANGE", "mylist", "0", "299"}, "lrange", false, 1},
            {"LRANGE_500 (first 500 elements)", {"LRANGE", "mylist", "0", "499"}, "lrange", false, 1},
            {"LRANGE_600 (first 600 elements)", {"LRANGE", "mylist", "0", "599"}, "lrange", false, 1},
            {"MSET (10 keys)", mset, "mset", false, 10},
            {"XADD", {"XADD", "mystream", "*", "myfield", "xxx"}, "xadd", false, 1},
        };
        QCOMPARE(expected.size(), tests.size());
        for (std::size_t i = 0; i < tests.size(); ++i) {
            const TestSpec& test = tests[i];
            const Expected& want = expected[i];
            QCOMPARE(QString::fromStdString(test.name), QString::fromLatin1(want.name));
            QCOMPARE(toQStringList(test.args), toQStringList(want.args));
            QCOMPARE(QString::fromStdString(test.commandStatName), QString::fromLatin1(want.stat));
            QCOMPARE(test.inlineProtocol, want.inlineProtocol);
            QCOMPARE(test.keysPerRequest, want.keys);
        }
        QCOMPARE(tests[19].args.size(), std::size_t(21));
    }

    void valueSizeShapesData()
    {
        const auto tests = redisBenchmarkSuite("set,mset,xadd", 100, 0);
        QCOMPARE(tests.size(), std::size_t(3));
        const std::string data(100, 'x');
        QCOMPARE(tests[0].args[2], data);
        for (std::size_t i = 2; i < tests[1].args.size(); i += 2)
            QCOMPARE(tests[1].args[i], data);
        QCOMPARE(tests[2].args.back(), data);
    }

    void zaddScoreFollowsKeyspace()
    {
        const auto fixed = redisBenchmarkSuite("zadd", 3, 0);
        QCOMPARE(fixed.size(), std::size_t(1));
        QCOMPARE(toQStringList(fixed[0].args), toQStringList({"ZADD", "myzset", "0", "element:__rand_int__"}));

        const auto random = redisBenchmarkSuite("zadd", 3, 1000);
        QCOMPARE(random.size(), std::size_t(1));
        QCOMPARE(toQStringList(random[0].args), toQStringList({"ZADD", "myzset", "__rand_int__", "element:__rand_int__"}));
    }

    void selectionIsCaseInsensitiveAndKeepsSuiteOrder()
    {
        std::vector<std::string> unknown;
        const auto tests = redisBenchmarkSuite("GET,Set,incr", 3, 0, &unknown);
        QVERIFY(unknown.empty());
        QCOMPARE(qNames(tests), QStringList({"SET", "GET", "INCR"}));
    }

    void pingSelectsBothPings()
    {
        QCOMPARE(qNames(redisBenchmarkSuite("ping", 3, 0)), QStringList({"PING_INLINE", "PING_MBULK"}));
        QCOMPARE(qNames(redisBenchmarkSuite("ping_inline", 3, 0)), QStringList({"PING_INLINE"}));
        QCOMPARE(qNames(redisBenchmarkSuite("ping_mbulk", 3, 0)), QStringList({"PING_MBULK"}));
        QCOMPARE(qNames(redisBenchmarkSuite("ping_bulk", 3, 0)), QStringList({"PING_MBULK"}));
    }

    void lrangeSelectsFillerAndRanges()
    {
        QCOMPARE(qNames(redisBenchmarkSuite("lrange", 3, 0)),
                 QStringList({"LPUSH (needed to benchmark LRANGE)", "LRANGE_100 (first 100 elements)",
                              "LRANGE_300 (first 300 elements)", "LRANGE_500 (first 500 elements)",
                              "LRANGE_600 (first 600 elements)"}));
        QCOMPARE(qNames(redisBenchmarkSuite("lrange_300", 3, 0)),
                 QStringList({"LPUSH (needed to benchmark LRANGE)", "LRANGE_300 (first 300 elements)"}));
        // lpush alone is the LPUSH test, not the filler.
        QCOMPARE(qNames(redisBenchmarkSuite("lpush", 3, 0)), QStringList({"LPUSH"}));
        QCOMPARE(qNames(redisBenchmarkSuite("lrange_600,lpush", 3, 0)),
                 QStringList({"LPUSH", "LPUSH (needed to benchmark LRANGE)", "LRANGE_600 (first 600 elements)"}));
    }

    void everyShortNameSelectsItsTest()
    {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"set", "SET"}, {"get", "GET"}, {"incr", "INCR"}, {"rpush", "RPUSH"}, {"lpop", "LPOP"},
            {"rpop", "RPOP"}, {"sadd", "SADD"}, {"hset", "HSET"}, {"spop", "SPOP"}, {"zadd", "ZADD"},
            {"zpopmin", "ZPOPMIN"}, {"mset", "MSET (10 keys)"}, {"xadd", "XADD"}};
        for (const auto& [selector, name] : cases) {
            const auto tests = redisBenchmarkSuite(selector, 3, 0);
            QCOMPARE(qNames(tests), QStringList({QString::fromStdString(name)}));
        }
    }

    void unknownNamesAreReported()
    {
        std::vector<std::string> unknown;
        const auto tests = redisBenchmarkSuite("set,bogus,GET,Nope", 3, 0, &unknown);
        QCOMPARE(qNames(tests), QStringList({"SET", "GET"}));
        QCOMPARE(toQStringList(unknown), QStringList({"bogus", "Nope"}));

        // Without an output vector, unknown names are just ignored.
        QCOMPARE(redisBenchmarkSuite("bogus", 3, 0).size(), std::size_t(0));
    }

    void emptyItemsAndSpacesAreTolerated()
    {
        std::vector<std::string> unknown;
        QCOMPARE(qNames(redisBenchmarkSuite("set,, get ,", 3, 0, &unknown)), QStringList({"SET", "GET"}));
        QVERIFY(unknown.empty());
        QCOMPARE(redisBenchmarkSuite(",", 3, 0).size(), std::size_t(21));
    }

    void customCommand()
    {
        const TestSpec test = customCommandTest({"hmget", "h1", "k1"});
        QCOMPARE(QString::fromStdString(test.name), QString("hmget h1 k1"));
        QCOMPARE(toQStringList(test.args), QStringList({"hmget", "h1", "k1"}));
        QCOMPARE(QString::fromStdString(test.commandStatName), QString("hmget"));
        QCOMPARE(test.keysPerRequest, 1u);
        QVERIFY(!test.inlineProtocol);

        const TestSpec config = customCommandTest({"CONFIG", "GET", "maxmemory"});
        QCOMPARE(QString::fromStdString(config.name), QString("CONFIG GET maxmemory"));
        QCOMPARE(QString::fromStdString(config.commandStatName), QString("config|get"));

        const TestSpec eval = customCommandTest({"eval", "return redis.call('ping')", "0"});
        QCOMPARE(QString::fromStdString(eval.name), QString("eval return redis.call('ping') 0"));
        QCOMPARE(QString::fromStdString(eval.commandStatName), QString("eval"));
    }

    void commandStatNames()
    {
        QCOMPARE(commandStatName({"SET", "k", "v"}, true), std::string("set"));
        QCOMPARE(commandStatName({"Client", "List"}, true), std::string("client|list"));
        QCOMPARE(commandStatName({"Client", "List"}, false), std::string("client"));
        QCOMPARE(commandStatName({"config"}, true), std::string("config"));
        QCOMPARE(commandStatName({}, true), std::string());
        // Containers: every one in the list gets its subcommand.
        for (const char* container : {"config", "client", "cluster", "command", "memory", "object",
                                      "script", "function", "acl", "xinfo", "xgroup", "latency", "module",
                                      "pubsub", "slowlog"})
            QCOMPARE(commandStatName({container, "SUB"}, true), std::string(container) + "|sub");
        // Not containers: the second argument is a key, not a subcommand.
        QCOMPARE(commandStatName({"GET", "config"}, true), std::string("get"));
        QCOMPARE(commandStatName({"xadd", "s", "*", "f", "v"}, true), std::string("xadd"));
    }

};

QTEST_APPLESS_MAIN(TestBenchmarkSuite)
#include "test_benchmark_suite.moc"
