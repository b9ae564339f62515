#include "engine/workload/memtier_value_generator.h"

#include <algorithm>

namespace tacho::engine {

MemtierValueGenerator::MemtierValueGenerator(const MemtierValueOptions& options, std::uint64_t keyMinimum,
                                             std::uint64_t keyMaximum, FastRandom& random)
    : m_options(options), m_keyMinimum(keyMinimum), m_keyMaximum(keyMaximum)
{
    m_buffer.assign(std::max<std::uint32_t>(1, options.largestSize()), 'x');
    if (options.randomData)
        fill(random);
}

void MemtierValueGenerator::fill(FastRandom& random)
{
    for (std::size_t i = 0; i < m_buffer.size(); i += 8) {
        std::uint64_t bits = random();
        for (std::size_t j = i; j < std::min(i + 8, m_buffer.size()); ++j, bits >>= 8)
            m_buffer[j] = static_cast<char>(bits & 0xff);
    }
}

std::uint32_t MemtierValueGenerator::nextSize(std::uint64_t key, FastRandom& random)
{
    switch (m_options.sizeKind) {
    case MemtierValueOptions::SizeKind::Fixed:
        return m_options.fixedSize;
    case MemtierValueOptions::SizeKind::Range: {
        const std::uint32_t low = m_options.rangeMin;
        const std::uint32_t high = m_options.rangeMax;
        if (m_options.sizeFollowsKey) {
            if (m_keyMaximum == m_keyMinimum)
                return low;
            const std::uint64_t clamped = std::clamp(key, m_keyMinimum, m_keyMaximum);
            const double position = static_cast<double>(clamped - m_keyMinimum)
                / static_cast<double>(m_keyMaximum - m_keyMinimum);
            return low + static_cast<std::uint32_t>(static_cast<double>(high - low) * position);
        }
        return low + static_cast<std::uint32_t>(random() % (std::uint64_t(high - low) + 1));
    }
    case MemtierValueOptions::SizeKind::List: {
        const auto& list = m_options.sizeList;
        // Entries of weight 0 are skipped; the parser guarantees one has weight > 0.
        while (m_listUsed >= list[m_listIndex].second) {
            m_listIndex = m_listIndex + 1 == list.size() ? 0 : m_listIndex + 1;
            m_listUsed = 0;
        }
        ++m_listUsed;
        return list[m_listIndex].first;
    }
    }
    return m_options.fixedSize;
}

std::string_view MemtierValueGenerator::next(std::uint64_t key, FastRandom& random)
{
    const std::uint32_t size = nextSize(key, random);
    if (m_options.randomData) {
        ++m_buffer[m_mutation];
        if (++m_mutation == m_buffer.size()) {
            m_mutation = 0;
            fill(random);
        }
    }
    return std::string_view(m_buffer.data(), std::min<std::size_t>(size, m_buffer.size()));
}

std::uint32_t MemtierValueGenerator::nextExpiry(FastRandom& random)
{
    if (m_options.expiryMax == 0)
        return 0;
    const std::uint32_t low = m_options.expiryMin;
    return low + static_cast<std::uint32_t>(random() % (std::uint64_t(m_options.expiryMax - low) + 1));
}

} // namespace tacho::engine
