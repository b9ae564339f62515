#pragma once
// A value as the user typed it, in quotes, for usage messages. Shared by the
// option parsers of engine/cli (both dialects, capacity, step workload);
// not engine API.
#include <string>
#include <string_view>

namespace tacho::engine::detail {

inline std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

} // namespace tacho::engine::detail
