#pragma once
// Issue 15: text that must never reach a terminal raw, and the check that it
// did not. hostileTexts() generates the family: every C0 control, DEL, every
// C1 control (U+0080..U+009F, in UTF-8 form), escape sequences (CSI, OSC
// with BEL, the 8-bit CSI byte), and malformed UTF-8 (stray continuation,
// overlong, surrogate, beyond U+10FFFF, truncated, 0xFF). Each is wrapped
// in printable text ("<" … ">") so the surroundings can be found.
#include <QByteArray>
#include <QList>
#include <QString>

namespace tacho::test {

struct HostileText {
    QString name;       // for messages: "C0 0x1b", "C1 U+009B", "overlong"
    QByteArray bytes;
};

// `withLineBreaks`: include CR and LF (not for a RESP simple error, which
// cannot carry them).
inline QList<HostileText> hostileTexts(bool withLineBreaks = true)
{
    QList<HostileText> texts;
    const auto add = [&](const QString& name, const QByteArray& bytes) {
        texts.append({ name, QByteArray("Hx<") + bytes + QByteArray(">xH") });
    };
    for (int c = 0; c < 0x20; ++c)
        if (withLineBreaks || (c != '\r' && c != '\n'))
            add(QString("C0 0x%1").arg(c, 2, 16, QChar('0')), QByteArray(1, static_cast<char>(c)));
    add("DEL", QByteArray(1, '\x7f'));
    for (int c = 0x80; c < 0xa0; ++c)
        add(QString("C1 U+%1").arg(c, 4, 16, QChar('0')),
            QByteArray(1, static_cast<char>(0xc2)) + QByteArray(1, static_cast<char>(c)));
    add("CSI clear screen", "\x1b[2J\x1b[H");
    add("OSC window title", "\x1b]0;owned\x07");
    add("8-bit CSI byte", "\x9b" "31m");
    add("stray continuation", "\x80");
    add("overlong NUL", "\xc0\x80");
    add("surrogate", "\xed\xa0\x80");
    add("beyond U+10FFFF", "\xf4\x90\x80\x80");
    add("truncated", "\xe2\x82");
    add("0xff", "\xff");
    return texts;
}

// The first byte of `bytes` a terminal would act on (a control character
// other than \n and \t, a C1 control, malformed UTF-8), described; empty
// when there is none.
inline QString firstRawControl(const QByteArray& bytes)
{
    const auto at = [&](qsizetype i) { return static_cast<unsigned char>(bytes[i]); };
    for (qsizetype i = 0; i < bytes.size();) {
        const unsigned char c = at(i);
        const QString where = QString("byte 0x%1 at %2 in: %3")
                                  .arg(c, 2, 16, QChar('0'))
                                  .arg(i)
                                  .arg(QString::fromUtf8(bytes.mid(std::max<qsizetype>(0, i - 40), 80).toPercentEncoding(" ")));
        if (c < 0x80) {
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
                return where;
            ++i;
            continue;
        }
        int length = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (length == 0 || i + length > bytes.size())
            return where;
        unsigned code = c & (0x7f >> length);
        for (int k = 1; k < length; ++k) {
            if ((at(i + k) & 0xc0) != 0x80)
                return where;
            code = (code << 6) | (at(i + k) & 0x3f);
        }
        const unsigned minimum = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
        if (code < minimum || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) || (code >= 0x80 && code <= 0x9f))
            return where;
        i += length;
    }
    return {};
}

} // namespace tacho::test
