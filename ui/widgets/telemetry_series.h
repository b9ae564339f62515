#pragma once
// The lines of the telemetry charts (issue 19), from each test's telemetry,
// on the run's time axis: a test's points are shifted by `offsets` (where the
// test starts on the run's axis), as the throughput chart shifts its ticks.
#include <QColor>
#include <QList>
#include <QPointF>
#include <QStringList>

#include <vector>

#include "ui/model/run_record.h"
#include "ui/widgets/run_chart_widget.h"

namespace tacho::ui {

struct ChartLines {
    QList<QList<QPointF>> lines;
    QStringList names;
    QList<QColor> colors;
};

bool isTelemetryChart(ChartKind kind);

// Points from xMin on; `server` picks the master (CPU) on a cluster. CPU:
// server process, its main thread, the busiest engine thread (% of a core),
// the host busy and its steal (% of all CPUs); ops/s in thousands.
ChartLines telemetryLines(ChartKind kind, const RunRecord& run, const QList<double>& offsets, double xMin, int server);

// Our own requests per second over [start, end) of a test, from its ticks
// (those ending inside the window), to set beside the server's count.
double ourOpsPerSecond(const TestRecord& test, double start, double end);

// The samples worth drawing: those at least half an interval long (a test's
// last, partial one covers its wind-down and reads as a false drop), or all
// when none is (as the verdict judges them).
template <class Point>
std::vector<const Point*> fullSamples(const std::vector<Point>& points, double interval)
{
    std::vector<const Point*> full;
    for (const Point& p : points)
        if (p.endSeconds - p.startSeconds >= 0.5 * interval)
            full.push_back(&p);
    if (full.empty())
        for (const Point& p : points)
            full.push_back(&p);
    return full;
}

} // namespace tacho::ui
