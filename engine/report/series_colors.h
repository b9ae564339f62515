#pragma once
// One colour per run (in a comparison) or per test/command (in a run), in the
// same order everywhere: the workbench's charts and table, and the HTML/PDF
// report's charts. After Tableau's 10, plus two: distinct on light and dark
// backgrounds.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace tacho::engine {

inline constexpr std::array<std::uint32_t, 12> kSeriesColors {
    0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948,
    0xb07aa1, 0xff9da7, 0x9c755f, 0x8cd17d, 0x499894, 0xd37295,
};

inline std::uint32_t seriesColor(std::size_t index)
{
    return kSeriesColors[index % kSeriesColors.size()];
}

// "#4e79a7"
inline std::string seriesColorHex(std::size_t index)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    const std::uint32_t rgb = seriesColor(index);
    std::string hex = "#";
    for (int shift = 20; shift >= 0; shift -= 4)
        hex += kDigits[(rgb >> shift) & 0xf];
    return hex;
}

} // namespace tacho::engine
