// Tests for the streaming RESP reply scanner, including a differential test
// against hiredis's reader on random RESP2 streams.
#include <QTest>

#include <hiredis/hiredis.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/resp/reply_scanner.h"

using namespace tacho::engine;

namespace {

// A ReplyInfo with its error text copied out of the callback.
struct Seen {
    ReplyType type = ReplyType::Null;
    ErrorKind error = ErrorKind::None;
    bool miss = false;
    std::string errorText;
    std::uint64_t bytes = 0;

    bool operator==(const Seen&) const = default;
};

struct ScanResult {
    std::vector<Seen> replies;
    std::size_t consumed = 0;
    bool failed = false;
};

Seen record(const ReplyInfo& info)
{
    return Seen{info.type, info.error, info.miss, std::string(info.errorText), info.bytes};
}

// Feeds `input` in chunks whose sizes come from `nextChunk`, stopping at a
// protocol error.
template <class NextChunk>
ScanResult scanChunked(std::string_view input, NextChunk&& nextChunk)
{
    ScanResult result;
    ReplyScanner scanner;
    std::size_t pos = 0;
    while (pos < input.size() && !scanner.failed()) {
        const std::size_t len = std::min(nextChunk(), input.size() - pos);
        const std::size_t used = scanner.feed(input.substr(pos, len),
            [&](const ReplyInfo& info) { result.replies.push_back(record(info)); });
        result.consumed += used;
        if (used != len && !scanner.failed())
            QTest::qFail("short consumption without failure", __FILE__, __LINE__);
        pos += len;
    }
    result.failed = scanner.failed();
    return result;
}

ScanResult scanAll(std::string_view input)
{
    return scanChunked(input, [&] { return input.size(); });
}

ScanResult scanByteByByte(std::string_view input)
{
    return scanChunked(input, [] { return std::size_t(1); });
}

// Scans a stream expected to hold exactly one reply.
Seen scanSingle(std::string_view input)
{
    const ScanResult result = scanAll(input);
    if (result.failed || result.replies.size() != 1) {
        QTest::qFail(qPrintable(QStringLiteral("expected one reply from %1, got %2%3")
                                    .arg(QString::fromLatin1(input.data(), qsizetype(input.size())).toHtmlEscaped())
                                    .arg(result.replies.size())
                                    .arg(result.failed ? QStringLiteral(" (failed)") : QString())),
            __FILE__, __LINE__);
        return {};
    }
    return result.replies.front();
}

// One reply of each kind, plus nesting, attributes and pushes.
const std::vector<std::string>& mixedReplies()
{
    static const std::vector<std::string> replies = {
        "+OK\r\n",
        "-ERR unknown command 'FOO'\r\n",
        ":0\r\n",
        ":-9223372036854775808\r\n",
        "$5\r\nhello\r\n",
        "$0\r\n\r\n",
        "$-1\r\n",
        "*-1\r\n",
        "*0\r\n",
        "*3\r\n:1\r\n$3\r\na\r\n\r\n$-1\r\n",
        "_\r\n",
        ",3.14159\r\n",
        ",-inf\r\n",
        "#t\r\n",
        "#f\r\n",
        "(3492890328409238509324850943850943825024385\r\n",
        "=15\r\ntxt:Some string\r\n",
        "!21\r\nSYNTAX invalid syntax\r\n",
        "%2\r\n+first\r\n:1\r\n+second\r\n*2\r\n:2\r\n:3\r\n",
        "~3\r\n+a\r\n+b\r\n+c\r\n",
        ">3\r\n+message\r\n+news\r\n$5\r\nhello\r\n",
        "|1\r\n+key-popularity\r\n%1\r\n$1\r\na\r\n,0.19\r\n*2\r\n:2039123\r\n:9543892\r\n",
        "*2\r\n*2\r\n*2\r\n:1\r\n-MOVED 1 h:1\r\n%0\r\n~1\r\n_\r\n",
        "-MOVED 3999 127.0.0.1:6381\r\n",
        "$12\r\nline\r\nbreaks\r\n",
    };
    return replies;
}

std::string concat(const std::vector<std::string>& parts, int times = 1)
{
    std::string out;
    for (int i = 0; i < times; ++i) {
        for (const std::string& part : parts)
            out += part;
    }
    return out;
}

} // namespace

