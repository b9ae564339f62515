#include "ui/compare/comparison_chart_widget.h"

#include <QCategoryAxis>
#include <QChart>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QRegularExpression>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "ui/widgets/chart_image.h"
#include "ui/widgets/chart_theme.h"
#include "ui/widgets/command_colors.h"

namespace tacho::ui {

namespace {

const std::vector<engine::ChartLine>& linesOf(ComparisonChartWidget::Kind kind, const engine::ComparisonCharts& charts)
{
    switch (kind) {
    case ComparisonChartWidget::Kind::Throughput: return charts.throughput;
    case ComparisonChartWidget::Kind::Latency: return charts.latency;
    case ComparisonChartWidget::Kind::Spectrum: break;
    }
    return charts.spectrum;
}

QString titleOf(ComparisonChartWidget::Kind kind)
{
    switch (kind) {
    case ComparisonChartWidget::Kind::Throughput: return QObject::tr("Throughput over time");
    case ComparisonChartWidget::Kind::Latency: return QObject::tr("p99 solid, p50 dashed");   // the axis says ms; three abreast at 1280 px (issue 31)
    case ComparisonChartWidget::Kind::Spectrum: break;
    }
    return QObject::tr("Latency by percentile");
}

// Every `step`-th point, and always the last: the engine's lines are a few
// thousand points at most; this only bounds the drawing.
QList<QPointF> bounded(const engine::ChartPoints& points, int limit)
{
    QList<QPointF> out;
    const std::size_t step = points.size() > std::size_t(limit) ? (points.size() + std::size_t(limit) - 1) / std::size_t(limit) : 1;
    for (std::size_t i = 0; i < points.size(); i += step)
        out << QPointF(points[i].first, points[i].second);
    if (!points.empty() && (points.size() - 1) % step != 0)
        out << QPointF(points.back().first, points.back().second);
    return out;
}

// The legend names a run by its label alone: its colour already tells the
// runs apart, and "[2] " in front of every entry only made them harder to read.
QString legendName(const engine::ChartLine& line)
{
    static const QRegularExpression runNumber(QStringLiteral("^\\[\\d+\\] "));
    return QString::fromStdString(line.name).remove(runNumber);
}

// One line style per test (spectrum lines are per test), per percentile on
// the latency chart (p99 solid, p50 dashed); the colour stays the run's.
Qt::PenStyle styleOf(const engine::ChartLine& line, const std::vector<std::size_t>& rows)
{
    if (!line.percentile.empty())
        return line.percentile == "p50" ? Qt::DashLine : Qt::SolidLine;
    static constexpr Qt::PenStyle kStyles[] = { Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine };
    const auto at = std::find(rows.begin(), rows.end(), line.row);
    return kStyles[std::size_t(at - rows.begin()) % std::size(kStyles)];
}

// Fills `chart` (empty) with the lines and axes of `kind`, in the dark
// theme on a dark palette (as the run charts), the light one for files.
void fillChart(QChart* chart, ComparisonChartWidget::Kind kind, const engine::ComparisonCharts& charts, bool dark)
{
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);   // first: a theme repaints the series
    chart->setTitle(titleOf(kind));
    QFont titleFont = chart->titleFont();
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 2, 18, 2));
    chart->legend()->setAlignment(Qt::AlignBottom);

    const bool spectrum = kind == ComparisonChartWidget::Kind::Spectrum;
    QAbstractAxis* x = nullptr;
    double xMax = 0, yMax = 0;
    const auto& lines = linesOf(kind, charts);
    for (const engine::ChartLine& line : lines)
        for (const auto& [px, py] : line.points) {
            xMax = std::max(xMax, px);
            if (std::isfinite(py))
                yMax = std::max(yMax, py);
        }
    if (spectrum) {
        auto* axis = new QCategoryAxis;
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        const int decades = std::clamp(int(std::ceil(xMax - 1e-6)), 2, int(engine::kSpectrumMaxX));
        const char* labels[] = { "0", "90", "99", "99.9", "99.99", "99.999" };
        for (int d = 0; d <= decades; ++d)
            axis->append(QString::fromLatin1(labels[d]), d);
        axis->setRange(0, decades);
        axis->setTitleText(QObject::tr("percentile (%)"));
        x = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setRange(0, xMax > 0 ? xMax : 1);
        axis->applyNiceNumbers();
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setTitleText(QString::fromStdString(charts.timeAxis));
        x = axis;
    }
    auto* y = new QValueAxis;
    y->setRange(0, yMax > 0 ? yMax * 1.05 : 1);
    y->applyNiceNumbers();
    y->setLabelFormat(kind == ComparisonChartWidget::Kind::Throughput && yMax >= 10 ? QStringLiteral("%.0f") : QStringLiteral("%.4g"));
    y->setTitleText(kind == ComparisonChartWidget::Kind::Throughput ? QString::fromStdString(charts.throughputUnit)
                                                                    : QObject::tr("ms"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    std::vector<std::size_t> rows;   // the tests, in order of appearance
    for (const engine::ChartLine& line : lines)
        if (std::find(rows.begin(), rows.end(), line.row) == rows.end())
            rows.push_back(line.row);
    for (const engine::ChartLine& line : lines) {
        auto* series = new QLineSeries;
        series->setName(legendName(line));
        QPen pen(CommandColors::forIndex(int(line.run)));
        pen.setWidthF(1.6);
        pen.setStyle(kind == ComparisonChartWidget::Kind::Throughput ? Qt::SolidLine : styleOf(line, rows));
        series->setPen(pen);
        series->replace(bounded(line.points, ComparisonChartWidget::kMaxPointsPerSeries));
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        // One legend entry per run: the title says which line is p99 and which p50.
        if (line.percentile == "p50")
            chart->legend()->markers(series).value(0)->setVisible(false);
        else if (line.percentile == "p99" && series->name().endsWith(QLatin1String(" p99")))
            series->setName(series->name().chopped(4));
    }
}

} // namespace

