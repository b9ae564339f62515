// memtier's --scan-incremental-iteration (issue 17), without a server: the
// reply scanner's cursor capture (any split of the bytes gives the same
// cursor and key count; off by default), the generator following the cursor
// (SCAN 0 → SCAN <cursor> → … → back to SCAN 0 on cursor 0, an error, or
// --scan-incremental-max-iterations), and the option checks, generated over
// the combinations of bad options, in memtier_benchmark's order.
#include <QtTest/QtTest>

#include <string>
#include <vector>

#include "engine/cli/memtier_args.h"
#include "engine/resp/reply_scanner.h"
#include "engine/workload/memtier_generator_factory.h"

using namespace tacho::engine;

namespace {

struct Captured {
    std::size_t replies = 0;
    std::string cursor;
    std::uint64_t elements = 0;
    ReplyType type = ReplyType::Null;
};

// Feeds `bytes` cut into pieces of `piece` bytes; what the last reply said.
Captured scan(const std::string& bytes, std::size_t piece, bool capture)
{
    ReplyScanner scanner;
    scanner.captureScanReplies(capture);
    Captured out;
    for (std::size_t at = 0; at < bytes.size(); at += piece)
        scanner.feed(std::string_view(bytes).substr(at, piece), [&](const ReplyInfo& reply) {
            ++out.replies;
            out.cursor.assign(reply.cursor);
            out.elements = reply.scanElements;
            out.type = reply.type;
        });
    return out;
}

std::string scanReply(const std::string& cursor, int keys)
{
    std::string out = "*2\r\n$" + std::to_string(cursor.size()) + "\r\n" + cursor + "\r\n*" + std::to_string(keys)
        + "\r\n";
    for (int i = 0; i < keys; ++i) {
        const std::string key = "key:" + std::to_string(i);
        out += "$" + std::to_string(key.size()) + "\r\n" + key + "\r\n";
    }
    return out;
}

ReplyInfo replyOf(const std::string& bytes)
{
    // The generator reads the reply during the callback; keep the text alive.
    static ReplyScanner scanner;
    static std::string cursor;
    scanner.reset();
    scanner.captureScanReplies(true);
    ReplyInfo info;
    scanner.feed(bytes, [&](const ReplyInfo& reply) {
        info = reply;
        cursor.assign(reply.cursor);
    });
    info.cursor = cursor;
    return info;
}

using Args = std::vector<std::string>;

MemtierInvocation parse(const Args& args)
{
    return parseMemtierArgs(std::span<const std::string>(args));
}

} // namespace

class TestScanIteration : public QObject {
    Q_OBJECT

private slots:
    void scannerCapturesCursorAndKeyCountAtAnySplit()
    {
        const std::vector<std::pair<std::string, int>> cases {
            { "0", 0 }, { "17", 3 }, { "18446744073709551615", 10 }, { "5", 1 },
        };
        for (const auto& [cursor, keys] : cases) {
            const std::string bytes = scanReply(cursor, keys);
            for (std::size_t piece = 1; piece <= bytes.size(); ++piece) {
                const Captured got = scan(bytes, piece, true);
                QCOMPARE(got.replies, std::size_t(1));
                QCOMPARE(got.cursor, cursor);
                QCOMPARE(got.elements, std::uint64_t(keys));
            }
            // Off by default: nothing captured.
            const Captured off = scan(bytes, 3, false);
            QVERIFY(off.cursor.empty());
            QCOMPARE(off.elements, std::uint64_t(0));
        }
    }

    void scannerCapturesNothingFromOtherShapes()
    {
        // An error's text is not a cursor; neither is an integer first element.
        QVERIFY(scan("-ERR invalid cursor\r\n", 2, true).cursor.empty());
        QVERIFY(scan("*2\r\n:5\r\n*0\r\n", 1, true).cursor.empty());
        QVERIFY(scan("+OK\r\n", 1, true).cursor.empty());
        // Nested arrays in the key list do not count as keys.
        const Captured nested = scan("*2\r\n$1\r\n9\r\n*2\r\n*1\r\n$1\r\na\r\n$1\r\nb\r\n", 1, true);
        QCOMPARE(nested.cursor, std::string("9"));
        QCOMPARE(nested.elements, std::uint64_t(2));
        // Replies in a row: each has its own cursor.
        const Captured second = scan(scanReply("12", 2) + scanReply("0", 4), 5, true);
        QCOMPARE(second.replies, std::size_t(2));
        QCOMPARE(second.cursor, std::string("0"));
        QCOMPARE(second.elements, std::uint64_t(4));
    }

