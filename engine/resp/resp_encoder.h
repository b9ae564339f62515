#pragma once
// RESP request encoding: arrays of bulk strings, and the inline form.
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tacho::engine {

// Appends "*N\r\n$len\r\narg\r\n…" to `out`.
void appendCommand(std::string& out, std::span<const std::string_view> args);
void appendCommand(std::string& out, std::initializer_list<std::string_view> args);
void appendCommand(std::string& out, const std::vector<std::string>& args);

// Appends the inline form "arg arg\r\n" (used by PING_INLINE). Arguments must
// not contain spaces, CR or LF.
void appendInline(std::string& out, std::span<const std::string_view> args);

std::string encodeCommand(std::initializer_list<std::string_view> args);
std::string encodeCommand(const std::vector<std::string>& args);

} // namespace tacho::engine
