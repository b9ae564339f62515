#pragma once
// Full decoding of one complete RESP2/RESP3 reply into a tree. For the
// control plane only (INFO, CONFIG GET, HELLO, CLUSTER SLOTS): it allocates.
// The hot path uses ReplyScanner instead.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/resp/reply_scanner.h"

namespace tacho::engine {

struct RespValue {
    ReplyType type = ReplyType::Null;
    std::string text;            // simple/bulk/verbatim string, error text, big number, double text
    std::int64_t integer = 0;    // Integer; Boolean as 0/1
    std::vector<RespValue> elements;  // Array/Set/Push; Map as key, value, key, value…

    bool isError() const { return type == ReplyType::Error; }
    bool isNull() const { return type == ReplyType::Null; }
};

// Bounds on one reply, so a server that never ends its reply (an endless
// array or bulk) costs bounded memory. 64 MiB holds CLUSTER NODES of a large
// cluster and any SCAN page; 1 Mi values hold CLUSTER SLOTS with every slot
// in a range of its own and five replicas each (about 16384 × 27), at some
// 100 MB of tree; 1024 levels are deeper than any
// Lua table a real server converts in practice (EVAL returning nested tables).
struct RespLimits {
    std::uint64_t maxBytes = 64ull << 20;
    std::uint64_t maxValues = 1ull << 20;
    std::size_t maxDepth = 1024;
};

// Incremental decoder: bytes are fed as they arrive and each byte is looked
// at once (no re-parsing from the start), nesting is walked with an explicit
// stack (no recursion). One reply at a time.
class RespDecoder {
public:
    enum class Status { NeedMore, Done, Bad };

    explicit RespDecoder(RespLimits limits = {}) : m_limits(limits) {}

    // Consumes bytes of `input` into the reply under way; *used tells how
    // many (on Done the rest belongs to the next reply). After Done, take()
    // the value; after Bad, error() says why and reset() starts over.
    Status feed(std::string_view input, std::size_t* used);
    RespValue take();
    void reset();
    const std::string& error() const { return m_error; }
    // The failure was a limit of RespLimits, not malformed input.
    bool limitExceeded() const { return m_limitExceeded; }
    std::uint64_t bytesSoFar() const { return m_bytes; }
    const RespLimits& limits() const { return m_limits; }

private:
    struct Frame {
        RespValue* node;                   // the aggregate being filled
        std::uint64_t remaining;           // values still to come
        std::unique_ptr<RespValue> attribute;   // set: an attribute, dropped when complete
        RespValue* slot = nullptr;         // attribute only: where the real value goes
    };
    Status header(std::string_view line);
    Status finishValue();
    RespValue* nextSlot();
    Status bad(std::string message);
    Status overLimit(std::string message);

    RespLimits m_limits;
    RespValue m_root;
    std::vector<Frame> m_stack;
    RespValue* m_pending = nullptr;   // slot for the value after an attribute
    std::string m_line;               // header line so far (type byte included)
    bool m_inBulk = false;
    RespValue* m_bulk = nullptr;      // the bulk string being read
    std::uint64_t m_bulkLeft = 0;     // payload bytes still to read
    char m_bulkType = 0;
    int m_crlfLeft = 0;               // CRLF bytes after a bulk payload still to read
    std::uint64_t m_bytes = 0;
    std::uint64_t m_values = 0;
    bool m_done = false;
    bool m_failed = false;
    bool m_limitExceeded = false;
    std::string m_error;
};

// Decodes the reply at the start of `input`. Returns the number of bytes it
// used, 0 when `input` holds no complete reply yet, and -1 on a protocol
// error or a reply beyond RespLimits (with a message in *error when given).
long long decodeValue(std::string_view input, RespValue& out, std::string* error = nullptr);

} // namespace tacho::engine
