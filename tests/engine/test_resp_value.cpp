// Tests for full RESP decoding (control plane): every type, nesting,
// incomplete and malformed input, and realistic INFO / CONFIG GET / HELLO.
#include <QTest>

#include <string>
#include <string_view>
#include <vector>

#include "engine/resp/reply_scanner.h"
#include "engine/resp/resp_value.h"

using namespace tacho::engine;
using namespace std::string_literals;

namespace {

// Decodes a complete reply, checking that exactly all of `wire` is used.
RespValue decodeWhole(const std::string& wire)
{
    RespValue value;
    std::string error;
    const long long used = decodeValue(wire, value, &error);
    if (used != static_cast<long long>(wire.size()))
        QTest::qFail(qPrintable(QStringLiteral("decode used %1 of %2 bytes: %3")
                                    .arg(used).arg(wire.size()).arg(QString::fromStdString(error))),
            __FILE__, __LINE__);
    return value;
}

const std::vector<std::string>& sampleReplies()
{
    static const std::vector<std::string> samples = {
        "+OK\r\n",
        "-ERR unknown command\r\n",
        ":-42\r\n",
        "$5\r\nhe\r\nl\r\n",
        "$-1\r\n",
        "*-1\r\n",
        "_\r\n",
        ",1.23\r\n",
        "#t\r\n",
        "(123456789012345678901234567890\r\n",
        "=9\r\ntxt:hello\r\n",
        "!9\r\nERR blob!\r\n",
        "*3\r\n:1\r\n*1\r\n+x\r\n%1\r\n+k\r\n~1\r\n_\r\n",
        ">2\r\n+message\r\n$2\r\nhi\r\n",
        "|1\r\n+ttl\r\n:10\r\n$3\r\nabc\r\n",
    };
    return samples;
}

} // namespace

class TestRespValue : public QObject {
    Q_OBJECT

private slots:
    void scalars();
    void strings();
    void nulls();
    void aggregates();
    void nested();
    void attributesSkipped();
    void usesOnlyFirstReply();
    void incompleteReturnsZero();
    void malformedReturnsMinusOne_data();
    void malformedReturnsMinusOne();
    void nestingLimit();
    void infoBulkReply();
    void configGet();
    void helloMap();
    void agreesWithScanner();
};

void TestRespValue::scalars()
{
    RespValue v = decodeWhole(":12345\r\n");
    QCOMPARE(v.type, ReplyType::Integer);
    QCOMPARE(v.integer, std::int64_t(12345));

    QCOMPARE(decodeWhole(":-9223372036854775808\r\n").integer, INT64_MIN);
    QCOMPARE(decodeWhole(":9223372036854775807\r\n").integer, INT64_MAX);

    v = decodeWhole(",-1.5e-3\r\n");
    QCOMPARE(v.type, ReplyType::Double);
    QCOMPARE(v.text, "-1.5e-3"s);
    QCOMPARE(decodeWhole(",inf\r\n").text, "inf"s);

    v = decodeWhole("#t\r\n");
    QCOMPARE(v.type, ReplyType::Boolean);
    QCOMPARE(v.integer, std::int64_t(1));
    QCOMPARE(decodeWhole("#f\r\n").integer, std::int64_t(0));

    v = decodeWhole("(3492890328409238509324850943850943825024385\r\n");
    QCOMPARE(v.type, ReplyType::BigNumber);
    QCOMPARE(v.text, "3492890328409238509324850943850943825024385"s);
}

