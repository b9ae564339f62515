// Tests for RESP request encoding: exact bytes of the array and inline forms.
#include <QTest>

#include <string>
#include <string_view>
#include <vector>

#include "engine/resp/resp_encoder.h"
#include "engine/resp/resp_value.h"

using namespace tacho::engine;
using namespace std::string_literals;

class TestRespEncoder : public QObject {
    Q_OBJECT

private slots:
    void exactBytes();
    void appendsAfterExistingContent();
    void emptyCommandAndEmptyArgs();
    void binaryArgs();
    void multiDigitLengths();
    void overloadsAgree();
    void decodesBack();
    void inlineForm();
};

void TestRespEncoder::exactBytes()
{
    QCOMPARE(encodeCommand({"PING"}), "*1\r\n$4\r\nPING\r\n"s);
    QCOMPARE(encodeCommand({"SET", "key", "value"}), "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n"s);
    QCOMPARE(encodeCommand({"GET", "key:000000000042"}), "*2\r\n$3\r\nGET\r\n$16\r\nkey:000000000042\r\n"s);
    QCOMPARE(encodeCommand({"HSET", "h", "f", "v"}), "*4\r\n$4\r\nHSET\r\n$1\r\nh\r\n$1\r\nf\r\n$1\r\nv\r\n"s);
}

void TestRespEncoder::appendsAfterExistingContent()
{
    std::string out = "*1\r\n$4\r\nPING\r\n";
    appendCommand(out, {"INCR", "counter"});
    appendCommand(out, {"GET", "k"});
    QCOMPARE(out, "*1\r\n$4\r\nPING\r\n*2\r\n$4\r\nINCR\r\n$7\r\ncounter\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"s);
}

void TestRespEncoder::emptyCommandAndEmptyArgs()
{
    QCOMPARE(encodeCommand(std::initializer_list<std::string_view>{}), "*0\r\n"s);
    QCOMPARE(encodeCommand(std::vector<std::string>{}), "*0\r\n"s);
    QCOMPARE(encodeCommand({"SET", "k", ""}), "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n"s);
    QCOMPARE(encodeCommand({"", ""}), "*2\r\n$0\r\n\r\n$0\r\n\r\n"s);
}

void TestRespEncoder::binaryArgs()
{
    const std::string binary("a\0b\r\nc\xff", 7);
    std::string out;
    appendCommand(out, {"SET", binary});
    QCOMPARE(out, "*2\r\n$3\r\nSET\r\n$7\r\n"s + binary + "\r\n");
    QCOMPARE(out.size(), std::size_t(4 + 9 + 4 + 7 + 2));
}

void TestRespEncoder::multiDigitLengths()
{
    const std::string big(12345, 'x');
    std::vector<std::string> args(12, "a");
    args[0] = "MSET";
    args[11] = big;
    const std::string out = encodeCommand(args);
    std::string expected = "*12\r\n$4\r\nMSET\r\n";
    for (int i = 1; i < 11; ++i)
        expected += "$1\r\na\r\n";
    expected += "$12345\r\n" + big + "\r\n";
    QCOMPARE(out, expected);

    // Lengths at the digit-count boundaries.
    for (std::size_t len : {9u, 10u, 99u, 100u, 999u, 1000u}) {
        const std::string arg(len, 'z');
        QCOMPARE(encodeCommand({arg}), "*1\r\n$" + std::to_string(len) + "\r\n" + arg + "\r\n");
    }
}

void TestRespEncoder::overloadsAgree()
{
    const std::vector<std::string> owned = {"ZADD", "z", "1.5", "member"};
    const std::vector<std::string_view> views(owned.begin(), owned.end());

    std::string fromSpan;
    appendCommand(fromSpan, std::span<const std::string_view>(views));
    std::string fromVector;
    appendCommand(fromVector, owned);
    std::string fromList;
    appendCommand(fromList, {"ZADD", "z", "1.5", "member"});

    QCOMPARE(fromSpan, fromVector);
    QCOMPARE(fromList, fromVector);
    QCOMPARE(encodeCommand(owned), fromVector);
    QCOMPARE(fromVector, "*4\r\n$4\r\nZADD\r\n$1\r\nz\r\n$3\r\n1.5\r\n$6\r\nmember\r\n"s);
}

void TestRespEncoder::decodesBack()
{
    const std::vector<std::string> args = {"LPUSH", "list", std::string("\r\n\0", 3), std::string(300, 'q')};
    const std::string wire = encodeCommand(args);
    RespValue value;
    QCOMPARE(decodeValue(wire, value), static_cast<long long>(wire.size()));
    QCOMPARE(value.type, ReplyType::Array);
    QCOMPARE(value.elements.size(), args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        QCOMPARE(value.elements[i].type, ReplyType::BulkString);
        QCOMPARE(value.elements[i].text, args[i]);
    }
}

void TestRespEncoder::inlineForm()
{
    const std::vector<std::string_view> ping = {"PING"};
    const std::vector<std::string_view> echo = {"ECHO", "hello"};
    const std::vector<std::string_view> set = {"SET", "key", "value"};
    const std::vector<std::string_view> none;

    std::string out;
    appendInline(out, ping);
    QCOMPARE(out, "PING\r\n"s);
    appendInline(out, echo);
    QCOMPARE(out, "PING\r\nECHO hello\r\n"s);

    std::string single;
    appendInline(single, set);
    QCOMPARE(single, "SET key value\r\n"s);

    // No arguments means no command, not an empty line.
    std::string empty = "x";
    appendInline(empty, none);
    QCOMPARE(empty, "x"s);
}

QTEST_APPLESS_MAIN(TestRespEncoder)
#include "test_resp_encoder.moc"
