#include "ui/widgets/command_colors.h"

#include <array>

namespace tacho::ui {

QColor CommandColors::forIndex(int index)
{
    // Distinct on light and dark backgrounds (after Tableau's 10, plus two).
    static constexpr std::array<QRgb, 12> kColors {
        0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948,
        0xb07aa1, 0xff9da7, 0x9c755f, 0x8cd17d, 0x499894, 0xd37295,
    };
    const std::size_t i = static_cast<std::size_t>(index < 0 ? 0 : index) % kColors.size();
    return QColor(kColors[i]);
}

QColor CommandColors::forPercentile(int which)
{
    static constexpr std::array<QRgb, 4> kColors { 0x59a14f, 0x4e79a7, 0xf28e2b, 0xe15759 };
    return QColor(kColors[static_cast<std::size_t>(which) % kColors.size()]);
}

} // namespace tacho::ui
