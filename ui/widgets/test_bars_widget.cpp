#include "ui/widgets/test_bars_widget.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "ui/widgets/command_colors.h"

namespace tacho::ui {

namespace {

// One horizontal bar chart: a bar per test, the first test on top.
QChart* barChart(const QString& title, const QString& unit, const QStringList& names, const QVector<double>& values,
                 const QColor& color, int labelDigits, const QColor& labelColor, bool dark)
{
    auto* chart = new QChart;
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);   // first: a theme repaints the series
    chart->setBackgroundVisible(false);
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 2, 12, 2));
    auto* set = new QBarSet(unit);
    set->setColor(color);
    set->setBorderColor(color);
    QStringList categories;
    // Qt draws the first category at the bottom: reversed, the first test is on top.
    for (qsizetype i = names.size() - 1; i >= 0; --i) {
        categories << names[i];
        *set << values[i];
    }
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setBarWidth(0.75);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsPrecision(labelDigits);
    set->setLabelColor(labelColor);
    chart->addSeries(series);
    auto* tests = new QBarCategoryAxis;
    tests->append(categories);
    tests->setTruncateLabels(false);   // the names are the point: the bars give way
    chart->addAxis(tests, Qt::AlignLeft);
    series->attachAxis(tests);
    auto* axis = new QValueAxis;
    axis->setTitleText(unit);
    // Whole requests/s read as counts ("40000", not "4e+04"); milliseconds keep three digits.
    axis->setLabelFormat(labelDigits > 3 ? QStringLiteral("%.0f") : QStringLiteral("%.3g"));
    // Room past the longest bar for its label; round ticks.
    axis->setRange(0, std::max(1e-9, *std::max_element(values.begin(), values.end())) * 1.3);
    axis->applyNiceNumbers();
    chart->addAxis(axis, Qt::AlignBottom);
    series->attachAxis(axis);
    return chart;
}

} // namespace

TestBarsWidget::TestBarsWidget(QWidget* parent) : QWidget(parent)
{
    m_opsView = new QChartView(this);
    m_p99View = new QChartView(this);
    for (QChartView* view : { m_opsView, m_p99View }) {
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(240, 160);
    }
    m_opsView->setAccessibleName(tr("Requests per second, per test"));
    m_p99View->setAccessibleName(tr("p99 latency, per test"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_opsView, 1);
    layout->addWidget(m_p99View, 1);
}

void TestBarsWidget::showRun(const RunRecord& run)
{
    m_names.clear();
    m_ops.clear();
    m_p99.clear();
    for (const TestRecord& test : run.tests) {
        m_names << test.name;
        m_ops << std::round(test.opsPerSecond());   // whole requests/s, as redis-benchmark -q prints them
        m_p99 << test.latency.p99;
    }
    if (m_names.isEmpty())
        return;
    const QColor color = CommandColors::forIndex(0);
    const QColor text = palette().color(QPalette::WindowText);
    const bool dark = CommandColors::isDark(palette());
    for (auto [view, chart] : { std::pair { m_opsView, barChart(tr("Requests per second"), tr("requests/s"), m_names, m_ops, color, 9, text, dark) },
                                std::pair { m_p99View, barChart(tr("p99 latency"), tr("ms"), m_names, m_p99, color, 3, text, dark) } }) {
        QChart* old = view->chart();
        view->setChart(chart);
        delete old;
        // A bar per test, each tall enough to read its name.
        view->setMinimumHeight(std::min(int(m_names.size()) * 22 + 90, 600));
    }
}

} // namespace tacho::ui
