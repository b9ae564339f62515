// The strict JSON reader under run files and peer imports (issue #6): values,
// exact integers, strictness, and error positions for every malformed input —
// without crashing on any prefix of a valid document or on deep nesting.
#include <QtTest>

#include <string>

#include "engine/report/json_reader.h"
#include "engine/report/json_writer.h"

using namespace tacho::engine;

namespace {

JsonParseError errorOf(const std::string& text)
{
    JsonParseError error;
    const auto v = parseJson(text, &error);
    if (v)
        error.message = "(parsed)";
    return error;
}

} // namespace

class TestJsonReader : public QObject {
    Q_OBJECT
private slots:
    void values()
    {
        JsonParseError error;
        const auto v = parseJson(" {\"a\": [1, -2.5, 3e2, true, false, null, \"x\"], \"b\": {\"c\": \"d\"}, \"e\": []} ", &error);
        QVERIFY2(v, error.describe().c_str());
        QVERIFY(v->isObject());
        QCOMPARE(v->memberCount(), std::size_t(3));
        QCOMPARE(v->keyAt(0), std::string("a"));
        const JsonValue* a = v->find("a");
        QVERIFY(a && a->isArray());
        QCOMPARE(a->items().size(), std::size_t(7));
        QCOMPARE(a->items()[0].asUint64().value(), 1u);
        QCOMPARE(a->items()[1].number(), -2.5);
        QCOMPARE(a->items()[1].asInt64().has_value(), false);
        QCOMPARE(a->items()[2].number(), 300.0);
        QCOMPARE(a->items()[2].asUint64().has_value(), false);   // not written as an integer
        QVERIFY(a->items()[3].isBool() && a->items()[3].boolValue());
        QVERIFY(a->items()[4].isBool() && !a->items()[4].boolValue());
        QVERIFY(a->items()[5].isNull());
        QCOMPARE(a->items()[6].text(), std::string("x"));
        QCOMPARE(v->find("b")->find("c")->text(), std::string("d"));
        QVERIFY(v->find("e")->isArray() && v->find("e")->items().empty());
        QVERIFY(v->find("zz") == nullptr);
        QCOMPARE(a->items()[1].asInt64().value_or(7), 7);
        QCOMPARE(parseJson("-42")->asInt64().value(), -42);
    }

    void exactIntegers()
    {
        // Counts past 2^53 must not be rounded through a double.
        QCOMPARE(parseJson("18446744073709551615")->asUint64().value(), UINT64_MAX);
        QCOMPARE(parseJson("9007199254740993")->asUint64().value(), 9007199254740993ull);
        // One past uint64: a number, but no integer.
        const auto big = parseJson("18446744073709551616");
        QVERIFY(big && big->isNumber());
        QVERIFY(!big->asUint64());
        QCOMPARE(big->text(), std::string("18446744073709551616"));
        // Too large for a double: infinite, the caller rejects it naming the field.
        const auto huge = parseJson("1e400");
        QVERIFY(huge && std::isinf(huge->number()));
        QCOMPARE(parseJson("-1e400")->number(), -std::numeric_limits<double>::infinity());
        QCOMPARE(parseJson("1e-400")->number(), 0.0);
    }

    void strings()
    {
        const auto v = parseJson("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t \\u00e9 \\u2713 \\ud83d\\ude00 \u00e9\"");
        QVERIFY(v);
        QCOMPARE(v->text(), std::string("a\"b\\c/d\b\f\n\r\t é ✓ 😀 é"));
        // The writer's escaping reads back.
        const std::string awkward = "ERR \"bad\" \\ path\n\ttab \x01\x1f end é ✓ 😀";
        JsonWriter w(0);
        w.value(awkward);
        QCOMPARE(parseJson(w.str())->text(), awkward);
    }