class TestReplyScanner : public QObject {
    Q_OBJECT

private slots:
    void everyType_data();
    void everyType();
    void byteByByteMatchesOneFeed();
    void randomSplits();
    void nestedAggregates();
    void nullsAndMiss();
    void errorKinds_data();
    void errorKinds();
    void errorKindNames();
    void errorTextTruncation();
    void wireSizes();
    void protocolErrors_data();
    void protocolErrors();
    void resetAfterFailure();
    void nestingLimit();
    void attributesSkipped();
    void pushMessages();
    void differentialAgainstHiredis();
};

void TestReplyScanner::everyType_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("type");
    QTest::addColumn<bool>("miss");

    const auto row = [](const char* name, const QByteArray& input, ReplyType type, bool miss = false) {
        QTest::newRow(name) << input << int(type) << miss;
    };
    row("simple", "+OK\r\n", ReplyType::SimpleString);
    row("simple-empty", "+\r\n", ReplyType::SimpleString);
    row("error", "-ERR bad\r\n", ReplyType::Error);
    row("integer", ":42\r\n", ReplyType::Integer);
    row("integer-negative", ":-7\r\n", ReplyType::Integer);
    row("integer-max", ":9223372036854775807\r\n", ReplyType::Integer);
    row("bulk", "$3\r\nfoo\r\n", ReplyType::BulkString);
    row("bulk-empty", "$0\r\n\r\n", ReplyType::BulkString);
    row("bulk-null", "$-1\r\n", ReplyType::Null, true);
    row("array", "*2\r\n+a\r\n+b\r\n", ReplyType::Array);
    row("array-empty", "*0\r\n", ReplyType::Array);
    row("array-null", "*-1\r\n", ReplyType::Null, true);
    row("null", "_\r\n", ReplyType::Null, true);
    row("double", ",1.5e10\r\n", ReplyType::Double);
    row("double-nan", ",nan\r\n", ReplyType::Double);
    row("boolean-true", "#t\r\n", ReplyType::Boolean);
    row("boolean-false", "#f\r\n", ReplyType::Boolean);
    row("bignumber", "(-12345678901234567890123\r\n", ReplyType::BigNumber);
    row("blob-error", "!10\r\nERR oops!!\r\n", ReplyType::Error);
    row("verbatim", "=8\r\ntxt:abcd\r\n", ReplyType::VerbatimString);
    row("map", "%1\r\n+k\r\n+v\r\n", ReplyType::Map);
    row("map-empty", "%0\r\n", ReplyType::Map);
    row("set", "~2\r\n:1\r\n:2\r\n", ReplyType::Set);
    row("push", ">2\r\n+pubsub\r\n+x\r\n", ReplyType::Push);
}

void TestReplyScanner::everyType()
{
    QFETCH(QByteArray, input);
    QFETCH(int, type);
    QFETCH(bool, miss);

    const std::string_view view(input.constData(), std::size_t(input.size()));
    for (const ScanResult& result : {scanAll(view), scanByteByByte(view)}) {
        QVERIFY(!result.failed);
        QCOMPARE(result.consumed, view.size());
        QCOMPARE(result.replies.size(), std::size_t(1));
        const Seen& reply = result.replies.front();
        QCOMPARE(int(reply.type), type);
        QCOMPARE(reply.miss, miss);
        QCOMPARE(reply.bytes, std::uint64_t(view.size()));
        QCOMPARE(reply.error == ErrorKind::None, reply.type != ReplyType::Error);
    }
}

void TestReplyScanner::byteByByteMatchesOneFeed()
{
    const std::string stream = concat(mixedReplies(), 20);
    const ScanResult whole = scanAll(stream);
    const ScanResult bytes = scanByteByByte(stream);

    QVERIFY(!whole.failed);
    QCOMPARE(whole.replies.size(), mixedReplies().size() * 20);
    QCOMPARE(bytes.replies.size(), whole.replies.size());
    QVERIFY(bytes.replies == whole.replies);

    // Every byte belongs to exactly one reply.
    std::uint64_t total = 0;
    for (const Seen& reply : whole.replies)
        total += reply.bytes;
    QCOMPARE(total, std::uint64_t(stream.size()));
}

