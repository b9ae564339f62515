#pragma once
// The names of the keys a workload writes, exactly, so that an optional
// clean-up removes those keys and nothing else. A KeyShape gives the SCAN
// MATCH pattern (Redis glob syntax: * ? [..] and \ to escape) that finds
// candidates, and matches() that decides: a glob cannot say "a number in
// 1..300 without leading zeros", so SCAN's answers are only candidates.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tacho::engine {

// `text` matched literally: *, ?, [, ] and \ escaped.
std::string globLiteral(std::string_view text);

class KeyShape {
public:
    // Pieces in order.
    void addLiteral(std::string_view text);
    // memtier's key index: decimal without leading zeros, in [minimum, maximum].
    void addNumber(std::uint64_t minimum, std::uint64_t maximum);
    // redis-benchmark's __rand_int__ with -r: twelve zero-padded digits, value below `keyspace`.
    void addTwelveDigits(std::uint64_t keyspace);
    // redis-benchmark's {tag} in cluster mode: one of the engine's per-client hash tags.
    void addClusterTag();

    std::string glob() const;       // SCAN MATCH candidates
    std::string describe() const;   // "memtier-<0..10000000>", for people
    bool matches(std::string_view key) const;

    bool operator==(const KeyShape& other) const;

private:
    struct Piece {
        enum class Kind { Literal, Number, TwelveDigits, ClusterTag } kind;
        std::string text;                      // Literal
        std::uint64_t minimum = 0, maximum = 0;   // Number; TwelveDigits: 0..keyspace-1
        bool operator==(const Piece&) const = default;
    };
    bool matchFrom(std::size_t piece, std::string_view rest) const;

    std::vector<Piece> m_pieces;
};

// The shape of a redis-benchmark key template: "__rand_int__" is twelve
// digits below `keyspace` when one is given (-r) and literal otherwise; with
// `clusterTags`, "{tag}" is the per-client tag the engine puts there.
KeyShape shapeOfKeyTemplate(std::string_view key, std::uint64_t keyspace, bool clusterTags);

} // namespace tacho::engine
