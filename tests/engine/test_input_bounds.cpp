// Issue 15, bounds on what files and options may ask for: histogram counts
// that wrap past 2^64, run files past the size limit, -x's standard input,
// requests in flight (connections x pipeline) in both dialects, and
// nesting depth in the JSON reader.
#include <QtTest>

#include <QTemporaryDir>

#include <cstdint>
#include <fcntl.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>
#include <zlib.h>

#include "engine/cli/memtier_args.h"
#include "engine/cli/redis_benchmark_args.h"
#include "engine/cli/shared_options.h"
#include "engine/text/base64.h"
#include "engine/report/json_reader.h"
#include "engine/report/run_file.h"
#include "engine/report/run_file_reader.h"

using namespace tacho::engine;

namespace {

void putBigEndian(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.push_back(std::uint8_t(value >> (8 * i)));
}

// HdrHistogram's ZigZag LEB128 (at most 9 bytes, the ninth holding 8 bits).
void putZigZag(std::vector<std::uint8_t>& out, std::int64_t signedValue)
{
    std::uint64_t v = (std::uint64_t(signedValue) << 1) ^ std::uint64_t(signedValue >> 63);
    for (int i = 0; i < 8; ++i) {
        if (v < 0x80) {
            out.push_back(std::uint8_t(v));
            return;
        }
        out.push_back(std::uint8_t((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(std::uint8_t(v));
}

// A V2 compressed HdrHistogram (1 µs .. 60 s, 3 digits) whose count slots
// are given as (index, count): the encoding any writer would produce, with
// counts no real run could have.
std::string craftedHistogram(const std::vector<std::pair<std::size_t, std::int64_t>>& counts)
{
    std::vector<std::uint8_t> payload;
    std::size_t index = 0;
    for (const auto& [at, count] : counts) {
        if (at > index)
            putZigZag(payload, -std::int64_t(at - index));   // a run of empty slots
        putZigZag(payload, count);
        index = at + 1;
    }
    std::vector<std::uint8_t> encoded;
    putBigEndian(encoded, 0x1c849313, 4);   // V2 encoding cookie
    putBigEndian(encoded, payload.size(), 4);
    putBigEndian(encoded, 0, 4);            // normalizing offset
    putBigEndian(encoded, 3, 4);            // significant digits
    putBigEndian(encoded, 1, 8);            // lowest: 1 µs
    putBigEndian(encoded, 60000000, 8);     // highest: 60 s
    putBigEndian(encoded, 0x3ff0000000000000ull, 8);   // ratio 1.0
    encoded.insert(encoded.end(), payload.begin(), payload.end());
    uLongf size = compressBound(uLong(encoded.size()));
    std::vector<std::uint8_t> envelope(8 + size);
    if (compress2(envelope.data() + 8, &size, encoded.data(), uLong(encoded.size()), Z_DEFAULT_COMPRESSION) != Z_OK)
        return {};
    envelope.resize(8 + size);
    std::vector<std::uint8_t> head;
    putBigEndian(head, 0x1c849314, 4);   // V2 compressed cookie
    putBigEndian(head, size, 4);
    std::copy(head.begin(), head.end(), envelope.begin());
    return base64Encode(envelope);
}

// A valid run file of one test with `requests` requests, its histogram
// replaced by `histogram`.
std::string runFileWith(std::uint64_t requests, const std::string& histogram)
{
    RunResult r;
    r.environment.startedAtUtc = "2026-01-02T03:04:05Z";
    TestSpec spec;
    spec.name = "SET";
    r.config.tests.push_back(spec);
    TestResult t;
    t.name = "SET";
    t.seconds = 1;
    t.requests = 1;
    t.latency.record(1000);
    const std::string original = t.latency.toCompressedBase64();
    r.tests.push_back(std::move(t));
    std::string json = runResultToJson(r);
    const auto at = json.find(original);
    if (at == std::string::npos)
        return {};
    json.replace(at, original.size(), histogram);
    const auto requestsAt = json.find("\"requests\": 1,");
    if (requestsAt == std::string::npos)
        return {};
    json.replace(requestsAt, 14, "\"requests\": " + std::to_string(requests) + ",");
    return json;
}

std::vector<std::string> words(std::initializer_list<std::string> list) { return list; }

} // namespace

class TestInputBounds : public QObject {
    Q_OBJECT

private slots:
    // A crafted histogram whose counts wrap past 2^64 to the total the test
    // claims: refused, in every arrangement of the large counts.
    void wrappingHistogramCountsAreRefused_data()
    {
        QTest::addColumn<std::uint64_t>("claimed");
        QTest::addColumn<QList<int>>("indexes");
        int rows = 0;
        for (std::uint64_t claimed : { 1ull, 7ull, 1000ull, 123456789ull })
            for (const QList<int>& indexes : { QList<int> { 0, 1, 2 }, QList<int> { 5, 900, 3000 },
                                               QList<int> { 2047, 2048, 9000 }, QList<int> { 15000, 10, 4096 } })
                QTest::newRow(qPrintable(QString("total %1, slots %2/%3/%4 (#%5)")
                                             .arg(claimed).arg(indexes[0]).arg(indexes[1]).arg(indexes[2]).arg(++rows)))
                    << claimed << indexes;
    }

    void wrappingHistogramCountsAreRefused()
    {
        QFETCH(std::uint64_t, claimed);
        QFETCH(QList<int>, indexes);
        // (2^63 - 1) + (2^63 - 1) + (claimed + 2) = 2^64 + claimed.
        std::vector<std::pair<std::size_t, std::int64_t>> counts = {
            { std::size_t(indexes[0]), INT64_MAX },
            { std::size_t(indexes[1]), INT64_MAX },
            { std::size_t(indexes[2]), std::int64_t(claimed + 2) },
        };
        std::sort(counts.begin(), counts.end());
        const std::string histogram = craftedHistogram(counts);
        QVERIFY(!histogram.empty());

        LatencyHistogram decoded;
        std::string error;
        QVERIFY2(!LatencyHistogram::fromCompressedBase64(histogram, decoded, &error),
                 qPrintable(QString("decoded, count %1").arg(decoded.count())));
        QVERIFY2(error.find("counts add up to more than 18446744073709551615") != std::string::npos, error.c_str());

        const std::string json = runFileWith(claimed, histogram);
        QVERIFY(!json.empty());
        LoadedRun run;
        QVERIFY2(!runFileFromJson(json, "wrap.json", run, &error), "a wrapped histogram was read");
        QVERIFY2(error.find("wrap.json: tests[0].histogram: not a readable HdrHistogram: counts add up to more than")
                     != std::string::npos,
                 error.c_str());
    }

    // The same file with honest counts reads (the crafting is right).
    void honestCraftedHistogramReads()
    {
        const std::string json = runFileWith(12, craftedHistogram({ { 3, 5 }, { 900, 7 } }));
        LoadedRun run;
        std::string error;
        QVERIFY2(runFileFromJson(json, "ok.json", run, &error), error.c_str());
        QCOMPARE(run.run.tests.at(0).latency.count(), 12u);
    }

    // Latencies whose sum passes 2^64 ns (counts that fit, at 60 s each).
    void latencySumPastSixtyFourBitsIsRefused()
    {
        LatencyHistogram decoded;
        std::string error;
        QVERIFY(!LatencyHistogram::fromCompressedBase64(craftedHistogram({ { 15000, INT64_MAX / 2 } }), decoded, &error));
        QVERIFY2(error.find("latencies add up to more than 2^64 ns") != std::string::npos, error.c_str());
    }

    void cleanupNodeCountsThatWrapAreRefused()
    {
        CleanupResult c;
        std::string error;
        const std::string json = "{\"status\":\"completed\",\"removed\":3,\"nodes\":["
                                 "{\"address\":\"a:1\",\"removed\":18446744073709551615},"
                                 "{\"address\":\"b:1\",\"removed\":4}]}";
        QVERIFY(!cleanupFromJson(json, c, &error));
        QVERIFY2(error.find("add up to more than 18446744073709551615") != std::string::npos, error.c_str());
    }

    // A run file larger than the limit is refused before it is read (a
    // sparse file: no disk space, no memory).
    void runFileOverTheLimitIsRefused()
    {
        QCOMPARE(kMaxRunFileBytes, 256ull << 20);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("huge.json").toStdString();
        const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, off_t(kMaxRunFileBytes + 1)), 0);
        ::close(fd);
        LoadedRun run;
        std::string error;
        QVERIFY(!readRunFile(path, run, &error));
        QCOMPARE(QString::fromStdString(error),
                 QString::fromStdString(path + ": too large to read (268435457 bytes; at most 268435456 bytes, 256 MiB)"));
    }

    // Nesting far past the limit fails with a message, not a stack overflow,
    // in every container kind.
    void deepNestingIsBounded_data()
    {
        QTest::addColumn<QByteArray>("open");
        QTest::newRow("arrays") << QByteArray("[");
        QTest::newRow("objects") << QByteArray("{\"a\":");
        QTest::newRow("mixed") << QByteArray("[{\"k\":");
    }

    void deepNestingIsBounded()
    {
        QFETCH(QByteArray, open);
        std::string text;
        for (int i = 0; i < 1000000; ++i)
            text += open.toStdString();
        JsonParseError error;
        QVERIFY(!parseJson(text, &error));
        QVERIFY2(error.message.find("nested deeper than 512 levels") != std::string::npos, error.message.c_str());
    }

    // -x: standard input up to the limit is the argument; one byte more is a
    // usage error naming -x.
    void stdinArgumentIsBounded()
    {
        QCOMPARE(kMaxStdinArgumentBytes, 512ull << 20);
        for (std::size_t limit : { std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(3 << 20) }) {
            std::istringstream exact(std::string(limit, 'v'));
            QCOMPARE(readStdinArgument(exact, limit).size(), limit);
            std::istringstream over(std::string(limit + 1, 'v'));
            try {
                readStdinArgument(over, limit);
                QFAIL("more than the limit was read");
            } catch (const UsageError& e) {
                QVERIFY2(std::string(e.what()).starts_with("-x: standard input holds more than " + std::to_string(limit)
                                                           + " bytes"),
                         e.what());
            }
        }
    }

    // Requests in flight: every product of connections and pipeline depth
    // above the limit is a usage error naming both options, in both
    // dialects; those within it parse.
    void requestsInFlightAreBounded()
    {
        const std::vector<std::uint64_t> sizes = { 1, 7, 100, 1000, 4096, 65536, 100000 };
        int refused = 0, accepted = 0;
        for (std::uint64_t c : sizes) {
            for (std::uint64_t p : sizes) {
                const bool within = c * p <= kMaxRequestsInFlight;
                const std::vector<std::string> rb = { "-c", std::to_string(c), "-P", std::to_string(p), "-n", "1" };
                try {
                    parseRedisBenchmarkArgs(rb);
                    QVERIFY2(within, qPrintable(QString("-c %1 -P %2 accepted").arg(c).arg(p)));
                    ++accepted;
                } catch (const UsageError& e) {
                    QVERIFY2(!within, e.what());
                    QCOMPARE(QString(e.what()), QString("-c %1 x -P %2 puts more requests in flight at once than the "
                                                        "limit of 1000000 (connections x pipeline)").arg(c).arg(p));
                    ++refused;
                }
                for (std::uint64_t threads : { 1ull, 4ull }) {
                    if (threads * c > 100000)
                        continue;   // refused for its connections alone
                    const std::vector<std::string> mt = { "--threads=" + std::to_string(threads),
                                                          "--clients=" + std::to_string(c),
                                                          "--pipeline=" + std::to_string(p) };
                    const bool mtWithin = threads * c * p <= kMaxRequestsInFlight;
                    try {
                        parseMemtierArgs(mt);
                        QVERIFY2(mtWithin, qPrintable(QString("memtier %1 x %2 x %3 accepted").arg(threads).arg(c).arg(p)));
                    } catch (const UsageError& e) {
                        QVERIFY2(!mtWithin, e.what());
                        QVERIFY2(QString(e.what()).startsWith(QString("--threads %1 x --clients %2 x --pipeline %3 puts more "
                                                                      "requests in flight")
                                                                  .arg(threads).arg(c).arg(p)),
                                 e.what());
                    }
                }
            }
        }
        QVERIFY(refused > 5 && accepted > 5);
        // --preload-pipeline counts when there is a preload.
        try {
            parseMemtierArgs(words({ "--clients=1000", "--preload", "--preload-pipeline=2000" }));
            QFAIL("a preload of 2,000,000 in flight was accepted");
        } catch (const UsageError& e) {
            QVERIFY2(QString(e.what()).contains("--preload-pipeline 2000 puts more requests in flight"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestInputBounds)
#include "test_input_bounds.moc"
