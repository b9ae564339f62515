#include "ui/latency/latency_page.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/model/number_format.h"
#include "ui/widgets/zoomable_chart_view.h"

namespace tacho::ui {

namespace {

// redis-cli's own line: "min: 0, max: 18, avg: 0.40 (4591 samples)", with
// more digits for min and max (sub-millisecond round trips are the rule).
QString redisCliLine(const LatencyWindow& w)
{
    return QStringLiteral("min: %1, max: %2, avg: %3 (%4 samples)")
        .arg(w.minMs, 0, 'f', 3)
        .arg(w.maxMs, 0, 'f', 3)
        .arg(w.avgMs, 0, 'f', 2)
        .arg(w.samples);
}

} // namespace

LatencyPage::LatencyPage(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* controls = new QHBoxLayout;
    m_target = new QLabel(this);
    m_history = new QCheckBox(tr("&History windows of"), this);
    m_history->setToolTip(tr("Start the statistics afresh every window (redis-cli --latency-history)"));
    m_window = new QDoubleSpinBox(this);
    m_window->setRange(1, 3600);
    m_window->setValue(15);
    m_window->setSuffix(tr(" s"));
    m_window->setAccessibleName(tr("History window length"));
    m_window->setToolTip(tr("redis-cli -i: the length of a history window"));
    m_start = new QPushButton(QIcon(QStringLiteral(":/icons/run.svg")), tr("&Start sampling"), this);
    m_start->setToolTip(tr("PING the target, wait for the reply, pause 10 ms, repeat (redis-cli --latency)"));
    m_stop = new QPushButton(QIcon(QStringLiteral(":/icons/stop.svg")), tr("S&top"), this);
    m_stop->setEnabled(false);
    controls->addWidget(m_target, 1);
    controls->addWidget(m_history);
    controls->addWidget(m_window);
    controls->addWidget(m_start);
    controls->addWidget(m_stop);
    layout->addLayout(controls);

    m_stats = new QLabel(this);
    QFont big = m_stats->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_stats->setFont(big);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stats->setAccessibleName(tr("Latency statistics"));
    layout->addWidget(m_stats);

    auto* split = new QSplitter(Qt::Vertical, this);
    m_chart = new QChart;
    m_chart->setTitle(tr("PING round trip"));
    m_chart->legend()->hide();
    m_series = new QLineSeries;
    m_chart->addSeries(m_series);
    m_x = new QValueAxis;
    m_x->setTitleText(tr("seconds"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_y = new QValueAxis;
    m_y->setTitleText(tr("ms"));
    m_y->setLabelFormat(QStringLiteral("%.2f"));
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_series->attachAxis(m_x);
    m_series->attachAxis(m_y);
    // Zoomable, with the hover read-out of the run charts.
    auto* view = new ZoomableChartView(split);
    view->setChart(m_chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setAccessibleName(tr("Round trip chart"));

    m_barChart = new QChart;
    m_barChart->setTitle(tr("History windows (avg and max)"));
    m_bars = new QBarSeries;
    m_avgSet = new QBarSet(tr("avg ms"));
    m_maxSet = new QBarSet(tr("max ms"));
    m_bars->append(m_avgSet);
    m_bars->append(m_maxSet);
    m_barChart->addSeries(m_bars);
    m_barX = new QBarCategoryAxis;
    m_barY = new QValueAxis;
    m_barY->setTitleText(tr("ms"));
    m_barChart->addAxis(m_barX, Qt::AlignBottom);
    m_barChart->addAxis(m_barY, Qt::AlignLeft);
    m_bars->attachAxis(m_barX);
    m_bars->attachAxis(m_barY);
    m_barChart->legend()->setAlignment(Qt::AlignBottom);
    auto* barView = new QChartView(m_barChart, split);
    barView->setRenderHint(QPainter::Antialiasing);
    barView->setAccessibleName(tr("History windows chart"));

    m_log = new QPlainTextEdit(split);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setAccessibleName(tr("History windows, as redis-cli prints them"));
    m_log->setPlaceholderText(tr("One line per history window, as redis-cli --latency-history prints it."));
    split->addWidget(view);
    split->addWidget(barView);
    split->addWidget(m_log);
    // The windows' bars and lines only mean something in history mode.
    const auto showHistory = [barView, this](bool on) {
        barView->setVisible(on);
        m_log->setVisible(on);
    };
    connect(m_history, &QCheckBox::toggled, this, showHistory);
    showHistory(false);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 1);
    layout->addWidget(split, 1);

    // Redraws on a timer, ≤ 10 per second, like the run charts.
    m_timer = new QTimer(this);
    m_timer->setInterval(100);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_dirty)
            redraw();
    });
    connect(m_start, &QPushButton::clicked, this, &LatencyPage::startRequested);
    connect(m_stop, &QPushButton::clicked, this, &LatencyPage::stopRequested);
    m_stats->setText(tr("Not sampling"));
}

