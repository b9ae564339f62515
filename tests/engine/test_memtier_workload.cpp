// memtier's workload model (issue #3): key patterns (S, R, G, Z, P and their
// shapes, with fixed seeds), the P slices and -n allkeys (every key exactly
// once, also when the range does not divide evenly), value sizes, random
// data, expiry, the SET:GET and --command sequences, MGET, and the exact
// bytes the generators write. No server needed.
#include <QtTest/QtTest>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/workload/command_template.h"
#include "engine/workload/memtier_generator_factory.h"
#include "engine/workload/memtier_key_generator.h"
#include "engine/workload/memtier_value_generator.h"

using namespace tacho::engine;

namespace {

using Request = std::vector<std::string>;

// Decodes concatenated RESP arrays of bulk strings (what the generators write).
std::vector<Request> decode(const std::string& bytes)
{
    std::vector<Request> requests;
    std::size_t at = 0;
    const auto number = [&](char type) {
        if (at >= bytes.size() || bytes[at] != type)
            throw std::runtime_error("expected '" + std::string(1, type) + "' at " + std::to_string(at));
        const std::size_t end = bytes.find("\r\n", at);
        const long long n = std::stoll(bytes.substr(at + 1, end - at - 1));
        at = end + 2;
        return static_cast<std::size_t>(n);
    };
    while (at < bytes.size()) {
        const std::size_t count = number('*');
        Request request;
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t length = number('$');
            request.push_back(bytes.substr(at, length));
            if (bytes.compare(at + length, 2, "\r\n") != 0)
                throw std::runtime_error("bulk string not terminated");
            at += length + 2;
        }
        requests.push_back(std::move(request));
    }
    return requests;
}

struct Generated {
    std::vector<Request> requests;
    std::vector<std::uint32_t> commands;
    bool exhausted = false;
};

// Up to `limit` requests from one connection's generator.
Generated generate(const MemtierGeneratorFactory& factory, std::size_t connection, std::size_t connections,
                   std::size_t limit, std::uint64_t seed = 42)
{
    auto generator = factory.create(connection, connections, seed);
    Generated out;
    std::string bytes;
    for (std::size_t i = 0; i < limit; ++i) {
        const std::uint32_t command = generator->appendNext(bytes);
        if (command == RequestGenerator::kExhausted) {
            out.exhausted = true;
            break;
        }
        out.commands.push_back(command);
    }
    out.requests = decode(bytes);
    return out;
}

std::uint64_t keyIndex(const std::string& key, const std::string& prefix)
{
    if (key.rfind(prefix, 0) != 0)
        throw std::runtime_error("key without prefix: " + key);
    return std::stoull(key.substr(prefix.size()));
}

MemtierWorkload fill(std::uint64_t minimum, std::uint64_t maximum, KeyPattern pattern)
{
    MemtierWorkload w;
    w.keys.prefix = "xxxx";
    w.keys.minimum = minimum;
    w.keys.maximum = maximum;
    w.setRatio = 1;
    w.getRatio = 0;
    w.setPattern = w.getPattern = pattern;
    w.allKeys = true;
    return w;
}

std::vector<std::uint64_t> sample(KeyPattern pattern, const MemtierKeyOptions& keys, std::size_t n,
                                  std::uint64_t seed = 7)
{
    MemtierKeyGenerator generator(pattern, keys, 0, 1);
    FastRandom random(seed);
    std::vector<std::uint64_t> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(generator.next(random));
    return out;
}

} // namespace

class TestMemtierWorkload : public QObject {
    Q_OBJECT

private slots:
    void parallelSlicesCoverTheRangeExactly_data()
    {
        QTest::addColumn<qulonglong>("minimum");
        QTest::addColumn<qulonglong>("maximum");
        QTest::addColumn<int>("count");
        QTest::newRow("even") << 1ULL << 1000ULL << 10;
        QTest::newRow("19999 keys over 21 (memtier sends 20013 SETs)") << 1ULL << 19999ULL << 21;
        QTest::newRow("uneven, from 0") << 0ULL << 10006ULL << 7;
        QTest::newRow("more connections than keys") << 5ULL << 9ULL << 8;
        QTest::newRow("one key") << 3ULL << 3ULL << 4;
    }
    void parallelSlicesCoverTheRangeExactly()
    {
        QFETCH(qulonglong, minimum);
        QFETCH(qulonglong, maximum);
        QFETCH(int, count);
        std::uint64_t next = minimum;
        std::uint64_t smallest = UINT64_MAX, largest = 0;
        for (int i = 0; i < count; ++i) {
            const KeySlice slice = parallelKeySlice(minimum, maximum, std::size_t(i), std::size_t(count));
            if (slice.size > 0)
                QCOMPARE(slice.first, next);   // contiguous, in connection order
            next += slice.size;
            smallest = std::min(smallest, slice.size);
            largest = std::max(largest, slice.size);
        }
        QCOMPARE(next, std::uint64_t(maximum) + 1);
        QVERIFY(largest - smallest <= 1);
    }

