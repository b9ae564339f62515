#include "engine/resp/printable_text.h"

namespace tacho::engine {

namespace {

void appendEscape(std::string& out, unsigned char byte)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xf];
}

// Length of the well-formed UTF-8 sequence starting at text[i] (2..4), or 0.
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    unsigned min = 0;
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
        min = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        min = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    unsigned code = lead & (0x7f >> length);
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80)
            return 0;
        code = (code << 6) | (byte(i + k) & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        return 0;
    if (code >= 0x80 && code <= 0x9f)
        return 0;   // C1 controls: escaped byte by byte
    return length;
}

std::string escaped(std::string_view text, bool keepLines)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
            ++i;
        } else if (keepLines && (c == '\n' || c == '\t')) {
            out += static_cast<char>(c);
            ++i;
        } else if (const std::size_t length = c >= 0x80 ? utf8Length(text, i) : 0) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            appendEscape(out, c);
            ++i;
        }
    }
    return out;
}

} // namespace

std::string printable(std::string_view text)
{
    return escaped(text, false);
}

std::string printableLines(std::string_view text)
{
    return escaped(text, true);
}

PrintableStreamBuf::int_type PrintableStreamBuf::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return sync() == 0 ? traits_type::not_eof(c) : traits_type::eof();
    m_pending += traits_type::to_char_type(c);
    if (c == '\n' && sync() != 0)
        return traits_type::eof();
    return c;
}

std::streamsize PrintableStreamBuf::xsputn(const char* data, std::streamsize size)
{
    m_pending.append(data, static_cast<std::size_t>(size));
    if (m_pending.find('\n') != std::string::npos && sync() != 0)
        return 0;
    return size;
}

int PrintableStreamBuf::sync()
{
    if (!m_pending.empty()) {
        const std::string text = printableLines(m_pending);
        m_pending.clear();
        if (m_target->sputn(text.data(), static_cast<std::streamsize>(text.size())) != static_cast<std::streamsize>(text.size()))
            m_failed = true;
    }
    if (m_target->pubsync() != 0)
        m_failed = true;
    return m_failed ? -1 : 0;
}

} // namespace tacho::engine