bool LatencyPage::historyMode() const { return m_history->isChecked(); }
double LatencyPage::windowSeconds() const { return m_window->value(); }

void LatencyPage::setTargetName(const QString& name)
{
    m_target->setText(tr("Target: <b>%1</b>").arg(name.toHtmlEscaped()));
}

void LatencyPage::started()
{
    m_points.clear();
    m_windows.clear();
    m_current = {};
    m_total = 0;
    m_avgSet->remove(0, m_avgSet->count());
    m_maxSet->remove(0, m_maxSet->count());
    m_barX->clear();
    m_log->clear();
    m_start->setEnabled(false);
    m_stop->setEnabled(true);
    m_history->setEnabled(false);
    m_window->setEnabled(false);
    m_stats->setText(tr("Connecting…"));
    m_timer->start();
}

void LatencyPage::addSamples(const QVector<LatencyPoint>& batch)
{
    for (const LatencyPoint& p : batch) {
        m_points << QPointF(p.elapsedSeconds, p.rttMs);
        m_current = p.window;
        m_total = p.totalSamples;
        if (p.windowClosed) {
            m_windows << p.window;
            m_log->appendPlainText(redisCliLine(p.window)
                                   + QStringLiteral(" -- %1 seconds range").arg(p.window.elapsedSeconds, 0, 'f', 2));
            m_avgSet->append(p.window.avgMs);
            m_maxSet->append(p.window.maxMs);
            m_barX->append(QString::number(m_windows.size()));
        }
    }
    if (m_points.size() > kMaxPoints)
        m_points.remove(0, m_points.size() - kMaxPoints);
    m_dirty = true;
}

void LatencyPage::finished(const QString& status, const QString& error)
{
    m_timer->stop();
    redraw();
    m_start->setEnabled(true);
    m_stop->setEnabled(false);
    m_history->setEnabled(true);
    m_window->setEnabled(true);
    if (status == QLatin1String("failed"))
        m_stats->setText(tr("Failed: %1").arg(error));
    else
        m_stats->setText(statsText() + tr("  — %1").arg(status));
}

QString LatencyPage::statsText() const
{
    return redisCliLine(m_current) + (historyMode() ? tr("  · window %1 · %2 samples in all").arg(m_windows.size() + 1).arg(NumberFormat::count(m_total))
                                                    : QString());
}

void LatencyPage::redraw()
{
    m_dirty = false;
    m_series->replace(QList<QPointF>(m_points.begin(), m_points.end()));
    double maxY = 0;
    for (const QPointF& p : m_points)
        maxY = std::max(maxY, p.y());
    const double x0 = m_points.isEmpty() ? 0 : m_points.first().x();
    const double x1 = m_points.isEmpty() ? 1 : std::max(m_points.last().x(), x0 + 1);
    m_x->setRange(x0, x1);
    // Round ticks (0.5 s, 1 s, 5 s, …) and as many decimals as they need.
    const double span = x1 - x0;
    const double raw = span / 5;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw <= power ? power : raw <= 2 * power ? 2 * power : raw <= 5 * power ? 5 * power : 10 * power;
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(0);
    m_x->setTickInterval(step);
    m_x->setLabelFormat(step < 1 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    m_y->setRange(0, maxY > 0 ? maxY * 1.1 : 1);
    m_y->applyNiceNumbers();
    double barMax = 0;
    for (const LatencyWindow& w : m_windows)
        barMax = std::max(barMax, w.maxMs);
    m_barY->setRange(0, barMax > 0 ? barMax * 1.1 : 1);
    if (m_current.samples > 0)
        m_stats->setText(statsText());
}

} // namespace tacho::ui
