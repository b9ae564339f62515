#include "engine/resp/resp_value.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

namespace tacho::engine {

namespace {

bool isTypeByte(char c)
{
    return c != '\0' && std::strchr("+-:$*_,#!=(%~>|", c) != nullptr;
}

// A decimal line as RESP writes it; nullptr on success, else why not.
const char* parseNumber(std::string_view text, std::int64_t& out)
{
    const bool negative = !text.empty() && text.front() == '-';
    if (negative)
        text.remove_prefix(1);
    if (text.empty())
        return "malformed number";
    // Accumulate the magnitude negatively so INT64_MIN fits.
    std::int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return "non-digit in number line";
        const int digit = c - '0';
        if (value < (INT64_MIN + digit) / 10)
            return "number out of range";
        value = value * 10 - digit;
    }
    if (!negative) {
        if (value == INT64_MIN)
            return "number out of range";
        value = -value;
    }
    out = value;
    return nullptr;
}

} // namespace

void RespDecoder::reset()
{
    m_root = RespValue {};
    m_stack.clear();
    m_pending = nullptr;
    m_line.clear();
    m_inBulk = false;
    m_bulk = nullptr;
    m_bulkLeft = 0;
    m_crlfLeft = 0;
    m_bytes = 0;
    m_values = 0;
    m_done = false;
    m_failed = false;
    m_limitExceeded = false;
    m_error.clear();
}

RespValue RespDecoder::take()
{
    RespValue value = std::move(m_root);
    reset();
    return value;
}

RespDecoder::Status RespDecoder::bad(std::string message)
{
    m_failed = true;
    m_error = std::move(message);
    return Status::Bad;
}

RespDecoder::Status RespDecoder::overLimit(std::string message)
{
    m_limitExceeded = true;
    return bad(std::move(message));
}

// Where the next value goes: after an attribute the slot it stood in, else
// the root or a new element of the innermost aggregate.
RespValue* RespDecoder::nextSlot()
{
    if (m_pending)
        return std::exchange(m_pending, nullptr);
    if (++m_values > m_limits.maxValues)
        return nullptr;
    if (m_stack.empty())
        return &m_root;
    return &m_stack.back().node->elements.emplace_back();
}

// A value is complete: count it in its aggregate, closing every aggregate it
// completes in turn. Pointers on the stack stay valid: an aggregate's element
// vector grows only after the element being filled is complete.
RespDecoder::Status RespDecoder::finishValue()
{
    while (!m_stack.empty()) {
        Frame& top = m_stack.back();
        if (--top.remaining > 0)
            return Status::NeedMore;
        if (top.attribute) {
            m_pending = top.slot;   // the attribute is dropped; its value follows
            m_stack.pop_back();
            return Status::NeedMore;
        }
        m_stack.pop_back();
    }
    m_done = true;
    return Status::Done;
}

