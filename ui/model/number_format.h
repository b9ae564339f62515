#pragma once
// How numbers read on screen: thousands separators, units, right-aligned
// columns. The CSV export uses plain machine numbers instead.
#include <QLocale>
#include <QString>

namespace tacho::ui {

class NumberFormat {
public:
    // The system locale, or English when the system says "C" (which would
    // drop the thousands separators people expect).
    static QLocale locale();

    static QString count(quint64 value);                  // "1,234,567"
    static QString rate(double perSecond);                // "412,380" (no decimals above 100)
    static QString compactRate(double perSecond);         // "412k", "1.2M"
    static QString milliseconds(double ms);               // "0.912" (3 significant-ish decimals)
    static QString millisecondsWithUnit(double ms);       // "0.912 ms", "12.4 s"
    static QString kilobytesPerSecond(double bytesPerSecond);   // "1,234.5"
    static QString duration(double seconds);              // "00:07", "1:02:03"
};

} // namespace tacho::ui
