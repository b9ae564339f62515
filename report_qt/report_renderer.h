#pragma once
// The engine's HTML report (engine/report/html_report.h) as PDF and PNG,
// drawn by Qt: every inline SVG chart becomes an image (Qt's SVG image
// plugin), the document is laid out by QTextDocument and written by
// QPdfWriter — the same sections, tables and charts as the HTML. Needs a
// QGuiApplication (ensureGuiApplication makes one on the offscreen platform
// when there is no display). GUI thread only.
#include <QGuiApplication>
#include <QImage>
#include <QString>
#include <QStringList>

#include <memory>

#include "engine/cli/report_command.h"
#include "engine/report/html_report.h"

namespace tacho::report {

class ReportRenderer {
public:
    static constexpr double kChartScale = 2;   // chart images at twice their CSS size, for print

    // Writes the report as a PDF (A4, portrait).
    static bool writePdf(const engine::HtmlReport& report, const QString& path, QString* error);
    // Writes every chart as <dir>/<chart id>.png, in document order.
    static bool writeChartPngs(const engine::HtmlReport& report, const QString& dir, QStringList* written, QString* error);
    // One chart (by id) drawn from its SVG; a null image with *error when it cannot be.
    static QImage chartImage(const engine::HtmlReport& report, const QString& chartId, QString* error);

    // A QGuiApplication for a process that has none (tacho-cli): on the
    // offscreen platform unless a display is there or QT_QPA_PLATFORM says
    // otherwise. Empty when one exists already.
    static std::unique_ptr<QGuiApplication> ensureGuiApplication(int& argc, char** argv);
    // writePdf and writeChartPngs for `tacho-cli report`.
    static engine::ReportRenderers engineRenderers();
};

} // namespace tacho::report
