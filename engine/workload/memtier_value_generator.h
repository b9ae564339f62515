#pragma once
// Values and expiry times for one connection, by memtier's object options
// (see MemtierValueOptions). Worker thread only.
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/workload/command_template.h"
#include "engine/workload/memtier_workload.h"

namespace tacho::engine {

class MemtierValueGenerator {
public:
    // `keyMinimum`/`keyMaximum`: the whole key range, for sizes that follow
    // the key (--data-size-pattern S).
    MemtierValueGenerator(const MemtierValueOptions& options, std::uint64_t keyMinimum, std::uint64_t keyMaximum,
                          FastRandom& random);

    // The value for key index `key`; valid until the next call. Fixed data is
    // all 'x'. Random data changes one byte per call and is redrawn whenever
    // every byte has changed once, so consecutive values differ (memtier's
    // scheme) without drawing a whole value per request.
    std::string_view next(std::uint64_t key, FastRandom& random);
    std::uint32_t nextSize(std::uint64_t key, FastRandom& random);

    // Seconds for SET … EX; 0 = no expiry.
    std::uint32_t nextExpiry(FastRandom& random);

private:
    void fill(FastRandom& random);

    const MemtierValueOptions& m_options;
    std::uint64_t m_keyMinimum;
    std::uint64_t m_keyMaximum;
    std::string m_buffer;                 // largest size
    std::size_t m_mutation = 0;           // random data: next byte to change
    std::size_t m_listIndex = 0;          // size list: current entry
    std::uint32_t m_listUsed = 0;         //   and how often it was used in a row
};

} // namespace tacho::engine