void TestReplyScanner::randomSplits()
{
    const std::string stream = concat(mixedReplies(), 4);
    const ScanResult reference = scanAll(stream);
    QVERIFY(!reference.failed);

    std::mt19937 rng(20240611);
    for (int iteration = 0; iteration < 400; ++iteration) {
        // Alternate between tiny pieces and larger ones.
        const std::size_t maxChunk = iteration % 2 ? 4 : 97;
        std::uniform_int_distribution<std::size_t> chunk(1, maxChunk);
        const ScanResult split = scanChunked(stream, [&] { return chunk(rng); });
        QVERIFY(!split.failed);
        QCOMPARE(split.consumed, stream.size());
        QVERIFY2(split.replies == reference.replies, qPrintable(QStringLiteral("iteration %1").arg(iteration)));
    }
}

void TestReplyScanner::nestedAggregates()
{
    const std::string nested =
        "*3\r\n"
        "  *2\r\n:1\r\n*1\r\n$2\r\nab\r\n"
        "  %2\r\n+k1\r\n~2\r\n:1\r\n:2\r\n+k2\r\n*0\r\n"
        "  >1\r\n_\r\n";
    // The spaces above are for reading only.
    std::string wire;
    for (char c : nested) {
        if (c != ' ')
            wire += c;
    }
    const std::string stream = wire + "+after\r\n";
    const ScanResult result = scanAll(stream);
    QVERIFY(!result.failed);
    QCOMPARE(result.replies.size(), std::size_t(2));
    QCOMPARE(result.replies[0].type, ReplyType::Array);
    QCOMPARE(result.replies[0].bytes, std::uint64_t(wire.size()));
    QCOMPARE(result.replies[1].type, ReplyType::SimpleString);

    // An aggregate whose last element is itself an aggregate closes both.
    const Seen closing = scanSingle("*1\r\n*1\r\n*1\r\n*0\r\n");
    QCOMPARE(closing.type, ReplyType::Array);
    QCOMPARE(closing.bytes, std::uint64_t(16));

    // Errors nested in arrays (EXEC results) do not make the reply an error.
    const Seen exec = scanSingle("*2\r\n+OK\r\n-WRONGTYPE Operation\r\n");
    QCOMPARE(exec.type, ReplyType::Array);
    QCOMPARE(exec.error, ErrorKind::None);
    QVERIFY(exec.errorText.empty());
}

void TestReplyScanner::nullsAndMiss()
{
    for (const char* null : {"$-1\r\n", "*-1\r\n", "_\r\n"}) {
        const Seen reply = scanSingle(null);
        QCOMPARE(reply.type, ReplyType::Null);
        QVERIFY(reply.miss);
    }
    // Nulls inside aggregates are not misses.
    const Seen mget = scanSingle("*3\r\n$1\r\na\r\n$-1\r\n_\r\n");
    QCOMPARE(mget.type, ReplyType::Array);
    QVERIFY(!mget.miss);
    // Empty values are not nulls.
    const Seen empty = scanSingle("$0\r\n\r\n");
    QCOMPARE(empty.type, ReplyType::BulkString);
    QVERIFY(!empty.miss);
    // A miss does not leak into the next reply.
    const ScanResult pair = scanAll("$-1\r\n$1\r\nx\r\n");
    QCOMPARE(pair.replies.size(), std::size_t(2));
    QVERIFY(pair.replies[0].miss);
    QVERIFY(!pair.replies[1].miss);
}

