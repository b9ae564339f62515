#include "report_qt/report_renderer.h"

#include "report_qt/file_writer.h"

#include <QBuffer>
#include <QDir>
#include <QImageReader>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextDocument>
#include <QUrl>

#include <algorithm>
#include <functional>
#include <vector>

namespace tacho::report {

namespace {

constexpr int kLayoutDpi = 96;        // CSS pixels
constexpr int kMaxImageWidth = 680;   // CSS pixels: A4 less its margins is 703

struct Chart {
    QString id;
    qsizetype svgStart = 0, svgEnd = 0;   // [start, end) of "<svg …>…</svg>" in the HTML
    QSize size;                           // the SVG's width and height
};

int attribute(const QString& tag, const QString& name, int fallback)
{
    const QRegularExpression re(QStringLiteral("\\s%1=\"(\\d+)\"").arg(name));
    const QRegularExpressionMatch m = re.match(tag);
    return m.hasMatch() ? m.captured(1).toInt() : fallback;
}

// The charts of the engine's report: <figure class="chart" id="…"> holding an inline <svg>.
std::vector<Chart> findCharts(const QString& html)
{
    std::vector<Chart> charts;
    const QString figure = QStringLiteral("<figure class=\"chart\" id=\"");
    for (qsizetype at = html.indexOf(figure); at >= 0; at = html.indexOf(figure, at + 1)) {
        Chart c;
        const qsizetype idStart = at + figure.size();
        c.id = html.mid(idStart, html.indexOf(QLatin1Char('"'), idStart) - idStart);
        c.svgStart = html.indexOf(QStringLiteral("<svg"), idStart);
        const qsizetype close = html.indexOf(QStringLiteral("</svg>"), c.svgStart);
        if (c.svgStart < 0 || close < 0)
            break;
        c.svgEnd = close + 6;
        const QString tag = html.mid(c.svgStart, html.indexOf(QLatin1Char('>'), c.svgStart) - c.svgStart);
        c.size = QSize(attribute(tag, QStringLiteral("width"), 760), attribute(tag, QStringLiteral("height"), 300));
        charts.push_back(c);
    }
    return charts;
}

QImage drawSvg(const QString& svg, QSize size, const QString& id, QString* error)
{
    QByteArray bytes = svg.toUtf8();
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, "svg");
    reader.setScaledSize(size * ReportRenderer::kChartScale);
    QImage image = reader.read();
    image.setDevicePixelRatio(ReportRenderer::kChartScale);   // its layout size stays the SVG's
    if (image.isNull() && error)
        *error = QStringLiteral("chart %1 cannot be drawn: %2 (Qt's SVG image plugin, package libqt6svg6, is needed)")
                     .arg(id, reader.errorString());
    return image;
}

// Drawn in memory, written by the one output-file writer (file_writer.h).
bool saveAtomically(const QString& path, const std::function<bool(QIODevice&)>& write, QString* error)
{
    QByteArray content;
    QBuffer buffer(&content);
    if (!buffer.open(QIODevice::WriteOnly) || !write(buffer)) {
        if (error)
            *error = QStringLiteral("cannot write %1: it could not be drawn").arg(path);
        return false;
    }
    buffer.close();
    return writeOutputFile(path, content, error);
}

} // namespace

QImage ReportRenderer::chartImage(const engine::HtmlReport& report, const QString& chartId, QString* error)
{
    const QString html = QString::fromStdString(report.html);
    for (const Chart& c : findCharts(html))
        if (c.id == chartId)
            return drawSvg(html.mid(c.svgStart, c.svgEnd - c.svgStart), c.size, c.id, error);
    if (error)
        *error = QStringLiteral("no chart %1 in the report").arg(chartId);
    return {};
}

bool ReportRenderer::writeChartPngs(const engine::HtmlReport& report, const QString& dir, QStringList* written, QString* error)
{
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = QStringLiteral("%1: cannot create the folder").arg(dir);
        return false;
    }
    const QString html = QString::fromStdString(report.html);
    for (const Chart& c : findCharts(html)) {
        const QImage image = drawSvg(html.mid(c.svgStart, c.svgEnd - c.svgStart), c.size, c.id, error);
        if (image.isNull())
            return false;
        const QString path = QDir(dir).filePath(c.id + QStringLiteral(".png"));
        if (!saveAtomically(path, [&](QIODevice& device) { return image.save(&device, "PNG"); }, error))
            return false;
        if (written)
            *written << path;
    }
    return true;
}

