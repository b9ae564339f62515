#include "ui/widgets/chart_theme.h"

#include <QPalette>
#include <QWidget>

namespace tacho::ui {

bool hasDarkPalette(const QWidget& widget)
{
    return widget.palette().color(QPalette::Window).lightness() < 128;
}

} // namespace tacho::ui
