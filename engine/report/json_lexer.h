#pragma once
// The JSON reader's lexer (json_reader.cpp): where it stands in the text, what went wrong and where
// (offset, line, column), and the tokens — blanks, literals, numbers, and strings with their
// escapes decoded and their UTF-8 checked. The parser on top builds the values and checks their
// structure (nesting, commas, duplicate keys). Internal to engine/report; the members are defined
// in the class, as they were in the parser's, so that the parser's loops inline them.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "engine/report/json_reader.h"

namespace tacho::engine {

class JsonLexer {
protected:
    explicit JsonLexer(std::string_view text) : m_text(text) {}

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_text[m_pos]; }

    void fail(const std::string& message, bool truncated = false)
    {
        if (m_failed)
            return;
        m_failed = true;
        m_error.offset = m_pos;
        m_error.message = message;
        m_error.truncated = truncated;
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < m_pos && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        m_error.line = line;
        m_error.column = column;
    }
    void failEnd(const std::string& what) { fail("unexpected end of input " + what + " (the text looks truncated)", true); }

    static std::string describeChar(char c)
    {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f)
            return std::string("'") + c + "'";
        char buffer[16];
        std::snprintf(buffer, sizeof buffer, "byte 0x%02x", u);
        return buffer;
    }

    void skipSpace()
    {
        while (!atEnd()) {
            const char c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                ++m_pos;
            else
                break;
        }
    }

    // Consumes `word` ("true", "false", "null") at m_pos; false after failing.
    bool matchLiteral(std::string_view word)
    {
        const std::string_view rest = m_text.substr(m_pos);
        if (rest.size() < word.size() && word.substr(0, rest.size()) == rest) {
            m_pos = m_text.size();
            failEnd("inside '" + std::string(word) + "'");
            return false;
        }
        if (rest.substr(0, word.size()) != word) {
            fail("unexpected " + describeChar(peek()) + " where a value was expected");
            return false;
        }
        m_pos += word.size();
        return true;
    }

    // Consumes a number at m_pos (a '-' or a digit) and gives its text; false after failing.
    bool scanNumber(std::string_view& text)
    {
        const std::size_t start = m_pos;
        auto digit = [&] { return !atEnd() && peek() >= '0' && peek() <= '9'; };
        if (peek() == '-')
            ++m_pos;
        if (atEnd()) {
            failEnd("inside a number");
            return false;
        }
        if (peek() == '0') {
            ++m_pos;
            if (digit()) {
                fail("numbers must not have leading zeros");
                return false;
            }
        } else if (digit()) {
            while (digit())
                ++m_pos;
        } else {
            fail("expected a digit in a number, found " + describeChar(peek()));
            return false;
        }
        if (!atEnd() && peek() == '.') {
            ++m_pos;
            if (atEnd()) {
                failEnd("inside a number");
                return false;
            }
            if (!digit()) {
                fail("expected a digit after the decimal point");
                return false;
            }
            while (digit())
                ++m_pos;
        }
        if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
            ++m_pos;
            if (!atEnd() && (peek() == '+' || peek() == '-'))
                ++m_pos;
            if (atEnd()) {
                failEnd("inside a number");
                return false;
            }
            if (!digit()) {
                fail("expected a digit in the exponent");
                return false;
            }
            while (digit())
                ++m_pos;
        }
        text = m_text.substr(start, m_pos - start);
        return true;
    }

    static void appendUtf8(std::string& out, std::uint32_t cp)
    {
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }

    bool parseHex4(std::uint32_t& out)
    {
        if (m_text.size() - m_pos < 4) {
            m_pos = m_text.size();
            failEnd("inside a \\u escape");
            return false;
        }
        out = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = peek();
            out <<= 4;
            if (c >= '0' && c <= '9')
                out |= std::uint32_t(c - '0');
            else if (c >= 'a' && c <= 'f')
                out |= std::uint32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                out |= std::uint32_t(c - 'A' + 10);
            else {
                fail("\\u must be followed by four hex digits");
                return false;
            }
            ++m_pos;
        }
        return true;
    }

    // One UTF-8 sequence starting at m_pos (first byte >= 0x80), validated.
    bool copyUtf8(std::string& out)
    {
        const auto b0 = static_cast<unsigned char>(peek());
        int extra = 0;
        std::uint32_t cp = 0;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            extra = 1;
            cp = b0 & 0x1F;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            extra = 2;
            cp = b0 & 0x0F;
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            extra = 3;
            cp = b0 & 0x07;
        } else {
            fail("invalid UTF-8 in a string");
            return false;
        }
        if (m_text.size() - m_pos <= std::size_t(extra)) {
            m_pos = m_text.size();
            failEnd("inside a string");
            return false;
        }
        for (int i = 1; i <= extra; ++i) {
            const auto b = static_cast<unsigned char>(m_text[m_pos + std::size_t(i)]);
            if ((b & 0xC0) != 0x80) {
                fail("invalid UTF-8 in a string");
                return false;
            }
            cp = (cp << 6) | (b & 0x3F);
        }
        // Overlong forms, surrogates and values past U+10FFFF.
        if ((extra == 2 && cp < 0x800) || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF))
            || (cp >= 0xD800 && cp <= 0xDFFF)) {
            fail("invalid UTF-8 in a string");
            return false;
        }
        out.append(m_text.substr(m_pos, std::size_t(extra) + 1));
        m_pos += std::size_t(extra) + 1;
        return true;
    }

    bool parseString(std::string& out)
    {
        ++m_pos;   // opening quote
        while (true) {
            if (atEnd()) {
                failEnd("inside a string");
                return false;
            }
            const char c = peek();
            const auto u = static_cast<unsigned char>(c);
            if (c == '"') {
                ++m_pos;
                return true;
            }
            if (u < 0x20) {
                fail("raw control character " + describeChar(c) + " in a string (must be escaped)");
                return false;
            }
            if (u >= 0x80) {
                if (!copyUtf8(out))
                    return false;
                continue;
            }
            if (c != '\\') {
                out += c;
                ++m_pos;
                continue;
            }
            ++m_pos;
            if (atEnd()) {
                failEnd("inside a string escape");
                return false;
            }
            const char e = peek();
            ++m_pos;
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!parseHex4(cp))
                    return false;
                if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    fail("\\u escape is a lone low surrogate");
                    return false;
                }
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (m_text.size() - m_pos < 2 || m_text[m_pos] != '\\' || m_text[m_pos + 1] != 'u') {
                        if (m_text.size() - m_pos < 2)
                            failEnd("inside a string");
                        else
                            fail("\\u escape is a high surrogate without its low surrogate");
                        return false;
                    }
                    m_pos += 2;
                    std::uint32_t low = 0;
                    if (!parseHex4(low))
                        return false;
                    if (low < 0xDC00 || low > 0xDFFF) {
                        fail("\\u escape is a high surrogate without its low surrogate");
                        return false;
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, cp);
                break;
            }
            default:
                m_pos -= 2;   // at the backslash
                fail("invalid escape \\" + std::string(1, e) + " in a string");
                return false;
            }
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    bool m_failed = false;
    JsonParseError m_error;
};

} // namespace tacho::engine
