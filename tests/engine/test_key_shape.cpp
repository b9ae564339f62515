// issue 15: --cleanup removed keys that merely start like the benchmark's
// (memtier-1-report, memtier-05, memtier-99999999; with an empty prefix
// every key starting with a digit). KeyShape::matches() decides which SCAN
// candidates go: only the names the run can write. Checked here over a
// generated family of near-miss names against a plain oracle, and against
// the keys the real generators put in their requests.
#include <QtTest>

#include <random>
#include <set>

#include "engine/cluster/request_key.h"
#include "engine/run/key_cleanup.h"
#include "engine/workload/benchmark_suite.h"
#include "engine/workload/key_glob.h"
#include "engine/workload/memtier_generator_factory.h"
#include "engine/workload/template_generator.h"

using namespace tacho::engine;

namespace {

// A key of shape left + N + right: the middle must be N in decimal as the
// run writes it (no sign, no leading zero, no padding), within the range.
bool oracleNumber(std::string_view key, std::string_view left, std::string_view right, std::uint64_t minimum,
                  std::uint64_t maximum)
{
    if (key.size() < left.size() + right.size() || !key.starts_with(left) || !key.ends_with(right))
        return false;
    const std::string_view middle = key.substr(left.size(), key.size() - left.size() - right.size());
    if (middle.empty() || middle.size() > 20 || (middle.size() > 1 && middle[0] == '0'))
        return false;
    for (char c : middle)
        if (c < '0' || c > '9')
            return false;
    // Compare as decimal strings: no overflow to get wrong.
    const auto less = [](const std::string& a, const std::string& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    };
    const std::string n(middle);
    return !less(n, std::to_string(minimum)) && !less(std::to_string(maximum), n);
}

// Near misses of each valid name: every prefix of it plus one odd byte,
// leading zeros, out-of-range numbers, suffixes, a changed prefix, bytes a
// glob would treat specially, and the names the issue lists.
std::vector<std::string> nearMisses(const std::vector<std::string>& valid, std::string_view left)
{
    const std::string odd { '0', '9', 'a', '-', ' ', '*', '?', '[', '\\', '\0', '\x01', '\x7f', '\xff', '\r', '\n' };
    std::vector<std::string> out { "", "1e5", "2024-report", "007", "-1", "+1", " 1", "0x1", "1.0", "1,000",
                                   "18446744073709551616", "99999999999999999999999", "memtier-1-report",
                                   "memtier-05", "memtier-99999999", "key:", "key:1", "key:0000000000001" };
    for (const std::string& name : valid) {
        for (std::size_t i = 0; i <= name.size(); ++i)
            for (char c : odd) {
                out.push_back(name.substr(0, i) + c);
                out.push_back(name.substr(0, i) + c + name.substr(i));
                if (i < name.size())
                    out.push_back(name.substr(0, i) + c + name.substr(i + 1));   // one byte replaced
            }
        const std::string tail = name.substr(std::min(left.size(), name.size()));
        out.push_back(std::string(left) + "0" + tail);
        out.push_back(std::string(left) + "00" + tail);
        out.push_back(name + "-report");
        out.push_back(name + name);
        out.push_back("x" + name);
        out.push_back(name.substr(0, name.size() - 1));
    }
    return out;
}

// The first key of each request a generator writes.
std::vector<std::string> keysWritten(const RequestGeneratorFactory& factory, std::size_t connections, int requests)
{
    std::vector<std::string> keys;
    for (std::size_t c = 0; c < connections; ++c) {
        const auto generator = factory.create(c, connections, 42);
        for (int i = 0; i < requests; ++i) {
            std::string request;
            if (generator->appendNext(request) == RequestGenerator::kExhausted)
                break;
            if (const auto key = firstKeyOfRequest(request))
                keys.emplace_back(*key);
        }
    }
    return keys;
}

} // namespace