void TestRespValue::strings()
{
    RespValue v = decodeWhole("+PONG\r\n");
    QCOMPARE(v.type, ReplyType::SimpleString);
    QCOMPARE(v.text, "PONG"s);

    v = decodeWhole("-WRONGTYPE Operation against a key\r\n");
    QVERIFY(v.isError());
    QCOMPARE(v.text, "WRONGTYPE Operation against a key"s);

    v = decodeWhole("!21\r\nSYNTAX invalid syntax\r\n");
    QVERIFY(v.isError());
    QCOMPARE(v.text, "SYNTAX invalid syntax"s);

    v = decodeWhole("$7\r\na\r\nb\0c\xff\r\n"s);
    QCOMPARE(v.type, ReplyType::BulkString);
    QCOMPARE(v.text, "a\r\nb\0c\xff"s);

    v = decodeWhole("$0\r\n\r\n");
    QCOMPARE(v.type, ReplyType::BulkString);
    QVERIFY(v.text.empty());
    QVERIFY(!v.isNull());

    // Verbatim strings drop their "txt:" / "mkd:" format prefix.
    v = decodeWhole("=15\r\ntxt:Some string\r\n");
    QCOMPARE(v.type, ReplyType::VerbatimString);
    QCOMPARE(v.text, "Some string"s);
    QCOMPARE(decodeWhole("=6\r\nmkd:# \r\n").text, "# "s);
}

void TestRespValue::nulls()
{
    for (const std::string& wire : {"$-1\r\n"s, "*-1\r\n"s, "_\r\n"s}) {
        const RespValue v = decodeWhole(wire);
        QVERIFY(v.isNull());
        QVERIFY(v.text.empty());
        QVERIFY(v.elements.empty());
    }
}

void TestRespValue::aggregates()
{
    RespValue v = decodeWhole("*3\r\n$1\r\na\r\n:2\r\n$-1\r\n");
    QCOMPARE(v.type, ReplyType::Array);
    QCOMPARE(v.elements.size(), std::size_t(3));
    QCOMPARE(v.elements[0].text, "a"s);
    QCOMPARE(v.elements[1].integer, std::int64_t(2));
    QVERIFY(v.elements[2].isNull());

    QCOMPARE(decodeWhole("*0\r\n").elements.size(), std::size_t(0));

    v = decodeWhole("%2\r\n+a\r\n:1\r\n+b\r\n:2\r\n");
    QCOMPARE(v.type, ReplyType::Map);
    QCOMPARE(v.elements.size(), std::size_t(4));   // flattened key, value pairs
    QCOMPARE(v.elements[0].text, "a"s);
    QCOMPARE(v.elements[1].integer, std::int64_t(1));
    QCOMPARE(v.elements[2].text, "b"s);
    QCOMPARE(v.elements[3].integer, std::int64_t(2));

    v = decodeWhole("~2\r\n+x\r\n+y\r\n");
    QCOMPARE(v.type, ReplyType::Set);
    QCOMPARE(v.elements.size(), std::size_t(2));

    v = decodeWhole(">3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$2\r\nhi\r\n");
    QCOMPARE(v.type, ReplyType::Push);
    QCOMPARE(v.elements.size(), std::size_t(3));
    QCOMPARE(v.elements[2].text, "hi"s);
}

void TestRespValue::nested()
{
    // CLUSTER SLOTS shape: [[start, end, [host, port, id]], …]
    const std::string clusterSlots =
        "*2\r\n"
        "*3\r\n:0\r\n:5460\r\n*3\r\n$9\r\n127.0.0.1\r\n:30001\r\n$4\r\nid-1\r\n"
        "*4\r\n:5461\r\n:10922\r\n*3\r\n$9\r\n127.0.0.1\r\n:30002\r\n$4\r\nid-2\r\n"
        "*2\r\n$9\r\n127.0.0.1\r\n:30005\r\n";
    const RespValue v = decodeWhole(clusterSlots);
    QCOMPARE(v.elements.size(), std::size_t(2));
    QCOMPARE(v.elements[0].elements.size(), std::size_t(3));
    QCOMPARE(v.elements[0].elements[1].integer, std::int64_t(5460));
    QCOMPARE(v.elements[0].elements[2].elements[0].text, "127.0.0.1"s);
    QCOMPARE(v.elements[1].elements.size(), std::size_t(4));
    QCOMPARE(v.elements[1].elements[3].elements[1].integer, std::int64_t(30005));
}