void TestReplyScanner::errorKinds_data()
{
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<int>("kind");

    const auto row = [](const QByteArray& message, ErrorKind kind) {
        QTest::newRow(message.isEmpty() ? "(empty)" : message.constData()) << message << int(kind);
    };
    row("ERR unknown command", ErrorKind::Generic);
    row("MOVED 3999 127.0.0.1:6381", ErrorKind::Moved);
    row("ASK 3999 127.0.0.1:6381", ErrorKind::Ask);
    row("NOAUTH Authentication required.", ErrorKind::NoAuth);
    row("WRONGPASS invalid username-password pair", ErrorKind::WrongPass);
    row("NOPERM this user has no permissions", ErrorKind::NoPerm);
    row("LOADING Redis is loading the dataset in memory", ErrorKind::Loading);
    row("OOM command not allowed", ErrorKind::Oom);
    row("READONLY You can't write against a read only replica.", ErrorKind::ReadOnly);
    row("CLUSTERDOWN The cluster is down", ErrorKind::ClusterDown);
    row("TRYAGAIN Multiple keys request during rehashing", ErrorKind::TryAgain);
    row("BUSY Redis is busy running a script.", ErrorKind::Busy);
    row("WRONGTYPE Operation against a key", ErrorKind::WrongType);
    row("NOSCRIPT No matching script.", ErrorKind::NoScript);
    row("MASTERDOWN Link with MASTER is down", ErrorKind::MasterDown);
    row("CROSSSLOT Keys in request don't hash to the same slot", ErrorKind::CrossSlot);
    row("EXECABORT Transaction discarded", ErrorKind::ExecAbort);
    row("BUSYKEY Target key name already exists.", ErrorKind::Generic);   // prefix of a name is not the name
    row("MOVEDX 1 h:1", ErrorKind::Generic);
    row("moved 1 h:1", ErrorKind::Generic);
    row("OOM", ErrorKind::Oom);   // the word alone
    row("", ErrorKind::Generic);
}

void TestReplyScanner::errorKinds()
{
    QFETCH(QByteArray, message);
    QFETCH(int, kind);

    const std::string text = message.toStdString();
    QCOMPARE(int(classifyError(text)), kind);

    const Seen simple = scanSingle("-" + text + "\r\n");
    QCOMPARE(simple.type, ReplyType::Error);
    QCOMPARE(int(simple.error), kind);
    QCOMPARE(simple.errorText, text);

    const Seen blob = scanSingle("!" + std::to_string(text.size()) + "\r\n" + text + "\r\n");
    QCOMPARE(blob.type, ReplyType::Error);
    QCOMPARE(int(blob.error), kind);
    QCOMPARE(blob.errorText, text);
}

void TestReplyScanner::errorKindNames()
{
    QCOMPARE(errorKindName(ErrorKind::Generic), std::string_view("ERR"));
    QCOMPARE(errorKindName(ErrorKind::Moved), std::string_view("MOVED"));
    QCOMPARE(errorKindName(ErrorKind::WrongPass), std::string_view("WRONGPASS"));
    QVERIFY(errorKindName(ErrorKind::None).empty());
    // Every named kind classifies back to itself.
    for (int k = int(ErrorKind::Generic); k <= int(ErrorKind::ExecAbort); ++k) {
        const auto kind = ErrorKind(k);
        const std::string_view name = errorKindName(kind);
        QVERIFY(!name.empty());
        QCOMPARE(classifyError(std::string(name) + " details"), kind);
    }
}

void TestReplyScanner::errorTextTruncation()
{
    std::string longText = "MOVED ";
    for (int i = 0; longText.size() < 1000; ++i)
        longText += char('a' + i % 26);
    const std::string_view kept = std::string_view(longText).substr(0, ReplyScanner::kMaxErrorText);

    const std::string simple = "-" + longText + "\r\n";
    const std::string blob = "!" + std::to_string(longText.size()) + "\r\n" + longText + "\r\n";
    for (const std::string& wire : {simple, blob}) {
        for (const ScanResult& result : {scanAll(wire), scanByteByByte(wire)}) {
            QCOMPARE(result.replies.size(), std::size_t(1));
            const Seen& reply = result.replies.front();
            QCOMPARE(reply.errorText.size(), ReplyScanner::kMaxErrorText);
            QCOMPARE(reply.errorText, std::string(kept));
            QCOMPARE(reply.error, ErrorKind::Moved);
            QCOMPARE(reply.bytes, std::uint64_t(wire.size()));
        }
    }

    // A long error is followed by a short one: no leftover text.
    const ScanResult two = scanAll(simple + "-ERR x\r\n");
    QCOMPARE(two.replies.size(), std::size_t(2));
    QCOMPARE(two.replies[1].errorText, std::string("ERR x"));
}

