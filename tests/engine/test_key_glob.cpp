// The SCAN MATCH patterns behind --cleanup (issue #8): the keys a run writes
// and nothing else — special characters matched literally, redis-benchmark's
// __rand_int__ as twelve digits with -r and literal without, memtier's keys
// as the prefix and a number.
#include <QtTest>

#include "engine/run/key_cleanup.h"
#include "engine/workload/benchmark_suite.h"
#include "engine/workload/key_glob.h"
#include "engine/workload/memtier_generator_factory.h"

using namespace tacho::engine;

namespace {
const std::string kTwelveDigits = [] {
    std::string digits;
    for (int i = 0; i < 12; ++i)
        digits += "[0-9]";
    return digits;
}();
}

class TestKeyGlob : public QObject {
    Q_OBJECT

private slots:
    void literalTextIsEscaped()
    {
        QCOMPARE(globLiteral("plain:key-1"), std::string("plain:key-1"));
        QCOMPARE(globLiteral("a*b?c[d]e\\f"), std::string("a\\*b\\?c\\[d\\]e\\\\f"));
    }

    void redisBenchmarkTemplates()
    {
        QCOMPARE(shapeOfKeyTemplate("key:__rand_int__", 1000, false).glob(), "key:" + kTwelveDigits);
        QCOMPARE(shapeOfKeyTemplate("key:__rand_int__", 0, false).glob(), std::string("key:__rand_int__"));
        QCOMPARE(shapeOfKeyTemplate("key{tag}:__rand_int__", 1000, true).glob(), "key{????:" + kTwelveDigits);
        QCOMPARE(shapeOfKeyTemplate("my*list", 1000, false).glob(), std::string("my\\*list"));
    }

    // The built-in suite: each test's first key, without duplicates;
    // keyless tests (PING) add none.
    void suitePatterns()
    {
        RunConfig config;
        config.keyspace = 1000;
        config.tests = redisBenchmarkSuite("ping,set,get,incr,lpush,rpush,mset", 3, config.keyspace);
        std::vector<std::string> patterns;
        for (const KeyShape& shape : cleanupPatterns(config))
            patterns.push_back(shape.glob());
        const std::vector<std::string> expected { "key:" + kTwelveDigits, "counter:" + kTwelveDigits, "mylist" };
        QCOMPARE(patterns, expected);

        config.tests = redisBenchmarkSuite("ping", 3, config.keyspace);
        QVERIFY(cleanupPatterns(config).empty());
    }

    void memtierPatterns()
    {
        MemtierWorkload workload;
        workload.keys.prefix = "app*";
        QCOMPARE(MemtierGeneratorFactory(workload).keyShapes().size(), std::size_t(1));
        QCOMPARE(MemtierGeneratorFactory(workload).keyShapes()[0].glob(), std::string("app\\*[0-9]*"));
        workload.commands.push_back(MemtierCommand { { "HSET", "h:__key__:x", "f", "__data__" } });
        workload.commands.push_back(MemtierCommand { { "HGET", "h:__key__:x", "f" } });
        QCOMPARE(MemtierGeneratorFactory(workload).keyShapes().size(), std::size_t(1));
        QCOMPARE(MemtierGeneratorFactory(workload).keyShapes()[0].glob(), std::string("h:app\\*[0-9]*:x"));
    }
};

QTEST_GUILESS_MAIN(TestKeyGlob)
#include "test_key_glob.moc"
