#pragma once
// One chart of a comparison: the engine's lines (engine/report/
// comparison_charts.h) drawn as they are — throughput or latency over time
// with every run on its own clock from its start, or the percentile
// spectrum on a 1/(1−p) axis. One colour per run, the same as in the run
// list; one line style per percentile (p50 dashed) or per test (spectrum).
// Legends name runs by their label, without the "[n]". It computes nothing.
#include <QChartView>
#include <QImage>

#include <vector>

#include "engine/report/comparison_charts.h"

namespace tacho::ui {

class ComparisonChartWidget : public QChartView {
    Q_OBJECT
public:
    enum class Kind { Throughput, Latency, Spectrum };
    static constexpr int kMaxPointsPerSeries = 1500;

    explicit ComparisonChartWidget(Kind kind, QWidget* parent = nullptr);

    Kind kind() const { return m_kind; }
    static QString fileStem(Kind kind);   // "compare-throughput", …

    // Redraws from the lines of `charts` that belong to this chart.
    void setCharts(const engine::ComparisonCharts& charts);
    int seriesCount() const;
    int pointCount() const;

    // The same chart laid out afresh at `logicalSize`, drawn at `dpr` device
    // pixels per logical pixel.
    static QImage renderImage(Kind kind, const engine::ComparisonCharts& charts, QSize logicalSize, qreal devicePixelRatio);

    // Whether the legend is shown: only when every entry fits in one row
    // uncut; otherwise the page's run list, in the same colours, names them.
    bool legendShown() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    bool dark() const;   // the palette is dark: the charts take the dark theme
    void fitLegend();

    Kind m_kind;
};

} // namespace tacho::ui