void TestReplyScanner::wireSizes()
{
    const std::vector<std::string>& replies = mixedReplies();
    const ScanResult result = scanAll(concat(replies));
    QVERIFY(!result.failed);
    QCOMPARE(result.replies.size(), replies.size());
    for (std::size_t i = 0; i < replies.size(); ++i)
        QCOMPARE(result.replies[i].bytes, std::uint64_t(replies[i].size()));

    // A large bulk string is skipped by length, whatever its content.
    std::string payload(1 << 20, '\r');
    for (std::size_t i = 0; i < payload.size(); i += 3)
        payload[i] = '\n';
    const std::string big = "$" + std::to_string(payload.size()) + "\r\n" + payload + "\r\n";
    std::mt19937 rng(7);
    std::uniform_int_distribution<std::size_t> chunk(1, 70000);
    const ScanResult split = scanChunked(big, [&] { return chunk(rng); });
    QCOMPARE(split.replies.size(), std::size_t(1));
    QCOMPARE(split.replies[0].type, ReplyType::BulkString);
    QCOMPARE(split.replies[0].bytes, std::uint64_t(big.size()));
}

void TestReplyScanner::protocolErrors_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("consumed");   // bytes before the one the error is detected at

    QTest::newRow("bad type byte") << QByteArray("+OK\r\n?\r\n") << 5;
    QTest::newRow("lowercase type") << QByteArray("ok\r\n") << 0;
    QTest::newRow("non-digit length") << QByteArray("$abc\r\n") << 1;
    QTest::newRow("digit then junk") << QByteArray("*1x\r\n") << 2;
    QTest::newRow("empty length") << QByteArray("$\r\n") << 2;
    QTest::newRow("lone minus") << QByteArray("*-\r\n") << 3;
    QTest::newRow("negative length") << QByteArray("$-2\r\n") << 4;
    QTest::newRow("negative count") << QByteArray("*-5\r\n") << 4;
    QTest::newRow("double minus") << QByteArray(":--1\r\n") << 2;
    QTest::newRow("integer with space") << QByteArray(": 1\r\n") << 1;
    QTest::newRow("integer empty") << QByteArray(":\r\n") << 2;
    QTest::newRow("integer overflow") << QByteArray(":99999999999999999999\r\n") << 19;
    QTest::newRow("CR without LF") << QByteArray(":1\rX") << 3;
    QTest::newRow("bulk too long") << QByteArray("$3\r\nabcd\r\n") << 7;
    QTest::newRow("bulk missing LF") << QByteArray("$3\r\nabc\rX") << 8;
    QTest::newRow("simple missing LF") << QByteArray("+OK\rX\n") << 4;
    QTest::newRow("bad boolean") << QByteArray("#x\r\n") << 3;
    QTest::newRow("long boolean") << QByteArray("#tt\r\n") << 4;
    QTest::newRow("null with body") << QByteArray("_1\r\n") << 3;
    QTest::newRow("null attribute") << QByteArray("|-1\r\n") << 4;
    QTest::newRow("bad element") << QByteArray("*2\r\n:1\r\n@\r\n") << 8;
    QTest::newRow("huge length") << QByteArray("$9223372036854775807\r\n") << 21;
}