    void generatorFollowsTheCursor()
    {
        MemtierWorkload w;
        w.commands.push_back(MemtierCommand { { "SCAN", "0", "MATCH", "k:*", "COUNT", "10" } });
        w.scanIteration = true;
        const MemtierGeneratorFactory factory(w);
        QVERIFY(factory.followsReplies());
        QCOMPARE(factory.commandNames(), (std::vector<std::string> { "SCAN 0", "SCAN <cursor>" }));
        QCOMPARE(factory.commandStatNames(), std::vector<std::string> { "scan" });
        auto generator = factory.create(0, 1, 1);
        const auto request = [&] {
            std::string out;
            const std::uint32_t index = generator->appendNext(out);
            return std::make_pair(index, out);
        };
        const auto encoded = [](const std::string& cursor) {
            return "*6\r\n$4\r\nSCAN\r\n$" + std::to_string(cursor.size()) + "\r\n" + cursor
                + "\r\n$5\r\nMATCH\r\n$3\r\nk:*\r\n$5\r\nCOUNT\r\n$2\r\n10\r\n";
        };
        QCOMPARE(request(), std::make_pair(0u, encoded("0")));
        generator->onReply(replyOf(scanReply("96", 10)));
        QCOMPARE(request(), std::make_pair(1u, encoded("96")));
        generator->onReply(replyOf(scanReply("18446744073709551615", 10)));
        QCOMPARE(request(), std::make_pair(1u, encoded("18446744073709551615")));
        generator->onReply(replyOf(scanReply("0", 3)));   // iteration done: start again
        QCOMPARE(request(), std::make_pair(0u, encoded("0")));
        generator->onReply(replyOf(scanReply("7", 10)));
        QCOMPARE(request(), std::make_pair(1u, encoded("7")));
        generator->onReply(replyOf("-ERR invalid cursor\r\n"));   // memtier restarts on an error
        QCOMPARE(request(), std::make_pair(0u, encoded("0")));
    }

    void maxIterationsCountsContinuations()
    {
        for (std::uint32_t limit : { 1u, 2u, 3u, 5u }) {
            MemtierWorkload w;
            w.commands.push_back(MemtierCommand { { "SCAN", "0", "COUNT", "1" } });
            w.scanIteration = true;
            w.scanMaxIterations = limit;
            auto generator = MemtierGeneratorFactory(w).create(0, 1, 1);
            // Replies never return cursor 0: every cycle is 1 + limit requests.
            std::vector<std::uint32_t> indexes;
            for (int i = 0; i < 4 * int(limit + 1); ++i) {
                std::string out;
                indexes.push_back(generator->appendNext(out));
                generator->onReply(replyOf(scanReply(std::to_string(100 + i), 1)));
            }
            for (std::size_t i = 0; i < indexes.size(); ++i)
                QCOMPARE(indexes[i], i % (limit + 1) == 0 ? 0u : 1u);
        }
    }

    void badCombinationsAreRefusedInMemtiersOrder()
    {
        // Every combination of: the flag, a max-iterations value, the
        // pipeline, the commands, cluster mode.
        const std::vector<std::vector<std::string>> commandSets {
            {}, { "SCAN 0 COUNT 10" }, { "GET __key__" }, { "SCAN" }, { "SCAN 0", "GET __key__" }, { "scan 5" },
        };
        const std::vector<std::string> maxValues { "", "3", "0", "-1", "x" };
        int cases = 0;
        for (bool iteration : { false, true })
            for (const std::string& max : maxValues)
                for (int pipeline : { 1, 4 })
                    for (const auto& commands : commandSets)
                        for (bool cluster : { false, true }) {
                            Args args { "-p", "6379", "--pipeline", std::to_string(pipeline) };
                            if (iteration)
                                args.push_back("--scan-incremental-iteration");
                            if (!max.empty())
                                args.push_back("--scan-incremental-max-iterations=" + max);
                            for (const std::string& command : commands)
                                args.push_back("--command=" + command);
                            if (cluster)
                                args.push_back("--cluster-mode");

                            std::string expected;   // the start of the message; empty: accepted
                            if (max == "-1")
                                expected = "--scan-incremental-max-iterations: must be between 0";
                            else if (max == "x")
                                expected = "--scan-incremental-max-iterations: 'x' is not a whole number";
                            else if (!iteration && !max.empty())
                                expected = "--scan-incremental-max-iterations: only applies with";
                            else if (iteration && pipeline != 1)
                                expected = "--scan-incremental-iteration: needs --pipeline 1";
                            else if (iteration && commands.empty())
                                expected = "--scan-incremental-iteration: needs --command with a SCAN command";
                            else if (iteration && cluster)
                                expected = "--scan-incremental-iteration: not supported with --cluster-mode";
                            else if (iteration && commands.size() != 1)
                                expected = "--scan-incremental-iteration: needs exactly one --command";
                            else if (iteration && commands.front().starts_with("GET"))
                                expected = "--scan-incremental-iteration: the --command must be a SCAN command";
                            else if (iteration && commands.front() == "SCAN")
                                expected = "--scan-incremental-iteration: the SCAN command needs a cursor";

                            std::string what;
                            try {
                                const MemtierInvocation inv = parse(args);
                                QCOMPARE(inv.workload.scanIteration, iteration);
                                if (!max.empty())
                                    QCOMPARE(inv.workload.scanMaxIterations, std::uint32_t(std::stoul(max)));
                            } catch (const UsageError& error) {
                                what = error.what();
                            }
                            std::string line;
                            for (const std::string& arg : args)
                                line += arg + " ";
                            QVERIFY2(expected.empty() ? what.empty() : what.starts_with(expected),
                                     qPrintable(QString::fromStdString(line + "\n  expected: " + expected
                                                                       + "\n  got: " + what)));
                            ++cases;
                        }
        QCOMPARE(cases, 2 * 5 * 2 * 6 * 2);
    }

    void preloadDoesNotScan()
    {
        const MemtierInvocation inv = parse({ "--scan-incremental-iteration", "--command=SCAN 0", "--preload" });
        const RunConfig preload = memtierPreloadConfig(inv);
        QVERIFY(!preload.tests.front().generator->followsReplies());
    }
};

QTEST_APPLESS_MAIN(TestScanIteration)
#include "test_scan_iteration.moc"
