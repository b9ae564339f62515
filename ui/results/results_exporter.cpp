#include "ui/results/results_exporter.h"

#include <QDir>
#include <QFile>
#include <QImage>

#include "report_qt/file_writer.h"
#include "ui/widgets/results_table_model.h"
#include "ui/widgets/run_charts_widget.h"

namespace tacho::ui {

bool ResultsExporter::writeCsv(const ResultsTableModel& model, const QString& path, QString* error)
{
    return report::writeOutputFile(path, model.toCsv().toUtf8(), error);
}

bool ResultsExporter::writeChartPng(const RunChartsWidget& charts, ChartKind kind, QSize logicalSize,
                                    qreal devicePixelRatio, const QString& path, QString* error)
{
    if (logicalSize.width() < 100 || logicalSize.height() < 80 || logicalSize.width() > 8000 || logicalSize.height() > 8000) {
        if (error)
            *error = QStringLiteral("chart size %1×%2 is outside 100×80 … 8000×8000").arg(logicalSize.width()).arg(logicalSize.height());
        return false;
    }
    return report::writePngFile(path, charts.exportImage(kind, logicalSize, devicePixelRatio), error);
}

bool ResultsExporter::copyRunFile(const QString& runFilePath, const QString& path, QString* error)
{
    if (runFilePath.isEmpty()) {
        if (error)
            *error = QStringLiteral("this run has no run file (it could not be saved)");
        return false;
    }
    QFile source(runFilePath);
    if (!source.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot copy %1 to %2: %3").arg(runFilePath, path, source.errorString());
        return false;
    }
    return report::writeOutputFile(path, source.readAll(), error);
}

bool ResultsExporter::exportAll(const ResultsTableModel& model, const RunChartsWidget& charts, const QString& runFilePath,
                                const QString& folder, QSize chartSize, qreal devicePixelRatio, QStringList* written,
                                QString* error)
{
    if (!QDir().mkpath(folder)) {
        if (error)
            *error = QStringLiteral("cannot create %1").arg(folder);
        return false;
    }
    const QDir dir(folder);
    bool ok = true;
    QStringList problems;
    const auto note = [&](bool success, const QString& path, const QString& why) {
        if (success) {
            if (written)
                *written << path;
        } else {
            ok = false;
            problems << why;
        }
    };
    QString why;
    QString path = dir.filePath(QStringLiteral("results.csv"));
    note(writeCsv(model, path, &why), path, why);
    for (ChartKind kind : { ChartKind::Throughput, ChartKind::Latency, ChartKind::Spectrum, ChartKind::Errors }) {
        path = dir.filePath(RunChartWidget::fileStem(kind) + QStringLiteral(".png"));
        note(writeChartPng(charts, kind, chartSize, devicePixelRatio, path, &why), path, why);
    }
    path = dir.filePath(QStringLiteral("run.json"));
    note(copyRunFile(runFilePath, path, &why), path, why);
    if (!ok && error)
        *error = problems.join(QStringLiteral("; "));
    return ok;
}

} // namespace tacho::ui