ComparisonChartWidget::ComparisonChartWidget(Kind kind, QWidget* parent) : QChartView(parent), m_kind(kind)
{
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(220, 170);   // three side by side fit a laptop's screen
    setChart(new QChart);
    fillChart(chart(), kind, {}, dark());
    setAccessibleName(titleOf(kind));
}

QString ComparisonChartWidget::fileStem(Kind kind)
{
    switch (kind) {
    case Kind::Throughput: return QStringLiteral("compare-throughput");
    case Kind::Latency: return QStringLiteral("compare-latency");
    case Kind::Spectrum: break;
    }
    return QStringLiteral("compare-spectrum");
}

void ComparisonChartWidget::setCharts(const engine::ComparisonCharts& charts)
{
    // A fresh chart each time: a comparison changes only when a person
    // changes it, never at a rate.
    auto* fresh = new QChart;
    fillChart(fresh, m_kind, charts, dark());
    QChart* old = chart();
    setChart(fresh);
    delete old;
    fitLegend();
}

bool ComparisonChartWidget::dark() const { return hasDarkPalette(*this); }

bool ComparisonChartWidget::legendShown() const
{
    return chart()->legend()->isVisible();
}

void ComparisonChartWidget::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    fitLegend();
}

void ComparisonChartWidget::fitLegend()
{
    QLegend* legend = chart()->legend();
    // A hidden legend's markers all read as hidden: shown first, so that only the
    // ones hidden on purpose (a run's p50 line) are left out, and a legend hidden
    // in a narrow chart comes back when the chart is widened.
    legend->setVisible(true);
    const QFontMetrics metrics(legend->font());
    int needed = 0;
    for (QLegendMarker* marker : legend->markers())
        if (marker->isVisible())
            needed += metrics.horizontalAdvance(marker->label()) + 3 * metrics.height();   // the swatch and the gaps
    legend->setVisible(needed > 0 && needed <= viewport()->width() - 2 * metrics.height());
}

int ComparisonChartWidget::seriesCount() const { return int(chart()->series().size()); }

int ComparisonChartWidget::pointCount() const
{
    int points = 0;
    for (QAbstractSeries* s : chart()->series())
        points += int(static_cast<QLineSeries*>(s)->count());
    return points;
}

QImage ComparisonChartWidget::renderImage(Kind kind, const engine::ComparisonCharts& charts, QSize logicalSize,
                                          qreal devicePixelRatio)
{
    auto* chart = new QChart;
    QGraphicsScene scene;
    scene.addItem(chart);   // the scene owns the chart
    chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(logicalSize)));
    fillChart(chart, kind, charts, false);
    return ChartImage::draw(scene, chart, logicalSize, devicePixelRatio, Qt::white);
}

} // namespace tacho::ui
