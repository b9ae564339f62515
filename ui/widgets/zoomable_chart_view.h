#pragma once
// A chart view that zooms: drag a rectangle to zoom into it, right-click or
// double-click (or resetZoom()) to go back to the whole chart. While zoomed,
// the chart's owner keeps the axes where the person put them (isZoomed())
// and only replaces the data, so a live chart keeps its zoom while points
// stream in.
// Hovering shows a read-out: a vertical line at the pointer and a label with
// the x value and each line's value at the nearest point there.
#include <QChartView>

namespace tacho::ui {

class ZoomableChartView : public QChartView {
    Q_OBJECT
public:
    explicit ZoomableChartView(QWidget* parent = nullptr);

    bool isZoomed() const;
    void resetZoom();

    // The hover read-out's text ("12.4 s\nSET  41,200"), empty when none is shown.
    QString readoutText() const { return m_readout; }

Q_SIGNALS:
    void zoomChanged(bool zoomed);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    // The read-out's first line for x (a time chart: "12.4 s").
    virtual QString readoutX(double x) const;
    // A line's value as the read-out shows it.
    virtual QString readoutY(double y) const;
    // After the data or axes changed: the read-out again at the same place.
    void refreshReadout();

private:
    void updateReadout(const QPoint& viewPos);
    void hideReadout();

    QString m_readout;
    QPointF m_readoutScenePos;   // where the pointer is, in scene coordinates
    QPoint m_readoutViewPos;     // and in the view's
};

} // namespace tacho::ui
