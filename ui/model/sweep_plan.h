#pragma once
// A sweep as the workbench runs it (Run ▸ Sweep…, like tacho-cli sweep): one
// setting of the Run page's workload and the values it takes, a run each.
#include <QList>
#include <QString>

#include <optional>

#include "ui/model/workload_settings.h"

namespace tacho::ui {

enum class SweepDimension { Connections, Pipeline, ValueSize, Rate };

// "connections", "pipeline", "value size", "rate"
QString sweepDimensionName(SweepDimension dimension);
// "connections 8", "pipeline 16", "value size 1024 B", "rate 50000/s"
QString sweepStepName(SweepDimension dimension, double value);

// "1,2,4,8" or "1k, 2k": the values in the order given (k, M, G suffixes), or
// nullopt with what is wrong. Whole numbers of at least 1 except for rate
// (any positive number); at least two values, each once.
std::optional<QList<double>> parseSweepValues(const QString& text, SweepDimension dimension, QString* error);

// `settings` with `value` in the swept setting.
WorkloadSettings withSweepValue(WorkloadSettings settings, SweepDimension dimension, double value);

} // namespace tacho::ui
