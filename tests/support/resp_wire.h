#pragma once
// Test-side RESP wire helpers shared by the fake servers: reading a client's
// commands (RESP arrays of bulk strings or inline lines) and writing replies.
#include <cstddef>
#include <string>
#include <vector>

namespace tacho::test {

enum class ParsedCommand { Command, NeedMore, Malformed };

// One request from `in` at `pos`; on Command advances `pos` past it and fills
// `args` (an empty inline line gives Command with no args).
ParsedCommand parseClientCommand(const std::string& in, std::size_t& pos, std::vector<std::string>& args);

std::string upperAscii(std::string text);
std::string respBulk(const std::string& text);
// What a tiny, empty Redis answers: PING → +PONG, INFO → a short bulk with
// redis_version:7.0.0-fake (INFO commandstats → an empty section), CONFIG → an
// empty array, GET → nil, anything else → +OK.
std::string healthyReply(const std::vector<std::string>& args);

} // namespace tacho::test
