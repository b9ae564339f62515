// Issue 15: a legal reply nested deeper than 32 levels (EVAL returning a nested
// table) failed the run as a protocol error. The scanner keeps its nesting in a
// fixed stack of runs; these tests generate nestings of every shape at the
// depths around each limit and split each one at every byte.
#include <QTest>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/resp/reply_scanner.h"

using namespace tacho::engine;

namespace {

struct Outcome {
    bool failed = false;
    std::string failure;
    std::vector<ReplyInfo> replies;   // errorText not kept (not needed here)
};

// Feeds `wire` in the pieces cut at `cuts` (ascending offsets).
Outcome scanPieces(const std::string& wire, const std::vector<std::size_t>& cuts)
{
    ReplyScanner scanner;
    Outcome out;
    std::size_t from = 0;
    std::vector<std::size_t> ends = cuts;
    ends.push_back(wire.size());
    for (std::size_t end : ends) {
        scanner.feed(std::string_view(wire).substr(from, end - from), [&out](const ReplyInfo& r) {
            out.replies.push_back(r);
            out.replies.back().errorText = {};
        });
        if (scanner.failed()) {
            out.failed = true;
            out.failure = std::string(scanner.failure());
            return out;
        }
        from = end;
    }
    return out;
}

// One level of a nesting: how many values it holds and where its child goes.
struct Level {
    char type;            // '*', '%' (count pairs), '~', '>', or '|' (an attribute before an array)
    std::size_t count;    // values (pairs for '%')
    std::size_t childAt;  // index of the nested value among them
};

// The wire form of `levels` nested in each other around the leaf ":1".
std::string build(const std::vector<Level>& levels, std::size_t at = 0)
{
    if (at == levels.size())
        return ":1\r\n";
    const Level& level = levels[at];
    if (level.type == '|')   // an attribute, then a one-element array holding the rest
        return "|1\r\n+key\r\n+value\r\n*1\r\n" + build(levels, at + 1);
    const std::size_t values = level.type == '%' ? level.count * 2 : level.count;
    std::string wire = std::string(1, level.type) + std::to_string(level.count) + "\r\n";
    for (std::size_t i = 0; i < values; ++i)
        wire += i == level.childAt ? build(levels, at + 1) : "+v\r\n";
    return wire;
}

using Shape = std::function<Level(std::size_t)>;

struct NamedShape {
    const char* name;
    Shape shape;
    bool regular;   // adjacent levels expect the same number of values
};

const std::vector<NamedShape>& shapes()
{
    static const std::vector<NamedShape> all = {
        {"single", [](std::size_t) { return Level{'*', 1, 0}; }, true},
        {"child last", [](std::size_t) { return Level{'*', 2, 1}; }, true},
        {"child first", [](std::size_t) { return Level{'*', 3, 0}; }, true},
        {"map values", [](std::size_t) { return Level{'%', 1, 1}; }, true},
        {"set", [](std::size_t) { return Level{'~', 2, 0}; }, true},
        {"attributed", [](std::size_t) { return Level{'|', 1, 0}; }, true},
        // Every level expects a different number of values than the one above
        // (1, 2, 1, 2…): one frame per level.
        {"irregular", [](std::size_t i) { return Level{'*', 1 + i % 2, 0}; }, false},
    };
    return all;
}

std::vector<Level> levelsOf(const Shape& shape, std::size_t depth)
{
    std::vector<Level> levels;
    for (std::size_t i = 0; i < depth; ++i)
        levels.push_back(shape(i));
    return levels;
}

} // namespace

class TestDeepNesting : public QObject {
    Q_OBJECT

private slots:
    // Depths around the old limit (32) and the runs limit, each split at every
    // byte, followed by a flat reply that must scan as usual (state reset).
    void splitAtEveryByte_data();
    void splitAtEveryByte();
    // The deepest: as deep as Redis answers EVAL, then one level too deep.
    void deepestAccepted_data();
    void deepestAccepted();
    // A shape changing at every level is accepted up to kMaxRuns levels.
    void irregularLimit();
};

