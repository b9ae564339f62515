#pragma once
// The throughput-vs-latency curve of a capacity search (the "hockey
// stick"): achieved ops/s across, latency up (log scale), one line each for
// p50, p99 and p99.9 through the steps in order of their setting, the
// objective's limit as a dashed line and the step that proved the maximum
// marked. Filled in as steps complete; drag to zoom, right-click to reset.
#include <QVector>

#include "ui/model/capacity_record.h"
#include "ui/widgets/zoomable_chart_view.h"

class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QLogValueAxis;

namespace tacho::ui {

class CapacityCurveWidget : public ZoomableChartView {
    Q_OBJECT
public:
    explicit CapacityCurveWidget(QWidget* parent = nullptr);

    // The steps so far (any order), the best step's number (0 = none) and
    // the objective's limit in ms (0 = no line).
    void setSteps(const QVector<CapacityStepRow>& steps, int bestStep, double limitMs, const QString& objective);
    int pointCount() const;   // points on the three percentile lines

private:
    QLineSeries* m_p50 = nullptr;
    QLineSeries* m_p99 = nullptr;
    QLineSeries* m_p999 = nullptr;
    QLineSeries* m_limit = nullptr;
    QScatterSeries* m_best = nullptr;
    QScatterSeries* m_missed = nullptr;
    QValueAxis* m_x = nullptr;
    QLogValueAxis* m_y = nullptr;
};

} // namespace tacho::ui