void TestReplyScanner::protocolErrors()
{
    QFETCH(QByteArray, input);
    QFETCH(int, consumed);

    const std::string_view view(input.constData(), std::size_t(input.size()));
    const ScanResult whole = scanAll(view);
    QVERIFY(whole.failed);
    QCOMPARE(whole.consumed, std::size_t(consumed));
    QVERIFY(whole.consumed < view.size());

    // Split input fails at the same place.
    const ScanResult bytes = scanByteByByte(view);
    QVERIFY(bytes.failed);
    QCOMPARE(bytes.consumed, std::size_t(consumed));
    QCOMPARE(bytes.replies.size(), whole.replies.size());

    ReplyScanner scanner;
    scanner.feed(view, [](const ReplyInfo&) {});
    QVERIFY(scanner.failed());
    QVERIFY(!scanner.failure().empty());
    // Once failed, further input is ignored.
    int later = 0;
    QCOMPARE(scanner.feed("+OK\r\n", [&](const ReplyInfo&) { ++later; }), std::size_t(0));
    QCOMPARE(later, 0);
}

void TestReplyScanner::resetAfterFailure()
{
    ReplyScanner scanner;
    std::vector<Seen> seen;
    const auto collect = [&](const ReplyInfo& info) { seen.push_back(record(info)); };

    // Fail in the middle of an aggregate with an error reply in progress.
    scanner.feed("-ERR first\r\n*3\r\n:1\r\n*2\r\n$", collect);
    QVERIFY(!scanner.failed());
    scanner.feed("x", collect);
    QVERIFY(scanner.failed());
    QCOMPARE(seen.size(), std::size_t(1));

    scanner.reset();
    QVERIFY(!scanner.failed());
    QVERIFY(scanner.failure().empty());
    const std::string next = "$-1\r\n:5\r\n";
    QCOMPARE(scanner.feed(next, collect), next.size());
    QCOMPARE(seen.size(), std::size_t(3));
    QCOMPARE(seen[1].type, ReplyType::Null);
    QVERIFY(seen[1].miss);
    QCOMPARE(seen[1].bytes, std::uint64_t(5));   // no bytes carried over from before the reset
    QCOMPARE(seen[2].type, ReplyType::Integer);
}

void TestReplyScanner::nestingLimit()
{
    // Issue 15: as deep as Redis answers (tests/engine/test_deep_nesting.cpp
    // generates the shapes); here the plain one-element chain.
    const auto nested = [](std::size_t depth) {
        std::string wire;
        for (std::size_t i = 0; i < depth; ++i)
            wire += "*1\r\n";
        return wire + ":1\r\n";
    };

    const std::string atLimit = nested(ReplyScanner::kMaxNesting);
    const ScanResult ok = scanByteByByte(atLimit);
    QVERIFY(!ok.failed);
    QCOMPARE(ok.replies.size(), std::size_t(1));
    QCOMPARE(ok.replies[0].bytes, std::uint64_t(atLimit.size()));

    const std::string tooDeep = nested(ReplyScanner::kMaxNesting + 1);
    ReplyScanner scanner;
    const std::size_t used = scanner.feed(tooDeep, [](const ReplyInfo&) {});
    QVERIFY(scanner.failed());
    QVERIFY(used < tooDeep.size());
    QVERIFY(scanner.failure().find("deep") != std::string_view::npos);

    // Attributes count towards the depth too.
    std::string attributes;
    for (std::size_t i = 0; i <= ReplyScanner::kMaxNesting; ++i)
        attributes += "|1\r\n";
    QVERIFY(scanAll(attributes + "+k\r\n+v\r\n").failed);
}

void TestReplyScanner::attributesSkipped()
{
    // A top-level attribute is part of the reply that follows it.
    const std::string attributed = "|1\r\n+key-popularity\r\n%2\r\n$1\r\na\r\n,0.19\r\n$1\r\nb\r\n,0.5\r\n"
                                   "*2\r\n:2039123\r\n:9543892\r\n";
    const ScanResult result = scanByteByByte(attributed + "+OK\r\n");
    QVERIFY(!result.failed);
    QCOMPARE(result.replies.size(), std::size_t(2));
    QCOMPARE(result.replies[0].type, ReplyType::Array);
    QCOMPARE(result.replies[0].bytes, std::uint64_t(attributed.size()));
    QCOMPARE(result.replies[1].type, ReplyType::SimpleString);

    // Inside an aggregate an attribute is not an element: the array below has
    // two elements, :1 and :2.
    const std::string inner = "*2\r\n:1\r\n|1\r\n+ttl\r\n:3600\r\n:2\r\n";
    const ScanResult nested = scanAll(inner + ":9\r\n");
    QCOMPARE(nested.replies.size(), std::size_t(2));
    QCOMPARE(nested.replies[0].bytes, std::uint64_t(inner.size()));
    QCOMPARE(nested.replies[1].type, ReplyType::Integer);

    // Empty and stacked attributes; an attribute before a null keeps the miss.
    const Seen stacked = scanSingle("|0\r\n|1\r\n+a\r\n+b\r\n|1\r\n+c\r\n+d\r\n$-1\r\n");
    QCOMPARE(stacked.type, ReplyType::Null);
    QVERIFY(stacked.miss);
    const Seen error = scanSingle("|1\r\n+a\r\n+b\r\n-NOPERM no\r\n");
    QCOMPARE(error.error, ErrorKind::NoPerm);
    QCOMPARE(error.errorText, std::string("NOPERM no"));
}

