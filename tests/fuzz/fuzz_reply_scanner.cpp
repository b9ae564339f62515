// Fuzzes the streaming RESP reply scanner (engine/resp/reply_scanner.h).
// Invariants: feeding the bytes in any split (one at a time, or pseudo-random
// chunks) gives the same replies, the same consumed count and the same
// failure as feeding the whole buffer; without a failure everything is
// consumed; reply sizes add up to at most what was consumed; a failed scanner
// consumes nothing more and works again after reset(); the full decoder
// (decodeValue) agrees on the size and type of the first reply. With SCAN
// capture on (captureScanReplies, issue 17) the cursor and key count are the
// same at any split too, and nothing else changes.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/resp/reply_scanner.h"
#include "engine/resp/resp_value.h"
#include "fuzz_check.h"

using namespace tacho::engine;

namespace {

struct Reply {
    ReplyType type;
    ErrorKind error;
    bool miss;
    std::string errorText;
    std::uint64_t bytes;
    std::string cursor;
    std::uint64_t scanElements;
    bool operator==(const Reply&) const = default;
};

struct Scan {
    std::vector<Reply> replies;
    std::size_t consumed = 0;
    bool failed = false;
    std::string failure;
};

// Feeds `input` in chunks whose sizes nextChunk() picks (0 = the rest).
template <class NextChunk>
Scan scan(std::string_view input, NextChunk&& nextChunk, bool capture)
{
    ReplyScanner scanner;
    scanner.captureScanReplies(capture);
    Scan result;
    std::size_t pos = 0;
    while (pos < input.size() && !scanner.failed()) {
        std::size_t len = nextChunk();
        if (len == 0 || len > input.size() - pos)
            len = input.size() - pos;
        const std::size_t used = scanner.feed(input.substr(pos, len), [&](const ReplyInfo& info) {
            result.replies.push_back({info.type, info.error, info.miss, std::string(info.errorText), info.bytes,
                                      std::string(info.cursor), info.scanElements});
        });
        FUZZ_CHECK(used == len || scanner.failed(), "a chunk was left unconsumed without a failure");
        result.consumed += used;
        if (scanner.failed())
            break;
        pos += len;
    }
    result.failed = scanner.failed();
    result.failure = std::string(scanner.failure());
    if (scanner.failed()) {
        FUZZ_CHECK(scanner.feed("+OK\r\n", [](const ReplyInfo&) {}) == 0, "a failed scanner consumed more input");
        scanner.reset();
        int replies = 0;
        FUZZ_CHECK(scanner.feed("+OK\r\n", [&](const ReplyInfo&) { ++replies; }) == 5 && replies == 1,
                   "reset() did not make the scanner usable again");
    }
    return result;
}

void expectSame(const Scan& whole, const Scan& split, const char* how)
{
    FUZZ_CHECK(split.consumed == whole.consumed, how);
    FUZZ_CHECK(split.failed == whole.failed, how);
    FUZZ_CHECK(split.failure == whole.failure, how);
    FUZZ_CHECK(split.replies == whole.replies, how);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input = tacho::fuzz::asText(data, size);

    const bool capture = size % 2 == 1;
    const Scan whole = scan(input, [] { return std::size_t(0); }, capture);
    FUZZ_CHECK(whole.failed || whole.consumed == input.size(), "input left unconsumed without a failure");
    FUZZ_CHECK(!whole.failed || !whole.failure.empty(), "a failure without a message");
    std::uint64_t replyBytes = 0;
    for (const Reply& reply : whole.replies) {
        FUZZ_CHECK(reply.bytes > 0, "an empty reply");
        FUZZ_CHECK((reply.type == ReplyType::Error) == (reply.error != ErrorKind::None), "error kind without an error");
        FUZZ_CHECK(reply.errorText.size() <= ReplyScanner::kMaxErrorText, "error text longer than the limit");
        replyBytes += reply.bytes;
        FUZZ_CHECK(capture || (reply.cursor.empty() && reply.scanElements == 0), "a cursor captured when not asked");
        FUZZ_CHECK(reply.type == ReplyType::Array || (reply.cursor.empty() && reply.scanElements == 0),
                   "a cursor captured from a reply that is not an array");
    }
    Scan other = scan(input, [] { return std::size_t(0); }, !capture);
    for (std::size_t i = 0; i < other.replies.size() && i < whole.replies.size(); ++i) {
        other.replies[i].cursor = whole.replies[i].cursor;
        other.replies[i].scanElements = whole.replies[i].scanElements;
    }
    expectSame(whole, other, "SCAN capture changed something else");
    FUZZ_CHECK(replyBytes <= whole.consumed, "replies larger than the bytes consumed");

    expectSame(whole, scan(input, [] { return std::size_t(1); }, capture), "one byte at a time");
    std::uint32_t state = static_cast<std::uint32_t>(size) * 2654435761u + 1;
    expectSame(whole, scan(input, [&] {
                   state = state * 1103515245u + 12345u;
                   return std::size_t(1 + (state >> 16) % 17);
               }, capture),
               "random chunks");

    // The control plane's decoder reads the same protocol: it must agree on
    // the first reply whenever both complete one.
    RespValue value;
    std::string error;
    const long long decoded = decodeValue(input, value, &error);
    if (decoded > 0 && !whole.replies.empty() && whole.replies.front().type != ReplyType::Push) {
        FUZZ_CHECK(static_cast<std::uint64_t>(decoded) == whole.replies.front().bytes,
                   "decoder and scanner disagree on the size of the first reply");
        FUZZ_CHECK(value.type == whole.replies.front().type, "decoder and scanner disagree on the type");
    }
    return 0;
}
