#include "ui/agents/agent_rates_chart.h"

#include <QChart>
#include <QEvent>
#include <QLineSeries>
#include <QLocale>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "ui/widgets/chart_theme.h"

namespace tacho::ui {

namespace {

QString allAgents()
{
    return AgentRatesChart::tr("all agents");
}

} // namespace

AgentRatesChart::AgentRatesChart(QWidget* parent) : ZoomableChartView(parent)
{
    auto* chart = new QChart;
    chart->setTitle(tr("Requests per second, each second of the run on agents"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_x = new QValueAxis(chart);
    m_x->setTitleText(tr("second of the run"));
    m_x->setLabelFormat(QStringLiteral("%d"));
    m_y = new QValueAxis(chart);
    m_y->setTitleText(tr("req/s"));   // upright, it must fit the plot's height on a laptop (issue 31)
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(200);   // title, legend and the time axis leave the plot room for its ticks
    setAccessibleName(tr("Requests per second of each agent"));
    clear();
    applyTheme();
}

void AgentRatesChart::changeEvent(QEvent* event)
{
    ZoomableChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
}

void AgentRatesChart::applyTheme()
{
    chart()->setTheme(hasDarkPalette(*this) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // The theme resets the pens: the sum stays the thick line.
    for (QLineSeries* series : m_lines)
        if (series->name() == allAgents()) {
            QPen pen = series->pen();
            pen.setWidthF(2.5);
            series->setPen(pen);
        }
}

void AgentRatesChart::clear()
{
    for (QLineSeries* series : m_lines) {
        chart()->removeSeries(series);
        delete series;
    }
    m_lines.clear();
    m_tests.clear();
    m_highest = 0;
    resetZoom();
    line(allAgents());
    fitAxes();
}

QLineSeries* AgentRatesChart::line(const QString& name)
{
    for (QLineSeries* series : m_lines)
        if (series->name() == name)
            return series;
    auto* series = new QLineSeries;
    series->setName(name);
    chart()->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    m_lines.append(series);
    if (name == allAgents()) {
        QPen pen = series->pen();
        pen.setWidthF(2.5);
        series->setPen(pen);
    }
    return series;
}

void AgentRatesChart::addSecond(const QString& test, double total, const QStringList& agents,
                                const QVector<double>& rates)
{
    const double x = double(m_tests.size());
    m_tests.append(test);
    line(allAgents())->append(x, total);
    m_highest = std::max(m_highest, total);
    for (qsizetype i = 0; i < agents.size() && i < rates.size(); ++i)
        line(agents[i])->append(x, rates[i]);
    if (!isZoomed())
        fitAxes();
    refreshReadout();
}

void AgentRatesChart::fitAxes()
{
    // Whole seconds on the x axis, at most about ten labels.
    const double last = std::max<double>(1, double(m_tests.size()) - 1);
    m_x->setRange(0, last);
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(0);
    m_x->setTickInterval(std::max(1.0, std::ceil(last / 10)));
    m_y->setRange(0, m_highest > 0 ? m_highest * 1.1 : 1);
    m_y->applyNiceNumbers();
}

QStringList AgentRatesChart::lineNames() const
{
    QStringList names;
    for (const QLineSeries* series : m_lines)
        names << series->name();
    return names;
}

QList<QPointF> AgentRatesChart::points(const QString& name) const
{
    for (const QLineSeries* series : m_lines)
        if (series->name() == name)
            return series->points();
    return {};
}

QString AgentRatesChart::readoutX(double x) const
{
    const qsizetype index = qsizetype(std::lround(x));
    const QString test = index >= 0 && index < m_tests.size() ? m_tests[index] : QString();
    return test.isEmpty() ? tr("second %1").arg(index) : tr("second %1 (%2)").arg(index).arg(test);
}

} // namespace tacho::ui
