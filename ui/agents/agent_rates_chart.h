#pragma once
// The Agents page's live chart of a run on agents: requests per second, a
// point for each second of the run once every agent has gone past it — one
// line for all the agents together and one for each, so a slow or stalled
// load machine shows as it happens.
#include <QList>
#include <QPointF>
#include <QStringList>
#include <QVector>

#include "ui/widgets/zoomable_chart_view.h"

class QLineSeries;
class QValueAxis;

namespace tacho::ui {

class AgentRatesChart : public ZoomableChartView {
    Q_OBJECT
public:
    explicit AgentRatesChart(QWidget* parent = nullptr);

    void clear();
    // The next second of the run (its seconds follow one another across its
    // tests): the agents' sum and each agent's rate, `agents` and `rates` in step.
    void addSecond(const QString& test, double total, const QStringList& agents, const QVector<double>& rates);

    // For tests and read-outs: the lines by name ("all agents" first), and a line's points.
    QStringList lineNames() const;
    QList<QPointF> points(const QString& line) const;

protected:
    QString readoutX(double x) const override;
    void changeEvent(QEvent* event) override;   // a dark palette: the dark theme

private:
    void applyTheme();
    QLineSeries* line(const QString& name);
    void fitAxes();

    QValueAxis* m_x;
    QValueAxis* m_y;
    QList<QLineSeries*> m_lines;
    QStringList m_tests;          // the test of each second, by x
    double m_highest = 0;
};

} // namespace tacho::ui