class TestKeyShape : public QObject {
    Q_OBJECT

private slots:
    void memtierFamily_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<quint64>("minimum");
        QTest::addColumn<quint64>("maximum");
        QTest::newRow("default") << QByteArray("memtier-") << quint64(0) << quint64(10000000);
        QTest::newRow("empty prefix") << QByteArray() << quint64(0) << quint64(10000000);
        QTest::newRow("small range") << QByteArray("bench:") << quint64(1) << quint64(300);
        QTest::newRow("one key") << QByteArray("k") << quint64(5) << quint64(5);
        QTest::newRow("glob bytes") << QByteArray("a*b?[c]\\") << quint64(10) << quint64(99);
        QTest::newRow("binary prefix") << QByteArray("k\0\x01\xff-", 5) << quint64(0) << quint64(1000);
        QTest::newRow("whole range") << QByteArray("u") << quint64(0) << quint64(UINT64_MAX);
        QTest::newRow("digit prefix") << QByteArray("12") << quint64(3) << quint64(40);
    }

    void memtierFamily()
    {
        QFETCH(QByteArray, prefix);
        QFETCH(quint64, minimum);
        QFETCH(quint64, maximum);
        const std::string left = prefix.toStdString();
        MemtierWorkload workload;
        workload.keys.prefix = left;
        workload.keys.minimum = minimum;
        workload.keys.maximum = maximum;
        const std::vector<KeyShape> shapes = MemtierGeneratorFactory(workload).keyShapes();
        QCOMPARE(shapes.size(), std::size_t(1));
        const KeyShape& shape = shapes[0];

        std::vector<std::string> valid;
        std::mt19937_64 random(7);
        for (std::uint64_t n : { minimum, maximum, minimum + (maximum - minimum) / 2, minimum + (maximum - minimum) / 3 })
            valid.push_back(left + std::to_string(n));
        const std::uint64_t span = maximum - minimum;
        for (int i = 0; i < 20; ++i)
            valid.push_back(left + std::to_string(minimum + (span == UINT64_MAX ? random() : random() % (span + 1))));
        for (const std::string& name : valid)
            QVERIFY2(shape.matches(name), name.c_str());
        // What the generator really writes (SET and GET, R:R) is matched too.
        for (const std::string& name : keysWritten(MemtierGeneratorFactory(workload), 3, 200))
            QVERIFY2(shape.matches(name), name.c_str());

        int rejected = 0;
        for (const std::string& name : nearMisses(valid, left)) {
            const bool expected = oracleNumber(name, left, {}, minimum, maximum);
            if (shape.matches(name) != expected)
                QFAIL(qPrintable(QString("\"%1\": matches %2, oracle %3")
                                     .arg(QString::fromLatin1(QByteArray::fromStdString(name).toPercentEncoding()))
                                     .arg(!expected).arg(expected)));
            rejected += expected ? 0 : 1;
        }
        QVERIFY(rejected > 1000);   // the family is mostly near misses
    }

    // The names the issue lists, with the default and the empty prefix.
    void namesFromTheIssueSurvive()
    {
        MemtierWorkload workload;
        const KeyShape shape = MemtierGeneratorFactory(workload).keyShapes().at(0);
        for (const char* name : { "memtier-1-report", "memtier-05", "memtier-99999999", "memtier-", "memtier-+1" })
            QVERIFY2(!shape.matches(name), name);
        QVERIFY(shape.matches("memtier-0"));
        QVERIFY(shape.matches("memtier-10000000"));
        workload.keys.prefix.clear();
        const KeyShape bare = MemtierGeneratorFactory(workload).keyShapes().at(0);
        for (const char* name : { "1e5", "2024-report", "007", "00", "10000001" })
            QVERIFY2(!bare.matches(name), name);
        QVERIFY(bare.matches("2024"));
    }

    // --command with text around __key__, digits right after it included.
    void memtierCommandFamily()
    {
        MemtierWorkload workload;
        workload.keys.prefix = "p";
        workload.keys.minimum = 1;
        workload.keys.maximum = 500;
        workload.commands.push_back(MemtierCommand { { "HSET", "h:__key__5", "f", "__data__" } });
        const std::vector<KeyShape> shapes = MemtierGeneratorFactory(workload).keyShapes();
        QCOMPARE(shapes.size(), std::size_t(1));
        std::vector<std::string> valid;
        for (int n : { 1, 7, 50, 499, 500 })
            valid.push_back("h:p" + std::to_string(n) + "5");
        for (const std::string& name : keysWritten(MemtierGeneratorFactory(workload), 2, 100)) {
            QVERIFY2(shapes[0].matches(name), name.c_str());
            valid.push_back(name);
        }
        for (const std::string& name : nearMisses(valid, "h:p"))
            QVERIFY2(shapes[0].matches(name) == oracleNumber(name, "h:p", "5", 1, 500),
                     QByteArray::fromStdString(name).toPercentEncoding().constData());
    }

    // redis-benchmark: key:<12 digits> below -r; fixed keys exactly.
    void redisBenchmarkFamily()
    {
        RunConfig config;
        config.keyspace = 1000;
        config.tests = redisBenchmarkSuite("set,incr,lpush,mset", 3, config.keyspace);
        const std::vector<KeyShape> shapes = cleanupPatterns(config);
        QCOMPARE(shapes.size(), std::size_t(3));   // key:…, counter:…, mylist
        const auto matchesAny = [&shapes](const std::string& name) {
            return std::any_of(shapes.begin(), shapes.end(), [&](const KeyShape& s) { return s.matches(name); });
        };
        const auto oracle = [](const std::string& name) {
            if (name == "mylist")
                return true;
            for (std::string_view left : { "key:", "counter:" })
                if (name.size() == left.size() + 12 && name.starts_with(left)) {
                    const std::string digits = name.substr(left.size());
                    return std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })
                        && std::stoull(digits) < 1000;
                }
            return false;
        };
        std::vector<std::string> valid { "key:000000000000", "key:000000000999", "counter:000000000123", "mylist" };
        for (const TestSpec& test : config.tests)
            for (const std::string& name : keysWritten(TemplateGeneratorFactory(test, config.keyspace, false), 2, 100)) {
                QVERIFY2(matchesAny(name), name.c_str());
                valid.push_back(name);
            }
        valid.resize(std::min<std::size_t>(valid.size(), 40));
        for (const std::string& name : nearMisses(valid, "key:"))
            QVERIFY2(matchesAny(name) == oracle(name), QByteArray::fromStdString(name).toPercentEncoding().constData());
        QVERIFY(!matchesAny("key:000000001000"));
        QVERIFY(!matchesAny("mylist2"));
    }

    // Cluster mode: the per-client hash tags the engine writes, no others.
    void clusterTags()
    {
        TestSpec spec = redisBenchmarkSuite("set", 3, 100).at(0);
        for (std::string& arg : spec.args)
            if (arg.starts_with("key:"))
                arg = "key{tag}:__rand_int__";
        const TemplateGeneratorFactory factory(spec, 100, true);
        const std::vector<KeyShape> shapes = factory.keyShapes();
        QCOMPARE(shapes.size(), std::size_t(1));
        std::set<std::string> written;
        for (const std::string& name : keysWritten(factory, 50, 5)) {
            QVERIFY2(shapes[0].matches(name), name.c_str());
            written.insert(name);
        }
        QVERIFY(written.size() > 20);
        QVERIFY(!shapes[0].matches("key{tag}:000000000001"));
        QVERIFY(!shapes[0].matches("key{zzzz:000000000001"));
        QVERIFY(!shapes[0].matches("key{????:000000000001"));
    }
};

QTEST_GUILESS_MAIN(TestKeyShape)
#include "test_key_shape.moc"