    // Issue #3 / PITFALLS: memtier writes 20013 SETs for 19999 keys over
    // 7 × 3 connections. Every key exactly once here, for uneven splits too.
    void allKeysParallelWritesEveryKeyOnce_data()
    {
        QTest::addColumn<qulonglong>("keys");
        QTest::addColumn<int>("connections");
        QTest::newRow("19999 over 21") << 19999ULL << 21;
        QTest::newRow("1000 over 1") << 1000ULL << 1;
        QTest::newRow("1001 over 10") << 1001ULL << 10;
        QTest::newRow("5 over 8") << 5ULL << 8;
    }
    void allKeysParallelWritesEveryKeyOnce()
    {
        QFETCH(qulonglong, keys);
        QFETCH(int, connections);
        const MemtierGeneratorFactory factory(fill(1, keys, KeyPattern::Parallel));
        std::map<std::uint64_t, int> written;
        std::uint64_t total = 0;
        for (int c = 0; c < connections; ++c) {
            const Generated g = generate(factory, std::size_t(c), std::size_t(connections), 1000000);
            QVERIFY(g.exhausted);
            for (const Request& r : g.requests) {
                QCOMPARE(r.size(), std::size_t(3));
                QCOMPARE(r[0], std::string("SET"));
                QCOMPARE(r[2], std::string(32, 'x'));
                ++written[keyIndex(r[1], "xxxx")];
                ++total;
            }
        }
        QCOMPARE(total, std::uint64_t(keys));
        QCOMPARE(written.size(), std::size_t(keys));
        QCOMPARE(written.begin()->first, std::uint64_t(1));
        QCOMPARE(written.rbegin()->first, std::uint64_t(keys));
    }

    // PITFALLS: memtier's S:S over 1..50000 with -n allkeys writes 49999 keys.
    void allKeysSequentialWritesTheWholeRange()
    {
        const MemtierGeneratorFactory factory(fill(1, 50000, KeyPattern::Sequential));
        const Generated g = generate(factory, 0, 1, 1000000);
        QVERIFY(g.exhausted);
        QCOMPARE(g.requests.size(), std::size_t(50000));
        QCOMPARE(g.requests.front()[1], std::string("xxxx1"));
        QCOMPARE(g.requests.back()[1], std::string("xxxx50000"));
        std::set<std::string> distinct;
        for (const Request& r : g.requests)
            distinct.insert(r[1]);
        QCOMPARE(distinct.size(), std::size_t(50000));
    }

    void allKeysWithGetsOnlyCountsTheGets()
    {
        MemtierWorkload w = fill(10, 19, KeyPattern::Parallel);
        w.setRatio = 0;
        w.getRatio = 1;
        const MemtierGeneratorFactory factory(w);
        std::size_t total = 0;
        for (int c = 0; c < 3; ++c) {
            const Generated g = generate(factory, std::size_t(c), 3, 100);
            QVERIFY(g.exhausted);
            for (const Request& r : g.requests)
                QCOMPARE(r[0], std::string("GET"));
            total += g.requests.size();
        }
        QCOMPARE(total, std::size_t(10));
    }

    void sequentialWrapsAround()
    {
        MemtierKeyOptions keys;
        keys.minimum = 5;
        keys.maximum = 7;
        QCOMPARE(sample(KeyPattern::Sequential, keys, 7), (std::vector<std::uint64_t> { 5, 6, 7, 5, 6, 7, 5 }));
    }

