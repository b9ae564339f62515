#include "engine/resp/reply_scanner.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace tacho::engine {

namespace {

struct ErrorName {
    std::string_view name;
    ErrorKind kind;
};

constexpr ErrorName kErrorNames[] = {
    {"ERR", ErrorKind::Generic},
    {"MOVED", ErrorKind::Moved},
    {"ASK", ErrorKind::Ask},
    {"NOAUTH", ErrorKind::NoAuth},
    {"WRONGPASS", ErrorKind::WrongPass},
    {"NOPERM", ErrorKind::NoPerm},
    {"LOADING", ErrorKind::Loading},
    {"OOM", ErrorKind::Oom},
    {"READONLY", ErrorKind::ReadOnly},
    {"CLUSTERDOWN", ErrorKind::ClusterDown},
    {"TRYAGAIN", ErrorKind::TryAgain},
    {"BUSY", ErrorKind::Busy},
    {"WRONGTYPE", ErrorKind::WrongType},
    {"NOSCRIPT", ErrorKind::NoScript},
    {"MASTERDOWN", ErrorKind::MasterDown},
    {"CROSSSLOT", ErrorKind::CrossSlot},
    {"EXECABORT", ErrorKind::ExecAbort},
};

// What follows a type byte: a free-text line, a number line, or nothing valid.
enum class LineKind : std::uint8_t { Invalid, Text, Number };

constexpr std::array<LineKind, 256> makeLineKinds()
{
    std::array<LineKind, 256> kinds{};
    for (unsigned char c : std::string_view("+-,(#"))
        kinds[c] = LineKind::Text;
    for (unsigned char c : std::string_view(":_$!=*%~>|"))
        kinds[c] = LineKind::Number;
    return kinds;
}
constexpr std::array<LineKind, 256> kLineKinds = makeLineKinds();

ReplyType replyTypeOf(char type)
{
    switch (type) {
    case '+': return ReplyType::SimpleString;
    case '-':
    case '!': return ReplyType::Error;
    case ':': return ReplyType::Integer;
    case '$': return ReplyType::BulkString;
    case '*': return ReplyType::Array;
    case '%': return ReplyType::Map;
    case '~': return ReplyType::Set;
    case '>': return ReplyType::Push;
    case ',': return ReplyType::Double;
    case '#': return ReplyType::Boolean;
    case '(': return ReplyType::BigNumber;
    case '=': return ReplyType::VerbatimString;
    default: return ReplyType::Null;   // '_'
    }
}

// Lengths above this are rejected: no server sends them, and doubling a map
// count must not overflow.
constexpr std::uint64_t kMaxLength = std::uint64_t(1) << 62;

} // namespace

std::string_view errorKindName(ErrorKind kind)
{
    for (const ErrorName& entry : kErrorNames) {
        if (entry.kind == kind)
            return entry.name;
    }
    return {};
}

ErrorKind classifyError(std::string_view message)
{
    const std::string_view word = message.substr(0, message.find(' '));
    for (const ErrorName& entry : kErrorNames) {
        if (entry.name == word)
            return entry.kind;
    }
    return ErrorKind::Generic;
}

void ReplyScanner::reset()
{
    // Only the fields that carry state between values need clearing; the
    // stack and error buffer are overwritten before they are read.
    m_state = State::Type;
    m_type = 0;
    m_firstChar = 0;
    m_failed = false;
    m_negative = false;
    m_lineHasDigits = false;
    m_captureError = false;
    m_scanStage = 0;
    m_scanElements = 0;
    m_number = 0;
    m_lineLen = 0;
    m_bulkRemaining = 0;
    m_depth = 0;
    m_runs = 0;
    m_reply = ReplyInfo{};
    m_replyBytes = 0;
    m_errorLen = 0;
    m_failure = "";
}

void ReplyScanner::beginReply(char type)
{
    m_reply.type = replyTypeOf(type);
    m_reply.error = ErrorKind::None;
    m_reply.miss = false;
    m_reply.errorText = {};
    m_errorLen = 0;
    if (m_scanCapture) {
        m_scanStage = type == '*' ? 1 : 0;
        m_scanElements = 0;
    }
}

// A value starts inside an aggregate while a SCAN reply is being captured:
// its cursor (a bulk string) goes into the error text buffer, which an array
// reply does not use, and the header of its key array gives the key count.
void ReplyScanner::scanElement(char type)
{
    if (m_depth != 1)
        return;
    if (m_scanStage == 1) {
        m_captureError = type == '$';
        m_scanStage = 2;
    } else {
        m_scanStage = m_scanStage == 2 && type == '*' ? 3 : 0;
    }
}

void ReplyScanner::captureError(const char* data, std::size_t size)
{
    const std::size_t take = std::min(size, kMaxErrorText - m_errorLen);
    std::memcpy(m_errorText + m_errorLen, data, take);
    m_errorLen += take;
}

