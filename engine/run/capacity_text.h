#pragma once
// Number text of the capacity search's messages, shared by its source files
// (capacity_options.cpp, capacity_search.cpp). Not engine API.
#include <string>

namespace tacho::engine::capacity_detail {

// At most `maxDecimals` decimals, without trailing zeros: 2.5, 1000.
std::string number(double value, int maxDecimals = 3);
// In the largest unit that keeps it at least 1: "2 s", "1.5 ms", "250 us", "80 ns".
std::string durationText(double ns);
// In milliseconds: "0.25 ms".
std::string msText(double ns);

} // namespace tacho::engine::capacity_detail
