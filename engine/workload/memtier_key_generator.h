#pragma once
// Key indexes for one command stream of one connection, by memtier's key
// patterns (see memtier_workload.h for their meaning). Worker thread only;
// the random source is the connection's.
#include <cstdint>

#include "engine/workload/command_template.h"
#include "engine/workload/memtier_workload.h"

namespace tacho::engine {

class MemtierKeyGenerator {
public:
    // The generator of `pattern` for connection `connectionIndex` of
    // `connectionCount`: the whole key range, or the connection's slice (P).
    MemtierKeyGenerator(KeyPattern pattern, const MemtierKeyOptions& keys, std::size_t connectionIndex,
                        std::size_t connectionCount);

    // The next key index. S and P walk their domain in order and start over
    // after its last key; an empty P slice (more connections than keys)
    // returns first() forever, callers check domainSize() first.
    std::uint64_t next(FastRandom& random);

    // Keys the pattern can produce: the range, or the P slice.
    std::uint64_t first() const { return m_first; }
    std::uint64_t domainSize() const { return m_size; }
    KeyPattern pattern() const { return m_pattern; }

private:
    std::uint64_t gaussian(FastRandom& random);
    std::uint64_t zipf(FastRandom& random);

    KeyPattern m_pattern;
    std::uint64_t m_first = 0;
    std::uint64_t m_size = 0;
    std::uint64_t m_cursor = 0;           // S, P: offset of the next key in the domain
    // G
    double m_median = 0;
    double m_stddev = 0;
    double m_spare = 0;
    bool m_hasSpare = false;
    // Z: rejection-inversion constants (see zipf())
    double m_exponent = 1;
    double m_zipfMin = 1;
    double m_zipfMax = 1;
    double m_hLow = 0;
    double m_hHigh = 0;
    double m_squeeze = 0;
};

// A uniform double in [0, 1) from 53 random bits.
inline double uniformUnit(FastRandom& random)
{
    return static_cast<double>(random() >> 11) * 0x1.0p-53;
}

} // namespace tacho::engine
