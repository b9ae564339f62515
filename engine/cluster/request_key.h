#pragma once
// Which key a request addresses, for routing it to a cluster node.
#include <optional>
#include <string_view>

namespace tacho::engine {

// The routing key of one RESP-encoded request ("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n…"):
// a view into `encodedRequest`, valid as long as its bytes are.
//
// - Ordinary commands (GET, SET, LPUSH, HSET, INCR, ZADD, MSET, and commands
//   this table does not know, e.g. module commands): the 2nd element.
// - Subcommand forms (OBJECT, MEMORY USAGE, XINFO, XGROUP) and BITOP: the 3rd.
// - numkeys forms: EVAL/EVALSHA/FCALL (+_RO) after their numkeys, ZUNION/ZINTER/
//   ZDIFF/ZINTERCARD/SINTERCARD/LMPOP/ZMPOP/BLMPOP/BZMPOP: the first key;
//   nullopt when numkeys is 0.
// - XREAD/XREADGROUP: the first key after STREAMS.
// - Commands without keys (PING, ECHO, INFO, CONFIG, CLIENT, CLUSTER, DBSIZE,
//   FLUSHALL, SELECT, AUTH, HELLO, MULTI, EXEC, PUBLISH, SCAN, KEYS, …): nullopt.
// - The inline form ("PING\r\n"), a request too short to hold its key, or
//   malformed bytes: nullopt.
//
// Command names match case-insensitively. Only the bytes up to the key are
// read; the request may be longer (its value, or further pipelined requests).
// No allocation; a few dozen nanoseconds. Thread-safe.
std::optional<std::string_view> firstKeyOfRequest(std::string_view encodedRequest);

} // namespace tacho::engine
