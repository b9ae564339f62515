#pragma once
// Per test, side by side: ops/s and p99 as horizontal bars — the picture of
// redis-benchmark's -q output, for a suite of many tests (the default 21).
// Whole-test figures, so a test shorter than a chart tick still has its bars.
#include <QWidget>

#include "ui/model/run_record.h"

class QChartView;

namespace tacho::ui {

class TestBarsWidget : public QWidget {
    Q_OBJECT
public:
    explicit TestBarsWidget(QWidget* parent = nullptr);

    void showRun(const RunRecord& run);

    // What the bars show, top to bottom: test names, ops/s, p99 in ms.
    QStringList testNames() const { return m_names; }
    QVector<double> opsPerSecond() const { return m_ops; }
    QVector<double> p99Ms() const { return m_p99; }

private:
    QChartView* m_opsView;
    QChartView* m_p99View;
    QStringList m_names;
    QVector<double> m_ops, m_p99;
};

} // namespace tacho::ui