void TestRespValue::attributesSkipped()
{
    RespValue v = decodeWhole("|1\r\n+key-popularity\r\n%1\r\n$1\r\na\r\n,0.19\r\n*2\r\n:1\r\n:2\r\n");
    QCOMPARE(v.type, ReplyType::Array);
    QCOMPARE(v.elements.size(), std::size_t(2));
    QCOMPARE(v.elements[1].integer, std::int64_t(2));

    // Inside an aggregate an attribute is not an element.
    v = decodeWhole("*2\r\n|1\r\n+a\r\n+b\r\n:1\r\n:2\r\n");
    QCOMPARE(v.elements.size(), std::size_t(2));
    QCOMPARE(v.elements[0].integer, std::int64_t(1));
}

void TestRespValue::usesOnlyFirstReply()
{
    RespValue v;
    QCOMPARE(decodeValue("+OK\r\n:1\r\n", v), 5LL);
    QCOMPARE(v.text, "OK"s);
    QCOMPARE(decodeValue("$2\r\nab\r\n+garbage", v), 8LL);
    QCOMPARE(v.text, "ab"s);
}

void TestRespValue::incompleteReturnsZero()
{
    for (const std::string& wire : sampleReplies()) {
        for (std::size_t len = 0; len < wire.size(); ++len) {
            RespValue v;
            v.type = ReplyType::Map;
            QVERIFY2(decodeValue(std::string_view(wire).substr(0, len), v) == 0,
                qPrintable(QStringLiteral("%1 bytes of %2").arg(len).arg(QString::fromStdString(wire).toHtmlEscaped())));
            QVERIFY(v.isNull());   // no partial tree is left behind
        }
        RespValue v;
        QCOMPARE(decodeValue(wire, v), static_cast<long long>(wire.size()));
    }
}

void TestRespValue::malformedReturnsMinusOne_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::newRow("bad type") << QByteArray("?x\r\n");
    QTest::newRow("non-digit length") << QByteArray("$ab\r\n");
    QTest::newRow("empty length") << QByteArray("*\r\n");
    QTest::newRow("negative length") << QByteArray("$-2\r\n");
    QTest::newRow("overflow") << QByteArray(":9223372036854775808\r\n");
    QTest::newRow("CR without LF") << QByteArray("+OK\rx\n");
    QTest::newRow("bulk without CRLF") << QByteArray("$2\r\nabc\r\n");
    QTest::newRow("bad boolean") << QByteArray("#yes\r\n");
    QTest::newRow("null with body") << QByteArray("_x\r\n");
    QTest::newRow("bad element") << QByteArray("*3\r\n:1\r\n!x\r\n");
    QTest::newRow("bad element early") << QByteArray("*1000\r\n:1\r\n@");
}

void TestRespValue::malformedReturnsMinusOne()
{
    QFETCH(QByteArray, input);
    RespValue v;
    std::string error;
    QCOMPARE(decodeValue(std::string_view(input.constData(), std::size_t(input.size())), v, &error), -1LL);
    QVERIFY(!error.empty());
    QVERIFY(v.isNull());
    // The error pointer is optional.
    QCOMPARE(decodeValue(std::string_view(input.constData(), std::size_t(input.size())), v), -1LL);
}

void TestRespValue::nestingLimit()
{
    std::string ok;
    for (std::size_t i = 0; i < RespLimits {}.maxDepth; ++i)
        ok += "*1\r\n";
    ok += ":7\r\n";
    const RespValue v = decodeWhole(ok);
    QCOMPARE(v.elements.size(), std::size_t(1));

    RespValue deep;
    QCOMPARE(decodeValue("*1\r\n" + ok, deep), -1LL);
}