ReplyScanner::Step ReplyScanner::complete(std::size_t consumed)
{
    m_reply.bytes = m_replyBytes + consumed;
    m_replyBytes = 0;
    if (m_reply.type == ReplyType::Error) {
        m_reply.errorText = std::string_view(m_errorText, m_errorLen);
        m_reply.error = classifyError(m_reply.errorText);
    }
    if (m_scanCapture) {
        const bool array = m_reply.type == ReplyType::Array;
        m_reply.cursor = array ? std::string_view(m_errorText, m_errorLen) : std::string_view();
        m_reply.scanElements = array ? m_scanElements : 0;
        m_scanStage = 0;
    }
    return {consumed, true};
}

ReplyScanner::Step ReplyScanner::fail(std::size_t consumed, const char* message)
{
    m_failed = true;
    m_failure = message;
    return {consumed, false};
}

// A value (leaf or aggregate) just ended: close every aggregate it fills.
// Returns true when that completes a top-level reply.
bool ReplyScanner::completeValue()
{
    m_state = State::Type;
    while (m_runs > 0) {
        Frame& top = m_stack[m_runs - 1];
        if (top.remaining > 1) {
            if (top.repeat == 1) {
                --top.remaining;
                // Now like the run below it ({x, {x, {…}}} at every level): join it.
                if (m_runs > 1) {
                    Frame& below = m_stack[m_runs - 2];
                    if (below.remaining == top.remaining && below.attribute == top.attribute) {
                        ++below.repeat;
                        --m_runs;
                    }
                }
                return false;
            }
            // The innermost of a run now expects fewer values than the rest:
            // it becomes a frame of its own. open() keeps a frame free for
            // this whenever a run has more than one aggregate.
            --top.repeat;
            m_stack[m_runs++] = Frame{top.remaining - 1, 1, top.attribute};
            return false;
        }
        if (top.attribute) {
            // A closed attribute is metadata for the value that follows it.
            --m_depth;
            if (--top.repeat == 0)
                --m_runs;
            return false;
        }
        // Each one's last value: the whole run closes, and counts as one
        // value in the frame below.
        m_depth -= top.repeat;
        --m_runs;
    }
    return true;
}

// A new innermost aggregate expecting `count` values; false when too deep.
bool ReplyScanner::open(std::uint64_t count, bool attribute)
{
    // Joining or starting a run both need a free frame left for a later
    // split (completeValue), so the stack never overflows.
    if (m_depth == kMaxNesting || m_runs == kMaxRuns)
        return false;
    ++m_depth;
    if (m_runs > 0) {
        Frame& top = m_stack[m_runs - 1];
        if (top.remaining == count && top.attribute == attribute) {
            ++top.repeat;
            return true;
        }
    }
    m_stack[m_runs++] = Frame{count, 1, attribute};
    return true;
}

// A header line (type byte … CRLF) is complete: act on it.
ReplyScanner::LineResult ReplyScanner::finishLine()
{
    const auto done = [this] { return completeValue() ? LineResult::Completed : LineResult::Continue; };
    const auto null = [this, &done] {
        if (m_depth == 0) {
            m_reply.type = ReplyType::Null;
            m_reply.miss = true;
        }
        return done();
    };

    switch (m_type) {
    case '+':
    case '-':
    case ',':
    case '(':
        return done();
    case '#':
        if (m_lineLen != 1 || (m_firstChar != 't' && m_firstChar != 'f')) {
            fail(0, "malformed boolean");
            return LineResult::Failed;
        }
        return done();
    case ':':
        if (!m_lineHasDigits) {
            fail(0, "malformed integer");
            return LineResult::Failed;
        }
        return done();
    case '_':
        if (m_lineHasDigits || m_negative) {
            fail(0, "malformed null");
            return LineResult::Failed;
        }
        return null();
    default:
        break;
    }

    // Length lines: bulk ($ ! =) and aggregates (* % ~ > |).
    if (!m_lineHasDigits) {
        fail(0, "malformed length");
        return LineResult::Failed;
    }
    if (m_negative) {
        if (m_number == 1 && m_type != '|')
            return null();
        fail(0, "negative length");
        return LineResult::Failed;
    }
    if (m_number > kMaxLength) {
        fail(0, "length too large");
        return LineResult::Failed;
    }

    if (m_type == '$' || m_type == '!' || m_type == '=') {
        m_bulkRemaining = m_number;
        m_state = m_number > 0 ? State::Bulk : State::BulkCr;
        return LineResult::Continue;
    }

    const bool attribute = m_type == '|';
    const std::uint64_t count = (attribute || m_type == '%') ? m_number * 2 : m_number;
    if (m_scanStage == 3) {   // the key array of a captured SCAN reply
        m_scanElements = m_number;
        m_scanStage = 0;
    }
    if (count == 0) {
        if (attribute) {   // an empty attribute: nothing to skip
            m_state = State::Type;
            return LineResult::Continue;
        }
        return done();
    }
    if (count > kMaxElements) {
        fail(0, "length too large");
        return LineResult::Failed;
    }
    if (!open(count, attribute)) {
        fail(0, "nesting too deep");
        return LineResult::Failed;
    }
    m_state = State::Type;
    return LineResult::Continue;
}