void TestReplyScanner::pushMessages()
{
    const std::string push = ">3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nhello\r\n";
    const std::string invalidate = ">2\r\n$10\r\ninvalidate\r\n*1\r\n$3\r\nkey\r\n";
    const ScanResult result = scanAll("+OK\r\n" + push + ":1\r\n" + invalidate);
    QCOMPARE(result.replies.size(), std::size_t(4));
    QCOMPARE(result.replies[0].type, ReplyType::SimpleString);
    QCOMPARE(result.replies[1].type, ReplyType::Push);
    QCOMPARE(result.replies[1].bytes, std::uint64_t(push.size()));
    QCOMPARE(result.replies[2].type, ReplyType::Integer);
    QCOMPARE(result.replies[3].type, ReplyType::Push);
    QCOMPARE(result.replies[3].bytes, std::uint64_t(invalidate.size()));

    // A push nested in an array is just an element.
    QCOMPARE(scanSingle("*1\r\n>1\r\n+x\r\n").type, ReplyType::Array);
}

namespace {

// Random RESP2 replies for the differential test. Depth stays within what
// hiredis 0.14 supports (7 levels).
class Resp2Generator {
public:
    explicit Resp2Generator(std::uint32_t seed) : m_rng(seed) {}

    std::string reply(int depth = 0)
    {
        switch (pick(depth < 4 ? 6 : 5)) {
        case 0: return "+" + text(pick(30)) + "\r\n";
        case 1: return "-" + errorMessage() + "\r\n";
        case 2: return ":" + std::to_string(integer()) + "\r\n";
        case 3: return pick(8) == 0 ? std::string("$-1\r\n") : bulk();
        case 4: return pick(3) == 0 ? std::string("$0\r\n\r\n") : bulk();
        default: {
            if (pick(10) == 0)
                return "*-1\r\n";
            const int count = pick(6);
            std::string wire = "*" + std::to_string(count) + "\r\n";
            for (int i = 0; i < count; ++i)
                wire += reply(depth + 1);
            return wire;
        }
        }
    }

    int pick(int bound) { return std::uniform_int_distribution<int>(0, bound - 1)(m_rng); }
    std::mt19937& rng() { return m_rng; }

private:
    // Printable text without CR or LF (simple strings and errors).
    std::string text(int length)
    {
        std::string out;
        for (int i = 0; i < length; ++i)
            out += char(' ' + pick(95));
        return out;
    }

    std::string errorMessage()
    {
        static const char* const prefixes[] = {"ERR", "MOVED", "ASK", "WRONGTYPE", "NOAUTH", "LOADING",
            "BUSY", "CLUSTERDOWN", "Whatever", ""};
        std::string message = prefixes[pick(10)];
        // Sometimes longer than the kept prefix.
        message += " " + text(pick(5) == 0 ? 200 + pick(200) : pick(40));
        return message;
    }

    std::int64_t integer()
    {
        switch (pick(4)) {
        case 0: return pick(10);
        case 1: return -pick(1000);
        default: return std::uniform_int_distribution<std::int64_t>(-(std::int64_t(1) << 62), std::int64_t(1) << 62)(m_rng);
        }
    }