    void errorsNameThePosition_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<bool>("truncated");
        QTest::newRow("empty") << "" << "empty input" << 1 << 1 << true;
        QTest::newRow("spaces") << "  \n " << "empty input" << 2 << 2 << true;
        QTest::newRow("trailing comma array") << "[1,2,]" << "trailing comma" << 1 << 6 << false;
        QTest::newRow("trailing comma object") << "{\"a\":1,}" << "trailing comma" << 1 << 8 << false;
        QTest::newRow("leading zero") << "[01]" << "leading zeros" << 1 << 3 << false;
        QTest::newRow("plus sign") << "+1" << "unexpected '+'" << 1 << 1 << false;
        QTest::newRow("fraction dot") << "1." << "truncated" << 1 << 3 << true;
        QTest::newRow("fraction no digit") << "1.x" << "digit after the decimal point" << 1 << 3 << false;
        QTest::newRow("exponent") << "1e+" << "truncated" << 1 << 4 << true;
        QTest::newRow("NaN") << "NaN" << "NaN and Infinity" << 1 << 1 << false;
        QTest::newRow("single quotes") << "{'a':1}" << "expected a quoted key" << 1 << 2 << false;
        QTest::newRow("single quoted value") << "['a']" << "double quotes" << 1 << 2 << false;
        QTest::newRow("comment") << "{\"a\":1 // x\n}" << "expected ',' or '}'" << 1 << 8 << false;
        QTest::newRow("missing colon") << "{\"a\" 1}" << "expected ':' after the key \"a\"" << 1 << 6 << false;
        QTest::newRow("missing comma") << "[1 2]" << "expected ',' or ']'" << 1 << 4 << false;
        QTest::newRow("second line") << "{\n  \"a\": tru\n}" << "unexpected 't'" << 2 << 8 << false;
        QTest::newRow("raw newline in string") << "\"a\nb\"" << "raw control character" << 1 << 3 << false;
        QTest::newRow("bad escape") << "\"\\x\"" << "invalid escape \\x" << 1 << 2 << false;
        QTest::newRow("short unicode escape") << "\"\\u12G4\"" << "four hex digits" << 1 << 6 << false;
        QTest::newRow("lone low surrogate") << "\"\\udc00\"" << "lone low surrogate" << 1 << 8 << false;
        QTest::newRow("high surrogate alone") << "\"\\ud800x\"" << "without its low surrogate" << 1 << 8 << false;
        QTest::newRow("invalid utf8") << QString::fromLatin1("\"\xff\"") << "invalid UTF-8" << 1 << 2 << false;
        QTest::newRow("duplicate key") << "{\"a\":1,\"a\":2}" << "duplicate key \"a\"" << 1 << 8 << false;
        QTest::newRow("garbage after") << "{} x" << "unexpected text after the JSON value" << 1 << 4 << false;
        QTest::newRow("truncated object") << "{\"a\": [1, 2" << "truncated" << 1 << 12 << true;
        QTest::newRow("truncated string") << "{\"a\": \"abc" << "inside a string" << 1 << 11 << true;
        QTest::newRow("truncated literal") << "[tr" << "inside 'true'" << 1 << 4 << true;
    }

    void errorsNameThePosition()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(bool, truncated);
        // Latin-1 for the invalid-UTF-8 row, UTF-8 otherwise.
        const std::string input = QTest::currentDataTag() == QLatin1String("invalid utf8") ? text.toLatin1().toStdString()
                                                                                            : text.toStdString();
        const JsonParseError e = errorOf(input);
        QVERIFY2(QString::fromStdString(e.message).contains(message), e.describe().c_str());
        QCOMPARE(int(e.line), line);
        QCOMPARE(int(e.column), column);
        QCOMPARE(e.truncated, truncated);
        QVERIFY(QString::fromStdString(e.describe()).startsWith(QStringLiteral("line %1, column %2").arg(line).arg(column)));
    }

    // Every prefix of a valid document fails cleanly (and says it looks
    // truncated); none crashes.
    void everyPrefixFailsCleanly()
    {
        JsonWriter w;
        w.beginObject();
        w.field("format", "tacho-run/1");
        w.key("numbers").beginArray().value(1).value(-2.5).value(std::uint64_t(18446744073709551615ull)).endArray();
        w.field("text", "é ✓ 😀 \"q\" \\ \n");
        w.key("nested").beginObject().field("t", true).field("f", false).key("n").null().endObject();
        w.endObject();
        const std::string doc = w.str();
        QVERIFY(parseJson(doc));
        for (std::size_t n = 0; n < doc.size(); ++n) {
            JsonParseError e;
            const auto v = parseJson(std::string_view(doc).substr(0, n), &e);
            QVERIFY2(!v, qPrintable(QStringLiteral("prefix of %1 bytes parsed").arg(n)));
            QVERIFY2(e.truncated || e.message.find("invalid UTF-8") != std::string::npos,
                     qPrintable(QStringLiteral("prefix %1: %2").arg(n).arg(QString::fromStdString(e.describe()))));
            QVERIFY(e.offset <= n);
        }
    }

    void deepNestingIsAnErrorNotACrash()
    {
        const std::string deep(100000, '[');
        const JsonParseError e = errorOf(deep);
        QVERIFY2(e.message.find("nested deeper") != std::string::npos, e.describe().c_str());
        std::string ok;
        for (int i = 0; i < kJsonMaxDepth; ++i)
            ok += '[';
        for (int i = 0; i < kJsonMaxDepth; ++i)
            ok += ']';
        QVERIFY(parseJson(ok));
    }

    void byteOrderMarkIsSkipped()
    {
        const auto v = parseJson("\xEF\xBB\xBF{\"a\":1}");
        QVERIFY(v && v->find("a"));
    }

    // A large object (memtier's per-second series) reads whole, and the duplicate-key check
    // still works at that size. That it stays fast (not quadratic) is measured by
    // bench/micro (issue 18): a time limit here would fail on a loaded machine.
    void largeObjectsAreReadWhole()
    {
        std::string doc = "{";
        for (int i = 0; i < 100000; ++i)
            doc += (i ? ",\"" : "\"") + std::to_string(i) + "\":" + std::to_string(i);
        const auto v = parseJson(doc + "}");
        QVERIFY(v);
        QCOMPARE(v->memberCount(), std::size_t(100000));
        QVERIFY(v->find("99999"));
        QVERIFY(!parseJson(doc + ",\"50000\":1}"));   // a duplicate far from its twin
    }
};

QTEST_APPLESS_MAIN(TestJsonReader)
#include "test_json_reader.moc"