ReplyScanner::Step ReplyScanner::scanOne(const char* data, std::size_t size)
{
    const char* p = data;
    const char* const end = data + size;
    const auto offset = [&p, data] { return static_cast<std::size_t>(p - data); };

    while (p < end) {
        switch (m_state) {
        case State::Type: {
            const char type = *p;
            const LineKind kind = kLineKinds[static_cast<unsigned char>(type)];
            if (kind == LineKind::Invalid)
                return fail(offset(), "bad type byte");
            ++p;
            m_type = type;
            if (m_depth == 0) {
                if (type != '|')
                    beginReply(type);
                m_captureError = type == '-' || type == '!';
            } else {
                m_captureError = false;
                if (m_scanStage != 0)
                    scanElement(type);
            }
            if (kind == LineKind::Text) {
                m_lineLen = 0;
                m_state = State::Text;
            } else {
                m_number = 0;
                m_negative = false;
                m_lineHasDigits = false;
                m_state = State::Number;
            }
            break;
        }

        case State::Text: {
            const std::size_t avail = static_cast<std::size_t>(end - p);
            const auto* cr = static_cast<const char*>(std::memchr(p, '\r', avail));
            const char* stop = cr ? cr : end;
            const std::size_t len = static_cast<std::size_t>(stop - p);
            if (m_lineLen == 0 && len > 0)
                m_firstChar = *p;
            if (m_captureError)
                captureError(p, len);
            m_lineLen += len;
            p = stop;
            if (cr) {
                ++p;
                m_state = State::LineLf;
            }
            break;
        }

        case State::Number: {
            // Digits accumulate in locals: stores to members could alias the
            // input (it is char data), which would force reloads per byte.
            std::uint64_t n = m_number;
            bool digits = m_lineHasDigits;
            while (p < end) {
                const unsigned d = static_cast<unsigned char>(*p) - unsigned('0');
                if (d >= 10)
                    break;
                // Magnitude is capped at 2^63 (enough for INT64_MIN).
                constexpr std::uint64_t kCapDiv10 = (std::uint64_t(1) << 63) / 10;
                if (n > kCapDiv10 || (n == kCapDiv10 && d > 8)) {
                    m_number = n;
                    return fail(offset(), "number too large");
                }
                n = n * 10 + d;
                digits = true;
                ++p;
            }
            m_number = n;
            m_lineHasDigits = digits;
            if (p == end)
                break;
            if (*p == '\r') {
                ++p;
                m_state = State::LineLf;
            } else if (*p == '-' && !digits && !m_negative) {
                ++p;
                m_negative = true;
            } else {
                return fail(offset(), "non-digit in number line");
            }
            break;
        }

        case State::LineLf: {
            if (*p != '\n')
                return fail(offset(), "missing LF after CR");
            // A rejected line fails at its LF, which stays unconsumed like
            // every byte an error is detected at.
            const LineResult result = finishLine();
            if (result == LineResult::Failed)   // finishLine set the message
                return {offset(), false};
            ++p;
            if (result == LineResult::Completed)
                return complete(offset());
            break;
        }

        case State::Bulk: {
            const std::size_t avail = static_cast<std::size_t>(end - p);
            // Common case: payload and its CRLF are all here.
            if (avail >= m_bulkRemaining + 2) {
                const std::size_t len = static_cast<std::size_t>(m_bulkRemaining);
                if (m_captureError)
                    captureError(p, len);
                p += len;
                m_bulkRemaining = 0;
                if (p[0] != '\r')
                    return fail(offset(), "missing CRLF after bulk");
                if (p[1] != '\n')
                    return fail(offset() + 1, "missing CRLF after bulk");
                p += 2;
                if (completeValue())
                    return complete(offset());
                break;
            }
            const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(avail, m_bulkRemaining));
            if (m_captureError)
                captureError(p, take);
            p += take;
            m_bulkRemaining -= take;
            if (m_bulkRemaining == 0)
                m_state = State::BulkCr;
            break;
        }

        case State::BulkCr:
            if (*p != '\r')
                return fail(offset(), "missing CRLF after bulk");
            ++p;
            m_state = State::BulkLf;
            break;

        case State::BulkLf:
            if (*p != '\n')
                return fail(offset(), "missing CRLF after bulk");
            ++p;
            if (completeValue())
                return complete(offset());
            break;
        }
    }
    m_replyBytes += size;
    return {size, false};
}

} // namespace tacho::engine
