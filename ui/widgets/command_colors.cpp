#include "ui/widgets/command_colors.h"

#include <QPalette>

#include <array>
#include <cmath>

#include "engine/report/series_colors.h"

namespace tacho::ui {

QColor CommandColors::forIndex(int index)
{
    // The engine's, so the HTML/PDF report draws each run in its workbench colour.
    return QColor(QRgb(engine::seriesColor(static_cast<std::size_t>(index < 0 ? 0 : index))));
}

QColor CommandColors::forPercentile(int which)
{
    static constexpr std::array<QRgb, 4> kColors { 0x59a14f, 0x4e79a7, 0xf28e2b, 0xe15759 };
    return QColor(kColors[static_cast<std::size_t>(which) % kColors.size()]);
}

bool CommandColors::isDark(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < palette.color(QPalette::Text).lightness();
}

QColor CommandColors::errorText(const QPalette& palette)
{
    // #b3261e is 6.5:1 on white, #ff8a80 6.6:1 on the dark bases used here.
    return isDark(palette) ? QColor(0xff, 0x8a, 0x80) : QColor(0xb3, 0x26, 0x1e);
}

QColor CommandColors::goodText(const QPalette& palette)
{
    return isDark(palette) ? QColor(0x81, 0xc9, 0x95) : QColor(0x1b, 0x5e, 0x20);
}

QColor CommandColors::linkText(const QPalette& palette)
{
    const QColor link = palette.color(QPalette::Link);
    if (contrastRatio(link, palette.color(QPalette::Window)) >= 4.5)
        return link;
    return isDark(palette) ? QColor(0x8a, 0xb4, 0xf8) : QColor(0x0b, 0x57, 0xd0);
}

double CommandColors::contrastRatio(const QColor& a, const QColor& b)
{
    // Relative luminance as WCAG 2 defines it (sRGB channels linearised).
    const auto luminance = [](const QColor& c) {
        const auto linear = [](double channel) {
            return channel <= 0.03928 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace tacho::ui
