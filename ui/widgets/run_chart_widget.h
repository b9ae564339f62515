#pragma once
// One chart of a run: throughput per test over time, latency percentiles
// over time, the latency spectrum on a 1/(1-p) axis, or errors and
// reconnects over time. It draws only when told (refresh()), from a bounded
// window of the data, so the caller decides the rate (≤ 2.5 Hz live).
// Drag to zoom, right-click to reset: the zoom holds while data streams.
#include <QImage>
#include <QList>

#include "ui/model/run_record.h"
#include "ui/widgets/zoomable_chart_view.h"

class QLineSeries;
class QAbstractAxis;

namespace tacho::ui {

// The four run charts, then the telemetry panel's two (issue 19): CPU of
// the server and of this machine, the server's ops/s beside ours; all on
// the same time axis.
enum class ChartKind { Throughput, Latency, Spectrum, Errors, Cpu, ServerOps };

struct ChartOptions {
    bool logScale = false;        // latency axes (latency and spectrum charts)
    double windowSeconds = 0;     // time charts: show only the last N seconds (0 = all)
    bool dark = false;            // dark theme to match the palette
    int server = 0;               // telemetry charts: which master (cluster), by index
};

class RunChartWidget : public ZoomableChartView {
    Q_OBJECT
public:
    static constexpr int kMaxPointsPerSeries = 1500;

    explicit RunChartWidget(ChartKind kind, QWidget* parent = nullptr);

    ChartKind kind() const { return m_kind; }
    static QString title(ChartKind kind);
    static QString fileStem(ChartKind kind);   // "throughput", "latency", …

    void setOptions(const ChartOptions& options);
    const ChartOptions& options() const { return m_options; }
    // Redraws from `run` (its tests' intervals and spectra).
    void refresh(const RunRecord& run);
    // Points drawn now, over all series (tests check the chart got data).
    int pointCount() const;
    int seriesCount() const;

    // The chart laid out afresh at `logicalSize` and drawn at `dpr` device
    // pixels per logical pixel (HiDPI): the image is logicalSize × dpr pixels.
    // Client-side stalls: where a test's intervals leave time uncovered (the
    // client measured nothing, e.g. the machine paused it), in chart seconds
    // (tests placed one after another). Lines break there and the band is shaded.
    struct Stall {
        double from = 0, to = 0;
    };
    static QList<Stall> clientStalls(const RunRecord& run);
    // "client stall at 12 s–14 s" (several joined with "; "), empty when none.
    static QString stallNote(const RunRecord& run);

    static QImage renderImage(ChartKind kind, const RunRecord& run, const ChartOptions& options,
                              QSize logicalSize, qreal devicePixelRatio);

protected:
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    QString readoutX(double x) const override;

private:
    struct Content;
    ChartKind m_kind;
    ChartOptions m_options;
    std::shared_ptr<Content> m_content;
};

} // namespace tacho::ui
