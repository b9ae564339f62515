#pragma once
// Which commands write keys: the one table the clean-up derives from
// (issue 30: --cleanup after a GET-only run removed keys the user loaded and
// the run only read). A command missing here counts as not writing, so a
// clean-up can leave a benchmark's keys behind but never removes a key no
// request of the run could have written.
#include <string_view>

namespace tacho::engine {

// Whether `command` (any case) creates or changes the key it names: Redis 7's
// commands with the "write" flag that address keys (SET, INCR, LPUSH, SADD,
// HSET, ZADD, XADD, EXPIRE, DEL …). GET, MGET, LRANGE, EXISTS, TTL, SCAN,
// PING and unknown commands: false.
bool isWriteCommand(std::string_view command);

} // namespace tacho::engine