void TestDeepNesting::splitAtEveryByte_data()
{
    QTest::addColumn<int>("shape");
    QTest::addColumn<int>("depth");
    for (int s = 0; s < static_cast<int>(shapes().size()); ++s)
        for (int depth : {31, 32, 33, 64, 100}) {
            if (!shapes()[static_cast<std::size_t>(s)].regular && depth > static_cast<int>(ReplyScanner::kMaxRuns))
                continue;
            QTest::addRow("%s, %d levels", shapes()[static_cast<std::size_t>(s)].name, depth) << s << depth;
        }
}

void TestDeepNesting::splitAtEveryByte()
{
    QFETCH(int, shape);
    QFETCH(int, depth);
    const std::string reply = build(levelsOf(shapes()[static_cast<std::size_t>(shape)].shape, static_cast<std::size_t>(depth)));
    const std::string wire = reply + "+OK\r\n";
    for (std::size_t cut = 0; cut <= wire.size(); ++cut) {
        const Outcome out = scanPieces(wire, {cut});
        QVERIFY2(!out.failed, qPrintable(QString("cut at %1: %2").arg(cut).arg(QString::fromStdString(out.failure))));
        QCOMPARE(out.replies.size(), std::size_t(2));
        QCOMPARE(out.replies[0].bytes, std::uint64_t(reply.size()));
        QCOMPARE(out.replies[1].type, ReplyType::SimpleString);
        QCOMPARE(out.replies[1].bytes, std::uint64_t(5));
    }
    // And one byte at a time.
    std::vector<std::size_t> everyByte;
    for (std::size_t i = 1; i < wire.size(); ++i)
        everyByte.push_back(i);
    const Outcome bytewise = scanPieces(wire, everyByte);
    QVERIFY(!bytewise.failed);
    QCOMPARE(bytewise.replies.size(), std::size_t(2));
    QCOMPARE(bytewise.replies[0].bytes, std::uint64_t(reply.size()));
}

void TestDeepNesting::deepestAccepted_data()
{
    QTest::addColumn<int>("shape");
    for (int s = 0; s < static_cast<int>(shapes().size()); ++s)
        if (shapes()[static_cast<std::size_t>(s)].regular)
            QTest::addRow("%s", shapes()[static_cast<std::size_t>(s)].name) << s;
}

void TestDeepNesting::deepestAccepted()
{
    QFETCH(int, shape);
    const Shape& make = shapes()[static_cast<std::size_t>(shape)].shape;
    const std::size_t deepest = ReplyScanner::kMaxNesting;
    const std::string reply = build(levelsOf(make, deepest));
    // Cuts every 97 bytes (a full every-byte sweep would be quadratic here).
    std::vector<std::size_t> cuts;
    for (std::size_t i = 97; i < reply.size(); i += 97)
        cuts.push_back(i);
    const Outcome out = scanPieces(reply + reply, cuts);
    QVERIFY2(!out.failed, qPrintable(QString::fromStdString(out.failure)));
    QCOMPARE(out.replies.size(), std::size_t(2));
    QCOMPARE(out.replies[1].bytes, std::uint64_t(reply.size()));

    const Outcome tooDeep = scanPieces(build(levelsOf(make, deepest + 1)), {});
    QVERIFY(tooDeep.failed);
    QVERIFY2(tooDeep.failure.find("deep") != std::string::npos, tooDeep.failure.c_str());
}

void TestDeepNesting::irregularLimit()
{
    const Shape& irregular = shapes().back().shape;
    const Outcome ok = scanPieces(build(levelsOf(irregular, ReplyScanner::kMaxRuns)), {});
    QVERIFY2(!ok.failed, ok.failure.c_str());
    QCOMPARE(ok.replies.size(), std::size_t(1));
    const Outcome tooDeep = scanPieces(build(levelsOf(irregular, ReplyScanner::kMaxRuns + 1)), {});
    QVERIFY(tooDeep.failed);
    QVERIFY2(tooDeep.failure.find("deep") != std::string::npos, tooDeep.failure.c_str());
}

QTEST_APPLESS_MAIN(TestDeepNesting)
#include "test_deep_nesting.moc"
