#pragma once
// A Qt chart drawn into an image, away from any window: for PNG exports.
#include <QColor>
#include <QImage>
#include <QSize>

class QChart;
class QGraphicsScene;

namespace tacho::ui {

class ChartImage {
public:
    // `chart` sits in `scene` with its geometry set to logicalSize and its
    // data in; lays it out and draws it on `background`, at `dpr` device
    // pixels per logical pixel.
    static QImage draw(QGraphicsScene& scene, QChart* chart, QSize logicalSize, qreal devicePixelRatio, const QColor& background);
};

} // namespace tacho::ui
