#include "ui/widgets/zoomable_chart_view.h"

#include <QChart>
#include <QMouseEvent>

namespace tacho::ui {

ZoomableChartView::ZoomableChartView(QWidget* parent) : QChartView(parent)
{
    setRubberBand(QChartView::RectangleRubberBand);
    setToolTip(tr("Drag to zoom; right-click or double-click to show everything"));
}

bool ZoomableChartView::isZoomed() const
{
    return chart() && chart()->isZoomed();
}

void ZoomableChartView::resetZoom()
{
    if (!isZoomed())
        return;
    chart()->zoomReset();
    Q_EMIT zoomChanged(false);
}

void ZoomableChartView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::RightButton) {
        // QChartView would zoom out by a factor; people expect "back to all".
        resetZoom();
        event->accept();
        return;
    }
    const bool wasZoomed = isZoomed();
    QChartView::mouseReleaseEvent(event);
    if (isZoomed() != wasZoomed || (event->button() == Qt::LeftButton && isZoomed()))
        Q_EMIT zoomChanged(isZoomed());
}

void ZoomableChartView::mouseDoubleClickEvent(QMouseEvent* event)
{
    resetZoom();
    event->accept();
}

} // namespace tacho::ui
