#pragma once
// The Latency page: the workbench's redis-cli --latency / --latency-history.
// One connection PINGs the current target (10 ms apart); the live line shows
// each round trip with min / avg / max and the sample count; in history mode
// every window (15 s by default) becomes a bar and a redis-cli-style line.
#include <QVector>
#include <QWidget>

#include "ui/model/latency_point.h"

class QBarSet;
class QCheckBox;
class QChart;
class QChartView;
class QDoubleSpinBox;
class QLabel;
class QLineSeries;
class QPlainTextEdit;
class QPushButton;
class QTimer;
class QBarSeries;
class QBarCategoryAxis;
class QValueAxis;

namespace tacho::ui {

class LatencyPage : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxPoints = 6000;   // one minute of samples

    explicit LatencyPage(QWidget* parent = nullptr);

    bool historyMode() const;
    double windowSeconds() const;
    void setTargetName(const QString& name);

    // From the bridge.
    void started();
    void addSamples(const QVector<LatencyPoint>& batch);
    void finished(const QString& status, const QString& error);

    QString statsText() const;
    int pointCount() const { return static_cast<int>(m_points.size()); }
    int windowCount() const { return static_cast<int>(m_windows.size()); }

Q_SIGNALS:
    void startRequested();
    void stopRequested();

private:
    void redraw();

    QLabel* m_target = nullptr;
    QCheckBox* m_history = nullptr;
    QDoubleSpinBox* m_window = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_stats = nullptr;
    QChart* m_chart = nullptr;
    QLineSeries* m_series = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    QChart* m_barChart = nullptr;
    QBarSeries* m_bars = nullptr;
    QBarSet* m_avgSet = nullptr;
    QBarSet* m_maxSet = nullptr;
    QBarCategoryAxis* m_barX = nullptr;
    QValueAxis* m_barY = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QTimer* m_timer = nullptr;
    QVector<QPointF> m_points;
    QVector<LatencyWindow> m_windows;
    LatencyWindow m_current;
    quint64 m_total = 0;
    bool m_dirty = false;
};

} // namespace tacho::ui
