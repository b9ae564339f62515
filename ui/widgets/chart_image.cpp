#include "ui/widgets/chart_image.h"

#include <QApplication>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>

namespace tacho::ui {

QImage ChartImage::draw(QGraphicsScene& scene, QChart* chart, QSize logicalSize, qreal devicePixelRatio, const QColor& background)
{
    // Axes and series lay themselves out through posted layout requests.
    QApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    chart->layout()->activate();
    chart->setBackgroundRoundness(0);   // square corners fill the image
    QImage image(logicalSize * devicePixelRatio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatio);
    image.fill(background);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF area(QPointF(0, 0), QSizeF(logicalSize));
    scene.render(&painter, area, area);
    painter.end();
    return image;
}

} // namespace tacho::ui