    // Binary payloads, often containing CRLF and NUL.
    std::string bulk()
    {
        const int length = pick(5) == 0 ? pick(2000) : pick(40);
        std::string payload;
        for (int i = 0; i < length; ++i) {
            const int r = pick(8);
            payload += r == 0 ? '\r' : r == 1 ? '\n' : r == 2 ? '\0' : char(pick(256));
        }
        return "$" + std::to_string(payload.size()) + "\r\n" + payload + "\r\n";
    }

    std::mt19937 m_rng;
};

ReplyType fromHiredis(int type)
{
    switch (type) {
    case REDIS_REPLY_STATUS: return ReplyType::SimpleString;
    case REDIS_REPLY_ERROR: return ReplyType::Error;
    case REDIS_REPLY_INTEGER: return ReplyType::Integer;
    case REDIS_REPLY_STRING: return ReplyType::BulkString;
    case REDIS_REPLY_ARRAY: return ReplyType::Array;
    default: return ReplyType::Null;
    }
}

} // namespace

void TestReplyScanner::differentialAgainstHiredis()
{
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        Resp2Generator generator(seed);
        std::string stream;
        std::vector<std::size_t> sizes;
        for (int i = 0; i < 1500; ++i) {
            const std::string reply = generator.reply();
            sizes.push_back(reply.size());
            stream += reply;
        }

        redisReader* reader = redisReaderCreate();
        QVERIFY(reader);
        std::vector<Seen> theirs;
        std::vector<Seen> ours;
        ReplyScanner scanner;
        bool readerOk = true;

        std::size_t pos = 0;
        while (pos < stream.size()) {
            // Mostly tiny chunks, sometimes large ones.
            const std::size_t len = std::min(stream.size() - pos,
                std::size_t(generator.pick(3) == 0 ? 1 + generator.pick(4096) : 1 + generator.pick(8)));
            const std::string_view chunk = std::string_view(stream).substr(pos, len);
            pos += len;

            QCOMPARE(scanner.feed(chunk, [&](const ReplyInfo& info) { ours.push_back(record(info)); }), len);

            if (redisReaderFeed(reader, chunk.data(), chunk.size()) != REDIS_OK) {
                readerOk = false;
                break;
            }
            for (;;) {
                void* object = nullptr;
                if (redisReaderGetReply(reader, &object) != REDIS_OK) {
                    readerOk = false;
                    break;
                }
                if (!object)
                    break;
                const auto* reply = static_cast<const redisReply*>(object);
                Seen seen;
                seen.type = fromHiredis(reply->type);
                seen.miss = reply->type == REDIS_REPLY_NIL;
                if (reply->type == REDIS_REPLY_ERROR) {
                    const std::string_view message(reply->str, std::size_t(reply->len));
                    seen.errorText = std::string(message.substr(0, ReplyScanner::kMaxErrorText));
                }
                theirs.push_back(seen);
                freeReplyObject(object);
            }
            if (!readerOk)
                break;
        }
        const std::string readerError = reader->err ? std::string(reader->errstr) : std::string();
        redisReaderFree(reader);
        QVERIFY2(readerOk, readerError.c_str());
        QVERIFY(!scanner.failed());

        QCOMPARE(ours.size(), sizes.size());
        QCOMPARE(theirs.size(), ours.size());
        for (std::size_t i = 0; i < ours.size(); ++i) {
            const QByteArray where = QByteArray("seed ") + QByteArray::number(seed) + " reply " + QByteArray::number(qulonglong(i));
            QVERIFY2(ours[i].type == theirs[i].type, where.constData());
            QVERIFY2(ours[i].miss == theirs[i].miss, where.constData());
            QVERIFY2(ours[i].errorText == theirs[i].errorText, where.constData());
            QVERIFY2(ours[i].bytes == sizes[i], where.constData());
            if (ours[i].type == ReplyType::Error)
                QVERIFY2(ours[i].error == classifyError(theirs[i].errorText), where.constData());
        }
    }
}

QTEST_APPLESS_MAIN(TestReplyScanner)
#include "test_reply_scanner.moc"
