#include "ui/results/results_exporter.h"

#include <QDir>
#include <QFile>
#include <QDateTime>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>

#include <algorithm>

#include "ui/model/run_csv.h"
#include "ui/model/run_record.h"

#include "report_qt/file_writer.h"
#include "ui/widgets/results_table_model.h"
#include "ui/widgets/run_charts_widget.h"

namespace tacho::ui {

bool ResultsExporter::writeCsv(const RunRecord& run, const QString& path, QString* error)
{
    return writeRunsCsv({ run }, path, error);
}

bool ResultsExporter::writeRunsCsv(const QList<RunRecord>& runs, const QString& path, QString* error)
{
    return report::writeOutputFile(path, RunCsv::text(runs).toUtf8(), error);
}

bool ResultsExporter::writeChartPng(const RunChartsWidget& charts, ChartKind kind, QSize logicalSize,
                                    qreal devicePixelRatio, const QString& path, QString* error, const QString& caption)
{
    if (logicalSize.width() < 100 || logicalSize.height() < 80 || logicalSize.width() > 8000 || logicalSize.height() > 8000) {
        if (error)
            *error = QStringLiteral("chart size %1×%2 is outside 100×80 … 8000×8000").arg(logicalSize.width()).arg(logicalSize.height());
        return false;
    }
    if (caption.isEmpty())
        return report::writePngFile(path, charts.exportImage(kind, logicalSize, devicePixelRatio), error);
    // The caption's band, then the chart drawn in the rest of the size asked for.
    QFont font;
    font.setPixelSize(std::max(12, logicalSize.height() / 40));
    const int band = QFontMetrics(font).height() + 8;
    const QImage chart = charts.exportImage(kind, QSize(logicalSize.width(), logicalSize.height() - band), devicePixelRatio);
    QImage image(logicalSize * devicePixelRatio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setFont(font);
    painter.setPen(QColor(0x20, 0x20, 0x20));
    const QRect captionRect(8, 0, logicalSize.width() - 16, band);
    painter.drawText(captionRect, Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetrics(font).elidedText(caption, Qt::ElideMiddle, captionRect.width()));
    painter.drawImage(QPoint(0, band), chart);
    painter.end();
    return report::writePngFile(path, image, error);
}

QString ResultsExporter::captionOf(const RunRecord& run)
{
    QStringList parts { run.displayTitle() };
    if (!run.target.isEmpty())
        parts << (run.meta.profile.isEmpty() || run.meta.profile == run.target ? run.target
                                                                               : QStringLiteral("%1 (%2)").arg(run.meta.profile, run.target));
    const QDateTime started = QDateTime::fromString(run.startedAtUtc, Qt::ISODate);
    if (started.isValid())
        parts << started.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    return parts.join(QStringLiteral(" · "));
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

bool ResultsExporter::exportAll(const RunRecord& run, const RunChartsWidget& charts, const QString& runFilePath,
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
    note(writeCsv(run, path, &why), path, why);
    for (ChartKind kind : { ChartKind::Throughput, ChartKind::Latency, ChartKind::Spectrum, ChartKind::Errors }) {
        path = dir.filePath(RunChartWidget::fileStem(kind) + QStringLiteral(".png"));
        note(writeChartPng(charts, kind, chartSize, devicePixelRatio, path, &why, captionOf(run)), path, why);
    }
    path = dir.filePath(QStringLiteral("run.json"));
    note(copyRunFile(runFilePath, path, &why), path, why);
    if (!ok && error)
        *error = problems.join(QStringLiteral("; "));
    return ok;
}

} // namespace tacho::ui