    void uniformCoversTheRangeEvenly()
    {
        MemtierKeyOptions keys;
        keys.minimum = 100;
        keys.maximum = 199;
        const auto values = sample(KeyPattern::Random, keys, 100000);
        std::vector<int> counts(100, 0);
        for (std::uint64_t v : values) {
            QVERIFY(v >= 100 && v <= 199);
            ++counts[v - 100];
        }
        // 1000 expected per key; 5 standard deviations is about 160.
        for (int c : counts)
            QVERIFY2(c > 840 && c < 1160, qPrintable(QString::number(c)));
    }

    void gaussianHasTheConfiguredShape_data()
    {
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("stddev");
        QTest::newRow("defaults: centre, range / 6") << 0.0 << 0.0;
        QTest::newRow("median 30000, stddev 5000") << 30000.0 << 5000.0;
    }
    void gaussianHasTheConfiguredShape()
    {
        QFETCH(double, median);
        QFETCH(double, stddev);
        MemtierKeyOptions keys;
        keys.minimum = 0;
        keys.maximum = 99999;
        if (median > 0) {
            keys.median = median;
            keys.medianGiven = true;
        }
        keys.stddev = stddev;
        const double expectedMean = median > 0 ? median : 49999.5;
        const double expectedStddev = stddev > 0 ? stddev : 99999.0 / 6;
        const auto values = sample(KeyPattern::Gaussian, keys, 200000);
        double sum = 0, squares = 0;
        std::size_t withinOne = 0, withinTwo = 0;
        for (std::uint64_t v : values) {
            QVERIFY(v <= 99999);
            sum += double(v);
            const double z = std::abs(double(v) - expectedMean) / expectedStddev;
            withinOne += z <= 1 ? 1 : 0;
            withinTwo += z <= 2 ? 1 : 0;
        }
        const double mean = sum / double(values.size());
        for (std::uint64_t v : values)
            squares += (double(v) - mean) * (double(v) - mean);
        const double sd = std::sqrt(squares / double(values.size()));
        QVERIFY2(std::abs(mean - expectedMean) < 0.02 * expectedStddev, qPrintable(QString::number(mean)));
        // The range cuts the tails at 3 σ with the defaults: σ of the kept part
        // is 98.7 % of the configured one.
        QVERIFY2(sd > 0.97 * expectedStddev && sd < 1.02 * expectedStddev, qPrintable(QString::number(sd)));
        const double one = double(withinOne) / double(values.size());
        const double two = double(withinTwo) / double(values.size());
        QVERIFY2(one > 0.675 && one < 0.70, qPrintable(QString::number(one)));   // 68.3 %
        QVERIFY2(two > 0.950 && two < 0.965, qPrintable(QString::number(two)));  // 95.4 %
    }

    void zipfHasTheConfiguredShape_data()
    {
        QTest::addColumn<double>("exponent");
        QTest::newRow("exponent 1") << 1.0;
        QTest::newRow("exponent 0.7") << 0.7;
        QTest::newRow("exponent 2") << 2.0;
    }
    void zipfHasTheConfiguredShape()
    {
        QFETCH(double, exponent);
        MemtierKeyOptions keys;
        keys.minimum = 0;   // memtier: Zipf keys start at 1
        keys.maximum = 1000;
        keys.zipfExponent = exponent;
        const std::size_t n = 400000;
        const auto values = sample(KeyPattern::Zipf, keys, n);
        std::vector<double> counts(1001, 0);
        for (std::uint64_t v : values) {
            QVERIFY2(v >= 1 && v <= 1000, qPrintable(QString::number(v)));
            ++counts[v];
        }
        double normaliser = 0;
        for (int k = 1; k <= 1000; ++k)
            normaliser += std::pow(k, -exponent);
        // P(k) = k^-s / H: compare the head of the distribution and a
        // decade further out with the exact probabilities.
        for (int k : { 1, 2, 3, 10, 100 }) {
            const double expected = std::pow(k, -exponent) / normaliser;
            const double observed = counts[std::size_t(k)] / double(n);
            const double sigma = std::sqrt(expected * (1 - expected) / double(n));
            QVERIFY2(std::abs(observed - expected) < 5 * sigma + 1e-4,
                     qPrintable(QString("k=%1 expected %2 observed %3").arg(k).arg(expected).arg(observed)));
        }
        // The tail in bulk: keys 501..1000.
        double tailExpected = 0, tailObserved = 0;
        for (int k = 501; k <= 1000; ++k) {
            tailExpected += std::pow(k, -exponent) / normaliser;
            tailObserved += counts[std::size_t(k)] / double(n);
        }
        QVERIFY2(std::abs(tailObserved - tailExpected) < 0.05 * tailExpected + 2e-4,
                 qPrintable(QString("tail expected %1 observed %2").arg(tailExpected).arg(tailObserved)));
    }

