#pragma once
// Internal to the comparison's files (comparison.cpp, comparison_metrics.cpp,
// comparison_output.cpp): how they match and shorten names. Not part of the
// engine's API.
#include <cstddef>
#include <string>
#include <string_view>

namespace tacho::engine::comparison_names {

inline std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return out;
}

inline bool equalsIgnoreCase(std::string_view a, std::string_view b) { return lower(a) == lower(b); }

// Long test names (a custom MGET of 1000 keys) shortened for text output.
inline std::string clipName(const std::string& name, std::size_t max = 60)
{
    if (name.size() <= max)
        return name;
    std::size_t cut = max - 3;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
        --cut;   // not inside a UTF-8 sequence
    return name.substr(0, cut) + "...";
}

} // namespace tacho::engine::comparison_names
