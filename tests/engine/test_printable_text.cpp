// Issue 15: text from outside (server replies, run files, certificate
// names) printed with its control characters escaped: the generated family
// of hostile strings never survives printable() / printableLines() /
// PrintableStreamBuf raw, and printable UTF-8 is kept as it is.
#include <QtTest>

#include <sstream>

#include "engine/resp/printable_text.h"
#include "support/hostile_text.h"

using tacho::engine::printable;
using tacho::engine::printableLines;
using tacho::test::firstRawControl;
using tacho::test::hostileTexts;

namespace {

QByteArray bytes(const std::string& text) { return QByteArray(text.data(), static_cast<qsizetype>(text.size())); }
std::string text(const QByteArray& bytes) { return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size())); }

} // namespace

class TestPrintableText : public QObject {
    Q_OBJECT

private slots:
    void hostileFamilyIsEscaped()
    {
        const auto texts = hostileTexts();
        QVERIFY(texts.size() > 70);
        for (const auto& hostile : texts) {
            QVERIFY2(!firstRawControl(hostile.bytes).isEmpty() || hostile.name == "C0 0x09" || hostile.name == "C0 0x0a",
                     qPrintable("the checker misses " + hostile.name));
            const QByteArray line = bytes(printable(text(hostile.bytes)));
            QVERIFY2(firstRawControl(line).isEmpty(), qPrintable(hostile.name + ": " + firstRawControl(line)));
            QVERIFY2(!line.contains('\n') && !line.contains('\t'), qPrintable(hostile.name));
            QVERIFY2(line.startsWith("Hx<") && line.endsWith(">xH") && line.contains("\\x"), qPrintable(hostile.name + ": " + line));
            const QByteArray lines = bytes(printableLines(text(hostile.bytes)));
            QVERIFY2(firstRawControl(lines).isEmpty(), qPrintable(hostile.name + ": " + firstRawControl(lines)));
        }
        QCOMPARE(bytes(printable("a\x1b[2Jb")), QByteArray("a\\x1b[2Jb"));
        QCOMPARE(bytes(printable("\xc2\x9b")), QByteArray("\\xc2\\x9b"));
        QCOMPARE(bytes(printableLines("a\n\tb\r")), QByteArray("a\n\tb\\x0d"));
    }

    void printableUtf8IsKept()
    {
        for (const char* kept : { "plain ASCII ~!@#$%^&*()", "h\xc3\xa9llo", "\xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac",
                                  "\xf0\x9f\x9a\x80", "\xc2\xa0 (U+00A0, after the C1 range)" })
            QCOMPARE(bytes(printable(kept)), QByteArray(kept));
    }

    // The stream buffer the report, compare and merge commands print
    // through: byte by byte, in chunks and with flushes in between.
    void streamBufferEscapes()
    {
        for (const auto& hostile : hostileTexts()) {
            std::ostringstream target;
            {
                tacho::engine::PrintableStreamBuf buffer(target.rdbuf());
                std::ostream out(&buffer);
                out << "name: " << text(hostile.bytes) << "\n";
                for (char c : text(hostile.bytes))
                    out.put(c);
                out << std::flush << "\n" << text(hostile.bytes);
            }
            const QByteArray written = bytes(target.str());
            QVERIFY2(firstRawControl(written).isEmpty(), qPrintable(hostile.name + ": " + firstRawControl(written)));
            QCOMPARE(written.count("Hx<"), 3);
            QCOMPARE(written.count('\n') - bytes(printableLines(text(hostile.bytes))).count('\n') * 3, 2);
        }
    }
};

QTEST_GUILESS_MAIN(TestPrintableText)
#include "test_printable_text.moc"