    // memtier seeds every client alike: without --distinct-client-seed all
    // connections send the same random keys (issue 17: its zipfian tests
    // count them through MONITOR); with it each connection has its own.
    void sameSeedSameRequestsDistinctSeedOtherStream()
    {
        MemtierWorkload w;
        w.keys.maximum = 1000000;
        const MemtierGeneratorFactory alike(w);
        const Generated a = generate(alike, 3, 8, 200, 99);
        QCOMPARE(a.requests, generate(alike, 3, 8, 200, 99).requests);
        QCOMPARE(a.requests, generate(alike, 4, 8, 200, 99).requests);
        QVERIFY(a.requests != generate(alike, 3, 8, 200, 100).requests);

        w.distinctClientSeed = true;
        const MemtierGeneratorFactory distinct(w);
        const Generated d = generate(distinct, 3, 8, 200, 99);
        QCOMPARE(d.requests, generate(distinct, 3, 8, 200, 99).requests);
        QVERIFY(d.requests != generate(distinct, 4, 8, 200, 99).requests);
    }

    void setGetRatioSequence()
    {
        MemtierWorkload w;
        w.setRatio = 1;
        w.getRatio = 3;
        const MemtierGeneratorFactory factory(w);
        const Generated g = generate(factory, 0, 1, 12);
        const std::vector<std::uint32_t> expected { 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1 };
        QCOMPARE(g.commands, expected);
        for (std::size_t i = 0; i < g.requests.size(); ++i)
            QCOMPARE(g.requests[i][0], std::string(expected[i] == 0 ? "SET" : "GET"));
        QCOMPARE(factory.commandNames(), (std::vector<std::string> { "SET", "GET" }));
        QCOMPARE(factory.commandStatNames(), (std::vector<std::string> { "set", "get" }));
    }

    void multiKeyGetSendsMget()
    {
        MemtierWorkload w;
        w.setRatio = 1;
        w.getRatio = 5;
        w.multiKeyGet = 2;
        const MemtierGeneratorFactory factory(w);
        const Generated g = generate(factory, 0, 1, 8);
        // SET, MGET ×2 keys, MGET ×2, MGET ×1, then the cycle again.
        QCOMPARE(g.requests[0][0], std::string("SET"));
        QCOMPARE(g.requests[1], (Request { "MGET", g.requests[1][1], g.requests[1][2] }));
        QCOMPARE(g.requests[2].size(), std::size_t(3));
        QCOMPARE(g.requests[3].size(), std::size_t(2));
        QCOMPARE(g.requests[4][0], std::string("SET"));
        QCOMPARE(factory.commandStatNames(), (std::vector<std::string> { "set", "mget" }));
    }

    void expiryUsesSetEx()
    {
        MemtierWorkload w;
        w.setRatio = 1;
        w.getRatio = 0;
        w.values.expiryMin = 0;
        w.values.expiryMax = 3;
        const MemtierGeneratorFactory factory(w);
        const Generated g = generate(factory, 0, 1, 2000);
        std::map<int, int> seen;
        for (const Request& r : g.requests) {
            QCOMPARE(r[0], std::string("SET"));
            if (r.size() == 3) {
                ++seen[0];   // a drawn 0: plain SET
                continue;
            }
            QCOMPARE(r.size(), std::size_t(5));
            QCOMPARE(r[3], std::string("EX"));
            const int ttl = std::stoi(r[4]);
            QVERIFY(ttl >= 1 && ttl <= 3);
            ++seen[ttl];
        }
        QCOMPARE(seen.size(), std::size_t(4));
        for (const auto& [ttl, count] : seen)
            QVERIFY2(count > 400, qPrintable(QString("%1: %2").arg(ttl).arg(count)));
    }