RespDecoder::Status RespDecoder::header(std::string_view line)
{
    const char type = line.front();
    const std::string_view text = line.substr(1);
    RespValue* out = nextSlot();
    if (!out)
        return overLimit("more than " + std::to_string(m_limits.maxValues) + " values");
    std::int64_t n = 0;
    switch (type) {
    case '+':
    case '-':
    case ',':
    case '(':
        out->type = type == '+' ? ReplyType::SimpleString
            : type == '-'       ? ReplyType::Error
            : type == ','       ? ReplyType::Double
                                : ReplyType::BigNumber;
        out->text.assign(text);
        return finishValue();
    case '#':
        if (text != "t" && text != "f")
            return bad("malformed boolean");
        out->type = ReplyType::Boolean;
        out->integer = text == "t" ? 1 : 0;
        return finishValue();
    case ':':
        if (const char* why = parseNumber(text, n))
            return bad(why);
        out->type = ReplyType::Integer;
        out->integer = n;
        return finishValue();
    case '_':
        if (!text.empty())
            return bad("malformed null");
        out->type = ReplyType::Null;
        return finishValue();
    default:
        break;
    }

    if (const char* why = parseNumber(text, n))
        return bad(why);
    if (n < -1 || (n == -1 && type == '|'))
        return bad("negative length");
    if (n == -1) {
        out->type = ReplyType::Null;
        return finishValue();
    }
    const auto count = static_cast<std::uint64_t>(n);
    if (type == '$' || type == '!' || type == '=') {
        if (count > m_limits.maxBytes - std::min(m_bytes, m_limits.maxBytes))
            return overLimit("a string of " + std::to_string(count) + " bytes: more than "
                             + std::to_string(m_limits.maxBytes) + " bytes");
        out->type = type == '$' ? ReplyType::BulkString : type == '!' ? ReplyType::Error : ReplyType::VerbatimString;
        out->text.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(count, 1 << 20)));
        m_inBulk = true;
        m_bulk = out;
        m_bulkType = type;
        m_bulkLeft = count;
        m_crlfLeft = 2;
        return Status::NeedMore;
    }

    // An aggregate ('*', '%', '~', '>', '|').
    if (count > m_limits.maxValues)
        return overLimit("an aggregate of " + std::to_string(count) + " values: more than "
                         + std::to_string(m_limits.maxValues) + " values");
    if (m_stack.size() >= m_limits.maxDepth)
        return overLimit("nesting deeper than " + std::to_string(m_limits.maxDepth) + " levels");
    const bool pairs = type == '%' || type == '|';
    const std::uint64_t values = count * (pairs ? 2 : 1);
    if (type != '|') {
        out->type = type == '*' ? ReplyType::Array
            : type == '%'       ? ReplyType::Map
            : type == '~'       ? ReplyType::Set
                                : ReplyType::Push;
    }
    if (values == 0) {
        if (type == '|') {
            m_pending = out;
            return Status::NeedMore;
        }
        return finishValue();
    }
    if (type == '|') {
        auto scratch = std::make_unique<RespValue>();
        RespValue* node = scratch.get();
        m_stack.push_back(Frame { node, values, std::move(scratch), out });
        return Status::NeedMore;
    }
    // Reserve modestly: a declared count is a claim, not bytes received.
    out->elements.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(values, 1024)));
    m_stack.push_back(Frame { out, values, nullptr, nullptr });
    return Status::NeedMore;
}

RespDecoder::Status RespDecoder::feed(std::string_view input, std::size_t* used)
{
    std::size_t pos = 0;
    const auto finish = [&](Status status) {
        *used = pos;
        return status;
    };
    if (m_failed)
        return finish(Status::Bad);
    if (m_done)
        return finish(Status::Done);

    while (pos < input.size()) {
        Status status = Status::NeedMore;
        if (m_inBulk) {
            if (m_bulkLeft > 0) {
                const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(m_bulkLeft, input.size() - pos));
                m_bulk->text.append(input.data() + pos, take);
                pos += take;
                m_bytes += take;
                m_bulkLeft -= take;
                continue;
            }
            if (input[pos] != (m_crlfLeft == 2 ? '\r' : '\n'))
                return finish(bad("missing CRLF after bulk"));
            ++pos;
            ++m_bytes;
            if (--m_crlfLeft > 0)
                continue;
            m_inBulk = false;
            // Verbatim strings start with a three-letter format and ':'.
            if (m_bulkType == '=' && m_bulk->text.size() >= 4 && m_bulk->text[3] == ':')
                m_bulk->text.erase(0, 4);
            status = finishValue();
        } else if (!m_line.empty() && m_line.back() == '\r') {
            if (input[pos] != '\n')
                return finish(bad("missing LF after CR"));
            ++pos;
            ++m_bytes;
            m_line.pop_back();
            status = header(m_line);
            m_line.clear();
        } else {
            if (m_line.empty() && !isTypeByte(input[pos]))
                return finish(bad("bad type byte"));
            const char* begin = input.data() + pos;
            const auto* cr = static_cast<const char*>(std::memchr(begin, '\r', input.size() - pos));
            const std::size_t take = cr ? static_cast<std::size_t>(cr - begin) + 1 : input.size() - pos;
            m_line.append(begin, take);
            pos += take;
            m_bytes += take;
        }
        if (status == Status::Bad)
            return finish(status);
        if (m_bytes > m_limits.maxBytes)
            return finish(overLimit("more than " + std::to_string(m_limits.maxBytes) + " bytes"));
        if (status == Status::Done)
            return finish(status);
    }
    return finish(Status::NeedMore);
}

long long decodeValue(std::string_view input, RespValue& out, std::string* error)
{
    RespDecoder decoder;
    std::size_t used = 0;
    switch (decoder.feed(input, &used)) {
    case RespDecoder::Status::Done:
        out = decoder.take();
        return static_cast<long long>(used);
    case RespDecoder::Status::NeedMore:
        out = RespValue {};
        return 0;
    case RespDecoder::Status::Bad:
        break;
    }
    out = RespValue {};
    if (error)
        *error = decoder.error();
    return -1;
}

} // namespace tacho::engine
