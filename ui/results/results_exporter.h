#pragma once
// Writing results out: the table as CSV, each chart as PNG at a chosen size
// and pixel ratio, the run file as the engine wrote it.
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

#include "ui/widgets/run_chart_widget.h"

namespace tacho::ui {

class ResultsTableModel;
class RunChartsWidget;
struct RunRecord;

class ResultsExporter {
public:
    static constexpr QSize kDefaultChartSize { 1200, 700 };

    // The run's table as CSV, each row led by the run's identity (RunCsv).
    static bool writeCsv(const RunRecord& run, const QString& path, QString* error);
    static bool writeRunsCsv(const QList<RunRecord>& runs, const QString& path, QString* error);
    // `caption` (the run's workload, target and date) goes in a line above
    // the chart, within `logicalSize`; none when empty.
    static bool writeChartPng(const RunChartsWidget& charts, ChartKind kind, QSize logicalSize, qreal devicePixelRatio,
                              const QString& path, QString* error, const QString& caption = QString());
    // "SET,GET c50 P16 64B 100k · 127.0.0.1:6379 · 2025-01-31 12:00 UTC"
    static QString captionOf(const RunRecord& run);
    // Copies the saved run file (the exact document the engine wrote).
    static bool copyRunFile(const QString& runFilePath, const QString& path, QString* error);

    // All of it into `folder`: results.csv, <chart>.png ×4, run.json. The
    // files written go to *written.
    static bool exportAll(const RunRecord& run, const RunChartsWidget& charts, const QString& runFilePath,
                          const QString& folder, QSize chartSize, qreal devicePixelRatio, QStringList* written,
                          QString* error);
};

} // namespace tacho::ui