bool ReportRenderer::writePdf(const engine::HtmlReport& report, const QString& path, QString* error)
{
    QString html = QString::fromStdString(report.html);
    QTextDocument document;
    // From the last chart back, so that earlier offsets stay valid.
    const std::vector<Chart> charts = findCharts(html);
    for (auto it = charts.rbegin(); it != charts.rend(); ++it) {
        // Drawn at the size it takes on the page (its natural layout size,
        // thanks to the pixel ratio), so that the layout needs no scaling.
        const int width = std::min(kMaxImageWidth, it->size.width());
        const QSize size(width, it->size.height() * width / std::max(1, it->size.width()));
        const QImage image = drawSvg(html.mid(it->svgStart, it->svgEnd - it->svgStart), size, it->id, error);
        if (image.isNull())
            return false;
        const QUrl url(QStringLiteral("tacho-chart:") + it->id);
        document.addResource(QTextDocument::ImageResource, url, image);
        html.replace(it->svgStart, it->svgEnd - it->svgStart, QStringLiteral("<img src=\"%1\"/>").arg(url.toString()));
    }
    // The legend's colour swatches are empty styled boxes in HTML; here a coloured square.
    html.replace(QRegularExpression(QStringLiteral("<span class=\"sw\" style=\"background:(#[0-9a-fA-F]{6})\"></span>")),
                 QStringLiteral("<span style=\"color:\\1\">&#9632;</span> "));
    // A figure becomes one paragraph (image, line break, legend): QTextDocument
    // does not know <figure> and would leave its whitespace as blank lines.
    html.replace(QRegularExpression(QStringLiteral("<figure class=\"chart\" id=\"([^\"]+)\">\\s*")), QStringLiteral("<p><a name=\"\\1\"></a>"));
    html.replace(QRegularExpression(QStringLiteral("\\s*<figcaption>")), QStringLiteral("<br/>"));
    html.replace(QRegularExpression(QStringLiteral("</figcaption>\\s*</figure>")), QStringLiteral("</p>"));
    document.setHtml(html);

    return saveAtomically(
        path,
        [&](QIODevice& device) {
            QPdfWriter writer(&device);
            // Landscape: a results table has a dozen columns of figures, which
            // must neither be cut nor broken inside a number or a word.
            writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(12, 12, 12, 12),
                                             QPageLayout::Millimeter));
            writer.setTitle(document.metaInformation(QTextDocument::DocumentTitle));
            writer.setCreator(QStringLiteral("tacho ") + QStringLiteral(TACHO_VERSION));
            // Laid out at 96 dpi on pages of the printable size, then scaled
            // as a whole: text and images keep their proportions (letting
            // print() re-lay it out at the writer's resolution leaves gaps
            // around images).
            document.setPageSize(writer.pageLayout().paintRectPixels(kLayoutDpi).size());
            document.print(&writer);
            return true;
        },
        error);
}

std::unique_ptr<QGuiApplication> ReportRenderer::ensureGuiApplication(int& argc, char** argv)
{
    if (QGuiApplication::instance())
        return {};
    // A report needs fonts and a paint engine, never a window: the offscreen
    // platform draws the same without a display (and without failing on an
    // unreachable one). QT_QPA_PLATFORM still wins when set.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    return std::make_unique<QGuiApplication>(argc, argv);
}

engine::ReportRenderers ReportRenderer::engineRenderers()
{
    engine::ReportRenderers renderers;
    renderers.pdf = [](const engine::HtmlReport& report, const std::string& path, std::string* error) {
        QString why;
        const bool ok = writePdf(report, QString::fromStdString(path), &why);
        if (!ok && error)
            *error = why.toStdString();
        return ok;
    };
    renderers.png = [](const engine::HtmlReport& report, const std::string& dir, std::vector<std::string>* written,
                       std::string* error) {
        QString why;
        QStringList files;
        const bool ok = writeChartPngs(report, QString::fromStdString(dir), &files, &why);
        for (const QString& f : files)
            if (written)
                written->push_back(f.toStdString());
        if (!ok && error)
            *error = why.toStdString();
        return ok;
    };
    return renderers;
}

} // namespace tacho::report
