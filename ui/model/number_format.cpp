#include "ui/model/number_format.h"

#include <cmath>

namespace tacho::ui {

QLocale NumberFormat::locale()
{
    QLocale system;
    if (system.language() == QLocale::C)
        return QLocale(QLocale::English, QLocale::UnitedStates);
    system.setNumberOptions(system.numberOptions() & ~QLocale::OmitGroupSeparator);
    return system;
}

QString NumberFormat::count(quint64 value)
{
    return locale().toString(static_cast<qulonglong>(value));
}

QString NumberFormat::rate(double perSecond)
{
    if (!std::isfinite(perSecond))
        return QStringLiteral("–");
    if (perSecond >= 100)
        return locale().toString(std::round(perSecond), 'f', 0);
    return locale().toString(perSecond, 'f', 2);
}

QString NumberFormat::compactRate(double perSecond)
{
    const QLocale l = locale();
    if (perSecond >= 1e6)
        return l.toString(perSecond / 1e6, 'f', 2) + QLatin1Char('M');
    if (perSecond >= 1e4)
        return l.toString(perSecond / 1e3, 'f', 0) + QLatin1Char('k');
    if (perSecond >= 1e3)
        return l.toString(perSecond / 1e3, 'f', 1) + QLatin1Char('k');
    return l.toString(perSecond, 'f', 0);
}

QString NumberFormat::milliseconds(double ms)
{
    if (!std::isfinite(ms))
        return QStringLiteral("–");
    // Three decimals resolve a microsecond, which is what the histogram
    // resolves below a millisecond; above 100 ms fewer digits read better.
    const int decimals = ms >= 1000 ? 0 : ms >= 100 ? 1 : 3;
    return locale().toString(ms, 'f', decimals);
}

QString NumberFormat::millisecondsWithUnit(double ms)
{
    if (ms >= 10000)
        return locale().toString(ms / 1000, 'f', 1) + QStringLiteral(" s");
    return milliseconds(ms) + QStringLiteral(" ms");
}

QString NumberFormat::kilobytesPerSecond(double bytesPerSecond)
{
    return locale().toString(bytesPerSecond / 1024.0, 'f', 1);
}

QString NumberFormat::duration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return QStringLiteral("--:--");
    const qint64 total = static_cast<qint64>(std::llround(seconds));
    const qint64 h = total / 3600, m = (total / 60) % 60, s = total % 60;
    if (h > 0)
        return QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
}

} // namespace tacho::ui
