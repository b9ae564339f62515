#pragma once
// Streaming RESP2/RESP3 reply scanner: a pure push parser over bytes.
//
// It keeps no copy of the input: feed() may be called with any split of the
// stream (down to one byte at a time) and resumes where it stopped. It knows
// nothing of sockets or clocks. No allocation happens in feed().
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tacho::engine {

enum class ReplyType : std::uint8_t {
    SimpleString,   // +
    Error,          // -  and RESP3 blob error !
    Integer,        // :
    BulkString,     // $  (non-null)
    Null,           // $-1, *-1, RESP3 _
    Array,          // *
    Map,            // %
    Set,            // ~
    Push,           // >
    Double,         // ,
    Boolean,        // #
    BigNumber,      // (
    VerbatimString, // =
};

// The error kinds a benchmark must tell apart (first word of the error).
enum class ErrorKind : std::uint8_t {
    None,
    Generic,   // ERR and anything not listed below
    Moved,
    Ask,
    NoAuth,
    WrongPass,
    NoPerm,
    Loading,
    Oom,
    ReadOnly,
    ClusterDown,
    TryAgain,
    Busy,
    WrongType,
    NoScript,
    MasterDown,
    CrossSlot,
    ExecAbort,
};

std::string_view errorKindName(ErrorKind kind);   // "MOVED", "WRONGPASS", "ERR"… ("" for None)
ErrorKind classifyError(std::string_view message); // from the error text

// One completed top-level reply. Push messages (RESP3 '>') are reported too,
// with type Push, so the caller can skip them when matching requests.
// RESP3 attributes ('|') are skipped: their bytes count towards the reply
// that follows them.
struct ReplyInfo {
    ReplyType type = ReplyType::Null;
    ErrorKind error = ErrorKind::None;   // set when type == Error
    bool miss = false;                   // top-level null (a GET on a missing key)
    // First bytes of the error message (without '-'), valid only during the
    // callback. Truncated to kMaxErrorText bytes.
    std::string_view errorText;
    std::uint64_t bytes = 0;             // wire size of the whole reply
    // Only with ReplyScanner::captureScanReplies(): for an array reply, its
    // first element when that is a bulk string (a SCAN cursor, truncated to
    // kMaxErrorText bytes; valid only during the callback) and the length of
    // its second element when that is an array (the keys SCAN returned).
    std::string_view cursor;
    std::uint64_t scanElements = 0;
};

class ReplyScanner {
public:
    // Nesting: as deep as Redis itself answers (its Lua-to-RESP conversion
    // stops near 8,000 levels), in a fixed stack of runs (see Frame): up to
    // kMaxRuns - 1 levels of any shape, and kMaxNesting levels when adjacent
    // levels expect the same number of values (what nested tables give).
    static constexpr std::size_t kMaxNesting = 8192;
    static constexpr std::size_t kMaxRuns = 64;
    // Elements of one aggregate at most (2^47: no server could send more).
    static constexpr std::uint64_t kMaxElements = (std::uint64_t(1) << 47) - 1;
    // The control-plane decoder's (RespValue) nesting limit, which recurses.
    static constexpr std::size_t kMaxDepth = 32;
    static constexpr std::size_t kMaxErrorText = 255;   // kept bytes of an error line

    // Scans `input`, calling onReply(const ReplyInfo&) for each top-level
    // reply completed inside it. Returns the number of bytes consumed, which
    // equals input.size() unless a protocol error stops the scan (then
    // failed() is true, the byte where the error was detected is not
    // consumed, and the scanner must be reset before reuse).
    template <class OnReply>
    std::size_t feed(std::string_view input, OnReply&& onReply);

    // SCAN iteration: fill ReplyInfo::cursor and scanElements. Off by default,
    // so that other workloads pay nothing for it but a test per reply.
    void captureScanReplies(bool on) { m_scanCapture = on; }

    bool failed() const { return m_failed; }
    std::string_view failure() const { return m_failure; }
    void reset();

    // Implementation detail, public for the template above: scans until one
    // top-level reply completes or the input is exhausted.
    struct Step { std::size_t consumed; bool completed; };
    Step scanOne(const char* data, std::size_t size);
    const ReplyInfo& lastReply() const { return m_reply; }

private:
    // `repeat` open aggregates nested in each other that each still expect
    // `remaining` child values: deep nesting costs one frame per change of
    // shape, not per level. The innermost is the last of the run. Attribute
    // frames do not count as a value in their parent when they close.
    struct Frame {
        // Packed: a scanner lives in every connection (10,000 of them).
        std::uint64_t remaining : 47;
        std::uint64_t repeat : 16;
        std::uint64_t attribute : 1;
    };
    static_assert(kMaxNesting < (1u << 16), "a run's repeat must hold any depth");
    enum class State : std::uint8_t {
        Type,     // expecting a type byte
        Text,     // inside a free-text line (+ - , ( #), looking for CR
        Number,   // inside a length/integer line, parsing digits
        LineLf,   // saw the CR of a header line, expecting LF
        Bulk,     // skipping a bulk payload
        BulkCr,   // expecting the CR after a bulk payload
        BulkLf,   // expecting the LF after a bulk payload
    };

    enum class LineResult : std::uint8_t { Continue, Completed, Failed };
    LineResult finishLine();
    bool completeValue();
    bool open(std::uint64_t count, bool attribute);
    void beginReply(char type);
    void captureError(const char* data, std::size_t size);
    void scanElement(char type);
    Step complete(std::size_t consumed);
    Step fail(std::size_t consumed, const char* message);

    State m_state = State::Type;
    char m_type = 0;              // type byte of the value being scanned
    char m_firstChar = 0;         // first byte of a text line (validates '#')
    bool m_failed = false;
    bool m_negative = false;
    bool m_lineHasDigits = false;
    bool m_captureError = false;  // current value is a top-level error (or a SCAN cursor)
    bool m_scanCapture = false;   // captureScanReplies()
    // Where a captured SCAN reply stands: 1 = its cursor is next, 2 = its key
    // array is next, 3 = the key array's header is being read; 0 = nothing to do.
    std::uint8_t m_scanStage = 0;
    std::uint64_t m_scanElements = 0;
    std::uint64_t m_number = 0;   // magnitude of the number line so far
    std::uint64_t m_lineLen = 0;  // bytes of the current text line so far
    std::uint64_t m_bulkRemaining = 0;
    std::size_t m_depth = 0;      // open aggregates (the repeats of the frames in use)
    std::size_t m_runs = 0;       // frames in use
    ReplyInfo m_reply;
    std::uint64_t m_replyBytes = 0;  // bytes of the current reply consumed by earlier calls
    std::size_t m_errorLen = 0;
    const char* m_failure = "";
    char m_errorText[kMaxErrorText] = {};
    Frame m_stack[kMaxRuns] = {};
};

template <class OnReply>
std::size_t ReplyScanner::feed(std::string_view input, OnReply&& onReply)
{
    std::size_t pos = 0;
    while (pos < input.size() && !m_failed) {
        Step step = scanOne(input.data() + pos, input.size() - pos);
        pos += step.consumed;
        if (step.completed)
            onReply(m_reply);
    }
    return pos;
}

} // namespace tacho::engine
