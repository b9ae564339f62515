#pragma once
// A request encoded once, with the byte offsets of its "__rand_int__"
// placeholders, so that each request is a copy plus digit patches: no
// encoding and no allocation per request (redis-benchmark's trick: the
// 12-character placeholder becomes a 12-digit number, same length).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/config/run_config.h"

namespace tacho::engine {

class CommandTemplate {
public:
    static constexpr std::size_t kPlaceholderLength = 12;   // "__rand_int__"

    CommandTemplate() = default;
    explicit CommandTemplate(const TestSpec& spec, std::uint64_t keyspace);

    const std::string& bytes() const { return m_bytes; }
    bool randomized() const { return !m_offsets.empty(); }

    // Appends one request to `out`; `next` yields a random 64-bit number
    // (called once per placeholder).
    template <class Random>
    void appendTo(std::string& out, Random&& next) const
    {
        const std::size_t base = out.size();
        out.append(m_bytes);
        for (const std::size_t offset : m_offsets)
            writeDigits(&out[base + offset], next() % m_keyspace);
    }

    // A copy where every "{tag}" (redis-benchmark's cluster placeholder) is
    // "{" + tag + "}" padded with '_' to the same length, so the keys hash to
    // the tag's slot. `tag` is 1 to 3 characters.
    CommandTemplate withHashTag(std::string_view tag) const;
    bool hasHashTagPlaceholder() const { return m_bytes.find("{tag}") != std::string::npos; }

    // Writes value as exactly 12 zero-padded decimal digits.
    static void writeDigits(char* at, std::uint64_t value);

private:
    std::string m_bytes;
    std::vector<std::size_t> m_offsets;   // empty unless keyspace > 0
    std::uint64_t m_keyspace = 1;
};

// splitmix64: small, fast, good enough for key choice. Worker-local.
class FastRandom {
public:
    explicit FastRandom(std::uint64_t seed) : m_state(seed) {}
    // An independent generator for stream `stream` of one seed. Seeding with
    // seed + k would only shift one sequence by k steps (splitmix64 walks its
    // state by a constant), so the start state is scrambled first.
    static FastRandom forStream(std::uint64_t seed, std::uint64_t stream)
    {
        FastRandom mixer(seed ^ (stream * 0xd1b54a32d192ed03ULL));
        mixer();
        return FastRandom(mixer());
    }
    std::uint64_t operator()()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
private:
    std::uint64_t m_state;
};

} // namespace tacho::engine
