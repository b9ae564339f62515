#include "engine/cluster/key_slot.h"

#include <array>
#include <cstdlib>

namespace tacho::engine {

namespace {

// CRC16 XMODEM, one table entry per leading byte: crc = (crc << 8) ^ T[(crc >> 8) ^ byte].
constexpr std::array<std::uint16_t, 256> makeCrc16Table()
{
    std::array<std::uint16_t, 256> table{};
    for (unsigned byte = 0; byte < 256; ++byte) {
        unsigned crc = byte << 8;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000u) ? ((crc << 1) ^ 0x1021u) : (crc << 1);
        table[byte] = static_cast<std::uint16_t>(crc & 0xFFFFu);
    }
    return table;
}

constexpr std::array<std::uint16_t, 256> kCrc16Table = makeCrc16Table();

static_assert(kCrc16Table[1] == 0x1021 && kCrc16Table[255] == 0x1EF0, "CRC16 XMODEM table");

// One tag per slot, NUL-padded.
struct TagTable {
    static constexpr std::size_t kMaxLength = 4;
    std::array<std::array<char, kMaxLength>, kClusterSlots> tags{};
    std::array<std::uint8_t, kClusterSlots> lengths{};
};

constexpr std::string_view kTagAlphabet =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

TagTable buildTagTable()
{
    TagTable table;
    std::size_t found = 0;
    const std::size_t n = kTagAlphabet.size();
    // Shortest first: every string of length 1, then 2, … over the alphabet.
    for (std::size_t length = 1; length <= TagTable::kMaxLength && found < kClusterSlots; ++length) {
        std::size_t total = 1;
        for (std::size_t i = 0; i < length; ++i)
            total *= n;
        char candidate[TagTable::kMaxLength];
        for (std::size_t index = 0; index < total && found < kClusterSlots; ++index) {
            std::size_t rest = index;
            for (std::size_t i = length; i-- > 0;) {
                candidate[i] = kTagAlphabet[rest % n];
                rest /= n;
            }
            const std::string_view tag(candidate, length);
            const std::uint16_t slot = keySlot(tag);
            if (table.lengths[slot] != 0)
                continue;
            for (std::size_t i = 0; i < length; ++i)
                table.tags[slot][i] = candidate[i];
            table.lengths[slot] = static_cast<std::uint8_t>(length);
            ++found;
        }
    }
    // 62^3 = 238,328 three-character strings cover every slot (CRC16 is linear:
    // checked by the tests); length 4 is only a safety net.
    if (found != kClusterSlots)
        std::abort();
    return table;
}

const TagTable& tagTable()
{
    static const TagTable table = buildTagTable();   // thread-safe one-time build
    return table;
}

} // namespace

std::uint16_t crc16(std::string_view data)
{
    std::uint16_t crc = 0;
    for (const char c : data)
        crc = static_cast<std::uint16_t>((crc << 8) ^ kCrc16Table[((crc >> 8) ^ static_cast<unsigned char>(c)) & 0xFFu]);
    return crc;
}

std::string_view hashTagOf(std::string_view key)
{
    const std::size_t open = key.find('{');
    if (open == std::string_view::npos)
        return key;
    const std::size_t close = key.find('}', open + 1);
    if (close == std::string_view::npos || close == open + 1)
        return key;
    return key.substr(open + 1, close - open - 1);
}

std::uint16_t keySlot(std::string_view key)
{
    return static_cast<std::uint16_t>(crc16(hashTagOf(key)) & (kClusterSlots - 1));
}

std::string_view findHashTagForSlot(std::uint16_t slot)
{
    const TagTable& table = tagTable();
    const std::uint16_t index = slot & (kClusterSlots - 1);
    return std::string_view(table.tags[index].data(), table.lengths[index]);
}

} // namespace tacho::engine
