#pragma once
// A chart view that zooms: drag a rectangle to zoom into it, right-click or
// double-click (or resetZoom()) to go back to the whole chart. While zoomed,
// the chart's owner keeps the axes where the person put them (isZoomed())
// and only replaces the data, so a live chart keeps its zoom while points
// stream in.
#include <QChartView>

namespace tacho::ui {

class ZoomableChartView : public QChartView {
    Q_OBJECT
public:
    explicit ZoomableChartView(QWidget* parent = nullptr);

    bool isZoomed() const;
    void resetZoom();

Q_SIGNALS:
    void zoomChanged(bool zoomed);

protected:
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
};

} // namespace tacho::ui
