#pragma once
// Full decoding of one complete RESP2/RESP3 reply into a tree. For the
// control plane only (INFO, CONFIG GET, HELLO, CLUSTER SLOTS): it allocates.
// The hot path uses ReplyScanner instead.
#include <cstdint>
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

// Decodes the reply at the start of `input`. Returns the number of bytes it
// used, 0 when `input` holds no complete reply yet, and -1 on a protocol
// error (with a message in *error when given).
long long decodeValue(std::string_view input, RespValue& out, std::string* error = nullptr);

} // namespace tacho::engine