    void valueSizes()
    {
        FastRandom random(5);
        MemtierValueOptions range;
        range.sizeKind = MemtierValueOptions::SizeKind::Range;
        range.rangeMin = 10;
        range.rangeMax = 20;
        MemtierValueGenerator ranged(range, 0, 100, random);
        std::set<std::uint32_t> sizes;
        for (int i = 0; i < 2000; ++i) {
            const std::uint32_t size = ranged.nextSize(0, random);
            QVERIFY(size >= 10 && size <= 20);
            sizes.insert(size);
        }
        QCOMPARE(sizes.size(), std::size_t(11));

        MemtierValueOptions byKey = range;
        byKey.sizeFollowsKey = true;
        MemtierValueGenerator following(byKey, 0, 100, random);
        QCOMPARE(following.nextSize(0, random), 10u);
        QCOMPARE(following.nextSize(50, random), 15u);
        QCOMPARE(following.nextSize(100, random), 20u);

        MemtierValueOptions list;
        list.sizeKind = MemtierValueOptions::SizeKind::List;
        list.sizeList = { { 32, 7 }, { 1024, 3 } };
        MemtierValueGenerator weighted(list, 0, 100, random);
        std::map<std::uint32_t, int> counts;
        for (int i = 0; i < 1000; ++i)
            ++counts[std::uint32_t(weighted.next(0, random).size())];
        QCOMPARE(counts[32], 700);
        QCOMPARE(counts[1024], 300);
    }

    void randomDataChangesFixedDataIsX()
    {
        FastRandom random(5);
        MemtierValueOptions fixed;
        fixed.fixedSize = 16;
        MemtierValueGenerator plain(fixed, 0, 10, random);
        QCOMPARE(std::string(plain.next(1, random)), std::string(16, 'x'));

        MemtierValueOptions randomOptions = fixed;
        randomOptions.randomData = true;
        MemtierValueGenerator noisy(randomOptions, 0, 10, random);
        const std::string first(noisy.next(1, random));
        const std::string second(noisy.next(1, random));
        QCOMPARE(first.size(), std::size_t(16));
        QVERIFY(first != std::string(16, 'x'));
        QVERIFY(first != second);
    }

    void arbitraryCommands()
    {
        MemtierWorkload w;
        w.keys.prefix = "k:";
        w.keys.minimum = 1;
        w.keys.maximum = 3;
        w.values.fixedSize = 4;
        MemtierCommand hset;
        QVERIFY(splitCommandLine("hset __key__ \"a field\" __data__", hset.args));
        hset.ratio = 2;
        hset.keyPattern = KeyPattern::Sequential;
        MemtierCommand get;
        QVERIFY(splitCommandLine("get {tag}__key__:suffix", get.args));
        get.keyPattern = KeyPattern::Sequential;
        w.commands = { hset, get };
        const MemtierGeneratorFactory factory(w);
        const Generated g = generate(factory, 0, 1, 6);
        QCOMPARE(g.commands, (std::vector<std::uint32_t> { 0, 0, 1, 0, 0, 1 }));
        QCOMPARE(g.requests[0], (Request { "hset", "k:1", "a field", "xxxx" }));
        QCOMPARE(g.requests[1], (Request { "hset", "k:2", "a field", "xxxx" }));
        QCOMPARE(g.requests[2], (Request { "get", "{tag}k:1:suffix" }));
        QCOMPARE(g.requests[3][1], std::string("k:3"));
        QCOMPARE(g.requests[4][1], std::string("k:1"));
        QCOMPARE(factory.commandNames(), (std::vector<std::string> { "HSET", "GET" }));
        QCOMPARE(factory.commandStatNames(), (std::vector<std::string> { "hset", "get" }));
    }

    void splitsCommandLinesLikeMemtier()
    {
        std::vector<std::string> args;
        QVERIFY(splitCommandLine("  set  \"a b\" 'c\\'d' \"\\x41\\n\"  e ", args));
        QCOMPARE(args, (std::vector<std::string> { "set", "a b", "c'd", "A\n", "e" }));
        QVERIFY(!splitCommandLine("set \"open", args));
        QVERIFY(!splitCommandLine("set \"a\"b", args));
    }
};

QTEST_APPLESS_MAIN(TestMemtierWorkload)
#include "test_memtier_workload.moc"
