#include "ui/widgets/run_charts_widget.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace tacho::ui {

RunChartsWidget::RunChartsWidget(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    auto* options = new QHBoxLayout;
    m_logScale = new QCheckBox(tr("&Logarithmic latency axis"), this);
    m_logScale->setToolTip(tr("Show latency on a log scale, so that p50 and max fit on one chart"));
    m_logScale->setAccessibleName(tr("Logarithmic latency axis"));
    options->addStretch(1);
    options->addWidget(m_logScale);
    layout->addLayout(options);

    // The run's charts, and beside them the telemetry panel: a splitter, so
    // a person can give either more room.
    auto* split = m_split = new QSplitter(Qt::Horizontal, this);
    auto* runCharts = new QWidget(split);
    auto* grid = new QGridLayout(runCharts);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    const std::array<ChartKind, kRunCharts> kinds { ChartKind::Throughput, ChartKind::Latency, ChartKind::Spectrum, ChartKind::Errors };
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        m_charts[i] = new RunChartWidget(kinds[i], runCharts);
        grid->addWidget(m_charts[i], static_cast<int>(i / 2), static_cast<int>(i % 2));
    }
    m_telemetry = new TelemetryPanelWidget(split);
    for (std::size_t i = 0; i < m_telemetry->charts().size(); ++i)
        m_charts[kRunCharts + i] = m_telemetry->charts()[i];
    m_telemetry->hide();
    split->addWidget(runCharts);
    split->addWidget(m_telemetry);
    split->setStretchFactor(0, 5);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    connect(m_telemetry, &TelemetryPanelWidget::serverChanged, this, &RunChartsWidget::markTelemetryDirty);

    connect(m_logScale, &QCheckBox::toggled, this, [this] {
        applyOptions();
        redrawAll();
    });
    connect(&m_timer, &QTimer::timeout, this, &RunChartsWidget::redrawNext);
    applyOptions();
}

void RunChartsWidget::redrawNext()
{
    // Live: one chart per tick, in turn, so each is redrawn at most every
    // kRefreshIntervalMs (the GUI shares the cores with the engine and the
    // server). Frozen: the next chart still to draw, until none is left.
    for (std::size_t tried = 0; tried < m_charts.size(); ++tried) {
        const std::size_t i = m_next;
        m_next = (m_next + 1) % m_charts.size();
        if (i >= kRunCharts && m_telemetry->isHidden())
            m_dirty[i] = false;   // nothing to draw for a hidden panel
        if (m_dirty[i]) {
            m_dirty[i] = false;
            static const RunRecord empty;
            m_charts[i]->refresh(m_run ? *m_run : empty);
            ++m_refreshes;
            break;
        }
        if (m_live)
            return;   // its turn, and nothing new for it
    }
    if (!m_live && std::find(m_dirty.begin(), m_dirty.end(), true) == m_dirty.end())
        m_timer.stop();
}

RunChartWidget* RunChartsWidget::chart(ChartKind kind) const
{
    for (RunChartWidget* c : m_charts)
        if (c->kind() == kind)
            return c;
    return nullptr;
}

bool RunChartsWidget::logScale() const
{
    return m_logScale->isChecked();
}

void RunChartsWidget::setLogScale(bool on)
{
    m_logScale->setChecked(on);
}

void RunChartsWidget::applyOptions()
{
    for (RunChartWidget* c : m_charts) {
        ChartOptions o = c->options();
        o.logScale = m_logScale->isChecked();
        o.windowSeconds = m_live ? kLiveWindowSeconds : 0;
        c->setOptions(o);
    }
}

void RunChartsWidget::updatePanel()
{
    const bool wasHidden = m_telemetry->isHidden();
    m_telemetry->update(m_run, m_live);
    // Appearing, it takes the share its stretch says, not its minimum.
    if (wasHidden && !m_telemetry->isHidden()) {
        const int width = std::max(m_split->width(), 700);
        m_split->setSizes({ width * 5 / 7, width * 2 / 7 });
    }
}

void RunChartsWidget::markTelemetryDirty()
{
    updatePanel();
    std::fill(m_dirty.begin() + kRunCharts, m_dirty.end(), true);
}

void RunChartsWidget::setRun(const RunRecord* run, bool live)
{
    m_run = run;
    m_live = live && run;
    updatePanel();
    // Antialiased lines cost most of a redraw; live, beside a busy
    // engine and server, crisp is less important than cheap.
    for (RunChartWidget* c : m_charts)
        c->setRenderHint(QPainter::Antialiasing, !m_live);
    applyOptions();
    redrawAll();
}

void RunChartsWidget::redrawAll()
{
    m_dirty.fill(true);
    m_next = 0;
    m_timer.start(m_live ? kRefreshIntervalMs / static_cast<int>(m_charts.size()) : 0);
}

QImage RunChartsWidget::exportImage(ChartKind kind, QSize logicalSize, qreal devicePixelRatio) const
{
    static const RunRecord empty;
    ChartOptions options = chart(kind)->options();
    options.windowSeconds = 0;   // an export shows the whole run
    return RunChartWidget::renderImage(kind, m_run ? *m_run : empty, options, logicalSize, devicePixelRatio);
}

} // namespace tacho::ui
