#pragma once
// Writing results out: the table as CSV, each chart as PNG at a chosen size
// and pixel ratio, the run file as the engine wrote it.
#include <QSize>
#include <QString>
#include <QStringList>

#include "ui/widgets/run_chart_widget.h"

namespace tacho::ui {

class ResultsTableModel;
class RunChartsWidget;

class ResultsExporter {
public:
    static constexpr QSize kDefaultChartSize { 1200, 700 };

    static bool writeCsv(const ResultsTableModel& model, const QString& path, QString* error);
    static bool writeChartPng(const RunChartsWidget& charts, ChartKind kind, QSize logicalSize, qreal devicePixelRatio,
                              const QString& path, QString* error);
    // Copies the saved run file (the exact document the engine wrote).
    static bool copyRunFile(const QString& runFilePath, const QString& path, QString* error);

    // All of it into `folder`: results.csv, <chart>.png ×4, run.json. The
    // files written go to *written.
    static bool exportAll(const ResultsTableModel& model, const RunChartsWidget& charts, const QString& runFilePath,
                          const QString& folder, QSize chartSize, qreal devicePixelRatio, QStringList* written,
                          QString* error);
};

} // namespace tacho::ui