void TestRespValue::infoBulkReply()
{
    const std::string info =
        "# Server\r\n"
        "redis_version:7.2.4\r\n"
        "redis_mode:standalone\r\n"
        "os:Linux 6.1.0 x86_64\r\n"
        "tcp_port:6379\r\n"
        "\r\n"
        "# Clients\r\n"
        "connected_clients:51\r\n"
        "\r\n"
        "# Memory\r\n"
        "used_memory:1082568\r\n"
        "used_memory_human:1.03M\r\n"
        "maxmemory_policy:noeviction\r\n"
        "\r\n"
        "# Keyspace\r\n"
        "db0:keys=100000,expires=0,avg_ttl=0\r\n";
    const std::string wire = "$" + std::to_string(info.size()) + "\r\n" + info + "\r\n";
    RespValue v = decodeWhole(wire);
    QCOMPARE(v.type, ReplyType::BulkString);
    QCOMPARE(v.text, info);
    QVERIFY(v.text.find("redis_version:7.2.4\r\n") != std::string::npos);

    // RESP3 servers send INFO as a verbatim string.
    const std::string verbatim = "=" + std::to_string(info.size() + 4) + "\r\ntxt:" + info + "\r\n";
    v = decodeWhole(verbatim);
    QCOMPARE(v.type, ReplyType::VerbatimString);
    QCOMPARE(v.text, info);
}

void TestRespValue::configGet()
{
    // RESP2: a flat array of name, value.
    RespValue v = decodeWhole("*4\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n$10\r\nappendonly\r\n$2\r\nno\r\n");
    QCOMPARE(v.type, ReplyType::Array);
    QCOMPARE(v.elements.size(), std::size_t(4));
    QCOMPARE(v.elements[0].text, "maxmemory"s);
    QCOMPARE(v.elements[1].text, "0"s);
    QCOMPARE(v.elements[2].text, "appendonly"s);
    QCOMPARE(v.elements[3].text, "no"s);

    // RESP3: a map, flattened the same way.
    RespValue m = decodeWhole("%2\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n$10\r\nappendonly\r\n$2\r\nno\r\n");
    QCOMPARE(m.type, ReplyType::Map);
    QCOMPARE(m.elements.size(), v.elements.size());
    for (std::size_t i = 0; i < m.elements.size(); ++i)
        QCOMPARE(m.elements[i].text, v.elements[i].text);
}

void TestRespValue::helloMap()
{
    const std::string hello =
        "%7\r\n"
        "$6\r\nserver\r\n$5\r\nredis\r\n"
        "$7\r\nversion\r\n$5\r\n7.2.4\r\n"
        "$5\r\nproto\r\n:3\r\n"
        "$2\r\nid\r\n:5\r\n"
        "$4\r\nmode\r\n$10\r\nstandalone\r\n"
        "$4\r\nrole\r\n$6\r\nmaster\r\n"
        "$7\r\nmodules\r\n*0\r\n";
    const RespValue v = decodeWhole(hello);
    QCOMPARE(v.type, ReplyType::Map);
    QCOMPARE(v.elements.size(), std::size_t(14));
    QCOMPARE(v.elements[4].text, "proto"s);
    QCOMPARE(v.elements[5].integer, std::int64_t(3));
    QCOMPARE(v.elements[13].type, ReplyType::Array);
}

void TestRespValue::agreesWithScanner()
{
    // Both parsers agree on where each reply ends and what type it has.
    std::string stream;
    for (const std::string& wire : sampleReplies())
        stream += wire;

    std::vector<ReplyInfo> scanned;
    ReplyScanner scanner;
    scanner.feed(stream, [&](const ReplyInfo& info) { scanned.push_back(info); });
    QCOMPARE(scanned.size(), sampleReplies().size());

    std::size_t pos = 0;
    for (const ReplyInfo& info : scanned) {
        RespValue v;
        const long long used = decodeValue(std::string_view(stream).substr(pos), v);
        QCOMPARE(static_cast<std::uint64_t>(used), info.bytes);
        QCOMPARE(v.type, info.type);
        pos += static_cast<std::size_t>(used);
    }
    QCOMPARE(pos, stream.size());
}

QTEST_APPLESS_MAIN(TestRespValue)
#include "test_resp_value.moc"
