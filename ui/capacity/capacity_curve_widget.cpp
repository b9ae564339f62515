#include "ui/capacity/capacity_curve_widget.h"

#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "ui/widgets/chart_theme.h"
#include "ui/widgets/command_colors.h"

namespace tacho::ui {

namespace {
constexpr double kMinLogMs = 0.001;   // a log axis cannot show 0
}

CapacityCurveWidget::CapacityCurveWidget(QWidget* parent) : ZoomableChartView(parent)
{
    auto* chart = new QChart;
    chart->setTheme(hasDarkPalette(*this) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setTitle(tr("Throughput vs latency, per step"));
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 2, 18, 2));
    m_x = new QValueAxis;
    m_x->setTitleText(tr("achieved ops/s"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_y = new QLogValueAxis;
    m_y->setBase(10);
    m_y->setLabelFormat(QStringLiteral("%g"));
    m_y->setMinorTickCount(-1);
    m_y->setTitleText(tr("latency, ms"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);

    const auto line = [&](const QString& name, const QColor& color, qreal width, Qt::PenStyle style) {
        auto* s = new QLineSeries;
        s->setName(name);
        QPen pen(color);
        pen.setWidthF(width);
        pen.setStyle(style);
        s->setPen(pen);
        s->setPointsVisible(style == Qt::SolidLine);
        chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        return s;
    };
    m_p50 = line(QStringLiteral("p50"), CommandColors::forPercentile(0), 1.8, Qt::SolidLine);
    m_p99 = line(QStringLiteral("p99"), CommandColors::forPercentile(1), 1.8, Qt::SolidLine);
    m_p999 = line(QStringLiteral("p99.9"), CommandColors::forPercentile(2), 1.8, Qt::SolidLine);
    m_limit = line(tr("objective"), QColor(120, 120, 120), 1.2, Qt::DashLine);
    const auto marker = [&](const QString& name, const QColor& color, QScatterSeries::MarkerShape shape, qreal size) {
        auto* s = new QScatterSeries;
        s->setName(name);
        s->setMarkerShape(shape);
        s->setMarkerSize(size);
        s->setColor(color);
        s->setBorderColor(color.darker(140));
        chart->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        return s;
    };
    m_best = marker(tr("max meeting the objective"), QColor(46, 160, 67), QScatterSeries::MarkerShapeStar, 22);
    m_missed = marker(tr("missed the objective"), QColor(200, 60, 50), QScatterSeries::MarkerShapeRectangle, 9);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(320, 220);
    setAccessibleName(tr("Throughput versus latency curve"));
    setSteps({}, 0, 0, QString());
}

void CapacityCurveWidget::setSteps(const QVector<CapacityStepRow>& steps, int bestStep, double limitMs, const QString& objective)
{
    QVector<CapacityStepRow> curve;
    for (const CapacityStepRow& s : steps)
        if (s.verdict != QLatin1String("failed") && s.requests > 0)
            curve << s;
    std::sort(curve.begin(), curve.end(), [](const CapacityStepRow& a, const CapacityStepRow& b) { return a.setting < b.setting; });

    QList<QPointF> p50, p99, p999, best, missed;
    double xMin = 0, xMax = 0, yMin = 1e9, yMax = 0;
    for (const CapacityStepRow& s : curve) {
        const double x = s.throughput;
        p50 << QPointF(x, std::max(s.p50Ms, kMinLogMs));
        p99 << QPointF(x, std::max(s.p99Ms, kMinLogMs));
        p999 << QPointF(x, std::max(s.p999Ms, kMinLogMs));
        const QPointF at(x, std::max(s.objectiveMs, kMinLogMs));
        if (s.number == bestStep)
            best << at;
        else if (!s.met() && s.verdict != QLatin1String("stopped"))
            missed << at;
        xMin = xMin == 0 ? x : std::min(xMin, x);
        xMax = std::max(xMax, x);
        yMin = std::min({ yMin, p50.last().y(), at.y() });
        yMax = std::max({ yMax, p999.last().y(), at.y() });
    }
    m_p50->replace(p50);
    m_p99->replace(p99);
    m_p999->replace(p999);
    m_best->replace(best);
    m_missed->replace(missed);
    if (xMax <= 0)
        xMax = 1000;
    // From zero, unless the steps bunch up far from it (a dimension that
    // hardly moves throughput): then around them, so they stay apart.
    xMin = xMin > 0.5 * xMax ? xMin * 0.9 : 0;
    xMax *= 1.08;
    if (limitMs > 0) {
        QString shown = objective;   // the legend reads rich text: "<=" would start a tag
        shown.replace(QLatin1String("<="), QStringLiteral("≤"));
        m_limit->setName(tr("objective %1").arg(shown));
        m_limit->replace({ QPointF(xMin, limitMs), QPointF(xMax, limitMs) });
        yMin = std::min(yMin, limitMs);
        yMax = std::max(yMax, limitMs);
    } else {
        m_limit->clear();
    }
    if (isZoomed())
        return;   // the person's zoom holds while steps arrive
    if (yMax <= 0) {
        yMin = 0.01;
        yMax = 10;
    }
    m_x->setRange(xMin, xMax);
    m_x->applyNiceNumbers();
    const double lo = std::pow(10.0, std::floor(std::log10(std::max(yMin, kMinLogMs))));
    const double hi = std::max(lo * 10, std::pow(10.0, std::ceil(std::log10(yMax * 1.05))));
    m_y->setRange(lo, hi);
}

int CapacityCurveWidget::pointCount() const
{
    return static_cast<int>(m_p50->count() + m_p99->count() + m_p999->count());
}

} // namespace tacho::ui
