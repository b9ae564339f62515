#pragma once
// One colour per test/command, the same on every chart and in the table.
#include <QColor>

namespace tacho::ui {

class CommandColors {
public:
    static QColor forIndex(int index);
    // The latency percentile lines: p50, p99, p99.9, max.
    static QColor forPercentile(int which);
};

} // namespace tacho::ui
