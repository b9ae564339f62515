#pragma once
// The lines of the telemetry charts (issue 19), from each test's telemetry,
// on the run's time axis: a test's points are shifted by `offsets` (where the
// test starts on the run's axis), as the throughput chart shifts its ticks.
#include <QColor>
#include <QList>
#include <QPointF>
#include <QStringList>

#include "ui/model/run_record.h"
#include "ui/widgets/run_chart_widget.h"

namespace tacho::ui {

struct ChartLines {
    QList<QList<QPointF>> lines;
    QStringList names;
    QList<QColor> colors;
};

bool isTelemetryChart(ChartKind kind);

// Points from xMin on; `server` picks the master (CPU, memory) on a cluster.
ChartLines telemetryLines(ChartKind kind, const RunRecord& run, const QList<double>& offsets, double xMin, int server);

// Our own requests per second over [start, end) of a test, from its ticks
// (those ending inside the window), to set beside the server's count.
double ourOpsPerSecond(const TestRecord& test, double start, double end);

} // namespace tacho::ui
