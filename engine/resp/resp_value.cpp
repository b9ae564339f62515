#include "engine/resp/resp_value.h"

#include <cstdint>
#include <cstring>

namespace tacho::engine {

namespace {

// Recursive-descent decoder over a buffer that may end mid-reply. Each parse
// step reports Ok, NeedMore (input ends before the reply does) or Bad.
class Decoder {
public:
    enum class Status { Ok, NeedMore, Bad };

    explicit Decoder(std::string_view input) : m_input(input) {}

    Status value(RespValue& out, std::size_t depth);
    std::size_t position() const { return m_pos; }
    const std::string& error() const { return m_error; }

private:
    Status line(std::string_view& out);
    Status number(std::int64_t& out);
    Status length(std::int64_t& out);
    Status bulk(std::int64_t len, std::string& out);
    Status bad(const char* message)
    {
        m_error = message;
        return Status::Bad;
    }

    std::string_view m_input;
    std::size_t m_pos = 0;
    std::string m_error;
};

// Deeper nesting is rejected, matching the hot-path scanner.
constexpr std::size_t kMaxDepth = ReplyScanner::kMaxDepth;

// Reads the rest of a header line, up to CRLF.
Decoder::Status Decoder::line(std::string_view& out)
{
    const char* begin = m_input.data() + m_pos;
    const std::size_t avail = m_input.size() - m_pos;
    const auto* cr = static_cast<const char*>(std::memchr(begin, '\r', avail));
    if (!cr)
        return Status::NeedMore;
    const std::size_t len = static_cast<std::size_t>(cr - begin);
    if (len + 1 == avail)
        return Status::NeedMore;
    if (cr[1] != '\n')
        return bad("missing LF after CR");
    out = std::string_view(begin, len);
    m_pos += len + 2;
    return Status::Ok;
}

Decoder::Status Decoder::number(std::int64_t& out)
{
    std::string_view text;
    if (Status s = line(text); s != Status::Ok)
        return s;
    const bool negative = !text.empty() && text.front() == '-';
    if (negative)
        text.remove_prefix(1);
    if (text.empty())
        return bad("malformed number");
    // Accumulate the magnitude negatively so INT64_MIN fits.
    std::int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return bad("non-digit in number line");
        const int digit = c - '0';
        if (value < (INT64_MIN + digit) / 10)
            return bad("number out of range");
        value = value * 10 - digit;
    }
    if (!negative) {
        if (value == INT64_MIN)
            return bad("number out of range");
        value = -value;
    }
    out = value;
    return Status::Ok;
}

// A length line: -1 (null) or a non-negative count.
Decoder::Status Decoder::length(std::int64_t& out)
{
    if (Status s = number(out); s != Status::Ok)
        return s;
    if (out < -1)
        return bad("negative length");
    return Status::Ok;
}

Decoder::Status Decoder::bulk(std::int64_t len, std::string& out)
{
    const std::size_t avail = m_input.size() - m_pos;
    const auto size = static_cast<std::uint64_t>(len);
    if (avail < size + 2)
        return Status::NeedMore;
    out.assign(m_input.data() + m_pos, static_cast<std::size_t>(size));
    m_pos += static_cast<std::size_t>(size);
    if (m_input[m_pos] != '\r' || m_input[m_pos + 1] != '\n')
        return bad("missing CRLF after bulk");
    m_pos += 2;
    return Status::Ok;
}

Decoder::Status Decoder::value(RespValue& out, std::size_t depth)
{
    out = RespValue{};
    for (;;) {
        if (m_pos >= m_input.size())
            return Status::NeedMore;
        const char type = m_input[m_pos++];
        std::string_view text;
        std::int64_t n = 0;
        Status s = Status::Ok;

        switch (type) {
        case '+':
        case '-':
        case ',':
        case '(':
            if ((s = line(text)) != Status::Ok)
                return s;
            out.type = type == '+' ? ReplyType::SimpleString
                : type == '-'      ? ReplyType::Error
                : type == ','      ? ReplyType::Double
                                   : ReplyType::BigNumber;
            out.text.assign(text);
            return Status::Ok;

        case '#':
            if ((s = line(text)) != Status::Ok)
                return s;
            if (text != "t" && text != "f")
                return bad("malformed boolean");
            out.type = ReplyType::Boolean;
            out.integer = text == "t" ? 1 : 0;
            return Status::Ok;

        case ':':
            if ((s = number(n)) != Status::Ok)
                return s;
            out.type = ReplyType::Integer;
            out.integer = n;
            return Status::Ok;

        case '_':
            if ((s = line(text)) != Status::Ok)
                return s;
            if (!text.empty())
                return bad("malformed null");
            out.type = ReplyType::Null;
            return Status::Ok;

        case '$':
        case '!':
        case '=':
            if ((s = length(n)) != Status::Ok)
                return s;
            if (n < 0) {
                out.type = ReplyType::Null;
                return Status::Ok;
            }
            if ((s = bulk(n, out.text)) != Status::Ok)
                return s;
            out.type = type == '$' ? ReplyType::BulkString
                : type == '!'      ? ReplyType::Error
                                   : ReplyType::VerbatimString;
            // Verbatim strings start with a three-letter format and ':'.
            if (type == '=' && out.text.size() >= 4 && out.text[3] == ':')
                out.text.erase(0, 4);
            return Status::Ok;

        case '*':
        case '%':
        case '~':
        case '>':
        case '|': {
            if ((s = length(n)) != Status::Ok)
                return s;
            if (n < 0) {
                if (type == '|')
                    return bad("negative length");
                out.type = ReplyType::Null;
                return Status::Ok;
            }
            if (depth >= kMaxDepth)
                return bad("nesting too deep");
            const bool pairs = type == '%' || type == '|';
            const auto count = static_cast<std::uint64_t>(n) * (pairs ? 2 : 1);
            if (type == '|') {   // attribute: parse and drop, then the real value
                RespValue skipped;
                for (std::uint64_t i = 0; i < count; ++i) {
                    if ((s = value(skipped, depth + 1)) != Status::Ok)
                        return s;
                }
                continue;
            }
            out.type = type == '*' ? ReplyType::Array
                : type == '%'      ? ReplyType::Map
                : type == '~'      ? ReplyType::Set
                                   : ReplyType::Push;
            // Every element takes at least three bytes: a huge count must not
            // reserve more than the input could hold.
            const std::uint64_t fits = (m_input.size() - m_pos) / 3;
            out.elements.reserve(static_cast<std::size_t>(count < fits ? count : fits));
            for (std::uint64_t i = 0; i < count; ++i) {
                if ((s = value(out.elements.emplace_back(), depth + 1)) != Status::Ok)
                    return s;
            }
            return Status::Ok;
        }

        default:
            --m_pos;
            return bad("bad type byte");
        }
    }
}

} // namespace

long long decodeValue(std::string_view input, RespValue& out, std::string* error)
{
    Decoder decoder(input);
    switch (decoder.value(out, 0)) {
    case Decoder::Status::Ok:
        return static_cast<long long>(decoder.position());
    case Decoder::Status::NeedMore:
        out = RespValue{};
        return 0;
    case Decoder::Status::Bad:
        break;
    }
    out = RespValue{};
    if (error)
        *error = decoder.error();
    return -1;
}

} // namespace tacho::engine
