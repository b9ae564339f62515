#include "ui/model/sweep_plan.h"

#include <QStringList>

#include <cmath>

#include "engine/text/number_format.h"

namespace tacho::ui {

QString sweepDimensionName(SweepDimension dimension)
{
    switch (dimension) {
    case SweepDimension::Connections: return QStringLiteral("connections");
    case SweepDimension::Pipeline: return QStringLiteral("pipeline");
    case SweepDimension::ValueSize: return QStringLiteral("value size");
    case SweepDimension::Rate: break;
    }
    return QStringLiteral("rate");
}

QString sweepStepName(SweepDimension dimension, double value)
{
    const QString number = QString::fromStdString(engine::plainNumber(value));
    switch (dimension) {
    case SweepDimension::ValueSize: return QStringLiteral("value size %1 B").arg(number);
    case SweepDimension::Rate: return QStringLiteral("rate %1/s").arg(number);
    default: return sweepDimensionName(dimension) + QLatin1Char(' ') + number;
    }
}

std::optional<QList<double>> parseSweepValues(const QString& text, SweepDimension dimension, QString* error)
{
    const auto fail = [&](const QString& why) -> std::optional<QList<double>> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    QList<double> values;
    for (const QString& word : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        double value = 0;
        if (!engine::parseScaledNumber(word.trimmed().toStdString(), &value))
            return fail(QStringLiteral("'%1' is not a number (a k, M or G suffix is allowed)").arg(word.trimmed()));
        const bool whole = dimension != SweepDimension::Rate;
        if (!(value > 0) || (whole && (value < 1 || value != std::floor(value))))
            return fail(QStringLiteral("'%1': %2 must be %3").arg(word.trimmed(), sweepDimensionName(dimension),
                                                                  whole ? QStringLiteral("a whole number of at least 1")
                                                                        : QStringLiteral("above 0")));
        if (values.contains(value))
            return fail(QStringLiteral("'%1' is given twice").arg(word.trimmed()));
        values << value;
    }
    if (values.size() < 2)
        return fail(QStringLiteral("give at least two values, separated by commas (e.g. 1,2,4,8)"));
    return values;
}

WorkloadSettings withSweepValue(WorkloadSettings settings, SweepDimension dimension, double value)
{
    switch (dimension) {
    case SweepDimension::Connections: settings.connections = int(value); break;
    case SweepDimension::Pipeline: settings.pipeline = int(value); break;
    case SweepDimension::ValueSize: settings.valueSize = quint32(value); break;
    case SweepDimension::Rate: settings.rate = value; break;
    }
    return settings;
}

} // namespace tacho::ui
