// Issue 30: clean-up derives from what a run wrote, per command. Over the
// whole redis-benchmark suite and memtier's SET:GET ratios and --command
// lines: a test's written key shapes are its addressed shapes exactly when
// its command writes, and none otherwise (GET, LRANGE, --ratio 0:N).
#include <QtTest/QtTest>

#include <string>
#include <vector>

#include "engine/workload/benchmark_suite.h"
#include "engine/workload/memtier_generator_factory.h"
#include "engine/workload/template_generator.h"
#include "engine/workload/write_commands.h"

using namespace tacho::engine;

class TestWriteCommands : public QObject {
    Q_OBJECT

private slots:
    void theTableKnowsReadsFromWrites()
    {
        for (const char* write : { "SET", "set", "Incr", "LPUSH", "RPUSH", "LPOP", "RPOP", "SADD", "SPOP", "HSET", "ZADD",
                                   "ZPOPMIN", "MSET", "XADD", "EXPIRE", "DEL", "SETEX", "APPEND", "PFADD" })
            QVERIFY2(isWriteCommand(write), write);
        for (const char* read : { "GET", "get", "MGET", "LRANGE", "EXISTS", "TTL", "SCAN", "PING", "HGET", "ZRANGE",
                                  "SMEMBERS", "XRANGE", "PFCOUNT", "", "NOSUCHCOMMAND", "JSON.GET" })
            QVERIFY2(!isWriteCommand(read), read);
    }

    // Every test of the suite: written shapes = addressed shapes when the command writes.
    void redisBenchmarkSuiteWritesByCommand()
    {
        const std::vector<TestSpec> suite = redisBenchmarkSuite("", 3, 1000);
        QVERIFY(suite.size() > 10);
        int writers = 0, readers = 0;
        for (const TestSpec& test : suite) {
            const TemplateGeneratorFactory factory(test, 1000, false);
            const bool writes = !test.args.empty() && isWriteCommand(test.args.front());
            if (writes) {
                QVERIFY2(factory.writtenKeyShapes() == factory.keyShapes(), test.name.c_str());
                ++writers;
            } else {
                QVERIFY2(factory.writtenKeyShapes().empty(), test.name.c_str());
                readers += factory.keyShapes().empty() ? 0 : 1;   // a key read, not written
            }
        }
        QVERIFY(writers > 5);
        QVERIFY(readers >= 2);   // GET and the LRANGEs at least
    }

    void memtierRatiosAndCommands()
    {
        for (std::uint32_t sets : { 0u, 1u, 3u }) {
            MemtierWorkload workload;
            workload.setRatio = sets;
            workload.getRatio = 1;
            const MemtierGeneratorFactory factory(workload);
            QCOMPARE(factory.writtenKeyShapes().size(), sets > 0 ? std::size_t(1) : std::size_t(0));
            QCOMPARE(factory.keyShapes().size(), std::size_t(1));
        }
        MemtierWorkload mixed;
        for (const std::vector<std::string>& args : std::vector<std::vector<std::string>> {
                 { "GET", "__key__" }, { "HSET", "h:__key__", "f", "__data__" }, { "LRANGE", "l:__key__", "0", "9" } }) {
            MemtierCommand command;
            command.args = args;
            mixed.commands.push_back(command);
        }
        const MemtierGeneratorFactory factory(mixed);
        QCOMPARE(factory.keyShapes().size(), std::size_t(3));
        const std::vector<KeyShape> written = factory.writtenKeyShapes();
        QCOMPARE(written.size(), std::size_t(1));
        QVERIFY(written[0].glob().rfind("h:", 0) == 0);
    }
};

QTEST_APPLESS_MAIN(TestWriteCommands)
#include "test_write_commands.moc"
