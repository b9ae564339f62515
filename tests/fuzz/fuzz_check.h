#pragma once
// Shared by the libFuzzer targets: an invariant check that aborts (libFuzzer
// then saves the input as a crash artifact), and argv from fuzz bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

// Unlike assert(), active in every build type.
#define FUZZ_CHECK(condition, what)                                                            \
    do {                                                                                       \
        if (!(condition)) {                                                                    \
            std::fprintf(stderr, "%s:%d: invariant broken: %s (%s)\n", __FILE__, __LINE__,      \
                         #condition, std::string(what).c_str());                               \
            std::abort();                                                                      \
        }                                                                                      \
    } while (false)

namespace tacho::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

// Command-line words: the input split at NUL bytes (the seed files hold
// arguments separated by NULs, as /proc/<pid>/cmdline does).
inline std::vector<std::string> splitArgs(std::string_view text)
{
    std::vector<std::string> words;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\0', start);
        const std::size_t stop = end == std::string_view::npos ? text.size() : end;
        if (stop > start || end != std::string_view::npos)
            words.emplace_back(text.substr(start, stop - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    return words;
}

} // namespace tacho::fuzz
