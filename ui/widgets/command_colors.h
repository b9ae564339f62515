#pragma once
// One colour per test/command, the same on every chart and in the table.
#include <QColor>

class QPalette;

namespace tacho::ui {

class CommandColors {
public:
    static QColor forIndex(int index);
    // The latency percentile lines: p50, p99, p99.9, max.
    static QColor forPercentile(int which);

    // Text for error counts: red, readable (WCAG AA, 4.5:1) on the
    // palette's Base and AlternateBase, light or dark.
    static QColor errorText(const QPalette& palette);
    // Text for a good outcome ("agrees ✓"): green, AA on Window and Base.
    static QColor goodText(const QPalette& palette);
    // The palette's link colour when it reads (AA) on Window, else a blue that does.
    static QColor linkText(const QPalette& palette);
    // The WCAG contrast ratio of two opaque colours (1 … 21).
    static double contrastRatio(const QColor& a, const QColor& b);
    // A dark palette (Base darker than Text).
    static bool isDark(const QPalette& palette);
};

} // namespace tacho::ui
