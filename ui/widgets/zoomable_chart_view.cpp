#include "ui/widgets/zoomable_chart_view.h"

#include <QChart>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QXYSeries>

#include <algorithm>

#include <cmath>

namespace tacho::ui {

ZoomableChartView::ZoomableChartView(QWidget* parent) : QChartView(parent)
{
    setRubberBand(QChartView::RectangleRubberBand);
    setToolTip(tr("Drag to zoom; right-click or double-click to show everything"));
    setMouseTracking(true);   // the hover read-out follows the pointer
}

QString ZoomableChartView::readoutX(double x) const
{
    return tr("%1 s").arg(QLocale().toString(x, 'f', 1));
}

QString ZoomableChartView::readoutY(double y) const
{
    // Four significant digits, grouped: "41,230", "0.9120".
    const int decimals = std::abs(y) >= 1000 ? 0 : std::max(0, 3 - static_cast<int>(std::floor(std::log10(std::max(std::abs(y), 1e-6)))));
    return QLocale().toString(y, 'f', std::min(decimals, 4));
}

void ZoomableChartView::updateReadout(const QPoint& viewPos)
{
    QChart* c = chart();
    if (!c) {
        hideReadout();
        return;
    }
    const QPointF scenePos = mapToScene(viewPos);
    const QPointF chartPos = c->mapFromScene(scenePos);
    if (!c->plotArea().contains(chartPos)) {
        hideReadout();
        return;
    }
    QStringList lines;
    double shownX = std::nan("");
    for (QAbstractSeries* abstract : c->series()) {
        auto* series = qobject_cast<QXYSeries*>(abstract);
        if (!series || !series->isVisible() || series->count() == 0)
            continue;
        const double x = c->mapToValue(chartPos, series).x();
        // The point nearest in time, if the line has one within reach (a line
        // broken by a gap shows nothing across the gap).
        const QList<QPointF> points = series->points();
        const auto after = std::lower_bound(points.cbegin(), points.cend(), x,
                                            [](const QPointF& p, double value) { return p.x() < value; });
        const QPointF* nearest = nullptr;
        if (after != points.cend())
            nearest = &*after;
        if (after != points.cbegin() && (!nearest || x - std::prev(after)->x() < nearest->x() - x))
            nearest = &*std::prev(after);
        if (!nearest)
            continue;
        const double reach = points.size() > 1 ? 2 * (points.last().x() - points.first().x()) / double(points.size() - 1) : 1;
        if (std::abs(nearest->x() - x) > reach)
            continue;
        if (std::isnan(shownX))
            shownX = nearest->x();
        const QString name = series->name().isEmpty() ? tr("value") : series->name();
        const QString line = QStringLiteral("%1  %2").arg(name, readoutY(nearest->y()));
        if (!lines.contains(line))   // a line split into segments has one name
            lines << line;
    }
    if (lines.isEmpty()) {
        hideReadout();
        return;
    }
    lines.prepend(readoutX(shownX));
    m_readout = lines.join(QLatin1Char('\n'));
    m_readoutScenePos = scenePos;
    m_readoutViewPos = viewPos;
    viewport()->update();
}

void ZoomableChartView::refreshReadout()
{
    if (!m_readout.isEmpty())
        updateReadout(m_readoutViewPos);
}

void ZoomableChartView::hideReadout()
{
    if (m_readout.isEmpty())
        return;
    m_readout.clear();
    viewport()->update();
}

void ZoomableChartView::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() == Qt::NoButton)
        updateReadout(event->position().toPoint());
    else
        hideReadout();   // dragging a zoom rectangle
    QChartView::mouseMoveEvent(event);
}

void ZoomableChartView::leaveEvent(QEvent* event)
{
    hideReadout();
    QChartView::leaveEvent(event);
}

bool ZoomableChartView::viewportEvent(QEvent* event)
{
    // The zoom hint would cover the read-out: it shows only outside the plot.
    if (event->type() == QEvent::ToolTip && !m_readout.isEmpty())
        return true;
    return QChartView::viewportEvent(event);
}

void ZoomableChartView::drawForeground(QPainter* painter, const QRectF& rect)
{
    QChartView::drawForeground(painter, rect);
    if (m_readout.isEmpty() || !chart())
        return;
    painter->save();
    const QRectF plot = chart()->mapRectToScene(chart()->plotArea());
    const double x = std::clamp(m_readoutScenePos.x(), plot.left(), plot.right());
    const QColor text = palette().color(QPalette::ToolTipText);
    const QColor base = palette().color(QPalette::ToolTipBase);
    QPen pen(text);
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1);
    painter->setPen(pen);
    painter->drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    // The label beside the line, on the side with room, inside the plot.
    const QFontMetrics metrics(font());
    const QRectF bounds = metrics.boundingRect(QRect(0, 0, 1000, 1000), Qt::AlignLeft, m_readout);
    QRectF box(0, 0, bounds.width() + 12, bounds.height() + 8);
    box.moveTop(std::clamp(m_readoutScenePos.y() - box.height() / 2, plot.top(), std::max(plot.top(), plot.bottom() - box.height())));
    if (x + 8 + box.width() <= plot.right())
        box.moveLeft(x + 8);
    else
        box.moveRight(x - 8);
    painter->setPen(QPen(text, 1));
    painter->setBrush(base);
    painter->drawRoundedRect(box, 3, 3);
    painter->setFont(font());
    painter->drawText(box.adjusted(6, 4, -6, -4), Qt::AlignLeft | Qt::AlignTop, m_readout);
    painter->restore();
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
