#pragma once
// The four charts of a run in a grid, with the log-scale toggle, and beside
// them the telemetry panel (issue 19) when the run has telemetry. Live, it
// redraws on a timer (at most every kRefreshIntervalMs) and only when told
// the data changed, from the last `kLiveWindowSeconds`; frozen, it draws the
// whole run once. Either way one chart per turn of the event loop: four full
// redraws at once held the GUI thread for tens of milliseconds.
#include <QTimer>
#include <QWidget>

#include <algorithm>
#include <array>

#include "ui/widgets/run_chart_widget.h"
#include "ui/widgets/telemetry_panel_widget.h"

class QCheckBox;
class QSplitter;

namespace tacho::ui {

class RunChartsWidget : public QWidget {
    Q_OBJECT
public:
    // ≤ 2.5 redraws per second, per chart (one chart every 100 ms, in
    // turn): live enough to watch, and the engine and the server keep the
    // cores (the GUI shares them; a redraw is mostly software rendering).
    static constexpr int kRefreshIntervalMs = 400;
    static constexpr double kLiveWindowSeconds = 300;

    explicit RunChartsWidget(QWidget* parent = nullptr);

    // Draws from *run, which the caller keeps alive and unchanged except
    // between markDirty() calls. nullptr clears the charts.
    void setRun(const RunRecord* run, bool live);
    void markDirty() { std::fill(m_dirty.begin(), m_dirty.begin() + kRunCharts, true); }
    // New telemetry (once per sample): the panel's text now, its charts in turn.
    void markTelemetryDirty();
    // Every chart again, from the first, one per turn of the event loop.
    void redrawAll();

    RunChartWidget* chart(ChartKind kind) const;
    TelemetryPanelWidget* telemetryPanel() const { return m_telemetry; }
    bool logScale() const;
    void setLogScale(bool on);
    int refreshCount() const { return m_refreshes; }

    // The chart as an image at a chosen size, laid out afresh for it.
    QImage exportImage(ChartKind kind, QSize logicalSize, qreal devicePixelRatio) const;

private:
    void applyOptions();
    void updatePanel();
    void redrawNext();

    static constexpr std::size_t kRunCharts = 4;   // then the panel's two
    std::array<RunChartWidget*, 6> m_charts {};
    TelemetryPanelWidget* m_telemetry = nullptr;
    QSplitter* m_split = nullptr;
    QCheckBox* m_logScale = nullptr;
    QTimer m_timer;
    const RunRecord* m_run = nullptr;
    bool m_live = false;
    std::array<bool, 6> m_dirty {};
    std::size_t m_next = 0;   // the chart the next timer tick may redraw (live: its turn)
    int m_refreshes = 0;
};

} // namespace tacho::ui
