#include "engine/report/json_writer.h"

#include <charconv>
#include <cmath>

namespace tacho::engine {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when invalid
// (overlong forms, surrogates and values past U+10FFFF are invalid).
std::size_t utf8SequenceLength(std::string_view s, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(i);
    std::size_t length = 0;
    unsigned char lo = 0x80, hi = 0xbf;   // allowed range of the second byte
    if (b0 >= 0xc2 && b0 <= 0xdf) {
        length = 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
        length = 3;
        if (b0 == 0xe0) lo = 0xa0;
        if (b0 == 0xed) hi = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
        length = 4;
        if (b0 == 0xf0) lo = 0x90;
        if (b0 == 0xf4) hi = 0x8f;
    } else {
        return 0;
    }
    if (i + length > s.size())
        return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi)
        return 0;
    for (std::size_t k = 2; k < length; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xbf)
            return 0;
    return length;
}

} // namespace

JsonWriter::JsonWriter(int indent) : m_indent(indent < 0 ? 0 : indent) {}

std::string JsonWriter::quote(std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            if (const std::size_t n = utf8SequenceLength(text, i)) {
                out.append(text.substr(i, n));
                i += n;
            } else {
                out += "\xef\xbf\xbd";   // U+FFFD for a byte that is not UTF-8
                ++i;
            }
            continue;
        }
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 15];
            } else {
                out += char(c);
            }
        }
        ++i;
    }
    out += '"';
    return out;
}

void JsonWriter::newline()
{
    if (!m_indent)
        return;
    m_out += '\n';
    m_out.append(m_hasItems.size() * std::size_t(m_indent), ' ');
}

void JsonWriter::beforeValue()
{
    if (m_afterKey) {   // the key already placed the separator
        m_afterKey = false;
        return;
    }
    if (!m_hasItems.empty()) {
        if (m_hasItems.back())
            m_out += ',';
        m_hasItems.back() = true;
        newline();
    }
}

JsonWriter& JsonWriter::key(std::string_view name)
{
    if (!m_hasItems.empty()) {
        if (m_hasItems.back())
            m_out += ',';
        m_hasItems.back() = true;
        newline();
    }
    m_out += quote(name);
    m_out += m_indent ? ": " : ":";
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::beginObject()
{
    beforeValue();
    m_out += '{';
    m_hasItems.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::endObject()
{
    const bool hadItems = !m_hasItems.empty() && m_hasItems.back();
    if (!m_hasItems.empty())
        m_hasItems.pop_back();
    if (hadItems)
        newline();
    m_out += '}';
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    beforeValue();
    m_out += '[';
    m_hasItems.push_back(false);
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    const bool hadItems = !m_hasItems.empty() && m_hasItems.back();
    if (!m_hasItems.empty())
        m_hasItems.pop_back();
    if (hadItems)
        newline();
    m_out += ']';
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text)
{
    beforeValue();
    m_out += quote(text);
    return *this;
}

JsonWriter& JsonWriter::value(bool b)
{
    beforeValue();
    m_out += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::value(double number)
{
    if (!std::isfinite(number))
        return null();   // JSON has no NaN or infinity
    beforeValue();
    // Shortest text that reads back to the same double, independent of locale.
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
    m_out.append(buffer, result.ptr);
    return *this;
}

JsonWriter& JsonWriter::fixed(double number, int decimals)
{
    if (!std::isfinite(number))
        return null();
    beforeValue();
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, number, std::chars_format::fixed, decimals);
    if (result.ec != std::errc())   // too long in fixed notation: the shortest form
        result = std::to_chars(buffer, buffer + sizeof buffer, number);
    m_out.append(buffer, result.ptr);
    return *this;
}

JsonWriter& JsonWriter::signedInteger(std::int64_t number)
{
    beforeValue();
    m_out += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::unsignedInteger(std::uint64_t number)
{
    beforeValue();
    m_out += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::null()
{
    beforeValue();
    m_out += "null";
    return *this;
}

} // namespace tacho::engine
